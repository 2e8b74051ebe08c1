"""What the routes do, apart from HTTP: shared by the JSON API and the web pages."""

from __future__ import annotations

import dataclasses
import gc
import threading
from collections import OrderedDict
from typing import Any

import orjson

from taxtreaty.interfaces.http.backend import Backend, NotFound, Unavailable, provisions_of
from taxtreaty.interfaces.http.models import Scenario
from taxtreaty.interfaces.http.problems import ApiProblem
from taxtreaty.structure import Document
from taxtreaty.structure.eids import within
from taxtreaty.structure.model import Article, Paragraph, Point
from taxtreaty.text import InputError


def reader_href(treaty: str, language: str | None, eid: str | None, span: Any = None) -> str:
    """Link into the web reader at a node, `/web/treaties/{id}#{lang}-{eid}`; with the quote's span
    in the source, the reader highlights those words (`?hl=lang:eid:start-end`)."""
    anchor = f"#{language}-{eid}" if language and eid else (f"#{eid}" if eid else "")
    query = ""
    if language and eid and isinstance(span, list | tuple) and len(span) == 2 and all(isinstance(x, int) for x in span):
        query = f"?hl={language}:{eid}:{span[0]}-{span[1]}"
    return f"/web/treaties/{treaty}{query}{anchor}"


def _warning(w: Any) -> dict[str, Any]:
    return {"code": w.code, "eid": w.eid, "language": w.language, "message": w.message}


def treaty_detail(backend: Backend, treaty_id: str) -> dict[str, Any]:
    docs = backend.documents(treaty_id)
    detail = backend.summary(treaty_id)
    versions: dict[str, dict[str, Any]] = {}
    for doc in docs:
        for v in doc.versions:
            out = versions.setdefault(v.language, {"language": v.language, "title": v.title, "chapters": [], "articles": [],
                                                   "protocols": []})
            out["protocols"] += [{"eid": p.eid, "heading": p.heading, "paragraphs": len(p.paragraphs)} for p in v.protocols]
            out["title"] = out["title"] or v.title
            out["chapters"] += [{"eid": c.eid, "number": c.number, "heading": c.heading} for c in v.chapters]
            out["articles"] += [{"eid": a.eid, "number": a.number, "heading": a.heading, "topic": a.topic,
                                 "complete": a.complete, "chapter": a.chapter} for a in v.articles]
    detail["versions"] = list(versions.values())
    detail["notes"] = [_warning(w) for doc in docs for w in doc.warnings]
    return detail


def _point(p: Point) -> dict[str, Any]:
    return {"eid": p.eid, "label": p.label, "text": p.text, "points": [_point(c) for c in p.points]}


def _paragraph(p: Paragraph) -> dict[str, Any]:
    return {"eid": p.eid, "number": p.number, "complete": p.complete, "text": p.text,
            "points": [_point(c) for c in p.points]}


def find_article(docs: list[Document], number: str, lang: str | None) -> tuple[Document, str, Article, list[str]]:
    found: list[tuple[Document, str, Article]] = []
    for doc in docs:
        for v in doc.versions:
            article = v.article(number)
            if article is not None:
                found.append((doc, v.language, article))
    if not found:
        raise NotFound(f"article {number} is not in this treaty's text")
    languages = list(dict.fromkeys(lang_ for _, lang_, _ in found))
    if lang:
        chosen = [f for f in found if f[1] == lang]
        if not chosen:
            raise NotFound(f"article {number} has no {lang!r} version (available: {', '.join(languages)})")
    else:
        prevailing = next((d.prevailing_language for d in docs if d.prevailing_language), None)
        chosen = [f for f in found if f[1] == prevailing] or found
    doc, language, article = chosen[0]
    return doc, language, article, languages


def article_out(backend: Backend, treaty_id: str, number: str, lang: str | None) -> dict[str, Any]:
    docs = backend.documents(treaty_id)
    doc, language, article, languages = find_article(docs, number, lang)
    eids = {article.eid} | {p.eid for p in article.paragraphs}
    notes = [_warning(w) for w in doc.warnings if w.language == language and (w.eid in eids or within(w.eid or "", article.eid))]
    return {
        "treaty": treaty_id, "language": language, "languages": languages, "eid": article.eid,
        "number": article.number, "heading": article.heading, "topic": article.topic,
        "complete": article.complete, "chapter": article.chapter, "citation": f"Art. {article.number}",
        "paragraphs": [_paragraph(p) for p in article.paragraphs], "notes": notes,
    }


# --------------------------------------------------------------------------------------------
# Decisions


def _rules_decide() -> Any:
    try:
        from taxtreaty.rules import decide  # type: ignore[attr-defined]
    except ImportError:
        raise Unavailable("the rules engine is not installed in this build") from None
    return decide


def resolve_treaty(backend: Backend, treaty: str | None, scenario: Scenario) -> str:
    if treaty:
        backend.summary(treaty)  # NotFound when unknown
        return treaty
    found = backend.treaty_for_parties(scenario.source, scenario.residence)
    if found is None:
        raise NotFound(f"no treaty between {scenario.source.upper()} and {scenario.residence.upper()} in the corpus; "
                       "name one with ?treaty=ID")
    return found


def encode_json(data: Any) -> bytes:
    """The /ask answer as UTF-8 JSON (orjson: the standard encoder was a fifth of the request);
    the route and the fast lane share it, so both answer the same bytes."""
    return orjson.dumps(data, default=str)


#: `StoredTreaty.key` -> the treaty as the rules engine takes it, compiled once
_COMPILED: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_COMPILED_MAX = 512
_COMPILED_LOCK = threading.Lock()


def _stored(backend: Backend, treaty_id: str) -> Any:
    getter = getattr(backend, "stored_treaty", None)
    if getter is None:  # a backend of another kind: its documents as they are
        from taxtreaty.interfaces.http.backend import MemoryBackend

        return MemoryBackend.stored_treaty(backend, treaty_id)  # type: ignore[arg-type]
    return getter(treaty_id)


def treaty_rules(backend: Backend, treaty_id: str, parties: list[str] | None = None) -> Any:
    """The stored treaty compiled into the engine's rule set, once per content: the pipeline's
    `compile_stored`, which `taxtreaty ask --treaty ID` uses too (files merged, stored amendments
    and dates of effect applied), so HTTP and the CLI decide alike."""
    stored = _stored(backend, treaty_id)
    key = stored.key(parties)
    with _COMPILED_LOCK:
        if key in _COMPILED:
            _COMPILED.move_to_end(key)
            return _COMPILED[key]
    try:
        from taxtreaty.pipeline import StoredText, compile_stored
    except ImportError:
        raise Unavailable("the rules engine is not installed in this build") from None
    texts = []
    for text in stored.texts:
        provisions = text.provisions if text.provisions is not None else provisions_of(text.document)
        if provisions is None:
            raise Unavailable("the provisions extractor is not installed in this build; decisions need it")
        texts.append(StoredText(text.document, provisions, text.kind, text.status, text.entry_into_force, text.name))
    compiled = compile_stored(dataclasses.replace(stored, texts=tuple(texts)), parties)
    if compiled is None:
        raise NotFound(f"treaty {treaty_id!r} has no convention to decide on (an amending instrument waiting for its base)")
    with _COMPILED_LOCK:
        while len(_COMPILED) >= _COMPILED_MAX:  # least recently used first: a rates build never empties it
            _COMPILED.popitem(last=False)
        _COMPILED[key] = compiled
    gc.collect()  # compiled rule sets are long-lived too (see store_backend): freeze only live objects
    gc.freeze()
    return compiled


def _compiled_if_ready(backend: Backend, treaty_id: str, parties: list[str] | None) -> Any | None:
    key = _stored(backend, treaty_id).key(parties)
    with _COMPILED_LOCK:
        return _COMPILED.get(key)


def decide_if_ready(backend: Backend, treaty: str | None, scenario: Scenario,
                    parties: list[str] | None = None) -> dict[str, Any] | None:
    """`decide` when everything it needs is already in memory (documents parsed, rule sets
    compiled: tens of microseconds of work), else None and the caller decides in a thread.

    Only a backend that can tell (`ready`) qualifies; nothing here reads the store or compiles.
    """
    ready = getattr(backend, "ready", None)
    if ready is None or not ready(treaty):
        return None
    treaty_id = treaty if treaty else backend.treaty_for_parties(scenario.source, scenario.residence)
    if treaty_id is None or not ready(treaty_id):
        return None  # unknown treaty: the thread path answers the 404 as before
    if _compiled_if_ready(backend, treaty_id, parties) is None:
        return None
    if treaty:
        resolve_treaty(backend, treaty, scenario)
    return decide(backend, treaty_id, scenario, parties)


def decide(backend: Backend, treaty_id: str, scenario: Scenario, parties: list[str] | None = None) -> dict[str, Any]:
    """The decision for `scenario` under the stored treaty, with web links on every trace step:
    the one decision of `taxtreaty ask --treaty ID` (see `treaty_rules`)."""
    decide_fn = _rules_decide()
    compiled = treaty_rules(backend, treaty_id, parties)
    try:
        result = decide_fn(compiled, scenario.facts())
    except InputError as exc:  # the engine refuses facts it cannot use: the user's to fix
        raise ApiProblem(422, f"cannot decide: {exc}") from None
    data = _as_dict(result)
    data["treaty"] = treaty_id
    for step in data.get("trace") or []:
        step["href"] = reader_href(treaty_id, step.get("language"), step.get("eid"), step.get("span"))
    return data


def _as_dict(result: Any) -> dict[str, Any]:
    if isinstance(result, dict):
        return dict(result)
    if hasattr(result, "to_dict"):
        return dict(result.to_dict())
    if hasattr(result, "model_dump"):
        return result.model_dump(mode="json")
    raise Unavailable(f"the rules engine returned an unexpected {type(result).__name__}")
