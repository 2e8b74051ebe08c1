"""An exemption worded as a source State that "may not" tax ("interest arising in a Contracting State ... may
not be taxed in the first-mentioned State if: (a) the interest is derived by a Contracting State ...; (b) ..."),
the wording of Australia's recent agreements: its items are exemptions (`exempt` phrases). Before, the
paragraph set nothing and a government's or a central bank's interest got the general 10 per cent
(confidently wrong). Sentences are our own, in the shape of those texts; es/pt say the same in their words."""

from __future__ import annotations

from decimal import Decimal

import pytest

import taxtreaty

EN = (
    "Article 11\nInterest\n"
    "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed "
    "in that other State.\n"
    "2. However, that interest may also be taxed in the Contracting State in which it arises, but if the beneficial "
    "owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed 10 per "
    "cent of the gross amount of the interest.\n"
    "3. Notwithstanding paragraph 2, interest arising in a Contracting State and beneficially owned by a resident of "
    "the other Contracting State {verb} if:\n"
    "(a) the interest is derived by the Government of that other State or by a local authority thereof; or\n"
    "(b) the interest is derived by the central bank of that other State.\n"
)
ES = (
    "Artículo 11\nIntereses\n"
    "1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante "
    "pueden someterse a imposición en ese otro Estado.\n"
    "2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado Contratante del que "
    "procedan, pero si el beneficiario efectivo de los intereses es residente del otro Estado Contratante, el "
    "impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los intereses.\n"
    "3. No obstante lo dispuesto en el apartado 2, los intereses procedentes de un Estado Contratante cuyo "
    "beneficiario efectivo sea un residente del otro Estado Contratante {verb} si:\n"
    "a) los intereses son percibidos por el Gobierno de ese otro Estado o por una entidad local del mismo; o\n"
    "b) los intereses son percibidos por el banco central de ese otro Estado.\n"
)
PT = (
    "Artigo 11\nJuros\n"
    "1. Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem "
    "ser tributados nesse outro Estado.\n"
    "2. No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o "
    "beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido "
    "não poderá exceder 10 por cento do montante bruto dos juros.\n"
    "3. Não obstante o disposto no número 2, os juros provenientes de um Estado Contratante cujo beneficiário "
    "efectivo seja um residente do outro Estado Contratante {verb} se:\n"
    "a) os juros forem pagos ao Governo desse outro Estado ou a uma sua subdivisão política ou autarquia local; ou\n"
    "b) os juros forem pagos ao banco central desse outro Estado.\n"
)


@pytest.mark.parametrize(("text", "verb"), [
    (EN, "may not be taxed in the first-mentioned State"),
    (EN, "may not be taxed in the State in which it arises"),
    (ES, "no podrán someterse a imposición en el Estado mencionado en primer lugar"),
    (PT, "não podem ser tributados no Estado mencionado em primeiro lugar"),
])
@pytest.mark.parametrize(("recipient", "rate"), [("government", "0"), ("central_bank", "0"), ("individual", "10")])
def test_a_source_state_that_may_not_tax_exempts(text: str, verb: str, recipient: str, rate: str) -> None:
    doc = taxtreaty.parse(text.format(verb=verb))
    decision = taxtreaty.decide(doc, {"income": "interest", "source": "AU", "residence": "NZ",
                                      "beneficial_owner": True, "recipient": recipient}, parties=["AU", "NZ"])
    assert (decision.status, decision.max_rate_pct) == ("determined", Decimal(rate)), decision.to_dict()["reasons"]
