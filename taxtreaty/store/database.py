"""Engines, sessions and schema migrations.

`connect(url)` returns an engine whose schema is at the newest migration: Alembic's
`upgrade head` runs on every open that finds an older (or no) schema, so a store made by an
earlier release keeps working after an upgrade. SQLite stores use WAL and a busy timeout so a
reader never blocks the writer and an interrupted write is rolled back by SQLite itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from taxtreaty.store.urls import sqlite_path
from taxtreaty.text import InputError

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: SQLite's own locking only
    fcntl = None  # type: ignore[assignment]


def _alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("taxtreaty.store").joinpath("migrations")))
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def make_engine(url: str) -> Engine:
    path = sqlite_path(url)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the store folder {path.parent}: {exc.strerror}") from None
        if path.exists() and path.is_file() and path.stat().st_size > 0:
            with path.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise InputError(f"{path} is not a taxtreaty store (not a SQLite database)")
        engine = create_engine(url, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    try:
        return create_engine(url, pool_pre_ping=True)
    except (SQLAlchemyError, ValueError) as exc:
        raise InputError(f"bad database URL: {exc}") from None


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


#: the PostgreSQL advisory lock every migration takes (any number, the same for every process)
_PG_MIGRATION_LOCK = 0x7A7874  # "txt"


@contextlib.contextmanager
def _file_lock(path: Path | None) -> Iterator[None]:
    """An exclusive lock on the SQLite file itself (flock: independent of SQLite's own locks),
    so two processes opening a brand-new store migrate it one after the other."""
    if path is None or fcntl is None:
        yield
        return
    with open(path, "ab") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to `revision` (normally the newest). Safe when several processes start
    at once on the same store: they take a lock (the SQLite file's, or a PostgreSQL advisory
    lock held for the transaction), and whoever comes second finds the work done."""
    with _file_lock(sqlite_path(engine.url.render_as_string(hide_password=False))):
        _migrate(engine, revision)


def _migrate(engine: Engine, revision: str) -> None:
    cfg = _alembic_config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
        if revision == "head" and MigrationContext.configure(connection).get_current_revision() == head_revision():
            return
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)


def connect(url: str, *, upgrade: bool = True) -> Engine:
    engine = make_engine(url)
    try:
        # the first connection of a new SQLite file switches it to WAL, which needs the file to
        # itself: the check and the migration happen under the same lock as another opener's
        with _file_lock(sqlite_path(url) if upgrade else None):
            if upgrade and current_revision(engine) != head_revision():
                _migrate(engine, "head")
    except OperationalError as exc:
        engine.dispose()
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        raise InputError(f"cannot open the store {_display(url)}: {reason}") from None
    return engine


def _display(url: str) -> str:
    path = sqlite_path(url)
    if path is not None:
        return str(path)
    # never print a password
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


__all__ = ["Path", "connect", "current_revision", "head_revision", "make_engine", "migrate"]
