"""`python -m bench [--quick] [--markdown] [--only NAME ...] [--no-legacy] [--strict]`.

Runs every benchmark in bench/ (see bench/suite.py) and prints one table: what, figure, the
baseline measured in the same run, their ratio, the target and pass/fail, then the date and the
machine. `--markdown` prints the table for the README. Under 10 minutes on 2 cores; `--quick`
takes about a minute or two. Exit status 0, or 1 with `--strict` when any row fails.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import format_markdown, format_table, machine  # noqa: E402
from bench.suite import bench_modules, run_suite  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description="Run every benchmark; print one table.")
    parser.add_argument("--quick", action="store_true", help="fewer rounds and smaller inputs (a minute or two)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table with the date and machine")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these (bench_parse, fuzz_parse, golden_cases...)")
    parser.add_argument("--no-legacy", action="store_true", help="do not run modules without run() as scripts")
    parser.add_argument("--strict", action="store_true", help="exit 1 when any row fails its target")
    parser.add_argument("--list", action="store_true", help="list the benchmark modules and exit")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join([*bench_modules(), "fuzz_parse", "golden_cases"]))
        return 0
    info = machine()
    start = time.perf_counter()
    suite = run_suite(quick=args.quick, only=args.only, legacy=not args.no_legacy)
    elapsed = time.perf_counter() - start
    if args.markdown:
        print(format_markdown(suite.results, info))
    else:
        print(format_table(suite.results))
        print()
        print(f"{info['date']} | {info['platform']} | Python {info['python']} | {info['cpus']} CPUs | "
              f"{'quick' if args.quick else 'full'} run in {elapsed:.0f} s")
    for name, output in suite.outputs.items():
        print(f"\n--- {name} (no run() yet: its own output) ---\n{output}")
    failed = [r for r in suite.results if r.ran and not r.passed]
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
