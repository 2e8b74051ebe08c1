"""The real conventions re-laid in other gazettes' shapes get the same answers (issue 11).

Each real text of ../shared/corpus (read from there, never copied) is re-laid deterministically
by `taxtreaty.checks.relay`: hard-wrapped at 60-75 columns with long words hyphenated; with the
running headers, footers and page numbers of the Diário da República, the BOE, the Tractatenblad,
the Argentine Boletín Oficial and treaty series; both at once; with light scanner damage (quotes
swapped, doubled and no-break spaces, soft hyphens, "l" for "1" in page numbers); with the escapes
and bold headings of a markdown conversion; as a collection's web page (HTML). Every case of the convention's pack that passes on the
original (the cases of known_failures.txt aside) must pass on every re-laid text.

Damage that destroys meaning (a digit of a rate misread, "1O per cent") must make the answer that
rests on it indeterminate, never another determined rate.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from taxtreaty.checks import Report, load_cases, run_cases
from taxtreaty.checks.cases import Case, CaseFile
from taxtreaty.checks.compare import as_plain
from taxtreaty.checks.relay import (
    damage_figure,
    differences,
    gazettes,
    printed_rate,
    relay,
    run_cases_on,
    seed_of,
)
from taxtreaty.provisions import extract_provisions
from taxtreaty.rules import decide, load_treaty
from taxtreaty.structure import parse

REAL = Path(__file__).resolve().parent / "cases" / "real"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PACKS = sorted(REAL.glob("*.yaml"))
#: light scanner damage on a sample of the conventions (every other one), the other shapes on all
OCR_SAMPLE = PACKS[::2]

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpus is not beside the repository")


@cache
def _known_failures() -> frozenset[str]:
    lines = (REAL / "known_failures.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.split(" ", 1)[0] for line in lines if line.strip() and not line.lstrip().startswith("#"))


@cache
def _pack(stem: str) -> tuple[CaseFile, str, Report]:
    """The pack, its treaty's text and the pack's report on that text as printed."""
    case_file = load_cases(REAL / f"{stem}.yaml")
    treaties = {case.treaty for case in case_file.cases}
    assert len(treaties) == 1, f"{stem}: a pack of one convention names one treaty, not {sorted(treaties)}"
    text = (case_file.path.parent / treaties.pop()).resolve().read_text(encoding="utf-8")
    return case_file, text, run_cases(case_file)


def _page(index: int) -> tuple[str, int]:
    """The gazette and issue pack `index` is printed in: every gazette and issue is used."""
    names = sorted(gazettes())
    name = names[index % len(names)]
    return name, (index // len(names)) % len(gazettes()[name])


def _check(pack: Path, shape: str) -> None:
    case_file, text, original = _pack(pack.stem)
    gazette, issue = _page(PACKS.index(pack))
    relaid = relay(text, shape, seed_of(pack.stem), gazette=gazette, issue=issue)
    assert relaid != text
    known = _known_failures()
    changed = [d for d in differences(original, run_cases_on(case_file, relaid))
               if f"{pack.stem}:{d.case.id}" not in known]
    where = f" (gazette {gazette}, issue {issue}, seed {seed_of(pack.stem)})" if shape != "wrapped" else ""
    assert not changed, f"re-laid {shape}{where}:\n" + "\n".join(d.line(shape) for d in changed)


@pytest.mark.parametrize("shape", ["wrapped", "paged", "gazette", "markdown", "web"])
@pytest.mark.parametrize("pack", PACKS, ids=[p.stem for p in PACKS])
def test_relaid_gives_the_same_answers(pack: Path, shape: str) -> None:
    _check(pack, shape)


@pytest.mark.parametrize("pack", OCR_SAMPLE, ids=[p.stem for p in OCR_SAMPLE])
def test_light_scanner_damage_gives_the_same_answers(pack: Path) -> None:
    _check(pack, "ocr")


def test_the_shapes_are_deterministic_and_keep_the_words() -> None:
    _, text, _ = _pack(PACKS[0].stem)
    for shape in ("wrapped", "paged", "gazette", "ocr", "markdown", "web"):
        once = relay(text, shape, 7, gazette="boe", issue=0)
        assert once == relay(text, shape, 7, gazette="boe", issue=0)
        assert once != relay(text, shape, 8, gazette="boe", issue=0) or shape == "markdown"
    wrapped = relay(text, "wrapped", 7)
    body = wrapped.split("\n---\n", 1)[-1]
    assert max(len(line) for line in body.split("\n") if not line.startswith(("#", "|"))) <= 75
    assert any(line.endswith("-") and line[-2:-1].isalpha() for line in body.split("\n"))  # hyphenated
    page = relay(text, "web", 7)
    assert page.startswith("<!DOCTYPE html>") and "<script>" in page and "&" in page
    paged = relay(text, "paged", 7, gazette="boe", issue=0)
    assert "cve: BOE-A-2013-" in paged and "Sec. I.  Pág." in paged


# -- damage that destroys a rate --------------------------------------------------------------------

def _first_capped_case(case_file: CaseFile) -> Case | None:
    known = _known_failures()
    for case in case_file.cases:
        if (case.kind == "decision" and case.expect.get("status") == "determined"
                and (case.expect.get("max_rate_pct") or 0) > 0
                and f"{case_file.path.stem}:{case.id}" not in known):
            return case
    return None


def _damage_sample() -> list[tuple[str, str]]:
    """(pack, case) of one in three conventions: the first determined capped decision that passes,
    from the next convention when one has none."""
    if not SHARED.is_dir():
        return []
    sample = []
    for group in range(0, len(PACKS), 3):
        for pack in PACKS[group : group + 3]:
            case = _first_capped_case(load_cases(pack))
            if case is not None:
                sample.append((pack.stem, case.id))
                break
    return sample


DAMAGE_SAMPLE = _damage_sample()


def _decide(text: str, case: Case) -> dict:
    document = parse(text)
    if case.parties:
        document.parties = list(case.parties)
    treaty = load_treaty((document, extract_provisions(document, parties=case.parties)), case.parties)
    return as_plain(decide(treaty, dict(case.scenario)))


def test_the_damage_sample_covers_the_corpus() -> None:
    assert len(DAMAGE_SAMPLE) >= len(PACKS) // 3 - 1
    assert any(stem.endswith("_ES") for stem, _ in DAMAGE_SAMPLE) and any(stem.endswith("_EN") for stem, _ in DAMAGE_SAMPLE)


@pytest.mark.parametrize(("stem", "case_id"), DAMAGE_SAMPLE, ids=[f"{s}:{c}" for s, c in DAMAGE_SAMPLE])
def test_a_misread_rate_digit_is_never_another_rate(stem: str, case_id: str) -> None:
    case_file, text, _ = _pack(stem)
    case = next(c for c in case_file.cases if c.id == case_id)
    rate = float(case.expect["max_rate_pct"])
    decision = _decide(text, case)
    assert decision["status"] == "determined" and float(decision["max_rate_pct"]) == rate
    document = parse(text)
    caps = [p for p in extract_provisions(document, parties=case.parties).provisions
            if p.kind == "withholding_cap" and p.cite.eid == decision["eid"] and p.rate_pct is not None
            and float(p.rate_pct) == rate]
    assert caps, f"{case.id}: no cap of {rate}% at {decision['eid']}"
    start, end = caps[0].cite.span
    figure = printed_rate(text, start, end, rate)
    assert figure, f"{case.id}: {rate} is not printed in {text[start:end]!r}"
    damaged = damage_figure(text, start, end, figure, random.Random(seed_of(case.id)))
    assert damaged is not None and damaged != text
    after = _decide(damaged, case)
    assert after["status"] == "indeterminate", (
        f"{case.id}: the rate {figure} misread in {damaged[start:end][:120]!r} gave {after['status']} "
        f"{after.get('max_rate_pct')}")
