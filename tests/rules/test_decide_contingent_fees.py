"""A protocol point that takes fees for technical services out of the royalties unless their amount is computed on
results ("... shall be deemed not to be payments received as a consideration for information concerning industrial,
commercial or scientific experience, except to the extent that the amounts of such payments are based on production,
sales, performance, profits ...": NL-EE and NL-LV, ad article 12): the answer for such fees turns on the fact
`fee_contingent_on_results` (yes: the royalty rate; no: business profits, no source tax without a permanent
establishment; not given: indeterminate naming it), asked for that kind of payment only. The texts are our own."""

from __future__ import annotations

import pytest

import taxtreaty

_EN = """CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF ESTONIA

Article 7
Business profits

1. The profits of an enterprise of a Contracting State shall be taxable only in that State unless the enterprise carries on business in the other Contracting State through a permanent establishment situated therein. If the enterprise carries on business as aforesaid, the profits of the enterprise may be taxed in the other State but only so much of them as is attributable to that permanent establishment.

Article 12
Royalties

1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.

2. However, such royalties may also be taxed in the Contracting State in which they arise and according to the laws of that State, but if the recipient is the beneficial owner of the royalties, the tax so charged shall not exceed 8 per cent of the gross amount of the royalties.

3. The term "royalties" as used in this Article means payments of any kind received as a consideration for the use of, or the right to use, any copyright of literary, artistic or scientific work, any patent, trade mark, design or model, plan, secret formula or process, or for information concerning industrial, commercial or scientific experience.

PROTOCOL

I. Ad Article 12

Fees paid for technical services, such as engineering studies or supervisory work, shall be deemed not to be payments for information concerning industrial, commercial or scientific experience, except to the extent that the fees are based on production, turnover or profits of the payer.
"""

_ES = """CONVENIO ENTRE EL REINO DE LOS PAÍSES BAJOS Y LA REPÚBLICA DE ESTONIA

Artículo 7
Beneficios empresariales

1. Los beneficios de una empresa de un Estado Contratante solamente pueden someterse a imposición en ese Estado, a no ser que la empresa realice su actividad en el otro Estado Contratante por medio de un establecimiento permanente situado en él. Si la empresa realiza su actividad de dicha manera, los beneficios de la empresa pueden someterse a imposición en el otro Estado, pero sólo en la medida en que puedan atribuirse a ese establecimiento permanente.

Artículo 12
Regalías

1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, estas regalías pueden también someterse a imposición en el Estado Contratante del que procedan y de acuerdo con la legislación de ese Estado, pero si el beneficiario efectivo es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 8 por ciento del importe bruto de las regalías.

3. El término "regalías" empleado en este artículo significa las cantidades de cualquier clase pagadas por el uso o la concesión de uso de derechos de autor sobre obras literarias, artísticas o científicas, de patentes, marcas de fábrica o de comercio, dibujos o modelos, planos, fórmulas o procedimientos secretos, o por informaciones relativas a experiencias industriales, comerciales o científicas.

PROTOCOLO

1. Con referencia al artículo 12:
Los pagos por servicios técnicos, tales como estudios de ingeniería o trabajos de supervisión, no se considerarán pagos por informaciones relativas a experiencias industriales, comerciales o científicas, salvo en la medida en que su importe se calcule en función de la producción, las ventas o los beneficios del pagador.
"""

_PT = """CONVENÇÃO ENTRE O REINO DOS PAÍSES BAIXOS E A REPÚBLICA DA ESTÓNIA

Artigo 7.º
Lucros das empresas

1. Os lucros de uma empresa de um Estado Contratante só podem ser tributados nesse Estado, a não ser que a empresa exerça a sua atividade no outro Estado Contratante por meio de um estabelecimento estável aí situado. Se a empresa exercer a sua atividade deste modo, os seus lucros podem ser tributados no outro Estado, mas unicamente na medida em que forem imputáveis a esse estabelecimento estável.

Artigo 12.º
Royalties

1. As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.

2. No entanto, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm e de acordo com a legislação desse Estado, mas se o beneficiário efetivo das royalties for residente do outro Estado Contratante, o imposto assim estabelecido não excederá 8 por cento do montante bruto das royalties.

3. O termo "royalties", usado neste Artigo, significa as retribuições de qualquer natureza atribuídas pelo uso ou pela concessão do uso de um direito de autor sobre uma obra literária, artística ou científica, de uma patente, de uma marca de fabrico ou de comércio, de um desenho ou de um modelo, de um plano, de uma fórmula ou de um processo secretos, ou por informações respeitantes a uma experiência adquirida no setor industrial, comercial ou científico.

PROTOCOLO

1. Ad artigo 12.º
Os pagamentos por serviços técnicos, tais como estudos de engenharia ou trabalhos de supervisão, não serão considerados pagamentos por informações respeitantes a uma experiência adquirida, exceto na medida em que os respetivos montantes sejam calculados com base na produção, nas vendas ou nos lucros do pagador.
"""

TEXTS = {"en": _EN, "es": _ES, "pt": _PT}
_BASE = {"source": "EE", "residence": "NL", "beneficial_owner": True, "recipient": "company"}


def _decide(language: str, **facts: object) -> dict:
    doc = taxtreaty.parse(TEXTS[language])
    return taxtreaty.decide(doc, {**_BASE, **facts}, parties=["NL", "EE"]).to_dict()


@pytest.mark.parametrize("language", sorted(TEXTS))
@pytest.mark.parametrize(("facts", "expected"), [
    # computed on the payer's production or profits: a payment for know-how, the royalty cap
    ({"income": "technical_services", "fee_contingent_on_results": True}, ("determined", "limited", "8", "12")),
    ({"income": "royalties", "royalty_kind": "technical_services", "fee_contingent_on_results": True},
     ("determined", "limited", "8", "12")),
    # any other fee: no royalty, business profits (no permanent establishment: the source State may not tax)
    ({"income": "technical_services", "fee_contingent_on_results": False, "pe_connected": False},
     ("determined", "none", "0", "7")),
    # a royalty of another kind is not asked the fact
    ({"income": "royalties", "royalty_kind": "patents"}, ("determined", "limited", "8", "12")),
])
def test_the_fee_basis_chooses_the_article(language: str, facts: dict, expected: tuple) -> None:
    decision = _decide(language, **facts)
    got = (decision["status"], decision["source_taxation"], decision["max_rate_pct"], decision["article_applied"])
    assert got == expected
    assert "fee_contingent_on_results" not in decision["missing_facts"]


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_without_the_fact_the_answer_is_open_and_names_it(language: str) -> None:
    decision = _decide(language, income="technical_services")
    assert decision["status"] == "indeterminate"
    assert decision["missing_facts"] == ["fee_contingent_on_results"]
    answers = {a["value"]: a["leads_to"] for q in decision["questions"] for a in q["answers"]}
    assert (answers["true"]["max_rate_pct"], answers["false"]["source_taxation"]) == ("8", "none")
    assert {c["max_rate_pct"] for c in decision["candidates"]} >= {"8"}


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_royalty_of_no_kind_asks_the_kind_first(language: str) -> None:
    decision = _decide(language, income="royalties")
    assert decision["status"] == "indeterminate"
    assert "royalty_kind" in decision["missing_facts"]
    assert "fee_contingent_on_results" not in decision["missing_facts"]


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_yes_cites_the_point(language: str) -> None:
    decision = _decide(language, income="technical_services", fee_contingent_on_results=True)
    assert any(t["eid"].startswith("protocol") for t in decision["trace"])
    # the point's words are read: no caveat says they are not
    assert not [c for c in decision["caveats"] if c["kind"] == "protocol_point"]


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_the_point_is_a_provision_with_the_fact(language: str) -> None:
    doc = taxtreaty.parse(TEXTS[language])
    found = [p for p in taxtreaty.provisions(doc, parties=["NL", "EE"]).provisions
             if p.cite.eid.startswith("protocol") and p.values.get("reclassified_to")]
    assert [(p.topic, p.conditions) for p in found] == [
        ("royalties", {"income_subtype": "technical_services", "fee_contingent_on_results": False})]
    assert found[0].values["reclassified_to"] == ["7"]


@pytest.mark.parametrize(("language", "exception"), [
    ("en", ", except to the extent that the fees are based on production, turnover or profits of the payer"),
    ("es", ", salvo en la medida en que su importe se calcule en función de la producción, las ventas o los beneficios del pagador"),
    ("pt", ", exceto na medida em que os respetivos montantes sejam calculados com base na produção, nas vendas ou nos lucros do pagador"),
])
def test_a_point_that_only_narrows_asks_nothing(language: str, exception: str) -> None:
    # without the exception the fees are simply no royalties: business profits, the fact never asked
    assert exception in TEXTS[language]
    doc = taxtreaty.parse(TEXTS[language].replace(exception, ""))
    decision = taxtreaty.decide(doc, {**_BASE, "income": "technical_services", "pe_connected": False},
                                parties=["NL", "EE"]).to_dict()
    assert (decision["status"], decision["source_taxation"], decision["article_applied"]) == ("determined", "none", "7")
