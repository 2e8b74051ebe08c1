"""A convention's versions over time, and the decision on the version in effect on a payment date.

`build(base, amendments)` orders the amending instruments by the date from which they have
effect, consolidates the text of each version (`consolidate.py`), parses, extracts and compiles
it, and returns the original version's `CompiledTreaty` with the `Timeline` attached. The engine
(`rules.engine.decide_compiled`) then hands every scenario to `decide_in_time`:

- the payment date picks the version; the decision says which (`decision.version`: its label, the
  dates it has effect between, the instruments it consolidates);
- no payment date: when the versions would answer differently, the date is a missing fact;
- an instrument whose date of effect is not known (its entry into force was not given): a payment
  after the earliest day it could have effect is decided both with and without it, and when the
  answers differ the decision is `indeterminate`, naming the instrument;
- two instruments that change the same provision from the same date are a clash: a decision that
  applies that provision is `indeterminate`, with both instructions cited.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, fields, replace
from typing import Any

from taxtreaty.rules.compile import CompiledTreaty, TopicRules, article_of, compile_treaty
from taxtreaty.rules.decision import Candidate, Cite, Decision, TraceEntry
from taxtreaty.structure.instrument import Instrument, InstrumentCite, Modification
from taxtreaty.structure.model import Document
from taxtreaty.structure.model import Warning as DocWarning
from taxtreaty.versions.consolidate import BASE, Consolidated, consolidate


@dataclass
class Amendment:
    """An amending instrument of the convention, with the date from which it has effect."""

    key: str  # how citations name its text (file name or stored document)
    instrument: Instrument
    text: str  # its original text (the spans of its modifications index it)
    effect_from: dt.date | None = None
    #: where the date comes from ("its own final clause", "entry into force given by the user")
    effect_why: str = ""
    #: when the date is not known: the earliest day it could have effect (its signature)
    earliest: dt.date | None = None

    @property
    def label(self) -> str:
        kind = self.instrument.kind.replace("_", " ")
        signed = f" signed {self.instrument.signed}" if self.instrument.signed else ""
        return f"{kind}{signed} ({self.key})"

    def describe(self) -> dict[str, Any]:
        return {"kind": self.instrument.kind, "source": self.key, "signed": self.instrument.signed,
                "effect_from": self.effect_from.isoformat() if self.effect_from else None, "why": self.effect_why}


def amendment(key: str, doc: Document, entry_into_force: dt.date | None = None,
              effect_from: dt.date | None = None) -> Amendment:
    """An `Amendment` from a parsed amending instrument; the dates the user gives win over the text's."""
    instrument = doc.instrument
    if instrument is None or not instrument.amending:
        raise ValueError(f"{key} is not an amending instrument")
    found = Amendment(key, instrument, doc.original)
    dates = instrument.dates
    signed = dt.date.fromisoformat(instrument.signed) if instrument.signed else None
    text_eif = dt.date.fromisoformat(dates.entry_into_force) if dates and dates.entry_into_force else None
    eif = entry_into_force or text_eif
    if effect_from is not None:
        found.effect_from, found.effect_why = effect_from, "date of effect given by the user"
    elif dates is not None and dates.effect_from:
        found.effect_from = dt.date.fromisoformat(dates.effect_from)
        found.effect_why = f"its final clause: {dates.cite.quote if dates.cite else ''}".strip()
    elif dates is not None and dates.effect_rule == "january_1_of_year_after_entry_into_force" and eif is not None:
        found.effect_from = dt.date(eif.year + 1, 1, 1)
        given = "given by the user" if entry_into_force else "printed"
        found.effect_why = f"1 January of the year after its entry into force on {eif} ({given})"
    elif dates is not None and (months := _months_rule(dates.effect_rule)) is not None and eif is not None:
        index = eif.month + months - 1
        found.effect_from = dt.date(eif.year + index // 12, index % 12 + 1, 1)
        given = "given by the user" if entry_into_force else "printed"
        found.effect_why = f"the first day of the month {months} after its entry into force on {eif} ({given})"
    elif eif is not None and (dates is None or dates.effect_rule in (None, "entry_into_force")) and not (dates and dates.effect_rule):
        found.effect_from, found.effect_why = eif, f"its entry into force on {eif}"
    if found.effect_from is None:
        found.earliest = signed
        if signed is not None and dates is not None and dates.effect_rule == "january_1_of_year_after_entry_into_force":
            found.earliest = dt.date(signed.year + 1, 1, 1)
    return found


def _months_rule(rule: str | None) -> int | None:
    """`month_2_after_entry_into_force` (instrument.py): the first day of the 2nd month after the entry into force."""
    found = re.fullmatch(r"month_(\d{1,2})_after_entry_into_force", rule or "")
    return int(found.group(1)) if found else None


@dataclass
class Clash:
    eid: str
    effect_from: dt.date
    cites: list[tuple[str, InstrumentCite]]

    def describe(self) -> str:
        names = " and ".join(f"{key} ({cite.quote})" for key, cite in self.cites)
        return f"{self.eid} is changed from {self.effect_from} by {names}"


@dataclass
class TreatyVersion:
    label: str
    effect_from: dt.date | None  # None: the original text, from the convention's own dates
    until: dt.date | None  # exclusive
    compiled: CompiledTreaty
    doc: Document
    consolidated: Consolidated | None = None
    amendments: list[Amendment] = field(default_factory=list)

    def describe(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "from": self.effect_from.isoformat() if self.effect_from else None,
            "until": (self.until - dt.timedelta(days=1)).isoformat() if self.until else None,
            "instruments": [a.describe() for a in self.amendments],
        }


@dataclass
class Timeline:
    versions: list[TreatyVersion]
    undated: list[Amendment] = field(default_factory=list)
    clashes: list[Clash] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: version index -> that version with the undated instruments applied too (built when asked)
    _shadows: dict[int, CompiledTreaty] = field(default_factory=dict)
    _builder: Any = None

    def compiled_versions(self) -> list[CompiledTreaty]:
        return [v.compiled for v in self.versions]

    def boundaries(self) -> list[dt.date]:
        days = {v.effect_from for v in self.versions if v.effect_from}
        days |= {a.earliest for a in self.undated if a.earliest}
        return sorted(days)

    def at(self, day: dt.date) -> tuple[int, TreatyVersion]:
        index = 0
        for i, version in enumerate(self.versions):
            if version.effect_from is None or version.effect_from <= day:
                index = i
        return index, self.versions[index]

    def shadow(self, index: int) -> CompiledTreaty | None:
        if not self.undated or self._builder is None:
            return None
        if index not in self._shadows:
            self._shadows[index] = self._builder(index)
        return self._shadows[index]


# -- building ------------------------------------------------------------------------------------


def _remap(compiled: CompiledTreaty, consolidated: Consolidated) -> CompiledTreaty:
    """Every citation of a version compiled from a consolidated text, taken back to the text that
    prints its words: the convention's (source None) or the amending instrument's (its key)."""
    memo: dict[int, Cite] = {}

    def cite(c: Cite | None) -> Cite | None:
        if c is None:
            return None
        if id(c) in memo:
            return memo[id(c)]
        found = consolidated.source_span(c.span[0], c.span[1])
        if found is None:
            new = replace(c, source="consolidated")
        else:
            source, span = found
            new = replace(c, span=span, source=None if source == BASE else source or "consolidated")
        memo[id(c)] = new
        return new

    def rule(r):  # type: ignore[no-untyped-def]
        return replace(r, cite=cite(r.cite))

    for topic in compiled.topics.values():
        _remap_topic(topic, rule, cite)
    compiled.relief = [rule(r) for r in compiled.relief]
    compiled.pe_articles = {k: cite(v) for k, v in compiled.pe_articles.items()}  # type: ignore[misc]
    window = compiled.in_force
    window.cites = [cite(c) for c in window.cites]  # type: ignore[misc]
    window.state_cites = {k: [cite(c) for c in v] for k, v in window.state_cites.items()}  # type: ignore[misc]
    return compiled


def _remap_topic(topic: TopicRules, rule: Any, cite: Any) -> None:
    for f in fields(topic):
        value = getattr(topic, f.name)
        if isinstance(value, list) and value and hasattr(value[0], "cite"):
            setattr(topic, f.name, [rule(r) for r in value])
    topic.truncated = cite(topic.truncated)


def _compile_text(base: Document, amendments: list[Amendment], parties: tuple[str, ...] | list[str] | None,
                  in_force: Any, name: str | None) -> tuple[CompiledTreaty, Document, Consolidated]:
    import importlib

    from taxtreaty.provisions import extract_provisions

    _parse = importlib.import_module("taxtreaty.structure.parse")

    consolidated = consolidate(base, [(a.key, a.instrument, a.text) for a in amendments])
    doc = _parse.parse_text(consolidated.text, path=base.source.path)
    codes = list(parties or base.parties or [])
    doc.parties = codes or doc.parties
    if base.signed is not None and doc.signed is None:
        doc.signed = base.signed
    doc.prevailing_language = doc.prevailing_language or base.prevailing_language
    _mark_unapplied(doc, consolidated, amendments)
    provisions = extract_provisions(doc, codes or None)
    compiled = compile_treaty(doc, provisions, codes or None, in_force=in_force, name=name)
    return _remap(compiled, consolidated), doc, consolidated


def _mark_unapplied(doc: Document, consolidated: Consolidated, amendments: list[Amendment]) -> None:
    """A modification that could not be applied leaves its provision a gap in this version (the
    engine's `amendment_not_applied` warning): decided as unknown, never on the words it replaced.
    The nearest provision the version holds carries it (an article for a paragraph it failed to add)."""
    languages = {a.instrument.language for a in amendments if a.instrument.language}
    for eid, why in consolidated.unapplied:
        for language in languages or {None}:
            target = eid
            while target and doc.find(target, language) is None and "__" in target:
                target = target.rsplit("__", 1)[0]
            if doc.find(target, language) is None:
                continue
            doc.warnings.append(DocWarning(code="amendment_not_applied", eid=target, language=language,
                                           message=f"{target} [{language}] is amended by words that could not be applied "
                                                   f"({why}); the provision is not decided on its former text"))


def _overlaps(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "__") or b.startswith(a + "__")


def build(base_compiled: CompiledTreaty, base: Document, amendments: list[Amendment],
          parties: tuple[str, ...] | list[str] | None = None, in_force: Any = None) -> CompiledTreaty:
    """The original version's compiled treaty with the timeline of every version attached."""
    dated = sorted((a for a in amendments if a.effect_from is not None), key=lambda a: a.effect_from)  # type: ignore[arg-type,return-value]
    undated = [a for a in amendments if a.effect_from is None]
    original = replace(base_compiled, timeline=None)
    versions = [TreatyVersion("original text", None, None, original, base)]
    timeline = Timeline(versions, undated=undated)
    # clashes: two instruments that change the same provision from the same day
    for i, a in enumerate(dated):
        for b in dated[i + 1:]:
            if a.effect_from != b.effect_from or a.key == b.key:
                continue
            for ma in a.instrument.modifications:
                for mb in b.instrument.modifications:
                    if _overlaps(ma.target_eid, mb.target_eid):
                        timeline.clashes.append(Clash(ma.target_eid, a.effect_from, [(a.key, ma.cite), (b.key, mb.cite)]))  # type: ignore[arg-type]
    days = sorted({a.effect_from for a in dated})  # type: ignore[type-var]
    for day in days:
        applied = [a for a in dated if a.effect_from <= day]  # type: ignore[operator]
        compiled, doc, consolidated = _compile_text(base, applied, parties, in_force, base_compiled.name)
        timeline.problems += [p for p in consolidated.problems if p not in timeline.problems]
        label = "as amended by " + "; ".join(a.label for a in applied)
        versions[-1].until = day
        versions.append(TreatyVersion(label, day, None, compiled, doc, consolidated, applied))

    def shadow(index: int) -> CompiledTreaty:
        applied = [*versions[index].amendments, *undated]
        return _compile_text(base, applied, parties, in_force, base_compiled.name)[0]

    timeline._builder = shadow
    return replace(base_compiled, timeline=timeline)


# -- deciding ------------------------------------------------------------------------------------


def _outcome(d: Decision) -> tuple[Any, ...]:
    return (d.status, d.source_taxation, d.max_rate_pct, d.residence_taxation, (d.relief or {}).get("method"))


def _touches(decision: Decision, eid: str) -> bool:
    applied = {t.cite.eid for t in decision.trace} | {decision.eid or ""} | {(decision.relief or {}).get("eid") or ""}
    return any(x and (_overlaps(x, eid) or (article_of(x) == article_of(eid) and "__" not in eid)) for x in applied)


def decide_in_time(treaty: CompiledTreaty, scenario: Any) -> Decision:
    from taxtreaty.rules.engine import decide_compiled

    timeline: Timeline = treaty.timeline
    if scenario.date is None:
        # each version decided on a day it is in effect: the same answer in all needs no date
        days = [v.effect_from or (timeline.versions[1].effect_from - dt.timedelta(days=1))  # type: ignore[operator]
                if len(timeline.versions) > 1 else None for v in timeline.versions]
        outcomes = [(v, decide_compiled(v.compiled, replace(scenario, date=day) if day else scenario))
                    for v, day in zip(timeline.versions, days, strict=True)]
        if len({_outcome(d) for _, d in outcomes}) == 1:
            last = decide_compiled(timeline.versions[-1].compiled, scenario)
            last.version = {**timeline.versions[-1].describe(), "note": "every version of the convention gives this answer"}
            return last
        decision = Decision(status="indeterminate", missing_facts=["date"])
        decision.reasons.append("the convention was amended: the answer depends on the payment date")
        for version, d in outcomes:
            when = f"the payment is on or after {version.effect_from}" if version.effect_from else "the payment is before the first amendment"
            decision.candidates.append(Candidate(d.source_taxation or d.status, d.max_rate_pct, d.eid, when))
        decision.version = {"versions": [v.describe() for v in timeline.versions]}
        return decision
    index, version = timeline.at(scenario.date)
    decision = decide_compiled(version.compiled, scenario)
    decision.version = {**version.describe(), **(decision.version or {})}
    if version.amendments:
        decision.reasons.append(f"decided on the text {version.label}, in effect from {version.effect_from}")
    for clash in timeline.clashes:
        if clash.effect_from <= scenario.date and _touches(decision, clash.eid):
            _clash(decision, clash)
    pending = [a for a in timeline.undated if a.earliest is None or a.earliest <= scenario.date]
    if pending and decision.status != "not_covered":
        alternative = timeline.shadow(index)
        if alternative is not None:
            other = decide_compiled(alternative, scenario)
            names = "; ".join(a.label for a in pending)
            if _outcome(other) != _outcome(decision):
                _undated(decision, other, names)
            else:
                decision.reasons.append(f"{names} amends the convention from a date not known; the answer is the same with or without it")
    return decision


def _clash(decision: Decision, clash: Clash) -> None:
    if decision.status == "determined":
        decision.candidates.append(Candidate(decision.source_taxation or "unknown", decision.max_rate_pct, decision.eid,
                                             "the clash is resolved in favour of the text applied"))
    decision.status = "indeterminate"
    decision.reasons.append(f"two instruments change the same provision from the same date: {clash.describe()}")
    for key, cite in clash.cites:
        decision.trace.append(TraceEntry(Cite(cite.eid or clash.eid, "und", cite.quote, cite.span, key), "clash"))
    decision.source_taxation = decision.max_rate_pct = decision.residence_taxation = None


def _undated(decision: Decision, other: Decision, names: str) -> None:
    if decision.status == "determined":
        decision.candidates.append(Candidate(decision.source_taxation or "unknown", decision.max_rate_pct, decision.eid,
                                             f"{names} does not yet have effect"))
    decision.candidates.append(Candidate(other.source_taxation or other.status, other.max_rate_pct, other.eid,
                                         f"{names} has effect on the payment date"))
    decision.status = "indeterminate"
    decision.reasons.append(f"{names} changes this answer, and the date from which it has effect is not known "
                            "(give its entry into force: ingest --in-force, or the metadata file)")
    decision.source_taxation = decision.max_rate_pct = decision.residence_taxation = None


def modification_notes(version: TreatyVersion) -> dict[str, list[Modification]]:
    """eId -> the modifications that gave it its words, for readers' "amended by" notes."""
    notes: dict[str, list[Modification]] = {}
    if version.consolidated is None:
        return notes
    for applied in version.consolidated.applied:
        notes.setdefault(applied.eid, []).append(applied.modification)
    return notes
