"""The conditions that select a rate or an exemption, read from a clause.

Each reader takes folded clause text (see `vocabulary.fold_same_length`) and the language's
`Phrases`, and returns condition keys documented in `taxtreaty.provisions.model`. Nothing here
knows a treaty: the words come from the data files.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from itertools import pairwise
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.provisions import figures
from taxtreaty.provisions.states import state_right_after, states_named
from taxtreaty.provisions.vocabulary import Phrases, alternation, phrases, require_phrases

#: condition keys that describe the recipient's holding; an "in all other cases" rate does not
#: inherit them from the clause that opens its list
HOLDING_KEYS = ("recipient", "min_capital_pct", "over_capital_pct", "under_capital_pct", "max_capital_pct", "capital_basis",
                "holding_direct", "min_holding_months", "min_holding_days")
#: the keys of a share held, by the words before it (a range: "at least 25 per cent but less than 50 per cent")
SHARE_KEYS = ("min_capital_pct", "over_capital_pct", "under_capital_pct", "max_capital_pct")

#: kinds of income that are kinds of debt-claim (loan_kind): their words are read, the rest of a condition
#: still has to be (`unread.uncovered_words`: "loans granted by banks ..., or bonds traded on a recognised
#: market" keeps the market)
LOAN_SUBTYPES = frozenset({"bank_loan", "sale_on_credit", "credit_sale", "bonds", "public_works"})
#: kinds that make a guarantee a public one ("guaranteed by the Government")
PUBLIC_KINDS = frozenset({"government", "local_authority", "central_bank"})
#: who may guarantee, insure or finance a loan for `guaranteed_by_government`: the public kinds and an
#: entity the government owns ("a loan ... guaranteed or insured by a public export credit agency")
GUARANTOR_KINDS = PUBLIC_KINDS | {"government_owned"}
#: how far (characters) a share's basis ("of the capital") may follow the percentage
_BASIS_WINDOW = 45
#: how far "at least" may precede the percentage
_AT_LEAST_WINDOW = 14


@cache
def _ending_with(language: str, key: str) -> regex.Pattern[str]:
    """One of the phrases of `key` right at the end of a text ("at least of", "al menos el", "paid after
    the": an "of" or a determiner may follow it)."""
    ph = phrases(language)
    assert ph is not None
    follower = ph.word_group("of_words", "determiners") if key == "at_least" else ph.word_group("determiners")
    return regex.compile(alternation(ph.raw[key]) + rf"\s*(?:{follower}\s+)?$")


def is_holding_share(folded: str, rate: figures.Figure, ph: Phrases) -> bool:
    """True for "at least 25 per cent of the capital": a share of the payer, not a rate of tax."""
    before = folded[max(0, rate.start - _AT_LEAST_WINDOW - 12) : rate.start]
    if _ending_with(ph.code, "at_least").search(before):
        return True
    after = folded[rate.end : rate.end + _BASIS_WINDOW]
    gross = ph.find("payment_words", after)
    basis = ph.group_hits("capital_basis", after)
    return bool(basis) and (gross is None or basis[0][0] < gross.start())


def _share_key(before: str, ph: Phrases) -> str:
    """Which end of a range the words before a share set: "at least" / "not less than" (a floor),
    "more than" (above), "less than" / "below" (under), "not more than" (at most)."""
    def ends(key: str) -> bool:
        return key in ph.raw and bool(_ending_with(ph.code, key).search(before))

    # "not less than 25 per cent", "não inferior a 25%", "no menos del 25%": a floor that ends with the
    # words of a ceiling; "not more than" ends with the words of "more than"
    if ends("at_least"):
        return "min_capital_pct"
    if ends("holding_at_most"):
        return "max_capital_pct"
    if ends("holding_below"):
        return "under_capital_pct"
    if ends("holding_above"):
        return "over_capital_pct"
    return "min_capital_pct"


def holding(folded: str, ph: Phrases) -> dict[str, Any]:
    """The share held (as a range: min_ / over_ / under_ / max_capital_pct), capital_basis,
    holding_direct, min_holding_months from a clause."""
    out: dict[str, Any] = {}
    for rate in figures.find_rates(folded, ph):
        if not is_holding_share(folded, rate, ph):
            continue
        key = _share_key(folded[max(0, rate.start - 30) : rate.start], ph)
        if key in out:
            break
        out[key] = rate.value
        after = folded[rate.end : rate.end + _BASIS_WINDOW + 40]
        hits = ph.group_hits("capital_basis", after)
        if hits and "capital_basis" not in out:
            out["capital_basis"] = hits[0][2]
        if key not in ("min_capital_pct", "over_capital_pct"):
            break  # the upper end of a range comes last ("at least 25 per cent but less than 50 per cent")
    if any(k in out for k in SHARE_KEYS):
        if ph.has("holding_indirect", folded):
            out["holding_direct"] = False
        elif ph.has("holding_direct", folded):
            out["holding_direct"] = True
    # a holding period only where the clause speaks of a holding ("owns ... 25 per cent ... for an
    # uninterrupted period of two years"); elsewhere a period is a threshold, not this condition
    durations = figures.find_durations(folded, ph) if any(k in out for k in SHARE_KEYS) else []
    for duration in durations:
        before = folded[max(0, duration.start - 40) : duration.start]
        if ph.find("holding_period", before) is None:
            continue
        if duration.unit == "years":
            out["min_holding_months"] = int(duration.value * 12)
        elif duration.unit == "months":
            out["min_holding_months"] = int(duration.value)
        else:
            out["min_holding_days"] = int(duration.value)
        break
    return out


#: how far (characters) the words of a loan's term ("repayment period is") may stand before its figure,
#: room for the comparator between them ("for a period of more than 7 years")
_TERM_GAP = 24


def loan_term(folded: str, ph: Phrases) -> dict[str, Any]:
    """loan_term_over_years / loan_term_min_years from a clause about a loan: "a loan made for a period of
    more than 7 years" (over), "the loan repayment period is 3 years or more" (at least), "any loan ...
    exceeding a duration of one year" (over). A term with no comparator, or an upper bound, is not read
    (its words stay a condition to cite)."""
    if "loan_term" not in ph.patterns or not ph.has("loan_words", folded):
        return {}
    for duration in figures.find_durations(folded, ph):
        if duration.unit == "days":
            continue
        terms = [m for m in ph.finditer("loan_term", folded, max(0, duration.start - 60), duration.start)
                 if duration.start - m.end() <= _TERM_GAP]
        if not terms:
            continue
        lead = folded[max(0, terms[-1].start() - 14) : duration.start]
        after = folded[duration.end : duration.end + 16]
        years = duration.value if duration.unit == "years" else duration.value / 12
        years = as_decimal(years)
        more = ph.find("term_or_more", after) if "term_or_more" in ph.patterns else None
        if ph.find("at_least", lead) is not None or (more is not None and not after[: more.start()].strip()):
            return {"loan_term_min_years": years}
        if any(key in ph.patterns and ph.find(key, lead) is not None for key in ("holding_at_most", "holding_below")):
            return {}
        if "holding_above" in ph.patterns and ph.find("holding_above", lead) is not None:
            return {"loan_term_over_years": years}
    return {}


@cache
def _invested_amount(language: str) -> regex.Pattern[str]:
    """What follows "has invested": a comparator, then a sum ("more than 10 million US-dollars", "at least USD
    10,000,000"), the scale a word of the language's multipliers."""
    ph = require_phrases(language)
    currencies = alternation(sorted(ph.currencies, key=len, reverse=True))
    scales = alternation(sorted(ph.multipliers)) if ph.multipliers else r"(?!)"
    # "doscientos cincuenta mil (250.000) euros": the sum in words, then its figure in brackets
    words = alternation(sorted({*ph.number_words, *(vocab.fold(str(w)) for w in ph.raw.get("number_joiners") or [])},
                               key=len, reverse=True))
    amount = (rf"(?:(?:(?:{words})[\s-]+){{1,8}}\(\s*(?P<num>{figures.AMOUNT_NUMBER})\s*\)"
              rf"|(?P<num>{figures.AMOUNT_NUMBER}))")
    return regex.compile(rf"(?P<lead>[\p{{L}}\s]{{0,30}}?)\s*(?:(?P<cur1>{currencies})\s*)?{amount}"
                         rf"(?:\s*(?P<scale>{scales}))?\s*(?P<cur2>{currencies})?(?![\p{{L}}])")


def investment(folded: str, ph: Phrases) -> tuple[dict[str, Any], tuple[int, int] | None]:
    """min_invested / over_invested ({amount, currency}) and the span of their words: "or has invested more
    than 10 million US-dollars" (over). A sum with no comparator or no currency is not read."""
    if "invested_words" not in ph.patterns:
        return {}, None
    for m in ph.finditer("invested_words", folded):
        rest = folded[m.end() : m.end() + 90].replace("-", " ")
        hit = _invested_amount(ph.code).match(rest)
        if hit is None or not (hit.group("cur1") or hit.group("cur2")):
            continue
        value = figures.parse_number(hit.group("num"), ph)
        if value is None:
            continue
        if hit.group("scale"):
            value *= ph.number_words.get(hit.group("scale"), Decimal(1))
        currency = ph.currencies[hit.group("cur1") or hit.group("cur2")]
        lead = hit.group("lead")
        key = "min_invested" if ph.find("at_least", lead) is not None else (
            "over_invested" if "holding_above" in ph.patterns and ph.find("holding_above", lead) is not None else None)
        if key is None:
            continue
        return {key: {"amount": int(value) if value == value.to_integral() else value, "currency": currency}}, \
            (m.start(), m.end() + hit.end())
    return {}, None


def investment_alternatives(conditions: dict[str, Any], folded: str, ph: Phrases) -> list[dict[str, Any]]:
    """"a company which holds ... at least 50 per cent of the capital ... or has invested more than 10 million
    US-dollars": the holding or the investment, either (two alternatives)."""
    keys = [k for k in ("min_invested", "over_invested") if k in conditions]
    if not keys or not any(k in conditions for k in SHARE_KEYS):
        return [conditions]
    found = ph.find("invested_words", folded) if "invested_words" in ph.patterns else None
    before = folded[max(0, found.start() - 12) : found.start()] if found is not None else ""
    if not regex.search(rf"(?<![\p{{L}}]){ph.word_group('or_words')}\s*$", before.rstrip(" ,")):
        return [conditions]
    share = {k: v for k, v in conditions.items() if k not in keys}
    invested = {k: v for k, v in conditions.items() if k not in (*SHARE_KEYS, "capital_basis", "holding_direct")}
    return [share, invested]


def payment_dates(folded: str, ph: Phrases) -> dict[str, Any]:
    """paid_after / paid_until / paid_from, from the words just before each date."""
    out: dict[str, Any] = {}
    keys = (("paid_after", "date_after"), ("paid_until", "date_until"), ("paid_from", "date_from"))
    for date in figures.find_dates(folded):
        before = folded[max(0, date.start - 40) : date.start]
        best: tuple[int, str] | None = None
        for key, words in keys:
            m = _ending_with(ph.code, words).search(before)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), key)
        if best and best[1] not in out:
            out[best[1]] = date.date
    return out


@cache
def _government_state(language: str) -> regex.Pattern[str] | None:
    """"the State of Estonia", "o Estado Português", "el Estado español": a State named as a payer or
    recipient is its government. Templates from the language file, "{state}" a State's name
    (countries.yaml) or adjective (`state_adjectives`), with or without an article."""
    ph = phrases(language)
    assert ph is not None
    templates = ph.raw.get("government_state") or []
    if not templates:
        return None
    names = {vocab.fold(n) for variants in vocab.countries().values() for n in variants}
    names |= {vocab.fold(str(a)) for a in (ph.raw.get("state_adjectives") or {})}
    state = rf"(?:{ph.word_group('determiners')}\s+)?(?:" + "|".join(
        regex.escape(n).replace(r"\ ", r"\s+") for n in sorted(names, key=len, reverse=True)) + r")(?![\p{L}])"
    pieces = []
    for template in templates:
        before, _, after = vocab.fold(template).partition("{state}")
        lead = r"\s+".join(regex.escape(w) for w in before.split())
        tail = r"\s+".join(regex.escape(w) for w in after.split())
        pieces.append(r"(?<![\p{L}])" + (lead + r"\s+" if lead else "") + state + (r"\s+" + tail if tail else ""))
    return regex.compile("|".join(pieces))


@cache
def _adjective_prefilter(language: str) -> regex.Pattern[str] | None:
    ph = phrases(language)
    assert ph is not None
    adjectives = [vocab.fold(str(a)) for a in (ph.raw.get("state_adjectives") or {})]
    return regex.compile("|".join(regex.escape(a) for a in adjectives)) if adjectives else None


def _government_state_in(folded: str, ph: Phrases) -> regex.Pattern[str] | None:
    """The `government_state` pattern when the clause may hold one: it names a State (a cheap,
    remembered search) or a State's adjective; None otherwise."""
    pattern = _government_state(ph.code)
    if pattern is None:
        return None
    adjectives = _adjective_prefilter(ph.code)
    if not states_named(folded) and (adjectives is None or adjectives.search(folded) is None):
        return None
    return pattern


def kind_hits(folded: str, ph: Phrases) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every payer or recipient kind named in a clause, "the State of Estonia"
    (`government_state`) included, longest first at a spot."""
    hits = ph.group_hits("kinds", folded)
    pattern = _government_state_in(folded, ph)
    if pattern is None or not pattern.search(folded):
        return hits
    # "a resident of the State of Estonia" is a resident, not the government
    residents = [vocab.fold(w) for w in ph.words("resident_words")]
    extra = [(m.start(), m.end(), "government") for m in pattern.finditer(folded)
             if not any(w in folded[max(0, m.start() - 16) : m.start()] for w in residents)]
    merged = sorted([*extra, *hits], key=lambda h: (h[0], -(h[1] - h[0])))
    kept: list[tuple[int, int, str]] = []
    for hit in merged:
        if kept and hit[0] < kept[-1][1]:
            continue
        kept.append(hit)
    return kept


def parties_kinds(folded: str, ph: Phrases, default_role: str | None = "recipient",
                  context_role: str | None = None) -> dict[str, Any]:
    """payer_kinds / recipient_kinds / guaranteed_by_government, each kind placed by the role word
    ("paid to", "debtor", "guaranteed by") nearest before it in the clause."""
    roles = []
    for key, role in (("recipient_role", "recipient"), ("payer_role", "payer"), ("guarantee_role", "guarantee")):
        roles += [(m.start(), m.end(), role) for m in ph.finditer(key, folded)]
    roles.sort()
    # "préstamos concedidos por un banco", "loan granted by a bank": the kind of income names the bank,
    # not the payer or the recipient
    incomes = [(a, b) for a, b, _ in ph.group_hits("subtypes", folded)]
    out: dict[str, Any] = {}
    for start, _end, kind in kind_hits(folded, ph):
        if any(a <= start < b for a, b in incomes):
            continue
        # a role may end inside the kind it introduces ("el beneficiario efectivo es | es ese Estado contratante")
        before = [r for r in roles if r[0] < start]
        role = before[-1][2] if before else (context_role or default_role)
        if role is None:
            continue
        if role == "payer" and _to_right_before(folded, start, ph):
            # "los dividendos pagados por una sociedad residente de un Estado Contratante a un fondo de pensiones",
            # "paid by a company ... to a pension fund": the kind the payment goes to is the recipient's
            role = "recipient"
        if role == "guarantee" and kind not in GUARANTOR_KINDS:
            role = "recipient"  # "loans made or guaranteed by a bank": the lender's kind
        if role == "guarantee":
            out["guaranteed_by_government"] = True
            # "paid to, or on loans guaranteed by, the Government": both roles
            earlier = [r for r in before[:-1] if r[2] == "recipient"]
            if not (earlier and not kind_hits(folded[earlier[-1][1] : before[-1][0]], ph)):
                continue
            if _names_a_resident(folded[earlier[-1][1] : before[-1][0]], ph):
                # "beneficially owned by a resident of that other State with respect to debt-claims guaranteed
                # ... by the Government": any resident is the recipient; the kinds are the guarantor's only
                continue
            role = "recipient"
        key = "payer_kinds" if role == "payer" else "recipient_kinds"
        kinds = out.setdefault(key, [])
        if kind not in kinds:
            kinds.append(kind)
    return out


def _to_right_before(folded: str, start: int, ph: Phrases) -> bool:
    """The words right before a kind say where the payment goes ("a un", "to a"): `recipient_to` phrases."""
    if "recipient_to" not in ph.patterns:
        return False
    head = folded[max(0, start - 16) : start].rstrip()
    return any(m.end() == len(head) for m in ph.finditer("recipient_to", head))


def _names_a_resident(folded: str, ph: Phrases) -> bool:
    """The words name the recipient as a resident ("a resident of that other Contracting State"), not by kind."""
    return any(vocab.fold(w) in folded for w in ph.words("resident_words"))


@cache
def _either_join(language: str) -> regex.Pattern[str]:
    """What joins two role words that name either party ("the payer or the recipient", "o devedor ou o beneficiário")."""
    ph = require_phrases(language)
    return regex.compile(rf"\s*,?\s*{ph.word_group('or_words')}\s+(?:{ph.word_group('determiners')}\s+)?")


#: how far (characters) the role words of "paid to, or on loans guaranteed or insured by," may stand apart
_RECIPIENT_OR_GUARANTOR_GAP = 40


def _recipient_or_guarantor(folded: str, ph: Phrases) -> bool:
    """"paid to, or on loans guaranteed or insured by, the Government": one list of kinds that is
    the recipient's or the guarantor's, joined by "or" with no kind named between the two roles."""
    guarantees = list(ph.finditer("guarantee_role", folded))
    if not guarantees:
        return False
    or_word = regex.compile(rf"\b{ph.word_group('or_words')}\b")
    for r in ph.finditer("recipient_role", folded):
        after = [g for g in guarantees if r.end() <= g.start() <= r.end() + _RECIPIENT_OR_GUARANTOR_GAP]
        if not after:
            continue
        gap = folded[r.end() : after[0].start()]
        # "paid to, or on loans guaranteed by,", "granted or guaranteed by", "granted, guaranteed or insured by"
        listed = or_word.search(gap) or not gap.strip(" ,")
        if listed and not kind_hits(gap, ph) and not ph.find("payer_role", gap):
            return True
    return False


def either_party(conditions: dict[str, Any], folded: str, ph: Phrases) -> list[dict[str, Any]]:
    """"the payer or the recipient of the interest is the Government": the kinds name either party.
    All conditions of one provision must hold, so this is two alternatives, one on the payer's kind
    and one on the recipient's; any other clause is its one set of conditions. "Paid to, or on loans
    guaranteed or insured by, the Government" likewise: one alternative on the recipient's kind, one
    on a loan the Government guarantees (whoever the lender is)."""
    kinds = [*conditions.get("payer_kinds", []), *conditions.get("recipient_kinds", [])]
    if not kinds:
        return [conditions]
    if conditions.get("guaranteed_by_government") and conditions.get("recipient_kinds") \
            and (_recipient_or_guarantor(folded, ph)
                 or ("guaranteed_alternative" in ph.patterns and ph.has("guaranteed_alternative", folded))):
        paid_to = {k: v for k, v in conditions.items() if k != "guaranteed_by_government"}
        guaranteed = {k: v for k, v in conditions.items() if k != "recipient_kinds"}
        return [paid_to, guaranteed]
    roles = sorted([(m.start(), m.end(), "payer") for m in ph.finditer("payer_role", folded)]
                   + [(m.start(), m.end(), "recipient") for m in ph.finditer("recipient_role", folded)])
    joined = any(a[2] != b[2] and _either_join(ph.code).fullmatch(folded, a[1], b[0]) for a, b in pairwise(roles))
    if not joined and conditions.get("payer_kinds") and conditions.get("recipient_kinds"):
        # "such recipient is a Contracting State ... ; or such interest is paid by one of those States": two
        # clauses joined by "; or", one on each party
        clause_or = regex.compile(rf"[;,]\s*{ph.word_group('or_words')}\s")
        if any(a[2] != b[2] and clause_or.search(folded, a[1], b[0]) for a, b in pairwise(roles)):
            rest = {k: v for k, v in conditions.items() if k not in ("payer_kinds", "recipient_kinds")}
            return [{**rest, "recipient_kinds": conditions["recipient_kinds"]}, {**rest, "payer_kinds": conditions["payer_kinds"]}]
    if not joined:
        return [conditions]
    kinds = list(dict.fromkeys(kinds))
    rest = {k: v for k, v in conditions.items() if k not in ("payer_kinds", "recipient_kinds")}
    return [{**rest, "payer_kinds": kinds}, {**rest, "recipient_kinds": kinds}]


def last_role(folded: str, ph: Phrases) -> str | None:
    """The role announced at the end of a list's introduction ("if the interest is paid to:")."""
    roles = []
    for key, role in (("recipient_role", "recipient"), ("payer_role", "payer")):
        roles += [(m.start(), role) for m in ph.finditer(key, folded)]
    return max(roles)[1] if roles else None


def direction(folded: str, ph: Phrases, parties: list[str]) -> dict[str, Any]:
    """source_state / residence_state when the clause names the States ("paid by a company which is a
    resident of the Netherlands to a resident of Greece"; "a company resident of Ethiopia")."""
    out: dict[str, Any] = {}
    government = _government_state_in(folded, ph)
    if government is not None:  # "paid to the State of Estonia": a recipient, not a direction
        folded = government.sub(lambda m: " " * len(m.group()), folded)
    if "currency_equivalent" in ph.patterns:  # "or the equivalent in Netherlands or Vietnamese currency"
        folded = ph.patterns["currency_equivalent"].sub(lambda m: " " * len(m.group()), folded)
    named = [c for c in states_named(folded) if not parties or c in parties]
    if not named:
        return out
    if "payer_state_lead" in ph.patterns:  # "(i) ... quando esta sociedade for residente de Portugal"
        for m in ph.finditer("payer_state_lead", folded):
            right = state_right_after(folded, m.end(), ph)
            if right is not None and right in named:
                out["source_state"] = right
                return out
    to = ph.find("to_resident", folded)
    if to is not None:
        before = [c for c in states_named(folded[: to.start()]) if c in named]
        after = [c for c in states_named(folded[to.start() :]) if c in named]
        if before:
            out["source_state"] = before[0]
        if after:
            out["residence_state"] = after[0]
        return out
    if len(named) == 1 and ph.find("payer_role", folded) is not None:
        out["source_state"] = named[0]
        return out
    # "the Bangladesh Bank shall be exempt from Netherlands tax with respect to interest arising in the
    # Netherlands": a State right after a payer's word ("arising in", "paid by") is the source State,
    # whatever other State the clause names
    for m in ph.finditer("payer_role", folded):
        right = state_right_after(folded, m.end(), ph)
        if right is not None and right in named:
            out["source_state"] = right
            break
    return out


@cache
def _and_or(language: str) -> regex.Pattern[str]:
    """An income named with a kind of payment as one subject ("royalties or fees for technical services")."""
    ph = require_phrases(language)
    joiners = ph.word_group("and_words", "or_words")
    return regex.compile(rf"\s+{joiners}\s+(?:{ph.word_group('determiners')}\s+)?$")


@cache
def _complement(language: str) -> regex.Pattern[str]:
    """What joins a kind of income to the thing it is about ("venta a crédito **de** equipos")."""
    ph = require_phrases(language)
    return regex.compile(rf"\s+{ph.word_group('of_words')}\s+(?:{ph.word_group('determiners')}\s+)?")


#: how far (characters) before a kind of income an inclusion or exclusion word ("including", "excluidas") may stand
_INCLUSION_REACH = 100


def _scope_word(folded: str, start: int, ph: Phrases) -> str | None:
    """"included" when the nearest inclusion or exclusion word before a kind of income, in its
    sentence, says the kind is included ("incluido el alquiler de contenedores"), "excluded" when it
    says it is left out ("pero no están incluidas las regalías con respecto a las películas"), else None."""
    window = folded[max(0, start - _INCLUSION_REACH) : start]
    cut = max(window.rfind(";"), window.rfind("."), window.rfind(":"))
    window = window[cut + 1 :]
    best: tuple[int, str] | None = None
    for key, scope in (("inclusion_words", "included"), ("exclusion_words", "excluded")):
        if key not in ph.patterns:
            continue
        for m in ph.finditer(key, window):
            if best is None or m.end() > best[0] or (m.end() == best[0] and scope == "excluded"):
                best = (m.end(), scope)
    return best[1] if best else None


def subtype_conditions(folded: str, ph: Phrases) -> dict[str, Any]:
    """The kind of income a clause is limited to, if any (`income_subtype`): not one named together
    with the article's income ("royalties and fees for technical services ... shall not exceed ten per
    centum"), which the clause covers as much as the income itself, nor one only named as included in
    it ("incluido el alquiler de contenedores y equipos conexos"). A clause that names several kinds
    ("patentes, marcas de fábrica ... incluidos los pagos por la prestación de servicios de asistencia
    técnica") is limited to any of them: their list, in order. Kinds named as left out ("pero no están
    incluidas las regalías con respecto a las películas cinematográficas") are `income_subtype_excluded`."""
    found = ph.group_hits("subtypes", folded)
    # "la venta a crédito de equipos industriales": a kind right after another, joined by "of", is what
    # the first is about, not a kind of its own
    found = [h for k, h in enumerate(found)
             if not (k and _complement(ph.code).fullmatch(folded, found[k - 1][1], h[0]))]
    hits = [(*h, _scope_word(folded, h[0], ph)) for h in found]
    chosen = [h for h in hits if h[3] != "excluded"]
    if not chosen or all(h[3] == "included" for h in chosen):
        return {}
    incomes = [end for _, end, _ in ph.group_hits("incomes", folded)]
    start, _, kind, _ = chosen[0]
    if any(end <= start and _and_or(ph.code).fullmatch(folded, end, start) for end in incomes):
        return {}
    kinds = list(dict.fromkeys(h[2] for h in chosen))
    out: dict[str, Any] = {"income_subtype": kind if len(kinds) == 1 else kinds}
    excluded = [k for k in dict.fromkeys(h[2] for h in hits if h[3] == "excluded") if k not in kinds]
    if excluded:
        out["income_subtype_excluded"] = excluded
    return out


def _optional(ph: Phrases, key: str, folded: str) -> bool:
    """An optional phrase key of the language (OPTIONAL_PHRASE_KEYS) found in the words."""
    return key in ph.patterns and ph.has(key, folded)


def clause_conditions(folded: str, ph: Phrases, parties: list[str]) -> dict[str, Any]:
    """Every condition a cap or exemption clause states."""
    out: dict[str, Any] = {}
    if ph.has("beneficial_owner", folded):
        out["beneficial_owner"] = True
    if ph.has("partnership_excluded", folded):
        out["recipient"] = "partnership_excluded_company"
    elif ph.has("recipient_company", folded):
        out["recipient"] = "company"
    out.update(holding(folded, ph))
    if any(k in out for k in SHARE_KEYS) and "recipient" not in out and not _optional(ph, "any_person_holder", folded):
        out["recipient"] = "company"
    if _optional(ph, "franked", folded):
        out["dividends_franked"] = True
    out.update(payment_dates(folded, ph))
    out.update(investment(folded, ph)[0])
    if not any(k in out for k in SHARE_KEYS):  # a period in a clause about a holding is the holding's
        out.update(loan_term(folded, ph))
    if ph.has("otherwise", folded):
        out["otherwise"] = True
    out.update(direction(folded, ph, parties))
    out.update(subtype_conditions(folded, ph))
    return out


#: kinds of recipient a bank loan names as its lender: the kind of loan says it (loan_kind: bank_loan, a loan
#: granted by a bank or financial institution: "préstamos otorgados por bancos y compañías de seguros")
_LENDER_KINDS = ("bank", "financial_institution", "insurance_company")


def loan_alternatives(conditions: dict[str, Any], folded: str, ph: Phrases) -> list[dict[str, Any]]:
    """A bank loan's lender is its recipient: "on any loan ... granted by a bank" is loan_kind bank_loan,
    not a second test on the recipient's kind. "On loans made or guaranteed by a bank ... or by an
    enterprise which holds ... at least 10 per cent of the capital of the company paying the interest"
    (`lender_or`) names two lenders, either of them: two alternatives, the bank loan and the holding; so
    does "a loan granted by a bank ... or a pension fund" (the bank loan, and a loan by a pension fund)."""
    sub = conditions.get("income_subtype")
    if sub != "bank_loan" and not (isinstance(sub, list) and "bank_loan" in sub):
        return [conditions]
    out = dict(conditions)
    kinds = [k for k in out.pop("recipient_kinds", []) if k not in _LENDER_KINDS]
    if kinds:
        # "a loan granted by a bank or any other financial institution ... or a pension fund": the other
        # lenders are alternatives, whatever the kind of their loan
        return [out, {**{k: v for k, v in out.items() if k != "income_subtype"}, "recipient_kinds": kinds}]
    if not any(k in out for k in SHARE_KEYS) or "lender_or" not in ph.patterns or not ph.has("lender_or", folded):
        return [out]
    loan = {k: v for k, v in out.items() if k not in HOLDING_KEYS}
    holder = {k: v for k, v in out.items() if k != "income_subtype"}
    return [loan, holder]


def merge(inherited: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """A clause's own conditions over those of the text that introduces it; an "otherwise" clause
    drops the holding conditions of the clause it is the alternative to."""
    base = dict(inherited)
    if own.get("otherwise"):
        for key in HOLDING_KEYS:
            base.pop(key, None)
    for key, value in own.items():
        if isinstance(value, list) and isinstance(base.get(key), list):
            base[key] = base[key] + [v for v in value if v not in base[key]]
        else:
            base[key] = value
    return base


def as_decimal(value: Decimal) -> Decimal:
    """10.00 -> 10; 7.50 -> 7.5 (a stable, readable Decimal)."""
    normal = value.normalize()
    return normal.quantize(Decimal(1)) if normal == normal.to_integral() else normal
