"""Stage 1 tables: decoding, furniture, joining, span map, number and label cleaning."""

from __future__ import annotations

import pytest

from taxtreaty.structure.numbers import (
    clean_article_number,
    clean_label,
    label_kinds,
    label_value,
    roman_to_int,
)
from taxtreaty.text import InputError, check_lines, clean, decode_bytes
from taxtreaty.text.clean import furniture_rule, repeated_lines


@pytest.mark.parametrize(
    ("raw", "number"),
    [("10.º", "10"), ("8 A", "8a"), ("8A", "8a"), ("12.°", "12"), ('7."', "7"), ("10 bis", "10bis"), ("3", "3")],
)
def test_article_number_cleaning(raw: str, number: str) -> None:
    assert clean_article_number(raw) == number


@pytest.mark.parametrize(
    ("raw", "label", "kinds"),
    [("a)", "a", ["letter"]), ("(b)", "b", ["letter"]), ("i)", "i", ["letter", "roman"]),
     ("(aa)", "aa", ["letter", "double"]), ("(ii)", "ii", ["letter", "roman", "double"]), ("A)", "A", ["upper"]), ("(3)", "3", ["number"])],
)
def test_label_cleaning_and_kinds(raw: str, label: str, kinds: list[str]) -> None:
    cleaned = clean_label(raw.removesuffix(")") if not raw.startswith("(") else raw)
    assert cleaned == label
    assert label_kinds(cleaned) == kinds


def test_label_values() -> None:
    assert [roman_to_int(x) for x in ("i", "iv", "ix", "xiv", "iiii", "vv")] == [1, 4, 9, 14, None, None]
    assert label_value("bb", "double") == 2 and label_value("z", "letter") == 26 and label_value("aa", "letter") == 27


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("13 DE SETEMBRO DE 1996", "date_line"), ("3 de novembro de 1997", "date_line"),
        ("September 13, 1996", "date_line"), ("1473", "page_number"), ("198-(15)", "page_number"),
        ("- 12 -", "page_number"), ("Page 3 of 20", "page_number"), ("Página 4 de 9", "page_number"),
        ("II SÉRIE — NÚMERO 53", "series_line"), ("DIÁRIO DA REPÚBLICA — I SÉRIE-A", "gazette_title"),
        ("BOE núm. 45 Sábado 21 de febrero de 2015 Sec. I. Pág. 13872", "gazette_title"),
        ("1 — Os dividendos pagos", None), ("Artigo 10.º", None), ("10 per cent of the gross amount", None),
        # a running header that prints the date before the gazette's title (even pages of the Diário da República)
        ("12 de janeiro de 2015 Diário da República, 1.ª série — N.º 7 255", "gazette_title"),
        ("Lunes 23 de mayo de 2016 BOLETÍN OFICIAL DEL ESTADO Núm. 123", "gazette_title"),
        ("12 de janeiro de 2015 o Governo da República Portuguesa", None), ("4 de outubro de 2013 255", None),
    ],
)
def test_furniture_lines(line: str, rule: str | None) -> None:
    assert furniture_rule(line, "") == rule


def test_a_number_after_a_bare_heading_word_is_not_a_page_number() -> None:
    assert furniture_rule("11", "ARTIGO") is None
    assert furniture_rule("11", "a sentence.") == "page_number"


def test_running_headers_are_found_by_repetition_but_structure_is_not() -> None:
    page = "TAX AGREEMENT - ITALY / IRELAND\n- {n} -\nArticle {n}\nDividends\n1. Text;\n(a) item;\nARTIGO\n"
    text = "".join(page.format(n=n) for n in range(1, 5))
    assert repeated_lines(text) == frozenset({"TAX AGREEMENT - ITALY / IRELAND"})
    # the same repeated line away from any page break is kept
    assert repeated_lines(text.replace("- ", "Text ").replace(" -", " text.")) == frozenset()


def test_hyphen_join_across_page_furniture_and_span_map() -> None:
    original = "2 — o imposto não excederá 10% do mon-\n\n1474\n\nII SÉRIE — NÚMERO 53\n\ntante bruto dos dividendos.\n"
    ct = clean(original)
    assert ct.text == "2 — o imposto não excederá 10% do montante bruto dos dividendos."
    start = ct.text.index("montante")
    a, b = ct.original_span(start, start + len("montante bruto"))
    assert original[a:b].startswith("mon-") and original[a:b].endswith("tante bruto")
    assert {rule for _, _, rule in ct.furniture} == {"page_number", "series_line"}
    # every cleaned character maps inside the original
    for i in range(len(ct.text)):
        s, e = ct.original_span(i, i + 1)
        assert 0 <= s <= e <= len(original)


def test_mojibake_is_repaired_and_inline_points_split() -> None:
    ct = clean("CONVENÃ‡ÃƒO ENTRE A REPÃšBLICA PORTUGUESA\na) Ao Estado; ii) Ao Banco Central; b) A outro.\n")
    assert ct.text.splitlines()[0] == "CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA"
    assert ct.text.splitlines()[1:] == ["a) Ao Estado;", "ii) Ao Banco Central;", "b) A outro."]


MOJIBAKE_FORMS = [
    # (text as written, how a copy that read its UTF-8 bytes as another encoding prints it)
    ("the term “royalties” means – as “dividends” –", "latin-1"),  # no accented letter: the quotes alone tell
    ("the company’s capital – as defined", "cp1252"),
    ("Artículo 12 — no podrá exceder del 3 por ciento", "latin-1"),
    ("Artigo 10.º — não excederá 15 por cento", "latin-1"),
]


@pytest.mark.parametrize(("written", "encoding"), MOJIBAKE_FORMS)
def test_mojibake_of_either_single_byte_reading_is_repaired(written: str, encoding: str) -> None:
    # Latin-1 turns the bytes of "“" into "â" and two C1 controls (cp1252 into "â€œ"): both are repaired,
    # the repair straightening curly quotes
    mangled = written.encode("utf-8").decode(encoding)
    assert mangled != written
    assert clean(mangled + "\n").text.strip() == written.replace("“", '"').replace("”", '"').replace("’", "'")


def test_decode_table() -> None:
    text = "Artigo 10.º — Dividendos «x»\n"
    assert decode_bytes(text.encode("utf-8")).encoding == "utf-8"
    assert decode_bytes(text.encode("utf-16")).text == text
    assert decode_bytes(text.encode("utf-16-be")).encoding == "utf-16-be"
    latin = decode_bytes("Artigo 10 - Dividendos «x» São\n".encode("latin-1"))
    assert latin.text == "Artigo 10 - Dividendos «x» São\n" and latin.warnings
    for bad, message in ((b"", "empty"), (b"\x00\x01\x02\x03" * 20, "binary"), (b"a" * 101, "over the")):
        with pytest.raises(InputError, match=message):
            decode_bytes(bad, max_bytes=100)
    with pytest.raises(InputError, match="line limit"):
        check_lines("x\n" * 11, max_lines=10)


def test_a_running_line_next_to_another_running_line_is_found_too() -> None:
    # a PDF copy's header: the print date and title above the copy's address and page count; only the
    # address touches a page number, the title line touches the address
    page = ("8/3/2019 DTC agreement between Norvalia and Estmark\n"
            "http://slidepdf.com/reader/full/dtc-agreement-between-norvalia-and-estmark {n}/12\n"
            "{n}\nArticle {n}\nDividends shall be taxed as follows in the State of residence.\n")
    text = "".join(page.format(n=n) for n in range(1, 5))
    assert repeated_lines(text) == frozenset({
        "#/#/# DTC agreement between Norvalia and Estmark",
        "http://slidepdf.com/reader/full/dtc-agreement-between-norvalia-and-estmark #/#"})
