"""Corpus benchmark: ingest rate and search latency on a generated corpus of synthetic conventions.

    .venv/bin/python -m bench.bench_corpus            # 3,000 conventions
    .venv/bin/python -m bench.bench_corpus --quick    # 200 conventions (smoke run)

The corpus is generated (taxtreaty.store.synthetic: a template varied by seed; no fetched text).
Figures, each with a baseline measured in the same run and their ratio:
- ingest rate (conventions/s) through `Store.ingest` (process pool for parsing, one writer,
  one transaction per document) against the single-process rate of parsing + extracting
  provisions alone (the work no store can skip). Target: all 3,000 in under 300 s.
- search latency p50/p99 of `Store.search` (folding, fuzzy/OCR expansion, translations, topic
  tier, snippets) against a raw FTS5 `MATCH ... ORDER BY bm25 LIMIT 20` on the same index
  with the same words. Target: p99 under 20 ms.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.common import BenchResult, ratio
from taxtreaty.store import Store
from taxtreaty.store.rows import prepare
from taxtreaty.store.search import words_of
from taxtreaty.store.synthetic import convention

QUERIES = [
    "beneficial owner", "beneficiário efectivo", "beneficiario efectivo", "dividends", "juros", "royalties",
    "regalías", "cánones", "gross amount", "permanent establishment", "estabelecimento estável",
    "capital of the company paying the dividends", "exchange of information", "Pessoas visadas",
    "dividcnds", "montante bruto", "place of effective management", "thirty days", "intereses", "Residente",
]
INGEST_TARGET_S = 300.0
P99_TARGET_MS = 20.0


def _percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def generate(folder: Path, count: int) -> list[Path]:
    paths = []
    for seed in range(count):
        path = folder / f"synthetic_{seed:05d}.txt"
        path.write_text(convention(seed).text, encoding="utf-8")
        paths.append(path)
    return paths


def baseline_prepare_rate(paths: list[Path], sample: int) -> float:
    chosen = paths[:sample]
    data = [(str(p), p.read_bytes()) for p in chosen]
    prepare(*data[0])  # warm caches, as the ingest does
    start = time.perf_counter()
    for path, raw in data:
        prepare(path, raw)
    return len(chosen) / (time.perf_counter() - start)


def measure_search(store: Store, db_path: Path, rounds: int) -> tuple[list[float], list[float], list[float]]:
    store.search("warm up")  # loads the fuzzy vocabulary once, as a long-running server would
    ours: list[float] = []
    ours_cpu: list[float] = []
    raw: list[float] = []
    connection = sqlite3.connect(str(db_path))
    for _ in range(rounds):
        for query in QUERIES:
            start, cpu = time.perf_counter(), time.process_time()
            store.search(query, limit=20)
            ours.append((time.perf_counter() - start) * 1000)
            ours_cpu.append((time.process_time() - cpu) * 1000)
            match = " AND ".join(f'"{w}"' for w in words_of(query))
            start = time.perf_counter()
            connection.execute(
                "SELECT rowid FROM passages_fts WHERE passages_fts MATCH ? ORDER BY bm25(passages_fts) LIMIT 20",
                (match,),
            ).fetchall()
            raw.append((time.perf_counter() - start) * 1000)
    connection.close()
    return ours, ours_cpu, raw


@dataclass
class CorpusFigures:
    count: int
    jobs: int
    ingest_s: float
    ingest_rate: float
    baseline_rate: float
    counts: dict[str, int]
    search_ms: list[float]
    search_cpu_ms: list[float]
    raw_ms: list[float]
    load: float


def measure(count: int, jobs: int, rounds: int, log: Callable[[str], None] = lambda _line: None) -> CorpusFigures:
    with tempfile.TemporaryDirectory(prefix="taxtreaty-bench-") as tmp:
        folder = Path(tmp) / "corpus"
        folder.mkdir()
        start = time.perf_counter()
        paths = generate(folder, count)
        log(f"generated {count} synthetic conventions in {time.perf_counter() - start:.1f} s")
        baseline_rate = baseline_prepare_rate(paths, min(100, count))
        db_path = Path(tmp) / "bench.sqlite"
        store = Store.open(str(db_path))
        start = time.perf_counter()
        report = store.ingest([str(folder)], processes=jobs)
        elapsed = time.perf_counter() - start
        if len(report.added) != count or report.rejected:
            raise RuntimeError(f"ingest added {len(report.added)} of {count}: {report.rejected[:3]}")
        counts = store.counts()
        ours, ours_cpu, raw = measure_search(store, db_path, rounds)
        store.close()
    return CorpusFigures(count, jobs, elapsed, count / elapsed, baseline_rate, counts, ours, ours_cpu, raw,
                         os.getloadavg()[0])


def run(quick: bool) -> list[BenchResult]:
    """The suite's entry point (bench/suite.py): ingest rate and search p99 as BenchResults."""
    f = measure(200 if quick else 3000, os.cpu_count() or 2, 5 if quick else 10)
    projected = 3000 / f.ingest_rate
    p99, raw99 = _percentile(f.search_ms, 99), _percentile(f.raw_ms, 99)
    return [
        BenchResult(f"store ingest, {f.count} synthetic conventions", f.ingest_rate, "conventions/s",
                    f.baseline_rate, "conventions/s (parse + extract, 1 process, no store)",
                    ratio(f.ingest_rate, f.baseline_rate), f"3,000 under {INGEST_TARGET_S:.0f} s",
                    projected < INGEST_TARGET_S,
                    f"{'measured' if f.count >= 3000 else 'projected'} {projected:.0f} s for 3,000; {f.jobs} processes"),
        BenchResult(f"store search p99, {len(f.search_ms)} queries", p99, "ms", raw99,
                    "ms p99 (raw FTS5 MATCH + bm25, same index)", ratio(p99, raw99),
                    f"p99 < {P99_TARGET_MS:.0f} ms", p99 < P99_TARGET_MS,
                    f"p50 {statistics.median(f.search_ms):.1f} ms; CPU p99 {_percentile(f.search_cpu_ms, 99):.1f} ms; "
                    f"load average {f.load:.1f}"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 conventions instead of 3,000")
    parser.add_argument("--count", type=int, default=None, help="number of conventions")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parsing processes")
    parser.add_argument("--rounds", type=int, default=10, help="times each query is run")
    args = parser.parse_args()
    count = args.count or (200 if args.quick else 3000)
    f = measure(count, args.jobs, args.rounds, log=print)
    print(f"ingest: {count} conventions in {f.ingest_s:.1f} s = {f.ingest_rate:.1f} conventions/s "
          f"({args.jobs} parsing processes, one transaction per document)")
    print(f"  baseline (parse + extract provisions, 1 process, no store): {f.baseline_rate:.1f} conventions/s")
    print(f"  ratio ingest/baseline: {f.ingest_rate / f.baseline_rate:.2f}")
    projected = 3000 / f.ingest_rate
    print(f"  target: 3,000 conventions under {INGEST_TARGET_S:.0f} s -> "
          f"{'measured' if count >= 3000 else 'projected'} {projected:.0f} s: "
          f"{'MET' if projected < INGEST_TARGET_S else 'MISSED'}")
    print(f"  store: {f.counts['treaties']} treaties, {f.counts['passages']} passages, "
          f"{f.counts['provisions']} provisions")
    p50, p99 = statistics.median(f.search_ms), _percentile(f.search_ms, 99)
    b50, b99 = statistics.median(f.raw_ms), _percentile(f.raw_ms, 99)
    print(f"search: {len(f.search_ms)} queries: p50 {p50:.2f} ms, p99 {p99:.2f} ms (wall clock; load average "
          f"{f.load:.1f} on {os.cpu_count()} CPUs)")
    print(f"  CPU time of this process per query: p50 {statistics.median(f.search_cpu_ms):.2f} ms, "
          f"p99 {_percentile(f.search_cpu_ms, 99):.2f} ms")
    print(f"  baseline (raw FTS5 MATCH + bm25, same index, same words): p50 {b50:.2f} ms, p99 {b99:.2f} ms")
    print(f"  ratio search/baseline: p50 {p50 / b50:.1f}x, p99 {p99 / b99:.1f}x")
    print(f"  target: p99 under {P99_TARGET_MS:.0f} ms: {'MET' if p99 < P99_TARGET_MS else 'MISSED'}")


if __name__ == "__main__":
    main()
