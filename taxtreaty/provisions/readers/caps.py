"""Withholding caps: "shall not exceed 15 per cent of the gross amount of the dividends".

`read_caps` reads one paragraph's units: each rate with the conditions that select it (one cap
per segment of a sentence, one per item under a rate that introduces a list), and `unknown`
caps where the source stops inside a clause, a figure is damaged, an item of a list of rates
holds no readable rate, or a paragraph announces a limit whose rate is lost. `missing_caps`
adds the `unknown` cap of an income article that lost the paragraphs of its rates.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import regex

from taxtreaty.patterns import SENTENCE_END, compiled
from taxtreaty.provisions import conditions as cond
from taxtreaty.provisions import figures, states
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.holdings import investment_alternatives, is_holding_share
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.parties import last_role, parties_kinds
from taxtreaty.provisions.reading import Emitted, Reading, cite_label
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure.model import Article, Version


def read_caps(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """The caps of one paragraph's units, in the order of the text."""
    out = Emitted(reading)
    paragraph = units[0].paragraph
    found = False
    covered: set[int] = set()  # units whose rate came from the item that introduces them
    for unit in units:
        inherited_cap = any(ph.has("cap", c.folded) for c in unit.context)
        unit_found = False
        # "shall not exceed 5 per cent ... if ...; 15 per cent ... in all other cases": a sentence
        # that follows a capped one after ";" continues its list of rates
        chained_from: str | None = None
        sentences = unit.sentences()
        cut_unit = reading.cut_after(unit)
        for k, (s_start, s_end) in enumerate(sentences):
            sentence = unit.folded[s_start:s_end]
            previous_chain, chained_from = chained_from, None
            if cut_unit and k == len(sentences) - 1 and not SENTENCE_END.search(sentence.rstrip()) \
                    and (inherited_cap or ph.has("cap", sentence)) and figures.find_rates(sentence, ph):
                # the source stops inside this clause: the words after its rate (the conditions
                # that select it, or "per cent" after a threshold) are lost, so no rate is certain
                found = unit_found = True
                out.add(unit, "withholding_cap", reading.cite(unit, s_start, s_end), status="unknown",
                        reason=f"{cite_label(unit.article, unit.eid)} is cut off mid-sentence in the source text; "
                        "the rest of the clause, and the conditions it may set, are missing",
                        conditions=cond.clause_conditions(sentence, ph, reading.parties))
                continue
            damaged_rates = figures.find_damaged_rates(sentence, ph)
            if damaged_rates:
                cap = ph.find("cap", sentence)
                if (cap is not None and cap.start() < damaged_rates[0][0]) or (k == 0 and inherited_cap):
                    # the figures of this clause cannot all be read: none of them is stated as certain
                    found = unit_found = True
                    printed = unit.text[s_start + damaged_rates[0][0] : s_start + damaged_rates[0][1]]
                    out.add(unit, "withholding_cap", reading.cite(unit, s_start, s_end), status="unknown",
                            reason=f"a rate in {cite_label(unit.article, unit.eid)} is damaged in the source text "
                            f"({printed!r}); no rate of this clause is read as certain",
                            conditions=cond.clause_conditions(sentence, ph, reading.parties))
                    continue
            rates = [r for r in figures.find_rates(sentence, ph) if not is_holding_share(sentence, r, ph)]
            if not rates:
                continue
            cap = ph.find("cap", sentence)
            if not ((cap is not None and cap.start() < rates[0].start) or (k == 0 and inherited_cap)
                    or (previous_chain is not None and rates[0].start < 40)):
                continue
            if sentence.rstrip().endswith(";"):
                chained_from = previous_chain or sentence[: rates[0].start]
            found = unit_found = True
            children = [u for u in units if unit in u.context and u.role == "point"] if unit.role == "intro" else []
            covered.update(id(c) for c in children)
            # "c) 5 per cent ... if the beneficial owner is: (i) a company ...; (ii) ...": items that set no rate of
            # their own are alternatives of the one rate; an item with its own rate is a rate of the list ("...
            # shall not exceed — (a) 15 per cent ... ; (b) 25 per cent ...", its "(a)" run into the introduction)
            if children and len(rates) == 1 and not any(_own_rates(c, ph) for c in children):
                _cap_alternatives(reading, out, unit, ph, s_start, sentence, rates[0], children)
            else:
                _cap_sentence(reading, out, unit, ph, s_start, sentence, rates, lead=previous_chain)
        if inherited_cap and unit.role == "point" and not unit_found and id(unit) not in covered \
                and not any(ph.has("cap", c.folded) for c in unit.context[1:]):
            # an item of a list of rates that holds no readable rate: never skip it silently
            where = cite_label(unit.article, unit.eid)
            # "the lesser of (a) 15 per cent ... and (b) the rate determined by reference to ...": the limit
            # is at most the other items' rate, and this item's rate is one the user can work out
            lesser = cond.has_optional(ph, "lesser_of", *(c.folded for c in unit.context))
            out.add(unit, "withholding_cap", reading.cite(unit, 0, len(unit.text)), status="unknown",
                    reason=f"{where} is an item of the list of rates but no rate can be read from its words",
                    conditions=cond.clause_conditions(unit.folded, ph, reading.parties),
                    # the words are there: unread, not missing
                    values={"words_unread": True, **({"lesser_of": True} if lesser else {})})
    if units[0].article.topic == "pensions":
        _pension_payments(out, units, ph)
    _limitation_exceptions(out, units, ph)
    cap_units = [u for u in units if ph.has("cap", u.folded)]
    if not cap_units and units[0].article.topic in ("dividends", "interest", "royalties"):
        # "o imposto assim estabelecido não [page header] excederá 10 por cento": the words of the
        # limit are broken, but the clause that announces one is there; never read it as no limit
        cap_units = [u for u in units if ph.has("charged_tax", u.folded)]
    # "the tax must [an unknown verb]: (a) 5 percent of the gross amount of the dividends if ...": a rate of the
    # gross amount of the payment, in words no cap phrase reads, is a limit not read, never no limit; the
    # paragraph's own words say it (its items' conditions do not bound the limit)
    if not cap_units and units[0].article.topic in ("dividends", "interest", "royalties") \
            and "rate_without_percent" in ph.patterns \
            and any(ph.has("rate_without_percent", u.folded) and figures.find_rates(u.folded, ph) for u in units):
        cap_units = [units[0]]
    damage = reading.damaged(units[0].language, paragraph.eid)
    if "list_items_missing" in damage and found and _colon_after_whole_rate(units, ph):
        damage = [d for d in damage if d != "list_items_missing"]
    if cap_units and found and _list_continues(units, ph):
        damage = [*damage, "list_items_missing"]
    if cap_units and (not found or "list_items_missing" in damage):
        _unknown_cap(reading, out, cap_units[0], ph, found, damage)
    return out


def _own_rates(unit: Unit, ph: Phrases) -> list[figures.Figure]:
    """The rates a unit's own words set (not a share of a holding test)."""
    return [r for r in figures.find_rates(unit.folded, ph) if not is_holding_share(unit.folded, r, ph)]


def _limitation_exceptions(out: Emitted, units: list[Unit], ph: Phrases) -> None:
    """"... no podrá exceder del 15 por ciento ... Sin embargo, esta limitación no procederá sobre los pagos de
    sumas totales ... o para los pagos de cualquier clase de acuerdo con lo estipulado en un contrato de una
    anualidad, cuyo costo sea deducible ...": the payments the later sentence takes out of the limit are words
    no reader reads; the caps before it wait on them (unread), never hold as if they were not there."""
    if "limitation_not_apply" not in ph.patterns:
        return
    for unit in units:
        found = ph.find("limitation_not_apply", unit.folded)
        if found is None:
            continue
        start = max((s for s, _ in unit.sentences() if s <= found.start()), default=found.start())
        end = next((e for s, e in unit.sentences() if s <= found.start() < e), len(unit.text))
        words = " ".join(unit.text[start:end].split())
        for provision in out:
            if provision.kind == "withholding_cap" and provision.status == "determined" \
                    and provision.cite.eid == unit.eid \
                    and ph.find("limitation_not_apply", fold_same_length(provision.cite.quote)) is None:
                held = provision.conditions.get("unread_condition")
                provision.conditions["unread_condition"] = f"{held}; {words}" if held else words


def _pension_payments(out: Emitted, units: list[Unit], ph: Phrases) -> None:
    """What a cap of the pension article is for. "Sin embargo, en los casos de pagos de pensiones periódicas,
    el impuesto así exigido no excederá ...": periodic payments only (a lump sum is taxed under the source
    State's law; a cap that names payments not periodic keeps its own word). "Las anualidades originadas en un
    Estado Contratante ... no podrá exceder del 15 por ciento": annuities only, not pensions ("Las pensiones
    originadas ...": pensions only)."""
    annuities = cond.annuity_subject(units[0].folded, ph, units[0].article)
    periodic = any(cond.has_optional(ph, "periodic_payments", u.folded) for u in units)
    if annuities is None and not periodic:
        return
    for provision in out:
        if provision.kind != "withholding_cap":
            continue
        if annuities is not None:
            provision.conditions.setdefault("annuity", annuities)
        unit = next((u for u in units if u.eid == provision.cite.eid), None)
        if not periodic or unit is None or "payment_periodic" in provision.conditions:
            continue
        words = [unit.folded, *(c.folded for c in unit.context)]
        if cond.has_optional(ph, "periodic_payments", *words) and not cond.has_optional(ph, "not_periodic", *words):
            provision.conditions["payment_periodic"] = True


def _context_conditions(reading: Reading, unit: Unit, ph: Phrases) -> dict[str, Any]:
    """The conditions the introductions above a unit set: their clauses, and the State an item that
    names only a State gives its items ("a) En Australia: i) el 10 por ciento ..."): the source State."""
    inherited: dict[str, Any] = {}
    for ctx in unit.context:
        inherited = cond.merge(inherited, cond.clause_conditions(ctx.folded, ph, reading.parties))
        state = states.state_heading(ctx.folded, ph, reading.parties) if ctx.role == "intro" else None
        if state is not None:
            inherited["source_state"] = state
    return inherited


def _colon_after_whole_rate(units: list[Unit], ph: Phrases) -> bool:
    """"... no podrá exceder del 15 por ciento del monto bruto de las regalías:" then the next
    paragraph: a paragraph of no items whose rate clause ends, before its colon, on the base and the
    income itself: the clause is whole and the colon a misprint, not a list whose items were lost (a
    clause that ends "... of the royalties paid for:" still announces the items it needs)."""
    if len(units) != 1 or units[0].role != "whole":
        return False
    folded = units[0].folded.rstrip()
    if not folded.endswith(":"):
        return False
    rates = figures.find_rates(folded, ph)
    if not rates:
        return False
    tail = folded[rates[-1].end : -1].rstrip()
    ends_on_income = any(end == len(tail) for _, end, _ in ph.group_hits("incomes", tail))
    return ends_on_income and bool(base_of(folded, rates[-1], ph))


def _list_continues(units: list[Unit], ph: Phrases) -> bool:
    """The last item of a list ends as if another followed ("...;", "...; or") and none does: no
    words close the list after it (a "siempre que ..." that ends the paragraph does)."""
    points = [u for u in units if u.role == "point"]
    if not points or units[-1].role == "wrap":
        return False
    last = points[-1].text.rstrip()
    if not units[0].paragraph.text.rstrip().endswith(last):
        return False  # words after the last item (an item's own wrap-up) close the list
    joiners = ph.word_group("and_words", "or_words")
    return bool(compiled(rf"(?:[;,]|[;,]\s*{joiners})$").search(last))


def _cap_sentence(reading: Reading, out: Emitted, unit: Unit, ph: Phrases,
                 s_start: int, sentence: str, rates: list[figures.Figure],
                 lead: str | None = None) -> None:
    # one segment per rate: it ends at the last "," or ";" before the next rate
    bounds = [0]
    for prev, nxt in pairwise(rates):
        gap = sentence[prev.end : nxt.start]
        cut = max(gap.rfind(","), gap.rfind(";"))
        bounds.append(prev.end + cut if cut >= 0 else nxt.start)
    bounds.append(len(sentence))
    inherited = _context_conditions(reading, unit, ph)
    if lead is not None:  # the words before the first rate of the sentence this one continues
        inherited = cond.merge(inherited, cond.clause_conditions(lead, ph, reading.parties))
    prefix = cond.clause_conditions(sentence[: rates[0].start], ph, reading.parties)
    for i, rate in enumerate(rates):
        seg_start, seg_end = bounds[i], bounds[i + 1]
        own = cond.clause_conditions(sentence[seg_start:seg_end], ph, reading.parties)
        base = inherited if i == 0 else cond.merge(inherited, prefix)
        conditions = cond.merge(base, own)
        kinds = parties_kinds(sentence[seg_start:seg_end], ph)
        conditions = cond.merge(conditions, kinds)
        if not own.get("otherwise"):
            conditions.pop("otherwise", None)
        segment = sentence[seg_start:seg_end]
        for alternative in (a for c in investment_alternatives(conditions, segment, ph)
                            for a in cond.loan_alternatives(c, segment, ph)):
            out.add(
                unit, "withholding_cap", reading.cite(unit, s_start + seg_start, s_start + seg_end),
                rate_pct=cond.as_decimal(rate.value), conditions=alternative, values=base_of(sentence, rate, ph, unit.folded),
                state=alternative.get("source_state"), clause=sentence,
            )


def _cap_alternatives(reading: Reading, out: Emitted, unit: Unit, ph: Phrases,
                      s_start: int, sentence: str, rate: figures.Figure,
                      children: list[Unit]) -> None:
    """"c) 5 per cent ... if the beneficial owner is: (i) a company ...; (ii) the Government ...": one
    cap per item, cited from the rate through the item."""
    inherited = _context_conditions(reading, unit, ph)
    base = cond.merge(inherited, cond.clause_conditions(sentence, ph, reading.parties))
    role = last_role(sentence, ph) or "recipient"
    for child in children:
        own = cond.merge(cond.clause_conditions(child.folded, ph, reading.parties),
                         parties_kinds(child.folded, ph, default_role=None, context_role=role))
        if not own:
            # "a) 10 por ciento ... en los casos de pagos ... a los que se refiere: i) el subapartado
            # 3 (a) ...": an alternative the engine reads nothing in is not "any case"
            own = {"unread_condition": " ".join(child.text.split()).rstrip(";,. ")}
        conditions = cond.merge(base, own)
        for alternative in cond.loan_alternatives(conditions, child.folded, ph):
            # cited from the rate through the item, by the item's own eId ("art_10__para_2__point_c__point_i")
            cite = reading.cite_cleaned(unit.language, child.eid, unit.start + s_start, child.end)
            out.add(unit, "withholding_cap", cite, rate_pct=cond.as_decimal(rate.value), conditions=alternative,
                    values=base_of(sentence, rate, ph, unit.folded), state=alternative.get("source_state"),
                    condition_texts=[unit.text[s_start : s_start + len(sentence)], child.text])


def _unknown_cap(reading: Reading, out: Emitted, unit: Unit, ph: Phrases, found_some: bool, damage: list[str]) -> None:
    where = cite_label(unit.article, unit.paragraph.eid)
    sentences = unit.sentences()
    s_start, s_end = next(((a, b) for a, b in sentences if ph.has("cap", unit.folded[a:b])),
                          next(((a, b) for a, b in sentences if ph.has("charged_tax", unit.folded[a:b])), sentences[-1]))
    if found_some:
        reason = (f"{where} lists rates but some of its list items are missing from the source text; "
                  "a rate for other cases may be among them")
    elif "list_items_missing" in damage or unit.text.rstrip().endswith(":"):
        reason = f"{where} announces the rates but its list items are missing from the source text"
    elif not unit.paragraph.complete or not unit.article.complete:
        reason = f"{where} is cut off in the source text before the rate"
    else:
        reason = f"{where} sets a limit but no rate could be read from its words"
    conditions = cond.clause_conditions(unit.folded[s_start:s_end], ph, reading.parties)
    conditions.pop("otherwise", None)
    out.add(unit, "withholding_cap", reading.cite(unit, s_start, s_end), status="unknown", reason=reason,
            conditions=conditions)


def missing_caps(reading: Reading, version: Version, article: Article, found: list[Provision]) -> list[Provision]:
    """An income article with no cap at all, in a text that lost paragraphs of it."""
    out = Emitted(reading)
    if any(p.kind == "withholding_cap" for p in found):
        return []
    damage = reading.damaged(version.language, article.eid)
    if not damage and article.complete:
        return []
    if not any(p.number == "2" for p in article.paragraphs) or damage:
        heading_end = reading.doc.original.find("\n", article.span[0], article.span[1])
        span = (article.span[0], heading_end if heading_end > 0 else article.span[1])
        cite = reading.source.cite_original(version.language, article.eid, span)
        lost = "paragraphs_missing" in damage
        reason = (f"paragraphs of article {article.number} are missing from the source text; no rate can be read"
                  if lost else f"article {article.number} is incomplete in the source text and no rate can be read from it")
        out.add(article, "withholding_cap", cite, status="unknown", reason=reason)
    return out


def base_of(sentence: str, rate: figures.Figure, ph: Phrases, whole: str = "") -> dict[str, Any]:
    """What the rate applies to: the gross amount (the Model's wording) or another base the text defines
    ("10 per cent of the adjusted amount of the royalties"): the first of `rate_bases` named after it. A base
    the clause defines as a share of the gross amount ("the adjusted amount" means 60 per cent of the gross
    amount of the royalties) gives that share (`base_pct`), so the rate of the gross can be computed."""
    after = sentence[rate.end : rate.end + 40]
    for base, pattern in ph.groups["rate_bases"].items():
        if pattern.search(after):
            share = _base_share(whole or sentence, pattern, ph) if base != "gross_amount" else None
            return {"base": base} if share is None else {"base": base, "base_pct": share}
    return {}


#: how far a base's definition word may follow the base's name, and its share the definition word
_DEFINITION_WINDOW = 30


def _base_share(text: str, base: regex.Pattern[str], ph: Phrases) -> Any | None:
    """"“the adjusted amount” means 60 per cent of the gross amount": the share of the gross a base is."""
    gross = ph.groups["rate_bases"].get("gross_amount")
    if "base_definition" not in ph.patterns or gross is None:
        return None
    for m in base.finditer(text):
        defined = ph.find("base_definition", text, m.end(), min(len(text), m.end() + _DEFINITION_WINDOW))
        if defined is None:
            continue
        tail = text[defined.end() : defined.end() + _DEFINITION_WINDOW + 40]
        shares = figures.find_rates(tail, ph)
        if shares and shares[0].start < _DEFINITION_WINDOW and gross.search(tail[shares[0].end : shares[0].end + 30]):
            return f"{cond.as_decimal(shares[0].value).normalize():f}"
    return None
