"""Fixtures shared by the store tests: one empty store per test, on SQLite and on PostgreSQL.

The PostgreSQL runs need `TAXTREATY_TEST_PG_URL` (scripts/test.sh starts a throw-away server
with scripts/postgres.sh and sets it); each test gets a new database on that server.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from taxtreaty.store import Store
from taxtreaty.store.synthetic import convention

PG_ENV = "TAXTREATY_TEST_PG_URL"
STORE_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "store"
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def _pg_admin_url() -> str:
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"{PG_ENV} is not set: no PostgreSQL server to test the store against "
                    "(bash scripts/test.sh starts one with scripts/postgres.sh)")
    return url


def _database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite'}"
        return
    import psycopg

    admin_url = _pg_admin_url()
    name = "tt_" + uuid.uuid4().hex[:16]
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from _database_url(request.param, tmp_path)


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store.open(store_url)
    try:
        yield s
    finally:
        s.close()


def write_synthetic(folder: Path, seeds: range, **kwargs: object) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        path = folder / f"conv_{seed:05d}.txt"
        path.write_text(convention(seed, **kwargs).text, encoding="utf-8")  # type: ignore[arg-type]
        paths.append(path)
    return paths
