"""The JSON API routes. Read endpoints are open; POST /treaties needs the bearer token."""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response, StreamingResponse

from taxtreaty.interfaces.http import service, views
from taxtreaty.interfaces.http.backend import Backend
from taxtreaty.interfaces.http.limits import Limits, run_heavy, run_limited, run_search
from taxtreaty.interfaces.http.models import (
    CONVENTION_CHOICE,
    PARTIES_PATTERN,
    TREATY_ID_MAX,
    TREATY_ID_PATTERN,
    ArticleOut,
    Decision,
    Health,
    IngestRequest,
    IngestResult,
    Problem,
    RateRow,
    Scenario,
    SearchHit,
    TreatyDetail,
    TreatySummary,
)
from taxtreaty.interfaces.http.problems import PROBLEM_JSON, ApiProblem


def _problems(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": Problem, "content": {PROBLEM_JSON: {}}, "description": Problem.__doc__ or ""} for code in codes}


TreatyId = Annotated[str, Path(description="treaty id from GET /treaties", min_length=1, max_length=TREATY_ID_MAX,
                               pattern=TREATY_ID_PATTERN, examples=["pt-tl-2011"])]
Lang = Annotated[str | None, Query(description="language version (pt, en, es, ...)", pattern=r"^[a-z]{2}$")]


# Dependencies are `async def` so FastAPI does not hop to a worker thread to run them.
async def backend_of(request: Request) -> Backend:
    return request.app.state.backend


async def limits_of(request: Request) -> Limits:
    return request.app.state.limits


async def require_token(request: Request) -> None:
    """Bearer token check for writes: none configured -> writes disabled (403)."""
    expected: str | None = request.app.state.token
    if not expected:
        raise ApiProblem(403, "ingest is disabled: the server has no API token; start it with TAXTREATY_API_TOKEN set")
    header = request.headers.get("authorization", "")
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise ApiProblem(401, "send the API token as 'Authorization: Bearer <token>'",
                         headers={"WWW-Authenticate": 'Bearer realm="taxtreaty"'})
    if not hmac.compare_digest(given.strip().encode(), expected.encode()):
        raise ApiProblem(403, "the API token is not valid")


BackendDep = Annotated[Backend, Depends(backend_of)]
LimitsDep = Annotated[Limits, Depends(limits_of)]

router = APIRouter()



@router.get("/health", summary="Liveness check", response_model=Health, tags=["meta"])
async def health() -> dict[str, Any]:
    return {"status": "ok"}


@router.get("/treaties", summary="List the treaties in the corpus", response_model=list[TreatySummary], tags=["treaties"])
async def list_treaties(request: Request, backend: BackendDep, limits: LimitsDep) -> Response:
    # Encoded once per change of the store (views.py); usually answered by views.ViewLane before this route.
    return views.response(await run_limited(limits.seconds, views.treaty_list, backend), request.headers.raw)


@router.get("/treaties/{treaty_id}", summary="One treaty: parties, dates, language versions, articles and damage notes",
            response_model=TreatyDetail, responses=_problems(404, 422), tags=["treaties"])
async def get_treaty(treaty_id: TreatyId, backend: BackendDep, limits: LimitsDep) -> dict[str, Any]:
    return await run_limited(limits.seconds, service.treaty_detail, backend, treaty_id)


@router.get("/treaties/{treaty_id}/articles/{number}", summary="One article's text, paragraph by paragraph, with eIds",
            response_model=ArticleOut, responses=_problems(404, 422), tags=["treaties"])
async def get_article(
    treaty_id: TreatyId, backend: BackendDep, limits: LimitsDep,
    number: Annotated[str, Path(description="article number as printed (10, 8a)", max_length=10,
                                pattern=r"^[0-9]+[a-z]?$", examples=["10"])],
    lang: Lang = None,
) -> dict[str, Any]:
    return await run_limited(limits.seconds, service.article_out, backend, treaty_id, number, lang)


@router.get("/search", summary="Full-text search across treaties and languages, with highlighted snippets",
            response_model=list[SearchHit], responses=_problems(422), tags=["treaties"])
async def search(
    backend: BackendDep, limits: LimitsDep,
    q: Annotated[str, Query(min_length=1, max_length=200, description="words to find", examples=["beneficial owner"])],
    lang: Lang = None,
    topic: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z_]+$", examples=["dividends"])] = None,
    treaty: Annotated[str | None, Query(max_length=TREATY_ID_MAX, pattern=TREATY_ID_PATTERN)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> list[dict[str, Any]]:
    if not q.strip():
        raise ApiProblem(422, "q: give at least one word to search for")
    return await run_search(limits, backend.search, q, lang, topic, treaty, min(limit, limits.search_results))


@router.get("/rates", summary="The rates matrix: treaty x dividends / interest / royalties caps, each cell cited",
            response_model=list[RateRow], responses=_problems(422), tags=["treaties"])
async def rates(
    request: Request, backend: BackendDep, limits: LimitsDep,
    country: Annotated[str | None, Query(pattern=r"^[A-Za-z]{2}$", description="only treaties of this State")] = None,
) -> Response:
    from taxtreaty.interfaces.http.rates import table_of

    # Built and encoded once per change of the store (rates.py); usually answered by views.ViewLane.
    encoded = await run_limited(limits.seconds, table_of(backend).encoded, backend, country.upper() if country else None)
    return views.response(encoded, request.headers.raw)


@router.post("/ask", summary="Decide a scenario: who may tax, at what rate, with the trace of paragraphs applied",
             response_model=Decision, responses=_problems(404, 422, 503, 504), tags=["rules"])
async def ask(
    scenario: Scenario, request: Request,
    treaty: Annotated[str | None, Query(max_length=TREATY_ID_MAX, pattern=TREATY_ID_PATTERN,
                                        description="treaty id; by default the treaty between source and residence")] = None,
    parties: Annotated[str | None, Query(pattern=PARTIES_PATTERN,
                                         description="the Contracting States when the stored text does not name them, e.g. PT,CZ")] = None,
) -> Response:
    # The app's state read directly rather than through the `backend_of`/`limits_of`
    # dependencies: on this hot path FastAPI's dependency solving cost more than the decision.
    backend: Backend = request.app.state.backend
    limits: Limits = request.app.state.limits

    states = parties.upper().split(",") if parties else None

    def run() -> dict[str, Any]:
        treaty_id = service.resolve_treaty(backend, treaty, scenario)
        return service.decide(backend, treaty_id, scenario, states)

    # A treaty already parsed and compiled is decided here, on the loop: handing ~50 µs of work
    # to a thread cost far more (queue, wake-up, GIL hand-over) and showed in the latency tail.
    # Anything that may read the store or compile goes to a thread under the time limit.
    decision = service.decide_if_ready(backend, treaty, scenario, states)
    if decision is None:
        decision = await run_limited(limits.seconds, run)
    # Already plain JSON data: answered as is (the response model documents it; re-validating
    # every decision through it would only cost time on the hot path).
    body = service.encode_json(decision)
    return Response(body, media_type="application/json")


_LEDGER_BODY = {
    "requestBody": {
        "required": True,
        "description": "A CSV file with a header line (or a Parquet file); columns income, source, residence and any "
                       "other scenario key (date, amount, beneficial_owner, recipient, capital_pct, held_months, ...); "
                       "optional treaty.",
        "content": {
            "text/csv": {"schema": {"type": "string"},
                         "example": "income,source,residence,amount,beneficial_owner,recipient,capital_pct,held_months,date\n"
                                    "dividends,TL,PT,1000,yes,company,30,26,2024-05-01\n"},
            "application/vnd.apache.parquet": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {"schema": {"type": "object", "required": ["file"],
                                               "properties": {"file": {"type": "string", "format": "binary"}}}},
        },
    },
}
_UPLOAD_TYPES = ("text/csv", "text/plain", "application/csv", "application/octet-stream", "application/vnd.apache.parquet",
                 "application/x-parquet", "application/parquet", "")


async def read_csv_upload(request: Request) -> bytes:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "multipart/form-data":
        form = await request.form()
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise ApiProblem(422, "the multipart form has no 'file' part")
        return await upload.read()
    if content_type in _UPLOAD_TYPES:
        chunks = [chunk async for chunk in request.stream()]
        return b"".join(chunks)
    raise ApiProblem(415, f"send the ledger as text/csv, Parquet or multipart/form-data, not {content_type}")


@router.post("/ledger", summary="Decide every row of a payments CSV or Parquet file; answers it with rate, withholding "
                                "and citation columns, as CSV or Parquet",
             response_class=StreamingResponse, openapi_extra=_LEDGER_BODY, tags=["rules"],
             responses={200: {"content": {"text/csv": {}, "application/vnd.apache.parquet": {}},
                              "description": "the input rows with treaty, status, source_taxation, max_rate_pct, "
                                             "withholding, withholding_minor, article, eid, missing_facts, reason added "
                                             "(as `taxtreaty ledger` writes them): CSV, or Parquet with ?format=parquet "
                                             "or Accept: application/vnd.apache.parquet"},
                        **_problems(413, 415, 422, 504)})
async def ledger(
    request: Request, backend: BackendDep, limits: LimitsDep,
    sep: Annotated[str | None, Query(pattern=r"^(,|;|tab|\t)$", description="separator (default: detected)")] = None,
    decimal: Annotated[str | None, Query(pattern=r"^[.,]$", description="decimal mark (default: detected)")] = None,
    format: Annotated[str | None, Query(pattern=r"^(csv|parquet)$",
                                        description="the answer's format (default: from Accept, else csv)")] = None,
) -> StreamingResponse:
    from taxtreaty.interfaces.http import ledger as http_ledger

    fmt = http_ledger.output_format(format, request.headers.get("accept", ""))
    data = await read_csv_upload(request)
    out, report = await run_heavy(limits, http_ledger.decide_upload, backend, data, limits.ledger_rows, sep, decimal, fmt)
    media, suffix = http_ledger.OUTPUT_FORMATS[fmt]
    headers = {"Content-Disposition": f'attachment; filename="ledger-decided.{suffix}"',
               "X-Ledger-Rows": str(report.rows), "X-Ledger-Rejected": str(report.malformed_count),
               # the facts the open rows turn on, with the rows each leaves open: the columns to add
               "X-Ledger-Missing-Facts": ",".join(f"{fact}={n}" for fact, n in report.missing.most_common())}
    return StreamingResponse(http_ledger.stream(out), media_type=media, headers=headers)


@router.post("/treaties", summary="Ingest a convention's text (needs the API token)", status_code=201,
             response_model=IngestResult, responses=_problems(401, 403, 413, 422, 504), tags=["treaties"],
             dependencies=[Depends(require_token)])
async def ingest(body: IngestRequest, backend: BackendDep, limits: LimitsDep) -> dict[str, Any]:
    return await run_heavy(limits, backend.ingest, body.text.encode("utf-8"), body.name, body.treaty, body.convention,
                           CONVENTION_CHOICE)
