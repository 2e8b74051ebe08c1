"""Rewrite tests/cases/real/known_failures.txt from what the real packs do now.

Run from the repository root after a reader fix or a rebase (the ratchet in tests/test_real_packs.py
fails on a listed case that passes): lines of cases still failing are kept with their reasons, lines
of fixed cases are dropped, new failures are added under a marked heading with the check's own line
(rewrite that reason before committing). Merge-conflict markers in the file are resolved by keeping
both sides first, so a rebase conflict there is settled by running this.

    python scripts/known_failures.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from taxtreaty.checks import load_cases, run_cases

REAL = Path(__file__).resolve().parents[1] / "tests" / "cases" / "real"
CONFLICT = re.compile(r"<<<<<<< [^\n]*\n(.*?)=======\n(.*?)>>>>>>> [^\n]*\n", re.S)


def main() -> int:
    path = REAL / "known_failures.txt"
    text = CONFLICT.sub(lambda m: m.group(1) + m.group(2), path.read_text(encoding="utf-8"))
    failing = {f"{pack.stem}:{r.case.id}": r.line()
               for pack in sorted(REAL.glob("*.yaml")) for r in run_cases(load_cases(pack)).failures()}
    out: list[str] = []
    kept: set[str] = set()
    for line in text.splitlines():
        key = line.split(" ", 1)[0]
        if not line.strip() or line.lstrip().startswith("#"):
            out.append(line)
        elif key in failing and key not in kept:
            out.append(line)
            kept.add(key)
    new = [key for key in failing if key not in kept]
    if new:
        out.append("# -- new failures: the check's own line; rewrite each reason (what the text says, what was read)")
        out += [f"{key} NEW: {failing[key][:300]}" for key in new]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{len(failing)} failing: {len(kept)} listed before, {len(new)} new", file=sys.stderr)
    for key in new:
        print(f"new: {failing[key][:400]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
