"""Pension caps that are the lesser of a rate and a rate defined in words, for periodic payments, with
annuities capped apart (AR-CA 18, as Canadian conventions write it), in en, es and pt: (text, facts, expected)."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

HEADS = {
    "en": "CONVENTION BETWEEN CANADA AND THE PORTUGUESE REPUBLIC FOR THE AVOIDANCE OF DOUBLE TAXATION\n\n",
    "es": "CONVENIO ENTRE LA REPUBLICA ARGENTINA Y CANADA PARA EVITAR LA DOBLE IMPOSICION\n\n",
    "pt": "CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E O CANADÁ PARA EVITAR A DUPLA TRIBUTAÇÃO\n\n",
}
PARTIES = {"en": ["CA", "PT"], "es": ["AR", "CA"], "pt": ["PT", "CA"]}
ARTICLE = {
    "en": ("Article 18\nPensions and Annuities\n\n"
           "1. Pensions and annuities arising in a Contracting State and paid to a resident of the other Contracting State "
           "may be taxed in that other State.\n\n"
           "2. Pensions arising in a Contracting State and paid to a resident of the other Contracting State may also be "
           "taxed in the State in which they arise, and according to the law of that State. However, in the case of "
           "periodic pension payments, the tax so charged shall not exceed the lesser of:\n\n"
           "a) 15 per cent of the gross amount of the payment; and\n\n"
           "b) the rate determined by reference to the amount of tax that the recipient of the payment would otherwise "
           "be required to pay for the year on the total amount of the periodic pension payments received if he were "
           "resident in the Contracting State in which the payment arises.\n\n"
           "3. Annuities arising in a Contracting State and paid to a resident of the other Contracting State may also "
           "be taxed in the State in which they arise, but the tax so charged shall not exceed 15 per cent of the "
           "portion thereof that is subject to tax in that State. However, this limitation shall not apply to lump-sum "
           "payments arising on the surrender, cancellation, redemption, sale or other alienation of an annuity.\n\n"),
    "es": ("ARTICULO 18\nPensiones y anualidades\n\n"
           "1. Las pensiones y anualidades originadas en un Estado Contratante y pagadas a un residente del otro Estado "
           "Contratante pueden someterse a imposición en ese otro Estado.\n\n"
           "2. Las pensiones originadas en un Estado Contratante y pagadas a un residente del otro Estado Contratante "
           "también pueden someterse a imposición en el Estado donde se originen, de acuerdo con la legislación de ese "
           "Estado. Sin embargo, en los casos de pagos de pensiones periódicas, el impuesto así exigido no excederá del "
           "menor de:\n\n"
           "a) el 15 por ciento del importe bruto del pago, y\n\n"
           "b) la alícuota determinada de acuerdo con el monto del impuesto que el perceptor debería haber pagado "
           "durante el año sobre la suma total de los pagos periódicos de pensiones, en el caso que fuera residente "
           "del Estado Contratante en el que dicho pago se origina.\n\n"
           "3. Las anualidades originadas en un Estado Contratante y pagadas a un residente del otro Estado Contratante "
           "también pueden someterse a imposición en el Estado donde provienen, pero el impuesto así exigido no podrá "
           "exceder del 15 por ciento de la parte sujeta a imposición en ese Estado. Sin embargo, esta limitación no "
           "procederá sobre los pagos de sumas totales originados en la cancelación o venta de anualidades.\n\n"),
    "pt": ("Artigo 18.º\nPensões e anuidades\n\n"
           "1. As pensões e anuidades provenientes de um Estado Contratante e pagas a um residente do outro Estado "
           "Contratante podem ser tributadas nesse outro Estado.\n\n"
           "2. As pensões provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante "
           "podem também ser tributadas no Estado de onde provêm, de acordo com a legislação desse Estado. Todavia, no "
           "caso de pagamentos periódicos de pensões, o imposto assim estabelecido não excederá o menor dos seguintes "
           "montantes:\n\n"
           "a) 15 por cento do montante bruto do pagamento; e\n\n"
           "b) a taxa determinada por referência ao montante do imposto que o beneficiário teria de pagar no ano "
           "sobre o total dos pagamentos periódicos de pensões se fosse residente do Estado Contratante de onde "
           "provém o pagamento.\n\n"
           "3. As anuidades provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante "
           "podem também ser tributadas no Estado de onde provêm, mas o imposto assim estabelecido não excederá 15 por "
           "cento da parte sujeita a imposto nesse Estado. Todavia, esta limitação não se aplica aos pagamentos "
           "globais resultantes do resgate, cancelamento ou venda de uma anuidade.\n\n"),
}
END = {
    "en": "IN WITNESS WHEREOF the undersigned, duly authorised thereto, have signed this Convention.\n",
    "es": "EN FE DE LO CUAL, los signatarios, debidamente autorizados al efecto, firman el presente Convenio.\n",
    "pt": "EM FÉ DO QUE, os signatários, devidamente autorizados para o efeito, assinaram a presente Convenção.\n",
}
PENSION = {"income": "pensions", "recipient": "individual", "payer": "company"}

CASES = [
    # a periodic pension: the limit is at most 15 % and waits on the rate (b) gives
    ({"payment_periodic": True, "annuity": False}, ("indeterminate", None, None, ["lesser_of_rate_pct"])),
    # (b) given lower than 15 %: (b) applies; higher: (a)
    ({"payment_periodic": True, "annuity": False, "lesser_of_rate_pct": "9.5"}, ("determined", "9.5", "art_18__para_2__point_b", [])),
    ({"payment_periodic": True, "annuity": False, "lesser_of_rate_pct": "30"}, ("determined", "15", "art_18__para_2__point_a", [])),
    # a lump sum: no cap, the source State's law
    ({"payment_periodic": False, "annuity": False}, ("determined", None, "art_18__para_2", [])),
    # an annuity: 15 %, but the limitation's exception is in words no reader reads
    ({"annuity": True, "payment_periodic": True}, ("indeterminate", None, None, [])),
]


def _text(language: str) -> str:
    return HEADS[language] + ARTICLE[language] + END[language]


@pytest.mark.parametrize("language", ["en", "es", "pt"])
@pytest.mark.parametrize(("facts", "expected"), CASES)
def test_pension_lesser_of_periodic_and_annuities(language: str, facts: dict[str, Any], expected: tuple) -> None:
    source, residence = PARTIES[language]
    decision = taxtreaty.decide(taxtreaty.parse(_text(language)), {**PENSION, "source": source, "residence": residence,
                                                                  **facts}, parties=PARTIES[language]).to_dict()
    status, rate, eid, missing = expected
    assert (decision["status"], decision["max_rate_pct"], decision["eid"], decision["missing_facts"]) == (status, rate, eid, missing)
    if rate is None and eid is not None:
        assert decision["source_taxation"] == "unlimited"
    if missing:  # the open answer says its upper bound and cites the words of (b)
        assert any("at most 15%" in r for r in decision["reasons"])
        assert "art_18__para_2__point_b" in {u["eid"] for u in decision["unread"]}
    if facts.get("annuity"):  # the exception's own words are what the answer waits on
        assert [u["eid"] for u in decision["unread"]] == ["art_18__para_3"]
        assert any(w in decision["unread"][0]["quote"] for w in ("this limitation", "esta limitación", "esta limitação"))


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_a_pension_article_without_annuities_apart_does_not_ask_for_the_kind(language: str) -> None:
    # only an article with a paragraph on annuities alone narrows its rules by `annuity`
    text = _text(language)
    paragraph_3 = text.index("3. ")
    text = text[:paragraph_3] + END[language]
    source, residence = PARTIES[language]
    decision = taxtreaty.decide(taxtreaty.parse(text), {**PENSION, "source": source, "residence": residence},
                                parties=PARTIES[language]).to_dict()
    assert "annuity" not in decision["missing_facts"]
    assert decision["missing_facts"] == ["payment_periodic", "lesser_of_rate_pct"]
