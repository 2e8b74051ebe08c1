"""Request-size and time limits.

`BodyLimit` refuses a body larger than the limit for its path with 413, both when the client
announces it (Content-Length) and when it streams it (chunked): the app never sees more than
the limit, and nothing it half-did is answered. `run_limited` runs blocking work (parsing,
deciding) in a thread and answers 504 when it takes longer than the request time limit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
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

    def body_limit_for(self, path: str) -> int:
        return self.body_bytes_by_path.get(path, self.body_bytes)


class _TooLarge(Exception):
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
        response_started = False

        async def counting_receive() -> Message:
            nonlocal received, exceeded
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal response_started
            if exceeded:
                return  # the 413 below replaces whatever the app tried to say
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except (_TooLarge, ClientDisconnect):
            if not exceeded:
                raise
        except Exception:
            if not exceeded:
                raise
        if exceeded and not response_started:
            await self._refuse(scope, receive, send, limit)

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
