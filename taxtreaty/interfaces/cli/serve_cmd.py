"""`taxtreaty serve [--host 127.0.0.1] [--port 8000] [--db URL]`: the HTTP API and the web workbench."""

from __future__ import annotations

import os

import typer

from taxtreaty.interfaces.cli import UserError


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (loopback by default)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="TCP port."),
    db: str = typer.Option(None, "--db", help="Store URL or SQLite path (default: $TAXTREATY_DB or the user data dir)."),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="Worker processes."),
) -> None:
    """Serve the HTTP API (/docs) and the treaty workbench (/web/). POST /treaties needs TAXTREATY_API_TOKEN."""
    import uvicorn

    from taxtreaty.interfaces.http.app import create_app
    from taxtreaty.interfaces.http.logs import configure_logging

    configure_logging()
    store_url = db or os.environ.get("TAXTREATY_DB")
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
    try:
        uvicorn.run(target, host=host, port=port, workers=workers, log_config=None, access_log=False,  # type: ignore[arg-type]
                    server_header=False)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
