"""The benchmark protocol: what every `bench/bench_*.py` module returns, and helpers to measure it.

A benchmark module defines `run(quick: bool) -> list[BenchResult]`; `bench/suite.py` calls every
one and prints one table (`python -m bench`). Each result carries its own baseline, measured in
the same run on the same machine, so the ratio means something on any machine:

    BenchResult(what="parse, 70 KB convention", figure=12.1, unit="ms",
                baseline=0.9, baseline_unit="ms (regex tokenise)", ratio=13.4,
                target="< 20 ms and within 25x", passed=True)

Timing helpers use `time.perf_counter`; `best_of` and `median_of` take a warm-up call first.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class BenchResult:
    #: what was measured, in words ("decide, one payment")
    what: str
    figure: float
    unit: str
    #: the same-run reference the figure is compared with (None when there is none)
    baseline: float | None
    baseline_unit: str
    #: figure / baseline (or as the module defines it; None without a baseline)
    ratio: float | None
    #: the target in words ("< 100 µs", "within 3x of the pandas merge")
    target: str
    passed: bool
    #: anything a reader needs to interpret the row (sizes, rounds, a failure reason)
    note: str = ""
    #: False for a row that only lists a benchmark that did not produce figures ("no run() yet")
    ran: bool = True

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def ratio(figure: float, baseline: float | None) -> float | None:
    """figure / baseline, or None when the baseline is missing or zero."""
    if baseline is None or baseline == 0:
        return None
    return figure / baseline


def time_once(fn: Callable[[], Any]) -> float:
    """Seconds one call of `fn` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def samples(fn: Callable[[], Any], repeat: int, warmup: int = 1) -> list[float]:
    """Seconds of `repeat` calls of `fn`, after `warmup` calls that are not counted."""
    for _ in range(warmup):
        fn()
    return [time_once(fn) for _ in range(max(1, repeat))]


def best_of(fn: Callable[[], Any], repeat: int = 5, warmup: int = 1) -> float:
    """The fastest of `repeat` timed calls: the least disturbed by the machine."""
    return min(samples(fn, repeat, warmup))


def median_of(fn: Callable[[], Any], repeat: int = 5, warmup: int = 1) -> float:
    """The median of `repeat` timed calls: typical, robust to one slow outlier."""
    return statistics.median(samples(fn, repeat, warmup))


def per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def machine() -> dict[str, Any]:
    """What the figures were measured on (printed with every table)."""
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
    }


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    if value == float("inf"):
        return "inf"
    magnitude = abs(value)
    if float(value).is_integer():
        return f"{int(value):,}"
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    if magnitude >= 0.01 or value == 0:
        return f"{value:.2f}"
    return f"{value:.2g}"


HEADERS = ("what", "figure", "baseline (same run)", "ratio", "target", "result")


def rows(results: Sequence[BenchResult]) -> list[tuple[str, ...]]:
    table = []
    for r in results:
        figure = f"{_number(r.figure)} {r.unit}".strip() if r.unit != "-" else "-"
        baseline = f"{_number(r.baseline)} {r.baseline_unit}".strip() if r.baseline is not None else "-"
        ratio_text = f"{_number(r.ratio)}x" if r.ratio is not None else "-"
        verdict = "n/a" if not r.ran else "pass" if r.passed else "FAIL"
        if r.note:
            verdict += f" ({r.note})"
        table.append((r.what, figure, baseline, ratio_text, r.target, verdict))
    return table


def format_table(results: Sequence[BenchResult]) -> str:
    """A plain-text table for the terminal."""
    body = rows(results)
    widths = [max(len(h), *(len(row[i]) for row in body)) if body else len(h) for i, h in enumerate(HEADERS)]
    line = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [line.format(*HEADERS), line.format(*("-" * w for w in widths))]
    out.extend(line.format(*row) for row in body)
    return "\n".join(row.rstrip() for row in out)


def format_markdown(results: Sequence[BenchResult], info: dict[str, Any] | None = None) -> str:
    """A markdown table with the date and machine, to paste into the README."""
    info = info or machine()
    head = (f"Measured {info['date']} on {info['platform']}, Python {info['python']}, "
            f"{info['cpus']} CPUs ({info['processor']}).")
    lines = [head, "", "| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    for row in rows(results):
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    return "\n".join(lines)
