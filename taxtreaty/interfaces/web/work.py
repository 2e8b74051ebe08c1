"""The workbench as a place to work: upload a treaty text or a ledger, download results.

- `/web/upload`: a treaty text (with the API token) goes into the corpus through the backend's
  own ingest; a payments ledger goes to `POST /ledger`, the API's one ledger, and comes back
  as a file to save.
- `/web/rates/download?format=csv|xlsx|md`: the rates table, the same cells the page shows
  (`GET /rates`), one line per cell; spreadsheet formulas neutralised.
Messages are written for the person at the page, not in the API's terms.
"""

from __future__ import annotations

import csv
import hmac
import io
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from taxtreaty.csvsafe import csv_cell
from taxtreaty.interfaces.http.backend import Unavailable
from taxtreaty.interfaces.http.limits import run_limited
from taxtreaty.text import InputError

router = APIRouter(include_in_schema=False)

#: one line per cell, in this order (the columns of `rates --format csv`)
RATE_FIELDS = ("treaty", "source", "residence", "income", "variant", "shown", "status", "max_rate_pct",
               "source_taxation", "eid", "article", "missing_facts", "applies_from")
FORMATS = {"csv": ("text/csv; charset=utf-8", "csv"),
           "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
           "md": ("text/markdown; charset=utf-8", "md")}
#: how a file holding several conventions is told to choose one here (the form's field)
WEB_CHOICE = "the field “Convention in the file”"
#: the largest treaty text the upload form takes (the API's own body limit applies too)
MAX_UPLOAD = 16 * 1024 * 1024


def _render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    from taxtreaty.interfaces.web.pages import _render as render

    return render(request, name, status, **context)


def _cells(rows: list[dict[str, Any]]) -> list[list[str]]:
    lines = []
    for row in rows:
        for cell in [*row["cells"].values(), *row["notes"]]:
            values = {**cell, "missing_facts": " ".join(cell.get("missing_facts") or [])}
            lines.append(["" if values.get(f) is None else str(values.get(f)) for f in RATE_FIELDS])
    return lines


def rates_file(rows: list[dict[str, Any]], fmt: str) -> bytes:
    """The rates table as a CSV, XLSX or Markdown file."""
    lines = _cells(rows)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(RATE_FIELDS)
        writer.writerows([[csv_cell(v) for v in line] for line in lines])
        return out.getvalue().encode("utf-8")
    if fmt == "md":
        def md(value: str) -> str:
            return value.replace("|", "\\|").replace("\n", " ")

        text = "| " + " | ".join(RATE_FIELDS) + " |\n|" + "---|" * len(RATE_FIELDS) + "\n"
        text += "".join("| " + " | ".join(md(v) for v in line) + " |\n" for line in lines)
        return text.encode("utf-8")
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("rates")
    sheet.append(list(RATE_FIELDS))
    for line in lines:
        # every cell is written as text: a cell can never become a formula
        sheet.append([value for value in line])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@router.get("/web/rates/download")
async def rates_download(request: Request, format: Annotated[str, Query(max_length=4)] = "csv",
                         country: Annotated[str, Query(max_length=2)] = "") -> Response:
    if format not in FORMATS:
        return _render(request, "error.html", 422, title="Cannot read that",
                       message=f"The rates table can be downloaded as CSV, XLSX or Markdown, not {format!r}.")
    if country and not (len(country) == 2 and country.isalpha()):
        return _render(request, "error.html", 422, title="Cannot read that",
                       message=f"Give the country as a two-letter ISO code such as PT (not {country!r}).")
    backend = request.app.state.backend
    try:
        rows = await run_limited(request.app.state.limits.seconds, backend.rates, country.upper() or None)
    except Unavailable:
        return _render(request, "error.html", 503, title="Not available",
                       message="The rates table is being brought up to date after a change to the corpus. "
                               "Try again in a few seconds.")
    media, suffix = FORMATS[format]
    name = f"rates{'-' + country.upper() if country else ''}.{suffix}"
    return Response(rates_file(rows, format), media_type=media,
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "X-Content-Type-Options": "nosniff"})


@router.get("/web/upload", response_class=HTMLResponse)
async def upload_form(request: Request) -> HTMLResponse:
    return _render(request, "upload.html", title="Upload", ingest_enabled=bool(request.app.state.token))


@router.post("/web/upload/treaty", response_class=HTMLResponse)
async def upload_treaty(request: Request) -> HTMLResponse:
    form = await request.form()
    token = str(form.get("token") or "")
    upload = form.get("file")
    enabled = bool(request.app.state.token)

    def page(status: int, **extra: Any) -> HTMLResponse:
        return _render(request, "upload.html", status, title="Upload", ingest_enabled=enabled, **extra)

    if not enabled:
        return page(403, treaty_error="This server does not take new treaties: it was started without an API token.")
    if not hmac.compare_digest(token.encode(), str(request.app.state.token).encode()):
        return page(403, treaty_error="That token is not the one this server was started with.")
    if upload is None or isinstance(upload, str) or not upload.filename:
        return page(422, treaty_error="Choose the file holding the treaty's text.")
    data = await upload.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        return page(413, treaty_error=f"The file is larger than {MAX_UPLOAD // (1024 * 1024)} MB; no treaty is that long.")
    treaty_id = str(form.get("treaty") or "").strip() or None
    chosen = str(form.get("convention") or "").strip()
    if chosen and not (chosen.isdigit() and int(chosen) >= 1):
        return page(422, treaty_error=f"The convention to read is its number in the file (1, 2, ...), not {chosen!r}.")
    convention = int(chosen) if chosen else None
    backend = request.app.state.backend
    try:
        result = await run_limited(request.app.state.limits.seconds, backend.ingest, data, upload.filename, treaty_id,
                                   convention, WEB_CHOICE)
    except InputError as exc:
        return page(422, treaty_error=f"The text could not be read as a treaty: {exc}.")
    return page(200, treaty_result=result)
