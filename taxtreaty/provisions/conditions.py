"""The conditions that select a rate or an exemption, read from a clause.

`clause_conditions` gathers every condition a clause states: the holding (`holdings`), the parties'
kinds and States (`parties`), the kind of income (`subtypes`), and, read here, dates of payment and a
loan's term; `merge` lays a clause's own conditions over its introduction's, `loan_alternatives` splits
a bank loan from its other lenders. Each reader takes folded clause text (see
`vocabulary.fold_same_length`) and the language's `Phrases`, and returns condition keys documented in
`taxtreaty.provisions.model`. Nothing here knows a treaty: the words come from the data files.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from taxtreaty.patterns import compiled
from taxtreaty.provisions import excepted, figures
from taxtreaty.provisions.holdings import HOLDING_KEYS, SHARE_KEYS, holding, investment
from taxtreaty.provisions.parties import direction
from taxtreaty.provisions.subtypes import subtype_conditions
from taxtreaty.provisions.vocabulary import Phrases, ending_with, fold_same_length
from taxtreaty.structure.model import Article

#: kinds of income that are kinds of debt-claim (loan_kind): their words are read, the rest of a condition
#: still has to be (`unread.uncovered_words`: "loans granted by banks ..., or bonds traded on a recognised
#: market" keeps the market)
LOAN_SUBTYPES = frozenset({"bank_loan", "sale_on_credit", "credit_sale", "bonds", "public_works", "intergovernmental"})


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


def payment_dates(folded: str, ph: Phrases) -> dict[str, Any]:
    """paid_after / paid_until / paid_from, from the words just before each date."""
    out: dict[str, Any] = {}
    keys = (("paid_after", "date_after"), ("paid_until", "date_until"), ("paid_from", "date_from"))
    for date in figures.find_dates(folded):
        before = folded[max(0, date.start - 40) : date.start]
        best: tuple[int, str] | None = None
        for key, words in keys:
            m = ending_with(ph.code, words).search(before)
            if m and (best is None or m.start() < best[0]):
                best = (m.start(), key)
        if best and best[1] not in out:
            out[best[1]] = date.date
    return out


def has_optional(ph: Phrases, key: str, *folded: str) -> bool:
    """An optional phrase key of the language (OPTIONAL_PHRASE_KEYS) found in any of the words."""
    return key in ph.patterns and any(ph.has(key, text) for text in folded)


#: how far into a paragraph of the pension article a second subject still shares it ("Las pensiones y anualidades")
_SUBJECT_SPAN = 60


def annuity_subject(folded: str, ph: Phrases, article: Article) -> bool | None:
    """Whether a paragraph of a pension article that caps annuities apart ("Las anualidades originadas en un
    Estado Contratante ... no podrá exceder del 15 por ciento") speaks of annuities alone (True), of pensions
    alone (False: "Las pensiones originadas ..."), or of both or neither (None: "Las pensiones y anualidades
    ..."). In an article with no paragraph on annuities alone, always None: the payment's kind is not asked."""
    own = _subject(folded, ph)
    if own and "social_security" in ph.patterns and ph.has("social_security", folded):
        return None  # "Las anualidades abonadas ... en virtud de un sistema de seguridad social": its payer says it
    if own is None or not any(_subject(fold_same_length(p.text), ph) for p in article.paragraphs):
        return None
    return own


def _subject(folded: str, ph: Phrases) -> bool | None:
    if "annuity_subject" not in ph.patterns or "pension_subject" not in ph.patterns:
        return None
    first = compiled(r"^[\W\d_]+").sub("", folded)[:_SUBJECT_SPAN]
    annuity, pension = ph.find("annuity_subject", first), ph.find("pension_subject", first)
    if annuity is not None and annuity.start() == 0 and pension is None:
        return True
    if pension is not None and pension.start() == 0 and annuity is None:
        return False
    return None


def clause_conditions(folded: str, ph: Phrases, parties: list[str]) -> dict[str, Any]:
    """Every condition a cap or exemption clause states (an excepted case's words are none)."""
    folded = excepted.blank_excepted(folded, ph)
    out: dict[str, Any] = {}
    if ph.has("beneficial_owner", folded):
        out["beneficial_owner"] = True
    if ph.has("partnership_excluded", folded):
        out["recipient"] = "partnership_excluded_company"
    elif ph.has("recipient_company", folded):
        out["recipient"] = "company"
    out.update(holding(folded, ph))
    if any(k in out for k in SHARE_KEYS) and "recipient" not in out and not has_optional(ph, "any_person_holder", folded):
        out["recipient"] = "company"
    if has_optional(ph, "franked", folded):
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
