"""Provisions per second on the seed fragments, as a ratio to parsing alone (same run).

    .venv/bin/python -m bench.bench_provisions      # or: python bench/bench_provisions.py

Each round parses every seed (the baseline) and then parses and extracts its provisions; the
figure is provisions extracted per second of extraction time, and the ratio is the time of
parse + extract over the time of parsing alone (how much the extractor adds). Target: the
extractor costs no more than three times the parse (ratio <= 4.0) and yields at least 200 provisions/s
(the extractor runs once per treaty; the rules engine then works from its output).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import taxtreaty  # noqa: E402
from taxtreaty.provisions import extract_provisions  # noqa: E402

SEEDS = ROOT.parent / "shared" / "seeds"
TARGET_RATIO = 4.0
TARGET_PER_SECOND = 200.0
ROUNDS = 20


def main() -> int:
    files = sorted(SEEDS.glob("*.txt"))
    if not files:
        print(f"no seeds under {SEEDS}", file=sys.stderr)
        return 2
    data = [(f.name, f.read_bytes()) for f in files]
    for name, raw in data:  # warm the caches (compiled patterns, vocabularies)
        extract_provisions(taxtreaty.parse(raw, path=name))

    parse_time = 0.0
    start = time.perf_counter()
    for _ in range(ROUNDS):
        for name, raw in data:
            taxtreaty.parse(raw, path=name)
    parse_time = time.perf_counter() - start

    extract_time = 0.0
    count = 0
    start = time.perf_counter()
    for _ in range(ROUNDS):
        for name, raw in data:
            doc = taxtreaty.parse(raw, path=name)
            t0 = time.perf_counter()
            count += len(extract_provisions(doc).provisions)
            extract_time += time.perf_counter() - t0
    total_time = time.perf_counter() - start

    per_second = count / extract_time
    ratio = total_time / parse_time
    print(f"seeds: {len(files)} files x {ROUNDS} rounds, {count // ROUNDS} provisions per round")
    print(f"parse only (baseline): {parse_time / ROUNDS * 1000:.1f} ms per round")
    print(f"parse + provisions:    {total_time / ROUNDS * 1000:.1f} ms per round")
    print(f"provisions per second: {per_second:,.0f} (target >= {TARGET_PER_SECOND:,.0f})")
    print(f"ratio (parse+provisions / parse): {ratio:.2f} (target <= {TARGET_RATIO:.1f})")
    ok = ratio <= TARGET_RATIO and per_second >= TARGET_PER_SECOND
    print("OK" if ok else "BELOW TARGET")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
