"""Parser throughput against a single `regex` tokenisation pass over the same text.

    .venv/bin/python -m bench.bench_parse          (or: python bench/bench_parse.py)

Parses (with the line caches emptied each time, as for unseen text) the five seeds, the 70 KB bilingual seed 002 and a corpus convention repeatedly; the
baseline is `regex.findall(r"\\w+|[^\\w\\s]", text)` over the same strings, measured in the same
run. Target (issue 2): a whole 70 KB convention in under 20 ms, within 25x of that pass.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from taxtreaty.structure import parse  # noqa: E402
from taxtreaty.structure.parse import _classify  # noqa: E402
from taxtreaty.text.clean import furniture_rule, line_kind  # noqa: E402


def parse_cold(text: str) -> object:
    """Parse with the per-line classification caches emptied first, as for a text never seen:
    parsing the same text again would otherwise find every line already classified."""
    for cached in (_classify, line_kind, furniture_rule):
        cached.cache_clear()
    return parse(text)

SHARED = Path(os.environ.get("TAXTREATY_SHARED", ROOT.parent / "shared"))
TOKEN = regex.compile(r"\w+|[^\w\s]")
TARGET_MS_PER_70KB = 20.0
TARGET_RATIO = 25.0


def _best_of(fn, texts: list[str], rounds: int) -> float:
    """Seconds for one pass over `texts`: median of `rounds` passes (after a warm-up)."""
    for text in texts:
        fn(text)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            fn(text)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _files() -> dict[str, str]:
    seeds = sorted((SHARED / "seeds").glob("*.txt"))
    corpus = SHARED / "corpus" / "nl" / "NL-CN_convention_EN.txt"
    samples = sorted((ROOT / "taxtreaty" / "samples").glob("*.txt"))
    files = [*seeds, *([corpus] if corpus.exists() else []), *samples]
    return {p.name: p.read_text(encoding="utf-8") for p in files}


def main() -> int:
    files = _files()
    if not files:
        print("no input files found (seeds under ../shared/seeds)")
        return 1
    texts = list(files.values())
    total_bytes = sum(len(t.encode("utf-8")) for t in texts)
    rounds = int(os.environ.get("BENCH_ROUNDS", 15))

    parse_s = _best_of(parse_cold, texts, rounds)
    token_s = _best_of(TOKEN.findall, texts, rounds)
    ratio = parse_s / token_s

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"files: {len(texts)} ({total_bytes / 1024:.0f} KB), median of {rounds} rounds; "
          f"load average {load:.1f} on {os.cpu_count()} CPUs (absolute times scale with it, the ratio much less)")
    print(f"parse:          {total_bytes / parse_s / 1e6:6.2f} MB/s  ({parse_s * 1000:7.1f} ms per pass)")
    print(f"regex baseline: {total_bytes / token_s / 1e6:6.2f} MB/s  ({token_s * 1000:7.1f} ms per pass)")
    print(f"ratio parse/baseline: {ratio:.1f}x   (target <= {TARGET_RATIO:.0f}x)")

    ok = ratio <= TARGET_RATIO
    for name, text in files.items():
        size = len(text.encode("utf-8"))
        if size < 50_000:
            continue
        one_parse = _best_of(parse_cold, [text], rounds)
        warm = _best_of(parse, [text], rounds)
        one_token = _best_of(TOKEN.findall, [text], rounds)
        per_70kb = one_parse * 1000 * 70_000 / size
        print(
            f"{name}: {size / 1024:.0f} KB parsed in {one_parse * 1000:.1f} ms "
            f"= {per_70kb:.1f} ms per 70 KB (target < {TARGET_MS_PER_70KB:.0f} ms); "
            f"{one_parse / one_token:.1f}x its regex pass (warm caches, same text again: {warm * 1000:.1f} ms)"
        )
        ok = ok and per_70kb < TARGET_MS_PER_70KB and one_parse / one_token <= TARGET_RATIO
    print("target met" if ok else "target NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
