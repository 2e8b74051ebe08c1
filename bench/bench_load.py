"""Load test on mixed endpoints: N clients on /ask, /search, /rates, /treaties and small /ledger
uploads, over a store of many treaties, with GET /health and GET /rates watched throughout (issue 16).

    .venv/bin/python -m bench.bench_load                     # the issue's load: 50 clients, 30 s, 3,000 synthetic
    .venv/bin/python -m bench.bench_load --quick             # 20 clients, 3 s, the shared texts only
    .venv/bin/python -m bench.bench_load --treaties 100 --seconds 10    # a smaller store, a shorter run
    .venv/bin/python -m bench.bench_load --db STORE.sqlite   # an existing store (no build)

The store is built in a temporary folder from the texts of ../shared (seeds and corpus: real
conventions, several files per treaty, amending protocols) and `--treaties` synthetic conventions
(`taxtreaty.store.synthetic`, parsed by a process pool). The server is `taxtreaty serve` in its own
process (its protocol, connection limits and settings), started once the store is built; the load begins after GET /rates
answers 200 (the matrix is built once per change of the store, off the request path).

The baseline, measured in the same run on the same server: GET /health with the same number of
clients and nothing else. Under the mixed load a watcher (bench/watch.py: a process of its own,
one blocking connection) asks GET /health and GET /rates?country=NL in turn every 10 ms, so its
p99 "throughout" says whether one endpoint starves the others, as a monitor sees it; the in-mix
clients' figures also hold the load generator's own queueing (its saturated event loop), which
the "own lag" row measures. `/ledger` uploads go at a pace under the server's per-client limit
(60 a minute; every client here is 127.0.0.1), so a 429 is an error.
Prints, per endpoint: requests, errors, p50, p99 and the p99's ratio to the baseline's; the
targets: zero errors, /rates p99 < 50 ms (in the mix and watched), /health p99 < 50 ms throughout.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote_plus

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import watch  # noqa: E402
from bench.bench_http import Connection, Run, ServerError, _stop, free_port, raw_request, wait_healthy  # noqa: E402
from bench.common import BenchResult, format_markdown, ratio  # noqa: E402

SHARED = Path(os.environ.get("TAXTREATY_SHARED", ROOT.parent / "shared"))
TARGET_P99_MS = 50.0
TARGET_CLIENTS = 50
#: /ledger uploads per minute, all clients together (the server allows 60 per client address)
LEDGER_PER_MINUTE = 40
LEDGER = ("income,source,residence,amount,beneficial_owner,recipient,capital_pct,date\n"
          "dividends,{a},{b},1000.99,yes,company,30,2024-05-01\n"
          "interest,{b},{a},250.50,yes,,,2024-05-01\n"
          "royalties,{a},{b},80,yes,company,,2024-05-01\n")
LAG = "load generator's own lag"
SEARCHES = ("dividends beneficial owner", "permanent establishment", "juros", "regalías", "pensions",
            "mutual agreement", "dividendos", "capital gains shares")


def build_store(folder: Path, synthetic: int, log=None) -> tuple[str, list[dict]]:  # type: ignore[no-untyped-def]
    """A store of the shared texts and `synthetic` invented conventions; the treaties' summaries."""
    from taxtreaty.store import Store
    from taxtreaty.store.synthetic import convention

    texts = sorted([*SHARED.glob("seeds/*.txt"), *SHARED.glob("corpus/*/*.txt")])
    if not texts:
        raise FileNotFoundError(f"no texts under {SHARED} (seeds/, corpus/)")
    made = folder / "synthetic"
    made.mkdir()
    for seed in range(synthetic):
        (made / f"synthetic_{seed:05d}.txt").write_text(convention(seed).text, encoding="utf-8")
    url = str(folder / "load.sqlite")
    start = time.perf_counter()
    with Store.open(url) as store:
        store.ingest([str(p) for p in texts])
        if synthetic:
            store.ingest([str(made)])
        treaties = [{"id": t.id, "parties": list(t.parties)} for t in store.list_treaties()]
    if log:
        log(f"store: {len(treaties)} treaties ({len(texts)} shared texts, {synthetic} synthetic) "
            f"built in {time.perf_counter() - start:.0f} s")
    return url, treaties


def get(path: str) -> bytes:
    """A GET as an ordinary HTTP client sends it (browsers, curl --compressed, httpx): gzip accepted."""
    return raw_request("GET", path).replace(b"\r\n\r\n", b"\r\nAccept-Encoding: gzip\r\n\r\n", 1)


def requests_for(treaties: list[dict]) -> dict[str, list[bytes]]:
    """The mix, per endpoint: raw requests over many treaties."""
    paired = [t for t in treaties if len(t["parties"]) == 2]
    asks = []
    for i, t in enumerate(paired[:200]):
        a, b = t["parties"]
        income = ("dividends", "interest", "royalties", "pensions")[i % 4]
        asks.append(raw_request("POST", f"/ask?treaty={t['id']}", {
            "income": income, "source": a, "residence": b, "beneficial_owner": True, "recipient": "company",
            "capital_pct": 30, "date": "2024-05-01"}))
    return {
        "POST /ask": asks,
        "GET /search": [get("/search?q=" + quote_plus(q) + "&limit=10") for q in SEARCHES],
        "GET /rates": [get("/rates"), get("/rates?country=NL")],
        "GET /treaties": [get("/treaties")],
    }


def ledger_request(a: str, b: str) -> bytes:
    body = LEDGER.format(a=a, b=b).encode()
    head = (f"POST /ledger HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n"
            f"Content-Type: text/csv\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


async def _client(port: int, run: Run, requests: list[bytes], deadline: float, offset: int, pause: float = 0.0) -> None:
    connection = Connection("127.0.0.1", port)
    i = offset
    try:
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            try:
                status = await asyncio.wait_for(connection.request(requests[i % len(requests)]), timeout=20)
                ok = status == 200
                run.statuses[status] = run.statuses.get(status, 0) + 1
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                ok = False
                await connection.close()
                connection = Connection("127.0.0.1", port)
            run.latencies_ms.append((time.perf_counter() - start) * 1000)
            run.errors += 0 if ok else 1
            i += 1
            if pause:
                await asyncio.sleep(max(0.0, pause - (time.perf_counter() - start)))
    finally:
        await connection.close()


#: what the watcher (bench/watch.py, a process of its own) asks in turn, every WATCH_PAUSE seconds
WATCHED = {"GET /health (watcher)": "/health", "GET /rates (watcher)": "/rates?country=NL"}
WATCH_PAUSE = 0.01


async def _lag(run: Run, deadline: float, pause: float = 0.01) -> None:
    """How late the load generator's own loop wakes up: the share of every in-mix figure that is
    the generator's queueing, not the server's."""
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        await asyncio.sleep(pause)
        run.latencies_ms.append((time.perf_counter() - start - pause) * 1000)


async def mixed(port: int, clients: int, seconds: float, mix: dict[str, list[bytes]], ledgers: list[bytes]) -> dict[str, Run]:
    """`clients` clients spread over the endpoints of `mix`, one on /ledger at its pace; the watcher
    process on /health and /rates throughout; the generator's own lag."""
    runs = {name: Run(name) for name in [*mix, "POST /ledger", *WATCHED, LAG]}
    process, out = watch.start(port, {name: get(path) for name, path in WATCHED.items()},
                               seconds, WATCH_PAUSE)
    deadline = time.perf_counter() + seconds
    names = list(mix)
    # /ask is the hot endpoint: half the clients; the others share the rest
    weights = {name: (clients // 2 if name == "POST /ask" else max(1, (clients - clients // 2) // (len(names) - 1)))
               for name in names}
    tasks = [_client(port, runs[name], mix[name], deadline, k) for name in names for k in range(weights[name])]
    tasks.append(_client(port, runs["POST /ledger"], ledgers, deadline, 0, pause=60.0 / LEDGER_PER_MINUTE))
    tasks.append(_lag(runs[LAG], deadline))
    began = time.perf_counter()
    await asyncio.gather(*tasks)
    for name, (latencies, errors, statuses) in watch.finish(process, out, timeout=60).items():
        runs[name].latencies_ms, runs[name].errors, runs[name].statuses = latencies, errors, statuses
    for run in runs.values():
        run.seconds = time.perf_counter() - began
    return runs


async def alone(port: int, clients: int, seconds: float, requests: list[bytes] | None = None,
                name: str = "GET /health (alone)") -> Run:
    run = Run(name)
    deadline = time.perf_counter() + seconds
    began = time.perf_counter()
    requests = requests or [raw_request("GET", "/health")]
    await asyncio.gather(*(_client(port, run, requests, deadline, k) for k in range(clients)))
    run.seconds = time.perf_counter() - began
    return run


#: the endpoints whose server CPU per request is measured alone (each for ALONE_SECONDS)
ALONE = ("GET /rates", "GET /treaties", "POST /ask", "GET /search")
ALONE_SECONDS = 3.0


def cpu_alone(pid: int, port: int, clients: int, mix: dict[str, list[bytes]]) -> dict[str, float | None]:
    """Each endpoint of ALONE alone for a few seconds: the server's CPU per request (µs), a figure
    the machine's load hardly moves, unlike latencies: whole-store answers cost what /health does."""
    out: dict[str, float | None] = {}
    for name in ALONE:
        before = cpu_seconds(pid)
        run = asyncio.run(alone(port, clients, ALONE_SECONDS, mix[name], name))
        out[name] = _per_request_us(before, cpu_seconds(pid), len(run.latencies_ms))
    return out


def _wait_for_rates(base: str, seconds: float = 600.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        response = httpx.get(base + "/rates", timeout=60)
        if response.status_code == 200:
            return
        if response.status_code != 503:
            raise ServerError(f"GET /rates -> {response.status_code}: {response.text[:200]}")
        time.sleep(1)
    raise ServerError("the rates matrix was not built in time")


def existing_store(url: str) -> list[dict]:
    from taxtreaty.store import Store

    with Store.open(url) as store:
        return [{"id": t.id, "parties": list(t.parties)} for t in store.list_treaties()]


def start_serve(url: str, port: int) -> subprocess.Popen:
    """`taxtreaty serve` itself (its protocol, limits and settings), in its own process."""
    command = [sys.executable, "-c", "import sys; from taxtreaty.interfaces.cli import main; sys.argv[0] = 'taxtreaty'; main()",
               "serve", "--db", url, "--port", str(port)]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return wait_healthy(server, port, 120)


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) the process has used so far (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Context:
    """What the machine and the server did besides the latencies: the server's CPU per request
    (alone and mixed: a figure the machine's load hardly changes) and the load average."""

    cpu_alone_us: float | None = None
    cpu_mixed_us: float | None = None
    #: server CPU per request of each endpoint alone (µs)
    cpu_by_endpoint: dict[str, float | None] = field(default_factory=dict)
    load_average: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def note(self) -> str:
        cpu = (f"server CPU per request {self.cpu_mixed_us:,.0f} µs mixed, {self.cpu_alone_us:,.0f} µs GET /health alone; "
               if self.cpu_mixed_us is not None and self.cpu_alone_us is not None else "")
        return cpu + f"load average {self.load_average[0]:.1f}"


def _per_request_us(before: float | None, after: float | None, requests: int) -> float | None:
    return None if before is None or after is None or not requests else (after - before) / requests * 1e6


def measure(clients: int, seconds: float, synthetic: int, log=None,  # type: ignore[no-untyped-def]
            db: str | None = None) -> tuple[Run, dict[str, Run], int, Context]:
    with tempfile.TemporaryDirectory() as tmp:
        url, treaties = (db, existing_store(db)) if db else build_store(Path(tmp), synthetic, log)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_serve(url, port)
        try:
            start = time.perf_counter()
            _wait_for_rates(base)
            mix = requests_for(treaties)
            for raw in mix["POST /ask"]:  # warm-up: each treaty compiled once, as a server soon has them
                path = raw.split(b" ", 2)[1].decode()
                httpx.post(base + path, content=raw.split(b"\r\n\r\n", 1)[1],
                           headers={"content-type": "application/json"}, timeout=120)
            if log:
                log(f"server ready (rates built, {len(mix['POST /ask'])} treaties warmed) in "
                    f"{time.perf_counter() - start:.0f} s; {clients} clients for {seconds:g} s")
            paired = [t["parties"] for t in treaties if len(t["parties"]) == 2] or [["PT", "TL"]]
            ledgers = [ledger_request(*p) for p in paired[:20]]
            context = Context()
            before = cpu_seconds(server.pid)
            baseline = asyncio.run(alone(port, clients, min(seconds, 5.0)))
            middle = cpu_seconds(server.pid)
            runs = asyncio.run(mixed(port, clients, seconds, mix, ledgers))
            context.cpu_alone_us = _per_request_us(before, middle, len(baseline.latencies_ms))
            context.cpu_mixed_us = _per_request_us(middle, cpu_seconds(server.pid), sum(
                len(r.latencies_ms) for name, r in runs.items() if name != LAG))
            context.cpu_by_endpoint = cpu_alone(server.pid, port, clients, mix)
            context.load_average = os.getloadavg()
        finally:
            _stop(server)
    return baseline, runs, len(treaties), context


#: the rows the latency target applies to
TIMED = ("GET /rates", "GET /rates (watcher)", "GET /health (watcher)")


def results(clients: int, seconds: float, baseline: Run, runs: dict[str, Run], treaties: int,
            context: Context) -> list[BenchResult]:
    at_scale = clients >= TARGET_CLIENTS
    scale = "" if at_scale else f"not at the target's load ({TARGET_CLIENTS} clients); "
    out = []
    if context.cpu_mixed_us is not None:
        out.append(BenchResult(
            f"load: server CPU per request, {clients} clients mixed, {treaties} treaties", context.cpu_mixed_us, "µs",
            context.cpu_alone_us, "µs (GET /health alone, same server)", ratio(context.cpu_mixed_us, context.cpu_alone_us),
            "informative", True, context.note()))
    for name, cpu in context.cpu_by_endpoint.items():
        if cpu is not None and context.cpu_alone_us is not None:
            out.append(BenchResult(
                f"load: server CPU per {name} request, alone, {treaties} treaties", cpu, "µs", context.cpu_alone_us,
                "µs (GET /health alone, same server)", ratio(cpu, context.cpu_alone_us), "informative", True,
                f"{clients} clients on {name} only for {ALONE_SECONDS:g} s"))
    for name, run in runs.items():
        timed = name in TIMED
        if name == LAG:
            out.append(BenchResult(
                f"load: {name} p99, {clients} clients, {treaties} treaties", run.pct(0.99), "ms", None, "", None,
                "informative", True, f"how late a 10 ms sleep of the generator wakes (p50 {run.pct(0.5):.1f} ms): "
                "part of every in-mix figure is this wait, not the server's"))
            continue
        target = f"zero errors, p99 < {TARGET_P99_MS:g} ms" if timed else "zero errors"
        met = run.errors == 0 and (not timed or run.pct(0.99) < TARGET_P99_MS)
        # a p99 target is set for the target's load: a smaller run keeps its figures but reads n/a
        out.append(BenchResult(
            f"load {name} p99, {clients} clients mixed, {treaties} treaties", run.pct(0.99), "ms", baseline.pct(0.99),
            "ms p99 (GET /health alone, same server)", ratio(run.pct(0.99), baseline.pct(0.99)), target,
            met and (at_scale or not timed), f"{scale if timed else ''}{len(run.latencies_ms):,} requests in "
            f"{seconds:g} s, {run.errors} errors, p50 {run.pct(0.5):.1f} ms, statuses {run.statuses}; "
            f"load average {context.load_average[0]:.1f}",
            ran=at_scale or not timed))
    return out


def run(quick: bool) -> list[BenchResult]:
    """The suite's entry point (bench/suite.py): the issue's load, 50 clients for 30 s over the
    shared texts and 3,000 synthetic conventions; quick: 20 clients for 3 s over the shared texts."""
    clients, seconds, synthetic = (20, 3.0, 0) if quick else (TARGET_CLIENTS, 30.0, 3000)
    return results(clients, seconds, *measure(clients, seconds, synthetic))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=TARGET_CLIENTS)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--treaties", type=int, default=3000, help="synthetic conventions besides the shared texts")
    parser.add_argument("--quick", action="store_true", help="20 clients, 3 s, the shared texts only")
    parser.add_argument("--db", help="load this existing store instead of building one (e.g. kept from a run)")
    parser.add_argument("--markdown", action="store_true", help="also print the rows as python -m bench --markdown does")
    args = parser.parse_args(argv)
    clients, seconds, synthetic = (20, 3.0, 0) if args.quick else (args.clients, args.seconds, args.treaties)
    if args.db and not Path(args.db).is_file():
        print(f"no store at {args.db}", file=sys.stderr)
        return 2
    try:
        baseline, runs, treaties, context = measure(clients, seconds, synthetic, log=print, db=args.db)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    except ServerError as exc:
        print(exc, file=sys.stderr)
        return 1
    for row in [baseline, *runs.values()]:
        if row.name == LAG:
            print(f"{row.name:>26}: p50 {row.pct(0.5):7.2f} ms, p99 {row.pct(0.99):7.2f} ms")
            continue
        print(f"{row.name:>26}: {len(row.latencies_ms):>7} requests, {row.errors} errors, p50 {row.pct(0.5):7.2f} ms, "
              f"p99 {row.pct(0.99):7.2f} ms ({ratio(row.pct(0.99), baseline.pct(0.99)) or 0:.1f}x the baseline's), "
              f"statuses {row.statuses}")
    print(f"{'server':>26}: {context.note()}")
    for name, cpu in context.cpu_by_endpoint.items():
        print(f"{name:>26}: server CPU per request alone {cpu or 0:,.0f} µs")
    rows = results(clients, seconds, baseline, runs, treaties, context)
    if args.markdown:
        print(format_markdown(rows))
    failed = [r for r in rows if r.ran and not r.passed]
    print("targets: zero errors; /rates and /health p99 < 50 ms -> " + ("met" if not failed else "NOT met: "
          + "; ".join(r.what for r in failed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
