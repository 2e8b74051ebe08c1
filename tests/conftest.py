"""Shared test fixtures: where the read-only shared material is, and loaders for it."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(__import__("os").environ.get("TAXTREATY_SHARED", ROOT.parent / "shared"))
SEEDS = SHARED / "seeds"
CORPUS = SHARED / "corpus"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def seed_path(prefix: str) -> Path:
    """The seed file whose name starts with `prefix` ("000", "002", ...)."""
    matches = sorted(SEEDS.glob(f"{prefix}*.txt"))
    if not matches:
        pytest.skip(f"seed {prefix} not found under {SEEDS}")
    return matches[0]


@pytest.fixture(scope="session")
def seeds_dir() -> Path:
    if not SEEDS.is_dir():
        pytest.skip(f"shared seeds not found at {SEEDS}")
    return SEEDS


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


def wait_for_rates(client, seconds: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    """Until the server's rates matrix is built: `GET /rates` answers 503 with Retry-After while
    it is being built after a change (in the background), which a loaded machine makes longer."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        response = client.get("/rates")
        if response.status_code != 503:
            assert response.status_code == 200, response.text[:300]
            return
        assert response.headers.get("Retry-After") and time.monotonic() < deadline, "the rates matrix was never built"
        time.sleep(0.5)
