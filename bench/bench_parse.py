"""Parser throughput against a single `regex` tokenisation pass over the same text.

    .venv/bin/python -m bench.bench_parse          (or: python bench/bench_parse.py)

Parses (with the line caches emptied each time, as for unseen text) the five seeds, the 70 KB
bilingual seed 002, a corpus convention and the packaged samples repeatedly; the baseline is
`regex.findall(r"\\w+|[^\\w\\s]", text)` over the same strings, measured in the same run. Target
(issue 2): a whole 70 KB convention in under 20 ms, within 25x of that pass. `run(quick)` gives
the same figures as `BenchResult` rows for `python -m bench`.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import BenchResult, ratio  # noqa: E402
from taxtreaty.structure import parse  # noqa: E402
from taxtreaty.structure.languages import detect_sample  # noqa: E402
from taxtreaty.text.clean import article_heading_match, furniture_rule  # noqa: E402
from taxtreaty.text.furniture import line_furniture  # noqa: E402
from taxtreaty.text.lines import classify as _classify  # noqa: E402

SHARED = Path(os.environ.get("TAXTREATY_SHARED", ROOT.parent / "shared"))
TOKEN = regex.compile(r"\w+|[^\w\s]")
TARGET_MS_PER_70KB = 20.0
TARGET_RATIO = 25.0
#: files at least this large are timed one by one against the 70 KB target
WHOLE_CONVENTION_BYTES = 50_000


def parse_cold(text: str) -> object:
    """Parse with the per-line classification caches emptied first, as for a text never seen:
    parsing the same text again would otherwise find every line already classified."""
    for cached in (_classify, article_heading_match, furniture_rule, line_furniture, detect_sample):
        cached.cache_clear()
    return parse(text)


def _median_pass(fn: Callable[[str], object], texts: list[str], rounds: int) -> float:
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


@dataclass
class Convention:
    """One whole convention (>= 50 KB) timed alone."""

    name: str
    size: int
    parse_s: float
    token_s: float
    #: the same text parsed again with the line caches warm
    warm_s: float

    @property
    def ms_per_70kb(self) -> float:
        return self.parse_s * 1000 * 70_000 / self.size

    @property
    def ratio(self) -> float:
        return self.parse_s / self.token_s

    @property
    def met(self) -> bool:
        return self.ms_per_70kb < TARGET_MS_PER_70KB and self.ratio <= TARGET_RATIO


@dataclass
class Figures:
    files: int
    total_bytes: int
    rounds: int
    parse_s: float
    token_s: float
    load: float
    conventions: list[Convention] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.parse_s / self.token_s

    @property
    def met(self) -> bool:
        return self.ratio <= TARGET_RATIO and all(c.met for c in self.conventions)


def measure(rounds: int) -> Figures:
    files = _files()
    if not files:
        raise FileNotFoundError(f"no input files found (seeds under {SHARED / 'seeds'})")
    texts = list(files.values())
    figures = Figures(
        files=len(texts), total_bytes=sum(len(t.encode("utf-8")) for t in texts), rounds=rounds,
        parse_s=_median_pass(parse_cold, texts, rounds), token_s=_median_pass(TOKEN.findall, texts, rounds),
        load=os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"),
    )
    for name, text in files.items():
        size = len(text.encode("utf-8"))
        if size >= WHOLE_CONVENTION_BYTES:
            figures.conventions.append(Convention(
                name, size, parse_s=_median_pass(parse_cold, [text], rounds),
                token_s=_median_pass(TOKEN.findall, [text], rounds), warm_s=_median_pass(parse, [text], rounds)))
    return figures


def results(f: Figures) -> list[BenchResult]:
    rows = [
        BenchResult(f"parse throughput, {f.files} files ({f.total_bytes / 1024:.0f} KB)",
                    f.total_bytes / f.parse_s / 1e6, "MB/s", f.total_bytes / f.token_s / 1e6, "MB/s (regex tokenise)",
                    ratio(f.parse_s, f.token_s), f"within {TARGET_RATIO:.0f}x", f.ratio <= TARGET_RATIO,
                    f"ratio is time/time; median of {f.rounds}; load average {f.load:.1f}"),
    ]
    for c in f.conventions:
        rows.append(BenchResult(
            f"parse one convention, {c.name} ({c.size / 1024:.0f} KB)", c.ms_per_70kb, "ms per 70 KB",
            c.token_s * 1000 * 70_000 / c.size, "ms per 70 KB (regex tokenise)", c.ratio,
            f"< {TARGET_MS_PER_70KB:.0f} ms and within {TARGET_RATIO:.0f}x", c.met,
            "; ".join([*_misses(c), f"{c.parse_s * 1000:.1f} ms measured, caches emptied; "
                       f"warm {c.warm_s * 1000:.1f} ms; load average {f.load:.1f}"])))
    return rows


def _misses(c: Convention) -> list[str]:
    misses = []
    if c.ms_per_70kb >= TARGET_MS_PER_70KB:
        misses.append(f"missed: {c.ms_per_70kb:.1f} ms >= {TARGET_MS_PER_70KB:.0f} ms")
    if c.ratio > TARGET_RATIO:
        misses.append(f"missed: {c.ratio:.1f}x > {TARGET_RATIO:.0f}x")
    return misses


def run(quick: bool) -> list[BenchResult]:
    """The suite's entry point (bench/suite.py)."""
    return results(measure(5 if quick else 15))


def main() -> int:
    try:
        f = measure(int(os.environ.get("BENCH_ROUNDS", 15)))
    except FileNotFoundError as exc:
        print(exc)
        return 1
    print(f"files: {f.files} ({f.total_bytes / 1024:.0f} KB), median of {f.rounds} rounds; "
          f"load average {f.load:.1f} on {os.cpu_count()} CPUs (absolute times scale with it, the ratio much less)")
    print(f"parse:          {f.total_bytes / f.parse_s / 1e6:6.2f} MB/s  ({f.parse_s * 1000:7.1f} ms per pass)")
    print(f"regex baseline: {f.total_bytes / f.token_s / 1e6:6.2f} MB/s  ({f.token_s * 1000:7.1f} ms per pass)")
    print(f"ratio parse/baseline: {f.ratio:.1f}x   (target <= {TARGET_RATIO:.0f}x)")
    for c in f.conventions:
        print(f"{c.name}: {c.size / 1024:.0f} KB parsed in {c.parse_s * 1000:.1f} ms "
              f"= {c.ms_per_70kb:.1f} ms per 70 KB (target < {TARGET_MS_PER_70KB:.0f} ms); "
              f"{c.ratio:.1f}x its regex pass (warm caches, same text again: {c.warm_s * 1000:.1f} ms)")
    print("target met" if f.met else "target NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
