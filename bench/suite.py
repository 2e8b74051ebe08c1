"""Run every benchmark and gather one table.

Every `bench/bench_*.py` module that defines `run(quick: bool) -> list[BenchResult]` is imported
and called; a module that does not (yet) is listed as "no run() yet" without being imported (a
script may do its work at import), and with `legacy=True` its `python -m bench.<name>` is run in
a child process with a time limit and its own output is kept to print under the table. The
suite's own rows come from bench/fuzz_parse.py (bounded fuzzing of `parse`) and the golden cases
(tests/cases, via `taxtreaty.checks`).

A benchmark that raises is a failed row with the reason, never a crash of the suite.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import BenchResult, per_second

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent


@dataclass
class SuiteRun:
    results: list[BenchResult] = field(default_factory=list)
    #: module name -> its printed output, for modules run as scripts
    outputs: dict[str, str] = field(default_factory=dict)
    #: module name -> seconds it took
    seconds: dict[str, float] = field(default_factory=dict)


def bench_modules() -> list[str]:
    return sorted(p.stem for p in BENCH_DIR.glob("bench_*.py"))


def has_run(name: str) -> bool:
    """Whether the module defines a top-level `run` (read from the source: nothing is executed)."""
    source = (BENCH_DIR / f"{name}.py").read_text(encoding="utf-8")
    return any(line.startswith("def run(") for line in source.splitlines())


def _failed_row(name: str, exc: BaseException) -> BenchResult:
    reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:160]
    return BenchResult(f"{name}", 0.0, "-", None, "", None, "-", False, f"raised {reason}")


def _call(name: str, run: Callable[[bool], list[BenchResult]], quick: bool, into: SuiteRun) -> None:
    start = time.perf_counter()
    try:
        results = run(quick)
        if not isinstance(results, list) or not all(isinstance(r, BenchResult) for r in results):
            raise TypeError("run() must return a list of BenchResult")
        into.results.extend(results)
    except Exception as exc:
        traceback.print_exc(file=sys.stderr)
        into.results.append(_failed_row(name, exc))
    into.seconds[name] = time.perf_counter() - start


def _legacy(name: str, quick: bool, into: SuiteRun) -> None:
    """Run a module without run() as a script, with a time limit; keep its output."""
    limit = 120 if quick else 300
    env = {**os.environ, "BENCH_QUICK": "1" if quick else "0"}
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", f"bench.{name}"], capture_output=True, text=True, cwd=ROOT,
                              timeout=limit, env=env)
        output = done.stdout + (f"\n[exit status {done.returncode}]\n{done.stderr[-2000:]}" if done.returncode else "")
        note = "no run() yet; ran as a script, output below" + ("" if done.returncode == 0 else f" (exit {done.returncode})")
    except subprocess.TimeoutExpired as exc:
        output = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        note = f"no run() yet; stopped after {limit} s"
    into.outputs[name] = output.strip()
    into.seconds[name] = time.perf_counter() - start
    into.results.append(BenchResult(name, 0.0, "-", None, "", None, "-", False, note, ran=False))


def golden_cases(quick: bool) -> list[BenchResult]:
    """The golden cases as rows: how many pass, and the whole check against parsing alone."""
    from taxtreaty import parse
    from taxtreaty.checks import load_cases, run_cases
    from taxtreaty.checks.treaties import resolve_path

    files = [load_cases(p) for p in sorted((ROOT / "tests" / "cases").glob("*.yaml")) if not p.name.startswith("pending")]
    count = sum(len(f.cases) for f in files)
    start = time.perf_counter()
    report = run_cases(files)  # parses each treaty once, then extracts and decides every case
    seconds = time.perf_counter() - start
    # a file of several conventions (an Act's schedules) is parsed once for each convention its cases name
    treaties = {(path, c.convention) for f in files for c in f.cases
                if (path := resolve_path(c.treaty, c.file.parent, None)) is not None}
    start = time.perf_counter()
    for path, convention in treaties:
        parse(path.read_bytes(), convention=convention)
    parse_seconds = time.perf_counter() - start
    return [
        BenchResult("golden cases passing (tests/cases)", float(report.passed), f"of {count}", None, "", None,
                    "all", report.failed == 0, report.summary_line()),
        BenchResult(f"golden cases: whole check ({count} cases, {len(treaties)} treaties)", seconds * 1000, "ms",
                    parse_seconds * 1000, "ms parsing the treaties alone", seconds / parse_seconds if parse_seconds else None,
                    "informative", True, f"{per_second(count, seconds):.0f} cases/s"),
    ]


def run_suite(quick: bool = False, only: list[str] | None = None, legacy: bool = True) -> SuiteRun:
    suite = SuiteRun()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    for name in bench_modules():
        if only and name not in only:
            continue
        if has_run(name):
            try:
                module = importlib.import_module(f"bench.{name}")
            except Exception as exc:
                suite.results.append(_failed_row(name, exc))
                continue
            _call(name, module.run, quick, suite)
        elif legacy:
            _legacy(name, quick, suite)
        else:
            suite.results.append(BenchResult(name, 0.0, "-", None, "", None, "-", False, "no run() yet", ran=False))
    if not only or "fuzz_parse" in only:
        from bench import fuzz_parse

        _call("fuzz_parse", fuzz_parse.run, quick, suite)
    if not only or "golden_cases" in only:
        _call("golden_cases", golden_cases, quick, suite)
    return suite
