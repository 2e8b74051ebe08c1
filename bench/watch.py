"""An outside observer for bench_load: paced requests from a process of its own.

The load generator runs its 50 clients on one event loop that is itself saturated (each client
sends its next request as soon as the answer arrives), so an answer it receives can wait in that
loop behind the other clients' work, and that wait would count as the server's. The watcher is a
separate process with one blocking keep-alive connection and nothing else to do: what it measures
is the server's answer time as a monitor (or a client on another machine) sees it while the load
runs. It sends each of its requests in turn, then sleeps `pause` seconds, until `seconds` pass.
"""

from __future__ import annotations

import multiprocessing
import socket
import time
from typing import Any


def _read_answer(sock: socket.socket, buffer: bytes) -> tuple[int, bytes]:
    """One Content-Length answer; (status, the bytes read past it)."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        chunk = sock.recv(max(65536, length - len(rest)))
        if not chunk:
            raise ConnectionError("the server closed the connection")
        rest += chunk
    return int(head.split(b" ", 2)[1]), rest[length:]


def watch(port: int, requests: dict[str, bytes], seconds: float, pause: float, out: Any) -> None:
    """The watcher process: {name: (latencies in ms, errors, statuses)} put on `out`."""
    found: dict[str, tuple[list[float], int, dict[int, int]]] = {name: ([], 0, {}) for name in requests}
    deadline = time.perf_counter() + seconds
    sock: socket.socket | None = None
    buffer = b""
    while time.perf_counter() < deadline:
        for name, raw in requests.items():
            latencies, errors, statuses = found[name]
            start = time.perf_counter()
            try:
                if sock is None:
                    sock, buffer = socket.create_connection(("127.0.0.1", port), timeout=20), b""
                sock.sendall(raw)
                status, buffer = _read_answer(sock, buffer)
                statuses[status] = statuses.get(status, 0) + 1
                ok = status == 200
            except OSError:
                ok = False
                if sock is not None:
                    sock.close()
                sock = None
            latencies.append((time.perf_counter() - start) * 1000)
            found[name] = (latencies, errors + (0 if ok else 1), statuses)
        time.sleep(pause)
    if sock is not None:
        sock.close()
    out.put(found)


def start(port: int, requests: dict[str, bytes], seconds: float, pause: float) -> tuple[Any, Any]:
    """The watcher started (a fresh interpreter: nothing of this process's state copied)."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    process = context.Process(target=watch, args=(port, requests, seconds, pause, out), daemon=True)
    process.start()
    return process, out


def finish(process: Any, out: Any, timeout: float) -> dict[str, tuple[list[float], int, dict[int, int]]]:
    found = out.get(timeout=timeout)
    process.join(10)
    return found
