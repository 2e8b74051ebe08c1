"""A rate the introduction of a list announces, with the items it covers as alternatives ("la alícuota no
deberá exceder el 15 por ciento del importe bruto de las regalías originadas: a) por ... derechos de autor ...,
si el beneficiario es el autor o su derechohabiente; o b) por ... patentes, marcas ..."): one cap per item, each
with its own item's conditions. The cap of (b) is cited from the rate through (b), across (a); (a)'s condition
was joined to (b)'s too, so every patent royalty abstained (AR-DE 12(2)). Fixtures of our own in that shape."""

from __future__ import annotations

import pytest
from helpers import one

import taxtreaty

TEXTS = {
    "es": (
        "Convenio entre la República Argentina y la República Federal de Alemania\n\n"
        "ARTICULO 12\nRegalías\n\n"
        "1. Las regalías originadas en un Estado Contratante y pagadas a un residente del otro Estado Contratante "
        "pueden someterse a imposición en ese otro Estado.\n\n"
        "2. Sin embargo, tales regalías pueden someterse a imposición en el Estado Contratante en el cual se "
        "originan, pero la alícuota no deberá exceder el 15 por ciento del importe bruto de las regalías "
        "originadas:\n"
        "a) por el uso de derechos de autor sobre obras literarias o artísticas, si el beneficiario es el autor o "
        "su derechohabiente; o\n"
        "b) por el uso de patentes, marcas de fábrica, fórmulas o procedimientos secretos.\n"
    ),
    "en": (
        "Convention between the Kingdom of the Netherlands and the Republic of Ghana\n\n"
        "Article 12\nRoyalties\n\n"
        "1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be "
        "taxed in that other State.\n\n"
        "2. However, such royalties may also be taxed in the Contracting State in which they arise, but the tax so "
        "charged shall not exceed 15 per cent of the gross amount of the royalties paid:\n"
        "a) for the use of any copyright of literary or artistic work, if the beneficiary is the author or his "
        "heir; or\n"
        "b) for the use of any patent, trade mark, secret formula or process.\n"
    ),
    "pt": (
        "Convenção entre a República Portuguesa e a República de Angola\n\n"
        "Artigo 12.º\nRoyalties\n\n"
        "1 — As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante "
        "podem ser tributadas nesse outro Estado.\n\n"
        "2 — No entanto, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas o "
        "imposto assim estabelecido não excederá 15 % do montante bruto das royalties pagas:\n"
        "a) pelo uso de direitos de autor sobre obras literárias ou artísticas, se o beneficiário for o autor ou "
        "o seu herdeiro; ou\n"
        "b) pelo uso de patentes, marcas de fabrico, fórmulas ou processos secretos.\n"
    ),
}


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_each_alternative_of_an_announced_rate_keeps_only_its_own_conditions(language: str) -> None:
    doc = taxtreaty.parse(TEXTS[language])
    ps = taxtreaty.provisions(doc)
    patents = one(ps, "art_12__para_2__point_b", "withholding_cap")
    assert "unread_condition" not in patents.conditions, patents.conditions
    # (a)'s words are its own: still cited, never dropped
    copyright_cap = one(ps, "art_12__para_2__point_a", "withholding_cap")
    assert "autor" in copyright_cap.conditions.get("unread_condition", "") or \
        "author" in copyright_cap.conditions.get("unread_condition", "")
    source, residence = {"es": ("DE", "AR"), "en": ("GH", "NL"), "pt": ("AO", "PT")}[language]
    decision = taxtreaty.decide(doc, {"income": "royalties", "source": source, "residence": residence,
                                      "royalty_kind": "patents", "recipient": "company"})
    assert (decision.status, str(decision.max_rate_pct), decision.eid) == ("determined", "15", "art_12__para_2__point_b")
