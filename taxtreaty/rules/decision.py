"""The answer to a scenario: who may tax, at what rate, with what relief, and why.

`Decision.to_dict()` is the JSON shape of issue 4:

    {"status": "determined" | "indeterminate" | "not_covered",
     "source_taxation": "none" | "limited" | "unlimited" | null,
     "max_rate_pct": "10" | null, "residence_taxation": "exclusive" | "shared" | null,
     "relief": {"method": ..., ...}, "article_applied": "10", "eid": "art_10__para_3",
     "language": "en", "trace": [{"eid", "language", "quote", "span", "effect"}],
     "missing_facts": [...], "reasons": [...], "candidates": [...], "assumptions": [...]}

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
class Candidate:
    """One outcome an indeterminate decision could have, and the facts that would select it."""

    source_taxation: str
    max_rate_pct: Decimal | None
    eid: str | None
    when: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_taxation": self.source_taxation,
            "max_rate_pct": None if self.max_rate_pct is None else str(self.max_rate_pct),
            "eid": self.eid,
            "if": self.when,
        }


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
    #: purpose test, anti-abuse provisos)
    caveats: list[dict[str, Any]] = field(default_factory=list)

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
        }
        if self.status == "indeterminate":
            data["candidates"] = [c.to_dict() for c in self.candidates]
        if self.assumptions:
            data["assumptions"] = list(self.assumptions)
        if self.withholding_minor is not None:
            from taxtreaty.rules.scenario import format_minor

            data["max_withholding"] = format_minor(self.withholding_minor)
        if self.version is not None:
            data["version"] = self.version
        if self.caveats:
            data["caveats"] = list(self.caveats)
        return data
