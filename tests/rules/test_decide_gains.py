"""Decisions on a capital gains article (rules/gains.py, rules/allocate.py): the property alienated
(`gain_property`) chooses the paragraph, asked when not given; a paragraph on shares turns on the share of their
value from immovable property and on the alienator's participation (`participation_pct`); a paragraph that sets
others aside in words no fact answers leaves them open; a paragraph's own caps limit its gain."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from provisions.test_gains import GAINS

import taxtreaty
from taxtreaty.rules import decide, load_treaty

TEXTS = GAINS  # the article 13 of the fictional States, in each language (tests/provisions/test_gains.py)
BASE = {"income": "capital_gains", "source": "NO", "residence": "EE"}

# (facts, status, source_taxation, eid, missing facts)
CASES = [
    ({}, "indeterminate", None, None, ["gain_property"]),  # then the facts of the paragraphs on shares
    ({"gain_property": "immovable"}, "determined", "unlimited", "art_13__para_1", []),
    ({"gain_property": "pe_property"}, "determined", "unlimited", "art_13__para_2", []),
    ({"gain_property": "ships_aircraft"}, "determined", "none", "art_13__para_3", []),
    ({"gain_property": "other"}, "determined", "none", "art_13__para_7", []),
    ({"gain_property": "shares"}, "indeterminate", None, None, ["immovable_value_pct", "participation_pct"]),
    # neither test met: paragraph 6's words do not matter, the residual paragraph applies
    ({"gain_property": "shares", "immovable_value_pct": 50, "participation_pct": 24}, "determined", "none", "art_13__para_7", []),
    # a test met, but paragraph 6 ("shall not apply ... quoted on a recognised stock exchange") is words no fact answers
    ({"gain_property": "shares", "immovable_value_pct": 51, "participation_pct": 0}, "indeterminate", None, None, []),
    ({"gain_property": "shares", "immovable_value_pct": 0, "participation_pct": 25}, "indeterminate", None, None, []),
]


@pytest.fixture(scope="module", params=sorted(TEXTS))
def treaty(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("gains") / f"no_ee_{request.param}.txt"
    path.write_text(TEXTS[request.param], encoding="utf-8")
    return load_treaty(str(path), ["NO", "EE"])


@pytest.mark.parametrize(("facts", "status", "source", "eid", "missing"), CASES)
def test_the_property_alienated_chooses_the_paragraph(treaty, facts, status, source, eid, missing) -> None:
    decision = decide(treaty, {**BASE, **facts}).to_dict()
    assert decision["status"] == status
    # the property first: it chooses the paragraph whose other facts are asked
    assert decision["missing_facts"][: len(missing)] == missing and (missing or not decision["missing_facts"])
    if status == "determined":
        assert (decision["source_taxation"], decision["eid"]) == (source, eid)
    elif not missing:
        # open on words of the text: they are named, never a fact to give
        assert any(u["eid"] == "art_13__para_6" for u in decision["unread"]) or \
            any("paragraphs 4 and 5" in u["quote"] or "apartados 4 y 5" in u["quote"] or "n.os 4 e 5" in u["quote"]
                for u in decision["unread"])


def test_the_property_alienated_is_asked_with_its_choices(treaty) -> None:
    decision = taxtreaty.decide(treaty, BASE).to_dict()
    (question,) = [q for q in decision["questions"] if q["fact"] == "gain_property"]
    leads = {a["value"]: a["leads_to"]["eid"] for a in question["answers"]}
    assert leads["immovable"] == "art_13__para_1" and leads["other"] == "art_13__para_7"


def test_shares_say_what_the_mli_asks() -> None:
    from taxtreaty.rules import scenario_from

    assert scenario_from({**BASE, "gain_property": "shares"}).gain_on_shares is True
    assert scenario_from({**BASE, "gain_property": "immovable"}).gain_on_shares is False
    assert scenario_from({**BASE, "gain_property": "other"}).gain_on_shares is None


@pytest.mark.parametrize(("facts", "rate", "eid", "missing"), [
    # AR-ES 13(4): "el impuesto así exigido no podrá exceder: a) del 10 por ciento de la ganancia cuando se trate de
    # una participación directa en el capital de al menos el 25 por ciento; b) del 15 por ciento ... en los demás casos"
    ({"gain_property": "shares", "participation_pct": 25}, "10", "art_13__para_4__point_a", []),
    ({"gain_property": "shares", "participation_pct": 24}, "15", "art_13__para_4__point_b", []),
    ({"gain_property": "shares"}, None, None, ["participation_pct"]),
    # the caps are the paragraph on shares': a gain on immovable property is not capped by them
    ({"gain_property": "immovable"}, None, "art_13__para_1", []),
])
def test_a_paragraphs_caps_limit_its_gain_only(facts, rate, eid, missing) -> None:
    doc = taxtreaty.parse_file(CORPUS / "es" / "AR-ES_convenio_ES.txt")
    decision = taxtreaty.decide(doc, {"income": "capital_gains", "source": "AR", "residence": "ES", **facts}).to_dict()
    assert decision["missing_facts"] == missing
    if not missing:
        assert decision["status"] == "determined" and decision["eid"] == eid
        assert decision["max_rate_pct"] == rate
        assert decision["source_taxation"] == ("limited" if rate else "unlimited")


def test_an_exception_of_the_paragraph_chosen_leaves_it_open() -> None:
    # AR-DE 13(2): the permanent establishment's rule, then "Sin embargo, las ganancias originadas en la enajenación
    # de bienes muebles mencionados en el apartado 3 del artículo 22, sólo pueden ...": not the rule, as if unsaid
    doc = taxtreaty.parse_file(CORPUS / "es" / "AR-DE_convenio_ES.txt")
    decision = taxtreaty.decide(doc, {"income": "capital_gains", "source": "AR", "residence": "DE",
                                      "gain_property": "pe_property"}).to_dict()
    assert decision["status"] == "indeterminate"
    assert {c["source_taxation"] for c in decision["candidates"]} == {"unlimited", "none"}
