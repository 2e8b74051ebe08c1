"""The holding a clause asks of the recipient: the share of the payer's capital it holds (a floor, a
ceiling, a range), on what basis, directly or not, for how long; and the sum it has invested ("or has
invested more than 10 million US-dollars"), an alternative to the holding.

Each reader takes folded clause text (see `vocabulary.fold_same_length`) and the language's `Phrases`;
the words come from the data files.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions import figures
from taxtreaty.provisions.vocabulary import Phrases, alternation, ending_with, require_phrases

#: condition keys that describe the recipient's holding; an "in all other cases" rate does not
#: inherit them from the clause that opens its list
HOLDING_KEYS = ("recipient", "min_capital_pct", "over_capital_pct", "under_capital_pct", "max_capital_pct", "capital_basis",
                "holding_direct", "min_holding_months", "min_holding_days")


#: the keys of a share held, by the words before it (a range: "at least 25 per cent but less than 50 per cent")
SHARE_KEYS = ("min_capital_pct", "over_capital_pct", "under_capital_pct", "max_capital_pct")


#: how far (characters) a share's basis ("of the capital") may follow the percentage
_BASIS_WINDOW = 45


#: how far "at least" may precede the percentage
_AT_LEAST_WINDOW = 14


def is_holding_share(folded: str, rate: figures.Figure, ph: Phrases) -> bool:
    """True for "at least 25 per cent of the capital": a share of the payer, not a rate of tax."""
    before = folded[max(0, rate.start - _AT_LEAST_WINDOW - 12) : rate.start]
    if ending_with(ph.code, "at_least").search(before):
        return True
    after = folded[rate.end : rate.end + _BASIS_WINDOW]
    gross = ph.find("payment_words", after)
    basis = ph.group_hits("capital_basis", after)
    return bool(basis) and (gross is None or basis[0][0] < gross.start())


def _share_key(before: str, ph: Phrases) -> str:
    """Which end of a range the words before a share set: "at least" / "not less than" (a floor),
    "more than" (above), "less than" / "below" (under), "not more than" (at most)."""
    def ends(key: str) -> bool:
        return key in ph.raw and bool(ending_with(ph.code, key).search(before))

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
    if not compiled(rf"(?<![\p{{L}}]){ph.word_group('or_words')}\s*$").search(before.rstrip(" ,")):
        return [conditions]
    share = {k: v for k, v in conditions.items() if k not in keys}
    invested = {k: v for k, v in conditions.items() if k not in (*SHARE_KEYS, "capital_basis", "holding_direct")}
    return [share, invested]

