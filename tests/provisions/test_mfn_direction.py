"""Which State a most-favoured-nation clause binds (provisions/one_state.mfn_bound_state): a clause whose words place
the lower rate in one State's tax ("royalties arising in Latvia from Latvian tax", "will apply to residents of the
Netherlands": the other State lowers its tax for them) is carried by the cap as that State applies it at source only;
one naming both States or none keeps both directions (NL-EE, NL-LV, NL-VN protocols one-sided; AR-ES "a los residentes
de ambos Estados Contratantes", NL-IN "shall also apply under this Convention" both). Sentences of our own in those
shapes, in en, es and pt."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

import taxtreaty
from taxtreaty.provisions.one_state import mfn_bound_state
from taxtreaty.provisions.vocabulary import phrases

BOUND = [
    # the State whose income or tax the lower rate concerns
    ("en", ("NL", "LV"), "If Latvia after that date agrees with a third State to exempt royalties arising in Latvia, "
     "that exemption shall apply as if it had been specified in paragraph 2.", "LV"),
    ("en", ("NL", "IN"), "If India gives relief from that levy by reducing the rate of the Indian tax under a convention "
     "with a third State, such relief shall also apply under this Convention.", "IN"),
    # the State of the residents it benefits: the other State lowers its tax
    ("en", ("NL", "VN"), "If Vietnam signs with a member State of the OECD an agreement which provides for a lower rate "
     "on interest, then this lower rate will apply to residents of the Netherlands.", "VN"),
    ("es", ("ES", "AR"), "Si la República Argentina concluyera con un tercer Estado un Convenio con un tipo inferior "
     "sobre las regalías, ese tipo se aplicará a las regalías originadas en la República Argentina.", "AR"),
    ("es", ("ES", "AR"), "Si la República Argentina acordara con otro Estado miembro de la OCDE un tipo inferior sobre "
     "los intereses, ese tipo se aplicará a los residentes de España.", "AR"),
    ("es", ("CA", "AR"), "Si la Argentina concluye con un tercer Estado un Acuerdo con una alícuota menor, esa alícuota "
     "limitará el impuesto argentino sobre dichos pagos.", "AR"),
    ("pt", ("PT", "BR"), "Se o Brasil acordar com um terceiro Estado uma taxa inferior sobre as royalties, essa taxa "
     "aplicar-se-á às royalties provenientes do Brasil.", "BR"),
    ("pt", ("PT", "BR"), "Se o Brasil acordar com um terceiro Estado uma taxa inferior sobre os juros, essa taxa "
     "aplicar-se-á aos residentes de Portugal.", "BR"),
    # both named, or none: both
    ("en", ("NL", "ZA"), "If South Africa limits its taxation on dividends under a convention with a third country, the "
     "same rate shall automatically apply in both Contracting States under this Convention.", None),
    ("en", ("NL", "IN"), "If India should limit its taxation at source on royalties under a convention with a third State, "
     "the same rate shall also apply under this Convention.", None),
    # a State's adjective before a tax word that names a kind of convention: the State that concluded it
    ("en", ("NL", "IN"), "If under any Indian tax treaty with a third State India limits its rate on royalties, the same "
     "rate shall also apply under this Convention.", None),
    ("es", ("ES", "AR"), "Si la República Argentina concluyera con otro país miembro de la OCDE un Convenio con un tipo "
     "inferior, ese tipo será aplicable a los residentes de ambos Estados Contratantes.", None),
    ("es", ("CA", "AR"), "Si la República Argentina concluye un Acuerdo con un tercer Estado por el que limita la "
     "imposición en el país de la fuente a una alícuota menor, esta alícuota se aplicará en forma automática.", None),
    ("pt", ("PT", "BR"), "Se o Brasil acordar com um terceiro Estado uma taxa inferior, essa taxa aplica-se aos "
     "residentes de ambos os Estados Contratantes.", None),
    ("pt", ("PT", "BR"), "Se o Brasil acordar com um terceiro Estado uma taxa inferior sobre as royalties, essa taxa "
     "aplica-se para efeitos da presente Convenção.", None),
]


@pytest.mark.parametrize(("language", "parties", "sentence", "expected"), BOUND)
def test_the_state_a_most_favoured_nation_clause_binds(language: str, parties: tuple[str, str], sentence: str,
                                                       expected: str | None) -> None:
    ph = phrases(language)
    assert ph is not None
    assert mfn_bound_state(sentence, ph, parties) == expected


ROYALTIES = {
    "en": ("Convention between the Kingdom of the Netherlands and the Republic of Latvia\n\n"
           "Article 12\nRoyalties\n\n"
           "1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be "
           "taxed in that other State.\n\n"
           "2. However, such royalties may also be taxed in the Contracting State in which they arise, but the tax so "
           "charged shall not exceed 10 per cent of the gross amount of the royalties.\n\n"
           "PROTOCOL\n\nAt the moment of signing the Convention the undersigned have agreed as follows:\n\n"
           "I\nAd Article 12\n"
           "If under a convention with a third State which is a member of the OECD Latvia would agree to exempt "
           "royalties arising in Latvia from Latvian tax or to limit the rate provided in paragraph 2 of Article 12, "
           "that exemption or lower rate shall apply as if it had been specified in paragraph 2 of Article 12.\n"),
    "es": ("Convenio entre el Reino de España y la República Argentina\n\n"
           "Artículo 12\nRegalías\n\n"
           "1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante "
           "pueden someterse a imposición en ese otro Estado.\n\n"
           "2. Sin embargo, estas regalías pueden someterse también a imposición en el Estado Contratante del que "
           "procedan, pero el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de las "
           "regalías.\n\n"
           "PROTOCOLO\n\nEn el momento de la firma del Convenio, los signatarios han convenido:\n\n"
           "3. Si con posterioridad a la firma del presente Convenio la República Argentina concluyera un Convenio con "
           "otro país miembro de la Organización para la Cooperación y el Desarrollo Económico con un tipo inferior al "
           "establecido en el apartado 2 del artículo 12, ese tipo inferior se aplicará automáticamente a los "
           "residentes de España.\n"),
    "pt": ("Convenção entre a República Portuguesa e a República Federativa do Brasil\n\n"
           "Artigo 12.º\nRoyalties\n\n"
           "1 — As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante "
           "podem ser tributadas nesse outro Estado.\n\n"
           "2 — No entanto, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas "
           "o imposto assim estabelecido não poderá exceder 10 por cento do montante bruto das royalties.\n\n"
           "PROTOCOLO\n\nNo momento da assinatura da Convenção, os signatários acordaram:\n\n"
           "1. Ad artigo 12.º Se, depois da assinatura da presente Convenção, o Brasil acordar com um terceiro Estado "
           "uma taxa sobre as royalties inferior à prevista no n.º 2 do artigo 12.º, essa taxa aplicar-se-á às "
           "royalties provenientes do Brasil.\n"),
}
#: (the bound State, the other)
DIRECTIONS = {"en": ("LV", "NL"), "es": ("AR", "ES"), "pt": ("BR", "PT")}


@cache
def _parsed(text: str) -> taxtreaty.Document:
    return taxtreaty.parse(text)


def _ask(language: str, source: str, residence: str) -> dict[str, Any]:
    scenario = {"income": "royalties", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", "royalty_kind": "patents"}
    return taxtreaty.decide(_parsed(ROYALTIES[language]), scenario).to_dict()


@pytest.mark.parametrize("language", sorted(ROYALTIES))
def test_a_one_sided_most_favoured_nation_clause_is_carried_in_its_direction_only(language: str) -> None:
    bound, other = DIRECTIONS[language]
    lowered = _ask(language, bound, other)
    assert (lowered["status"], lowered["max_rate_pct"]) == ("determined", "10")
    assert [c["kind"] for c in lowered["caveats"]] == ["mfn"]
    kept = _ask(language, other, bound)
    assert (kept["status"], kept["max_rate_pct"]) == ("determined", "10")
    assert not kept["caveats"]


DIVIDENDS = {
    "en": ("Convention between the Kingdom of the Netherlands and the Republic of South Africa\n\n"
           "Article 10\nDividends\n\n"
           "1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other "
           "Contracting State may be taxed in that other State.\n\n"
           "2. However, such dividends may also be taxed in the Contracting State of which the company paying the "
           "dividends is a resident, but the tax so charged shall not exceed:\n"
           "a) 5 per cent of the gross amount of the dividends if the beneficial owner is a company which holds at "
           "least 10 per cent of the capital of the company paying the dividends;\n"
           "b) 10 per cent of the gross amount of the dividends in all other cases.\n\n"
           "3. If under a convention concluded after this Convention between South Africa and a third country South "
           "Africa limits its tax on dividends as meant in subparagraph a) of paragraph 2 of this Article to a lower "
           "rate, that rate shall apply in both Contracting States under this Convention.\n\n"
           "4. Where the holding is effectively connected with a permanent establishment situated in a third State, "
           "the provisions of Article 7 shall apply.\n"),
    "es": ("Convenio entre el Reino de España y la República Argentina\n\n"
           "Artículo 10\nDividendos\n\n"
           "1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro "
           "Estado Contratante pueden someterse a imposición en ese otro Estado.\n\n"
           "2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que "
           "resida la sociedad que paga los dividendos, pero el impuesto así exigido no podrá exceder del:\n"
           "a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea "
           "directamente al menos el 10 por ciento del capital de la sociedad que paga los dividendos;\n"
           "b) 10 por ciento del importe bruto de los dividendos en los demás casos.\n\n"
           "3. Si la República Argentina concluyera con un tercer Estado un Convenio con un tipo inferior al previsto "
           "en la letra a) del apartado 2 de este artículo, ese tipo se aplicará a los dividendos procedentes de la "
           "República Argentina.\n"),
    "pt": ("Convenção entre a República Portuguesa e a República Federativa do Brasil\n\n"
           "Artigo 10.º\nDividendos\n\n"
           "1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro "
           "Estado Contratante podem ser tributados nesse outro Estado.\n\n"
           "2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente "
           "a sociedade que paga os dividendos, mas o imposto assim estabelecido não excederá:\n"
           "a) 5 por cento do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha "
           "directamente pelo menos 10 por cento do capital da sociedade que paga os dividendos;\n"
           "b) 10 por cento do montante bruto dos dividendos, nos restantes casos.\n\n"
           "3 — Se o Brasil acordar com um terceiro Estado uma taxa inferior à prevista na alínea a) do n.º 2 deste "
           "artigo, essa taxa aplicar-se-á aos residentes de Portugal.\n"),
}
#: (the State the paragraph binds, or None for both; the parties)
DIVIDEND_STATES = {"en": (None, ("ZA", "NL")), "es": ("AR", ("AR", "ES")), "pt": ("BR", ("BR", "PT"))}


def _dividends(language: str, source: str, residence: str, capital_pct: int) -> dict[str, Any]:
    scenario = {"income": "dividends", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", "capital_pct": capital_pct}
    return taxtreaty.decide(_parsed(DIVIDENDS[language]), scenario).to_dict()


@pytest.mark.parametrize("language", sorted(DIVIDENDS))
def test_a_most_favoured_nation_paragraph_of_the_article_itself_is_carried_by_the_items_it_names(language: str) -> None:
    bound, (first, second) = DIVIDEND_STATES[language]
    for source, residence in ((first, second), (second, first)):
        qualifying = _dividends(language, source, residence, 25)
        assert (qualifying["status"], qualifying["max_rate_pct"]) == ("determined", "5")
        carried = [c["kind"] for c in qualifying["caveats"]]
        assert carried == (["mfn"] if bound in (None, source) else [])
        assert all(c["eid"].endswith("__para_3") for c in qualifying["caveats"])
        # the item it does not name keeps the article's words alone (a third State's permanent establishment is
        # no most-favoured-nation clause either)
        other = _dividends(language, source, residence, 5)
        assert (other["status"], other["max_rate_pct"], other["caveats"]) == ("determined", "10", [])
