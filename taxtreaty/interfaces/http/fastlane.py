"""A fast lane for the one hot endpoint: POST /ask on a treaty already in memory.

FastAPI's per-request machinery (routing through every route, dependency solving, query
parameter validation) cost more than the decision itself: in-process, /ask took about 400 µs
of which the decision was under 100. This ASGI layer, inside the access log, the error guard
and the body limit, answers POST /ask itself when, and only when, everything is plain: a JSON
body that is a valid `Scenario`, valid `treaty`/`parties` query parameters, and a treaty whose
rule sets are compiled (`service.decide_if_ready`). It validates with the same model and
patterns as the route, decides with the same function and encodes with the same encoder.

Anything else (bad input, a cold treaty, an error while deciding) is handed to the FastAPI route
with the body replayed, so errors, the thread path and the time limit stay the route's, and
the OpenAPI description stays the route's too. `tests/test_http_fastlane.py` checks that both
paths answer byte for byte alike.

Decisions take turns with the rest of the loop (`Turns`): they run in passes of at most
`PASS_SECONDS` of work, and the loop looks at its sockets between two passes. Without turns, one
pass of the loop decided every /ask that had arrived (50 clients: some 15 ms of decisions), and a
GET /health or a cached GET /rates arriving meanwhile waited behind all of them (issue 16:
"one slow endpoint cannot starve the others"). The answers are the same; only their order changes.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import deque
from email.message import Message as MimeMessage
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taxtreaty.interfaces.http import service
from taxtreaty.interfaces.http.models import PARTIES_PATTERN, TREATY_ID_MAX, TREATY_ID_PATTERN, Scenario

_TREATY = re.compile(TREATY_ID_PATTERN)
_PARTIES = re.compile(PARTIES_PATTERN)


#: the longest run of decisions between two looks of the event loop at its sockets
PASS_SECONDS = 0.002


class Turns:
    """A queue of decisions run by one task in passes of at most `PASS_SECONDS` (at least one
    decision each), yielding to the event loop between passes, first come first served."""

    def __init__(self, pass_seconds: float = PASS_SECONDS) -> None:
        self.pass_seconds = pass_seconds
        self._queue: deque[tuple[Scope, bytes, asyncio.Future[bytes | None]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def decide(self, scope: Scope, body: bytes) -> bytes | None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._task is None or self._task.done():
            self._start(loop)  # a first request, or a new event loop (a test client's)
        answer: asyncio.Future[bytes | None] = loop.create_future()
        self._queue.append((scope, body, answer))
        assert self._wake is not None
        self._wake.set()
        return await answer

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop, self._wake = loop, asyncio.Event()
        self._queue = deque(item for item in self._queue if item[2].get_loop() is loop)
        self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            if not self._queue:
                self._wake.clear()
                await self._wake.wait()
            end = time.perf_counter() + self.pass_seconds
            while self._queue:
                scope, body, answer = self._queue.popleft()
                if not answer.done():  # a client that went away meanwhile has nothing to wait for
                    try:
                        answer.set_result(_decide(scope, body))
                    except Exception as error:  # _decide answers None for what it knows; anything else is its request's own error
                        answer.set_exception(error)
                if time.perf_counter() >= end:
                    break
            await asyncio.sleep(0)  # the loop reads its sockets: a GET arriving now is answered before the next pass


class AskFastLane:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.turns = Turns()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != "/ask" or scope["method"] != "POST" or not _json_body(scope):
            await self.app(scope, receive, send)
            return
        body, more = b"", True
        while more:  # the body limit (outside this layer) stops an oversized one here
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay(b"", message, receive), send)
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
        answer = await self.turns.decide(scope, body)
        if answer is None:
            await self.app(scope, _replay(body, None, receive), send)
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(answer)).encode()), (b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": answer})


def _decide(scope: Scope, body: bytes) -> bytes | None:
    """The route's 200 answer, or None to let the route answer (whatever the reason)."""
    query = _query(scope)
    if query is None:
        return None
    treaty, parties = query
    try:
        scenario = Scenario.model_validate(json.loads(body))
    except Exception:  # bad JSON (or nested past the recursion limit), invalid scenario: the route says why
        return None
    backend = scope["app"].state.backend
    try:
        decision = service.decide_if_ready(backend, treaty, scenario, parties)
    except Exception:  # the route raises the same and answers it as a problem
        return None
    return None if decision is None else service.encode_json(decision)


def _query(scope: Scope) -> tuple[str | None, list[str] | None] | None:
    """(treaty, parties) when the query string is valid for the route, else None."""
    raw = scope.get("query_string", b"")
    if not raw:
        return None, None
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True)
    names = [name for name, _ in pairs]
    if len(names) != len(set(names)):
        return None
    values = dict(pairs)
    treaty, parties = values.get("treaty"), values.get("parties")
    if treaty is not None and (len(treaty) > TREATY_ID_MAX or not _TREATY.fullmatch(treaty)):
        return None
    if parties is not None and not _PARTIES.fullmatch(parties):
        return None
    return treaty, parties.upper().split(",") if parties else None


def _json_body(scope: Scope) -> bool:
    """Would FastAPI read this body as JSON (no content type, or application/json or +json)?"""
    for name, value in scope.get("headers") or ():
        if name == b"content-type":
            mime = MimeMessage()
            mime["content-type"] = value.decode("latin-1")
            subtype = mime.get_content_subtype()
            return mime.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))
    return True


def _replay(body: bytes, pending: Message | None, receive: Receive) -> Receive:
    """A receive that gives the route the body this layer already read, then the real stream."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return pending or {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
