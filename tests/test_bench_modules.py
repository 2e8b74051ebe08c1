"""Every `bench/bench_*.py` has `run(quick) -> list[BenchResult]` and the suite finds it.

The benchmarks are not run here (minutes, and timing belongs in bench/); the modules are only
imported, and their `results()` functions (figures -> table rows) are fed made-up figures, so the
verdicts they print can be checked: a missed target is FAIL with the reason, and a quick run below
the target's scale is n/a, never pass.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import suite  # noqa: E402
from bench.common import BenchResult  # noqa: E402

MODULES = sorted(p.stem for p in (ROOT / "bench").glob("bench_*.py"))
#: the four whose run() this file was written for; the glob above covers any added later
EXPECTED = {"bench_corpus", "bench_http", "bench_ledger", "bench_parse", "bench_provisions"}


def test_the_suite_discovers_every_bench_module() -> None:
    assert set(MODULES) >= EXPECTED
    assert suite.bench_modules() == MODULES


@pytest.mark.parametrize("name", MODULES)
def test_every_bench_module_defines_run_quick(name: str) -> None:
    assert suite.has_run(name), f"bench/{name}.py has no top-level run(quick)"
    module = importlib.import_module(f"bench.{name}")
    run = module.run
    assert callable(run)
    parameters = list(inspect.signature(run).parameters)
    assert parameters == ["quick"]
    assert "BenchResult" in str(inspect.signature(run).return_annotation)


def test_the_suite_calls_every_run_and_keeps_its_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, bool]] = []
    for name in MODULES:
        module = importlib.import_module(f"bench.{name}")

        def stub(quick: bool, name: str = name) -> list[BenchResult]:
            calls.append((name, quick))
            return [BenchResult(f"{name} row", 1.0, "u", None, "", None, "t", True)]

        monkeypatch.setattr(module, "run", stub)
    ran = suite.run_suite(quick=True, only=MODULES, legacy=False)
    assert calls == [(name, True) for name in MODULES]
    assert [r.what for r in ran.results] == [f"{name} row" for name in MODULES]
    assert all(r.ran for r in ran.results)  # none listed as "no run() yet"


def _verdicts(results: list[BenchResult]) -> list[tuple[bool, bool]]:
    return [(r.ran, r.passed) for r in results]


def test_parse_rows_fail_with_the_reason_when_a_convention_is_slow() -> None:
    from bench import bench_parse as b

    fast = b.Convention("a.txt", 70_000, parse_s=0.010, token_s=0.002, warm_s=0.008)
    slow = b.Convention("b.txt", 70_000, parse_s=0.030, token_s=0.002, warm_s=0.020)
    figures = b.Figures(files=3, total_bytes=200_000, rounds=5, parse_s=0.05, token_s=0.01, load=1.0,
                        conventions=[fast, slow])
    rows = b.results(figures)
    assert [r.what.split(",")[0] for r in rows] == ["parse throughput", "parse one convention", "parse one convention"]
    assert rows[0].ratio == pytest.approx(5.0) and rows[0].passed
    assert rows[1].figure == pytest.approx(10.0) and rows[1].ratio == pytest.approx(5.0) and rows[1].passed
    assert rows[2].figure == pytest.approx(30.0) and not rows[2].passed
    assert "missed: 30.0 ms >= 20 ms" in rows[2].note
    assert not figures.met


def test_parse_ratio_over_25x_fails_even_when_fast() -> None:
    from bench import bench_parse as b

    quick_but_far = b.Convention("c.txt", 70_000, parse_s=0.013, token_s=0.0005, warm_s=0.01)
    row = b.results(b.Figures(1, 70_000, 5, 0.013, 0.0005, 1.0, [quick_but_far]))[1]
    assert row.ratio == pytest.approx(26.0) and not row.passed and "missed: 26.0x > 25x" in row.note


def test_provisions_row_reports_rate_and_ratio_to_parsing() -> None:
    from bench import bench_provisions as b

    ok = b.results(b.Figures(files=5, rounds=10, count=1000, parse_s=1.0, extract_s=2.0, total_s=3.0))[0]
    assert ok.figure == pytest.approx(500.0) and ok.ratio == pytest.approx(3.0) and ok.passed
    assert ok.baseline == pytest.approx(100.0)  # ms per round parsing alone
    slow = b.results(b.Figures(files=5, rounds=10, count=1000, parse_s=1.0, extract_s=10.0, total_s=11.0))[0]
    assert slow.figure == pytest.approx(100.0) and not slow.passed
    assert "missed: 100/s < 200/s" in slow.note and "missed: ratio 11.00 > 4.0" in slow.note


def _ledger_figures(rows: int, engine_s: float, merge_s: float, decision_us: float):
    from bench import bench_ledger as b

    return b.Figures(rows=rows, rounds=3, treaties=5, compile_s=1.0, decided=1000, malformed=0,
                     statuses={"determined": rows}, engine_s=engine_s, merge_s=merge_s, short_s=merge_s / 2,
                     decision_us=decision_us)


def test_ledger_rows_at_the_target_scale() -> None:
    from bench import bench_ledger as b

    within = b.results(_ledger_figures(1_000_000, engine_s=0.5, merge_s=0.2, decision_us=20.0))
    assert within[0].figure == pytest.approx(2_000_000) and within[0].baseline == pytest.approx(5_000_000)
    assert within[0].ratio == pytest.approx(2.5)
    assert _verdicts(within) == [(True, True), (True, True)]
    beyond = b.results(_ledger_figures(1_000_000, engine_s=0.7, merge_s=0.2, decision_us=120.0))
    assert _verdicts(beyond) == [(True, False), (True, False)]
    assert "missed: 3.50x > 3x" in beyond[0].note and beyond[1].note.startswith("missed")


def test_a_quick_ledger_is_never_a_pass() -> None:
    from bench import bench_ledger as b

    small = b.results(_ledger_figures(100_000, engine_s=0.02, merge_s=0.02, decision_us=20.0))
    assert small[0].ratio == pytest.approx(1.0)
    assert _verdicts(small)[0] == (False, False) and "1,000,000 rows" in small[0].note
    assert _verdicts(small)[1] == (True, True)  # a single decision does not depend on the ledger size


def _http_figures(clients: int, ask_ms: list[float], errors: int = 0):
    from bench import bench_http as b

    health = b.Run("GET /health", seconds=10.0, latencies_ms=[1.0] * 2000)
    ask = b.Run("POST /ask", seconds=10.0, latencies_ms=ask_ms, errors=errors, statuses={200: len(ask_ms) - errors})
    return b.Figures(clients=clients, seconds=30.0, workers=1, load=1.0, baseline=health, decided=ask)


def test_http_rows_report_throughput_errors_and_p99() -> None:
    from bench import bench_http as b

    rows = b.results(_http_figures(50, [10.0] * 990 + [40.0] * 10))
    assert rows[0].figure == pytest.approx(100.0) and rows[0].baseline == pytest.approx(200.0)
    assert rows[0].ratio == pytest.approx(0.5)
    assert rows[1].figure == pytest.approx(40.0) and rows[1].baseline == pytest.approx(1.0)
    assert _verdicts(rows) == [(True, True), (True, True)]
    slow = b.results(_http_figures(50, [10.0] * 980 + [80.0] * 20, errors=3))
    assert _verdicts(slow) == [(True, False), (True, False)]
    assert slow[0].note.startswith("3 errors") and slow[1].note.startswith("missed")


def test_http_p99_below_the_target_load_is_not_a_pass() -> None:
    from bench import bench_http as b

    rows = b.results(_http_figures(10, [5.0] * 1000))
    assert rows[1].figure == pytest.approx(5.0)
    assert _verdicts(rows) == [(True, True), (False, False)]
    assert "50 clients" in rows[1].note
    assert not _http_figures(10, [5.0] * 1000).met and _http_figures(50, [5.0] * 1000).met


def test_load_rows_judge_errors_always_and_p99_targets_only_at_scale() -> None:
    from bench import bench_load as b

    def run(name: str, latencies: list[float], errors: int = 0) -> b.Run:
        return b.Run(name, seconds=10.0, latencies_ms=latencies, errors=errors, statuses={200: len(latencies)})

    baseline = run("GET /health (alone)", [2.0] * 100)
    runs = {"POST /ask": run("POST /ask", [5.0] * 100, errors=1), "GET /rates": run("GET /rates", [80.0] * 100),
            "GET /health (watcher)": run("GET /health (watcher)", [3.0] * 100),
            "GET /rates (watcher)": run("GET /rates (watcher)", [60.0] * 100)}
    context = b.Context(cpu_alone_us=100.0, cpu_mixed_us=400.0, load_average=(1.0, 1.0, 1.0))
    rows = {r.what.split(" p99")[0].split(",")[0]: r for r in b.results(50, 10.0, baseline, runs, 3000, context)}
    assert not rows["load POST /ask"].passed  # one error
    assert not rows["load GET /rates"].passed and rows["load GET /rates"].ratio == pytest.approx(40.0)  # 80 ms >= 50
    assert rows["load GET /health (watcher)"].passed
    assert not rows["load GET /rates (watcher)"].passed  # watched from outside too: 60 ms >= 50
    assert rows["load: server CPU per request"].ratio == pytest.approx(4.0)  # informative: mixed / GET /health alone
    small = {r.what.split(" p99")[0]: r for r in b.results(20, 3.0, baseline, runs, 38, b.Context())}
    assert (small["load GET /rates"].ran, small["load GET /rates"].passed) == (False, False)  # n/a, never pass
    assert small["load POST /ask"].ran and not small["load POST /ask"].passed  # errors count at any scale


def test_the_golden_case_rows_run_over_every_pack_of_ours() -> None:
    # the suite's own rows run the real check: a pack over a file of several conventions (an Act's schedules)
    # names its convention, and the timing pass must parse that convention too (it raised before)
    rows = suite.golden_cases(quick=True)
    passing, whole = rows
    assert passing.passed and whole.passed, passing.note
    assert passing.figure > 0
