"""Request-size, time and rate limits.

`BodyLimit` refuses a body larger than the limit for its path with 413, both when the client
announces it (Content-Length) and when it streams it (chunked): the app never sees more than
the limit, and nothing it half-did is answered. `run_limited` runs blocking work (parsing,
deciding) in a thread and answers 504 when it takes longer than the request time limit.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taxtreaty.interfaces.http.problems import ApiProblem, problem_response

T = TypeVar("T")

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    #: default body limit (JSON requests)
    body_bytes: int = 1 * MB
    #: per-path-prefix overrides: ingest takes a whole convention, the ledger a CSV file
    body_bytes_by_path: dict[str, int] = field(default_factory=lambda: {"/treaties": 8 * MB, "/ledger": 32 * MB,
                                                                       "/web/ledger": 32 * MB})
    #: wall-clock seconds a request may spend in blocking work
    seconds: float = 20.0
    #: rows a ledger upload may have
    ledger_rows: int = 200_000
    #: search results per request
    search_results: int = 100
    #: seconds a client may take between two parts of a request body (408 after)
    body_seconds: float = 10.0
    #: threads for the expensive work (ledger uploads, ingest), apart from every other request's
    heavy_threads: int = 2
    #: threads for searches, apart from every other request's (queue of 4 per thread, then 503)
    search_threads: int = 2
    #: requests per client per minute on the expensive endpoints ("METHOD path"; 429 beyond): uploads,
    #: and the web pages that render the whole rates matrix (HTML, CSV, XLSX) on every request
    rate_per_minute: dict[str, int] = field(default_factory=lambda: {"POST /ledger": 60, "POST /treaties": 60,
                                                                     "POST /web/ledger": 60, "GET /web/rates": 60,
                                                                     "GET /web/rates/download": 30})

    def body_limit_for(self, path: str) -> int:
        return self.body_bytes_by_path.get(path, self.body_bytes)


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class BodyLimit:
    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.body_limit_for(scope["path"])
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                await problem_response(400, "Content-Length is not a number", scope["path"])(scope, receive, send)
                return
            if too_big:
                await self._refuse(scope, receive, send, limit)
                return

        received = 0
        exceeded = False
        too_slow = False
        body_done = False
        response_started = False

        async def counting_receive() -> Message:
            nonlocal received, exceeded, too_slow, body_done
            if body_done:  # after the body only the disconnect is awaited, however long it takes
                return await receive()
            try:
                async with asyncio.timeout(self.limits.body_seconds):  # no task made: cheap on every request
                    message = await receive()
            except TimeoutError:
                too_slow = True
                raise _TooSlow from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if received > limit:
                    exceeded = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal response_started
            if exceeded or too_slow:
                return  # the 413 / 408 below replaces whatever the app tried to say
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except (_TooLarge, _TooSlow, ClientDisconnect):
            if not (exceeded or too_slow):
                raise
        except Exception:
            if not (exceeded or too_slow):
                raise
        if response_started:
            return
        if exceeded:
            await self._refuse(scope, receive, send, limit)
        elif too_slow:
            detail = f"the request body stopped arriving for more than {self.limits.body_seconds:g} s"
            await problem_response(408, detail, scope["path"], headers={"connection": "close"})(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        detail = f"the request body is larger than the limit of {limit} bytes for {scope['path']}"
        await problem_response(413, detail, scope["path"], limit_bytes=limit)(scope, receive, send)


async def run_limited(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` in a worker thread; 504 problem when it exceeds `seconds`."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(fn, *args), timeout=seconds)
    except TimeoutError:
        raise ApiProblem(504, f"the request took longer than the time limit of {seconds:g} s") from None


class _Heavy:
    """The threads of the expensive work (a ledger, an ingest): their own few, so however many
    such requests come, the threads every other request uses stay free; past a short queue
    the request is refused at once (503 with Retry-After) rather than left to time out."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._size = 0
        self._waiting: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def pool(self, threads: int) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None or self._size != threads:
                self._pool, self._size = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="taxtreaty-heavy"), threads
            return self._pool

    def admit(self, threads: int) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._waiting is None or self._loop is not loop:
            self._waiting, self._loop = asyncio.Semaphore(threads * 4), loop
        return self._waiting


_HEAVY = _Heavy()
#: searches have threads of their own too: the costliest of the open endpoints (about 5 ms of CPU
#: each over 3,000 treaties, 50 times a GET /health), they cannot fill the pool the others use
_SEARCH = _Heavy()


async def _run_on(threads: _Heavy, size: int, seconds: float, busy: str, fn: Callable[..., T], *args: Any) -> T:
    admitted = threads.admit(size)
    if admitted.locked():
        raise ApiProblem(503, f"the server is busy with other {busy}; retry in a few seconds", headers={"Retry-After": "5"})
    async with admitted:
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(threads.pool(size), lambda: fn(*args)), timeout=seconds)
        except TimeoutError:
            raise ApiProblem(504, f"the request took longer than the time limit of {seconds:g} s") from None


async def run_heavy(limits: Limits, fn: Callable[..., T], *args: Any) -> T:
    """`run_limited` for expensive work, on the heavy threads (see `_Heavy`)."""
    return await _run_on(_HEAVY, limits.heavy_threads, limits.seconds, "large requests", fn, *args)


async def run_search(limits: Limits, fn: Callable[..., T], *args: Any) -> T:
    """`run_limited` for a search, on the search threads (`Limits.search_threads`, a queue of 4 each, then 503)."""
    return await _run_on(_SEARCH, limits.search_threads, limits.seconds, "searches", fn, *args)


class RateLimit:
    """Requests per client (its address) per minute on the expensive endpoints (`Limits.rate_per_minute`,
    by method and path): a token bucket each; beyond it 429 with Retry-After."""

    MAX_CLIENTS = 10_000

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        key = f"{scope.get('method', 'GET')} {scope['path']}"
        rate = self.limits.rate_per_minute.get(key)
        if rate is None:
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        now = time.monotonic()
        tokens, at = self._buckets.get((client, key), (float(rate), now))
        tokens = min(float(rate), tokens + (now - at) * rate / 60.0)
        if tokens < 1.0:
            wait = max(1, int((1.0 - tokens) * 60.0 / rate) + 1)
            detail = f"more than {rate} requests a minute to {key} from this client; retry in {wait} s"
            await problem_response(429, detail, scope["path"], headers={"Retry-After": str(wait)})(scope, receive, send)
            return
        if len(self._buckets) >= self.MAX_CLIENTS:
            self._buckets.clear()  # bounded memory: forgetting every client only ever lets more through
        self._buckets[(client, key)] = (tokens - 1.0, now)
        await self.app(scope, receive, send)
