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
