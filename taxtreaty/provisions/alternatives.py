"""Words of a list of alternatives the reader could not read are one more alternative, not a
required condition.

Lists of lenders, recipients and kinds of loan are often read in part: "préstamos otorgados por
bancos y compañías de seguros, o de bonos o valores que se negocien regular y sustancialmente en un
mercado de valores reconocido" reads the kind `bank` and leaves "compañías de seguros, o de bonos
..." unread. Joined to the read kind as one more condition (bank AND the unread words), a bank is
asked about words no user can answer, and an individual holding traded bonds fails the bank test
and gets the rate for "all other cases", confidently wrong. The unread words that follow a read
kind (or kind of loan) right after a list joiner ("y", "or", "ou", "o a", "as well as": the
language file's `and_words`, `alternative_joiners`) are another member of the list: the provision
is two alternatives, the read one (a bank satisfies it) and the unread one (cited, so a recipient
that is none of the read kinds is indeterminate, never given the general rate; an individual is no
member of a list of entities, unless the words speak of persons: `person_words`). A kind of income
read inside the unread words ("bonos o valores") is that alternative's, not the read kind's.

Nothing here knows a treaty: the joiners are data of each language.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import regex

from taxtreaty.patterns import compiled
from taxtreaty.provisions.parties import kind_hits
from taxtreaty.provisions.unread import uncovered_spans
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length, require_phrases

#: condition keys of the kinds of party a list names
KIND_KEYS = ("recipient_kinds", "payer_kinds")
#: the recipient kind of an unread member of a list of entities: any recipient but an individual
ENTITY = "entity"


@cache
def _joiners(language: str) -> tuple[regex.Pattern[str], regex.Pattern[str] | None]:
    """What stands between a read member of a list and the next one, right before the next: a bare
    `and_words` ("bancos y compañías de seguros": no article, a list of nouns, never "and the loan
    ..."), or one of `alternative_joiners` ("or an", "o a una", "como así también"), a determiner
    after it allowed."""
    ph = require_phrases(language)
    bare = compiled(rf"\s*,?\s*{ph.word_group('and_words')}\s+$")
    if "alternative_joiners" not in ph.patterns:
        return bare, None
    listed = compiled(rf"\s*[,;]?\s*(?:{ph.patterns['alternative_joiners'].pattern})\s+"
                           rf"(?:{ph.word_group('determiners')}\s+)?$")
    return bare, listed


def _locate(piece: str, texts: list[tuple[str, str]]) -> tuple[str, int] | None:
    """The folded text holding `piece` and where it starts there (the nearest text first)."""
    for text, folded in reversed(texts):
        at = text.find(piece)
        if at >= 0:
            return folded, at
    return None


def _stretch(piece: str, texts: list[tuple[str, str]], conditions: dict[str, Any], ph: Phrases) -> tuple[str, int, int] | None:
    """(what the unread words are an alternative to: "kind" or "subtype", where they start, where they end)
    in their folded text, when they come right after a read member of a list and a joiner; None when they
    are a condition of their own."""
    found = _start(piece, texts, ph)
    if found is None:
        return None
    folded, first, end = found
    kinds = {k for key in KIND_KEYS for k in conditions.get(key, [])}
    members = [(e, "kind") for s, e, kind in kind_hits(folded, ph) if kind in kinds and e <= first]
    if conditions.get("income_subtype"):
        members += [(e, "subtype") for s, e, _ in ph.group_hits("subtypes", folded) if e <= first]
    if not members:
        return None
    last, what = max(members)
    bare, listed = _joiners(ph.code)
    gap = folded[last:first]
    if bare.fullmatch(gap) or (listed is not None and listed.fullmatch(gap)):
        return what, first, end
    return None


def _start(piece: str, texts: list[tuple[str, str]], ph: Phrases) -> tuple[str, int, int] | None:
    """(folded text, where the unread words of `piece` start, where the piece ends): the words of a qualifier
    the reader cannot read ("compañías de seguros", "se negocien regular"), else the first word no condition
    key holds."""
    found = _locate(piece, texts)
    if found is None:
        return None
    folded, start = found
    end = start + len(piece)
    spans = uncovered_spans(folded[start:end], ph)
    qualifier = ph.patterns["unread_qualifiers"].match(folded, start)
    return folded, (start + spans[0][0] if spans and qualifier is None else start), end


def _qualified(piece: str, texts: list[tuple[str, str]], ph: Phrases) -> str | None:
    """The kind of income the unread words qualify, by a relative word right after its name ("bonos o valores
    que se negocien regular ...", "bonds which are regularly traded"): `relative_words`; else None."""
    found = _start(piece, texts, ph)
    if found is None or "relative_words" not in ph.patterns:
        return None
    folded, first, _ = found
    before = [(e, kind) for _, e, kind in ph.group_hits("subtypes", folded) if e <= first]
    if not before:
        return None
    end, kind = max(before)
    relative = compiled(rf"\s*,?\s*(?:{ph.patterns['relative_words'].pattern})\s+$")
    return kind if relative.fullmatch(folded[end:first]) else None


def _by_qualified_member(conditions: dict[str, Any], pieces: list[str], texts: list[tuple[str, str]],
                         ph: Phrases) -> list[tuple[dict[str, Any], list[str]]]:
    """Unread words that qualify one kind of income of a list ("préstamos otorgados por bancos, o de bonos o
    valores que se negocien ...") are that member's condition only: an alternative of the list without that
    kind holds without them, and the member with them is an alternative of its own."""
    subtype = conditions.get("income_subtype")
    members = [] if subtype is None else [subtype] if isinstance(subtype, str) else list(subtype)
    if not members and not any(conditions.get(k) for k in KIND_KEYS):
        return [(conditions, pieces)]
    rest: list[str] = []
    own: dict[str, list[str]] = {}
    for piece in pieces:
        kind = _qualified(piece, texts, ph)
        if kind is None or (kind in members and len(members) == 1):
            rest.append(piece)
        elif kind in members:
            own.setdefault(kind, []).append(piece)
        # else: the words of a kind of income this alternative is not about (another alternative's)
    if not own:
        return [(conditions, rest)]
    kept = [m for m in members if m not in own]
    out = []
    if kept:
        out.append(({**conditions, "income_subtype": kept[0] if len(kept) == 1 else kept}, rest))
    out += [({**conditions, "income_subtype": kind}, [*rest, *words]) for kind, words in own.items()]
    return out


def split(conditions: dict[str, Any], pieces: list[str], texts: list[tuple[str, str]], ph: Phrases) -> list[tuple[dict[str, Any], list[str]]]:
    """The provision's alternatives: (conditions, the unread words that are conditions of it). One, the
    conditions and all the words, unless some words are another member of a list of kinds or qualify only
    one kind of income of a list (see above)."""
    return [alt for c, words in _by_qualified_member(conditions, pieces, texts, ph) for alt in _by_members(c, words, texts, ph)]


def _by_members(conditions: dict[str, Any], pieces: list[str], texts: list[tuple[str, str]], ph: Phrases) -> list[tuple[dict[str, Any], list[str]]]:
    """Unread words that are another member of a list of kinds: one more alternative."""
    if not pieces or not (conditions.get("income_subtype") or any(conditions.get(k) for k in KIND_KEYS)):
        return [(conditions, pieces)]
    required: list[str] = []
    others: list[str] = []
    what: set[str] = set()
    inside: set[str] = set()  # kinds of income named inside the unread words: that alternative's
    for piece in pieces:
        found = _stretch(piece, texts, conditions, ph)
        if found is None:
            required.append(piece)
            continue
        others.append(piece)
        what.add(found[0])
        located = _locate(piece, texts)
        assert located is not None
        inside |= {kind for s, _, kind in ph.group_hits("subtypes", located[0]) if found[1] <= s < found[2]}
    if not others:
        return [(conditions, pieces)]
    read = dict(conditions)
    subtype = conditions.get("income_subtype")
    if subtype is not None and inside:
        kept = [k for k in ([subtype] if isinstance(subtype, str) else subtype) if k not in inside]
        if kept:
            read["income_subtype"] = kept[0] if len(kept) == 1 else kept
        else:
            read.pop("income_subtype")
    dropped = {"income_subtype"} if "subtype" in what or inside else set()
    if "kind" in what:
        dropped |= set(KIND_KEYS)
    unread = {k: v for k, v in conditions.items() if k not in dropped}
    if "kind" in what and conditions.get("recipient_kinds") and not any(_names_persons(p, ph) for p in others):
        # another kind of recipient in a list of entities ("banks and insurance companies", "a statutory body or
        # any institution ..."): whatever it is, not an individual, who is left to the other rates
        unread["recipient_kinds"] = [ENTITY]
    return [(read, required), (unread, [*required, *others])]


def _names_persons(piece: str, ph: Phrases) -> bool:
    """The unread words speak of individuals ("or an individual who ..."): `person_words` of the language."""
    return "person_words" in ph.patterns and ph.has("person_words", fold_same_length(piece))


__all__ = ["ENTITY", "KIND_KEYS", "split"]
