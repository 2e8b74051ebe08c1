"""The life of an expression in Akoma Ntoso metadata: its events and the modifications it undergoes.

`History` says, in plain values, what `akn.to_akn` writes into each expression's ``<meta>``:

- ``<lifecycle>``: an ``eventRef`` per dated event: the signature and the entry into force of
  the convention (``type="generation"``, source ``#original``), and each amending instrument's
  taking effect (``type="amendment"``, source its ``passiveRef``); ``refersTo`` names the kind
  of event (a ``TLCEvent``: signature, entry into force, effect);
- ``<analysis><passiveModifications>``: a ``textualMod`` per modification (substitution,
  insertion, repeal, renumbering) with its ``source`` (the instrument's ``passiveRef``), its
  ``destination`` (the eId it changes in this expression) and, for a renumbering, the ``new``
  eId; ``period`` points at a ``temporalGroup`` of ``<temporalData>`` starting at the
  instrument's event, when its date of effect is known;
- ``<references>``: ``original`` (the original expression), a ``passiveRef`` per instrument,
  the ``TLCEvent`` concepts.

Which events and modifications an expression lists is the caller's choice (`versions.history`
builds a History from a treaty's timeline). Elements come in the order the AKN 3.0 schema asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: the kinds of event (TLCEvent eIds), as `refersTo` names them
EVENT_KINDS = {"signature": "signature", "entry_into_force": "entry into force", "effect": "taking effect"}


@dataclass(frozen=True)
class Event:
    eid: str
    date: str  # YYYY-MM-DD
    type: str  # generation | amendment
    kind: str  # a key of EVENT_KINDS
    source: str  # "original" or an instrument's eId


@dataclass(frozen=True)
class InstrumentRef:
    eid: str  # "pasref_1"
    href: str
    show_as: str


@dataclass(frozen=True)
class TextualMod:
    type: str  # substitution | insertion | repeal | renumbering
    destination: str  # the eId changed (an insertion: the new one)
    source: str  # the instrument's eId
    #: a renumbering: the eId the provision takes
    new: str | None = None
    #: the eId of the event from which it has effect, when known
    starts: str | None = None


@dataclass
class History:
    events: list[Event] = field(default_factory=list)
    instruments: list[InstrumentRef] = field(default_factory=list)
    modifications: list[TextualMod] = field(default_factory=list)
    #: the expression's own date and its name ("effect" for a consolidated version), when not the signature
    expression_date: tuple[str, str] | None = None


def with_signature(history: History | None, signed: str | None) -> History:
    """`history` (or an empty one) with the signature of the printed text as its first event."""
    history = history or History()
    if not signed or any(e.kind == "signature" for e in history.events):
        return history
    signature = Event("evt_signature", signed, "generation", "signature", "original")
    return History([signature, *history.events], history.instruments, history.modifications, history.expression_date)


# -- writing ------------------------------------------------------------------------------------

Element = Any  # an lxml element; `akn._el` makes the children


def write_lifecycle(meta: Element, history: History, el: Any) -> None:
    if not history.events:
        return
    lifecycle = el(meta, "lifecycle", source="#taxtreaty")
    for event in history.events:
        el(lifecycle, "eventRef", eId=event.eid, date=event.date, source=f"#{event.source}", type=event.type,
           refersTo=f"#{event.kind}")


def _periods(history: History) -> dict[str, str]:
    """Event eId -> the eId of the temporal group that starts with it (in the events' order)."""
    wanted = {m.starts for m in history.modifications if m.starts}
    starts = [e.eid for e in history.events if e.eid in wanted]
    return {start: f"period_{n}" for n, start in enumerate(starts, 1)}


def write_analysis(meta: Element, history: History, el: Any) -> None:
    if not history.modifications:
        return
    periods = _periods(history)
    analysis = el(meta, "analysis", source="#taxtreaty")
    passive = el(analysis, "passiveModifications")
    for n, mod in enumerate(history.modifications, 1):
        attrs = {"period": f"#{periods[mod.starts]}"} if mod.starts in periods else {}
        node = el(passive, "textualMod", eId=f"pmod_{n}", type=mod.type, **attrs)
        el(node, "source", href=f"#{mod.source}")
        el(node, "destination", href=f"#{mod.destination}")
        if mod.new:
            el(node, "new", href=f"#{mod.new}")
    if periods:
        temporal = el(meta, "temporalData", source="#taxtreaty")
        for start, eid in periods.items():
            group = el(temporal, "temporalGroup", eId=eid)
            el(group, "timeInterval", start=f"#{start}", refersTo="#effect")


def write_references(refs: Element, history: History, original: str, el: Any) -> None:
    """``original``, the instruments' ``passiveRef`` and the event concepts (before the TLCs)."""
    if not history.events and not history.modifications:
        return
    el(refs, "original", eId="original", href=original, showAs="the convention as signed")
    for instrument in history.instruments:
        el(refs, "passiveRef", eId=instrument.eid, href=instrument.href, showAs=instrument.show_as)
    for key, label in EVENT_KINDS.items():
        el(refs, "TLCEvent", eId=key, href=f"/ontology/event/{key.replace('_', '-')}", showAs=label)
