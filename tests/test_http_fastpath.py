"""POST /ask decides on the event loop only when nothing has to be read or compiled
(`service.decide_if_ready`); otherwise in a thread under the time limit. Same answers either way."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import create_app, service
from taxtreaty.interfaces.http.models import Scenario

store_module = pytest.importorskip("taxtreaty.store", reason="the corpus store is not in this build")

# A convention of our own wording (not a seed): Spain and Latvia, interest capped at 7 per cent.
TEXT = """CONVENTION BETWEEN THE KINGDOM OF SPAIN AND THE REPUBLIC OF LATVIA FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 11
Interest
1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
2. However, such interest may also be taxed in the Contracting State in which it arises and according to the laws of that State, but if the beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed 7 per cent of the gross amount of the interest.
"""

SCENARIO = {"income": "interest", "source": "LV", "residence": "ES", "beneficial_owner": True}


@pytest.fixture()
def app(tmp_path: Path):
    url = str(tmp_path / "fast.sqlite")
    with store_module.Store.open(url) as store:
        report = store.ingest_bytes(TEXT.encode(), "es-lv.txt", "es-lv-test")
        assert report.added
    return create_app(url, token="t")


def test_cold_treaty_goes_to_the_thread_then_the_loop_gives_the_same_answer(app) -> None:
    backend = app.state.backend
    scenario = Scenario.model_validate(SCENARIO)
    assert service.decide_if_ready(backend, "es-lv-test", scenario, ["ES", "LV"]) is None  # nothing loaded yet
    client = TestClient(app)
    cold = client.post("/ask?treaty=es-lv-test&parties=ES,LV", json=SCENARIO)
    assert cold.status_code == 200
    assert cold.json()["status"] == "determined" and cold.json()["max_rate_pct"] == "7"
    backend.refresh_view()  # as the server's background loop does: on a loaded machine the cold request outlives FRESHNESS
    ready = service.decide_if_ready(backend, "es-lv-test", scenario, ["ES", "LV"])
    assert ready == cold.json()
    warm = client.post("/ask?treaty=es-lv-test&parties=ES,LV", json=SCENARIO)
    assert warm.json() == cold.json()
    # Other parties mean another rule set, not compiled yet: not ready.
    assert service.decide_if_ready(backend, "es-lv-test", scenario, ["ES", "LT"]) is None


def test_a_stale_view_of_the_store_is_never_used_on_the_loop(app) -> None:
    backend = app.state.backend
    client = TestClient(app)
    assert client.post("/ask?treaty=es-lv-test&parties=ES,LV", json=SCENARIO).status_code == 200
    scenario = Scenario.model_validate(SCENARIO)
    assert service.decide_if_ready(backend, "es-lv-test", scenario, ["ES", "LV"]) is not None
    backend._checked_at -= backend.FRESHNESS  # the view is now due for its check against the store
    assert not backend.ready("es-lv-test")
    assert service.decide_if_ready(backend, "es-lv-test", scenario, ["ES", "LV"]) is None
    again = client.post("/ask?treaty=es-lv-test&parties=ES,LV", json=SCENARIO)
    assert again.status_code == 200 and again.json()["max_rate_pct"] == "7"
    assert backend.ready("es-lv-test")  # the thread path refreshed it


def test_unknown_treaty_is_still_a_404_when_the_store_is_warm(app) -> None:
    client = TestClient(app)
    assert client.post("/ask?treaty=es-lv-test&parties=ES,LV", json=SCENARIO).status_code == 200
    missing = client.post("/ask?treaty=no-such-treaty", json=SCENARIO)
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")
    unnamed = client.post("/ask", json={**SCENARIO, "source": "ZZ"})
    assert unnamed.status_code == 404 and "ZZ" in unnamed.json()["detail"]


def test_while_serving_the_view_is_refreshed_off_the_request_path(app) -> None:
    backend = app.state.backend
    with TestClient(app) as client:  # runs the lifespan: the background refresh task
        assert client.post("/ask?treaty=es-lv-test&parties=ES,LV", json=SCENARIO).status_code == 200
        backend._checked_at -= backend.FRESHNESS  # due: a request now would take the thread path
        assert not backend.ready("es-lv-test")
        deadline = time.monotonic() + 10
        while not backend.ready("es-lv-test"):  # no request sent: the task brings it back
            assert time.monotonic() < deadline, "the view was not refreshed in the background"
            time.sleep(0.05)
