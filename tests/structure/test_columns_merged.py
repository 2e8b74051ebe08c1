"""A page printed in two columns that a copy read line by line across both (El Peruano in SUNAT's files, a Diário
da República scan): the parser warns `columns_merged`, and every answer on the text says it rests on such a
layout; a text in one column, hard-wrapped or not, never warns. Texts of our own words in those shapes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import taxtreaty

CASES = Path(__file__).resolve().parents[1] / "cases"

# our own words, as a copy of an El Peruano page reads it: the left column's line, one blank, the right column's
# line (here the convention's articles 10 and 11 beside its articles 2 and 3)
EL_PERUANO = """CONVENIO ENTRE LA REPÚBLICA DEL PERÚ Y LA REPÚBLICA DE COREA PARA EVITAR LA DOBLE TRIBUTACIÓN
Artículo 2 Artículo 10
IMPUESTOS COMPRENDIDOS DIVIDENDOS
1. El presente Convenio se aplica a los impuestos 1. Los dividendos pagados por una sociedad residente
sobre la renta exigibles por cada uno de los Estados de un Estado Contratante a un residente del otro
Contratantes, cualquiera que sea el sistema de su Estado Contratante pueden someterse a imposición
exacción. en ese otro Estado.
2. Se consideran impuestos sobre la renta los que 2. Sin embargo, dichos dividendos pueden someterse
gravan la totalidad de la renta o cualquier parte de también a imposición en el Estado Contratante en que
la misma, incluidos los impuestos sobre las ganancias resida la sociedad que paga los dividendos, pero el
derivadas de la enajenación de bienes muebles, impuesto así exigido no podrá exceder del:
3. Los impuestos actuales a los que se aplica este (a) 10 por ciento del importe bruto de los dividendos
Convenio son, en particular: si el beneficiario efectivo es una sociedad;
(a) en Perú, los impuestos establecidos en la Ley del (b) 15 por ciento del importe bruto de los dividendos
Impuesto a la Renta; y en todos los demás casos.
(b) en Corea, el impuesto sobre la renta y el impuesto 3. El término "dividendos" en el sentido de este
sobre sociedades. artículo significa los rendimientos de las acciones.
Artículo 3 Artículo 11
DEFINICIONES GENERALES INTERESES
1. A los efectos del presente Convenio, a menos que 1. Los intereses procedentes de un Estado Contratante
de su contexto se infiera una interpretación y pagados a un residente del otro Estado Contratante
diferente: (a) el término "persona" comprende las pueden someterse a imposición en ese otro Estado.
personas naturales, las sociedades y cualquier otra 2. Sin embargo, dichos intereses pueden someterse
agrupación de personas; (b) el término "sociedad" también a imposición en el Estado Contratante del
significa cualquier persona jurídica; y que procedan, pero el impuesto así exigido no podrá
(c) la expresión "tráfico internacional" significa exceder del 15 por ciento del importe bruto.
"""
CASE = {"income": "dividends", "source": "PE", "residence": "KR", "beneficial_owner": True, "recipient": "individual"}


def _warnings(text: str) -> list[str]:
    return [w.code for w in taxtreaty.parse(text.encode()).warnings]


def test_a_page_of_two_columns_read_across_warns() -> None:
    doc = taxtreaty.parse(EL_PERUANO.encode())
    merged = [w for w in doc.warnings if w.code == "columns_merged"]
    assert len(merged) == 1 and "two columns" in merged[0].message
    decision = taxtreaty.decide(doc, CASE).to_dict()
    assert {"fact": "layout", "value": "two columns merged"}.items() <= next(
        a for a in decision["assumptions"] if a["fact"] == "layout").items()


def _two_columns(text: str, separator: str, width: int = 48, rows: int = 50) -> str:
    """`text` as a page of two columns of `width` characters read line by line across both."""
    lines = [piece for line in text.split("\n") if line.strip() for piece in textwrap.wrap(line, width)]
    out = []
    for top in range(0, len(lines), 2 * rows):
        left, right = lines[top:top + rows], lines[top + rows:top + 2 * rows]
        out += [(left[k].ljust(width) + separator + (right[k] if k < len(right) else "")).rstrip()
                if separator.strip() == "" and len(separator) > 1 else
                f"{left[k]} {right[k] if k < len(right) else ''}".rstrip() for k in range(len(left))]
    return "\n".join(out)


@pytest.mark.parametrize("treaty", ["gazette_es_dof_mx_pa.txt", "gazette_pt_dre_pt_hr.txt", "gazette_en_uksi_gb_gh.txt",
                                    "gazette_es_boe_es_cr.txt"])
@pytest.mark.parametrize("separator", [" ", "      "], ids=["one-blank", "layout"])
def test_our_gazette_texts_read_across_two_columns_warn(treaty: str, separator: str) -> None:
    text = (CASES / "treaties" / treaty).read_text(encoding="utf-8")
    assert "columns_merged" not in _warnings(text)
    assert "columns_merged" not in _warnings(textwrap.fill(text, 70, replace_whitespace=False))  # hard-wrapped
    assert "columns_merged" in _warnings(_two_columns(text, separator))


def test_references_in_mid_line_are_no_sign() -> None:
    # a text in one column, hard-wrapped, whose lines hold references to paragraphs and points in mid-line
    line = ("no obstante lo dispuesto en el apartado 2 (b) del artículo 12 y en los párrafos 1 y 2. Los intereses\n"
            "a que se refieren las letras a) y b) del párrafo 3 no se gravan; conforme al subapartado 3 (a), el impuesto\n")
    text = EL_PERUANO.split("\n")[0] + "\nArtículo 1\nPERSONAS\n1. El presente Convenio se aplica a las personas.\n"
    assert "columns_merged" not in _warnings(text + line * 8)
