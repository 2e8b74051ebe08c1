"""Inputs the fuzzers found, kept inline so they are checked forever.

Two kinds:
- crashes of `parse` found by bench/fuzz_parse.py (atheris, or its plain random mode): the input
  must now parse, or be refused with a one-line InputError;
- invariant violations found by tests/test_fuzz.py (damage that changed an answer instead of
  lowering certainty), reduced by hand to a few lines. Those not yet fixed are marked
  `xfail(strict=True)` with the stage that owns the fix: when the fix lands the test passes, and
  strict mode makes the run fail until the marker is removed, so a fix is never silent.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from taxtreaty import InputError, parse
from taxtreaty.structure.model import iter_nodes

# -- parse must not crash -----------------------------------------------------------------------


#: bytes that once crashed `parse`, or that exercise its refusal paths (found by bench/fuzz_parse.py)
PARSE_INPUTS: list[bytes] = [
    b"",
    b"\x00",
    b"\xff\xfe",                                  # a UTF-16 BOM and nothing else
    b"\xef\xbb\xbf",                              # a UTF-8 BOM and nothing else
    b"\xff\xfeA\x00r\x00t\x00",                   # UTF-16 text cut inside a code unit pair
    b"\xfe\xff\x00A\x00",                          # UTF-16-BE, odd length
    "Artigo 1.º\n1 —".encode(),
    "ARTIGO «.*\n\n1 — a)\n£>)\nHi)\n".encode(),
    b"Article 10\n(a)\n(b)\n(a)\n(a)\n(b)(c)\n",
    b"Article 999 bis\nArticle 1000\nArticle 0\n",
    "Artículo 10\n\n2 — el 15 % hasta el 31 de febrero de 1996".encode(),
    b"\r\r\r\rArticle 10\r\r1. x\r",
    b"Article 10\n1. " + "«".encode() * 5000,
    b"#" * 7 + b" Article 10\n" + b"1. " + b"(" * 3000,
    # atheris, 2026-11-30, commit 74875cc (fixed the same day): clean() raised IndexError on a line
    # that is only a markdown heading mark
    b"#\n",
    b"## \n",
    b"#",
]


@pytest.mark.parametrize("data", PARSE_INPUTS, ids=[str(i) for i in range(len(PARSE_INPUTS))])
def test_parse_survives_inputs_the_fuzzer_found(data: bytes) -> None:
    try:
        doc = parse(data)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    for version in doc.versions:
        eids = [n.eid for n in iter_nodes(version)]
        assert len(eids) == len(set(eids))
        assert all(0 <= n.span[0] <= n.span[1] <= len(doc.original) for n in iter_nodes(version))


# -- damage must lower certainty, never change a rate -------------------------------------------


def _caps(text: str, topic: str) -> list[tuple[str, Decimal | None, str]]:
    from taxtreaty.provisions import extract_provisions

    provisions = extract_provisions(parse(text)).find(topic=topic, kind="withholding_cap")
    return [(p.status, p.rate_pct, p.cite.eid) for p in provisions]


ES_DIVIDENDS_HEAD = """Artículo 10

Dividendos

1 — Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

"""


# found by test_fuzz (truncate): a list item cut after its capital threshold gave a 25% cap and a
# 5% cap without its holding condition; fixed (a clause the source stops inside yields no rate)
def test_a_list_item_cut_after_its_threshold_gives_no_rate_from_the_threshold() -> None:
    text = ES_DIVIDENDS_HEAD + (
        "2 — Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que "
        "resida la sociedad que paga los dividendos y según la legislación de ese Estado, pero, si el beneficiario "
        "efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá "
        "exceder del:\n\n"
        "a) 5 % del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea "
        "directamente al menos el 25 %\n"
    )
    caps = _caps(text, "dividends")
    assert not any(rate == Decimal("25") for _, rate, _ in caps), caps
    # the condition of (a) is cut: 5% may not be stated without the holding it needs
    assert all(status == "unknown" for status, rate, _ in caps if rate == Decimal("5")), caps


# found by test_fuzz (drop_lines): the next article's interest rates were read as dividend rates; fixed
def test_a_lost_article_heading_does_not_turn_interest_rates_into_dividend_rates() -> None:
    text = ES_DIVIDENDS_HEAD + (
        "2 — Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que "
        "resida la sociedad que paga los dividendos, pero el impuesto así exigido no podrá exceder del 10 % del "
        "importe bruto de los dividendos.\n\n"
        "Intereses\n\n"
        "2 — Sin embargo, dichos intereses pueden someterse también a imposición en el Estado Contratante del que "
        "procedan, pero el impuesto así exigido no podrá exceder del 15 % del importe bruto de los intereses, hasta "
        "el 31 de diciembre de 2004, y del doce por ciento de dicho importe, a partir del 1 de enero de 2005.\n"
    )
    rates = {rate for status, rate, _ in _caps(text, "dividends") if status == "determined"}
    assert rates <= {Decimal("10")}, rates


PT_OCR_ARTICLE_NUMBER = """Artigo 9.º — Empresas associadas

1 — Quando uma empresa de um Estado Contratante participar na direcção de uma empresa do outro Estado Contratante, os lucros podem ser incluídos nos lucros dessa empresa.

Artigo 1O.º — Dividendos

1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:

Artigo 11.º — Juros

1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá 10 % do montante bruto dos juros.
"""


# found by test_fuzz (ocr_swap): "Artigo 1O.º" gave article "1o", split the text into two versions
# and swallowed article 11; fixed
def test_an_ocr_letter_o_in_an_article_number_is_read_as_zero() -> None:
    doc = parse(PT_OCR_ARTICLE_NUMBER)
    assert len(doc.versions) == 1
    assert [a.number for a in doc.versions[0].articles] == ["9", "10", "11"]
    assert doc.versions[0].article("11").paragraph("2") is not None


#: 260 levels of "a) i) 1) A)" each opening a deeper list: 1,040 nested points (test_limits found it)
DEEP_POINTS = "Artigo 10.º — Dividendos\n1 — Texto:\n" + "".join(f"{label})\n" for label in "ai1A" * 260)


# found by tests/test_limits.py: _point_models recursed once per nesting level and 1,040 levels
# raised RecursionError; fixed
def test_deeply_nested_points_do_not_crash_parse() -> None:
    doc = parse(DEEP_POINTS)
    assert doc.versions[0].article("10") is not None
