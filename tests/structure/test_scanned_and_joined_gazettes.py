"""Gazette copies a scanner or a copy damaged (issue 11): article numbers misread ("ARTIGO 1 1",
"ARTIGO 1O", "ARTIGO IO", "Artigo l.º", "Artigo 10,º", a "12" cut to "1", the ordinal mark read as a letter O: "ARTIGO 1 1 O", "Artigo 11.O"), an article's paragraphs
printed on one line under its heading ("1 — ... 2 — ..."), a lettered list in lower case on one line
("si: a) los intereses ...; b) los intereses ..."). The texts are written for these tests in the
shapes of the Diário da República, the Boletim da República de Moçambique and the BOE.
"""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text import clean
from taxtreaty.text.clean import furniture_rule
from taxtreaty.text.inline import inline_list_gaps, inline_structure_gaps


def _pt(heading_10: str, heading_12: str) -> str:
    return (
        "Artigo 9.º\nEmpresas associadas\n1 — Quando uma empresa de um Estado Contratante participar na direção.\n"
        f"{heading_10}\nDividendos\n1 — Os dividendos pagos por uma sociedade podem ser tributados.\n"
        "Artigo 11.º\nJuros\n1 — Os juros provenientes de um Estado Contratante podem ser tributados.\n"
        f"{heading_12}\nRoyalties\n1 — As royalties provenientes de um Estado podem ser tributadas.\n"
        "Artigo 13.º\nMais-valias\n1 — Os ganhos obtidos por um residente podem ser tributados.\n"
    )


EXPECTED = [("9", "associated_enterprises"), ("10", "dividends"), ("11", "interest"), ("12", "royalties"),
            ("13", "capital_gains")]


@pytest.mark.parametrize(
    ("heading_10", "heading_12"),
    [
        ("ARTIGO 1O", "ARTIGO 1 2"),       # a zero read as O; the two digits apart
        ("Artigo 1 0.º", "Artigo 12.°"),   # apart before the ordinal mark
        ("ARTIGO IO", "ARTIGO I2"),        # a one read as I, before an O or a digit
        ("Artigo 10,º", "Artigo 1 2 º"),   # a comma for the stop of ".º"
        ("ARTIGO l0", "ARTIGO 1"),         # the "2" of "12" lost: read from its neighbours, 11 and 13
        (",Artigo 10.º", "‘ARTIGO 12.º"),  # a speck read as a comma or a quote before the heading
        (",Articie 10", "Artigo 12.º"),    # and the article word misread besides
        ("ARTIGO 10.º", "ARTIGO 12O"),     # the ordinal mark read as a letter O: 12, not 120
        ("ARTIGO 1 0 O", "ARTIGO 1 2 O"),  # and the digits apart: 10 and 12, not "10o" and "12o"
        ("Artigo 10.O", "ARTIGO 12 O"),    # after the stop, or apart
    ],
)
def test_misread_article_numbers_keep_the_sequence_and_one_version(heading_10: str, heading_12: str) -> None:
    document = taxtreaty.parse(_pt(heading_10, heading_12))
    assert len(document.versions) == 1  # "ARTIGO 1 2" read as article 1 once opened a second version
    assert [(a.number, a.topic) for a in document.versions[0].articles] == EXPECTED


@pytest.mark.parametrize("line", [
    "a) 5 per cent of the gross amount",   # a letter before the article word: text
    ", Artigo 10.º e 11.º aplicam-se",     # a stray mark before a sentence that cites articles: not a heading
])
def test_a_stray_mark_makes_no_heading_of_a_sentence(line: str) -> None:
    text = _pt("Artigo 10.º", "Artigo 12.º").replace("1 — Os juros provenientes", f"1 — Os juros\n{line}\nprovenientes")
    document = taxtreaty.parse(text)
    assert [(a.number, a.topic) for a in document.versions[0].articles] == EXPECTED


def test_a_number_read_from_its_neighbours_is_reported() -> None:
    document = taxtreaty.parse(_pt("Artigo 10.º", "ARTIGO 1"))
    assert any("read as 12" in w.message for w in document.warnings)
    assert document.versions[0].articles[3].number_inferred


def test_a_first_article_read_as_l() -> None:
    text = ("Artigo l.º\nPessoas visadas\nA presente Convenção aplica-se às pessoas residentes.\n"
            "Artigo 2.º\nImpostos visados\n1 — A presente Convenção aplica-se aos impostos sobre o rendimento.\n"
            "Artigo 3.º\nDefinições gerais\n1 — Para efeitos da presente Convenção, não se exigindo interpretação diferente.\n")
    assert [a.number for a in taxtreaty.parse(text).versions[0].articles] == ["1", "2", "3"]


def test_a_reference_to_article_1_at_a_line_start_is_still_text() -> None:
    # no title after it and the next heading is 12: "Artigo 1" here goes on the sentence
    text = ("Artigo 10.º\nDividendos\n1 — Os dividendos podem ser tributados, nos termos do\n"
            "Artigo 1 da presente Convenção, nesse outro Estado.\n"
            "Artigo 11.º\nJuros\n1 — Os juros podem ser tributados.\n")
    assert [a.number for a in taxtreaty.parse(text).versions[0].articles] == ["10", "11"]


DRE_JOINED = (
    "Artigo 11.º\nJuros\n"
    "1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante "
    "podem ser tributados nesse outro Estado. 2 — No entanto, esses juros podem ser igualmente tributados no "
    "Estado Contratante de que provêm, mas o imposto assim estabelecido não excederá 10 % do montante bruto "
    "dos juros. 3 — Não obstante o disposto no n.º 2, os juros provenientes de um Estado Contratante são "
    "isentos de imposto nesse Estado se: a) O devedor dos juros for o Governo desse Estado; ou b) Os juros "
    "forem pagos ao banco central do outro Estado Contratante.\n"
    "Artigo 12.º\nRoyalties\n1 — As royalties podem ser tributadas.\n"
)


def test_a_diario_da_republica_article_printed_on_one_line_keeps_its_paragraphs() -> None:
    article = taxtreaty.parse(DRE_JOINED).versions[0].articles[0]
    assert [p.number for p in article.paragraphs] == ["1", "2", "3"]
    assert [pt.label for pt in article.paragraphs[2].points] == ["a", "b"]


def test_the_next_paragraph_is_looked_for_only_in_sequence_after_a_sentence_end() -> None:
    line = ("1 — O disposto no n.º 2 não é aplicável aos juros referidos nos n.os 1 e 3 quando o devedor for "
            "residente; o disposto no artigo 7.º 3 — aplica-se nesse caso, e 2 — sem mais.")
    assert inline_structure_gaps(line) == []


def test_the_english_paragraphs_of_an_article_printed_on_one_line() -> None:
    line = ("1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other "
            "Contracting State may be taxed in that other State. 2. However, such dividends may also be taxed in "
            "the Contracting State of which the company paying the dividends is a resident.")
    pieces = clean(line).text.split("\n")
    assert [p[:3] for p in pieces] == ["1. ", "2. "]


@pytest.mark.parametrize(
    ("line", "starts"),
    [
        # the BOE: a lower-case list after "si:" and after "y", "; o" before the last point
        ("Los intereses solo pueden someterse a imposición en ese otro Estado si: a) los intereses se pagan "
         "al Estado; b) los intereses se pagan al Banco Central; o c) los intereses se pagan por la venta a crédito.",
         ["a) los", "b) los", "c) los"]),
        ("si el perceptor es su beneficiario efectivo y a) es ese otro Estado o el Banco Central; o b) los "
         "paga el Estado mencionado.", ["a) es", "b) los"]),
        # English: "(a) the", "; or (b) the"
        ("The tax shall not exceed: (a) the tax on the gross amount of the royalties paid for the use of equipment; "
         "or (b) the tax in all other cases.", ["(a) the", "(b) the"]),
        # the Chilean Diario Oficial: points numbered in roman inside a point, "de: (i) ...; (ii) ..."
        ("4 por ciento del importe bruto de los intereses provenientes de: (i) préstamos concedidos por bancos; "
         "(ii) bonos negociados en una bolsa de valores reconocida;", ["(i) préstamos", "(ii) bonos"]),
    ],
)
def test_a_lettered_list_in_lower_case_on_one_line_is_split_at_its_labels(line: str, starts: list[str]) -> None:
    assert [line[end:end + len(s)] for (_, end), s in zip(inline_list_gaps(line), starts, strict=True)] == starts


@pytest.mark.parametrize(
    "line",
    [
        # a reference to a point, no list after it
        "Lo dispuesto en el apartado 2: a) del artículo 10 no se aplica a los dividendos.",
        # an "a)" with no "b)" after a ";"
        "El impuesto así exigido no podrá exceder del: a) diez por ciento del importe bruto de los intereses.",
        "as provided in subparagraph (a) of paragraph 2 and (b) of paragraph 3",
    ],
)
def test_a_label_that_opens_no_list_is_left_in_the_line(line: str) -> None:
    assert inline_list_gaps(line) == []


def test_paragraphs_printed_on_one_line_then_hard_wrapped_are_cut_in_sequence() -> None:
    # the line of article 11 wrapped at 60 columns: "2-" ends a line, "3-" and "(c)" start in the middle of others
    text = ("Artigo 11 -\nJuros\n"
            "1- Os juros provenientes de um Estado Contratante podem ser\n"
            "tributados nesse outro Estado. 2-\n"
            "No entanto, o imposto assim estabelecido não poderá exceder 10\n"
            "por cento do montante bruto dos juros. 3- Não obstante o disposto\n"
            "no n.º 2, os juros são isentos se: a) O devedor for o Governo; ou\n"
            "b) Os juros forem pagos ao Banco Central. 4- O termo «juros»\n"
            "significa os rendimentos de créditos de qualquer natureza.\n"
            "Artigo 12 -\nRoyalties\n1- As royalties podem ser tributadas.\n")
    article = taxtreaty.parse(text).versions[0].articles[0]
    assert [p.number for p in article.paragraphs] == ["1", "2", "3", "4"]
    assert "não poderá exceder 10 por cento" in article.paragraphs[1].text
    assert [pt.label for pt in article.paragraphs[2].points] == ["a", "b"]


def test_a_wrapped_list_in_lower_case_goes_on_at_its_next_labels() -> None:
    text = ("Article 5\nPermanent establishment\n"
            "2. The term includes especially: (a) a place of management; (b) a\n"
            "branch; (c) an office; (d) a factory; (e)\n"
            "a workshop.\n"
            "Article 6\nIncome from immovable property\n1. Income may be taxed.\n")
    paragraph = taxtreaty.parse(text).versions[0].articles[0].paragraphs[0]
    assert [pt.label for pt in paragraph.points] == ["a", "b", "c", "d", "e"]


def test_a_no_break_space_inside_the_gap_of_a_list_keeps_one_line_break() -> None:
    text = "o imposto não poderá exceder: a) 8 por cento dos dividendos;\u00a0 b) 12 por cento nos restantes casos."
    assert clean(text).text.split("\n") == ["o imposto não poderá exceder:", "a) 8 por cento dos dividendos;",
                                            "b) 12 por cento nos restantes casos."]


def test_the_resolutions_articles_wrapped_are_not_the_conventions() -> None:
    # the Boletim da República: the Council of Ministers' "Artigo 1.É ratificada ..." and "Art. 2. O Ministério
    # ... fica encarregue de real-" hard-wrapped before the convention's own articles
    text = ("Artigo 1.É ratificada a Convenção entre a República de Moçambique\n"
            "e a República de Angola, cujo texto em anexo faz parte integrante da presente Resolução.\n"
            "Art. 2. O Ministério da Economia e Finanças fica encarregue de real-\n"
            "izar todos os trâmites necessários.\n"
            "Convenção entre a República de Moçambique e a República de Angola para Evitar a Dupla Tributação\n"
            "Artigo 1 -\nPessoas visadas\nEsta Convenção aplica-se às pessoas residentes.\n"
            "Artigo 2 -\nImpostos visados\n1- Esta Convenção aplica-se aos impostos sobre o rendimento.\n"
            "Artigo 3 -\nDefinições gerais\n1- Para efeitos desta Convenção, o termo «pessoa» compreende uma sociedade.\n")
    versions = taxtreaty.parse(text).versions
    assert [[(a.number, a.topic) for a in v.articles] for v in versions] == [
        [("1", "persons_covered"), ("2", "taxes_covered"), ("3", "general_definitions")]]


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        # South Africa's Government Gazette: the even page's running line and the foot of every page
        ("4 No. 31943 GOVERNMENT GAZETTE, 6 MARCH 2009", "south_african_gazette_page"),
        ("This gazette is also available free online at www.gpwonline.co.za", "south_african_gazette_page"),
        ("STAATSKOERANT, 6 MAART 2009 No. 31943 5", "gazette_title_dated"),
        # the Boletim da República de Moçambique
        ("PUBLICAÇÃO OFICIAL DA REPÚBLICA DE MOÇAMBIQUE", "boletim_da_republica"),
        ("2.º SUPLEMENTO", "boletim_da_republica"),
        ("9 DE JUNHO DE 2016 412-(5)", "boletim_da_republica"),
        ("412-(6) I SÉRIE — NÚMERO 68", "boletim_da_republica"),
        # other gazettes' titles alone on their line
        ("BOLETIM OFICIAL DA REPÚBLICA DE CABO VERDE", "gazette_title_alone"),
        ("Commonwealth of Australia Gazette", "gazette_title_alone"),
        ("THE MALTA GOVERNMENT GAZETTE", "gazette_title_alone"),
        # sentences that name a gazette stay
        ("published in the Government Gazette", None),
        ("This Convention shall be published in the Official Gazette of the Republic.", None),
        ("O Boletim Oficial publicará a presente Convenção", None),
    ],
)
def test_gazette_furniture_of_other_collections(line: str, rule: str | None) -> None:
    assert furniture_rule(line, "") == rule


SA_NOTICE = (
    "GOVERNMENT NOTICE\nSOUTH AFRICAN REVENUE SERVICE\nINCOME TAX ACT, 1962\n"
    "In terms of section 108(2) of the Income Tax Act, 1962, it is hereby notified that the Convention set out in "
    "the Schedule to this Notice has been entered into with the Republic of Zambia. It is further notified in terms "
    "of paragraph 1 of Article 28 of the Convention that the date of entry into force is 27 January 2009.\n"
    "SCHEDULE\n"
    "CONVENTION BETWEEN THE REPUBLIC OF SOUTH AFRICA AND THE REPUBLIC OF ZAMBIA FOR THE AVOIDANCE OF DOUBLE TAXATION\n"
    "ARTICLE 11\nINTEREST\n"
    "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in\n"
    "4 No. 31943 GOVERNMENT GAZETTE, 6 MARCH 2009\n"
    "that other State.\n"
    "2. However, such interest may also be taxed in the Contracting State in which it arises, but if the beneficial "
    "owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed 10 per "
    "cent of the gross amount of the interest.\n"
    "This gazette is also available free online at www.gpwonline.co.za\n"
    "ARTICLE 28\nENTRY INTO FORCE\n"
    "1. The Convention shall enter into force on the date of the later of these notifications and shall thereupon "
    "have effect:\n(a) with regard to taxes withheld at source, in respect of amounts paid or credited on or after "
    "the first day of January next following the date upon which this Convention enters into force;\n"
    "DONE at Pretoria this 22nd day of May 2008, in duplicate.\n"
)


def test_a_south_african_notice_its_page_furniture_and_the_entry_into_force_it_states() -> None:
    article = taxtreaty.parse(SA_NOTICE).versions[0].articles[0]
    assert article.paragraphs[0].text.endswith("may be taxed in that other State.")
    assert "gpwonline" not in article.paragraphs[1].text
    scenario = {"income": "interest", "source": "ZA", "residence": "ZM", "beneficial_owner": True, "recipient": "company"}
    before = taxtreaty.decide(taxtreaty.parse(SA_NOTICE), {**scenario, "date": "2009-06-01"})
    after = taxtreaty.decide(taxtreaty.parse(SA_NOTICE), {**scenario, "date": "2010-03-01"})
    assert before.status == "not_covered"  # the notice's 27 January 2009: effect from 1 January 2010
    assert (after.status, after.max_rate_pct) == ("determined", 10)


@pytest.mark.parametrize("first", ["1.", "1\\.", "(1)", "\\(1)"])
def test_paragraphs_run_on_under_a_first_one_a_converter_escaped(first: str) -> None:
    # a markdown copy escapes the marker at the line start only ("1\\. Os dividendos ... Estado. 2. No entanto")
    text = _pt("Artigo 10.º", "Artigo 12.º").replace(
        "1 — Os dividendos pagos por uma sociedade podem ser tributados.\n",
        f"{first} Os dividendos pagos por uma sociedade podem ser tributados nesse outro Estado. "
        f"{first.replace(chr(92), '').replace('1', '2')} No entanto, esses dividendos podem ser igualmente tributados "
        f"no Estado de que é residente a sociedade que paga os dividendos, mas o imposto assim estabelecido não poderá "
        f"exceder 15% do montante bruto dos dividendos.\n")
    article = taxtreaty.parse(text).versions[0].articles[1]
    assert article.number == "10" and [p.number for p in article.paragraphs] == ["1", "2"]
