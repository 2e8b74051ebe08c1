"""A label at the start of a line, right after a line that ends naming a division ("... and
subparagraph" then "a) of paragraph 3 shall not apply"), is the label that cross-reference names:
the sentence goes on, no new item opens (the hard wrap of NL-JP 10(5), paraphrased), in en/es/pt.
The cleaner joins such a line to the one before, so every later stage reads one sentence."""

from __future__ import annotations

import pytest

import taxtreaty

_EN = """Article 10
Dividends

1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.

2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but the tax so charged shall not exceed:
a) 5 per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly at least 10 per cent of the capital of the company paying the dividends;
b) 15 per cent of the gross amount of the dividends in all other cases.

3. The provisions of subparagraph a) of paragraph 2 and sub-paragraph
{label} of paragraph 2 shall not apply in the case of dividends paid by a company which is entitled to a deduction for dividends paid.

4. The term "dividends" means income from shares.
"""

_ES = """Artículo 10
Dividendos

1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado en que resida la sociedad que paga los dividendos, pero el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 10 por ciento del capital;
b) 15 por ciento del importe bruto de los dividendos en los demás casos.

3. Lo dispuesto en el inciso
{label} del apartado 2 no se aplicará a los dividendos pagados por una sociedad que tenga derecho a deducir los dividendos pagados.

4. El término "dividendos" significa los rendimientos de las acciones.
"""

_PT = """Artigo 10.º
Dividendos

1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado de que é residente a sociedade que paga os dividendos, mas o imposto assim estabelecido não excederá:
a) 5 por cento do montante bruto dos dividendos, se o seu beneficiário efectivo for uma sociedade que detenha directamente pelo menos 10 por cento do capital;
b) 15 por cento do montante bruto dos dividendos, nos restantes casos.

3 — O disposto na alínea
{label} do n.º 2 não é aplicável aos dividendos pagos por uma sociedade que tenha direito a deduzir os dividendos pagos.

4 — O termo «dividendos» significa os rendimentos provenientes de acções.
"""

CASES = [
    ("en", _EN, "10", "b)", "sub-paragraph b) of paragraph 2 shall not apply"),
    ("en", _EN, "10", "(a)", "sub-paragraph (a) of paragraph 2 shall not apply"),
    ("es", _ES, "10", "a)", "el inciso a) del apartado 2 no se aplicará"),
    ("es", _ES, "10", "(b)", "el inciso (b) del apartado 2 no se aplicará"),
    ("pt", _PT, "10", "a)", "na alínea a) do n.º 2 não é aplicável"),
    ("pt", _PT, "10", "b)", "na alínea b) do n.º 2 não é aplicável"),
]


@pytest.mark.parametrize(("language", "template", "article", "label", "sentence"), CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_a_label_wrapped_after_a_division_word_goes_on_the_reference(
        language: str, template: str, article: str, label: str, sentence: str) -> None:
    doc = taxtreaty.parse(template.format(label=label))
    art = doc.versions[0].article(article)
    assert [p.number for p in art.paragraphs] == ["1", "2", "3", "4"]
    assert [p.label for p in art.paragraph("2").points] == ["a", "b"]
    switch = art.paragraph("3")
    assert switch.points == []
    assert sentence in switch.text  # one sentence, the wrap joined
    assert not [w for w in doc.warnings if w.code in ("list_items_missing", "duplicate_eid")]


@pytest.mark.parametrize(("language", "template"), [("en", _EN), ("es", _ES), ("pt", _PT)])
def test_an_item_after_a_line_ending_its_sentence_is_still_an_item(language: str, template: str) -> None:
    # the counter-case: a line that ends its item ("...;") before the next label opens that item,
    # whatever division word the item's text names
    text = template.format(label="a)").replace("10 per cent of the capital of the company paying the dividends;",
                                               "10 per cent of the capital referred to in paragraph;")
    text = text.replace("10 por ciento del capital;", "10 por ciento del capital del apartado;")
    text = text.replace("10 por cento do capital;", "10 por cento do capital da alínea;")
    doc = taxtreaty.parse(text)
    assert [p.label for p in doc.versions[0].article("10").paragraph("2").points] == ["a", "b"]
