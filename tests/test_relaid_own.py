"""The case packs of our own writing re-laid in other gazettes' shapes get the same answers (issue 11).

The packs of tests/cases/*.yaml (the gazette shapes, the synthetic texts, the seeds beside the
repository) name texts of our own; each text is re-laid by `taxtreaty.checks.relay` in every shape
(hard-wrapped, paged in another gazette's furniture, both, with light scanner damage, with markdown
escapes) as tests/test_relaid.py does for the real conventions, and every case of the pack must give
the answer it gives on the text as written. A case a shape still changes is listed in
`RELAID_KNOWN` with why; a listed case that no longer changes fails the test, so the list only shrinks.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from taxtreaty.checks import Report, load_cases, run_cases
from taxtreaty.checks.cases import Case, CaseFile
from taxtreaty.checks.relay import differences, gazettes, relay, run_cases_on, seed_of

CASES = Path(__file__).resolve().parent / "cases"
PACKS = sorted(p for p in CASES.glob("*.yaml") if not p.name.startswith("pending"))
SHAPES = ("wrapped", "paged", "gazette", "ocr", "markdown")
#: "pack:case@shape" -> why a re-laid text still changes its answer
RELAID_KNOWN: dict[str, str] = {}


@cache
def _pack(stem: str) -> tuple[CaseFile, Report]:
    case_file = load_cases(CASES / f"{stem}.yaml")
    return case_file, run_cases(case_file)


def _texts(case_file: CaseFile) -> list[tuple[Path, list[Case]]]:
    """The texts a pack's cases name (a case may name its own), each with its cases; a text beside
    the repository (../shared/seeds) is left out where it is not there."""
    groups: dict[Path, list[Case]] = {}
    for case in case_file.cases:
        groups.setdefault((case_file.path.parent / case.treaty).resolve(), []).append(case)
    return [(path, cases) for path, cases in groups.items() if path.is_file()]


def _page(index: int) -> tuple[str, int]:
    """The gazette and issue pack `index` is printed in: every gazette and issue is used."""
    names = sorted(gazettes())
    name = names[index % len(names)]
    return name, (index // len(names)) % len(gazettes()[name])


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("pack", PACKS, ids=[p.stem for p in PACKS])
def test_our_packs_relaid_give_the_same_answers(pack: Path, shape: str) -> None:
    case_file, original = _pack(pack.stem)
    texts = _texts(case_file)
    if not texts:
        pytest.skip(f"{pack.name}: its texts are not beside the repository")
    gazette, issue = _page(PACKS.index(pack))
    by_id = {r.case.id: r for r in original.results}
    changed: dict[str, str] = {}
    relaid_any = False
    for path, cases in texts:
        text = path.read_text(encoding="utf-8")
        relaid = relay(text, shape, seed_of(pack.stem), gazette=gazette, issue=issue)
        if relaid == text:
            continue  # a text without a marker a converter escapes: the markdown shape leaves it as it is
        relaid_any = True
        before = Report([by_id[c.id] for c in cases])
        for d in differences(before, run_cases_on(case_file, relaid, cases)):
            changed[f"{pack.stem}:{d.case.id}@{shape}"] = d.line(shape)
    if not relaid_any:
        pytest.skip(f"{pack.name}: the {shape} shape changes none of its texts")
    where = f" (gazette {gazette}, issue {issue}, seed {seed_of(pack.stem)})"
    unlisted = [line for key, line in changed.items() if key not in RELAID_KNOWN]
    assert not unlisted, f"re-laid {shape}{where}:\n" + "\n".join(unlisted)
    stale = [key for key in RELAID_KNOWN if key.startswith(f"{pack.stem}:") and key.endswith(f"@{shape}")
             and key not in changed]
    assert not stale, f"listed in RELAID_KNOWN but now the same answer: {stale} (drop them)"


def test_every_pack_of_our_own_is_relaid() -> None:
    # the gazette packs at least, whatever else tests/cases holds
    stems = {p.stem for p in PACKS}
    assert {s for s in stems if s.startswith("gazette_")} and len(stems) >= 10
    assert all(_texts(_pack(s)[0]) for s in stems if s.startswith(("gazette_", "synthetic_")))
