"""Conditions a clause states that the extractor did not turn into condition keys.

A rate or an exemption is selected by a clause. When that clause holds conditional wording
("provided that", "as long as", "unless", "desde que", "siempre que", ...: `condition_openers` in
the language file), every word of the condition must be accounted for by what the extractor
reads (beneficial ownership, holdings, kinds of payer and recipient, dates, periods, States, the
kind of income) or by the plain words such a condition is made of (`condition_words`). A
condition with words left over ("the shares of the company receiving the dividends are regularly
traded on a recognised stock exchange", "as long as according to the laws of Iceland dividends
... may be deducted") was not read: its exact words become `conditions["unread_condition"]`, and
the rules engine answers indeterminate on it, citing them, instead of applying the rate as if
the condition were not there.

Nothing here knows a treaty: the words come from `taxtreaty/data/provisions/<language>.yaml`.
"""

from __future__ import annotations

from functools import cache

import regex
from rapidfuzz.distance import Levenshtein

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions import figures
from taxtreaty.provisions.conditions import LOAN_SUBTYPES, loan_term
from taxtreaty.provisions.holdings import investment, is_holding_share
from taxtreaty.provisions.vocabulary import Phrases, alternation, fold_same_length, require_phrases

#: phrase keys whose words a read condition is made of
COVERING_KEYS = (
    "beneficial_owner", "recipient_company", "partnership_excluded", "at_least", "holding_direct",
    "holding_indirect", "holding_period", "period_words", "date_after", "date_until", "date_from", "otherwise",
    "recipient_role", "payer_role", "guarantee_role", "to_resident", "condition_words", "condition_openers",
    "condition_openers_at_clause_start", "number_joiners", "holding_below", "holding_above", "holding_at_most",
    "loan_words", "loan_term", "term_or_more", "list_scope", "guaranteed_alternative", "any_person_holder",
    "franked", "alternative_joiners", "public_debt", "inclusion_aside", "periodic_payments",
)
#: grouped keys whose words a read condition is made of
COVERING_GROUPS = ("capital_basis", "kinds", "incomes")
#: phrase keys that end the clause a condition opener opens (the consequence starts there)
CONSEQUENCE_KEYS = ("charged_tax", "cap", "exempt", "exclusive", "shared", "rate_named")
#: list labels and stray letters are not words of a condition: "(ii)", "a)", "aa)"
_LABEL = regex.compile(r"^(?:[ivx]{1,4}|[a-z]{1,2})$")
_WORD = regex.compile(r"\p{L}[\p{L}'’]*")
#: words at least this long may carry one misprinted letter and still count as read
MISSPELT_MIN_LENGTH = 6
#: a condition clause ends at a sentence or list end
_STOP = regex.compile(r"[;:]|\.(?!\d)")  # "250.000 euros", "12.5": a stop before a digit ends no clause


@cache
def _clause_start(language: str) -> regex.Pattern[str]:
    """What may come right before an opener that only opens a condition at the start of a clause:
    the start, a stop or bracket, or a word of `clause_joiners` ("that", "and", "que")."""
    joiners = require_phrases(language).word_group("clause_joiners")
    return regex.compile(rf"(?:^|[,;:(]|\b{joiners})\s*$")


@cache
def _list_joiner_end(language: str) -> regex.Pattern[str]:
    """The list joiners after the words of a condition ("...; or") and the stops around them."""
    ph = require_phrases(language)
    joiners = ph.word_group("and_words", "or_words")
    return regex.compile(rf"(?:[;,:.]?\s+{joiners})?[;,:.\s]*$")


@cache
def _state_names() -> regex.Pattern[str]:
    """Every State's names (countries.yaml), folded, as one whole-word pattern."""
    names = {vocab.fold(name) for variants in vocab.countries().values() for name in variants}
    return regex.compile(r"(?<![\p{L}])(?:" + "|".join(regex.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?![\p{L}])")


@cache
def _adjectives(language: str) -> regex.Pattern[str] | None:
    ph = require_phrases(language)
    words = [str(w) for w in ph.raw.get("state_adjectives") or {}]
    return regex.compile(alternation(words)) if words else None


def _openers(folded: str, ph: Phrases) -> list[tuple[int, int]]:
    found = [(m.start(), m.end()) for m in ph.finditer("condition_openers", folded)]
    for m in ph.finditer("condition_openers_at_clause_start", folded):
        if _clause_start(ph.code).search(folded[max(0, m.start() - 12) : m.start()]):
            found.append((m.start(), m.end()))
    # "se" of "aplica-se" is not the conditional "se"
    found = [(a, b) for a, b in found if not (a > 0 and folded[a - 1] == "-")]
    found.sort()
    kept: list[tuple[int, int]] = []
    for a, b in found:
        if kept and a < kept[-1][1]:
            continue
        kept.append((a, b))
    return kept


def _consequences(folded: str, ph: Phrases) -> list[int]:
    """Where the words that state a consequence start: a cap, an exemption, an allocation, or a
    rate of tax (not a share of the payer's capital)."""
    found = [m.start() for key in CONSEQUENCE_KEYS if key in ph.patterns for m in ph.finditer(key, folded)]
    found += [r.start for r in figures.find_rates(folded, ph) if not is_holding_share(folded, r, ph)]
    return sorted(found)


def condition_clauses(folded: str, ph: Phrases) -> list[tuple[int, int, int]]:
    """(opener start, condition start, condition end) of every condition a clause opens; the
    condition runs to the next ";", ".", ":", the next opener, or the words that state the
    consequence ("the tax so charged shall not exceed", "shall be exempt")."""
    openers = _openers(folded, ph)
    consequences = _consequences(folded, ph)
    out = []
    for i, (o_start, o_end) in enumerate(openers):
        end = len(folded)
        stop = _STOP.search(folded, o_end)
        if stop is not None:
            end = stop.start()
        if i + 1 < len(openers):
            end = min(end, openers[i + 1][0])
        after = [c for c in consequences if c >= o_end]
        if after:
            end = min(end, after[0])
        out.append((o_start, o_end, end))
    return out


def relative_clauses(folded: str, ph: Phrases) -> list[tuple[int, int, int | None]]:
    """(start, end, whole) of each relative clause that states a recipient's own taxation ("to a resident of the
    other Contracting State who is subject to tax there in respect thereof", "que esté sometido a imposición en ese
    Estado"), up to its clause's end (a stop, the consequence). `whole` is None when the clause is the recipient's
    (the nearest role word before it is a recipient's); else where the piece must start so that it is read with
    what it is about (the payer's words, or a "shall not apply" / "unless" that turns it round): not the fact alone."""
    out: list[tuple[int, int, int | None]] = []
    for key in ("relative_not_taxed", "relative_taxed"):
        if key not in ph.patterns:
            continue
        for m in ph.finditer(key, folded):
            if any(a <= m.start() < b for a, b, _ in out):
                continue  # "who is not subject to" is not also "who is subject to"
            stops = [c for c in _consequences(folded, ph) if c > m.end()]
            stop = _STOP.search(folded, m.end())
            end = min([*stops[:1], stop.start() if stop else len(folded)])
            before = folded[: m.start()]
            if before.rstrip().endswith(","):
                # "a company, being subject to tax in that other State on the dividends, which holds ...": an aside
                # set off by commas ends at the next one
                comma = folded.find(",", m.end())
                end = min(end, comma) if comma >= 0 else end
            payer = max((p.end() for p in ph.finditer("payer_role", before)), default=-1)
            recipient = max((p.end() for key in ("recipient_role", "to_resident", "beneficial_owner")
                             if key in ph.patterns for p in ph.finditer(key, before)), default=-1)
            resident = max((before.rfind(fold_same_length(w)) for w in ph.words("resident_words")), default=-1)
            turned = [t.start() for k in ("shall_not_apply", "unless_words") if k in ph.patterns
                      for t in ph.finditer(k, before)]
            whole: int | None = None
            if turned:
                whole = min(turned)
            elif payer > max(recipient, resident):
                whole = max(p.start() for p in ph.finditer("payer_role", before))
            out.append((m.start(), end, whole))
    return sorted(out)


@cache
def _kind_pointer(language: str) -> regex.Pattern[str]:
    """A cross-reference right after a kind of recipient that points at the kind's definition ("a
    pension fund referred to in paragraph 2 of Article 4", "un fondo de pensiones a que se refiere el
    apartado 2 del artículo 4"): it names the kind, it adds no condition (`kind_reference` phrases)."""
    ph = require_phrases(language)
    if "kind_reference" not in ph.patterns:
        return regex.compile(r"(?!)")
    words = alternation([*ph.raw["article_words"], *ph.raw["paragraph_words"], *ph.raw["point_words"]], whole_word=False)
    small = ph.word_group("of_words", "and_words", "determiners")
    ref = rf"(?:\s*(?:,|{small}(?![\p{{L}}])|{words}|\d{{1,3}}(?:\.?[º°o])?|[ivxlc]{{1,6}}(?![\p{{L}}])|\(?[a-z]\)))+"
    return regex.compile(rf"\s*,?\s*{ph.patterns['kind_reference'].pattern}{ref}")


def _note_end(folded: str, start: int, end: int) -> int:
    """Where a note on how a holding period is counted ends: at the bracket that closes it when it opens
    inside brackets ("(for the purpose of computing that period, ...)"), else at the clause's end."""
    stop = _STOP.search(folded, end)
    clause_end = stop.start() if stop is not None else len(folded)
    if folded.rfind("(", 0, start) > folded.rfind(")", 0, start):
        close = folded.find(")", end)
        if close != -1:
            return close
    return clause_end


def uncovered_words(folded: str, ph: Phrases, names: tuple[str, ...] = (), loan: bool = False) -> list[str]:
    """The words of a condition that nothing the extractor reads accounts for; `names` are the
    (folded) names of institutions read as `recipient_names` / `payer_names`; `loan`: the clause the
    condition is cut from reads a loan's term (`conditions.loan_term`: "on a loan | made for a period of
    more than 7 years")."""
    return [folded[a:b] for a, b in uncovered_spans(folded, ph, names, loan)]


def uncovered_spans(folded: str, ph: Phrases, names: tuple[str, ...] = (), loan: bool = False) -> list[tuple[int, int]]:
    """Where the words of `uncovered_words` are, in order."""
    subtypes = ph.group_hits("subtypes", folded)
    if any(kind not in LOAN_SUBTYPES for _, _, kind in subtypes):
        return []  # the condition is the kind of income, which is read (`income_subtype`)
    covered = bytearray(len(folded))

    def mark(start: int, end: int) -> None:
        covered[start:end] = b"\x01" * (end - start)

    for start, end, _ in subtypes:
        mark(start, end)
    span = investment(folded, ph)[1]
    if span is not None:  # "has invested more than 10 million US-dollars"
        mark(*span)
    if "currency_equivalent" in ph.patterns:
        for m in ph.finditer("currency_equivalent", folded):
            mark(m.start(), m.end())
    if "period_computation" in ph.patterns:
        for m in ph.finditer("period_computation", folded):
            mark(m.start(), _note_end(folded, m.start(), m.end()))

    for key in COVERING_KEYS:
        if key not in ph.patterns:
            continue  # an optional key the language leaves out
        # overlapped: "the tax" must not hide "tax so charged"
        for m in ph.patterns[key].finditer(folded, overlapped=True):
            mark(m.start(), m.end())
    for key in COVERING_GROUPS:
        for start, end, _ in ph.group_hits(key, folded):
            mark(start, end)
            if key == "kinds":
                pointer = _kind_pointer(ph.code).match(folded, end)
                if pointer is not None:  # "a pension fund referred to in paragraph 2 of Article 4": the kind's definition
                    mark(end, pointer.end())
    shares = [r for r in figures.find_rates(folded, ph) if is_holding_share(folded, r, ph)]
    for fig in shares:
        mark(fig.start, fig.end)
    if shares or loan or loan_term(folded, ph):
        # a period is read only as the holding's ("for an uninterrupted period of two years") or the loan's
        for fig in figures.find_durations(folded, ph):
            mark(fig.start, fig.end)
    for date in figures.find_dates(folded):
        mark(date.start, date.end)
    for name in names:
        for m in compiled(regex.escape(name)).finditer(folded):
            mark(m.start(), m.end())
    for m in _state_names().finditer(folded):
        mark(m.start(), m.end())
    adjectives = _adjectives(ph.code)
    if adjectives is not None:
        for m in adjectives.finditer(folded):
            mark(m.start(), m.end())
    spans = []
    for m in _WORD.finditer(folded):
        if all(covered[m.start() : m.end()]) or _LABEL.match(m.group()):
            continue
        if ph.number_words.get(m.group()) is not None or _misspelt_plain_word(m.group(), ph.code):
            continue
        spans.append((m.start(), m.end()))
    return spans


@cache
def _plain_words(language: str) -> frozenset[str]:
    ph = require_phrases(language)
    words = [w for key in COVERING_KEYS for w in ph.raw.get(key, [])]
    words += [w for key in COVERING_GROUPS for group in ph.raw[key].values() for w in group]
    return frozenset(vocab.fold(w) for w in words if " " not in w and len(w) >= MISSPELT_MIN_LENGTH)


def _misspelt_plain_word(word: str, language: str) -> bool:
    """A long word with one letter wrong or missing ("Contacting State", "debter"): a misprint of a
    word a read condition is made of, not a new condition."""
    if len(word) < MISSPELT_MIN_LENGTH:
        return False
    return any(Levenshtein.distance(word, plain) <= 1 for plain in _plain_words(language))


def _no_condition(folded: str, start: int, end: int, ph: Phrases) -> bool:
    """The sentence around a condition's words says it is no condition at all (provisos.py)."""
    if "provisos" not in ph.raw:
        return False
    stops = [m.end() for m in _STOP.finditer(folded, 0, start)]
    sentence = folded[stops[-1] if stops else 0 : end]
    return any(kind == "no_condition" for _, _, kind in ph.group_hits("provisos", sentence))


def _trim(text: str, ph: Phrases) -> str:
    """The words of a condition without the list joiners around them ("...; or")."""
    text = text.strip()
    text = _list_joiner_end(ph.code).sub("", text).strip()
    return text.rstrip(" ,;:")


def unread_condition(texts: list[tuple[str, str]], ph: Phrases, names: tuple[str, ...] = ()) -> str | None:
    """The words of the conditions in `texts` that were not read, joined by " … ", or None."""
    pieces = unread_pieces(texts, ph, names)
    return " … ".join(pieces) if pieces else None


def unread_pieces(texts: list[tuple[str, str]], ph: Phrases, names: tuple[str, ...] = ()) -> list[str]:
    """The words of each condition in `texts` that was not read (see `provisos.attach` for where
    each goes: a fact, a proviso, no condition, or words not read).

    `texts` are (text, folded) pairs, outermost first: the introductions of the lists a clause
    sits in, then the clause itself. A condition opened at the end of an introduction ("provided
    that:") is the text of the item under it."""
    pieces: list[str] = []
    pending = False
    for text, folded in texts:
        if pending:
            # up to the item's own first condition or consequence ("5 per cent ..." right after
            # "with respect to dividends paid by ...:" holds no more of the condition)
            ends = [c[0] for c in condition_clauses(folded, ph)[:1]] + _consequences(folded, ph)[:1]
            end = min(ends, default=len(folded))
            if uncovered_words(folded[:end], ph, names):
                pieces.append(_trim(text[:end], ph))
        pending = False
        loan = bool(loan_term(folded, ph))
        relatives = relative_clauses(folded, ph)
        for r_start, r_end, whole in relatives:
            # "... the beneficial owner, who is subject to tax in respect thereof": the recipient's own taxation,
            # a piece of its own (provisos sorts it: the fact, or words not read), never dropped
            pieces.append(_trim(text[r_start if whole is None else whole : r_end], ph))
        for o_start, c_start, c_end in condition_clauses(folded, ph):
            inside = [r for r, _, _ in relatives if c_start <= r < c_end]
            if inside:  # the condition before the relative clause is read apart from it
                c_end = inside[0]
            # "if the beneficial owner is:", "provided that:": the condition goes on in the items below
            pending = c_end < len(folded) and folded[c_end] == ":" and not folded[c_end + 1 :].strip()
            if not compiled(r"\p{L}").search(folded[c_start:c_end]):
                continue  # "provided that where ...": the next opener's clause holds the words
            if _no_condition(folded, o_start, c_end, ph):
                continue  # "This paragraph shall not affect the taxation of the company in respect of ..."
            if uncovered_words(folded[c_start:c_end], ph, names, loan):
                pieces.append(_trim(text[o_start:c_end], ph))
        kinds = ph.group_hits("kinds", folded)
        for m in ph.finditer("unread_qualifiers", folded):
            if any(a <= m.start() < b for a, b, kind in kinds if kind == "government_owned"):
                continue  # "wholly owned by that Government": a kind of recipient, read
            stops = [c for c in _consequences(folded, ph) if c > m.end()]
            stop = _STOP.search(folded, m.end())
            end = min([*stops[:1], stop.start() if stop else len(folded)])
            pieces.append(_trim(text[m.start() : end], ph))
    pieces = [p for p in dict.fromkeys(pieces) if p]
    # a qualifier inside a condition already reported is not a second condition
    return [p for p in pieces if not any(p != q and p in q for q in pieces)]


def tail_uncovered(folded: str, ph: Phrases) -> list[str]:
    """The words after a relative clause's taxation words ("... to tax in respect thereof in the other Contracting
    State") that are not `relative_tail` words, a State, a State's adjective or an income: another condition."""
    covered = bytearray(len(folded))
    marks = [(m.start(), m.end()) for m in ph.finditer("relative_tail", folded)] if "relative_tail" in ph.patterns else []
    marks += [(m.start(), m.end()) for m in _state_names().finditer(folded)]
    adjectives = _adjectives(ph.code)
    marks += [(m.start(), m.end()) for m in adjectives.finditer(folded)] if adjectives is not None else []
    marks += [(a, b) for a, b, _ in ph.group_hits("incomes", folded)]
    for a, b in marks:
        covered[a:b] = b"\x01" * (b - a)
    return [m.group() for m in _WORD.finditer(folded) if not all(covered[m.start() : m.end()])]


__all__ = ["condition_clauses", "relative_clauses", "tail_uncovered", "uncovered_spans", "uncovered_words", "unread_condition", "unread_pieces"]
