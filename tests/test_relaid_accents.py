"""The Argentine conventions of ../shared/corpus (read from there, never copied), every accented letter lost
with the copy's encoding (dropped, or printed "?" or U+FFFD: taxtreaty.checks.damage), give the answers of
the text as printed: text/accents.py writes the words again from the language data. Measured over the seven
packs: 21-49 cases differed per pack before; now 0-4 (dropped: AR-BR, AR-CA, AR-GB, words the data does not
hold or that are words of their own, "ser" for "será") and 0-1 ("?", U+FFFD). The packs below give none."""

from __future__ import annotations

import dataclasses
import random
import re
from functools import cache
from pathlib import Path

import pytest

from taxtreaty.checks import Report, load_cases, run_cases
from taxtreaty.checks.cases import CaseFile
from taxtreaty.checks.damage import ACCENT_MUTATIONS
from taxtreaty.checks.relay import differences, relay, run_cases_on, seed_of

REAL = Path(__file__).resolve().parent / "cases" / "real"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus"
#: the packs whose damaged copies give every printed answer (every damage)
PACKS = ["AR-AU_convenio_ES", "AR-DE_convenio_ES", "AR-RU_convenio_ES"]

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpus is not beside the repository")


@cache
def _pack(stem: str) -> tuple[CaseFile, str, Report]:
    case_file = load_cases(REAL / f"{stem}.yaml")
    text = (case_file.path.parent / case_file.cases[0].treaty).resolve().read_text(encoding="utf-8")
    return case_file, text, run_cases(case_file)


@pytest.mark.parametrize("damage", sorted(ACCENT_MUTATIONS))
@pytest.mark.parametrize("stem", PACKS)
def test_a_copy_that_lost_its_accents_gives_the_printed_answers(stem: str, damage: str) -> None:
    case_file, text, original = _pack(stem)
    damaged = ACCENT_MUTATIONS[damage](text, random.Random(0))
    assert damaged != text
    changed = [d.line(damage) for d in differences(original, run_cases_on(case_file, damaged))]
    assert not changed, "\n".join(changed)


#: a mismatch that is another answer, not an abstention ("got null", "got indeterminate")
_ANOTHER_ANSWER = re.compile(r"(?:max_rate_pct|source_taxation): expected [^,]*, got (?!null)|status: expected \w+, got "
                             r"(?:determined|not_covered)")
#: a Portuguese pack of our own conventions (tests/cases/treaties), two gazettes' shapes
PT_PACK = Path(__file__).resolve().parent / "cases" / "gazette_pt_dre.yaml"


@cache
def _treaties(path: Path) -> list[tuple[CaseFile, str, Report]]:
    """The pack's cases per treaty, with the treaty's text and their report on it as printed."""
    case_file = load_cases(path)
    out = []
    for treaty in sorted({case.treaty for case in case_file.cases}):
        part = dataclasses.replace(case_file, cases=[case for case in case_file.cases if case.treaty == treaty])
        out.append((part, (case_file.path.parent / treaty).resolve().read_text(encoding="utf-8"), run_cases(part)))
    return out


@pytest.mark.parametrize("damage", sorted(ACCENT_MUTATIONS))
@pytest.mark.parametrize("shape", ["web", "gazette"])
def test_a_portuguese_copy_that_lost_its_accents_gives_no_other_answer(shape: str, damage: str) -> None:
    """'só podem' printed 's podem', 'não' printed 'no' (a word of its own), in a copy whose web page kept half
    its letters as entities ('n&atilde;o'): the exclusive rule of shipping, other income and pensions stays
    exclusive ('s podem' read as 'podem' gave the source State an unlimited right), 'a no ser que' stays the
    employment article's exception. An answer may become indeterminate, never another one."""
    for part, text, original in _treaties(PT_PACK):
        damaged = ACCENT_MUTATIONS[damage](relay(text, shape, seed_of(PT_PACK.stem)), random.Random(0))
        changed = [d.line(f"{shape}+{damage}") for d in differences(original, run_cases_on(part, damaged))
                   if any(_ANOTHER_ANSWER.match(m) for m in d.relaid.mismatches)]
        assert not changed, "\n".join(changed)
