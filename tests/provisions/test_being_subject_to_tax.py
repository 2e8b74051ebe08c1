"""A participial aside after the recipient that states its own taxation ("if the beneficial owner is a company, being
subject to tax in that other State on the dividends, which holds directly at least 10 per cent of the capital"; es
"estando sometida a imposición"; pt "estando sujeita a imposto") is the fact recipient_subject_to_tax. Before, the
words were unread and the rate abstained naming no fact. Texts of our own in en/es/pt."""

from __future__ import annotations

import pytest

import taxtreaty

TEXTS = {
    "en": ("CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF GHANA\n\nArticle 10\nDividends\n\n"
           "1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other "
           "Contracting State may be taxed in that other State.\n\n2. However, such dividends may also be taxed in the "
           "Contracting State of which the company paying the dividends is a resident, but the tax so charged shall "
           "not exceed 5 per cent of the gross amount of the dividends if the beneficial owner is a company, {aside}, "
           "which holds directly at least 10 per cent of the capital of the company paying the dividends.\n"),
    "es": ("CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE GHANA\n\nArtículo 10\nDividendos\n\n1. Los dividendos "
           "pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden "
           "someterse a imposición en ese otro Estado.\n\n2. Sin embargo, estos dividendos pueden someterse también a "
           "imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero el impuesto así "
           "exigido no podrá exceder del 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es "
           "una sociedad, {aside}, que posea directamente al menos el 10 por ciento del capital de la sociedad que paga "
           "los dividendos.\n"),
    "pt": ("CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DO GANA\n\nArtigo 10.º\nDividendos\n\n1 — Os dividendos "
           "pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem "
           "ser tributados nesse outro Estado.\n\n2 — No entanto, esses dividendos podem ser igualmente tributados no "
           "Estado Contratante de que é residente a sociedade que paga os dividendos, mas o imposto assim estabelecido "
           "não excederá 5 por cento do montante bruto dos dividendos se o beneficiário efectivo for uma sociedade, "
           "{aside}, que detenha directamente pelo menos 10 por cento do capital da sociedade que paga os dividendos.\n"),
}
TAXED = {"en": "being subject to tax in that other State on the dividends",
         "es": "estando sometida a imposición en ese otro Estado sobre los dividendos",
         "pt": "estando sujeita a imposto nesse outro Estado sobre os dividendos"}
NOT_TAXED = {"en": "not being subject to tax in that other State on the dividends",
             "es": "no estando sometida a imposición en ese otro Estado sobre los dividendos",
             "pt": "não estando sujeita a imposto nesse outro Estado sobre os dividendos"}


def _five(language: str, aside: str) -> dict:
    ps = taxtreaty.provisions(taxtreaty.parse(TEXTS[language].format(aside=aside))).provisions
    return next(p.conditions for p in ps if p.kind == "withholding_cap" and p.rate_pct == 5)


@pytest.mark.parametrize(("asides", "value"), [(TAXED, True), (NOT_TAXED, False)], ids=["taxed", "not-taxed"])
@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_an_aside_on_the_recipient_s_taxation_is_the_fact(language: str, asides: dict, value: bool) -> None:
    conditions = _five(language, asides[language])
    assert conditions.get("recipient_subject_to_tax") is value
    assert "unread_condition" not in conditions
    assert conditions.get("min_capital_pct") == 10
