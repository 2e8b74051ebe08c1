"""A case an item of a list opens by excepting (Canada's conventions: "(a) except in the case of
dividends paid by a non-resident-owned investment corporation that is a resident of Canada, 5 per
cent ...") is no condition of the item: the State it names is no source State of the rate (before,
the 5% held for Canadian dividends only and a Lithuanian company's got 15%, confidently wrong), and
its payer is a fact the user states, in en/es/pt."""

from __future__ import annotations

import pytest
from helpers import extract_text

TEXTS = {
    "en": ("CONVENTION BETWEEN CANADA AND THE REPUBLIC OF ESTONIA\n\nArticle 10\nDividends\n\n1. Dividends paid by a "
           "company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed "
           "in that other State.\n\n2. However, such dividends may also be taxed in the Contracting State of which the "
           "company paying the dividends is a resident, but the tax so charged shall not exceed:\n(a) except in the case "
           "of dividends paid by a non-resident-owned investment corporation that is a resident of Canada, 5 per cent of "
           "the gross amount of the dividends if the beneficial owner is a company that controls directly or indirectly "
           "at least 10 per cent of the voting power in the company paying the dividends;\n(b) 15 per cent of the gross "
           "amount of the dividends in all other cases.\n"),
    "es": ("CONVENIO ENTRE CANADÁ Y LA REPÚBLICA DEL PERÚ\n\nArtículo 10\nDividendos\n\n1. Los dividendos pagados por una "
           "sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a "
           "imposición en ese otro Estado.\n\n2. Sin embargo, dichos dividendos pueden someterse también a imposición en el "
           "Estado Contratante en que resida la sociedad que paga los dividendos, pero el impuesto así exigido no podrá "
           "exceder del:\na) excepto en el caso de dividendos pagados por una sociedad de inversión propiedad de no "
           "residentes que sea residente de Canadá, 5 por ciento del importe bruto de los dividendos si el beneficiario "
           "efectivo es una sociedad que controle directa o indirectamente al menos el 10 por ciento de los derechos de "
           "voto de la sociedad que paga los dividendos;\nb) 15 por ciento del importe bruto de los dividendos en los "
           "demás casos.\n"),
    "pt": ("CONVENÇÃO ENTRE O CANADÁ E A REPÚBLICA PORTUGUESA\n\nArtigo 10.º\nDividendos\n\n1 — Os dividendos pagos por "
           "uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser "
           "tributados nesse outro Estado.\n\n2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado "
           "Contratante de que é residente a sociedade que paga os dividendos, mas o imposto assim estabelecido não "
           "excederá:\na) exceto no caso de dividendos pagos por uma sociedade de investimento detida por não residentes "
           "que seja residente do Canadá, 5 por cento do montante bruto dos dividendos, se o seu beneficiário efetivo for "
           "uma sociedade que controle, direta ou indiretamente, pelo menos 10 por cento dos direitos de voto da sociedade "
           "que paga os dividendos;\nb) 15 por cento do montante bruto dos dividendos, nos restantes casos.\n"),
}


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_an_excepted_payer_is_a_fact_not_the_source_state_of_the_rate(language: str) -> None:
    caps = extract_text(TEXTS[language]).find(kind="withholding_cap")
    low = next(p for p in caps if p.rate_pct == 5)
    assert low.conditions.get("paid_by_nro_investment_corporation") is False
    assert "source_state" not in low.conditions and low.state is None
    assert "unread_condition" not in low.conditions
    high = next(p for p in caps if p.rate_pct == 15)
    assert "paid_by_nro_investment_corporation" not in high.conditions
