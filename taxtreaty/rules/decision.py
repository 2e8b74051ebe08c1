"""The answer to a scenario: who may tax, at what rate, with what relief, and why.

`Decision.to_dict()` is the JSON shape of issue 4:

    {"status": "determined" | "indeterminate" | "not_covered",
     "source_taxation": "none" | "limited" | "unlimited" | null,
     "max_rate_pct": "10" | null, "residence_taxation": "exclusive" | "shared" | null,
     "relief": {"method": ..., ...}, "article_applied": "10", "eid": "art_10__para_3",
     "language": "en", "trace": [{"eid", "language", "quote", "span", "effect"}],
     "missing_facts": [...], "reasons": [...], "candidates": [...], "assumptions": [...],
     "caveats": [{"kind", "eid", "quote", "label"}], "unread": [{"eid", "quote"}],
     "questions": [{"fact", "question", "answers": [{"value", "label", "leads_to"}]}]}

`missing_facts` holds only keys of the fact schema (`data/rules/facts.yaml`), each a fact a user can
give; words of the text the engine could not read are in `unread`, never a missing fact. `caveats`
are the provisos the answer holds subject to (anti-abuse, "as long as the law of ...", ...): a
determined answer stays determined with them. `questions` (filled by `rules.questions.explain`)
ask the missing facts in the user's words, each answer with the outcome it leads to.

`trace` lists every paragraph the engine looked at, in the order it applied them, each with the
exact words (`quote == document.original[span[0]:span[1]]`) and what it did to the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

DecisionStatus = Literal["determined", "indeterminate", "not_covered"]
SourceTaxation = Literal["none", "limited", "unlimited"]


@dataclass(frozen=True, slots=True)
class Cite:
    """The words a rule rests on (shared between decisions; built once at compile time)."""

    eid: str
    language: str
    quote: str
    span: tuple[int, int]
    #: the document the span indexes when it is not the convention's own text (the amending
    #: instrument whose words a consolidated version applies); None for the convention's text
    source: str | None = None


@dataclass(frozen=True, slots=True)
class TraceEntry:
    cite: Cite
    effect: str

    def to_dict(self) -> dict[str, Any]:
        c = self.cite
        data = {"eid": c.eid, "language": c.language, "quote": c.quote, "span": list(c.span), "effect": self.effect}
        if c.source is not None:
            data["source"] = c.source
        return data


@dataclass(frozen=True, slots=True)
class Caveat:
    """A proviso the answer holds subject to: its kind (labels.yaml `caveat_kinds`) and its words."""

    kind: str
    eid: str
    quote: str
    #: whose words: the convention's, or the Multilateral Instrument's ("mli")
    source: str = "convention"

    def to_dict(self) -> dict[str, Any]:
        from taxtreaty.rules.labels import label

        return {"kind": self.kind, "eid": self.eid, "quote": self.quote, "source": self.source,
                "label": label("caveat_kinds", self.kind)}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One outcome an indeterminate decision could have, and the facts that would select it
    (`fact`/`values`: the values of one missing fact that lead to it, when one fact tells)."""

    source_taxation: str
    max_rate_pct: Decimal | None
    eid: str | None
    when: str
    fact: str | None = None
    values: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "source_taxation": self.source_taxation,
            "max_rate_pct": None if self.max_rate_pct is None else str(self.max_rate_pct),
            "eid": self.eid,
            "if": self.when,
        }
        if self.fact is not None:
            data["fact"] = self.fact
            data["values"] = [str(v) for v in self.values]
        return data

    def outcome(self) -> tuple[str, Decimal | None, str | None]:
        return self.source_taxation, self.max_rate_pct, self.eid


@dataclass(slots=True)
class Decision:
    status: DecisionStatus
    source_taxation: SourceTaxation | None = None
    max_rate_pct: Decimal | None = None
    residence_taxation: str | None = None
    relief: dict[str, Any] = field(default_factory=dict)
    article_applied: str | None = None
    eid: str | None = None
    language: str | None = None
    trace: list[TraceEntry] = field(default_factory=list)
    missing_facts: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    assumptions: list[dict[str, Any]] = field(default_factory=list)
    withholding_minor: int | None = None
    #: the version of the convention applied and its dates (`taxtreaty.versions`), when it has
    #: more than one or its dates of effect were read
    version: dict[str, Any] | None = None
    #: provisos the answer is subject to: [{kind, eid, quote, source}] (the MLI's principal
    #: purpose test, anti-abuse provisos, "as long as the law of ...": `Caveat.to_dict`)
    caveats: list[dict[str, Any]] = field(default_factory=list)
    #: words of the text the engine could not read, that the answer depends on: [{eid, quote}]
    unread: list[dict[str, str]] = field(default_factory=list)
    #: the missing facts asked in the user's words (rules.questions.explain)
    questions: list[dict[str, Any]] = field(default_factory=list)

    def add_caveats(self, caveats: Any) -> None:
        for caveat in caveats:
            entry = caveat.to_dict() if isinstance(caveat, Caveat) else dict(caveat)
            if entry not in self.caveats:
                self.caveats.append(entry)

    def add_unread(self, eid: str, quote: str) -> None:
        entry = {"eid": eid, "quote": quote}
        if entry not in self.unread:
            self.unread.append(entry)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status,
            "source_taxation": self.source_taxation,
            "max_rate_pct": None if self.max_rate_pct is None else str(self.max_rate_pct),
            "residence_taxation": self.residence_taxation,
            "relief": self.relief,
            "article_applied": self.article_applied,
            "eid": self.eid,
            "language": self.language,
            "trace": [t.to_dict() for t in self.trace],
            "missing_facts": list(self.missing_facts),
            "reasons": list(self.reasons),
            "caveats": [dict(c) for c in self.caveats],
            "unread": [dict(u) for u in self.unread],
        }
        if self.status == "indeterminate":
            data["candidates"] = [c.to_dict() for c in self.candidates]
        if self.questions:
            data["questions"] = [dict(q) for q in self.questions]
        if self.assumptions:
            data["assumptions"] = list(self.assumptions)
        if self.withholding_minor is not None:
            from taxtreaty.rules.scenario import format_minor

            data["max_withholding"] = format_minor(self.withholding_minor)
        if self.version is not None:
            data["version"] = self.version
        return data
