"""Protocol points that hold for one Contracting State only.

"3. Con respecto al Artículo 12: a) las limitaciones a la imposición en la fuente ... están, en el caso de
Argentina, sujetas a los requisitos de registración ...", "in the case of the Netherlands, the term
“dividends” includes ...", "no caso de Portugal ...", "for the purposes of Australian tax ...": the point's
words speak of the tax of the one State they name (`one_state_scope` phrases right before a State's name or
adjective). What the point does to a rate (a proviso, a condition) holds for the rate as that State applies it
at source; the same rate charged by the other State keeps the article's words alone. A point whose words also
name that State as the recipient's residence ("the company which is a resident of the Netherlands") is about
that State's residents, not its tax at source: it is not scoped here.

A point that widens a definition for one State ("b) en el caso de Argentina, las regalías incluyen asimismo,
cualquier pago percibido con motivo de la transmisión de noticias ...", "in the case of Australia, the term
“royalties” also includes ...": `definition_extends` words before a kind of payment) makes that kind of payment
one of the article's for that State alone: paid from the other State, it is not (the definition the other
State applies does not hold it), so the article's rates ("15 por ciento ... en todos los demás casos") do not
apply to it there; it goes to the articles of profits (`extended_definitions`: an allocation with
`values.reclassified_to`, as a reclassifying point, for income arising in the other State), never to the
residual rate of the list.

A most-favoured-nation clause binds one State when its words place the lower rate in that State's tax
(`mfn_bound_state`): "royalties arising in Estonia from Estonian tax", "this lower rate will apply to residents of
the Netherlands" (the other State lowers its tax for them); one naming both States ("a los residentes de ambos
Estados Contratantes", "shall automatically apply in both Contracting States") or none (the State that concluded
the other convention alone, "the same rate ... shall also apply under this Convention") binds both.

Nothing here knows a treaty or a language: the words are the language file's `one_state_scope`,
`definition_extends` and `mfn_*` phrases.
"""

from __future__ import annotations

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.reading import PAYMENT_TOPICS, Reading
from taxtreaty.provisions.states import state_right_after
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure.metadata import states_named
from taxtreaty.structure.model import Version

#: how far after a resident word the State of residence is named ("resident of the Kingdom of the Netherlands")
_RESIDENT_TAIL = 36
#: how far after "en el caso de" the words "originadas en" may stand ("en el caso de regalías originadas en")
_ARISING_WITHIN = 40
#: the phrase keys that say which State a most-favoured-nation clause binds (`mfn_bound_state`)
MFN_KEYS = ("mfn_source_lead", "mfn_residents_lead", "mfn_tax_words", "mfn_both")
#: the blanks after a word
_BLANKS = regex.compile(r"\s*+")
#: where the clause of a point's sentence ends: a stop, a semicolon, a colon
_CLAUSE_END = regex.compile(r"[;:]|\.(?!\d)")


def _adjective_right_after(folded: str, at: int, ph: Phrases) -> str | None:
    """The State whose adjective stands right at `at` ("for the purposes of Australian tax"), or None."""
    rest = folded[at : at + 40].lstrip()
    for adjective, code in (ph.raw.get("state_adjectives") or {}).items():
        if compiled(rf"{regex.escape(vocab.fold(str(adjective)))}(?![\p{{L}}])").match(rest):
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
        if state is None:  # "en el caso de regalías originadas en la República Argentina": where they arise
            arising = next((a for a in ph.finditer("payer_role", folded[m.end() : m.end() + _ARISING_WITHIN])), None)
            state = state_right_after(folded, m.end() + arising.end(), ph) if arising is not None else None
        if state in parties:
            named.add(state)
    if len(named) != 1:
        return None
    (state,) = named
    for word in ph.words("resident_words"):
        for m in compiled(regex.escape(fold_same_length(word))).finditer(folded):
            if state in states_named(folded[m.end() : m.end() + _RESIDENT_TAIL]):
                return None  # "a company which is a resident of the Netherlands": that State's residents
    return state


def _state_ending_at(folded: str, at: int, names: dict[str, str]) -> str | None:
    """The State whose name or adjective (`names`: folded word -> ISO code) ends right at `at` ("Estonian| tax")."""
    head = folded[max(0, at - 60) : at].rstrip()
    for word, code in names.items():
        if head.endswith(word) and not head[: len(head) - len(word)][-1:].isalpha():
            return code
    return None


def mfn_bound_state(sentence: str, ph: Phrases, parties: list[str] | tuple[str, ...]) -> str | None:
    """The one State whose source tax a most-favoured-nation clause lowers, or None (both, or parties not two):
    the State named right after a `mfn_source_lead` ("arising in Estonia", "originadas en la República
    Argentina"), named next to a `mfn_tax_words` word ("Estonian tax", "el impuesto argentino"), or the other
    State than the one named after a `mfn_residents_lead` ("will apply to residents of the Netherlands"). Words
    naming both (`mfn_both`: "both Contracting States", "ambos Estados") or two different States: None. A tax word
    that names a kind of convention (`mfn_treaty_words` right after: "an Indian tax treaty") names no tax."""
    if len(parties) != 2 or any(key not in ph.patterns for key in MFN_KEYS):
        return None
    folded = fold_same_length(sentence)
    if ph.has("mfn_both", folded):
        return None
    bound: set[str | None] = set()
    for m in ph.finditer("mfn_source_lead", folded):
        bound.add(state_right_after(folded, m.end(), ph) or _adjective_right_after(folded, m.end(), ph))
    for m in ph.finditer("mfn_residents_lead", folded):
        state = state_right_after(folded, m.end(), ph)
        if state in parties:
            bound.add(next(c for c in parties if c != state))
    names = {vocab.fold(str(a)): str(c) for a, c in (ph.raw.get("state_adjectives") or {}).items() if c in parties}
    names |= {vocab.fold(n): code for code in parties for n in vocab.countries().get(code, ())}
    for m in ph.finditer("mfn_tax_words", folded):
        after = _BLANKS.match(folded, m.end())
        if "mfn_treaty_words" in ph.patterns and after and ph.patterns["mfn_treaty_words"].match(folded, after.end()):
            continue  # "any Indian tax treaty with a third State": the State that concluded it, not its tax
        bound.add(_state_ending_at(folded, m.start(), names) or _adjective_right_after(folded, m.end(), ph))
    named = {c for c in bound if c in parties}
    return named.pop() if len(named) == 1 else None


def extended_definitions(reading: Reading, version: Version, ph: Phrases) -> list[Provision]:
    """"en el caso de Argentina, las regalías incluyen asimismo, cualquier pago ... de noticias ...": for income
    arising in the other State, the kind the point adds to the article's definition is sent to the articles of
    profits (an allocation of the payment article with `values.reclassified_to`, cited by the point's sentence)."""
    from taxtreaty.provisions.point_reclassified import PROFIT_TOPICS
    from taxtreaty.provisions.protocol_points import points

    if "definition_extends" not in ph.patterns or len(reading.parties) != 2:
        return []
    profits = [a.number for a in version.articles if a.topic in PROFIT_TOPICS and a.number]
    out: list[Provision] = []
    for point in points(reading, version, ph):
        homes = [a for a in version.articles if a.number in point.articles and a.topic in PAYMENT_TOPICS]
        folded = fold_same_length(point.text)
        for m in ph.finditer("definition_extends", folded):
            start = max([0, *(x.end() for x in _CLAUSE_END.finditer(folded, 0, m.start()))])
            stop = _CLAUSE_END.search(folded, m.end())
            end = stop.start() if stop else len(folded)
            state = scoped_state(point.text[start:end], ph, reading.parties)
            kinds = list(dict.fromkeys(kind for a, _, kind in ph.group_hits("subtypes", folded[m.end():end])))
            named = {income for _, _, income in ph.group_hits("incomes", folded[start:m.start()])}
            home = [a for a in homes if not named or a.topic in named] or \
                [a for a in version.articles if a.topic in named and a.topic in PAYMENT_TOPICS]
            if state is None or len(kinds) != 1 or len(home) != 1 or not profits:
                continue
            other = next(c for c in reading.parties if c != state)
            cite = reading.cite_cleaned(version.language, point.eid, point.start + start, point.start + end)
            out.append(reading.provision(home[0], "allocation", cite, allocation=None, state=other,
                                         conditions={"income_subtype": kinds[0], "source_state": other},
                                         values={"reclassified_to": profits, "defined_for": state}))
    return out


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


__all__ = ["extended_definitions", "for_one_source", "mfn_bound_state", "scoped_state"]
