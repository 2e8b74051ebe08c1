"""The server process: uvicorn with bounded connections (`taxtreaty serve`).

What a client can hold, and for how long, has a limit (defaults in `ServerLimits`, options of
`taxtreaty serve`, also read from `TAXTREATY_HTTP_*` variables so worker processes see them):

- the request line and headers: at most `header_bytes` (32 KiB) -> 431, connection closed; they
  must arrive within `header_seconds` (10 s) of the connection or of the previous response ->
  408, connection closed (a client that connects and sends nothing is dropped the same way);
- the body: each chunk within `body_seconds` (10 s) of the one before -> 408 (limits.BodyLimit,
  in the app, so it holds whatever the server);
- an idle keep-alive connection: closed after `keep_alive_seconds` (5 s; uvicorn's
  `timeout_keep_alive`);
- connections and requests at once: `max_connections` (1,000; uvicorn's `limit_concurrency`,
  which counts the connection being answered too, hence + 1: the 1,001st gets 503), with a
  listen backlog of 2,048.

The header limits are enforced by `GuardedHttpToolsProtocol`, uvicorn's httptools protocol
with a byte count and a timer while a request's headers are being read (httptools itself has
neither). Without httptools the h11 protocol is used with `h11_max_incomplete_event_size`.
"""

from __future__ import annotations

import asyncio
import os
import socket
from dataclasses import dataclass, fields
from typing import Any

import orjson

from taxtreaty.text import InputError

_ENV = "TAXTREATY_HTTP_"


@dataclass(frozen=True)
class ServerLimits:
    header_bytes: int = 32 * 1024
    header_seconds: float = 10.0
    body_seconds: float = 10.0
    keep_alive_seconds: float = 5.0
    max_connections: int = 1000
    backlog: int = 2048

    @classmethod
    def from_env(cls) -> ServerLimits:
        given: dict[str, Any] = {}
        for f in fields(cls):
            raw = os.environ.get(_ENV + f.name.upper())
            if raw is not None:
                try:
                    given[f.name] = int(raw) if f.type in ("int", int) else float(raw)
                except ValueError:
                    raise InputError(f"{_ENV}{f.name.upper()} must be a number (got {raw!r})") from None
        return cls(**given)

    def to_env(self) -> None:
        for f in fields(self):
            os.environ[_ENV + f.name.upper()] = str(getattr(self, f.name))

    def check(self) -> ServerLimits:
        for f in fields(self):
            if getattr(self, f.name) <= 0:
                raise InputError(f"the server limit {f.name} must be positive (got {getattr(self, f.name)})")
        return self


def _problem(status: int, reason: str, detail: str) -> bytes:
    body = orjson.dumps({"type": "about:blank", "title": reason, "status": status, "detail": detail})
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/problem+json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\nx-content-type-options: nosniff\r\n\r\n"
            ).encode() + body


try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - uvicorn[standard] ships httptools
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


if HttpToolsProtocol is not None:

    class GuardedHttpToolsProtocol(HttpToolsProtocol):  # type: ignore[misc,valid-type]
        """httptools with a size limit and a deadline on each request's line and headers."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._limits = ServerLimits.from_env()
            self._reading_head = True
            self._head_bytes = 0
            self._tail = b""
            self._head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._await_head()

        def _await_head(self) -> None:
            self._reading_head, self._head_bytes, self._tail = True, 0, b""
            self._stop_timer()
            self._head_timer = self.loop.call_later(self._limits.header_seconds, self._head_too_slow)

        def _stop_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            if not self._reading_head or self.transport.is_closing():
                return
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a pipelined request is being answered
            self._refuse(408, "Request Timeout",
                         f"the request line and headers did not arrive within {self._limits.header_seconds:g} s")

        def _refuse(self, status: int, reason: str, detail: str) -> None:
            self._stop_timer()
            self._reading_head = False
            if not self.transport.is_closing():
                self.transport.write(_problem(status, reason, detail))
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._reading_head:  # count up to the blank line that ends the headers
                seen = self._tail + data
                end = seen.find(b"\r\n\r\n")
                head = self._head_bytes + (len(data) if end < 0 else end + 4 - len(self._tail))
                if head > self._limits.header_bytes:
                    self._refuse(431, "Request Header Fields Too Large",
                                 f"the request line and headers are longer than {self._limits.header_bytes} bytes")
                    return
                self._head_bytes, self._tail = head, seen[-3:]
            super().data_received(data)

        def on_headers_complete(self) -> None:
            self._reading_head = False
            self._stop_timer()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_timer()
            super().connection_lost(exc)


def protocol() -> Any:
    """The HTTP protocol class uvicorn is given."""
    return GuardedHttpToolsProtocol if HttpToolsProtocol is not None else "h11"


def listen(host: str, port: int, backlog: int) -> socket.socket:
    """The listening socket, bound now: a busy port is a one-line error before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def config(app: Any, host: str, port: int, limits: ServerLimits, workers: int = 1) -> Any:
    import uvicorn

    limits.to_env()  # worker processes read them again (GuardedHttpToolsProtocol, create_app)
    return uvicorn.Config(app, host=host, port=port, workers=workers, http=protocol(), log_config=None,
                          access_log=False, server_header=False, timeout_keep_alive=int(max(1, limits.keep_alive_seconds)),
                          limit_concurrency=limits.max_connections + 1, backlog=limits.backlog,
                          h11_max_incomplete_event_size=limits.header_bytes)


#: how long a thread may hold the GIL while another waits for it (Python's default is 5 ms). The
#: event loop waits for the GIL each time it wakes up; while a worker thread computes (a search, a
#: ledger, the rates matrix) every wake-up cost up to 5 ms, many times per request. Measured with
#: one CPU-bound thread beside a loop: three short sleeps took 69 ms (p50) at 5 ms, 7 ms at 0.5 ms.
SWITCH_INTERVAL_SECONDS = 0.0005


def run(app: Any, host: str, port: int, limits: ServerLimits, workers: int = 1) -> None:
    """Serve until interrupted; the socket is bound first (busy port: InputError)."""
    import sys

    import uvicorn

    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)  # worker processes (spawned) set it again: app.py's `app`
    from taxtreaty.interfaces.http import rates

    rates.CHILD_BUILD = True  # the rates matrix is built in a child process, off the server's GIL and memory
    sock = listen(host, port, limits.backlog)
    cfg = config(app, host, port, limits, workers)
    if workers > 1:
        from uvicorn.supervisors import Multiprocess

        server = uvicorn.Server(cfg)
        Multiprocess(cfg, target=server.run, sockets=[sock]).run()
    else:
        uvicorn.Server(cfg).run(sockets=[sock])
