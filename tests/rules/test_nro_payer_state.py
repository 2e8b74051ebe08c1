""""(a) except in the case of dividends paid by a non-resident-owned investment corporation that is a resident of
Canada, 5 per cent ...": the excepted payer is a Canadian company, so the fact is asked of dividends paid from
Canada only. Before, the other State's dividends asked it too (an Estonian company is never one). en/es/pt."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import taxtreaty

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "provisions"))
from test_excepted_case import TEXTS

OTHER = {"en": "EE", "es": "PE", "pt": "PT"}


def _decide(language: str, source: str, residence: str, **facts: object) -> dict:
    document = taxtreaty.parse(TEXTS[language])
    scenario = {"income": "dividends", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", "voting_pct": 50, **facts}
    return taxtreaty.decide(document, scenario).to_dict()


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_the_nro_payer_is_asked_of_canadian_dividends_only(language: str) -> None:
    other = _decide(language, OTHER[language], "CA")
    assert (other["status"], other["max_rate_pct"]) == ("determined", "5")
    canadian = _decide(language, "CA", OTHER[language])
    assert (canadian["status"], canadian["missing_facts"]) == ("indeterminate", ["paid_by_nro_investment_corporation"])
    nro = _decide(language, "CA", OTHER[language], paid_by_nro_investment_corporation=True)
    assert (nro["status"], nro["max_rate_pct"]) == ("determined", "15")
