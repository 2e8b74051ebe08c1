"""The app factory: one process serves the JSON API, the web pages and their static files."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import FastAPI

from taxtreaty.interfaces.http.backend import Backend
from taxtreaty.interfaces.http.docs import install_docs
from taxtreaty.interfaces.http.fastlane import AskFastLane
from taxtreaty.interfaces.http.limits import BodyLimit, Limits, RateLimit
from taxtreaty.interfaces.http.logs import AccessLog
from taxtreaty.interfaces.http.problems import CatchAll, install_handlers
from taxtreaty.interfaces.http.views import ViewLane

log = logging.getLogger("taxtreaty.http")

DESCRIPTION = """Double taxation conventions as structured, citable, executable law.

Read endpoints are open. `POST /treaties` (ingest) needs `Authorization: Bearer <token>`, the
token the server was started with (`TAXTREATY_API_TOKEN`). Errors are RFC 9457 problem details
(`application/problem+json`). Bodies are size-limited (413) and requests time-limited (504).
The web workbench is at `/web/`.
"""


def open_backend(store_url: str | None) -> Backend:
    """The corpus store at `store_url` (default location when None), as a Backend."""
    from taxtreaty.interfaces.http.store_backend import StoreBackend

    return StoreBackend.open(store_url)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """While serving: keep the backend's view of the store fresh off the request path."""
    refresh = getattr(app.state.backend, "refresh_view", None)
    task = asyncio.create_task(_keep_fresh(refresh, app.state.backend.FRESHNESS / 2)) if refresh else None
    try:
        yield
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _keep_fresh(refresh: Callable[[], None], every: float) -> None:
    # A thread of its own, not the shared pool: when searches fill that pool, a refresh queued
    # behind them let the view age past FRESHNESS, and every request then left the event loop
    # for the pool too (measured: stalls of a second and more under the mixed load).
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="taxtreaty-refresh") as own:
        while True:
            await asyncio.sleep(every)
            try:
                await loop.run_in_executor(own, refresh)
            except Exception:  # a store briefly unreadable: the request path checks again itself
                log.warning("background refresh of the store view failed", exc_info=True)


def create_app(store_url: str | None = None, token: str | None = None, *, backend: Backend | None = None,
               limits: Limits | None = None, web: bool = True) -> FastAPI:
    """The ASGI app over the store at `store_url` (or over `backend`, e.g. a MemoryBackend).

    `token` enables POST /treaties; when None it is read from TAXTREATY_API_TOKEN; an empty
    token disables ingest.
    """
    from taxtreaty import __version__

    app = FastAPI(title="taxtreaty", version=__version__, description=DESCRIPTION, lifespan=lifespan,
                  openapi_tags=[{"name": "treaties", "description": "the corpus: list, read, search, rates, ingest"},
                                {"name": "rules", "description": "decisions: one scenario or a ledger"},
                                {"name": "meta"}],
                  docs_url=None, redoc_url=None)  # served offline by install_docs, below
    app.state.backend = backend if backend is not None else open_backend(store_url)
    app.state.token = token if token is not None else os.environ.get("TAXTREATY_API_TOKEN") or None
    if limits is None:  # the server's body timeout (taxtreaty serve --body-timeout) applies in the app
        from taxtreaty.interfaces.http.server import ServerLimits

        limits = Limits(body_seconds=ServerLimits.from_env().body_seconds)
    app.state.limits = limits
    install_handlers(app)
    install_docs(app)

    from taxtreaty.interfaces.http.api import router

    app.include_router(router)
    if web:
        from taxtreaty.interfaces.web import mount

        mount(app)
    # Outermost last: access log -> catch-all -> rate limit -> body limit -> whole-store views
    # (GET /health, /treaties, /rates) -> /ask fast lane -> routes.
    app.add_middleware(AskFastLane)
    app.add_middleware(ViewLane)
    app.add_middleware(BodyLimit, limits=app.state.limits)
    app.add_middleware(RateLimit, limits=app.state.limits)
    app.add_middleware(CatchAll)
    app.add_middleware(AccessLog)
    return app


def __getattr__(name: str) -> Any:
    """`app`: the app over $TAXTREATY_DB, for `uvicorn taxtreaty.interfaces.http.app:app --workers N`."""
    if name == "app":
        from taxtreaty.interfaces.http.logs import configure_logging

        configure_logging()  # worker processes start with a fresh logging setup
        import sys

        from taxtreaty.interfaces.http.server import SWITCH_INTERVAL_SECONDS

        sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)  # as server.run does in a single process
        from taxtreaty.interfaces.http import rates

        rates.CHILD_BUILD = True
        return create_app(os.environ.get("TAXTREATY_DB"))
    raise AttributeError(name)
