"""Provisions: an agency wholly owned by a Government in the Brazilian wording ("uma agência ... de
propriedade exclusiva daquele Governo", BR-NL 11(3)) is an exempt institution (government_owned), never
unread words that leave every interest payment to a public recipient open. Our own text in that shape."""

from __future__ import annotations

from helpers import extract_text, one

import taxtreaty

TEXT = (
    "CONVENÇÃO ENTRE A REPÚBLICA FEDERATIVA DO BRASIL E O REINO DOS PAÍSES BAIXOS\n\nArtigo 11\nJuros\n\n"
    "1. Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem "
    "ser tributados nesse outro Estado.\n\n"
    "2. Todavia, esses juros podem ser também tributados no Estado Contratante de que provêm, e de acordo com a "
    "legislação desse Estado, mas se a pessoa que os receber for o beneficiário efetivo dos juros, o imposto assim "
    "estabelecido não poderá exceder 15 por cento do montante bruto dos juros.\n\n"
    "3. Não obstante o disposto nos parágrafos 1 e 2, os juros provenientes de um Estado Contratante e pagos ao "
    "Governo do outro Estado Contratante, a uma sua subdivisão política ou a qualquer agência (inclusive uma "
    "instituição financeira) de propriedade exclusiva daquele Governo ou subdivisão política são isentos de "
    "imposto no primeiro Estado mencionado.\n"
)


def test_an_agency_owned_only_by_the_government_is_exempt() -> None:
    exemption = one(extract_text(TEXT), "art_11__para_3", "exemption")
    assert "government_owned" in exemption.conditions["recipient_kinds"]
    assert "unread_condition" not in exemption.conditions
    decision = taxtreaty.decide(taxtreaty.parse(TEXT), {
        "date": "2024-05-01", "income": "interest", "source": "BR", "residence": "NL", "beneficial_owner": True,
        "recipient": "government_owned"}, parties=["BR", "NL"])
    assert (decision.status, decision.source_taxation) == ("determined", "none")
    # a private lender stays under the cap
    private = taxtreaty.decide(taxtreaty.parse(TEXT), {
        "date": "2024-05-01", "income": "interest", "source": "BR", "residence": "NL", "beneficial_owner": True,
        "recipient": "company", "payer": "company"}, parties=["BR", "NL"])
    assert (private.status, str(private.max_rate_pct)) == ("determined", "15")


TEXT_ES = (
    "CONVENIO ENTRE LA REPÚBLICA DEL PERÚ Y EL REINO DE LOS PAÍSES BAJOS\n\nArtículo 11\nIntereses\n\n"
    "1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante "
    "pueden someterse a imposición en ese otro Estado.\n\n"
    "2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado Contratante del que "
    "procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado Contratante, el "
    "impuesto así exigido no podrá exceder del 15 por ciento del importe bruto de los intereses.\n\n"
    "3. No obstante lo dispuesto en los apartados 1 y 2, los intereses procedentes de un Estado Contratante y "
    "pagados al Gobierno del otro Estado Contratante, a una de sus subdivisiones políticas o a cualquier agencia "
    "(incluida una institución financiera) de propiedad exclusiva de ese Gobierno o subdivisión política estarán "
    "exentos de impuesto en el Estado mencionado en primer lugar.\n"
)


def test_an_agency_owned_only_by_the_government_is_exempt_es() -> None:
    exemption = one(extract_text(TEXT_ES), "art_11__para_3", "exemption")
    assert "government_owned" in exemption.conditions["recipient_kinds"]
    assert "unread_condition" not in exemption.conditions
