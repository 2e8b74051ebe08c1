"""Protocol points that hold for one Contracting State only.

"3. Con respecto al Artículo 12: a) las limitaciones a la imposición en la fuente ... están, en el caso de
Argentina, sujetas a los requisitos de registración ...", "in the case of the Netherlands, the term
“dividends” includes ...", "no caso de Portugal ...", "for the purposes of Australian tax ...": the point's
words speak of the tax of the one State they name (`one_state_scope` phrases right before a State's name or
adjective). What the point does to a rate (a proviso, a condition) holds for the rate as that State applies it
at source; the same rate charged by the other State keeps the article's words alone. A point whose words also
name that State as the recipient's residence ("the company which is a resident of the Netherlands") is about
that State's residents, not its tax at source: it is not scoped here.

Nothing here knows a treaty or a language: the words are the language file's `one_state_scope`.
"""

from __future__ import annotations

import regex

from taxtreaty import vocab
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.states import state_right_after
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure.metadata import states_named

#: how far after a resident word the State of residence is named ("resident of the Kingdom of the Netherlands")
_RESIDENT_TAIL = 36


def _adjective_right_after(folded: str, at: int, ph: Phrases) -> str | None:
    """The State whose adjective stands right at `at` ("for the purposes of Australian tax"), or None."""
    rest = folded[at : at + 40].lstrip()
    for adjective, code in (ph.raw.get("state_adjectives") or {}).items():
        if regex.match(rf"{regex.escape(vocab.fold(str(adjective)))}(?![\p{{L}}])", rest):
            return str(code)
    return None


def scoped_state(words: str, ph: Phrases, parties: list[str] | tuple[str, ...]) -> str | None:
    """The one Contracting State a point's words limit it to ("en el caso de Argentina"), or None: no such
    words, two States so named, parties not known, or the State also named as the recipient's residence."""
    if "one_state_scope" not in ph.patterns or len(parties) != 2:
        return None
    folded = fold_same_length(words)
    named = set()
    for m in ph.finditer("one_state_scope", folded):
        state = state_right_after(folded, m.end(), ph) or _adjective_right_after(folded, m.end(), ph)
        if state in parties:
            named.add(state)
    if len(named) != 1:
        return None
    (state,) = named
    for word in ph.words("resident_words"):
        for m in regex.finditer(regex.escape(fold_same_length(word)), folded):
            if state in states_named(folded[m.end() : m.end() + _RESIDENT_TAIL]):
                return None  # "a company which is a resident of the Netherlands": that State's residents
    return state


def for_one_source(p: Provision, state: str, parties: list[str] | tuple[str, ...],
                   provisions: list[Provision]) -> Provision:
    """`p` split by source State: a copy for income arising in `state` (returned, inserted after `p`, its own
    id), and `p` itself for income arising in the other State."""
    stem = p.id.rsplit(":", 1)[0]
    taken = sum(1 for q in provisions if q.id.rsplit(":", 1)[0] == stem)
    copy = p.model_copy(deep=True, update={
        "id": f"{stem}:{taken + 1}", "state": state, "conditions": {**p.conditions, "source_state": state}})
    other = next(c for c in parties if c != state)
    p.conditions, p.state = {**p.conditions, "source_state": other}, other
    provisions.insert(provisions.index(p) + 1, copy)
    return copy


__all__ = ["for_one_source", "scoped_state"]
