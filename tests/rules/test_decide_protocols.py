"""Protocol points qualify the articles they name (issue 11), in en, es and pt: a point that
withdraws a rate for the residents of one State, adds a rate, lists the institutions of an
exemption, reclassifies an income, or is a most-favoured-nation clause. Fixtures are short texts
in the conventions' own wordings (paraphrased); the real texts are read from ../shared."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from conftest import CORPUS

import taxtreaty

DIVIDENDS = {
    "en": (
        "Convention between the Kingdom of the Netherlands and the Republic of Korea\n\n"
        "Article 10\nDividends\n\n"
        "1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other "
        "Contracting State may be taxed in that other State.\n\n"
        "2. However, such dividends may also be taxed in the Contracting State of which the company paying the "
        "dividends is a resident, but the tax so charged shall not exceed:\n"
        "a) 5 per cent of the gross amount of the dividends if the recipient is a company which holds directly "
        "at least 25 per cent of the capital of the company paying the dividends;\n"
        "b) 15 per cent of the gross amount of the dividends in all other cases.\n\n"
        "PROTOCOL\n\nAt the moment of signing the Convention the undersigned have agreed as follows:\n\n"
        "I\nAd Article 10\n"
        "The provisions of sub-paragraph a of paragraph 2 of Article 10 shall not apply, if the company which is a "
        "resident of the Netherlands suffers Netherlands company tax on the dividends which it receives from the "
        "company which is a resident of Korea. In such case the provisions of sub-paragraph b of paragraph 2 of "
        "Article 10 shall apply.\n"
    ),
    "es": (
        "Convenio entre el Reino de los Países Bajos y la República Argentina\n\n"
        "Artículo 10\nDividendos\n\n"
        "1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro "
        "Estado Contratante pueden someterse a imposición en ese otro Estado.\n\n"
        "2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que "
        "resida la sociedad que paga los dividendos, pero el impuesto así exigido no podrá exceder del:\n"
        "a) 5 por ciento del importe bruto de los dividendos si el perceptor es una sociedad que posea "
        "directamente al menos el 25 por ciento del capital de la sociedad que paga los dividendos;\n"
        "b) 15 por ciento del importe bruto de los dividendos en los demás casos.\n\n"
        "PROTOCOLO\n\nEn el momento de la firma del Convenio, los signatarios han convenido:\n\n"
        "1. Con referencia al artículo 10\n"
        "Lo dispuesto en la letra a) del apartado 2 del artículo 10 no se aplicará si la sociedad residente de los "
        "Países Bajos esté sujeta al impuesto sobre sociedades neerlandés por los dividendos que perciba de la "
        "sociedad residente de Argentina.\n"
    ),
    "pt": (
        "Convenção entre o Reino dos Países Baixos e a República Federativa do Brasil\n\n"
        "Artigo 10.º\nDividendos\n\n"
        "1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro "
        "Estado Contratante podem ser tributados nesse outro Estado.\n\n"
        "2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente "
        "a sociedade que paga os dividendos, mas o imposto assim estabelecido não excederá:\n"
        "a) 5 % do montante bruto dos dividendos, se o beneficiário for uma sociedade que detenha directamente "
        "pelo menos 25 % do capital da sociedade que paga os dividendos;\n"
        "b) 15 % do montante bruto dos dividendos, nos restantes casos.\n\n"
        "PROTOCOLO\n\nNo momento da assinatura da Convenção, os signatários acordaram:\n\n"
        "1. Ad artigo 10.º O disposto na alínea a) do n.º 2 do artigo 10.º não se aplica se a sociedade residente "
        "dos Países Baixos estiver sujeita ao imposto sobre as sociedades neerlandês sobre os dividendos que "
        "receba da sociedade residente do Brasil.\n"
    ),
}
OTHER = {"en": "KR", "es": "AR", "pt": "BR"}
COMPANY = {"beneficial_owner": True, "recipient": "company", "capital_pct": 30, "date": "2024-05-01"}


@cache
def parsed(text: str) -> taxtreaty.Document:
    return taxtreaty.parse(text)


def ask(text: str, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(parsed(text), facts).to_dict()


@cache
def nl(code: str) -> taxtreaty.Document:
    path = CORPUS / "nl" / f"NL-{code}_convention_EN.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return taxtreaty.parse_file(str(path))


@pytest.mark.parametrize("language", sorted(DIVIDENDS))
def test_a_point_withdrawing_a_rate_from_the_residents_of_one_state_asks_only_them(language: str) -> None:
    text, other = DIVIDENDS[language], OTHER[language]
    taxed = ask(text, income="dividends", source=other, residence="NL", recipient_subject_to_tax=True, **COMPANY)
    assert (taxed["status"], taxed["max_rate_pct"]) == ("determined", "15")
    exempt = ask(text, income="dividends", source=other, residence="NL", recipient_subject_to_tax=False, **COMPANY)
    assert (exempt["status"], exempt["max_rate_pct"]) == ("determined", "5")
    unknown = ask(text, income="dividends", source=other, residence="NL", **COMPANY)
    assert unknown["status"] == "indeterminate" and "recipient_subject_to_tax" in unknown["missing_facts"]
    # the point speaks of the Netherlands' residents: the other State's are not asked
    abroad = ask(text, income="dividends", source="NL", residence=other, **COMPANY)
    assert (abroad["status"], abroad["max_rate_pct"]) == ("determined", "5")
    assert "recipient_subject_to_tax" not in abroad["missing_facts"]


@pytest.mark.parametrize("code", ["PH", "KR"])
def test_nl_ph_and_nl_kr_withdrawal_for_a_dutch_company_taxed_on_the_dividends(code: str) -> None:
    facts = {**COMPANY, "capital_pct": 40}
    taxed = taxtreaty.decide(nl(code), {"income": "dividends", "source": code, "residence": "NL",
                                        "recipient_subject_to_tax": True, **facts}).to_dict()
    assert (taxed["status"], taxed["max_rate_pct"]) == ("determined", "15")
    korean = taxtreaty.decide(nl(code), {"income": "dividends", "source": "NL", "residence": code, **facts}).to_dict()
    assert korean["status"] == "determined" and "recipient_subject_to_tax" not in korean["missing_facts"]
