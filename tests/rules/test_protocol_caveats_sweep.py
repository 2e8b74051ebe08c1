"""Protocol points whose words change an article's answer for some payments but that no fact tells apart must
not leave the answer standing silently (the confidently-wrong sweep of session 8). Each is a caveat with the
point's words on the answers it qualifies:

- a most-favoured-nation point on technical assistance in the wording "con un Estado que es miembro de la
  Organización para la Cooperación ... a una alícuota menor a la prevista en este Convenio" (AR-CA protocol 6):
  kind `mfn` on the technical-assistance caps (not on the other royalties);
- a point on the base of the tax for technical assistance that names its item run into its paragraph's
  number ("el impuesto exigible con arreglo al apartado 2.c) se determinará previa deducción ... de los
  gastos", AR-ES protocol 4(c)): kind `tax_base` on that item, for technical assistance;
- a point on income from profit-sharing bonds or rights participating in profits ("in case one of the States
  subjects the income from profit sharing bonds to a tax on dividends, article 10 is applicable", NL-DK VI;
  "dividendos e intereses ... que impliquen participación en las ganancias", AR-DE 4): kind
  `profit_participation` on the dividend and interest answers.

Texts of our own, in the wording of those conventions."""

from __future__ import annotations

from typing import Any

import taxtreaty

ES = """CONVENIO ENTRE LA REPUBLICA ARGENTINA Y EL REINO DE ESPAÑA

ARTICULO 10
DIVIDENDOS

1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en este último Estado.

2. Sin embargo, estos dividendos pueden también someterse a imposición en el Estado Contratante en que resida la sociedad que pague los dividendos, pero si el perceptor de los dividendos es el beneficiario efectivo, el impuesto así exigido no podrá exceder del 15 por ciento del importe bruto de los dividendos.

ARTICULO 11
INTERESES

1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en este último Estado.

2. Sin embargo, estos intereses pueden también someterse a imposición en el Estado Contratante del que procedan, pero si el perceptor de los intereses es el beneficiario efectivo, el impuesto así exigido no podrá exceder del 12 por ciento del importe bruto de los intereses.

ARTICULO 12
CANONES O REGALIAS

1. Los cánones o regalías procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en este último Estado.

2. Sin embargo, dichos cánones o regalías pueden someterse a imposición en el Estado Contratante del que procedan, pero si el perceptor es el beneficiario efectivo, el impuesto así exigido no podrá exceder:
a) del 3 por ciento del importe bruto pagado por el uso o la concesión del uso de noticias;
b) del 10 por ciento del importe bruto pagado por el uso o la concesión del uso de patentes, o por la prestación de servicios de asistencia técnica;
c) del 15 por ciento del importe bruto de los cánones o regalías en los demás casos.

ARTICULO 13
GANANCIAS DE CAPITAL

1. Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.

PROTOCOLO

1. Con referencia al artículo 12:
a) En el caso de pagos por servicios de asistencia técnica, el impuesto exigible con arreglo al apartado 2.b) se determinará previa deducción exclusiva de los gastos del personal que desarrolle tales servicios en el Estado Contratante en que se presten.

2. Con referencia a los artículos 10 y 11: No obstante las disposiciones de estos artículos, los dividendos e intereses que provengan del Reino de España serán gravados con los impuestos que disponga la legislación de ese Estado, cuando se basen en derechos o acreencias que impliquen participación en las ganancias.

3. Si luego de la fecha de la firma de este Convenio, la República Argentina concluye un Acuerdo de Doble Imposición con un Estado que es miembro de la Organización para la Cooperación y el Desarrollo Económico por el que limita la imposición en el país de la fuente de los pagos por servicios de asistencia técnica previstos en el Artículo 12, a una alícuota menor a la prevista en este Convenio, esta alícuota se aplicará en forma automática a los efectos de este Convenio.
"""

EN = """CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE KINGDOM OF DENMARK

Article 10
Dividends

1. Dividends paid by a company which is a resident of one of the States to a resident of the other State may be taxed in that other State.

2. However, such dividends may also be taxed in the State of which the company paying the dividends is a resident, but if the recipient is the beneficial owner of the dividends the tax so charged shall not exceed 15 per cent of the gross amount of the dividends.

Article 11
Interest

1. Interest arising in one of the States and paid to a resident of the other State shall be taxable only in that other State if such resident is the beneficial owner of the interest.

Article 12
Royalties

1. Royalties arising in one of the States and paid to a resident of the other State shall be taxable only in that other State.

PROTOCOL

I
Ad Articles 10 and 11
It is understood that notwithstanding the provisions of article 11, in case one of the States subjects the income from profit sharing bonds to a tax on dividends, article 10 is applicable to such income arising in that State.
"""


def _decide(text: str, parties: list[str], **scenario: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(text), {"beneficial_owner": True, "date": "2024-01-01", **scenario},
                            parties=parties).to_dict()


def _kinds(decision: dict[str, Any]) -> set[str]:
    return {c["kind"] for c in decision["caveats"]}


def test_a_most_favoured_nation_point_on_technical_assistance_is_a_caveat_of_that_kind_only() -> None:
    technical = _decide(ES, ["AR", "ES"], income="royalties", source="AR", residence="ES",
                        royalty_kind="technical_services")
    assert (technical["status"], technical["max_rate_pct"]) == ("determined", "10")
    assert "mfn" in _kinds(technical)
    # the patents of the same item b) are not "pagos por servicios de asistencia técnica"
    patents = _decide(ES, ["AR", "ES"], income="royalties", source="AR", residence="ES", royalty_kind="patents")
    assert (patents["status"], patents["max_rate_pct"]) == ("determined", "10")
    assert "mfn" not in _kinds(patents)


def test_the_tax_base_of_technical_assistance_named_as_paragraph_2_b_is_a_caveat_of_that_item() -> None:
    technical = _decide(ES, ["AR", "ES"], income="royalties", source="ES", residence="AR",
                        royalty_kind="technical_services")
    assert (technical["status"], technical["max_rate_pct"]) == ("determined", "10")
    assert "tax_base" in _kinds(technical)
    patents = _decide(ES, ["AR", "ES"], income="royalties", source="ES", residence="AR", royalty_kind="patents")
    assert (patents["max_rate_pct"], "tax_base" in _kinds(patents)) == ("10", False)


def test_a_point_on_profit_participating_rights_is_a_caveat_of_the_dividend_and_interest_answers() -> None:
    interest = _decide(ES, ["AR", "ES"], income="interest", source="ES", residence="AR", recipient="company")
    assert (interest["status"], interest["max_rate_pct"]) == ("determined", "12")
    assert "profit_participation" in _kinds(interest)
    dividends = _decide(ES, ["AR", "ES"], income="dividends", source="ES", residence="AR", recipient="individual")
    assert "profit_participation" in _kinds(dividends)
    royalties = _decide(ES, ["AR", "ES"], income="royalties", source="ES", residence="AR", royalty_kind="other")
    assert "profit_participation" not in _kinds(royalties)
    # a point sending such interest to the dividend article ("article 10 is applicable to such income") is read as
    # that switch, on the fact interest_profit_sharing (tests/rules/test_decide_profit_sharing_interest.py): ordinary
    # interest lists the assumption, not the caveat
    dutch = _decide(EN, ["NL", "DK"], income="interest", source="DK", residence="NL")
    assert (dutch["status"], dutch["source_taxation"]) == ("determined", "none")
    assert "profit_participation" not in _kinds(dutch)
    assert "interest_profit_sharing" in [a["fact"] for a in dutch["assumptions"]]


def test_an_unread_point_on_technical_services_is_a_caveat_of_the_royalty_answers() -> None:
    # a point of article 12 on technical services that neither widens nor narrows the definition as read
    texts = {
        "es": ES.split("PROTOCOLO")[0] + "PROTOCOLO\n\n1. Con referencia al artículo 12: Las autoridades competentes "
              "se consultarán sobre el tratamiento de los pagos por servicios técnicos prestados por residentes de un "
              "Estado Contratante en el otro Estado.\n",
        "en": EN.split("PROTOCOL")[0] + "PROTOCOL\n\nI\nAd Article 12\nThe competent authorities shall consult each "
              "other on the treatment of payments for technical services rendered by a resident of one of the States "
              "in the other State.\n",
    }
    es = _decide(texts["es"], ["AR", "ES"], income="royalties", source="AR", residence="ES", royalty_kind="patents")
    assert es["status"] == "determined" and "protocol_point" in _kinds(es)
    quote = next(c["quote"] for c in es["caveats"] if c["kind"] == "protocol_point")
    assert "servicios técnicos" in quote
    assert "protocol_point" not in _kinds(_decide(texts["es"], ["AR", "ES"], income="interest", source="AR",
                                                  residence="ES", recipient="company"))
    en = _decide(texts["en"], ["NL", "DK"], income="royalties", source="DK", residence="NL")
    assert (en["status"], en["source_taxation"]) == ("determined", "none") and "protocol_point" in _kinds(en)


def test_an_unread_point_narrowing_the_equipment_royalty_is_a_caveat_too() -> None:
    # NL-KR shape: "payments ... for the lease of ships or aircraft under a bare boat charter contract shall not be
    # considered as payments for the use of ... industrial, commercial or scientific equipment"
    text = EN.split("PROTOCOL")[0] + ("PROTOCOL\n\nI\nWith respect to paragraph 1 of Article 12, payments received as a "
                                      "consideration for the lease of ships or aircraft under a bare boat charter contract "
                                      "shall not be considered as payments for the use of, or the right to use, "
                                      "industrial, commercial or scientific equipment.\n")
    decision = _decide(text, ["NL", "DK"], income="royalties", source="DK", residence="NL")
    assert decision["status"] == "determined" and "protocol_point" in _kinds(decision)
    assert "bare boat charter" in next(c["quote"] for c in decision["caveats"] if c["kind"] == "protocol_point")
