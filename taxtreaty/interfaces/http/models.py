"""Request and response models of the HTTP API: what the OpenAPI document shows integrators."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Income = Literal[
    "dividends", "interest", "royalties", "business_profits", "shipping", "employment", "pensions",
    "directors_fees", "entertainers", "government_service", "students", "teachers", "capital_gains",
    "immovable_property", "other_income",
]
RecipientKind = Literal["individual", "company", "government", "local_authority", "central_bank", "named_institution"]
#: a treaty id as the API takes it (path, query, ingest), and the `parties` query of POST /ask
TREATY_ID_PATTERN = r"^[A-Za-z0-9._-]+$"
TREATY_ID_MAX = 100
PARTIES_PATTERN = r"^[A-Za-z]{2},[A-Za-z]{2}$"

StateCode = Field(pattern=r"^[A-Za-z]{2}$", description="ISO 3166 alpha-2 code", examples=["PT"])


class Scenario(BaseModel):
    """A payment to decide: exactly the keys of the rules engine (issue 4); unknown keys are refused."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{
            "income": "dividends", "source": "TL", "residence": "PT", "date": "2024-05-01",
            "beneficial_owner": True, "recipient": "company", "capital_pct": 30, "held_months": 26,
        }]},
    )

    income: Income
    source: str = StateCode
    residence: str = StateCode
    date: dt.date | None = Field(None, description="payment date")
    amount: Decimal | None = Field(None, ge=0, le=Decimal("1e15"), description="gross amount paid")
    beneficial_owner: bool | None = Field(None, description="null when unknown")
    recipient: RecipientKind | None = None
    capital_pct: Decimal | None = Field(None, ge=0, le=100, description="share of the payer's capital held")
    held_months: int | None = Field(None, ge=0, le=1200, description="months the holding was held before payment")
    pe_connected: bool | None = Field(None, description="holding effectively connected with a PE / fixed base in the source State")
    payer: str | None = Field(None, max_length=40, description="payer kind, e.g. company, government, local_authority, central_bank")
    days_present: int | None = Field(None, ge=0, le=366)
    employer_resident: str | None = Field(None, pattern=r"^[A-Za-z]{2}$", description="State of residence of the employer")
    nationality: str | None = Field(None, pattern=r"^[A-Za-z]{2}$")

    def facts(self) -> dict[str, Any]:
        """The scenario as the rules engine takes it: unknown facts left out, codes upper-case."""
        data = self.model_dump(exclude_none=True, mode="json")
        for key in ("source", "residence", "employer_resident", "nationality"):
            if key in data:
                data[key] = data[key].upper()
        return data


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
    status: str = Field(description="complete | fragment (some of the text is missing from the source)")
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
    rate_pct: str | None = Field(description="cap in per cent; null with `reason` when unknown (shown as ?)")
    threshold_pct: str | None = None
    conditions: str | None = Field(None, description="the conditions of the cap, in words")
    language: str | None
    eid: str | None
    quote: str | None
    reason: str | None


class RateRow(BaseModel):
    treaty: str
    parties: list[str]
    cells: dict[str, RateCell]


class IngestRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"text": "Article 10\nDividends\n1. Dividends paid ...", "name": "pt-xx.txt"}]},
    )

    text: str = Field(min_length=1, description="the convention's text (UTF-8)")
    name: str | None = Field(None, max_length=200, description="file name, kept as the source path")
    treaty: str | None = Field(None, max_length=TREATY_ID_MAX, pattern=TREATY_ID_PATTERN, description="group the text under this treaty id")


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
