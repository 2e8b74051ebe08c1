"""Where the store lives: `--db`, else `$TAXTREATY_DB`, else a SQLite file in the user's data dir.

A value with a scheme is a database URL (`sqlite:///...`, `postgresql://...`); anything else is
the path of a SQLite file. Plain `postgresql://` and `postgres://` are translated to the
psycopg 3 driver (`postgresql+psycopg://`), the only PostgreSQL driver the package depends on.
"""

from __future__ import annotations

import os
from pathlib import Path

from taxtreaty.text import InputError

ENV_VAR = "TAXTREATY_DB"
_POSTGRES_PREFIXES = ("postgresql+psycopg://", "postgresql://", "postgres://")


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "taxtreaty" / "taxtreaty.sqlite"


def resolve_url(value: str | None = None) -> str:
    """The SQLAlchemy URL for an explicit `--db` value, the environment, or the default file."""
    value = value or os.environ.get(ENV_VAR) or str(default_path())
    value = value.strip()
    if not value:
        raise InputError("the store location is empty (give --db PATH or a database URL)")
    for prefix in _POSTGRES_PREFIXES:
        if value.startswith(prefix):
            return "postgresql+psycopg://" + value[len(prefix):]
    if value.startswith("sqlite://"):
        return value
    if "://" in value:
        scheme = value.split("://", 1)[0]
        raise InputError(f"unsupported database URL scheme {scheme!r} (use a file path, sqlite:/// or postgresql://)")
    path = Path(value).expanduser()
    if path.is_dir():
        raise InputError(f"{path} is a directory; give the path of a store file")
    return f"sqlite:///{path}"


def sqlite_path(url: str) -> Path | None:
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return Path(url[len("sqlite:///"):])
    return None
