"""Ledger throughput and single-decision latency of the rules engine (issue 4).

    .venv/bin/python -m bench.bench_ledger              # 1,000,000 payments
    .venv/bin/python -m bench.bench_ledger --rows 100000

A synthetic ledger of payments between the parties of the seed treaties (plus pairs no treaty
covers) is evaluated by `LedgerEvaluator.evaluate` (bucket, group, decide each distinct case
once, broadcast). Baseline, measured in the same run on the same rows: a pandas merge of the
ledger on a precomputed rate table keyed by (source, residence, income, beneficial_owner,
recipient) - the least a withholding system that already has the rates must key on to tell a
10% dividend from a 15% one; a merge on (source, residence, income) alone is printed too.
Target: the engine within 3x the merge.
Second figure: one decision (`decide_compiled`) on a compiled treaty, over varied scenarios.
Target: under 100 µs.
`run(quick)` gives both as `BenchResult` rows for `python -m bench` (quick: 100,000 rows).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import taxtreaty  # noqa: E402
from bench.common import BenchResult  # noqa: E402
from taxtreaty.provisions import extract_provisions  # noqa: E402
from taxtreaty.rules import compile_treaty, decide_compiled  # noqa: E402
from taxtreaty.rules.ledger import LedgerEvaluator, TreatyBook  # noqa: E402
from taxtreaty.rules.scenario import Scenario  # noqa: E402
from taxtreaty.rules.tables import tables  # noqa: E402

SEEDS = ROOT.parent / "shared" / "seeds"
#: the seeds that do not name their parties get plausible ones, as `--parties` would give
PARTIES = {"000": ["PT", "CZ"], "001": ["PT", "CN"], "002": None, "003": ["PT", "VE"], "004": ["PT", "GR"]}
TARGET_RATIO = 3.0
TARGET_DECISION_US = 100.0
#: the ledger size the issue sets the ratio target for (quick runs use a tenth of it)
TARGET_ROWS = 1_000_000
INCOMES = ["dividends", "interest", "royalties", "pensions", "shipping", "business_profits", "employment"]


def compile_seeds() -> list:
    treaties = []
    for prefix, parties in PARTIES.items():
        matches = sorted(SEEDS.glob(f"{prefix}*.txt"))
        if not matches:
            continue
        doc = taxtreaty.parse_file(str(matches[0]))
        treaties.append(compile_treaty(doc, extract_provisions(doc, parties), parties, name=prefix))
    return treaties


def synthetic_ledger(n: int, treaties: list, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    pairs = [tuple(t.parties) for t in treaties] + [tuple(reversed(t.parties)) for t in treaties] + [("ES", "PT")]
    chosen = rng.integers(0, len(pairs), n)
    pair_source = np.array([p[0] for p in pairs], dtype=object)
    pair_residence = np.array([p[1] for p in pairs], dtype=object)
    days = rng.integers((dt.date(1995, 1, 1) - dt.date(1970, 1, 1)).days, (dt.date(2025, 1, 1) - dt.date(1970, 1, 1)).days, n)
    return pd.DataFrame({
        "income": pd.array(rng.choice(INCOMES, n, p=[0.4, 0.25, 0.1, 0.1, 0.05, 0.05, 0.05]), dtype="str"),
        "source": pd.array(pair_source[chosen], dtype="str"),
        "residence": pd.array(pair_residence[chosen], dtype="str"),
        "date": pd.to_datetime(days, unit="D"),
        "amount": np.round(rng.uniform(1, 1_000_000, n), 2),
        "beneficial_owner": pd.array(rng.choice(["yes", "no", ""], n, p=[0.8, 0.1, 0.1]), dtype="str"),
        "recipient": pd.array(rng.choice(["company", "individual", "government", ""], n, p=[0.6, 0.3, 0.05, 0.05]), dtype="str"),
        "capital_pct": rng.choice([5.0, 10.0, 25.0, 30.0, 100.0, np.nan], n),
        "held_months": rng.choice([0.0, 6.0, 12.0, 24.0, 36.0, np.nan], n),
        "payer": pd.array(rng.choice(["company", "government", ""], n, p=[0.8, 0.05, 0.15]), dtype="str"),
        "pe_connected": pd.array(rng.choice(["", "no", "yes"], n, p=[0.9, 0.08, 0.02]), dtype="str"),
    })


#: the keys of the precomputed rate tables the baselines merge on: the pair and the income type
#: only (cheapest), and with the recipient facts a dividend rate needs at least
SHORT_KEYS = ["source", "residence", "income"]
RATE_KEYS = ["source", "residence", "income", "beneficial_owner", "recipient"]


def rate_table(ledger: pd.DataFrame, evaluator: LedgerEvaluator, keys: list[str]) -> pd.DataFrame:
    """A precomputed table of rates for every distinct combination of `keys` in the ledger."""
    combos = ledger[keys].drop_duplicates().reset_index(drop=True)
    decided, _ = evaluator.evaluate(combos if "beneficial_owner" in keys else combos.assign(beneficial_owner="yes"))
    return combos.assign(max_rate_pct=decided["max_rate_pct"].astype(object).to_numpy())


def best_of(rounds: int, action) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_decisions(treaties: list, count: int = 20_000) -> float:
    rng = np.random.default_rng(2)
    kinds = tables().recipient_kinds
    scenarios = []
    for i in range(500):
        treaty = treaties[i % len(treaties)]
        source, residence = treaty.parties if i % 2 else tuple(reversed(treaty.parties))
        scenarios.append((treaty, Scenario(
            income=INCOMES[int(rng.integers(0, len(INCOMES)))], source=source, residence=residence,
            date=dt.date(1990 + int(rng.integers(0, 35)), 1 + int(rng.integers(0, 12)), 1),
            beneficial_owner=bool(rng.integers(0, 2)), recipient=kinds[int(rng.integers(0, len(kinds)))],
            capital_pct=None if rng.random() < 0.2 else __import__("decimal").Decimal(int(rng.integers(0, 101))),
            held_months=None if rng.random() < 0.2 else int(rng.integers(0, 60)),
            amount_minor=int(rng.integers(0, 10**9)),
        )))
    for treaty, scenario in scenarios:  # warm up
        decide_compiled(treaty, scenario)
    start = time.perf_counter()
    for i in range(count):
        treaty, scenario = scenarios[i % len(scenarios)]
        decide_compiled(treaty, scenario)
    return (time.perf_counter() - start) / count * 1e6


@dataclass
class Figures:
    rows: int
    rounds: int
    treaties: int
    compile_s: float
    #: distinct cases the engine decided, and rows it refused as malformed
    decided: int
    malformed: int
    statuses: dict[str, int]
    engine_s: float
    merge_s: float
    short_s: float
    decision_us: float

    @property
    def ratio(self) -> float:
        return self.engine_s / self.merge_s


def measure(rows: int, rounds: int) -> Figures:
    if not SEEDS.is_dir():
        raise FileNotFoundError(f"no seeds under {SEEDS}")
    start = time.perf_counter()
    treaties = compile_seeds()
    compile_s = time.perf_counter() - start
    book = TreatyBook(treaties)
    ledger = synthetic_ledger(rows, treaties)
    evaluator = LedgerEvaluator(book)
    short_table = rate_table(ledger, evaluator, SHORT_KEYS)
    table = rate_table(ledger, evaluator, RATE_KEYS)

    short_s = best_of(rounds, lambda: ledger.merge(short_table, on=SHORT_KEYS, how="left"))
    merge_s = best_of(rounds, lambda: ledger.merge(table, on=RATE_KEYS, how="left"))
    result: dict = {}

    def evaluate() -> None:
        fresh = LedgerEvaluator(book)  # no decisions carried over between rounds
        result["frame"], result["bad"] = fresh.evaluate(ledger)
        result["decided"] = fresh.decided

    engine_s = best_of(rounds, evaluate)
    statuses = {str(k): int(v) for k, v in result["frame"]["status"].astype(str).value_counts().items()}
    return Figures(rows, rounds, len(treaties), compile_s, result["decided"], len(result["bad"]), statuses,
                   engine_s, merge_s, short_s, bench_decisions(treaties))


def results(f: Figures) -> list[BenchResult]:
    # A smaller ledger (quick runs) cannot meet or miss the target: the fixed cost of deciding each
    # distinct case weighs more there. The row keeps its figures but reads n/a, never pass.
    at_scale = f.rows >= TARGET_ROWS
    scale = "" if at_scale else f"not at the target's scale: it is set for {TARGET_ROWS:,} rows; "
    ledger_met = f.ratio <= TARGET_RATIO and at_scale
    decision_met = f.decision_us < TARGET_DECISION_US
    return [
        BenchResult(f"ledger, {f.rows:,} payments", f.rows / f.engine_s, "rows/s", f.rows / f.merge_s,
                    "rows/s (pandas merge on a precomputed rate table)", f.ratio,
                    f"within {TARGET_RATIO:.0f}x the merge", ledger_met,
                    ("" if ledger_met or not at_scale else f"missed: {f.ratio:.2f}x > {TARGET_RATIO:.0f}x; ") + scale
                    + f"ratio is time/time; {f.decided:,} distinct cases decided; best of {f.rounds}; "
                    f"{f.engine_s / f.short_s:.1f}x a 3-key merge", ran=at_scale),
        BenchResult("single decision (decide_compiled)", f.decision_us, "µs", None, "", None,
                    f"< {TARGET_DECISION_US:.0f} µs", decision_met,
                    ("" if decision_met else "missed; ") + f"mean over 20,000 varied scenarios, {f.treaties} treaties"),
    ]


def run(quick: bool) -> list[BenchResult]:
    """The suite's entry point (bench/suite.py): 1,000,000 rows, or 100,000 when quick."""
    return results(measure(TARGET_ROWS // 10 if quick else TARGET_ROWS, 3))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="payments in the synthetic ledger")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (best of)")
    args = parser.parse_args(argv)
    try:
        f = measure(args.rows, args.rounds)
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"treaties compiled: {f.treaties} in {f.compile_s * 1000:.0f} ms (once per treaty)")
    print(f"ledger rows: {f.rows:,}; distinct cases decided: {f.decided:,}; malformed: {f.malformed}")
    print("statuses: " + ", ".join(f"{k} {v:,}" for k, v in f.statuses.items()))
    print(f"engine:   {f.engine_s:.3f} s  = {f.rows / f.engine_s:,.0f} rows/s")
    print(f"baseline: {f.merge_s:.3f} s  = {f.rows / f.merge_s:,.0f} rows/s (pandas merge on a precomputed rate table "
          f"keyed by {', '.join(RATE_KEYS)})")
    print(f"          {f.short_s:.3f} s  = {f.rows / f.short_s:,.0f} rows/s (the same, keyed by {', '.join(SHORT_KEYS)} only)")
    print(f"ratio engine/merge: {f.ratio:.2f}x  (target <= {TARGET_RATIO:.1f}x) {'OK' if f.ratio <= TARGET_RATIO else 'MISSED'}; "
          f"against the 3-key merge: {f.engine_s / f.short_s:.2f}x")
    print(f"single decision (decide_compiled): {f.decision_us:.1f} µs  (target < {TARGET_DECISION_US:.0f} µs) "
          f"{'OK' if f.decision_us < TARGET_DECISION_US else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
