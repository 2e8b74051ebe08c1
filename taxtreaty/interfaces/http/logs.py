"""Structured logs: one JSON object per line on stderr, one access line per request."""

from __future__ import annotations

import logging
import sys
import time
import uuid
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("taxtreaty.http")

#: LogRecord attributes that are not user-supplied `extra` fields
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}




class JsonFormatter(logging.Formatter):
    #: (whole second, its UTC text): one access line per request, mostly within the same second
    _second: tuple[int, str] = (-1, "")

    def _utc_second(self, created: float) -> str:
        second = int(created)
        cached = self._second
        if cached[0] != second:
            cached = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
            self._second = cached
        return cached[1]

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": self._utc_second(record.created) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        data.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(data, default=str).decode()


def configure_logging(level: int = logging.INFO) -> None:
    """JSON lines for our logger and uvicorn's (called by `taxtreaty serve`)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ("taxtreaty", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False


class AccessLog:
    """One structured line per request: method, path, status, duration, request id."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = uuid.uuid4().hex[:16]
        start = time.perf_counter()
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                # every answer: its request id, and no content sniffing (a JSON or CSV answer is
                # never run as a page or a script by a browser)
                headers = [*message["headers"], (b"x-request-id", request_id.encode())]
                if not any(name.lower() == b"x-content-type-options" for name, _value in headers):
                    headers.append((b"x-content-type-options", b"nosniff"))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            log.info("request", extra={
                "request_id": request_id, "method": scope.get("method"), "path": scope.get("path"),
                "status": status, "ms": round((time.perf_counter() - start) * 1000, 2),
                "client": (scope.get("client") or ("", 0))[0],
            })
