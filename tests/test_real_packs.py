"""The case packs of the real conventions (tests/cases/real/*.yaml, issue 11).

Each pack was written from the text of one convention in ../shared/corpus, with the quote every
expectation rests on (checked against the file when the pack loads). Every case must pass,
except those listed in tests/cases/real/known_failures.txt with the reason: that list is a
ratchet (a listed case that now passes fails this test, so the list only shrinks), kept so
packs can land before the readers they expose are fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from taxtreaty.checks import load_cases, run_cases

REAL = Path(__file__).resolve().parent / "cases" / "real"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PACKS = sorted(REAL.glob("*.yaml"))


def _known_failures() -> dict[str, str]:
    path = REAL / "known_failures.txt"
    known: dict[str, str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                key, _, why = line.partition(" ")
                known[key.strip()] = why.strip()
    return known


pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpus is not beside the repository")


@pytest.mark.parametrize("pack", PACKS, ids=[p.stem for p in PACKS])
def test_pack(pack: Path) -> None:
    report = run_cases(load_cases(pack))
    known = _known_failures()
    failing = {f"{pack.stem}:{r.case.id}": r.line() for r in report.failures()}
    unexpected = {k: v for k, v in failing.items() if k not in known}
    fixed = sorted(k for k in known if k.startswith(f"{pack.stem}:") and k not in failing)
    assert not unexpected, "\n".join(unexpected.values())
    assert not fixed, f"listed in known_failures.txt but passing now (remove them): {fixed}"


def test_known_failures_name_real_cases() -> None:
    ids = {f"{pack.stem}:{case.id}" for pack in PACKS for case in load_cases(pack).cases}
    stale = sorted(set(_known_failures()) - ids)
    assert not stale, f"known_failures.txt names cases that do not exist: {stale}"
