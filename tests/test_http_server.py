"""The server holds under hostile clients (issue 16), tested on loopback only with bounded waits:
huge headers get 431, a slow or silent client is dropped after the timeout, a slow body gets 408,
idle keep-alive connections close; a busy port or a missing store is one line and exit 2; JSON
answers carry nosniff; expensive endpoints are rate-limited per client and run on their own
threads, so a flood of slow ledgers cannot starve a search."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from taxtreaty.interfaces.http import MemoryBackend, create_app
from taxtreaty.interfaces.http.limits import Limits

HEADER_LIMIT = 8192


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli() -> str:
    return str(Path(sys.executable).parent / "taxtreaty")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    from taxtreaty.store import Store

    db = tmp_path_factory.mktemp("srv") / "s.sqlite"
    Store.open(str(db)).close()
    port = free_port()
    proc = subprocess.Popen([cli(), "serve", "--db", str(db), "--port", str(port), "--header-timeout", "1",
                             "--body-timeout", "1", "--keep-alive", "1", "--max-header-bytes", str(HEADER_LIMIT)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_until_serving(proc, port)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def read_all(sock: socket.socket, seconds: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection (or `seconds` pass)."""
    start = time.monotonic()
    sock.settimeout(0.2)
    data = b""
    while time.monotonic() - start < seconds:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            return data, time.monotonic() - start
        data += chunk
    raise AssertionError(f"the server kept the connection open for {seconds} s (got {data[:200]!r})")


def test_huge_headers_get_431(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server), timeout=5) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (HEADER_LIMIT * 4) + b"\r\n\r\n")
        data, _ = read_all(sock, 5)
    assert data.startswith(b"HTTP/1.1 431 ")
    assert b"application/problem+json" in data and b"longer than 8192 bytes" in data


def test_a_slow_client_is_dropped_after_the_header_timeout(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server), timeout=5) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # ... and never the end of the headers
        data, waited = read_all(sock, 6)
    assert data.startswith(b"HTTP/1.1 408 ") and 0.5 < waited < 5


def test_a_silent_connection_is_dropped(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server), timeout=5) as sock:
        _data, waited = read_all(sock, 6)
    assert waited < 5


def test_a_slow_body_gets_408(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server), timeout=5) as sock:
        sock.sendall(b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"in")
        data, waited = read_all(sock, 8)
    assert data.startswith(b"HTTP/1.1 408 "), data[:200]
    assert b"stopped arriving" in data and waited < 6


def test_an_idle_keep_alive_connection_is_closed(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server), timeout=5) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        data, waited = read_all(sock, 6)
    assert data.startswith(b"HTTP/1.1 200 ") and waited < 5


def test_json_answers_carry_nosniff(server: int) -> None:
    response = httpx.get(f"http://127.0.0.1:{server}/treaties", timeout=10)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-type"].startswith("application/json")


def test_a_busy_port_is_one_line_and_exit_2(server: int, tmp_path: Path) -> None:
    from taxtreaty.store import Store

    db = tmp_path / "s.sqlite"
    Store.open(str(db)).close()
    done = subprocess.run([cli(), "serve", "--db", str(db), "--port", str(server)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith(f"taxtreaty: error: cannot listen on 127.0.0.1:{server}")


def test_serve_with_a_missing_store_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nothing-here.sqlite"
    done = subprocess.run([cli(), "serve", "--db", str(missing), "--port", str(free_port())], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "no store at" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not missing.exists()


def test_expensive_endpoints_are_rate_limited_per_client() -> None:
    from fastapi.testclient import TestClient

    client = TestClient(create_app(backend=MemoryBackend(), limits=Limits(rate_per_minute={"POST /ledger": 2})))
    body = b"income,source,residence\ninterest,CY,PT\n"
    statuses = [client.post("/ledger", content=body, headers={"content-type": "text/csv"}).status_code
                for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = client.post("/ledger", content=body, headers={"content-type": "text/csv"})
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert int(refused.headers["retry-after"]) >= 1
    assert client.get("/treaties").status_code == 200  # other endpoints are not counted


@contextmanager
def _served(app: Any) -> Iterator[str]:
    """The app served by uvicorn on a thread of this process; its base URL once it listens."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def test_slow_ledgers_do_not_starve_other_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    from taxtreaty.interfaces.http import ledger as http_ledger

    real = http_ledger.treaty_book

    def slow(*args: Any) -> Any:
        time.sleep(5)
        return real(*args)

    monkeypatch.setattr(http_ledger, "treaty_book", slow)
    with _served(create_app(backend=MemoryBackend(), limits=Limits(seconds=30, rate_per_minute={}))) as base:
        statuses: list[int] = []

        def post() -> None:
            r = httpx.post(base + "/ledger", content=b"income,source,residence\ninterest,CY,PT\n",
                           headers={"content-type": "text/csv"}, timeout=60)
            statuses.append(r.status_code)

        posts = [threading.Thread(target=post) for _ in range(12)]
        for t in posts:
            t.start()
        time.sleep(1)  # the heavy threads are busy, their queue full
        start = time.monotonic()
        assert httpx.get(base + "/treaties", timeout=10).status_code == 200
        assert time.monotonic() - start < 3  # answered while every ledger still sleeps (5 s each)
        for t in posts:
            t.join(60)
        assert set(statuses) <= {200, 503} and statuses.count(200) >= 2 and 503 in statuses


def get_health(sock: socket.socket) -> bytes:
    """One keep-alive GET /health on `sock`: the status line of the answer."""
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\r\n", 1)[0]


def test_connections_beyond_the_limit_are_refused_with_503(tmp_path: Path) -> None:
    from taxtreaty.store import Store

    db = tmp_path / "s.sqlite"
    Store.open(str(db)).close()
    port = free_port()
    proc = subprocess.Popen([cli(), "serve", "--db", str(db), "--port", str(port), "--max-connections", "3",
                             "--keep-alive", "120", "--header-timeout", "120"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    held: list[socket.socket] = []
    try:
        _wait_until_serving(proc, port)
        for _ in range(3):  # three clients, answered, keeping their connections open
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            held.append(sock)
            assert get_health(sock).startswith(b"HTTP/1.1 200 ")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as fourth:
            assert get_health(fourth).startswith(b"HTTP/1.1 503 ")  # the limit, not a queue without end
        held.pop().close()  # one client leaves: a new one is served again
        deadline = time.monotonic() + 30
        while True:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as again:
                if get_health(again).startswith(b"HTTP/1.1 200 "):
                    break
            assert time.monotonic() < deadline, "a free place was never given to a new client"
            time.sleep(0.1)
    finally:
        for sock in held:
            sock.close()
        proc.terminate()
        proc.wait(timeout=20)


def test_the_pages_that_render_the_whole_rates_matrix_are_rate_limited_by_default() -> None:
    from fastapi.testclient import TestClient

    client = TestClient(create_app(backend=MemoryBackend()))  # the default limits
    allowed = Limits().rate_per_minute["GET /web/rates"]
    statuses: list[int] = []
    while 429 not in statuses and len(statuses) < allowed * 3:  # the bucket refills 1 a second meanwhile
        statuses.append(client.get("/web/rates").status_code)
    assert statuses[-1] == 429 and set(statuses[:-1]) == {200} and len(statuses) > allowed
    assert client.get("/rates").status_code != 429  # the ready bytes of GET /rates are not limited


def test_slow_searches_have_threads_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*args: Any) -> list[dict[str, Any]]:
        time.sleep(3)
        return []

    monkeypatch.setattr(MemoryBackend, "search", slow)
    with _served(create_app(backend=MemoryBackend(), limits=Limits(seconds=30, search_threads=1))) as base:
        statuses: list[int] = []

        def search() -> None:
            statuses.append(httpx.get(base + "/search", params={"q": "juros"}, timeout=60).status_code)

        searches = [threading.Thread(target=search) for _ in range(8)]
        for t in searches:
            t.start()
        time.sleep(1)  # the search thread busy, its queue (4) full
        start = time.monotonic()
        assert httpx.get(base + "/web/", timeout=10).status_code == 200  # a page on the shared threads
        assert time.monotonic() - start < 2.5  # answered while the searches still sleep
        for t in searches:
            t.join(60)
        assert set(statuses) == {200, 503} and statuses.count(200) >= 1


def _wait_until_serving(proc: subprocess.Popen, port: int, seconds: float = 60) -> None:
    """Until GET /health answers 200 on `port` (the test fails if the server exits or `seconds` pass)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
        time.sleep(0.2)
