"""The conditions of a capital gains paragraph (OECD article 13): the property alienated, the tests a paragraph
on shares sets, and the clauses whose words no fact answers.

Each paragraph of the article is for one kind of property, named in its subject words ("Gains from the alienation
of ships or aircraft ...", "Las ganancias derivadas de la enajenación de bienes inmuebles ..."): the condition
`gain_property`, a fact the user gives. The paragraph for "any property other than that referred to in paragraphs 1
to 5" ("cualquier otro bien distinto de los mencionados", "não incluídas nos números precedentes") names none: it is
the article's base rule, which applies when none of the others does. A paragraph on shares may turn on the share of
their value derived from immovable property ("deriving more than 50 per cent of their value ... from immovable
property": `over_immovable_value_pct`) and on the alienator's participation ("if the recipient ... had a participation
... of at least 25 per cent in the capital": the share keys, read by the rules as `participation_pct`). A clause
before or after the verb ("if", "where", "si", "cuando", "se") whose words none of these read stays
`unread_condition`, never dropped: a right under it is never an unconditional one.

The words are the language files' (`gain_immovable`, `gain_pe`, `gain_transport`, `gain_shares`, `gain_residual`,
`gain_condition_lead`, `gain_excepted`, `gain_clause_more`, `value_from_immovable`, `gain_any_time`); a language without them reads none of this.
"""

from __future__ import annotations

from typing import Any

import regex

from taxtreaty.provisions import figures
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.holdings import SHARE_KEYS, holding
from taxtreaty.provisions.holdings import _share_key as share_key
from taxtreaty.provisions.vocabulary import Phrases

#: the kinds of property a paragraph's subject may name, most particular first: a paragraph on the property of a
#: permanent establishment may say "other than immovable property"; one on shares, that their value is derived
#: from immovable property
KINDS = (("gain_pe", "pe_property"), ("gain_transport", "ships_aircraft"), ("gain_shares", "shares"),
         ("gain_immovable", "immovable"))
#: how far (characters) the words "of their value" may follow a percentage, and "immovable property" those words
_VALUE_WINDOW = 12
#: how far (characters) before a percentage the value of the shares may be named ("el valor de dichas acciones o
#: participaciones similares procede en más de un 50 por ciento")
_VALUE_BEFORE_WINDOW = 100
_IMMOVABLE_WINDOW = 90
#: how far (characters) the length of a look-back period may follow "at any time during", and "preceding" the length
_LOOKBACK_WINDOW = 40
#: how far (characters) "preceding" may follow the unit of the look-back period ("the 12-month period preceding")
_PERIOD_GAP = 10
#: the immovable-value keys by the share key the words before the percentage make
_VALUE_KEYS = {"min_capital_pct": "min_immovable_value_pct", "over_capital_pct": "over_immovable_value_pct"}


def _words(text: str) -> str:
    return " ".join(text.split()).strip(" ,;:.")


def property_kinds(subject: str, ph: Phrases) -> list[str] | None:
    """The kind of property the subject words name (one), [] for the article's residual paragraph, None when the
    words name no kind the language files know (the paragraph keeps no condition of property)."""
    if "gain_residual" in ph.patterns and ph.has("gain_residual", subject):
        return []
    for key, kind in KINDS:
        if key in ph.patterns and ph.has(key, subject):
            return [kind]
    return None


def _immovable_value(folded: str, ph: Phrases) -> tuple[dict[str, Any], bool]:
    """({key: share}, whether the words speak of the value derived from immovable property at all)."""
    if "value_from_immovable" not in ph.patterns or "gain_immovable" not in ph.patterns:
        return {}, False
    spoken = False
    for rate in figures.find_rates(folded, ph):
        after = folded[rate.end: rate.end + _VALUE_WINDOW + 20]
        value = ph.find("value_from_immovable", after)
        named_before = "value_before_share" in ph.patterns and ph.find(
            "value_before_share", folded, max(0, rate.start - _VALUE_BEFORE_WINDOW), rate.start) is not None
        if (value is None or value.start() > _VALUE_WINDOW) and not named_before:
            continue
        if ph.find("gain_immovable", folded, rate.end, min(len(folded), rate.end + _IMMOVABLE_WINDOW)) is None:
            continue
        spoken = True
        key = _VALUE_KEYS.get(share_key(folded[max(0, rate.start - 30): rate.start], ph))
        if key is not None:
            return {key: rate.value}, True
    # "the value of which shares is derived principally from immovable property", "cuyos activos consistan
    # principalmente en propiedad inmueble": shares tested on immovable property, no share of value read
    return {}, spoken or ph.has("gain_immovable", folded)


def _lookback(folded: str, ph: Phrases) -> tuple[dict[str, Any], str]:
    """The period counted back from the alienation in which a test is met at any time ("if, at any time during the 12
    months preceding the alienation, these shares derived more than 50 per cent of their value ...", "si el enajenante
    ha poseído, en cualquier momento durante los 12 meses anteriores a la enajenación, al menos el 25 por ciento ...",
    "em qualquer momento durante os 12 meses anteriores à alienação"): ({lookback_months | lookback_days: n}, the
    clause without those words, so that the test they interrupt reads as one ("cuyo valor, ..., proceda en más de un 50
    por ciento"). The tests' facts are their highest in the period (`participation_pct`, `immovable_value_pct`)."""
    if "gain_any_time" not in ph.patterns:
        return {}, folded
    for m in ph.finditer("gain_any_time", folded):
        # "the 12-month period preceding": the length and its unit joined by a hyphen (same length)
        window = folded[m.end(): m.end() + _LOOKBACK_WINDOW].replace("-", " ")
        for duration in figures.find_durations(window, ph)[:1]:
            at = m.end() + duration.end
            within = ph.find("gain_period_within", folded, at, min(len(folded), at + _LOOKBACK_WINDOW))
            # "the 12 months preceding", "the 12-month period preceding", "los doce meses anteriores"
            if within is None or within.start() - at > _PERIOD_GAP:
                continue
            comma = folded.find(",", within.end(), within.end() + _LOOKBACK_WINDOW)
            end = comma if comma >= 0 else within.end()
            value = int(duration.value * 12) if duration.unit == "years" else int(duration.value)
            key = "lookback_days" if duration.unit == "days" else "lookback_months"
            return {key: value}, f"{folded[: m.start()].rstrip(' ,')} {folded[end:].lstrip(' ,')}"
    return {}, folded


def _participation(folded: str, ph: Phrases) -> dict[str, Any]:
    """The alienator's participation a clause asks ("had a participation ... of at least 25 per cent in the capital"):
    the share keys, and the period it must have been held for ("ha poseído, durante los 12 meses anteriores a la
    enajenación, al menos el 25 por ciento": `min_holding_months`, the rules' `held_months`; a period in which it is
    met at any time is `_lookback`'s)."""
    found = holding(folded, ph)
    out = {k: v for k, v in found.items() if k in SHARE_KEYS}
    if not out or ("gain_any_time" in ph.patterns and ph.has("gain_any_time", folded)):
        return out  # "at any time during the period ...": a period the test is met in at any time, not held for
    return out | {k: v for k, v in found.items() if k in ("min_holding_months", "min_holding_days")}


def _lead_clause(sentence: str, ph: Phrases) -> str | None:
    """"Where a resident of a Contracting State owns all or virtually all of the shares ..., any gain ... may be
    taxed", "Cuando en razón de las previsiones del apartado 1 del artículo 4°, una persona es residente de ambos
    Estados ...": the clause a sentence opens with (after "However,"), up to its comma."""
    at = 0
    exception = ph.find("exception_lead", sentence, 0, min(len(sentence), 20))
    if exception is not None and not sentence[: exception.start()].strip():
        at = exception.end()
    lead = ph.find("gain_condition_lead", sentence, at, min(len(sentence), at + 4 + 20))
    if lead is None or sentence[at: lead.start()].strip(" ,"):
        return None
    comma = sentence.find(",", lead.end())
    return sentence[lead.start(): comma if comma > 0 else len(sentence)]


def gain_conditions(unit: Unit, k: int, verb: regex.Match[str], ph: Phrases) -> dict[str, Any]:
    """The conditions of sentence `k` of a capital gains unit, whose allocation verb is `verb`."""
    if "gain_condition_lead" not in ph.patterns:
        return {}
    sentences = unit.sentences()
    start, end = sentences[k]
    sentence = unit.folded[start:end]
    text = unit.text[start:end]
    subject = sentence[: verb.start()]
    out: dict[str, Any] = {}
    unread: list[str] = []
    kinds = property_kinds(subject, ph)
    if kinds is None and k > 0:
        # "However, such gains shall be taxable only in the first-mentioned State where: ...", "Sin embargo, las
        # ganancias ... mencionados en el apartado 3 del artículo 22, sólo pueden ...": an exception of the paragraph's
        # rule, for its property (and the words that say which of it, unread unless a condition is read below)
        first = unit.folded[sentences[0][0]: sentences[0][1]]
        first_verb = ph.find("exclusive", first) or ph.find("shared", first)
        kinds = property_kinds(first[: first_verb.start()] if first_verb else first, ph)
        if kinds and ph.find("exception_lead", sentence[:20]) is not None:
            unread.append(_words(text[: verb.start()]))
    if kinds:
        out["gain_property"] = kinds
    lead = _lead_clause(sentence, ph)
    clauses = [lead] if lead is not None else []
    # "... where the shares ... derive at least 50 per cent of their value ..., unless the relevant class of the
    # shares ... is traded ...": each opener after the verb begins a clause of its own
    leads = [m.start() for m in ph.finditer("gain_condition_lead", sentence, verb.end())]
    clauses += [sentence[a:b] for a, b in zip(leads, [*leads[1:], len(sentence)][: len(leads)], strict=True)]
    for clause in clauses:
        period, tested = _lookback(clause, ph)
        found = _immovable_value(tested, ph)[0] or _participation(tested, ph)
        if found and "gain_clause_more" in ph.patterns and ph.has("gain_clause_more", tested):
            found = {}  # "... and the buyer or the seller owns at least 10 per cent": more than the share is asked
        if found:
            out.update(found | period)
        else:
            at = sentence.find(clause)
            unread.append(_words(text[at: at + len(clause)]))
    if kinds == ["shares"]:
        period, tested = _lookback(subject, ph)
        value, spoken = _immovable_value(tested, ph)
        found = value or _participation(tested, ph)
        out.update(found | period if found else {})
        if spoken and not value:
            # "deriving their value or the greater part of their value ... from immovable property", "cuando el valor
            # de los activos ... puedan atribuirse principalmente a bienes inmuebles": no share read
            unread.append(_words(text[: verb.start()]))
    if "gain_excepted" in ph.patterns:
        for m in ph.finditer("gain_excepted", subject):
            stop = min((i for i in (subject.find(",", m.end()), subject.find(")", m.end())) if i >= 0), default=len(subject))
            unread.append(_words(text[m.start(): stop]))
    unread = [u for u in dict.fromkeys(unread) if u]
    if unread and "unread_condition" not in out:
        out["unread_condition"] = " … ".join(unread)
    return out


def excepted_paragraphs(reading: Any, version: Any, article: Any, ph: Phrases, found: list[Any]) -> None:
    """"However, the provisions of paragraphs 4 and 5 shall not apply to gains derived from the alienation of shares:
    a) quoted on a recognised stock exchange ...", "The provisions of paragraph 4 shall not affect the right of each of
    the Contracting States to levy according to its own law a tax on gains from the alienation of shares ... derived
    by an individual who ... has been a resident of the first-mentioned State": a paragraph of the article that sets
    another aside in a case no fact describes. Its words become an `unread_condition` of the allocations of the
    paragraphs it names, so no answer rests on them as if the exception were not there."""
    from taxtreaty.provisions.emigrants import emigrant_conditions
    from taxtreaty.provisions.reading import Emitted
    from taxtreaty.provisions.references import switched_off
    from taxtreaty.structure import eids

    keys = [k for k in ("shall_not_apply", "keeps_right") if k in ph.patterns]
    if not keys:
        return
    for paragraph in article.paragraphs:
        for unit in reading.source.units(version.language, article, paragraph, cut_restarts=False):
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                switch = min((m for k in keys if (m := ph.find(k, sentence)) is not None), key=lambda m: m.start(), default=None)
                if switch is None:
                    continue
                targets = switched_off(unit, sentence[: switch.start()], ph, bracketed=True)
                words = _words(unit.text[s_start:s_end])
                keeps = ph.find("keeps_right", sentence) if "keeps_right" in keys else None
                kept = emigrant_conditions(sentence[switch.end():], unit.text[s_start + switch.end(): s_end], ph) \
                    if keeps is not None and keeps.start() == switch.start() else None
                if kept is not None and targets:
                    # a right kept on a former resident's gains: an allocation of its own, setting aside the paragraphs
                    # it names (provisions/emigrants.py), not unread words of theirs
                    emitted = Emitted(reading)
                    emitted.add(unit, "allocation", reading.cite(unit, s_start, s_end), allocation="source_may_tax",
                                conditions=kept, overrides=targets)
                    found += emitted
                    continue
                for p in found:
                    if p.kind == "allocation" and p.status == "determined" and p.cite.eid != unit.eid \
                            and any(eids.within(p.cite.eid, t) for t in targets):
                        known = p.conditions.get("unread_condition")
                        if known is None or words not in known:
                            p.conditions = {**p.conditions, "unread_condition": f"{known} … {words}" if known else words}
