"""A share held is never a rate of tax (es/pt/en): "al menos el 25 por ciento" is a holding whatever
follows it, even when a page's unknown furniture stands between the figure and its basis ("de las
acciones con derecho a voto"); was: the 25 read as a second rate of the item and the 5 % given to any
company (confidently wrong)."""

from __future__ import annotations

import pytest
from helpers import extract_text

_INTRO = {
    "es": ("Artículo 10\nDividendos\n1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un "
           "residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.\n2. Sin embargo, dichos "
           "dividendos pueden someterse también a imposición en el Estado en que resida la sociedad que paga los dividendos, "
           "pero el impuesto así exigido no podrá exceder del:\n(a) 5 por ciento del importe bruto de los dividendos si el "
           "beneficiario efectivo es una sociedad que controla directamente al menos el 25 por ciento\n{junk}de las acciones "
           "con derecho a voto de la sociedad que paga dichos dividendos;\n(b) 15 por ciento del importe bruto de los "
           "dividendos en todos los demás casos.\n"),
    "pt": ("Artigo 10.º\nDividendos\n1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um "
           "residente do outro Estado Contratante podem ser tributados nesse outro Estado.\n2 — Esses dividendos podem, no "
           "entanto, ser igualmente tributados no Estado de que é residente a sociedade que paga os dividendos, mas o imposto "
           "assim estabelecido não excederá:\na) 5 por cento do montante bruto dos dividendos, se o seu beneficiário efectivo "
           "for uma sociedade que detenha directamente pelo menos 25 por cento\n{junk}do capital da sociedade que paga os "
           "dividendos;\nb) 15 por cento do montante bruto dos dividendos, nos restantes casos.\n"),
    "en": ("Article 10\nDividends\n1. Dividends paid by a company which is a resident of a Contracting State to a resident "
           "of the other Contracting State may be taxed in that other State.\n2. However, such dividends may also be taxed in "
           "the State of which the company paying the dividends is a resident, but the tax so charged shall not exceed:\n"
           "a) 5 per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly at "
           "least 25 per cent\n{junk}of the capital of the company paying the dividends;\nb) 15 per cent of the gross amount "
           "of the dividends in all other cases.\n"),
}
#: a page's line no furniture table knows, printed between the figure and its basis
_JUNK = "Gazette of Nowhere | Editorial office: 1 High Street, Page 4 of 9\n"


@pytest.mark.parametrize("junk", ["", _JUNK], ids=["as printed", "unknown furniture between"])
@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_a_share_held_is_never_a_rate(language: str, junk: str) -> None:
    caps = extract_text(_INTRO[language].format(junk=junk)).find(kind="withholding_cap")
    assert sorted(float(p.rate_pct) for p in caps) == [5.0, 15.0]
    low = next(p for p in caps if p.rate_pct == 5)
    assert low.conditions.get("min_capital_pct") == 25
