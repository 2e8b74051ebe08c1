"""The workbench pages. Every value reaches HTML through Jinja2 autoescaping, never `|safe`."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import ValidationError

from taxtreaty import vocab
from taxtreaty.interfaces.http import service
from taxtreaty.interfaces.http.backend import NotFound, Unavailable, provisions_of
from taxtreaty.interfaces.http.limits import run_limited
from taxtreaty.interfaces.http.models import Scenario
from taxtreaty.interfaces.http.problems import ApiProblem
from taxtreaty.interfaces.web import HERE, reader
from taxtreaty.rules import labels
from taxtreaty.rules.conditions import condition_words
from taxtreaty.rules.facts import fact_schema
from taxtreaty.rules.matrix import COLUMNS as MATRIX_COLUMNS
from taxtreaty.rules.memo import answer_words, memo_sections
from taxtreaty.text import InputError

_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True, default_for_string=True))
_env.globals.update(segments=reader.segments, point_body=reader.point_body, words=labels.label, has_words=labels.has,
                    answer_words=answer_words, condition_words=condition_words,
                    topic_words=labels.topic)
templates = Jinja2Templates(env=_env)

router = APIRouter(include_in_schema=False)

#: each language's name in itself, from its data file (`name:` of data/languages/*.yaml)
LANGUAGE_NAMES = {code: language.name for code, language in vocab.languages().items()}
COLUMN_NAMES = {column: column[0].upper() + column[1:] for column in MATRIX_COLUMNS}


#: defence in depth behind autoescaping: the pages load only their own script and style, so
#: markup that ever slipped through could not run or phone home
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("language_names", LANGUAGE_NAMES)
    return templates.TemplateResponse(request, name, context, status_code=status, headers=SECURITY_HEADERS)


_ERROR_TITLES = {404: "Not found", 413: "Too large", 422: "Cannot read that", 503: "Not available", 504: "Took too long"}


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return _render(request, "error.html", status, title=_ERROR_TITLES.get(status, "Error"), message=message)


@router.get("/")
def root() -> RedirectResponse:
    return RedirectResponse("/web/", status_code=307)


@router.get("/web/", response_class=HTMLResponse)
async def treaty_list(request: Request) -> HTMLResponse:
    backend = request.app.state.backend
    treaties = await run_limited(request.app.state.limits.seconds, backend.list_treaties)
    return _render(request, "list.html", treaties=treaties, title="Treaties")


def _treaty_dates(backend: Any, treaty_id: str) -> dict[str, str | None]:
    """Entry into force and the first and last dates of effect, as the rules engine reads them
    (the treaty as every decision compiles it: dates given at ingest and amendments applied)."""
    out: dict[str, str | None] = {"in_force": None, "effect_from": None, "effect_until": None}
    try:
        window = service.treaty_rules(backend, treaty_id).in_force
    except Exception:  # no engine, no provisions: the page still shows the text
        return out
    out["effect_from"] = window.effect_from.isoformat() if window.effect_from else None
    out["effect_until"] = window.effect_until.isoformat() if window.effect_until else None
    entered = getattr(window, "entered_into_force", None)
    out["in_force"] = entered.isoformat() if entered else None
    return out


def _version(backend: Any, treaty_id: str, day: dt.date | None) -> Any:
    """The version in effect on `day` (versions.as_of) of the treaty as decisions compile it, or
    None when no amending instrument is known; with no day, today's, for the version selector
    only (`day` None: the page shows the stored texts)."""
    from taxtreaty.versions.as_of import version_on

    try:
        compiled = service.treaty_rules(backend, treaty_id)
    except Exception:  # no engine, no provisions: the page still shows the text
        return None
    found = version_on(compiled, day or dt.date.today())
    if found is not None and day is None:
        return dataclasses.replace(found, day=None)
    return found


@router.get("/web/treaties/{treaty_id}", response_class=HTMLResponse)
async def treaty_reader(
    request: Request, treaty_id: str,
    lang: Annotated[str | None, Query(max_length=5)] = None,
    hl: Annotated[str | None, Query(max_length=200)] = None,
    as_of: Annotated[str | None, Query(max_length=10)] = None,
) -> Response:
    backend = request.app.state.backend
    day = None
    if as_of:
        try:
            day = dt.date.fromisoformat(as_of)
        except ValueError:
            return _render(request, "error.html", 422, title="Not a date",
                           message=f"give the day as YYYY-MM-DD, for instance 2024-05-01 (got {as_of!r})")

    def load() -> dict[str, Any]:
        summary = backend.summary(treaty_id)
        docs = backend.documents(treaty_id)
        version = _version(backend, treaty_id, day)
        if version is not None and version.day is not None:
            docs = [version.document]  # the text in effect on that day, as decisions read it
        all_langs = reader.version_language_order(docs)
        shown = [lang] if lang in all_langs else all_langs
        provisions, divergences = [], []
        for doc in docs:
            try:
                pset = provisions_of(doc)
            except Exception:  # the reader still shows the text when extraction fails
                pset = None
            if pset is not None:
                provisions += [p for p in pset.provisions if p.cite.language in shown]
                divergences += list(pset.divergences)
        publication = next((d.publication for d in docs if d.publication), {})
        source = publication.get("source_url", "")
        return {
            "summary": summary, "languages": all_langs, "shown": shown,
            "publication": publication, "dates": _treaty_dates(backend, treaty_id),
            # a link only to a web address: never javascript: or a local path from a text's front matter
            "source_href": source if source.startswith(("http://", "https://")) else None,
            "chapters": reader.build(docs, shown, divergences),
            "protocols": reader.build_protocols(docs, shown),
            "provisions": provisions, "divergences": divergences,
            "highlight": reader.highlight_from(hl, docs),
            "version": version, "as_of": as_of or "",
        }

    try:
        context = await run_limited(request.app.state.limits.seconds, load)
    except NotFound as exc:
        return _render(request, "error.html", 404, title="Not found", message=str(exc))
    return _render(request, "reader.html", treaty_id=treaty_id, lang=lang, title=context["summary"]["title"] or treaty_id,
                   **context)


@router.get("/web/search", response_class=HTMLResponse)
async def search_page(
    request: Request,
    q: Annotated[str, Query(max_length=200)] = "",
    lang: Annotated[str, Query(max_length=5)] = "",
    topic: Annotated[str, Query(max_length=40)] = "",
) -> HTMLResponse:
    hits: list[dict[str, Any]] = []
    if q.strip():
        backend = request.app.state.backend
        try:
            hits = await run_limited(request.app.state.limits.seconds, backend.search, q, lang or None, topic or None,
                                     None, 50)
        except InputError as exc:  # an unknown topic or language: say so on the page
            return _render(request, "search.html", 422, title="Search", q=q, lang=lang, topic=topic, hits=[],
                           error=str(exc))
    return _render(request, "search.html", title="Search", q=q, lang=lang, topic=topic, hits=hits)


def _hit_segments(hit: dict[str, Any]) -> list[tuple[str, bool]]:
    text, pos, out = hit["snippet"], 0, []
    for a, b in hit.get("highlights") or []:
        if a < pos or b > len(text):
            continue
        out += [(text[pos:a], False), (text[a:b], True)]
        pos = b
    out.append((text[pos:], False))
    return out


_env.globals["hit_segments"] = _hit_segments


@router.get("/web/rates", response_class=HTMLResponse)
async def rates_page(request: Request, country: Annotated[str, Query(max_length=2)] = "") -> HTMLResponse:
    backend = request.app.state.backend
    if country and not (len(country) == 2 and country.isalpha()):
        return _render(request, "rates.html", 422, title="Rates", rows=[], columns=COLUMN_NAMES, country=country,
                       error=f"give a country as a two-letter ISO code such as PT (got {country!r})")
    rows = await run_limited(request.app.state.limits.seconds, backend.rates, country.upper() or None)
    return _render(request, "rates.html", title="Rates", rows=rows, columns=COLUMN_NAMES, country=country)


#: the ask form's fieldsets: the fact schema's groups (facts.yaml `group`), in this order
GROUP_LEGENDS = {"payment": "Treaty and payment", "recipient": "Recipient", "holding": "Holding",
                 "loan": "Loan or debt-claim", "royalty": "Royalties", "gains": "Capital gains",
                 "person": "Individuals",
                 "proviso": "Anti-abuse provisos"}


def fact_groups() -> list[tuple[str, list[Any]]]:
    """Every fact of the schema, by its group, in the schema's order: the ask form's fields."""
    from taxtreaty.rules.facts import GROUPS

    facts = fact_schema().facts.values()
    return [(group, found) for group in GROUPS if (found := [f for f in facts if f.group == group])]


def _ask_context(form: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {"title": "Ask", "form": form, "fact_groups": fact_groups(), "group_legends": GROUP_LEGENDS, **extra}


@router.get("/web/ask", response_class=HTMLResponse)
async def ask_form(request: Request, treaty: Annotated[str, Query(max_length=100)] = "") -> HTMLResponse:
    treaties = await run_limited(request.app.state.limits.seconds, request.app.state.backend.list_treaties)
    return _render(request, "ask.html", treaties=treaties, **_ask_context({"treaty": treaty}))


_TRISTATE = {"yes": True, "no": False}


def scenario_from_form(form: dict[str, str]) -> Scenario:
    raw: dict[str, Any] = {k: v.strip() for k, v in form.items() if k in Scenario.model_fields and v.strip()}
    for key in [k for k, f in fact_schema().facts.items() if f.type == "bool"]:
        if key in raw:
            if raw[key] not in _TRISTATE:
                raw.pop(key)
            else:
                raw[key] = _TRISTATE[raw[key]]
    return Scenario.model_validate(raw)


@router.post("/web/ask", response_class=HTMLResponse)
async def ask_submit(request: Request) -> HTMLResponse:
    backend = request.app.state.backend
    form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    treaties = await run_limited(request.app.state.limits.seconds, backend.list_treaties)
    try:
        scenario = scenario_from_form(form)
    except ValidationError as exc:
        errors = [f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return _render(request, "ask.html", 422, treaties=treaties, **_ask_context(form, errors=errors))
    parties = form.get("parties", "").strip().upper()
    party_list = [p.strip() for p in parties.split(",")] if parties else None
    if party_list and (len(party_list) != 2 or not all(len(p) == 2 and p.isalpha() for p in party_list)):
        return _render(request, "ask.html", 422, treaties=treaties,
                       **_ask_context(form, errors=["parties: two ISO codes such as PT,CZ"]))

    def run() -> dict[str, Any]:
        treaty_id = service.resolve_treaty(backend, form.get("treaty") or None, scenario)
        return service.decide(backend, treaty_id, scenario, party_list)

    try:
        decision = await run_limited(request.app.state.limits.seconds, run)
    except (NotFound, Unavailable) as exc:
        message = str(exc)
        if isinstance(exc, NotFound) and not form.get("treaty"):  # in the user's words, not the API's
            message = (f"There is no treaty between {scenario.source.upper()} and {scenario.residence.upper()} in this "
                       "corpus. Choose a treaty in the list above, or upload its text (Upload).")
        return _render(request, "ask.html", 404 if isinstance(exc, NotFound) else 503, treaties=treaties,
                       **_ask_context(form, errors=[message]))
    except ApiProblem as exc:
        return _render(request, "ask.html", exc.status, treaties=treaties, **_ask_context(form, errors=[exc.detail]))
    return _render(request, "ask.html", treaties=treaties, **_ask_context(form, decision=decision))


@router.post("/web/ask/memo", response_class=HTMLResponse)
async def ask_memo(request: Request) -> HTMLResponse:
    """The decision memo of the ask form's scenario, as a printable page (the CLI's --memo)."""
    response = await ask_submit(request)
    decision = getattr(response, "context", {}).get("decision")
    if decision is None:
        return response  # the form's own page, with its errors
    form = response.context["form"]
    scenario = scenario_from_form(form).facts()
    title, sections = memo_sections(decision, scenario, decision.get("treaty") or "")
    return _render(request, "memo.html", title=title, sections=sections)
