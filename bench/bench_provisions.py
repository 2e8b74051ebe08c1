"""Provisions per second on the seed fragments, as a ratio to parsing alone (same run).

    .venv/bin/python -m bench.bench_provisions      # or: python bench/bench_provisions.py

Each round parses every seed (the baseline) and then parses and extracts its provisions; the
figure is provisions extracted per second of extraction time, and the ratio is the time of
parse + extract over the time of parsing alone (how much the extractor adds). Target: the
extractor costs no more than three times the parse (ratio <= 4.0) and yields at least 200 provisions/s
(the extractor runs once per treaty; the rules engine then works from its output).
`run(quick)` gives the same figures as a `BenchResult` row for `python -m bench`.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import taxtreaty  # noqa: E402
from bench.common import BenchResult  # noqa: E402
from taxtreaty.provisions import extract_provisions  # noqa: E402

SEEDS = ROOT.parent / "shared" / "seeds"
TARGET_RATIO = 4.0
TARGET_PER_SECOND = 200.0
ROUNDS = 20


@dataclass
class Figures:
    files: int
    rounds: int
    #: provisions extracted over all rounds
    count: int
    parse_s: float
    extract_s: float
    total_s: float

    @property
    def per_second(self) -> float:
        return self.count / self.extract_s

    @property
    def ratio(self) -> float:
        return self.total_s / self.parse_s

    @property
    def met(self) -> bool:
        return self.ratio <= TARGET_RATIO and self.per_second >= TARGET_PER_SECOND


def measure(rounds: int) -> Figures:
    files = sorted(SEEDS.glob("*.txt"))
    if not files:
        raise FileNotFoundError(f"no seeds under {SEEDS}")
    data = [(f.name, f.read_bytes()) for f in files]
    for name, raw in data:  # warm the caches (compiled patterns, vocabularies)
        extract_provisions(taxtreaty.parse(raw, path=name))

    start = time.perf_counter()
    for _ in range(rounds):
        for name, raw in data:
            taxtreaty.parse(raw, path=name)
    parse_s = time.perf_counter() - start

    extract_s = 0.0
    count = 0
    start = time.perf_counter()
    for _ in range(rounds):
        for name, raw in data:
            doc = taxtreaty.parse(raw, path=name)
            t0 = time.perf_counter()
            count += len(extract_provisions(doc).provisions)
            extract_s += time.perf_counter() - t0
    total_s = time.perf_counter() - start
    return Figures(len(files), rounds, count, parse_s, extract_s, total_s)


def results(f: Figures) -> list[BenchResult]:
    return [BenchResult(
        f"provisions extracted, {f.files} seeds", f.per_second, "provisions/s",
        f.parse_s / f.rounds * 1000, "ms per round parsing alone", f.ratio,
        f">= {TARGET_PER_SECOND:.0f}/s and parse+extract within {TARGET_RATIO:.0f}x parse", f.met,
        "; ".join([*_misses(f), f"ratio = (parse+extract) / parse; {f.count // f.rounds} provisions per round, "
                   f"{f.rounds} rounds"]))]


def _misses(f: Figures) -> list[str]:
    misses = []
    if f.per_second < TARGET_PER_SECOND:
        misses.append(f"missed: {f.per_second:.0f}/s < {TARGET_PER_SECOND:.0f}/s")
    if f.ratio > TARGET_RATIO:
        misses.append(f"missed: ratio {f.ratio:.2f} > {TARGET_RATIO:.1f}")
    return misses


def run(quick: bool) -> list[BenchResult]:
    """The suite's entry point (bench/suite.py)."""
    return results(measure(5 if quick else ROUNDS))


def main() -> int:
    try:
        f = measure(ROUNDS)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"seeds: {f.files} files x {f.rounds} rounds, {f.count // f.rounds} provisions per round")
    print(f"parse only (baseline): {f.parse_s / f.rounds * 1000:.1f} ms per round")
    print(f"parse + provisions:    {f.total_s / f.rounds * 1000:.1f} ms per round")
    print(f"provisions per second: {f.per_second:,.0f} (target >= {TARGET_PER_SECOND:,.0f})")
    print(f"ratio (parse+provisions / parse): {f.ratio:.2f} (target <= {TARGET_RATIO:.1f})")
    print("OK" if f.met else "BELOW TARGET")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
