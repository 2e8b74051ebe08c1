"""`taxtreaty serve [--host 127.0.0.1] [--port 8000] [--db URL]`: the HTTP API and the web workbench."""

from __future__ import annotations

import os

import typer

from taxtreaty.interfaces.cli import UserError
from taxtreaty.interfaces.http.server import ServerLimits

_D = ServerLimits()


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (loopback by default)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port."),
    db: str = typer.Option(None, "--db", help="Store URL or SQLite path (default: $TAXTREATY_DB or the user data dir); a path must exist."),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="Worker processes."),
    max_header_bytes: int = typer.Option(_D.header_bytes, "--max-header-bytes", min=1024, max=1 << 24,
                                         help="Longest request line and headers (431 beyond)."),
    header_timeout: float = typer.Option(_D.header_seconds, "--header-timeout", min=0.1, max=3600,
                                         help="Seconds for a request's line and headers to arrive (408 after)."),
    body_timeout: float = typer.Option(_D.body_seconds, "--body-timeout", min=0.1, max=3600,
                                       help="Seconds between two parts of a request body (408 after)."),
    keep_alive: float = typer.Option(_D.keep_alive_seconds, "--keep-alive", min=1, max=3600,
                                     help="Seconds an idle keep-alive connection stays open."),
    max_connections: int = typer.Option(_D.max_connections, "--max-connections", min=1, max=1_000_000,
                                        help="Connections and requests at once (503 beyond)."),
) -> None:
    """Serve the HTTP API (/docs) and the treaty workbench (/web/). POST /treaties needs TAXTREATY_API_TOKEN."""
    from taxtreaty.interfaces.http import server
    from taxtreaty.interfaces.http.app import create_app
    from taxtreaty.interfaces.http.logs import configure_logging
    from taxtreaty.store.urls import resolve_url, sqlite_path

    limits = ServerLimits(header_bytes=max_header_bytes, header_seconds=header_timeout, body_seconds=body_timeout,
                          keep_alive_seconds=keep_alive, max_connections=max_connections).check()
    store_url = db or os.environ.get("TAXTREATY_DB")
    if store_url:
        path = sqlite_path(resolve_url(store_url))
        if path is not None and not path.is_file():
            raise UserError(f"no store at {path} (make one with: taxtreaty ingest TEXTS --db {path})")
    sock = server.listen(host, port, limits.backlog)  # a busy port: one line, before the store is opened
    sock.close()
    configure_logging()
    limits.to_env()
    try:
        app = create_app(store_url)  # opens (creates, migrates) the store once, here, so errors show now
    except ImportError as exc:
        raise UserError(f"cannot open the store: {exc}") from None
    except Exception as exc:  # a bad --db: one line, no traceback
        raise UserError(f"cannot open the store {store_url or '(default)'}: {exc}") from None
    target: object = app
    if workers > 1:
        # each worker process builds its own app from the environment (app.py's module `app`)
        if store_url:
            os.environ["TAXTREATY_DB"] = store_url
        target = "taxtreaty.interfaces.http.app:app"
    server.run(target, host, port, limits, workers)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
