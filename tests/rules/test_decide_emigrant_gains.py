"""Decisions on a right kept on a former resident's gains (provisions/emigrants.py, rules/gains.py): the State of the
company may tax the shares of an individual who was its resident within the years the paragraph counts, and the
paragraph it sets aside (the residual one: only the residence State) applies otherwise; a protocol point giving one
State that right leaves the answer open on the facts it names and on the words it has that no fact answers. Never
"the source State may not tax" while a fact the user can give decides it."""

from __future__ import annotations

from typing import Any

import pytest
from provisions.test_emigrants import TEXTS

import taxtreaty

SHARES = {"income": "capital_gains", "gain_property": "shares"}
EMIGRANT = {"recipient": "individual", "former_source_resident": True, "company_state": "EE"}

# (facts, status, source_taxation, eid, missing facts): gains from Estonia (no protocol point for it)
CASES = [
    (
        {},
        "indeterminate",
        None,
        None,
        ["recipient", "former_source_resident", "source_residence_ended_years", "company_state"],
    ),
    ({**EMIGRANT, "source_residence_ended_years": 10}, "determined", "unlimited", "art_2__para_3", []),
    ({**EMIGRANT, "source_residence_ended_years": 11}, "determined", "none", "art_2__para_2", []),
    ({**EMIGRANT, "former_source_resident": False}, "determined", "none", "art_2__para_2", []),
    ({**EMIGRANT, "recipient": "company"}, "determined", "none", "art_2__para_2", []),
    # shares of a company of a third State: the residual paragraph
    (
        {**EMIGRANT, "source_residence_ended_years": 2, "company_state": "DE"},
        "determined",
        "none",
        "art_2__para_2",
        [],
    ),
    ({**EMIGRANT}, "indeterminate", None, None, ["source_residence_ended_years"]),
]


def ask(language: str, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(TEXTS[language]), {**SHARES, **facts}).to_dict()


@pytest.mark.parametrize("language", sorted(TEXTS))
@pytest.mark.parametrize(("facts", "status", "source", "eid", "missing"), CASES)
def test_the_state_of_the_company_keeps_its_right_on_an_emigrants_shares(
    language: str, facts: dict, status: str, source: str | None, eid: str | None, missing: list[str]
) -> None:
    d = ask(language, source="EE", residence="NO", **facts)
    assert (d["status"], d["source_taxation"], d["eid"]) == (status, source, eid)
    assert d["missing_facts"] == missing
    assert not d["unread"]


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_protocol_point_for_one_state_leaves_its_gains_open_on_its_facts_and_its_words(
    language: str,
) -> None:
    d = ask(language, source="NO", residence="EE")
    assert d["status"] == "indeterminate" and d["source_taxation"] is None
    assert d["missing_facts"] == [
        "recipient",
        "former_source_resident",
        "source_residence_ended_years",
        "company_state",
    ]
    # the point's own condition ("provided that such individual holds a substantial interest") stays words
    (unread,) = [u for u in d["unread"] if u["eid"].startswith("protocol_")]
    assert unread["quote"].startswith(("provided that", "siempre que", "desde que"))
    # a company alienating: neither the paragraph nor the point; only the residence State
    d = ask(language, source="NO", residence="EE", recipient="company")
    assert (d["status"], d["source_taxation"], d["eid"]) == ("determined", "none", "art_2__para_2")
