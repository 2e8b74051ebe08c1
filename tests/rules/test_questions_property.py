"""Property (issue 12): giving any missing fact an indeterminate decision asks for turns it into
one of the candidates it listed, never into something else; and each answer a question offers
leads where it says."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from conftest import CORPUS, FIXTURES, seed_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taxtreaty.pipeline import load_treaty
from taxtreaty.rules import scenario_from
from taxtreaty.rules.questions import explain


def _sources() -> list[tuple[str, tuple[str, str]]]:
    found = [(str(seed_path("000")), ("PT", "TL")), (str(seed_path("001")), ("PT", "CN"))]
    for name, parties in (("NL-EE_convention_EN.txt", ("NL", "EE")), ("NL-LV_convention_EN.txt", ("NL", "LV")),
                          ("NL-KR_convention_EN.txt", ("NL", "KR")), ("NL-VN_convention_EN.txt", ("NL", "VN")),
                          ("NL-UG_convention_EN.txt", ("NL", "UG")), ("NL-GR_convention_EN.txt", ("NL", "GR"))):
        path = CORPUS / "nl" / name
        if path.exists():
            found.append((str(path), parties))
    for name, parties in (("boe_espana_chile.txt", ("ES", "CL")), ("ocr_argentina_uruguay.txt", ("AR", "UY"))):
        path = FIXTURES / "redteam" / "es" / name
        if path.exists():
            found.append((str(path), parties))
    return found


SOURCES = _sources()


@cache
def _treaty(index: int) -> Any:
    path, parties = SOURCES[index]
    return load_treaty(path, list(parties))


def _matches(decision: Any, candidates: list[dict[str, Any]]) -> bool:
    """The determined answer is one a candidate gave: who taxes and at what rate (a candidate whose
    rate the text does not fix, or whose words are missing, takes any)."""
    rate = None if decision.max_rate_pct is None else str(decision.max_rate_pct)
    return any(c["source_taxation"] == "unknown"
               or (c["source_taxation"] == decision.source_taxation and (c["max_rate_pct"] is None or c["max_rate_pct"] == rate))
               for c in candidates)


scenarios = st.fixed_dictionaries({
    "income": st.sampled_from(["dividends", "interest", "royalties"]),
}, optional={
    "beneficial_owner": st.booleans(),
    "recipient": st.sampled_from(["individual", "company", "bank", "pension_fund", "government", "central_bank",
                                  "government_owned", "named_institution"]),
    "capital_pct": st.sampled_from(["5", "10", "20", "25", "30", "50", "75"]),
    "held_months": st.integers(0, 40),
    "royalty_kind": st.sampled_from(["equipment", "copyright", "films", "software", "patents", "other"]),
    "loan_kind": st.sampled_from(["bank_loan", "sale_on_credit", "government_guaranteed", "other"]),
})


@pytest.mark.skipif(not SOURCES, reason="no texts to decide on")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, max(0, len(SOURCES) - 1)), facts=scenarios, reverse=st.booleans(),
       pick=st.integers(0, 50), answer=st.integers(0, 50))
def test_giving_an_asked_fact_leads_to_a_listed_candidate(index: int, facts: dict[str, Any], reverse: bool,
                                                          pick: int, answer: int) -> None:
    treaty = _treaty(index)
    source, residence = SOURCES[index][1][::-1] if reverse else SOURCES[index][1]
    raw = {**facts, "source": source, "residence": residence, "date": "2024-05-01"}
    decision = explain(treaty, scenario_from(raw))
    if decision.status != "indeterminate" or not decision.questions:
        return
    assert "unread_condition" not in decision.missing_facts
    assert all(q["fact"] in decision.missing_facts for q in decision.questions)
    candidates = [c.to_dict() for c in decision.candidates]
    question = decision.questions[pick % len(decision.questions)]
    chosen = question["answers"][answer % len(question["answers"])]
    after = explain(treaty, scenario_from({**raw, **question.get("assumes", {}), question["fact"]: chosen["values"][0]}))
    led = chosen["leads_to"]
    assert (after.status, after.source_taxation, after.eid) == (led["status"], led["source_taxation"], led["eid"])
    if after.status == "determined":
        assert _matches(after, candidates), (question["fact"], chosen["values"][0], after.to_dict(), candidates)
