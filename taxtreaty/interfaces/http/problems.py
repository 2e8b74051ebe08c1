"""Errors as RFC 9457 problem details (`application/problem+json`), never a stack trace.

Every error leaving the app goes through `problem_response`; unexpected exceptions are logged
with their traceback on the server and answered with a bare 500 that names only a request id.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from taxtreaty.interfaces.http.backend import NotFound, Unavailable
from taxtreaty.text import InputError

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("taxtreaty.http")

_TITLES = {
    400: "Bad request", 401: "Authentication required", 403: "Forbidden", 404: "Not found",
    405: "Method not allowed", 413: "Request too large", 415: "Unsupported media type",
    422: "Invalid input", 500: "Internal error", 503: "Service unavailable", 504: "Took too long",
}


class ApiProblem(Exception):
    """Raise anywhere in a route to answer with this problem."""

    def __init__(self, status: int, detail: str, *, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


def problem_body(status: int, detail: str | None, instance: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "about:blank", "title": _TITLES.get(status, "Error"), "status": status,
            "detail": detail, "instance": instance, **extra}


def problem_response(status: int, detail: str | None, instance: str | None = None,
                     headers: dict[str, str] | None = None, **extra: Any) -> Response:
    body = json.dumps(problem_body(status, detail, instance, **extra), ensure_ascii=False, default=str)
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _validation_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    # Echo where and what, not the (possibly huge) input itself.
    return [{"loc": [str(x) for x in e.get("loc", ())], "msg": e.get("msg", ""), "type": e.get("type", "")}
            for e in exc.errors()[:50]]


def _answer(request: Request, status: int, detail: str | None, headers: dict[str, str] | None = None,
            **extra: Any) -> Response:
    """A problem document; for the web pages (`app.state.html_error` set by the web package), a page."""
    html_error = getattr(request.app.state, "html_error", None)
    if html_error is not None and request.url.path.startswith("/web/"):
        return html_error(request, status, detail or _TITLES.get(status, "Error"))
    return problem_response(status, detail, request.url.path, headers, **extra)


def install_handlers(app: FastAPI) -> None:
    async def on_problem(request: Request, exc: ApiProblem) -> Response:
        return _answer(request, exc.status, exc.detail, exc.headers, **exc.extra)

    async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail, default=str)
        return _answer(request, exc.status_code, detail, dict(exc.headers or {}))

    async def on_validation(request: Request, exc: RequestValidationError) -> Response:
        errors = _validation_errors(exc)
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(first["loc"])
        detail = f"{where}: {first['msg']}" if where else first["msg"]
        return _answer(request, 422, detail, errors=errors)

    async def on_not_found(request: Request, exc: NotFound) -> Response:
        return _answer(request, 404, str(exc))

    async def on_unavailable(request: Request, exc: Unavailable) -> Response:
        return _answer(request, 503, str(exc), {"Retry-After": "5"})

    async def on_input(request: Request, exc: InputError) -> Response:
        return _answer(request, 422, str(exc))

    app.add_exception_handler(ApiProblem, on_problem)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, on_http)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, on_validation)  # type: ignore[arg-type]
    app.add_exception_handler(NotFound, on_not_found)  # type: ignore[arg-type]
    app.add_exception_handler(Unavailable, on_unavailable)  # type: ignore[arg-type]
    app.add_exception_handler(InputError, on_input)  # type: ignore[arg-type]


class CatchAll:
    """Outermost guard: any exception that escapes the routes becomes a logged 500 problem.

    (Starlette's own ServerErrorMiddleware would re-raise after answering; this one does not, so
    a server under test behaves like the server in production.)
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            incident = uuid.uuid4().hex[:12]
            log.exception("unhandled error", extra={"incident": incident, "path": scope.get("path")})
            if not started:
                response = problem_response(500, f"internal error (incident {incident}); the server log has details",
                                            scope.get("path"), incident=incident)
                await response(scope, receive, send)


Handler = Callable[[Request], Awaitable[Response]]
