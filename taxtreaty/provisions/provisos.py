"""Words of a condition no reader turned into keys, sorted: a fact, a proviso, or no condition.

Every conditional wording the extractor meets on a rate or an exemption ends up in one of three:

1. **a fact** a user can state: the recipient "suffers Netherlands company tax on the dividends"
   (`recipient_subject_to_tax`); the readers of `provisions.conditions` take most facts (shares as
   ranges, periods, amounts invested, kinds of recipient, loans, royalties) from the clause itself;
2. **a proviso** (`conditions["caveats"]`: `[{kind, eid, quote}]`): anti-abuse and main-purpose
   provisos, limitation on benefits, most-favoured-nation clauses, "as long as the law of State X
   ...", subject-to-tax clauses about a State's law: the answer stays determined and lists them;
   a user who knows a main-purpose proviso bites says so (`main_purpose: true`);
3. **no condition**: review undertakings, the mode of application settled by mutual agreement,
   "this paragraph shall not affect the taxation of the company in respect of the profits ...":
   kept as text only.

What fits none stays `unread_condition`: the engine answers indeterminate, citing the words. The
phrases are the language file's `provisos` group (and `recipient_taxed`); nothing here knows a
treaty or a language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.provisions import figures, unread
from taxtreaty.provisions.holdings import SHARE_KEYS
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length, require_phrases
from taxtreaty.structure.metadata import states_named

#: the kinds of proviso (the `provisos` group of a language file, besides `no_condition`); their
#: labels are in data/rules/labels.yaml `caveat_kinds`
CAVEAT_KINDS = ("main_purpose", "limitation_on_benefits", "mfn", "domestic_law", "subject_to_tax", "conduit", "tax_base")
#: a sentence of the words ends here: "... reduction. 2. The provisions ..."
_SENTENCE = regex.compile(r"(?<=[.;])\s+(?=(?:\d+\.\s*)?[\p{Lu}(])")
#: a sentence end in folded words: ". " then a word that is no abbreviation's continuation
_FOLDED_SENTENCE = regex.compile(r"(?<=[\p{L}\d)][.;])\s+(?=\p{L}{2,}|\d+\.\s)")
#: a piece that is only a list label ("1.", "(a)", "ii)")
_LABEL_ONLY = regex.compile(r"\(?[\divxlcIVXLC]{1,4}[.)]|\(?[a-z][.)]")
#: words that turn a fact around: the rate "shall not apply if" / applies "unless" the recipient is taxed
_NEGATIONS = ("shall_not_apply", "unless_words")
#: phrase keys of a language file whose words are a fact the user states, and that fact's key
#: (data/rules/facts.yaml): the recipient's own taxation; dividends paid out of immovable-property income by
#: an investment vehicle ("a real estate investment trust"), which a rate of the list singles out
FACT_PHRASES = {"recipient_taxed": "recipient_subject_to_tax", "property_vehicle": "paid_by_property_vehicle",
                "payer_deducts_dividends": "payer_deducts_dividends",
                "nro_investment_corporation": "paid_by_nro_investment_corporation"}


@dataclass(frozen=True)
class Sorted:
    kind: str  # "fact" | "caveat" | "none" | "unread"
    caveat: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)


def sentences(words: str) -> list[str]:
    """The sentences of a piece of words (a protocol point may hold several)."""
    pieces = [s.strip() for s in _SENTENCE.split(" ".join(words.split())) if s.strip()]
    return [p for p in pieces if not _LABEL_ONLY.fullmatch(p)]  # "1." before a protocol point's words


def first_sentence_end(folded: str) -> int:
    """Where the first sentence of folded (lower-cased) words ends: at ". " before a word, a
    digit or a parenthesis that the original would print in capitals (folded text has none)."""
    for m in _FOLDED_SENTENCE.finditer(folded):
        if len(folded[: m.start()].strip()) > 5:  # not the "1." or "(ii)" of a list label
            return m.start()
    return len(folded)


@cache
def _heading_only(language: str) -> regex.Pattern[str] | None:
    """A protocol point's heading that is a sentence of its own and says nothing else ("En relación con el
    apartado 2 del artículo 10.", "Ad Article 11."): its opener, then only references."""
    ph = require_phrases(language)
    if "protocol_heading" not in ph.patterns:
        return None
    words = [fold_same_length(w) for w in (*ph.raw["article_words"], *ph.raw["paragraph_words"], *ph.raw["point_words"],
                                           *ph.words("and_words"), *ph.words("of_words"), *ph.words("determiners"),
                                           *vocab.all_words("reference_lead_words"))]  # "do artigo 11.º"
    alternatives = "|".join(regex.escape(w) for w in sorted(set(words), key=len, reverse=True))
    piece = rf"(?:{alternatives}|\d{{1,3}}(?:\.?[º°o])?|[ivxlc]{{1,6}}|\(?[a-z]\)|[,;.:\s])"
    return regex.compile(rf"(?:{ph.patterns['protocol_heading'].pattern})(?:{piece})*")


def sort_words(words: str, ph: Phrases) -> Sorted:
    """Which of the three one sentence of conditional words is."""
    if "provisos" not in ph.raw:
        return Sorted("unread")
    folded = fold_same_length(words)
    heading = _heading_only(ph.code)
    if heading is not None and heading.fullmatch(folded.strip()):
        return Sorted("none")  # "En relación con el apartado 2 del artículo 10.": a heading, no condition
    kinds = [kind for _, _, kind in ph.group_hits("provisos", folded)]
    if "no_condition" in kinds:  # a review undertaking may recall the law it is about: still no condition
        return Sorted("none")
    caveats = [k for k in kinds if k in CAVEAT_KINDS]
    if caveats:
        return Sorted("caveat", caveats[0])
    relative = relative_fact(folded, ph)
    if relative is not None:
        return relative
    for phrase_key, fact in FACT_PHRASES.items():
        # "the rate shall not apply if the company is not subject to tax on them": the denial turns it round again
        denied = fact == "recipient_subject_to_tax" and "recipient_not_taxed" in ph.patterns \
            and ph.find("recipient_not_taxed", folded)
        found = denied or (ph.find(phrase_key, folded) if phrase_key in ph.patterns else None)
        if found:
            negated = any(key in ph.patterns and ph.has(key, folded) for key in _NEGATIONS)
            facts: dict[str, Any] = {fact: negated if denied else not negated}
            if fact == "recipient_subject_to_tax":
                state = _resident_state(folded[: found.start()], ph)
                if state is not None:
                    facts["recipient_taxed_state"] = state
            elif fact == "paid_by_nro_investment_corporation":
                # "dividends paid by a non-resident-owned investment corporation that is a resident of Canada": a
                # payer of that State only, so the fact is asked of dividends arising there only
                state = _resident_state(folded[found.end():], ph)
                if state is not None:
                    facts["nro_payer_state"] = state
            return Sorted("fact", facts=facts)
    return Sorted("unread")


#: how far into a piece its relative word may stand (a comma, a blank) and still open it
_RELATIVE_LEAD = 3


def relative_fact(folded: str, ph: Phrases) -> Sorted | None:
    """"who is subject to tax there in respect thereof", "que esté sometido a imposición en ese Estado": a piece that
    is a relative clause on the recipient's taxation (`unread.relative_clauses` cuts it so) is the fact
    recipient_subject_to_tax when nothing but `relative_tail` words follows; with other words, they are not read."""
    for key, value in (("relative_not_taxed", False), ("relative_taxed", True)):
        found = ph.find(key, folded) if key in ph.patterns else None
        if found is not None and found.start() <= _RELATIVE_LEAD:
            end = found.end()
            while end < len(folded) and folded[end].isalpha():
                end += 1  # the rest of the stem's word ("sometid|o")
            if unread.tail_uncovered(folded[end:], ph):
                return Sorted("unread")
            return Sorted("fact", facts={"recipient_subject_to_tax": value})
    return None


def _resident_state(folded: str, ph: Phrases) -> str | None:
    """"if the company which is a resident of the Netherlands suffers Netherlands company tax": the
    State whose residents the fact is about (the first State named right after a resident word
    before the fact's words), so the fact tests only recipients resident there; None when no State
    is named."""
    for word in ph.words("resident_words"):
        at = folded.find(fold_same_length(word))
        if at >= 0:
            named = states_named(folded[at : at + len(word) + 40])
            if named:
                return named[0]
    return None


#: between the unread words of two pieces of a clause: they are apart in the text, so a quote
#: never runs them together ("... como consecuencia de … siempre que ...")
_APART = "\x00"


def attach(conditions: dict[str, Any], words: str | list[str], eid: str, ph: Phrases) -> dict[str, Any]:
    """`conditions` with `words` sorted in: facts merged, provisos under `caveats` (with the eId of
    the words), no-conditions dropped, and the rest joined to `unread_condition`."""
    out = dict(conditions)
    pieces = [words] if isinstance(words, str) else list(words)
    unread: list[str] = []
    for piece in pieces:
        if unread and unread[-1] != _APART:
            unread.append(_APART)  # words of another piece are not next to these in the text
        for sentence in sentences(piece):
            found = sort_words(sentence, ph)
            if found.kind == "none":
                continue
            if found.kind == "caveat":
                caveat = {"kind": found.caveat, "eid": eid, "quote": sentence}
                if caveat not in out.get("caveats", []):
                    out["caveats"] = [*out.get("caveats", []), caveat]
            elif found.kind == "fact":
                out.update(found.facts)
            elif (held := _holding_period(conditions, sentence, ph)):
                out.update(held)
            else:
                unread.append(sentence)
    while unread and unread[-1] == _APART:
        unread.pop()
    if unread:
        joined = " ".join(unread).replace(f" {_APART} ", " … ")
        known = out.get("unread_condition")
        if known is None or joined not in known:
            out["unread_condition"] = f"{known} … {joined}" if known else joined
    return out


def _holding_period(conditions: dict[str, Any], sentence: str, ph: Phrases) -> dict[str, Any]:
    """The holding period a sentence adds to a rate for a share of a company ("só é aplicável se a
    participação tiver sido detida durante ... pelo menos dois anos"); {} for a rate with no share
    condition (a period there is a loan's term or a stay, not this) or one that already has a period."""
    if not any(k in conditions for k in SHARE_KEYS) or "min_holding_months" in conditions or "min_holding_days" in conditions:
        return {}
    return holding_period(fold_same_length(sentence), ph)


def holding_period(folded: str, ph: Phrases) -> dict[str, Any]:
    """A sentence that asks for the holding to have been held for a time, apart from the share it is
    about: a protocol point "a taxa prevista na alínea a) ... só é aplicável se a participação tiver
    sido detida durante um período ininterrupto de pelo menos dois anos" -> min_holding_months 24. The
    period's words ("durante", "for a period of") stand right before the figure; "less than" two years
    only where the rate is said not to apply ("não é aplicável se ... durante menos de"), else {}."""
    for duration in figures.find_durations(folded, ph):
        before = folded[max(0, duration.start - 40) : duration.start]
        if ph.find("holding_period", before) is None:
            continue
        below = "holding_below" in ph.patterns and ph.find("holding_below", folded[max(0, duration.start - 16) : duration.start])
        if below and not ("shall_not_apply" in ph.patterns and ph.has("shall_not_apply", folded)):
            return {}
        if duration.unit == "years":
            return {"min_holding_months": int(duration.value * 12)}
        if duration.unit == "months":
            return {"min_holding_months": int(duration.value)}
        return {"min_holding_days": int(duration.value)}
    return {}


__all__ = ["CAVEAT_KINDS", "FACT_PHRASES", "Sorted", "attach", "sentences", "sort_words"]
