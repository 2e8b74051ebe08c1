"""Income connected with a permanent establishment, on a payment article in which no paragraph sending it to
article 7 or 14 was read (a copy whose accents were lost leaves "vinculados efectivamente" unread; a text cut
short): the article's cap is not given for it. Before, interest connected with a PE got the 15 % cap
(AR-RU with its accented letters dropped; confidently wrong, article 7 applies)."""

from __future__ import annotations

import pytest

import taxtreaty

NO_SWITCH = {
    "en": """CONVENTION BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF GHANA

Article 11
Interest
1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
2. However, such interest may also be taxed in the Contracting State in which it arises, but the tax so charged shall not exceed 15 per cent of the gross amount of the interest.

Article 12
Royalties
1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
""",
    "es": """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y EL REINO DE NORUEGA

Artículo 11
Intereses
1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado Contratante del que procedan, pero el impuesto así exigido no podrá exceder del 15 por ciento del importe bruto de los intereses.

Artículo 12
Regalías
1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
""",
}


def _decide(text: str, **facts: object) -> dict:
    source = "AR" if "ARGENTINA" in text else "GH"
    scenario = {"income": "interest", "source": source, "residence": "NO", "beneficial_owner": True, **facts}
    return taxtreaty.decide(taxtreaty.parse(text), scenario).to_dict()


@pytest.mark.parametrize("language", sorted(NO_SWITCH))
def test_pe_connected_income_gets_no_cap_where_no_switch_was_read(language: str) -> None:
    text = NO_SWITCH[language]
    connected = _decide(text, pe_connected=True)
    assert connected["status"] == "indeterminate" and connected["max_rate_pct"] is None
    assert any("permanent establishment" in r and "article 7 or 14" in r for r in connected["reasons"])
    # not connected: the cap, as before
    plain = _decide(text, pe_connected=False)
    assert (plain["status"], str(plain["max_rate_pct"])) == ("determined", "15")


def test_a_read_switch_still_sends_the_income_to_article_7() -> None:
    head, tail = NO_SWITCH["en"].split("\nArticle 12")
    text = head + (
        "3. The provisions of paragraphs 1 and 2 shall not apply if the beneficial owner of the interest, being a "
        "resident of a Contracting State, carries on business in the other Contracting State in which the interest "
        "arises through a permanent establishment situated therein and the debt-claim in respect of which the "
        "interest is paid is effectively connected with such permanent establishment. In such case the provisions "
        "of Article 7 shall apply.\n") + "\nArticle 12" + tail
    connected = _decide(text, pe_connected=True)
    assert (connected["status"], connected["article_applied"]) == ("determined", "7")
