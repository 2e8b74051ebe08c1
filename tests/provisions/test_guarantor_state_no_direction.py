"""A State named inside a guarantor's name ("a loan made, guaranteed or insured by the Export Development
Corporation of Canada or by the Swedish Export Credits Guarantee Board") is no source State: the exemption
holds for interest arising in either State. Before, the one State named and a payer's word anywhere in the
clause ("interest arising in a Contracting State") made Canada the source State, so Swedish-source interest
on such a loan got a determined 10 per cent. A State right after the payer's word still is the source State.
Texts of our own in en/es/pt, in the wording of a Canadian convention."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.provisions.parties import direction
from taxtreaty.provisions.vocabulary import fold_same_length, require_phrases

PARTIES = ["CA", "SE"]


@pytest.mark.parametrize(("language", "clause", "expected"), [
    ("en", "interest arising in a Contracting State shall be exempt from tax in that State if it is paid in respect of a "
           "loan made, guaranteed or insured by the Export Development Corporation of Canada or by the Swedish Export "
           "Credits Guarantee Board", {}),
    ("es", "los intereses procedentes de un Estado Contratante estarán exentos de impuesto en ese Estado si se pagan en "
           "razón de un préstamo garantizado o asegurado por la Corporación para el Desarrollo de las Exportaciones del "
           "Canadá", {}),
    ("pt", "os juros provenientes de um Estado Contratante são isentos de imposto nesse Estado se forem pagos em relação "
           "a um empréstimo garantido ou segurado pela Sociedade para o Desenvolvimento das Exportações do Canadá", {}),
    ("en", "interest arising in a Contracting State and paid to the Export Development Corporation of Canada shall be "
           "exempt", {}),
    ("en", "interest paid by a company which is a resident of Canada shall be exempt", {"source_state": "CA"}),
    ("es", "los intereses procedentes de Suecia estarán exentos si se pagan en razón de un préstamo garantizado",
     {"source_state": "SE"}),
    # the Portuguese contractions of "de" and "por" with the article ("provenientes da Suécia", "pagos pelo"):
    # the payer's word all the same (before, no direction: the rule held for interest from either State)
    ("pt", "os juros provenientes da Suécia são isentos se forem pagos em relação a um empréstimo garantido",
     {"source_state": "SE"}),
    ("pt", "os juros provenientes do Canadá são isentos de imposto", {"source_state": "CA"}),
])
def test_a_state_in_a_guarantor_s_or_recipient_s_name_is_no_source_state(language: str, clause: str,
                                                                         expected: dict) -> None:
    assert direction(fold_same_length(clause), require_phrases(language), PARTIES) == expected


TEXT = ("CONVENTION BETWEEN CANADA AND THE KINGDOM OF SWEDEN\n\nArticle 7\nBusiness Profits\n\n1. The profits of an "
        "enterprise of a Contracting State shall be taxable only in that State unless the enterprise carries on business "
        "in the other Contracting State through a permanent establishment situated therein.\n\nArticle 11\nInterest\n\n"
        "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in "
        "that other State.\n\n2. However, such interest may also be taxed in the Contracting State in which it arises and "
        "according to the laws of that State, but if the beneficial owner of the interest is a resident of the other "
        "Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the interest.\n\n"
        "3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be exempt from "
        "tax in that State if it is paid in respect of a loan made, guaranteed or insured by the Export Development "
        "Corporation of Canada or by the Swedish Export Credits Guarantee Board.\n")


@pytest.mark.parametrize(("source", "residence"), [("SE", "CA"), ("CA", "SE")])
def test_the_exemption_for_a_named_guarantor_holds_in_both_directions(source: str, residence: str) -> None:
    document = taxtreaty.parse(TEXT)
    scenario = {"income": "interest", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", "date": "2024-01-01"}
    decision = taxtreaty.decide(document, scenario).to_dict()
    # the guarantor is a fact the user gives by its name (lender_name), never words left unread, and
    # neither institution is read as the recipient
    assert decision["status"] == "indeterminate" and decision["missing_facts"] == ["lender_name"]
    assert not decision["unread"]
    plain = taxtreaty.decide(document, {**scenario, "loan_kind": "other"}).to_dict()
    assert (plain["status"], plain["max_rate_pct"]) == ("determined", "10")
    for name in ("Export Development Corporation", "Swedish Export Credits Guarantee Board"):
        exempt = taxtreaty.decide(document, {**scenario, "lender_name": name}).to_dict()
        assert (exempt["status"], exempt["source_taxation"]) == ("determined", "none")
    other = taxtreaty.decide(document, {**scenario, "lender_name": "Royal Bank of Canada"}).to_dict()
    assert (other["status"], other["max_rate_pct"]) == ("determined", "10")
