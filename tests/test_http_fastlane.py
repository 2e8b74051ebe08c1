"""The POST /ask fast lane answers byte for byte like the FastAPI route, and hands everything
that is not a plain warm request (bad input, cold or unknown treaty) to the route."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SEEDS
from fastapi import FastAPI
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import create_app, fastlane
from taxtreaty.interfaces.http.fastlane import AskFastLane

store_module = pytest.importorskip("taxtreaty.store", reason="the corpus store is not in this build")

DIVIDENDS = {"income": "dividends", "source": "TL", "residence": "PT", "beneficial_owner": True,
             "recipient": "company", "capital_pct": 30, "held_months": 26}

#: (path, body or raw bytes, extra headers)
REQUESTS: list[tuple[str, Any, dict[str, str]]] = [
    ("/ask", DIVIDENDS, {}),
    ("/ask", {"income": "pensions", "source": "TL", "residence": "PT"}, {}),
    ("/ask", {**DIVIDENDS, "date": "2024-05-01", "amount": "1000.50"}, {}),
    ("/ask?treaty={treaty}", {"income": "interest", "source": "TL", "residence": "PT", "payer": "government"}, {}),
    ("/ask?treaty={treaty}&parties=pt,tl", DIVIDENDS, {}),
    ("/ask", DIVIDENDS, {"content-type": "application/vnd.api+json"}),
    # everything below must reach the route
    ("/ask", {**DIVIDENDS, "surprise": 1}, {}),                      # unknown key
    ("/ask", {**DIVIDENDS, "capital_pct": 130}, {}),                 # out of range
    ("/ask", {"income": "dividends"}, {}),                           # missing keys
    ("/ask", b'{"income": "dividends",', {"content-type": "application/json"}),  # malformed JSON
    ("/ask", b"", {"content-type": "application/json"}),              # empty body
    ("/ask", b'{"income": "dividends", "source": "TL", "residence": "PT"}', {"content-type": "text/plain"}),
    ("/ask", b"[1, 2]", {"content-type": "application/json"}),
    ("/ask", b"[" * 100_000, {"content-type": "application/json"}),   # nested past the recursion limit
    ("/ask?treaty=no-such-treaty", DIVIDENDS, {}),                   # unknown treaty: 404
    ("/ask?treaty=bad%20id", DIVIDENDS, {}),                         # pattern
    ("/ask?treaty=" + "x" * 101, DIVIDENDS, {}),                     # length
    ("/ask?treaty=", DIVIDENDS, {}),                                 # blank
    ("/ask?parties=PT", DIVIDENDS, {}),                              # pattern
    ("/ask?treaty={treaty}&treaty=other", DIVIDENDS, {}),          # repeated
    ("/ask", {**DIVIDENDS, "source": "ZZ"}, {}),                     # no treaty for these parties
    ("/ask?parties=PT,CZ", DIVIDENDS, {}),                           # other parties: not compiled, thread path
]


def _without_lane(app: FastAPI) -> FastAPI:
    app.user_middleware = [m for m in app.user_middleware if m.cls is not AskFastLane]
    return app


Clients = tuple[TestClient, TestClient, str]


@pytest.fixture(scope="module")
def clients(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Clients]:
    """Two apps over one store of the seeds, with and without the lane; and the PT-TL treaty id."""
    url = str(tmp_path_factory.mktemp("lane") / "store.sqlite")
    with store_module.Store.open(url) as store:
        assert store.ingest([str(SEEDS)]).added
        treaty = next(t.id for t in store.list_treaties() if set(t.parties) == {"PT", "TL"})
    with TestClient(create_app(url, token="t")) as lane, TestClient(_without_lane(create_app(url, token="t"))) as route:
        for client in (lane, route):  # warm: every treaty parsed and compiled (the first answer comes from a thread)
            for path, body, headers in REQUESTS[:6]:
                assert _send(client, path.format(treaty=treaty), body, headers).status_code == 200
        yield lane, route, treaty


def _send(client: TestClient, path: str, body: Any, headers: dict[str, str]) -> Any:
    if isinstance(body, bytes):
        return client.post(path, content=body, headers=headers)
    return client.post(path, json=body, headers=headers)


def _comparable(response: Any) -> tuple[int, bytes, list[tuple[str, str]]]:
    headers = [(k, v) for k, v in response.headers.items() if k != "x-request-id"]
    return response.status_code, response.content, headers


@pytest.mark.parametrize("index", range(len(REQUESTS)))
def test_the_lane_answers_like_the_route(clients: Clients, index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    lane, route, treaty = clients
    path, body, headers = REQUESTS[index]
    path = path.format(treaty=treaty)
    answered: list[bool] = []
    decide = fastlane._decide
    monkeypatch.setattr(fastlane, "_decide", lambda scope, raw: answered.append(decide(scope, raw) is not None)
                        or decide(scope, raw))
    fast, slow = _send(lane, path, body, headers), _send(route, path, body, headers)
    assert _comparable(fast) == _comparable(slow)
    # the six warm, valid requests are answered by the lane; the rest by the route
    assert (True in answered) == (index < 6), (path, body, fast.status_code)


def test_errors_from_the_route_keep_their_problem_details(clients: Clients) -> None:
    lane, _, _ = clients
    response = lane.post("/ask", json={**DIVIDENDS, "surprise": 1})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert "surprise" in response.json()["detail"]


def test_an_oversized_body_is_still_refused_before_the_lane(clients: Clients) -> None:
    lane, _, _ = clients
    response = lane.post("/ask", content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                         headers={"content-type": "application/json"})
    assert response.status_code == 413



def test_decisions_take_turns_with_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a pass of zero seconds each pass decides one /ask, and the loop runs what else is ready
    between two passes: a request that arrives after five /ask is answered before the last of them."""
    import asyncio

    order: list[str] = []

    def decide(scope: Any, body: bytes) -> bytes:
        order.append(body.decode())
        return body

    monkeypatch.setattr(fastlane, "_decide", decide)
    turns = fastlane.Turns(pass_seconds=0.0)

    async def cheap() -> None:
        order.append("cheap")

    async def main() -> list[bytes | None]:
        asks = [asyncio.create_task(turns.decide({}, f"ask{i}".encode())) for i in range(5)]
        await asyncio.sleep(0)  # the five are queued
        probe = asyncio.create_task(cheap())
        answers = await asyncio.gather(*asks)
        await probe
        return answers

    answers = asyncio.run(main())
    assert answers == [f"ask{i}".encode() for i in range(5)]  # each gets its own answer, in order
    assert order.index("cheap") < order.index("ask4")
    assert [name for name in order if name != "cheap"] == [f"ask{i}" for i in range(5)]


def test_a_long_pass_decides_everything_queued_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The opposite bound: with a pass long enough, the queue is drained in one pass."""
    import asyncio

    order: list[str] = []
    monkeypatch.setattr(fastlane, "_decide", lambda scope, body: order.append(body.decode()) or body)
    turns = fastlane.Turns(pass_seconds=60.0)

    async def cheap() -> None:
        order.append("cheap")

    async def main() -> None:
        asks = [asyncio.create_task(turns.decide({}, f"ask{i}".encode())) for i in range(5)]
        await asyncio.sleep(0)
        probe = asyncio.create_task(cheap())
        await asyncio.gather(*asks, probe)

    asyncio.run(main())
    assert order.index("cheap") > order.index("ask4")


def test_a_decision_that_raises_reaches_its_own_request_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    def decide(scope: Any, body: bytes) -> bytes:
        if body == b"bad":
            raise RuntimeError("boom")
        return body

    monkeypatch.setattr(fastlane, "_decide", decide)
    turns = fastlane.Turns()

    async def main() -> list[Any]:
        return await asyncio.gather(turns.decide({}, b"one"), turns.decide({}, b"bad"), turns.decide({}, b"two"),
                                    return_exceptions=True)

    first, bad, second = asyncio.run(main())
    assert (first, second) == (b"one", b"two")
    assert isinstance(bad, RuntimeError)
