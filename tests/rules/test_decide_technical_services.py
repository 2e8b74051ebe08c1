"""Fees for technical (or included) services as an income a scenario names (`income: technical_services`, royalties
with `royalty_kind: technical_services`: data/rules/scenario.yaml `income_facts`): the rate of an article on such fees
("Fees for technical services", "Fees for included services", "Honorarios por servicios técnicos", "Remunerações por
serviços técnicos"), the royalties article's where its heading names them too, the business-profits article where
the royalties' definition does not name them, and an abstention where that article is not in the text. Before,
`income: technical_services` was refused, and a patent royalty took the 8% of an article headed "Fees for included
services" ("included services" was no word of the kind). Sentences are our own paraphrases of the wordings."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty
from taxtreaty.rules.scenario import ScenarioError, scenario_from

ROY: dict[str, str] = {"en": ("Article 12\nRoyalties\n1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.\n"
 "2. However, such royalties may also be taxed in the Contracting State in which they arise and according to the laws of that State, but if the beneficial owner of the royalties is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the royalties.\n"
 "3. The term \"royalties\" as used in this Article means payments of any kind received as a consideration for the use of, or the right to use, any copyright of literary, artistic or scientific work, any patent, trade mark, design or model, plan, secret formula or process, or for information concerning industrial, commercial or scientific experience.\n"),
 "es": ("Artículo 12\nRegalías\n1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.\n"
 "2. Sin embargo, dichas regalías pueden también someterse a imposición en el Estado Contratante del que procedan y de acuerdo con la legislación de ese Estado, pero si el beneficiario efectivo de las regalías es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de las regalías.\n"
 "3. El término \"regalías\" empleado en este artículo significa las cantidades de cualquier clase pagadas por el uso, o la concesión de uso, de derechos de autor sobre obras literarias, artísticas o científicas, de patentes, marcas, diseños o modelos, planos, fórmulas o procedimientos secretos, o por informaciones relativas a experiencias industriales, comerciales o científicas.\n"),
 "pt": ("Artigo 12\nRoyalties\n1. As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.\n"
 "2. No entanto, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm e de acordo com a legislação desse Estado, mas se o beneficiário efectivo das royalties for um residente do outro Estado Contratante, o imposto assim estabelecido não poderá exceder 10 por cento do montante bruto das royalties.\n"
 "3. O termo \"royalties\", usado neste Artigo, significa as retribuições de qualquer natureza atribuídas pelo uso ou pela concessão do uso de um direito de autor sobre uma obra literária, artística ou científica, de uma patente, de uma marca de fabrico ou de comércio, de um desenho ou de um modelo, de um plano, de uma fórmula ou de um processo secretos, ou por informações respeitantes a uma experiência adquirida no sector industrial, comercial ou científico.\n")}
FTS: dict[str, str] = {"en": "Article 13\nFees for technical services\n1. Fees for technical services arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.\n2. However, such fees for technical services may also be taxed in the Contracting State in which they arise and according to the laws of that State, but if the beneficial owner of the fees is a resident of the other Contracting State, the tax so charged shall not exceed 8 per cent of the gross amount of the fees.\n",
 "es": "Artículo 13\nHonorarios por servicios técnicos\n1. Los honorarios por servicios técnicos procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.\n2. Sin embargo, dichos honorarios por servicios técnicos pueden también someterse a imposición en el Estado Contratante del que procedan y de acuerdo con la legislación de ese Estado, pero si el beneficiario efectivo de los honorarios es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 8 por ciento del importe bruto de los honorarios.\n",
 "pt": "Artigo 13\nRemunerações por serviços técnicos\n1. As remunerações por serviços técnicos provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.\n2. No entanto, essas remunerações por serviços técnicos podem ser igualmente tributadas no Estado Contratante de que provêm, mas se o beneficiário efectivo das remunerações for um residente do outro Estado Contratante, o imposto assim estabelecido não poderá exceder 8 por cento do montante bruto das remunerações.\n"}

PROFITS = {
    "en": "Article 7\nBusiness profits\n1. The profits of an enterprise of a Contracting State shall be taxable only in that "
          "State unless the enterprise carries on business in the other Contracting State through a permanent "
          "establishment situated therein.\n",
    "es": "Artículo 7\nBeneficios empresariales\n1. Los beneficios de una empresa de un Estado Contratante solamente "
          "pueden someterse a imposición en ese Estado, a no ser que la empresa realice su actividad en el otro Estado "
          "Contratante por medio de un establecimiento permanente situado en él.\n",
    "pt": "Artigo 7\nLucros das empresas\n1. Os lucros de uma empresa de um Estado Contratante só podem ser tributados "
          "nesse Estado, a não ser que a empresa exerça a sua actividade no outro Estado Contratante por meio de um "
          "estabelecimento estável aí situado.\n",
}
INCLUDED = FTS["en"].replace("Fees for technical services", "Fees for included services").replace(
    "fees for technical services", "fees for included services")
LANGUAGES = ("en", "es", "pt")


def _decide(text: str, **facts: Any) -> dict[str, Any]:
    scenario = {"source": "AA", "residence": "BB", "beneficial_owner": True, "recipient": "company", **facts}
    return taxtreaty.decide(taxtreaty.parse(text), scenario, parties=["AA", "BB"]).to_dict()


@pytest.mark.parametrize(("text", "fees", "patents"), [
    *[(ROY[lang] + FTS[lang], ("determined", "8", "art_13__para_2"), ("determined", "10", "art_12__para_2"))
      for lang in LANGUAGES],
    (ROY["en"] + INCLUDED, ("determined", "8", "art_13__para_2"), ("determined", "10", "art_12__para_2")),
    *[(PROFITS[lang] + ROY[lang], ("determined", "0", "art_7__para_1"), ("determined", "10", "art_12__para_2"))
      for lang in LANGUAGES],
    # no business-profits article in the text (a fragment of article 12): never the royalties' 10%
    *[(ROY[lang], ("indeterminate", None, None), ("determined", "10", "art_12__para_2")) for lang in LANGUAGES],
])
def test_fees_for_technical_services_take_the_rate_of_their_own_article(
        text: str, fees: tuple[Any, ...], patents: tuple[Any, ...]) -> None:
    d = _decide(text, income="technical_services")
    assert (d["status"], d["max_rate_pct"], d["eid"]) == fees
    same = _decide(text, income="royalties", royalty_kind="technical_services")
    assert [d[k] for k in ("status", "max_rate_pct", "eid", "reasons")] == [same[k] for k in ("status", "max_rate_pct", "eid", "reasons")]
    p = _decide(text, income="royalties", royalty_kind="patents")
    assert (p["status"], p["max_rate_pct"], p["eid"]) == patents


def test_the_abstention_says_the_article_that_decides_is_not_in_the_text() -> None:
    d = _decide(ROY["en"], income="technical_services")
    assert d["missing_facts"] == [] and any("business-profits article" in r and "not in the source text" in r
                                            for r in d["reasons"])


def test_one_rate_for_royalties_and_fees_for_included_services() -> None:
    text = ("Article 12\nRoyalties and fees for included services\n"
            "1. Royalties and fees for included services arising in a Contracting State and paid to a resident of the "
            "other Contracting State may be taxed in that other State.\n"
            "2. However, such royalties and fees for included services may also be taxed in the Contracting State in "
            "which they arise and according to the laws of that State; but if the beneficial owner of the royalties or "
            "fees for included services is a resident of the other Contracting State, the tax so charged shall not "
            "exceed 15 per cent of the gross amount of the royalties or fees for included services.\n")
    d = _decide(PROFITS["en"] + text, income="technical_services")
    assert (d["status"], d["max_rate_pct"], d["eid"]) == ("determined", "15", "art_12__para_2")


def test_technical_services_with_another_kind_of_royalty_is_refused() -> None:
    with pytest.raises(ScenarioError, match="royalty_kind"):
        _decide(ROY["en"], income="technical_services", royalty_kind="patents")


def test_the_income_is_kept_as_given() -> None:
    scenario = scenario_from({"income": "technical_services", "source": "AA", "residence": "BB"})
    assert (scenario.income, scenario.royalty_kind, scenario.topic) == ("technical_services", "technical_services", "royalties")
