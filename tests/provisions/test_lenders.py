"""Interest rules for loans "efectuados, garantizados o asegurados por" one institution the text names, or by
institutions specified in exchanged notes (AR-CA 11(3)(b)/(c) shape: provisions/lenders.py), each read as the
facts a user states (the lender's or guarantor's name, `lender_name`; an institution of the notes,
`institution_in_notes`), never as the recipient; "sólo serán sometidos a imposición en" is residence-only for the one direction the words
name; a "No obstante los apartados 1 y 2" rule is tried before the rules it sets aside (rules/allocate.py).
The texts are our own: an invented convention between Chile and Canada with an invented institution."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

INTEREST = """CONVENIO ENTRE LA REPÚBLICA DE CHILE Y CANADÁ PARA EVITAR LA DOBLE IMPOSICIÓN

ARTICULO 11
INTERESES

1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante podrán someterse a imposición en este último Estado.

2. Sin embargo, estos intereses también pueden someterse a imposición en el Estado Contratante del que procedan, pero si el receptor de los intereses es el beneficiario efectivo, el impuesto así exigido no puede exceder del 15 por ciento del monto bruto de esos intereses.

3. No obstante las disposiciones del apartado 2:
a) los intereses originados en Chile y pagados a un residente de Canadá solo podrán someterse a imposición en Canadá si el interés es pagado en relación a un préstamo efectuado, garantizado o asegurado, por la Corporación de Fomento de las Exportaciones (Export Promotion Corporation);
b) los intereses originados en Canadá y pagados a un residente de Chile sólo serán sometidos a imposición en Chile si los mismos son pagados en relación a un préstamo efectuado, garantizado o asegurado por una institución chilena, de acuerdo con lo especificado y acordado en notas intercambiadas entre las autoridades competentes de los Estados Contratantes.
"""
BASE = {"income": "interest", "beneficial_owner": True, "payer": "company"}


def _decide(source: str, residence: str, **facts: Any) -> dict[str, Any]:
    scenario = {**BASE, "source": source, "residence": residence, **facts}
    return taxtreaty.decide(taxtreaty.parse(INTEREST), scenario, parties=["CL", "CA"]).to_dict()


def test_the_lender_clauses_are_read_as_facts() -> None:
    ps = taxtreaty.provisions(taxtreaty.parse(INTEREST), parties=["CL", "CA"])
    rules = [p.conditions for p in ps.provisions if p.allocation == "residence_only"]
    named = [c for c in rules if c.get("lender_names")]
    assert named == [{"residence_state": "CA", "source_state": "CL",
                      "lender_names": ["Corporación de Fomento de las Exportaciones (Export Promotion Corporation)"]}]
    notes = [c for c in rules if c.get("institution_in_notes")]
    assert len(notes) == 2 and all(c["source_state"] == "CA" and "unread_condition" not in c for c in notes)
    # the institution the clause names is the lender or guarantor, not a recipient
    assert not any(c.get("recipient_names") for c in rules)


@pytest.mark.parametrize(("source", "residence", "facts", "status", "rate"), [
    # a loan the institution made, guaranteed or insured, by its name (either of the names printed), whoever
    # the recipient is
    ("CL", "CA", {"recipient": "company", "lender_name": "Export Promotion Corporation"}, "determined", "0"),
    ("CL", "CA", {"recipient": "bank", "lender_name": "Corporación de Fomento de las Exportaciones"}, "determined", "0"),
    # another lender or guarantor: the 15 %
    ("CL", "CA", {"recipient": "company", "loan_kind": "other", "lender_name": "Banco del Estado"}, "determined", "15"),
    ("CL", "CA", {"recipient": "company", "loan_kind": "government_guaranteed", "lender_name": "Banco del Estado"},
     "determined", "15"),
    # a loan no government body guarantees, to a company (not the institution itself): none of the institution's
    ("CL", "CA", {"recipient": "company", "loan_kind": "other"}, "determined", "15"),
    # the lender not said, where it may be the institution: asked (a recipient's name does not say who made the loan)
    ("CL", "CA", {"recipient": "company", "loan_kind": "government_guaranteed"}, "indeterminate", None),
    ("CL", "CA", {"recipient": "named_institution", "recipient_name": "Export Promotion Corporation"},
     "indeterminate", None),
    # the other direction: the institutions of the notes
    ("CA", "CL", {"recipient": "company", "loan_kind": "other"}, "determined", "15"),
    ("CA", "CL", {"recipient": "named_institution", "loan_kind": "other", "institution_in_notes": True}, "determined", "0"),
    ("CA", "CL", {"recipient": "named_institution", "loan_kind": "other", "institution_in_notes": False},
     "determined", "15"),
    ("CA", "CL", {"recipient": "company", "loan_kind": "government_guaranteed", "institution_in_notes": True},
     "determined", "0"),
])
def test_each_lender_gets_its_answer(source: str, residence: str, facts: dict[str, Any], status: str,
                                     rate: str | None) -> None:
    decision = _decide(source, residence, **facts)
    assert (decision["status"], decision["max_rate_pct"]) == (status, rate)


def test_the_institutions_of_the_notes_and_the_named_lender_are_asked_about() -> None:
    decision = _decide("CA", "CL", recipient="named_institution", loan_kind="other")
    assert decision["status"] == "indeterminate"
    assert "institution_in_notes" in decision["missing_facts"]
    named = _decide("CL", "CA", recipient="company", loan_kind="government_guaranteed")
    assert named["missing_facts"] == ["lender_name"] and not named["unread"]


def _first_item(text: str) -> list[dict[str, Any]]:
    ps = taxtreaty.provisions(taxtreaty.parse(text), parties=["CL", "CA"])
    return [p.conditions for p in ps.provisions if p.cite.eid == "art_11__para_3__point_a" and p.allocation == "residence_only"]


def test_other_words_after_the_lender_stay_unread() -> None:
    text = INTEREST.replace("(Export Promotion Corporation);", "(Export Promotion Corporation) cuando el prestatario exporte bienes de capital;")
    first = _first_item(text)
    assert len(first) == 1 and "unread_condition" in first[0]


def test_a_term_after_the_lender_is_read_with_it() -> None:
    text = INTEREST.replace("(Export Promotion Corporation);", "(Export Promotion Corporation) por un plazo no inferior a tres años;")
    own = next(c for c in _first_item(text) if "lender_names" in c)
    assert own["lender_names"] == ["Corporación de Fomento de las Exportaciones (Export Promotion Corporation)"]
    assert own["loan_term_min_years"] == 3 and "unread_condition" not in own


OTHER_INCOME = """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y EL REINO UNIDO

ARTICULO 21
OTRAS RENTAS

1. Las rentas que no se traten en los Artículos anteriores, cuyo beneficiario efectivo sea residente de un Estado Contratante, sólo serán sometidas a imposición en ese Estado.

2. No obstante las disposiciones del apartado 1, los elementos de la renta de un residente de un Estado Contratante que no se traten en los Artículos anteriores y tengan su origen en el otro Estado Contratante también pueden someterse a imposición en ese otro Estado.
"""


def test_a_notwithstanding_rule_comes_before_the_rule_it_sets_aside() -> None:
    scenario = {"income": "other_income", "source": "AR", "residence": "GB", "beneficial_owner": True,
                "recipient": "individual"}
    decision = taxtreaty.decide(taxtreaty.parse(OTHER_INCOME), scenario, parties=["AR", "GB"]).to_dict()
    assert (decision["status"], decision["source_taxation"], decision["eid"]) == ("determined", "unlimited", "art_21__para_2")
