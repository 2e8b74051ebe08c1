"""The withholding rate table: treaty × dividends (general / qualifying) / interest / royalties / other.

Every cell is either a figure with the citation it rests on, or `?` with the reason it is
unknown (the article is not in the stored text, the text announces rates but lost them, no
provisions were extracted). Nothing is filled in by default: a wrong rate is worse than none.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from taxtreaty.provisions.model import Provision
from taxtreaty.store.provisions import (
    describe_conditions,
    extraction_missing,
    pct,
    topic_articles,
    treaty_provisions,
)
from taxtreaty.store.queries import _languages, list_treaties
from taxtreaty.store.schema import Treaty
from taxtreaty.text import InputError

COLUMNS = ("dividends_general", "dividends_qualifying", "interest", "royalties", "other_income")
_TOPIC_OF = {"dividends_general": "dividends", "dividends_qualifying": "dividends", "interest": "interest",
             "royalties": "royalties", "other_income": "other_income"}
#: conditions that make a cap a special case rather than the general rate
_SPECIAL = ("min_capital_pct", "recipient", "recipient_kinds", "recipient_names", "payer_kinds", "income_subtype",
            "guaranteed_by_government", "paid_until")
_EID_PART = re.compile(r"(art|para|point)_([^_]+(?:_\d+)?)")


class CellCite(BaseModel):
    ref: str
    language: str
    eid: str
    quote: str


class RateCell(BaseModel):
    value: str
    rate_pct: str | None = None
    threshold_pct: str | None = None
    conditions: str | None = None
    reason: str | None = None
    cites: list[CellCite] = Field(default_factory=list)


class RateRow(BaseModel):
    treaty: str
    title: str
    parties: list[str]
    cells: dict[str, RateCell]


def ref_of(eid: str) -> str:
    """"art_10__para_2__point_a" -> "Art. 10(2)(a)"."""
    parts = eid.split("__")
    out = ""
    for part in parts:
        kind, _, label = part.partition("_")
        if kind == "art":
            out += f"Art. {label}"
        elif kind == "para":
            out += f"({label.removeprefix('nn_')})"
        elif kind == "point":
            out += f"({label})"
    return out or eid


def _cite(p: Provision) -> CellCite:
    return CellCite(ref=ref_of(p.cite.eid), language=p.cite.language, eid=p.cite.eid, quote=p.cite.quote)


def _unknown(reason: str, provisions: list[Provision] = ()) -> RateCell:  # type: ignore[assignment]
    return RateCell(value="?", reason=reason, cites=[_cite(p) for p in provisions])


def _cell(column: str, caps: list[Provision], unknown: list[Provision], allocations: list[Provision],
          article_ref: str, complete: bool) -> RateCell:
    if column == "dividends_qualifying":
        chosen = [p for p in caps if "min_capital_pct" in p.conditions]
        if not chosen:
            if unknown:
                return _unknown(unknown[0].reason or f"{article_ref}: the rates are not in the source text", unknown)
            if caps:
                return RateCell(value="-", reason=f"{article_ref} has no reduced rate for a qualifying holding",
                                cites=[_cite(p) for p in caps])
            return _unknown(_no_rate(article_ref, complete))
        best = min(chosen, key=lambda p: p.rate_pct or Decimal(0))
        return RateCell(value=pct(best.rate_pct), rate_pct=str(best.rate_pct),
                        threshold_pct=str(best.conditions["min_capital_pct"]),
                        conditions=describe_conditions(best.conditions), cites=[_cite(best)])
    general = [p for p in caps if not any(k in p.conditions for k in _SPECIAL)]
    if not general:
        # only dated or special-case caps: the latest regime (no end date) of the rest, if any
        general = [p for p in caps if "min_capital_pct" not in p.conditions and "paid_until" not in p.conditions]
    if general:
        best = max(general, key=lambda p: p.rate_pct or Decimal(0))
        return RateCell(value=pct(best.rate_pct), rate_pct=str(best.rate_pct),
                        conditions=describe_conditions(best.conditions), cites=[_cite(best)])
    if unknown:
        return _unknown(unknown[0].reason or f"{article_ref}: the rates are not in the source text", unknown)
    exclusive = [p for p in allocations if p.allocation == "residence_only"]
    if exclusive and not caps:
        return RateCell(value="0%", rate_pct="0", conditions="taxable only in the State of residence",
                        cites=[_cite(exclusive[0])])
    if column == "other_income" and allocations:
        shared = allocations[0]
        return RateCell(value="no cap", conditions=f"{shared.allocation}", cites=[_cite(shared)],
                        reason="the source State may tax without a treaty limit")
    return _unknown(_no_rate(article_ref, complete))


def _no_rate(article_ref: str, complete: bool) -> str:
    if not complete:
        return f"{article_ref} is incomplete in the source text; no rate found in what is there"
    return f"no rate found in {article_ref}"


def treaty_rates(connection: Session, t: Treaty) -> RateRow:
    languages = _languages(connection, t.id)
    order = ([t.prevailing_language] if t.prevailing_language in languages else []) + \
        [lang for lang in languages if lang != t.prevailing_language]
    missing = extraction_missing(connection, t.id)
    cells: dict[str, RateCell] = {}
    for column in COLUMNS:
        topic = _TOPIC_OF[column]
        chosen = None
        for lang in order:
            arts = topic_articles(connection, t.id, lang).get(topic)
            if arts:
                chosen = (lang, arts[0])
                break
        if chosen is None:
            cells[column] = _unknown(f"the article on {topic.replace('_', ' ')} is not in the stored text")
            continue
        lang, art = chosen
        article_ref = f"Art. {art.number}"
        provisions = treaty_provisions(connection, t.id, topic, lang)
        if missing and not provisions:
            cells[column] = _unknown("provisions were not extracted from this text")
            continue
        caps = [p for p in provisions if p.kind == "withholding_cap" and p.status == "determined"]
        unknown = [p for p in provisions if p.status == "unknown"]
        allocations = [p for p in provisions if p.kind == "allocation" and p.status == "determined"]
        cells[column] = _cell(column, caps, unknown, allocations, article_ref, art.complete)
    return RateRow(treaty=t.id, title=t.title, parties=t.parties.split(",") if t.parties else [], cells=cells)


def rates(connection: Session, country: str | None = None) -> list[RateRow]:
    if country is not None and not re.fullmatch(r"[A-Za-z]{2}", country):
        raise InputError(f"--country takes an ISO 3166 code such as PT (got {country!r})")
    from sqlalchemy import select

    rows = []
    for summary in list_treaties(connection, country):
        t = connection.execute(select(Treaty).where(Treaty.id == summary.id)).scalars().one()
        rows.append(treaty_rates(connection, t))
    return rows


def to_csv(rows: list[RateRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    header = ["treaty", "parties"]
    for column in COLUMNS:
        header += [column, f"{column}_cite", f"{column}_note"]
    header.insert(header.index("dividends_qualifying_cite"), "dividends_qualifying_threshold_pct")
    writer.writerow(header)
    for row in rows:
        line = [row.treaty, "-".join(row.parties)]
        for column in COLUMNS:
            cell = row.cells[column]
            cite = "; ".join(f"{c.ref} [{c.language}] {c.eid}" for c in cell.cites)
            line += [cell.value]
            if column == "dividends_qualifying":
                line.append(cell.threshold_pct or "")
            line += [cite, cell.reason or cell.conditions or ""]
        writer.writerow(line)
    return out.getvalue()
