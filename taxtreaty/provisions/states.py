"""The State a clause or a list item names: remembered lookups of State names, the State right after a
word ("originados en: a) Rusia"), and an item that names only a State ("a) En Australia:").

Nothing here knows a treaty: the names come from the countries data, the lead words from the language
data."""

from __future__ import annotations

from functools import lru_cache

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions.vocabulary import Phrases
from taxtreaty.structure import metadata


@lru_cache(maxsize=4096)
def states_named(text: str) -> list[str]:
    """`metadata.states_named`, remembered: the same introductions are read for every item under them."""
    return metadata.states_named(text)


def source_from_introduction(intro: str, item: str, ph: Phrases, parties: list[str]) -> str | None:
    """"los intereses originados en: a) Rusia y pagados al Gobierno de Argentina ...": an introduction
    that ends with a payer's word ("arising in:") and an item that starts with a State: that State is
    the source State of the item."""
    head = intro.rstrip(" :")
    if not intro.rstrip().endswith(":") or not any(m.end() == len(head) for m in ph.finditer("payer_role", head)):
        return None
    state = state_right_after(" " + item, 0, ph)
    return state if state is not None and (not parties or state in parties) else None


def state_heading(folded: str, ph: Phrases, parties: list[str]) -> str | None:
    """"a) En Australia:" / "(b) in the case of Argentina:" over items of a list of rates: an item
    that names only a State (after a `state_lead` word) gives the rates of the items under it for the
    tax charged in that State, the source State. None for any other introduction."""
    head = folded.strip().rstrip(":,").strip()
    lead = ph.patterns["state_lead"].match(head)
    if lead is None:
        return None
    state = state_right_after(head, lead.end(), ph)
    if state is None or (parties and state not in parties):
        return None
    names = [vocab.fold(n) for n in vocab.countries().get(state, ())]
    rest = head[lead.end():].strip()
    rest = compiled(rf"^(?:{ph.word_group('determiners')})\s+").sub("", rest)
    return state if any(rest == n for n in names) else None


def state_right_after(folded: str, at: int, ph: Phrases) -> str | None:
    """The State named right at `at` (after blanks and a determiner), or None."""
    rest = folded[at : at + 60]
    lead = compiled(rf"\s+(?:{ph.word_group('determiners')}\s+)?").match(rest)
    if lead is None:
        return None
    head = rest[lead.end():]
    for code in states_named(head):
        for name in vocab.countries().get(code, ()):
            if compiled(rf"{regex.escape(vocab.fold(name))}(?![\p{{L}}])").match(head):
                return code
    return None
