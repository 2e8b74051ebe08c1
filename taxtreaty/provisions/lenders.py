"""A rule of the interest article for loans made, guaranteed or insured by one lender the text names.

"los intereses originados en Argentina y pagados a un residente de Canadá solo podrán someterse a
imposición en Canadá si el interés es pagado en relación a un préstamo efectuado, garantizado o asegurado
... por el Instituto de Desarrollo para la Exportación (Export Development Corporation)": two cases, each a
fact the user states: the institution that made, guaranteed or insured the loan (`lender_names`, the
names as printed, one a lender the clause names: "by the Export Development Corporation of Canada or by
the Swedish Export Credits Guarantee Board"; the fact `lender_name`). Such an institution is not read as
the recipient: the loan is its own or one it guarantees, and the recipient may be another. "... por una
institución argentina, de acuerdo con lo especificado y acordado en notas intercambiadas entre las
autoridades competentes": the institutions are in notes the text does not print; the user says whether
the lender or guarantor is one of them (`institution_in_notes`), for a loan such an institution made (it
is the recipient) or one a government body guarantees.

`named_lenders` rewrites a rule whose unread words are only such a clause: the opener, the words that lead
to the loan (`lender_lead`), the loan words (`lender_clause`), "by" (`by_words`), then a proper name, or
words naming institutions in exchanged notes (`specified_in_notes`, with `lender_words`). Any other word
keeps the rule as it was, unread.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.reading import PAYMENT_TOPICS
from taxtreaty.provisions.unread import _adjectives, _state_names, uncovered_words
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length, require_phrases

_KEYS = ("lender_clause", "by_words", "specified_in_notes")
_WORD = regex.compile(r"\p{L}[\p{L}'’]*")
#: a printed name: at least two words in capitals, the first at its start ("Instituto de Desarrollo ... (Export ...)")
_MIN_CAPITALISED = 2


def _covered(folded: str, ph: Phrases, keys: tuple[str, ...], small: set[str]) -> bool:
    """Every word of `folded` is one of the phrases of `keys`, a State's name or adjective, or a small word."""
    mask = bytearray(len(folded))
    for key in keys:
        pattern = ph.patterns.get(key) or ph.group_any.get(key)
        if pattern is not None:
            for m in pattern.finditer(folded, overlapped=True):
                mask[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    for pattern in (_state_names(), _adjectives(ph.code)):
        if pattern is not None:
            for m in pattern.finditer(folded):
                mask[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    return all(all(mask[m.start() : m.end()]) or m.group() in small for m in _WORD.finditer(folded))


def _name(text: str, ph: Phrases) -> tuple[str, str] | None:
    """"el Instituto de Desarrollo para la Exportación (Export Development Corporation) por un plazo ..." -> the
    name as printed (up to its bracketed other name, or its last word in capitals) and the words after it."""
    words = " ".join(text.split()).strip(" ,;:.")
    lead = compiled(rf"(?i:{vocab.accent_insensitive_alternation(ph.words('determiners'))})\s+").match(words)
    name = words[lead.end() :] if lead else words
    if not name[:1].isupper():
        return None
    close = name.find(")")
    if close > 0 and "(" in name[:close]:
        end = close + 1
    else:
        capitals = [m.end() for m in compiled(r"(?<![\p{L}])\p{Lu}[\p{L}.'’-]*").finditer(name)]
        end = capitals[-1] if capitals else 0
    if sum(1 for w in name[:end].split() if w[:1].isupper()) < _MIN_CAPITALISED:
        return None
    return name[:end], name[end:]


def lender_cases(piece: str, ph: Phrases) -> list[dict[str, Any]] | None:
    """The cases a clause of a lender names (see the module's doc), or None when it is not only that."""
    if any(k not in ph.patterns for k in _KEYS):
        return None
    folded = fold_same_length(piece)
    loans = ph.finditer("lender_clause", folded)
    if not loans:
        return None
    by = [m for m in ph.finditer("by_words", folded, loans[-1].end())]
    if not by:
        return None
    small = {*ph.words("and_words"), *ph.words("or_words"), *ph.words("determiners"), *ph.words("of_words")}
    head = folded[: by[0].start()]
    if not _covered(head, ph, ("condition_openers", "lender_lead", "lender_clause", "incomes", "condition_words"), small):
        return None
    tail_text, tail = piece[by[0].end() :], folded[by[0].end() :]
    if ph.has("specified_in_notes", tail):
        if not _covered(tail, ph, ("specified_in_notes", "lender_words"), small):
            return None
        return [{"recipient_kinds": ["named_institution"], "institution_in_notes": True},
                {"guaranteed_by_government": True, "institution_in_notes": True}]
    names = []
    # "by the Export Development Corporation of Canada or by the Swedish Export Credits Guarantee Board": each name
    for part in _alternatives(ph.code).split(tail_text):
        found = _name(part, ph)
        if found is None:
            return None
        name, rest = found
        if uncovered_words(fold_same_length(rest), ph, loan=True):
            return None  # "... (Export Development Corporation) cuando ...": more than the lender
        names.append(name)
    return [{"lender_names": names}]


@cache
def _alternatives(language: str) -> regex.Pattern[str]:
    """"or by the", "o por el": where a clause names another lender after the first."""
    ph = require_phrases(language)

    def words(*keys: str) -> str:
        return vocab.accent_insensitive_alternation([w for k in keys for w in ph.words(k)])
    return regex.compile(rf"(?i)\s+(?:{words('or_words', 'and_words')})\s+(?:{words('by_words')})\s+(?=\S)")


def named_lenders(article_topic: str | None, ph: Phrases, found: list[Provision]) -> None:
    """Each exemption or residence-only rule of a payment article whose unread words are a lender's clause
    becomes one rule per case it names (its own id for the second: the next number of its eId and kind)."""
    if article_topic not in PAYMENT_TOPICS:
        return
    for p in list(found):
        words = p.conditions.get("unread_condition")
        if not words or " … " in str(words) or not (p.kind == "exemption" or p.allocation == "residence_only"):
            continue
        cases = lender_cases(str(words), ph)
        if cases is None:
            continue
        base = {k: v for k, v in p.conditions.items() if k != "unread_condition"}
        stem = p.id.rsplit(":", 1)[0]
        at = found.index(p)
        for k, case in enumerate(cases):
            conditions = {**base, **case}
            if k == 0:
                p.conditions = conditions
                continue
            taken = sum(1 for q in found if q.id.rsplit(":", 1)[0] == stem)
            found.insert(at + k, p.model_copy(deep=True, update={"id": f"{stem}:{taken + 1}", "conditions": conditions}))


__all__ = ["lender_cases", "named_lenders"]
