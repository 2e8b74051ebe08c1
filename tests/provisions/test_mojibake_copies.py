"""A copy whose UTF-8 bytes were once read as Latin-1 or cp1252 ("Artículo" printed "ArtÃ\xadculo", "“" printed
"â\x80\x9c"): the cleaner repairs each line, and every reader reads the repaired words, never the quote's
(the quote stays the original's characters). Before, a protocol point's rate was checked on its quote: in
such a copy "no podrá exceder del 3 por ciento" was no cap, and the article's 15 % was given for news."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text import clean

ES = """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y EL REINO DE DINAMARCA PARA EVITAR LA DOBLE IMPOSICIÓN

ARTÍCULO 12
Regalías
1. Las regalías procedentes de un Estado Contratante cuyo beneficiario efectivo es un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Dichas regalías también pueden someterse a imposición en el Estado Contratante del que procedan, pero el impuesto así exigido no podrá exceder del 15 por ciento del importe bruto de las regalías.
3. El término “regalías” empleado en este Artículo comprende las cantidades de cualquier clase pagadas por el uso de derechos de autor, patentes o marcas.

PROTOCOLO
Al firmar el Convenio, los Gobiernos han convenido las siguientes disposiciones:
1. Con respecto al Artículo 12: en el caso de Argentina, las regalías incluyen asimismo cualquier pago percibido con motivo de la transmisión de noticias por parte de una agencia internacional de noticias, pero si un residente de Dinamarca es beneficiario efectivo de dichos pagos el impuesto así exigido no podrá exceder del 3 por ciento del importe bruto de los mismos.
"""

EN = """AGREEMENT BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF GHANA FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 12
Royalties
1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
2. However, such royalties may also be taxed in the Contracting State in which they arise, but if the beneficial owner of the royalties is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the royalties.
3. The term “royalties” as used in this Article means payments of any kind received as a consideration for the use of any copyright, patent or trade mark.

PROTOCOL
At the signing of the Agreement the undersigned have agreed that the following provisions shall form an integral part of the Agreement:
1. With reference to Article 12: notwithstanding paragraph 2, the tax charged on royalties for the use of any copyright of literary, artistic or scientific work shall not exceed 5 per cent of the gross amount of the royalties.
"""


def _provisions(text: str) -> list[tuple[str, str, object, str]]:
    found = taxtreaty.provisions(taxtreaty.parse(text)).provisions
    return sorted((p.kind, p.cite.eid, p.rate_pct, p.status) for p in found)


@pytest.mark.parametrize(("text", "encoding"), [(ES, "latin-1"), (EN, "latin-1"), (EN, "cp1252")],
                         ids=["es-latin-1", "en-latin-1", "en-cp1252"])
def test_a_copy_in_mojibake_gives_the_same_provisions(text: str, encoding: str) -> None:
    # (cp1252 has no character for the last byte of "”" or of "Í": such copies print "”" as "’" here)
    mangled = text.replace("”", "\u2019").encode("utf-8").decode(encoding)
    assert mangled != text
    expected = _provisions(text.replace("”", "\u2019"))
    assert ("withholding_cap", "protocol_1__para_1") in {(k, e) for k, e, _, _ in expected}
    assert _provisions(mangled) == expected


def test_the_news_rate_of_the_protocol_holds_in_mojibake() -> None:
    mangled = ES.encode("utf-8").decode("latin-1")
    decision = taxtreaty.decide(taxtreaty.parse(mangled), {
        "income": "royalties", "source": "AR", "residence": "DK", "beneficial_owner": True,
        "recipient": "company", "royalty_kind": "news"}).to_dict()
    assert decision["status"] == "determined" and str(decision["max_rate_pct"]) == "3"


def test_the_cleaned_range_of_an_original_range() -> None:
    # a repaired line maps as a whole, a copied one character by character
    original = "ArtÃ\xadculo 12\nplain words here\n"
    ct = clean(original)
    start = original.index("plain")
    a, b = ct.map.to_clean(start, start + len("plain words"))
    assert ct.text[a:b] == "plain words"
    a, b = ct.map.to_clean(0, original.index("\n"))
    assert ct.text[a:b] == "Artículo 12"
    assert ct.map.to_clean(5, 5) == (5, 5)
