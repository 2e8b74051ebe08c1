"""Request and response models of the HTTP API: what the OpenAPI document shows integrators."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from taxtreaty.rules.facts import fact_schema
from taxtreaty.rules.scenario import MAX_AMOUNT, scenario_from
from taxtreaty.text import InputError


def _scenario_fields() -> dict[str, Any]:
    """The request model's fields, from the fact schema (data/rules/facts.yaml): the same keys,
    choices and bounds as the engine, the CLI and the ledger."""
    fields: dict[str, Any] = {}
    for fact in fact_schema().facts.values():
        extra: dict[str, Any] = {"description": fact.help}
        kind: Any
        if fact.type == "choice":
            kind = Literal[tuple(fact.choices)]  # type: ignore[valid-type]
        elif fact.type == "state":
            kind, extra["pattern"], extra["examples"] = str, r"^[A-Za-z]{2}$", ["PT"]
        elif fact.type == "currency":
            kind, extra["pattern"] = str, r"^[A-Za-z]{3}$"
        elif fact.type == "date":
            kind = dt.date
        elif fact.type in ("amount", "decimal"):
            kind = Decimal
            extra["ge"] = fact.low if fact.low is not None else 0
            extra["le"] = fact.high if fact.high is not None else (MAX_AMOUNT if fact.type == "amount" else None)
        elif fact.type == "int":
            kind = int
            extra["ge"] = int(fact.low) if fact.low is not None else 0
            extra["le"] = int(fact.high) if fact.high is not None else None
        elif fact.type == "bool":
            kind = bool
        else:
            kind, extra["max_length"] = str, fact.max_length or 200
        extra = {k: v for k, v in extra.items() if v is not None}
        if fact.required:
            fields[fact.key] = (kind, Field(..., **extra))
        else:
            fields[fact.key] = (kind | None, Field(None, **extra))
    return fields


class _ScenarioBase(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{
            "income": "dividends", "source": "TL", "residence": "PT", "date": "2024-05-01",
            "beneficial_owner": True, "recipient": "company", "capital_pct": 30, "held_months": 26,
        }]},
    )

    @model_validator(mode="before")
    @classmethod
    def _as_the_engine_reads_it(cls, data: Any) -> Any:
        """The engine's own validation first (one definition: a date as 20240501, a number of
        400 digits or an unknown choice is refused here exactly as the CLI refuses it)."""
        if isinstance(data, dict):
            try:
                scenario_from(data)
            except InputError as exc:
                raise ValueError(str(exc).removeprefix("scenario: ")) from None
        return data

    def facts(self) -> dict[str, Any]:
        """The scenario as the rules engine takes it: unknown facts left out, codes upper-case."""
        data = self.model_dump(exclude_none=True, mode="json")
        for key, fact in fact_schema().facts.items():
            if key in data and fact.type in ("state", "currency"):
                data[key] = data[key].upper()
        return data


#: a payment to decide: exactly the fact schema's keys; unknown keys are refused
Scenario = create_model("Scenario", __base__=_ScenarioBase, __doc__=(
    "A payment to decide: exactly the keys of the fact schema; unknown keys are refused."), **_scenario_fields())
Income = Literal[tuple(fact_schema().choices("income"))]  # type: ignore[valid-type]
RecipientKind = Literal[tuple(fact_schema().choices("recipient"))]  # type: ignore[valid-type]
#: a treaty id as the API takes it (path, query, ingest), and the `parties` query of POST /ask
TREATY_ID_PATTERN = r"^[A-Za-z0-9._-]+$"
TREATY_ID_MAX = 100
PARTIES_PATTERN = r"^[A-Za-z]{2},[A-Za-z]{2}$"

StateCode = Field(pattern=r"^[A-Za-z]{2}$", description="ISO 3166 alpha-2 code", examples=["PT"])


class TraceStep(BaseModel):
    model_config = ConfigDict(extra="allow")

    eid: str | None = None
    language: str | None = None
    quote: str | None = None
    effect: str | None = None
    #: link into the web reader for this step (added by the API)
    href: str | None = None


class Decision(BaseModel):
    """The rules engine's decision, with a trace of every paragraph applied."""

    model_config = ConfigDict(extra="allow")

    treaty: str
    status: Literal["determined", "indeterminate", "not_covered"]
    source_taxation: str | None = None
    max_rate_pct: Decimal | None = None
    residence_taxation: str | None = None
    relief: dict[str, Any] | None = None
    article_applied: str | None = None
    trace: list[TraceStep] = Field(default_factory=list)
    missing_facts: list[str] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)


class TreatySummary(BaseModel):
    id: str = Field(examples=["pt-tl-2011"])
    title: str | None
    parties: list[str]
    signed: str | None
    signed_place: str | None = None
    languages: list[str]
    prevailing_language: str | None
    articles: int
    status: str = Field(description="complete | fragment (some of the text is missing from the source) | "
                                    "no articles read (e.g. a language the readers have no data for)")
    warnings: int = 0
    files: int = 1


class ChapterOut(BaseModel):
    eid: str
    number: str
    heading: str | None


class ArticleRef(BaseModel):
    eid: str
    number: str
    heading: str | None
    topic: str | None
    complete: bool
    chapter: str | None


class ProtocolRef(BaseModel):
    eid: str
    heading: str
    paragraphs: int


class VersionOut(BaseModel):
    language: str
    title: str | None
    chapters: list[ChapterOut]
    articles: list[ArticleRef]
    protocols: list[ProtocolRef] = Field(default_factory=list, description="instruments printed after the convention")


class WarningOut(BaseModel):
    code: str
    eid: str | None
    language: str | None
    message: str


class TreatyDetail(TreatySummary):
    versions: list[VersionOut]
    notes: list[WarningOut] = Field(default_factory=list, description="parser warnings: damaged or missing text")


class PointOut(BaseModel):
    eid: str
    label: str
    text: str
    points: list[PointOut] = Field(default_factory=list)


class ParagraphOut(BaseModel):
    eid: str
    number: str | None
    complete: bool
    text: str
    points: list[PointOut] = Field(default_factory=list)


class ArticleOut(BaseModel):
    treaty: str
    language: str
    languages: list[str] = Field(description="languages in which this article exists")
    eid: str
    number: str
    heading: str | None
    topic: str | None
    complete: bool
    chapter: str | None
    citation: str = Field(examples=["Art. 10"])
    paragraphs: list[ParagraphOut]
    notes: list[WarningOut] = Field(default_factory=list)


class SearchHit(BaseModel):
    treaty: str
    language: str
    eid: str
    article: str | None
    heading: str | None
    topic: str | None
    score: float
    snippet: str
    highlights: list[list[int]] = Field(description="[start, end) offsets of matches in `snippet`")


class RateCell(BaseModel):
    """One decision of the matrix: what `POST /ask` answers for `scenario` under `treaty`."""

    treaty: str
    source: str
    residence: str
    income: str
    variant: str = Field(description="portfolio, qualifying holding N%, general, recipient: the central bank, loan: a sale on credit ..., royalty for: computer software, ...")
    scenario: dict[str, Any] = Field(description="the scenario this cell answers, in the scenario keys")
    status: Literal["determined", "indeterminate", "not_covered"]
    source_taxation: str | None = None
    max_rate_pct: str | None = None
    eid: str | None = None
    article: str | None = None
    missing_facts: list[str] = Field(default_factory=list)
    applies_from: str | None = Field(None, description="the first payment date the answer's text has effect for, when known")
    reasons: list[str] = Field(default_factory=list)
    language: str | None = None
    shown: str = Field(description="the cell as a practitioner reads it: 5%, 0% (no source tax), ? (depends on: Share of the payer’s capital held (%)); the facts themselves are in missing_facts")


class RateRow(BaseModel):
    """One treaty in one direction (income from `source` to a resident of `residence`)."""

    treaty: str
    source: str
    residence: str
    cells: dict[str, RateCell] = Field(description="by column: dividends: portfolio, dividends: qualifying holding, interest, royalties, other income")
    notes: list[RateCell] = Field(default_factory=list, description="the other canonical cases the text distinguishes")


class IngestRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"text": "Article 10\nDividends\n1. Dividends paid ...", "name": "pt-xx.txt"}]},
    )

    text: str = Field(min_length=1, description="the convention's text (UTF-8)")
    name: str | None = Field(None, max_length=200, description="file name, kept as the source path")
    treaty: str | None = Field(None, max_length=TREATY_ID_MAX, pattern=TREATY_ID_PATTERN, description="group the text under this treaty id")
    convention: int | None = Field(None, ge=1, le=999, description="of a text holding several conventions (an Act's schedules), "
                                   "the one numbered so, as the refusal lists them (the text is refused without it)")


#: how a request chooses one convention of a text holding several: named when such a text is refused
CONVENTION_CHOICE = '"convention": N in the request'


class IngestResult(BaseModel):
    treaty: str
    status: Literal["added", "skipped"]
    sha256: str
    reason: str | None = None


class Problem(BaseModel):
    """RFC 9457 problem details."""

    model_config = ConfigDict(extra="allow")

    type: str = "about:blank"
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None


class Health(BaseModel):
    status: Literal["ok"]
