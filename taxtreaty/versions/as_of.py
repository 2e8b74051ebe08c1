"""The text of a treaty in effect on a day: the version a decision on that day uses.

`version_on(treaty, day)` picks, from a compiled treaty's timeline (its amending instruments, see
`versions.timeline`), the version in effect on `day` and says where each amended provision's words
come from. `show`, `export` and the web reader take `--as-of DATE` / `?as_of=DATE` through it, so
they show the words the engine decides on for a payment of that day.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from taxtreaty.structure.model import Document


@dataclass(frozen=True)
class VersionOn:
    """The version of a treaty in effect on `day` (None: only the list of versions is wanted)."""

    day: dt.date | None
    document: Document
    label: str
    effect_from: dt.date | None
    #: the first day of the next version (exclusive), when there is one
    until: dt.date | None
    #: the amending instruments this version applies (`Amendment.describe()`)
    instruments: list[dict[str, Any]] = field(default_factory=list)
    #: eId -> the instrument (its key) whose words it carries in this version
    amended: dict[str, str] = field(default_factory=dict)
    #: instruments whose date of effect is not known: not applied here, and why
    undated: list[str] = field(default_factory=list)
    #: every version of the treaty, (label, from, until) for a version selector
    versions: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    #: how the version's text was pieced together (`consolidate.Consolidated`); None: the original
    consolidated: Any = None

    def describe(self) -> dict[str, Any]:
        return {"as_of": self.day.isoformat() if self.day else None, "label": self.label,
                "from": self.effect_from.isoformat() if self.effect_from else None,
                "until": (self.until - dt.timedelta(days=1)).isoformat() if self.until else None,
                "instruments": self.instruments, "amended": self.amended, "undated": self.undated}

    def note(self) -> str:
        """One line: which text this is."""
        span = f"in effect from {self.effect_from}" if self.effect_from else "the text as signed"
        if self.until:
            span += f" until {self.until - dt.timedelta(days=1)}"
        extra = "; not applied (date of effect unknown): " + "; ".join(self.undated) if self.undated else ""
        return f"as of {self.day}: {self.label} ({span}){extra}"


def version_on(treaty: Any, day: dt.date) -> VersionOn | None:
    """The version of `treaty` (a `CompiledTreaty`) in effect on `day`; None when no amending
    instrument is known (the text as stored is the only version)."""
    timeline = getattr(treaty, "timeline", None)
    if timeline is None or not timeline.versions:
        return None
    _index, version = timeline.at(day)
    amended = {}
    if version.consolidated is not None:
        amended = {a.eid: a.source for a in version.consolidated.applied}
    undated = [f"{a.label}: give its entry into force (ingest --in-force)" for a in timeline.undated]
    versions = [(v.label, v.effect_from.isoformat() if v.effect_from else None,
                 (v.until - dt.timedelta(days=1)).isoformat() if v.until else None) for v in timeline.versions]
    return VersionOn(day, version.doc, version.label, version.effect_from, version.until,
                     [a.describe() for a in version.amendments], amended, undated, versions, version.consolidated)
