"""Provisions, the thresholds reader (`readers/thresholds.py`): days, months, years and sums."""

from __future__ import annotations

from helpers import EN, PT

UN = "un_india_malaysia.txt"


def test_un_students_six_years():
    (ex,) = EN.at(UN, "art_20__para_nn_1", "exemption")
    assert ex.allocation == "exempt_in_host" and ex.values == {"years": 6}


def test_pt_employment_183_days_in_any_twelve_months() -> None:
    threshold = PT.one("pt_dr_protocolo.txt", "art_15__para_2__point_a", "threshold")
    assert threshold.values == {"days": 183, "period_months": 12}
    assert PT.one("pt_dr_protocolo.txt", "art_15__para_2", "allocation").allocation == "residence_only"
