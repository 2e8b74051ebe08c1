"""Lists and paragraphs built as the gazettes print them: a label that a cross-reference wrapped
onto the start of a line is text, a label printed twice is the item between, a Dutch title names
its topic and a Dutch signature its date (texts paraphrased from the Argentine Boletín Oficial and
the Dutch treaty collection)."""

from __future__ import annotations

import taxtreaty

_ROYALTIES_ES = """Convenio entre la República Argentina y Australia

ARTICULO 12
Regalías

1. Las regalías procedentes de un Estado Contratante pueden someterse a imposición en el otro Estado.

2. Dichas regalías también pueden someterse a imposición en el Estado del que procedan, pero el impuesto así exigido no podrá exceder del:
a) 10 por ciento del importe bruto de las regalías en el caso de derechos de autor;
b) 10 por ciento del importe neto de las regalías en el caso de asistencia técnica. A los efectos del presente subapartado 2
(b), el importe neto es el que resulte luego de deducir los gastos; y
c) 15 por ciento del importe bruto de las regalías en todos los demás casos.

3. El término "regalías" significa los pagos por el uso de un derecho de autor.
"""


def _points(text: str, article: str, paragraph: str) -> list[str]:
    doc = taxtreaty.parse(text)
    return [p.eid for p in doc.versions[0].article(article).paragraph(paragraph).points]


def test_a_label_followed_by_a_comma_is_a_wrapped_reference() -> None:
    # AR-AU 12(2): "subapartado 2" at a line's end, then "(b), el importe neto ...": not a second (b)
    eids = _points(_ROYALTIES_ES, "12", "2")
    assert eids == ["art_12__para_2__point_a", "art_12__para_2__point_b", "art_12__para_2__point_c"]
    doc = taxtreaty.parse(_ROYALTIES_ES)
    assert "(b), el importe neto" in doc.versions[0].article("12").paragraph("2").points[1].text
    assert not [w for w in doc.warnings if w.code in ("list_items_missing", "duplicate_eid")]


_SHIPPING_ES = """ARTICULO 8
Navegación marítima y aérea

1. Los beneficios de una empresa procedentes de la explotación de buques sólo pueden someterse a imposición en ese Estado.

2. A los efectos del presente Artículo, los beneficios comprenden:
a) la renta proveniente del alquiler a casco desnudo de buques; y
b) los beneficios provenientes del uso de contenedores, cuando dicho alquiler, según se trate del inciso
a) o del inciso b), es incidental a la operación de buques.

3. Las disposiciones del apartado 1 se aplican también a los beneficios de un consorcio.
"""


def test_a_label_after_a_reference_word_goes_on_the_reference() -> None:
    # AR-GB 8(2): "según se trate del inciso" then "a) o del inciso b)": the reference, not point a) again
    doc = taxtreaty.parse(_SHIPPING_ES)
    paragraph = doc.versions[0].article("8").paragraph("2")
    assert [p.label for p in paragraph.points] == ["a", "b"]
    # the cleaner joins the wrapped reference to its line: one sentence, as printed before the wrap
    assert "inciso a) o del inciso b), es incidental" in paragraph.points[1].text
    assert not [w for w in doc.warnings if w.code in ("list_items_missing", "duplicate_eid")]


def test_a_real_item_after_a_joiner_is_still_an_item() -> None:
    # the counter-case: "...; y" then "b)" is the next item, whatever the words before the joiner
    doc = taxtreaty.parse(_SHIPPING_ES.replace("buques; y", "buques según el apartado; y"))
    assert [p.label for p in doc.versions[0].article("8").paragraph("2").points] == ["a", "b"]


_PE_EN = """Article 5
Permanent establishment

1. For the purposes of this Convention, the term "permanent establishment" means a fixed place of business.

2. The term "permanent establishment" includes especially:
a) a place of management;
b) a branch;
c) a factory;
c) a workshop;
e) a mine, an oil or gas well, a quarry or any other place of extraction of natural resources.

3. A building site constitutes a permanent establishment only if it lasts more than six months.
"""


def test_a_label_printed_twice_is_the_item_between() -> None:
    # NL-IN 5(2): "d) a factory;", "d)a workshop;", "f) a mine": the second d) is e), misprinted
    doc = taxtreaty.parse(_PE_EN)
    points = doc.versions[0].article("5").paragraph("2").points
    assert [p.label for p in points] == ["a", "b", "c", "d", "e"]
    assert points[3].label_printed == "c" and points[3].text == "a workshop;"
    assert any(w.code == "ocr_repaired" and w.eid == "art_5__para_2__point_d" for w in doc.warnings)
    assert not [w for w in doc.warnings if w.code == "duplicate_eid"]


def test_a_label_printed_twice_with_no_next_item_is_not_repaired() -> None:
    # without the next item's label to show it, a repeated label stays a restart (reported)
    doc = taxtreaty.parse(_PE_EN.replace("e) a mine", "the mines"))
    assert not any(w.code == "ocr_repaired" for w in doc.warnings)


_DUTCH = """Verdrag tussen het Koninkrijk der Nederlanden en de Portugese Republiek tot het vermijden van dubbele belasting

Artikel 10
Dividenden

1. Dividenden betaald door een lichaam dat inwoner is van een Verdragsluitende Staat aan een inwoner van de andere Verdragsluitende Staat, mogen in die andere Staat worden belast.

Artikel 11
Uitbreiding tot andere gebieden

1. Dit Verdrag kan worden uitgebreid tot andere gebieden van het Koninkrijk der Nederlanden.

TEN BLIJKE waarvan de ondergetekenden dit Verdrag hebben ondertekend. GEDAAN te Oporto, de 20e september 1999, in tweevoud.
"""


def test_a_dutch_version_names_its_topics_and_signature() -> None:
    doc = taxtreaty.parse(_DUTCH)
    version = doc.versions[0]
    assert version.language == "nl" and not version.supported
    assert [a.topic for a in version.articles] == ["dividends", "territorial_extension"]
    assert doc.signed is not None and doc.signed.date == "1999-09-20" and doc.signed.place == "Oporto"


def test_an_article_number_with_a_letter_is_one_eid_however_cased() -> None:
    from taxtreaty.structure import eids

    assert eids.article("8A") == eids.article("8a") == "art_8a"


_LOST_NUMBER_ES = """Artículo 12
Regalías

1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante pueden someterse a imposición en este otro Estado.

Sin embargo, dichas regalías también pueden someterse a imposición en el Estado del que procedan, pero el impuesto así exigido no podrá exceder del 15 por ciento del monto bruto de las regalías.

3. El término "regalías" significa las cantidades de cualquier clase pagadas por el uso de un derecho de autor.
"""


def test_a_paragraph_printed_without_its_number_is_the_one_between() -> None:
    # AR-RU 12: "1. ...", then "Sin embargo, ..." on a line of its own, then "3. ...": paragraph 2
    doc = taxtreaty.parse(_LOST_NUMBER_ES)
    article = doc.versions[0].article("12")
    assert [p.eid for p in article.paragraphs] == ["art_12__para_1", "art_12__para_2", "art_12__para_3"]
    assert article.paragraph("2").number_inferred and article.paragraph("2").text.startswith("Sin embargo")
    assert article.paragraph("1").text.endswith("en este otro Estado.")
    assert any(w.code == "paragraph_number_inferred" for w in doc.warnings)
    assert not any(w.code == "paragraphs_missing" for w in doc.warnings)


def test_two_candidate_lines_leave_the_paragraph_missing() -> None:
    # which of two sentences started paragraph 2 cannot be told: the gap is reported, nothing inferred
    text = _LOST_NUMBER_ES.replace("en este otro Estado.\n", "en este otro Estado.\nEsta regla se aplica también a los cánones.\n")
    doc = taxtreaty.parse(text)
    assert [p.eid for p in doc.versions[0].article("12").paragraphs] == ["art_12__para_1", "art_12__para_3"]
    assert any(w.code == "paragraphs_missing" for w in doc.warnings)


_WRAPPED_EXCHANGE_ES = """Convenio entre el Reino de España y la República Argentina

Artículo 1
Ámbito personal

1. El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes.

Artículo 2
Impuestos comprendidos

1. El presente Convenio se aplica a los impuestos sobre la renta.

Artículo 3
Intercambio de información

1. Las autoridades competentes intercambiarán las informaciones necesarias. El intercambio no está limitado por el
artículo 1. Las informaciones recibidas por un Estado serán mantenidas secretas.
2. En caso de que se refiere el apartado
2.c) del artículo 12, se considerará pagado un impuesto del 15 por ciento.
"""


def test_hard_wrapped_references_stay_text() -> None:
    # AR-ES re-laid at 70 columns: "limitado por el" then "artículo 1. Las informaciones ..." is no
    # heading (no new version), and "el apartado" then "2.c) del artículo 12" is no paragraph 2
    doc = taxtreaty.parse(_WRAPPED_EXCHANGE_ES)
    assert [v.language for v in doc.versions] == ["es"]
    article = doc.versions[0].article("3")
    assert [a.number for a in doc.versions[0].articles] == ["1", "2", "3"]
    assert [p.number for p in article.paragraphs] == ["1", "2"]
    assert "artículo 1. Las informaciones recibidas" in article.paragraph("1").text
    assert "2.c) del artículo 12" in article.paragraph("2").text


def test_the_dutch_treaty_series_running_header_is_furniture() -> None:
    text = _PE_EN.replace("b) a branch;", "b) a branch;\n\nTractatenblad 1999 Nr. 5   12\n")
    doc = taxtreaty.parse(text)
    assert "Tractatenblad" not in doc.versions[0].article("5").paragraph("2").text


_PROTOCOL_ES = """ARTICULO 1
Personas comprendidas

El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes.

ARTICULO 2
Impuestos comprendidos

1. Los impuestos actuales a los que se aplica este Convenio son, en particular:
a) En la República Argentina:
el impuesto a las ganancias, y el impuesto sobre los bienes personales;
b) En el otro Estado:
el impuesto sobre la renta.

2. El Convenio se aplicará también a los impuestos idénticos.

En fe de lo cual los signatarios firman el presente Convenio.

PROTOCOLO

1. Con referencia al artículo 2:
El Convenio se aplicará también a los impuestos de emergencia.

2. Con respecto al Artículo 11:
Se entiende que las disposiciones de este Convenio no impiden aplicar las normas de capitalización exigua.

3. However, the tax so charged shall not exceed:
The competent authorities shall settle the mode of application.
"""


def test_a_heading_line_with_a_colon_announces_the_text_under_it() -> None:
    # AR-RU/AR-DE protocols: "Con respecto al Artículo 11:" then a sentence: no list was lost; a
    # colon after a clause that names no article still reports its lost items
    doc = taxtreaty.parse(_PROTOCOL_ES)
    lost = {w.eid for w in doc.warnings if w.code == "list_items_missing"}
    assert "protocol_1__para_1" not in lost and "protocol_1__para_2" not in lost
    assert "protocol_1__para_3" in lost


def test_unmarked_items_under_an_announcing_point_are_its_text() -> None:
    # AR-DE 2(3): "a) En la República Argentina:" then "el Impuesto a las ganancias ..." unmarked
    doc = taxtreaty.parse(_PROTOCOL_ES)
    paragraph = doc.versions[0].article("2").paragraph("1")
    assert "el impuesto a las ganancias" in paragraph.points[0].text
    assert "el impuesto sobre la renta" in paragraph.points[1].text and paragraph.wrap_up is None
    assert not any(w.code == "list_items_missing" and w.eid.startswith("art_2") for w in doc.warnings)


_WRAPPED_EN = """Convention between the Kingdom of the Netherlands and the Republic of India for the avoidance of double taxation

Article 1
Personal scope

This Convention shall apply to persons who are residents of one or both of the States.

Article 2
Business profits

1. The profits of an enterprise shall be taxable only in that State. Where that restriction is relaxed or overridden by any
Convention between that State and a third State which enters into force later, the competent authorities shall consult.
2. The provisions of paragraph 1 shall apply, except where the provisions of
Article 3
of this Convention apply to that income.

Article 3
Dividends

1. Dividends may be taxed in the other State.

PROTOCOL TO THE CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF
INDIA FOR THE AVOIDANCE OF DOUBLE TAXATION

1. Ad Article 2: it is understood that the profits are computed on the same basis.
"""


def test_a_title_or_a_heading_that_goes_on_a_sentence_is_text() -> None:
    # NL-IN re-laid at 70 columns: "... overridden by any" then "Convention between that State and a
    # third State ..." is no second version; "... provisions of" then a bare "Article 3" then "of this
    # Convention" is a reference; a protocol heading in capitals wrapped over two lines is one heading
    doc = taxtreaty.parse(_WRAPPED_EN)
    assert [v.language for v in doc.versions] == ["en"]
    version = doc.versions[0]
    assert [a.number for a in version.articles] == ["1", "2", "3"]
    assert version.article("3").heading == "Dividends"
    # the reference stays in the sentence (the cleaner may already have joined its line: relaid)
    assert "Article 3 of this Convention" in " ".join(version.article("2").paragraph("2").text.split())
    assert version.protocols[0].heading.endswith("REPUBLIC OF INDIA FOR THE AVOIDANCE OF DOUBLE TAXATION")


def test_a_version_title_after_a_signature_is_still_a_title() -> None:
    # the counter-case: a signature line ends in a capitalised word, so the next version's title stands
    text = (_WRAPPED_EN.split("PROTOCOL TO")[0] + "For the Kingdom of the Netherlands\n\n"
            "Verdrag tussen het Koninkrijk der Nederlanden en de Republiek India\n\nArtikel 1\nPersonen\n\n"
            "Dit Verdrag is van toepassing op personen die inwoner zijn van een of van beide Staten.\n")
    assert [v.language for v in taxtreaty.parse(text).versions] == ["en", "nl"]
