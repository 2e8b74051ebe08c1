"""Structure and metadata of what the Argentine Boletín Oficial prints, as markdown mirrors carry it
(issue 11): the approving law's own articles before the convention, bold headings with the title on
the next bold line, word-processor residue, roman numerals, a misspelt article word, cross-references
and sentences that wrap onto a line of their own, titles over several lines, signature dates in words.

The texts are written for these tests (other States, other wordings); the real ones are checked by
the packs in tests/cases/real.
"""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.structure.metadata import find_date, find_signature

LAW = """# CONVENIOS

Ley 99.999

El Senado y Cámara de Diputados de la Nación Argentina reunidos en Congreso, etc. sancionan con fuerza de Ley:

**ARTICULO 1º -** Apruébase el Convenio entre la República Argentina y la República del Perú, suscripto en Lima el 3 de marzo de 1990, que consta de cinco artículos.

##### ARTICULO 2º — Comuníquese al Poder Ejecutivo nacional.

CONVENIO

ENTRE LA REPUBLICA ARGENTINA

Y LA REPUBLICA DEL PERU

**[if !supportEmptyParas] [endif]**

**ARTICULO 1**

**[if !supportEmptyParas] [endif]**

**Ambito personal**

[if !supportEmptyParas] [endif]

El presente Convenio se aplicará a las personas residentes de uno o de ambos Estados Contratantes.

**ARTICULO 2**

**Dividendos**

1. Los dividendos pagados por una sociedad residente de un Estado Contratante pueden someterse a imposición en el otro Estado, conforme a lo dispuesto en el presente

Artículo.

2. Estos dividendos pueden también someterse a imposición en el Estado en que resida la sociedad, de acuerdo con el

##### Artículo 7, según corresponda.

**ARTICULO 3**

**Estudiantes, Aprendices de Actividades**

**Comerciales, Profesores e Investigadores**

1. Los importes que un estudiante reciba para cubrir sus gastos no serán sometidos a imposición en ese Estado.

ARITUCULO 4

Entrada en vigor

1. El Convenio entrará en vigor en la fecha del canje de los instrumentos de ratificación y se aplicará a partir del primero de enero del año siguiente a aquel en que el

Convenio entre en vigor.

**ARTICULO 5**

**Denuncia**

El presente Convenio permanecerá en vigor indefinidamente (denominado en adelante el

Protocolo).

Hecho en la ciudad de Lima a los veintitrés días del mes de marzo del año mil novecientos noventa, en dos ejemplares.
"""


@pytest.fixture(scope="module")
def doc() -> taxtreaty.Document:
    return taxtreaty.parse(LAW)


def test_the_approving_law_articles_are_not_the_conventions(doc: taxtreaty.Document) -> None:
    # "ARTICULO 2º — Comuníquese al Poder Ejecutivo nacional." was read as article 2 of the
    # convention (a short line with a title), and the convention's own articles 1 and 2 ran into it
    (version,) = doc.versions
    assert [a.number for a in version.articles] == ["1", "2", "3", "4", "5"]
    assert version.articles[1].heading == "Dividendos"


@pytest.mark.parametrize("lost", ["", "?", "\ufffd"])
def test_the_approving_law_is_told_apart_when_its_accents_were_lost(lost: str) -> None:
    # a copy whose accents went with its encoding prints "Comunquese", "Comun?quese" or "Comun\ufffdquese": the
    # law's "ARTICULO 2º" was numbered as the convention's article 2, and the convention's own article 1 dropped
    damaged = "".join(c if c.isascii() else lost for c in LAW)
    assert "Comuniquese" not in damaged and "Comuníquese" not in damaged
    (version,) = taxtreaty.parse(damaged).versions
    assert [a.number for a in version.articles] == ["1", "2", "3", "4", "5"]


def test_bold_headings_titles_and_word_processor_residue(doc: taxtreaty.Document) -> None:
    # "**ARTICULO 1**" kept "**" as its title, so the bold title on the next line and the topic were lost
    first = doc.versions[0].articles[0]
    assert first.heading == "Ambito personal" and first.topic == "persons_covered"
    lines = doc._clean.text.splitlines()
    assert not any("[if" in line or line.startswith("**") or line.endswith("**") for line in lines)
    assert "word_processor_residue" in {rule for _, _, rule in doc._clean.furniture}


def test_wrapped_words_are_not_headings(doc: taxtreaty.Document) -> None:
    # "...en el presente\nArtículo." (a damaged heading), "##### Artículo 7, según corresponda." (a
    # cross-reference), "...en que el\nConvenio entre en vigor." (a convention title) and
    # "...el\nProtocolo)." (a protocol heading) are all the sentence going on
    version = doc.versions[0]
    assert [p.number for p in version.articles[1].paragraphs] == ["1", "2"]
    assert len(doc.versions) == 1 and version.protocols == []


def test_a_title_in_title_case_over_two_lines(doc: taxtreaty.Document) -> None:
    third = doc.versions[0].articles[2]
    assert third.heading == "Estudiantes, Aprendices de Actividades Comerciales, Profesores e Investigadores"
    assert third.topic == "professors_researchers"  # both: the first listed in topics.yaml


def test_a_misspelt_article_word_in_sequence(doc: taxtreaty.Document) -> None:
    fourth = doc.versions[0].articles[3]
    assert fourth.number == "4" and fourth.topic == "entry_into_force"


def test_signature_date_and_year_in_words(doc: taxtreaty.Document) -> None:
    assert doc.signed is not None and (doc.signed.date, doc.signed.place) == ("1990-03-23", "Lima")
    assert sorted(doc.parties) == ["AR", "PE"]


@pytest.mark.parametrize(("text", "date"), [
    ("el día trece de julio de mil novecientos setenta y ocho", "1978-07-13"),
    ("a los veintisiete días del mes de agosto de mil novecientos noventa y nueve", "1999-08-27"),
    ("a los diecisiete días del mes de mayo del año mil novecientos ochenta", "1980-05-17"),
    ("el primero de enero de dos mil uno", "2001-01-01"),
    ("aos vinte e sete dias do mês de setembro de dois mil e onze", "2011-09-27"),  # not the 7th
])
def test_dates_in_words(text: str, date: str) -> None:
    assert find_date(text)[0] == date


def test_signature_in_duplicate() -> None:
    signed = find_signature("Hecho en duplicado en Santiago, el 2 de mayo de 1995, en idiomas español e inglés")
    assert signed is not None and (signed.date, signed.place) == ("1995-05-02", "Santiago")


ROMAN = """CONVENIO ENTRE LA REPUBLICA ARGENTINA Y LA REPUBLICA DEL PERU

ARTICULO I

AMBITO PERSONAL

Este convenio se aplicará a las personas residentes en uno o en ambos Estados Contratantes.

ARTICULO II

ENTRADA EN VIGOR

El convenio entrará en vigor a partir del canje y sus disposiciones se aplicarán a partir del año siguiente a aquel en que el
convenio entre en vigor;

ARTICULO III

DENUNCIA

El presente convenio permanecerá en vigor hasta que se denuncie.
"""


def test_roman_articles_and_a_lower_case_title_word() -> None:
    # "convenio entre en vigor;" opened a second version before "ARTICULO III"
    doc = taxtreaty.parse(ROMAN)
    (version,) = doc.versions
    assert [a.number for a in version.articles] == ["I", "II", "III"]
    assert [a.eid for a in version.articles] == ["art_1", "art_2", "art_3"]
    assert version.articles[0].topic == "persons_covered"


def test_a_heading_naming_no_topic_gets_none() -> None:
    text = ("CONVENIO ENTRE LA REPUBLICA ARGENTINA Y LA REPUBLICA DEL PERU\n\nArtículo 1\nFuente de la renta\n"
            "1. Las rentas, beneficios o ganancias que puedan someterse a imposición en el otro Estado en virtud de "
            "los artículos 6, 7 y 13 se considerarán ganancias procedentes de fuentes situadas en ese Estado.\n")
    (article,) = taxtreaty.parse(text).versions[0].articles
    assert article.topic is None  # not capital gains from the body's "ganancias"


def test_the_united_kingdom_in_spanish_is_not_ireland() -> None:
    # AR-GB: "el Gobierno del Reino Unido de Gran Bretaña e Irlanda del Norte" gave the parties GB and IE
    from taxtreaty.structure.metadata import states_named

    assert states_named("el Gobierno de la República Argentina y el Gobierno del Reino Unido de Gran Bretaña "
                        "e Irlanda del Norte") == ["AR", "GB"]
