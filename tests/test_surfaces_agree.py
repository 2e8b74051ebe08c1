"""Every surface shows the one decision (issue 13), over every text in ../shared.

All seeds and real conventions are ingested into one store; then every cell of the rate matrix
(`rates --format json` and `GET /rates`) must be what `ask` answers on that cell's scenario, in
both directions: the CLI's `ask --treaty ID` path for the CLI matrix, `POST /ask?treaty=ID` for
the HTTP one.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import create_app
from taxtreaty.pipeline import load_store
from taxtreaty.rules import decide_compiled, scenario_from
from taxtreaty.rules.matrix import rate_matrix
from taxtreaty.store import Store

SHARED = Path(__file__).resolve().parents[2] / "shared"
TEXTS = sorted([*SHARED.glob("seeds/*.txt"), *SHARED.glob("corpus/*/*.txt")])
pytestmark = pytest.mark.skipif(not TEXTS, reason="../shared is not beside the repository")


@pytest.fixture(scope="module")
def store_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("agree") / "all.sqlite"
    with Store.open(str(path)) as store:
        report = store.ingest([str(p) for p in TEXTS])
        assert len(report.added) >= 25  # a text the reader refuses is the packs' business (tests/cases/real)
        return store.url


def _key(decision: dict) -> tuple:  # type: ignore[type-arg]
    return decision["status"], decision.get("max_rate_pct"), decision.get("eid")


def test_cli_matrix_cells_are_cli_ask_answers(store_url: str) -> None:
    day = dt.date(2024, 5, 1)
    cells = rate_matrix(load_store(store_url, lambda _m: None), as_of=day)
    treaties = {c.treaty for c in cells}
    assert len(treaties) >= 25, sorted(treaties)
    for treaty in treaties:  # both directions of every treaty
        directions = {(c.source, c.residence) for c in cells if c.treaty == treaty}
        assert len(directions) == 2 and {(b, a) for a, b in directions} == directions, treaty
    asked: dict[str, object] = {}
    for cell in cells:
        if cell.treaty not in asked:  # what `ask --treaty ID` loads
            asked[cell.treaty] = load_store(store_url, lambda _m: None, cell.treaty)[0]
        answer = decide_compiled(asked[cell.treaty], scenario_from(cell.scenario)).to_dict()  # type: ignore[arg-type]
        assert _key(answer) == (cell.status, cell.max_rate_pct, cell.eid), cell


def test_http_matrix_cells_are_http_ask_answers(store_url: str) -> None:
    client = TestClient(create_app(store_url, token=""))
    response = client.get("/rates")
    for _ in range(120):  # the first request starts the build; the server says when to come back
        if response.status_code != 503:
            break
        assert response.headers["Retry-After"] and "being rebuilt" in response.json()["detail"]
        time.sleep(0.5)
        response = client.get("/rates")
    assert response.status_code == 200
    rows = response.json()
    cells = [c for r in rows for c in [*r["cells"].values(), *r["notes"]]]
    assert len({c["treaty"] for c in cells}) >= 25
    for cell in cells:
        answer = client.post(f"/ask?treaty={cell['treaty']}", json=cell["scenario"]).json()
        assert _key(answer) == (cell["status"], cell["max_rate_pct"], cell["eid"]), cell
