"""The whole-store answers (GET /treaties, /rates, /health) are encoded once per change of the
store and answered as bytes with an ETag (issue 16): on the event loop when the view of the store
is fresh (`views.ViewLane`), by the route otherwise, the same bytes and headers either way; a
changed store is never answered with the old bytes, and a client holding the current ones gets 304."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import wait_for_rates
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import create_app, views

store_module = pytest.importorskip("taxtreaty.store", reason="the corpus store is not in this build")

# Conventions of our own wording: Spain-Latvia (interest at 7 per cent), then Spain-Estonia (10).
TEXT = """CONVENTION BETWEEN THE KINGDOM OF SPAIN AND THE REPUBLIC OF {other} FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 11
Interest
1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
2. However, such interest may also be taxed in the Contracting State in which it arises and according to the laws of that State, but if the beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed {rate} per cent of the gross amount of the interest.
"""


@pytest.fixture()
def app(tmp_path: Path):
    url = str(tmp_path / "views.sqlite")
    with store_module.Store.open(url) as store:
        assert store.ingest_bytes(TEXT.format(other="LATVIA", rate=7).encode(), "es-lv.txt", "es-lv-test").added
    return create_app(url, token="t")


def routed(app, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names the route answers (the lane never calls these two)."""
    from taxtreaty.interfaces.http import rates

    calls: list[str] = []
    real_list, real_encoded = views.treaty_list, rates.RateTable.encoded
    monkeypatch.setattr(views, "treaty_list", lambda b: calls.append("/treaties") or real_list(b))
    monkeypatch.setattr(rates.RateTable, "encoded", lambda self, *a: calls.append("/rates") or real_encoded(self, *a))
    return calls


def answer(client: TestClient, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    response = client.get(path, headers=headers)
    kept = {k: v for k, v in response.headers.items() if k != "x-request-id"}
    return response.status_code, kept, response.content


@pytest.mark.parametrize("path", ["/treaties", "/rates", "/rates?country=lv", "/rates?country=EE", "/health"])
def test_the_lane_and_the_route_answer_the_same_bytes(app, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    client = TestClient(app)
    wait_for_rates(client)
    backend = app.state.backend
    calls = routed(app, monkeypatch)
    backend._checked_at -= backend.FRESHNESS  # due for its check: the route answers (and refreshes the view)
    by_route = answer(client, path)
    assert calls or path == "/health"
    backend.refresh_view()
    calls.clear()
    by_lane = answer(client, path)
    assert calls == []  # answered from the ready bytes
    assert by_lane == by_route and by_lane[0] == 200
    assert by_lane[1]["content-type"] == "application/json"
    if path != "/health":
        assert by_lane[1]["etag"].startswith('"') and by_lane[1]["cache-control"] == "no-cache"


def test_rates_rows_of_a_state_are_the_table_filtered(app) -> None:
    client = TestClient(app)
    wait_for_rates(client)
    every = client.get("/rates").json()
    assert {(r["source"], r["residence"]) for r in every} == {("ES", "LV"), ("LV", "ES")}
    assert client.get("/rates?country=lv").json() == every
    assert client.get("/rates?country=EE").json() == []
    assert client.get("/rates?country=EST").status_code == 422  # the route's validation, not the lane's


def test_a_client_holding_the_current_bytes_gets_304_and_a_changed_store_new_bytes(app, tmp_path: Path) -> None:
    client = TestClient(app)
    wait_for_rates(client)
    first = {path: client.get(path) for path in ("/treaties", "/rates")}
    for path, response in first.items():
        again = client.get(path, headers={"if-none-match": response.headers["etag"]})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == response.headers["etag"]
    with store_module.Store.open(str(tmp_path / "views.sqlite")) as store:  # another process adds a treaty
        assert store.ingest_bytes(TEXT.format(other="ESTONIA", rate=10).encode(), "es-ee.txt", "es-ee-test").added
    app.state.backend.refresh_view()  # within FRESHNESS the server sees it; here at once
    wait_for_rates(client)
    for path, response in first.items():
        now = client.get(path, headers={"if-none-match": response.headers["etag"]})
        assert now.status_code == 200 and now.headers["etag"] != response.headers["etag"]
        assert "es-ee-test" in now.text and now.content != response.content


def test_a_stale_view_is_never_answered_by_the_lane(app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    client = TestClient(app)
    wait_for_rates(client)
    assert "es-ee-test" not in client.get("/treaties").text
    with store_module.Store.open(str(tmp_path / "views.sqlite")) as store:
        assert store.ingest_bytes(TEXT.format(other="ESTONIA", rate=10).encode(), "es-ee.txt", "es-ee-test").added
    backend = app.state.backend
    backend._checked_at -= backend.FRESHNESS  # the view is due for its check against the store
    calls = routed(app, monkeypatch)
    assert "es-ee-test" in client.get("/treaties").text and calls == ["/treaties"]
    rates = client.get("/rates")  # the new matrix, or 503 while it is built: never the old one as current
    assert rates.status_code in (200, 503)
    assert rates.status_code == 503 or "es-ee-test" in rates.text


def test_a_large_answer_is_sent_gzip_compressed_to_a_client_that_accepts_it(app) -> None:
    import gzip

    client = TestClient(app)
    wait_for_rates(client)
    plain = client.get("/rates", headers={"accept-encoding": "identity"})
    assert len(plain.content) >= views.GZIP_FROM and "content-encoding" not in plain.headers
    packed = client.get("/rates", headers={"accept-encoding": "br;q=1.0, gzip;q=0.5"})
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "accept-encoding"
    assert packed.content == plain.content  # the client decoded it: the same JSON bytes
    assert int(packed.headers["content-length"]) < len(plain.content)
    assert packed.headers["etag"] != plain.headers["etag"]  # another representation, another tag
    refused = client.get("/rates", headers={"accept-encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers
    held = client.get("/rates", headers={"accept-encoding": "gzip", "if-none-match": packed.headers["etag"]})
    assert held.status_code == 304
    raw = client.get("/treaties", headers={"accept-encoding": "gzip"})
    small = "content-encoding" not in raw.headers and len(raw.content) < views.GZIP_FROM
    assert small or gzip.decompress(views.treaty_list(app.state.backend).gzip or b"") == raw.content


def test_the_rates_matrix_built_in_a_child_process_is_the_one_built_in_a_thread(app, monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` builds the matrix in a child process (rates.CHILD_BUILD): the same cells and the same
    bytes as the in-process build, and the key of the store as the child saw it."""
    from taxtreaty.interfaces.http import rates

    backend = app.state.backend
    key = (rates.generation(backend), "2024-05-01")
    in_thread = rates._built(backend, key)
    monkeypatch.setattr(rates, "CHILD_BUILD", True)
    pools: list[object] = []
    real_pool = rates.ProcessPoolExecutor
    monkeypatch.setattr(rates, "ProcessPoolExecutor", lambda *a, **k: pools.append(k) or real_pool(*a, **k))
    in_child = rates._built(backend, key)
    assert len(pools) == 1  # a process of its own (spawned), not a thread
    assert in_child[0] == in_thread[0] == key
    assert in_child[1] == in_thread[1] and in_child[1]
    assert {k: v.body for k, v in in_child[2].items()} == {k: v.body for k, v in in_thread[2].items()}
