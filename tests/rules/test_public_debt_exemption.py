"""An exemption of the interest on public debt that names no payer ("interest on public debt shall be exempt from
tax in the State in which it arises"): the public debt is the government's or a political subdivision's, so the
exemption asks who pays. Before, no condition was read and every interest was exempt, confidently wrong.
Texts of our own in en/es/pt."""

from __future__ import annotations

import pytest

import taxtreaty

TEXTS = {
    "en": ("CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF GHANA\n\nArticle 11\nInterest\n\n"
           "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed "
           "in that other State.\n\n2. However, such interest may also be taxed in the Contracting State in which it "
           "arises and according to the laws of that State, but if the recipient is the beneficial owner of the interest "
           "the tax so charged shall not exceed 10 per cent of the gross amount of the interest.\n\n3. Notwithstanding "
           "the provisions of paragraph 2, interest on public debt shall be exempt from tax in the State in which it "
           "arises.\n"),
    "es": ("CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE GHANA\n\nArtículo 11\nIntereses\n\n1. Los intereses "
           "procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a "
           "imposición en ese otro Estado.\n\n2. Sin embargo, estos intereses pueden someterse también a imposición en el "
           "Estado Contratante del que procedan y según la legislación de ese Estado, pero si el perceptor es el "
           "beneficiario efectivo, el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los "
           "intereses.\n\n3. No obstante lo dispuesto en el apartado 2, los intereses de la deuda pública estarán exentos "
           "de impuesto en el Estado del que procedan.\n"),
    "pt": ("CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DO GANA\n\nArtigo 11.º\nJuros\n\n1 — Os juros "
           "provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados "
           "nesse outro Estado.\n\n2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de "
           "que provêm e de acordo com a legislação desse Estado, mas se o beneficiário efectivo for um residente do "
           "outro Estado Contratante, o imposto assim estabelecido não excederá 10 por cento do montante bruto dos "
           "juros.\n\n3 — Não obstante o disposto no n.º 2, os juros da dívida pública são isentos de imposto no Estado "
           "de que provêm.\n"),
}
PARTIES = {"en": ("GH", "NL"), "es": ("GH", "ES"), "pt": ("GH", "PT")}


def _decide(language: str, **facts: object) -> dict:
    source, residence = PARTIES[language]
    document = taxtreaty.parse(TEXTS[language])
    scenario = {"income": "interest", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", **facts}
    return taxtreaty.decide(document, scenario).to_dict()


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_public_debt_exemption_asks_the_payer(language: str) -> None:
    decision = _decide(language)
    assert (decision["status"], decision["missing_facts"]) == ("indeterminate", ["payer"])


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_public_debt_exemption_holds_for_the_government_only(language: str) -> None:
    government = _decide(language, payer="government")
    assert (government["status"], government["source_taxation"]) == ("determined", "none")
    company = _decide(language, payer="company")
    assert (company["status"], company["max_rate_pct"]) == ("determined", "10")
