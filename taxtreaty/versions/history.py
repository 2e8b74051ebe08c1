"""A treaty's life as the Akoma Ntoso export writes it (`structure.akn_history.History`).

`akn_history(treaty, day)` reads a compiled treaty (`pipeline.compile_stored` or
`compile_document`) and its timeline (`versions.timeline`):

- events: the convention's entry into force (the date every decision uses: given by the user,
  a status line or the text) and each amending instrument's taking effect (the signature is the
  printed text's own: `structure.akn` writes it from the document);
- modifications: every textual modification of every instrument (substitution, insertion,
  repeal, renumbering), with the instrument it comes from and the event from which it has
  effect (none for an instrument whose date of effect is not known).

With no `day` it describes the text as stored (the original expression): every event and every
modification the store knows, each dated by its period. With a `day`, the version in effect on
that day (the consolidated expression `export --as-of` prints): the events up to that version and
the modifications it applies, on the eIds they have in its text; the expression is dated from
the version's first day of effect.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from taxtreaty.structure.akn_history import Event, History, InstrumentRef, TextualMod

_URI_UNSAFE = re.compile(r"[^a-z0-9-]+")


def _iso(value: dt.date | str | None) -> str | None:
    if value is None:
        return None
    return value.isoformat() if isinstance(value, dt.date) else value


def _amendments(timeline: Any) -> list[Any]:
    """Every amending instrument of the timeline, dated ones in their order, then the undated."""
    seen: dict[str, Any] = {}
    for version in timeline.versions:
        for found in version.amendments:
            seen.setdefault(found.key, found)
    for found in timeline.undated:
        seen.setdefault(found.key, found)
    return list(seen.values())


def _instrument_href(found: Any, parties: tuple[str, ...]) -> str:
    kind = found.instrument.kind.replace("_", "-")
    signed = found.instrument.signed or "unknown-date"
    names = "-".join(p.lower() for p in (found.instrument.base.parties if found.instrument.base else []) or parties)
    return f"/akn/int/act/{kind}/{_URI_UNSAFE.sub('-', signed)}/{_URI_UNSAFE.sub('-', names) or 'unknown-parties'}"


def akn_history(treaty: Any, day: dt.date | None = None) -> History:
    """The History of `treaty` (a CompiledTreaty) as stored (`day` None) or as the version in
    effect on `day`."""
    history = History()
    timeline = getattr(treaty, "timeline", None)
    resolved = getattr(treaty.in_force, "resolved", None)
    entry = _iso(getattr(resolved, "entry_into_force", None))
    if entry:
        history.events.append(Event("evt_entry_into_force", entry, "generation", "entry_into_force", "original"))
    if timeline is None or not timeline.versions:
        return history
    everything = _amendments(timeline)
    version = timeline.at(day)[1] if day is not None else None
    shown = version.amendments if version is not None else everything
    for found in shown:
        n = everything.index(found) + 1
        ref = InstrumentRef(f"pasref_{n}", _instrument_href(found, tuple(treaty.parties)), found.label)
        history.instruments.append(ref)
        start = None
        if found.effect_from is not None:
            start = f"evt_amendment_{n}"
            history.events.append(Event(start, found.effect_from.isoformat(), "amendment", "effect", ref.eid))
        if version is not None and version.consolidated is not None:
            modifications = [a.modification for a in version.consolidated.applied if a.source == found.key]
        else:
            modifications = list(found.instrument.modifications)
        for mod in modifications:
            history.modifications.append(TextualMod(mod.type, mod.target_eid, ref.eid,
                                                    mod.new_eid if mod.type == "renumbering" else None, start))
    if version is not None and version.effect_from is not None:
        history.expression_date = (version.effect_from.isoformat(), "effect")
    return history
