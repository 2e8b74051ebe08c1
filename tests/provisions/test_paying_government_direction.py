"""One named State's government as the payer ("interest paid by the Government of Sweden", es "pagados por el
Gobierno de Suecia", pt "pagos pelo Governo da Suécia") gives the source State: the State whose government pays.
Before, the government's words were blanked as a recipient's, so the clause had no direction (or took the other
State it named, "exempt from tax in Canada", for the source). A government that receives ("paid to the Government
of Sweden") still gives none. Texts of our own in en/es/pt."""

from __future__ import annotations

import pytest

from taxtreaty.provisions.parties import direction
from taxtreaty.provisions.vocabulary import fold_same_length, require_phrases

PARTIES = ["CA", "SE"]


@pytest.mark.parametrize(("language", "clause", "expected"), [
    ("en", "interest paid by the Government of Sweden shall be taxable only in Canada", {"source_state": "SE"}),
    ("en", "interest arising in a Contracting State and paid by the Government of Sweden to a resident of Canada "
           "shall be taxable only in Canada", {"source_state": "SE", "residence_state": "CA"}),
    ("es", "los intereses pagados por el Gobierno de Suecia sólo pueden someterse a imposición en Canadá",
     {"source_state": "SE"}),
    ("es", "los intereses procedentes de un Estado Contratante y pagados por el Gobierno de Suecia a un residente de "
           "Canadá sólo pueden someterse a imposición en Canadá", {"source_state": "SE", "residence_state": "CA"}),
    ("pt", "os juros pagos pelo Governo da Suécia só podem ser tributados no Canadá", {"source_state": "SE"}),
    ("pt", "os juros provenientes de um Estado Contratante e pagos pelo Governo da Suécia a um residente do Canadá "
           "só podem ser tributados no Canadá", {"source_state": "SE", "residence_state": "CA"}),
    # the government receives: no direction from it
    ("en", "interest paid to the Government of Sweden shall be exempt", {}),
    ("es", "los intereses pagados al Gobierno de Suecia estarán exentos", {}),
])
def test_a_named_state_s_government_as_payer_gives_the_source_state(language: str, clause: str, expected: dict) -> None:
    assert direction(fold_same_length(clause), require_phrases(language), PARTIES) == expected


TEXT = ("CONVENTION BETWEEN CANADA AND THE KINGDOM OF SWEDEN\n\nArticle 11\nInterest\n\n"
        "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in "
        "that other State.\n\n2. However, such interest may also be taxed in the Contracting State in which it arises, but "
        "if the beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall "
        "not exceed 10 per cent of the gross amount of the interest.\n\n3. Notwithstanding the provisions of paragraph 2, "
        "interest paid by the Government of Sweden to a resident of Canada shall be taxable only in Canada.\n\n"
        "Article 12\nRoyalties\n\n1. Royalties arising in a Contracting State and paid to a resident of the other "
        "Contracting State may be taxed in that other State.\n")


def test_the_exemption_holds_for_the_paying_state_s_interest_only() -> None:
    import taxtreaty

    document = taxtreaty.parse(TEXT)
    base = {"income": "interest", "beneficial_owner": True, "recipient": "company", "payer": "government",
            "loan_kind": "other", "date": "2024-01-01"}
    swedish = taxtreaty.decide(document, {**base, "source": "SE", "residence": "CA"}, parties=PARTIES).to_dict()
    assert (swedish["status"], swedish["source_taxation"], swedish["eid"]) == ("determined", "none", "art_11__para_3")
    canadian = taxtreaty.decide(document, {**base, "source": "CA", "residence": "SE"}, parties=PARTIES).to_dict()
    assert (canadian["status"], canadian["max_rate_pct"]) == ("determined", "10")
