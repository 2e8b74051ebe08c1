"""Whole-store answers as ready bytes: `GET /health`, `GET /treaties` and `GET /rates` (issue 16).

The treaty list and the rates matrix are views of the whole store. They are encoded once per
change of the store (the list when the server's view of the store changes, the matrix and each
State's rows when `rates.RateTable` builds them off the request path) and kept as bytes with a
strong ETag, a large one also gzip-compressed once (for a client whose Accept-Encoding names gzip:
the matrix of 3,000 treaties is 14 MB of JSON); a request answers those bytes, or 304 to
`If-None-Match` (`Cache-Control: no-cache`: a client revalidates every time, so it is never told
an old table is current).

`ViewLane`, an ASGI layer inside the access log, the error guard and the limits, answers these
three GETs itself, on the event loop, when the answer is already encoded for the view of the
store that `/ask` decides with (fresh: checked against the store within `StoreBackend.FRESHNESS`):
a dictionary look-up and one write, no thread, no lock, no store access. Anything else (a view
due for its check, a matrix being built, any other query) goes to the FastAPI route, which
answers the same bytes and headers (`tests/test_http_views.py` checks both paths alike).
"""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import parse_qsl

from pydantic import TypeAdapter
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from taxtreaty.interfaces.http.models import Health, RateRow, TreatySummary

_JSON = b"application/json"


#: bodies from this size on are also kept gzip-compressed (the rates matrix of 3,000 treaties is 14 MB of JSON)
GZIP_FROM = 1024


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@dataclass(frozen=True)
class Encoded:
    """An answer's body and its strong ETag (a hash of the bytes), and for a large body the same
    compressed once with gzip (sent to a client that accepts it), with its own ETag."""

    body: bytes
    etag: str
    gzip: bytes | None = None
    gzip_etag: str = ""

    @classmethod
    def of(cls, body: bytes) -> Encoded:
        if len(body) < GZIP_FROM:
            return cls(body, _etag(body))
        packed = gzip.compress(body, compresslevel=6, mtime=0)
        return cls(body, _etag(body), packed, _etag(packed))


@cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    return TypeAdapter(model)


def encode(model: Any, data: Any) -> Encoded:
    """`data` as the route with `response_model=model` encodes it (FastAPI validates, then dumps
    JSON with the same type adapter), so both paths answer the same bytes."""
    adapter = _adapter(model)
    return Encoded.of(adapter.dump_json(adapter.validate_python(data), by_alias=True))


HEALTH = encode(Health, {"status": "ok"})
TREATIES_MODEL = list[TreatySummary]
RATES_MODEL = list[RateRow]


def _if_none_match(headers: Any) -> bytes | None:
    for name, value in headers or ():
        if name == b"if-none-match":
            return bytes(value)
    return None


def _accepts_gzip(headers: Any) -> bool:
    """Whether Accept-Encoding names gzip (or *) with a weight above zero."""
    for name, value in headers or ():
        if name == b"accept-encoding":
            for item in bytes(value).lower().split(b","):
                coding, _, params = item.strip().partition(b";")
                if coding.strip() in (b"gzip", b"*"):
                    weight = params.strip().removeprefix(b"q=")
                    try:
                        return not params.strip() or float(weight) > 0
                    except ValueError:
                        return False
    return False


def _matches(given: bytes | None, etag: str) -> bool:
    if given is None:
        return False
    tags = {t.strip().removeprefix(b"W/") for t in given.split(b",")}
    return b"*" in tags or etag.encode() in tags


def parts(encoded: Encoded, request_headers: Any, cached: bool = True) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """(status, headers, body): 200 with the bytes, or 304 when the client holds them already."""
    if not cached:
        return 200, [(b"content-length", str(len(encoded.body)).encode()), (b"content-type", _JSON)], encoded.body
    packed = encoded.gzip if encoded.gzip is not None and _accepts_gzip(request_headers) else None
    body, etag = (packed, encoded.gzip_etag) if packed is not None else (encoded.body, encoded.etag)
    validators = [(b"etag", etag.encode()), (b"cache-control", b"no-cache")]
    if encoded.gzip is not None:
        validators.append((b"vary", b"accept-encoding"))
    if _matches(_if_none_match(request_headers), etag):
        return 304, validators, b""
    coding = [(b"content-encoding", b"gzip")] if packed is not None else []
    return 200, [(b"content-length", str(len(body)).encode()), (b"content-type", _JSON), *coding, *validators], body


def response(encoded: Encoded, request_headers: Any) -> Response:
    """The route's answer: the same status, headers and bytes as `ViewLane`'s."""
    status, headers, body = parts(encoded, request_headers)
    answer = Response(body, status_code=status)
    answer.raw_headers = headers
    return answer


# -- the encoded views of a backend ------------------------------------------------------------


def treaty_list(backend: Any) -> Encoded:
    """GET /treaties as bytes, encoded once per view of the store (thread path: may read the store)."""
    listing = getattr(backend, "listing", None)
    if listing is None:  # a backend without a view of its own (MemoryBackend): encoded each time
        return encode(TREATIES_MODEL, backend.list_treaties())
    generation, rows = listing()
    cached = getattr(backend, "_treaty_list", None)
    if cached is not None and cached[0] == generation:
        return cached[1]
    encoded = encode(TREATIES_MODEL, rows)
    backend._treaty_list = (generation, encoded)
    return encoded


def fresh_generation(backend: Any) -> Any | None:
    """The generation of the backend's view when it may be used without a store access, else None."""
    probe = getattr(backend, "fresh_generation", None)
    return probe() if probe is not None else None


def ready_treaty_list(backend: Any) -> Encoded | None:
    generation = fresh_generation(backend)
    cached = getattr(backend, "_treaty_list", None)
    if generation is None or cached is None or cached[0] != generation:
        return None
    return cached[1]


def ready_rates(backend: Any, country: str | None) -> Encoded | None:
    from taxtreaty.interfaces.http.rates import table_of

    generation = fresh_generation(backend)
    return None if generation is None else table_of(backend).ready(generation, country)


class ViewLane:
    """Answers GET /health, and GET /treaties and /rates when their bytes are ready (see above)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            encoded, cached = self._ready(scope)
            if encoded is not None:
                status, headers, body = parts(encoded, scope.get("headers"), cached)
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    @staticmethod
    def _ready(scope: Scope) -> tuple[Encoded | None, bool]:
        path = scope["path"]
        if path == "/health":
            return HEALTH, False
        if path not in ("/treaties", "/rates"):
            return None, False
        backend = scope["app"].state.backend
        query = scope.get("query_string", b"")
        if path == "/treaties":
            return (ready_treaty_list(backend) if not query else None), True
        if not query:
            return ready_rates(backend, None), True
        pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
        if len(pairs) != 1 or pairs[0][0] != "country":
            return None, True
        code = pairs[0][1]
        if len(code) != 2 or not code.isascii() or not code.isalpha():
            return None, True  # the route answers the 422
        return ready_rates(backend, code.upper()), True
