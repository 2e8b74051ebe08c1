"""The benchmark protocol and suite (bench/common.py, bench/suite.py): formatting and discovery.

The benchmarks themselves are not run here (they take minutes; `python -m bench` runs them);
these tests check that the table says what was measured and that discovery never executes a
module that has no run().
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import suite  # noqa: E402
from bench.common import BenchResult, best_of, format_markdown, format_table, median_of, ratio  # noqa: E402


def test_table_shows_figure_baseline_ratio_target_and_verdict() -> None:
    results = [
        BenchResult("decide, one payment", 26.3, "µs", 1.2, "µs dict lookup", 21.9, "< 100 µs", True),
        BenchResult("ledger rows per second", 651_066, "rows/s", 1_703_962, "rows/s pandas merge", 2.62, "<= 3x", True),
        BenchResult("parse, 70 KB", 30.8, "ms", None, "", None, "< 20 ms", False, "load average 9"),
        BenchResult("bench_http", 0.0, "-", None, "", None, "-", False, "no run() yet", ran=False),
    ]
    table = format_table(results).splitlines()
    assert table[0].split() == ["what", "figure", "baseline", "(same", "run)", "ratio", "target", "result"]
    assert "26.3 µs" in table[2] and "1.20 µs dict lookup" in table[2] and "21.9x" in table[2] and table[2].endswith("pass")
    assert "651,066 rows/s" in table[3] and "1,703,962 rows/s pandas merge" in table[3] and "2.62x" in table[3]
    assert table[4].rstrip().endswith("FAIL (load average 9)")
    assert table[5].endswith("n/a (no run() yet)")
    # columns line up: every figure starts where the header's "figure" does
    assert {line.index(" 26.3 µs") + 1 for line in table[2:3]} == {table[0].index("figure")}


def test_markdown_table_carries_date_and_machine() -> None:
    info = {"date": "2026-11-30 06:00 UTC", "platform": "Linux-x86_64", "python": "3.11.7", "processor": "x86_64",
            "cpus": 2}
    text = format_markdown([BenchResult("a | b", 1.0, "s", 2.0, "s", 0.5, "< 1 s", True)], info)
    lines = text.splitlines()
    assert lines[0] == "Measured 2026-11-30 06:00 UTC on Linux-x86_64, Python 3.11.7, 2 CPUs (x86_64)."
    assert lines[2] == "| what | figure | baseline (same run) | ratio | target | result |"
    assert lines[4] == "| a \\| b | 1 s | 2 s | 0.50x | < 1 s | pass |"


def test_timing_helpers() -> None:
    calls: list[int] = []
    assert best_of(lambda: calls.append(1), repeat=3, warmup=2) >= 0
    assert len(calls) == 5
    assert median_of(lambda: None, repeat=3) >= 0
    assert ratio(3.0, 1.5) == 2.0
    assert ratio(3.0, 0) is None and ratio(3.0, None) is None


def test_suite_runs_run_modules_and_never_imports_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bench

    package = tmp_path / "bench"
    package.mkdir()
    marker = tmp_path / "imported"
    (package / "bench_script.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    (package / "bench_good.py").write_text(textwrap.dedent("""\
        from bench.common import BenchResult

        def run(quick):
            return [BenchResult("good", 2.0 if quick else 1.0, "s", 4.0, "s", 0.5, "< 3 s", True)]
        """))
    (package / "bench_broken.py").write_text("def run(quick):\n    raise RuntimeError('no data')\n")
    monkeypatch.setattr(suite, "BENCH_DIR", package)
    monkeypatch.setattr(bench, "__path__", [str(package)])  # bench.common stays the real one
    for name in ("bench.bench_good", "bench.bench_broken", "bench.bench_script"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert suite.bench_modules() == ["bench_broken", "bench_good", "bench_script"]
    assert [suite.has_run(n) for n in suite.bench_modules()] == [True, True, False]
    result = suite.run_suite(quick=True, only=["bench_broken", "bench_good", "bench_script"], legacy=False)
    rows = {r.what: r for r in result.results}
    assert rows["good"].figure == 2.0 and rows["good"].passed
    assert not rows["bench_broken"].passed and "RuntimeError: no data" in rows["bench_broken"].note
    assert not rows["bench_script"].ran and rows["bench_script"].note == "no run() yet"
    assert not marker.exists(), "a module without run() was imported"
