"""The Argentine conventions of ../shared/corpus (read from there, never copied), every accented letter lost
with the copy's encoding (dropped, or printed "?" or U+FFFD: taxtreaty.checks.damage), give the answers of
the text as printed: text/accents.py writes the words again from the language data. Measured over the seven
packs: 21-49 cases differed per pack before; now 0-4 (dropped: AR-BR, AR-CA, AR-GB, words the data does not
hold or that are words of their own, "ser" for "será") and 0-1 ("?", U+FFFD). The packs below give none."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from taxtreaty.checks import Report, load_cases, run_cases
from taxtreaty.checks.cases import CaseFile
from taxtreaty.checks.damage import ACCENT_MUTATIONS
from taxtreaty.checks.relay import differences, run_cases_on

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
