"""Structure, Portuguese-language gazettes: the page furniture of Brazil's Diário Oficial da União (its printed
pages, its web copy, the Planalto copy) and the promulgating decree's own articles, kept apart from the
convention. Lines are the gazettes' own furniture; the sentences around them are our own."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text import clean
from taxtreaty.text.furniture import furniture_rule


@pytest.mark.parametrize(("line", "rule"), [
    ("Documento assinado digitalmente conforme MP nº 2.200-2 de 24/08/2001,", "dou_page_furniture"),
    ("que institui a Infraestrutura de Chaves Públicas Brasileira - ICP-Brasil.", "dou_page_furniture"),
    ("Este documento pode ser verificado no endereço eletrônico", "dou_page_furniture"),
    ("http://www.in.gov.br/autenticidade.html, pelo código 05152022063000005", "dou_page_furniture"),
    ("ISSN 1677-7042", "dou_page_furniture"),
    ("Seção 1", "dou_page_furniture"),
    ("Publicado em: 22/05/2024 | Edição: 97 | Seção: 1 | Página: 2", "dou_page_furniture"),
    ("Órgão: Atos do Poder Executivo", "dou_page_furniture"),
    ("Publicado no DOU em 13 out 2025", "dou_page_furniture"),
    ("Este conteúdo não substitui o publicado na versão certificada.", "dou_page_furniture"),
    ("Este texto não substitui o publicado no D.O.U. de 14.11.2001", "dou_page_furniture"),
    ("Nº 122, quinta-feira, 30 de junho de 2022", "series_line"),
    # the Diário da Assembleia da República: its page first, then the series line
    ("13 | II Série A - Número: 095S1 | 11 de Janeiro de 2012", "series_line"),
    ("II SÉRIE-A — NÚMERO 41", "series_line"),
    # sentences of a convention or a decree stay text
    ("Este Decreto entra em vigor na data de sua publicação.", None),
    # a wrapped sentence that opens with a reference or an act's number is no issue line: it was dropped whole
    ("n.º 2 do artigo 10.º, os juros provenientes de um Estado Contratante só podem ser tributados", None),
    ("N.º 3 do artigo 11.º, são isentos de imposto no primeiro Estado.", None),
    ("no 188, de 8 de junho de 2001;", None),
    ("Esta Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes.", None),
])
def test_dou_page_furniture(line, rule):
    assert furniture_rule(line) == rule


INTEREST = """Artigo 11
Juros
1. Os juros provenientes de um Estado Contratante e pagos a um residente
do outro Estado Contratante poderão ser tributados nesse outro Estado.
2. Todavia, esses juros poderão também ser tributados no Estado Contratante de
que provierem e de acordo com a legislação desse Estado, mas, se o beneficiário efetivo dos
Documento assinado digitalmente conforme MP nº 2.200-2 de 24/08/2001,
que institui a Infraestrutura de Chaves Públicas Brasileira - ICP-Brasil.
Este documento pode ser verificado no endereço eletrônico
http://www.in.gov.br/autenticidade.html, pelo código 05152022063000006
6
Nº 122, quinta-feira, 30 de junho de 2022
ISSN 1677-7042
Seção 1
juros for um residente do outro Estado Contratante, o imposto assim exigido não excederá 15 por cento do
montante bruto dos juros.
"""


def test_a_dou_page_break_inside_a_sentence_leaves_the_beneficial_owner_clause_whole():
    doc = taxtreaty.parse(INTEREST)
    ps = taxtreaty.provisions(doc)
    cap = next(p for p in ps.provisions if p.kind == "withholding_cap" and p.cite.eid == "art_11__para_2")
    assert str(cap.rate_pct) == "15"
    assert cap.conditions.get("beneficial_owner") is True
    # the quote is the source as printed (furniture and all); the paragraph's words are the convention's only
    text = doc.versions[0].articles[0].paragraphs[1].text
    assert "ICP-Brasil" not in text and "ISSN" not in text and "efetivo dos juros for um residente" in text


DECREE = """DECRETO Nº 9.000, DE 1º DE MARÇO DE 2019

Promulga a Convenção entre a República Federativa do Brasil e a República de Singapura.

DECRETA:

Art. 1º Fica promulgada a Convenção, anexa a este Decreto.

Art. 2º São sujeitos à aprovação do Congresso Nacional atos que possam resultar em revisão da Convenção.

Art. 3º Este Decreto entra em vigor na data de sua publicação.

CONVENÇÃO ENTRE A REPÚBLICA FEDERATIVA DO BRASIL E A REPÚBLICA DE SINGAPURA

Artigo 1
Pessoas Visadas

Esta Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes.

Artigo 2
Tributos Visados

1. Esta Convenção aplica-se aos tributos sobre a renda.
"""


@pytest.mark.parametrize("first", ["Fica promulgada a Convenção, anexa a este Decreto.",
                                   "Ficam promulgados a Convenção e o seu Protocolo, anexos a este Decreto."])
def test_the_promulgating_decrees_articles_are_not_the_conventions(first):
    doc = taxtreaty.parse(DECREE.replace("Fica promulgada a Convenção, anexa a este Decreto.", first))
    assert len(doc.versions) == 1
    assert [(a.number, a.topic) for a in doc.versions[0].articles] == [("1", "persons_covered"), ("2", "taxes_covered")]


PROTOCOL = """Artigo 11.º
Juros
1. Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser
tributados nesse outro Estado.

PROTOCOLO

No momento da assinatura da Convenção, os signatários acordaram as seguintes disposições, que fazem parte
integrante da Convenção:

1. Ad n.º 1 do artigo 11.º

Entende-se que a expressão «juros» não compreende as penalizações por pagamento tardio.
"""


def test_a_protocol_opening_that_announces_its_numbered_points_is_no_missing_list():
    doc = taxtreaty.parse(PROTOCOL)
    assert [p.number for p in doc.versions[0].protocols[0].paragraphs] == [None, "1"]
    assert not [w for w in doc.warnings if w.code == "list_items_missing"]
    cut = taxtreaty.parse(PROTOCOL.split("1. Ad n.º")[0])  # the points are not in the source: the warning stays
    assert [w for w in cut.warnings if w.code == "list_items_missing"]


def test_a_wrapped_line_that_opens_with_a_paragraph_reference_is_kept() -> None:
    # a two-column print wraps "... no" / "n.º 2 do artigo 10.º, ...": the second line is the sentence going on
    text = ("Artigo 11.º\nJuros\n3 — Não obstante o disposto no\nn.º 2 do artigo 10.º, os juros pagos ao Banco Central "
            "do outro Estado Contratante só podem ser tributados nesse outro Estado.\n")
    assert "n.º 2 do artigo 10.º, os juros pagos ao Banco Central" in clean(text).text


RESOLUTION_ARTICLES = {
    # Mozambique's Boletim da República: the resolution's last article (the page before it not in the copy), its
    # reservation on dual nationals
    "mz": "Art. 2. A faculdade conferida na alínea d) do n.º 2 do artigo 4 da Convenção às autoridades competentes "
          "entende-se sem prejuízo.\nAprovada pelo Conselho de Ministros.\n",
    # Angola's and Cabo Verde's: each article's title on a line of its own, bracketed or not
    "ao": "Artigo 1.º\n(Aprovação)\nÉ aprovada, para ratificação, a Convenção entre a República de Angola e a "
          "República das Maurícias, anexa à presente Resolução.\nArtigo 2.º\n(Dúvidas e omissões)\nAs dúvidas e omissões "
          "resultantes da aplicação da presente Resolução são resolvidas pela Assembleia Nacional.\nArtigo 3.º\n"
          "Entrada em vigor\nA presente Resolução entra em vigor na data da sua publicação.\n",
}


@pytest.mark.parametrize("gazette", sorted(RESOLUTION_ARTICLES))
def test_a_ratifying_resolutions_articles_are_not_a_second_convention(gazette):
    word = "ARTIGO" if gazette == "mz" else "Artigo"  # Mozambique's convention: "ARTIGO 1" / "(Pessoas visadas)"
    number = "" if gazette == "mz" else ".º"
    text = (f"Resolução n.º 7/19\n\n{RESOLUTION_ARTICLES[gazette]}\nPublique-se.\n\nConvenção entre a República de "
            f"Moçambique e a República das Maurícias para evitar a dupla tributação em matéria de Impostos sobre o Rendimento\n\n{word} 1{number}\n(Pessoas "
            "visadas)\nA presente Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes.\n"
            f"{word} 21{number}\n(Outros rendimentos)\n1. Os elementos do rendimento de um residente de um Estado "
            "Contratante não tratados nos artigos anteriores só podem ser tributados nesse Estado.\n")
    doc = taxtreaty.parse(text)  # a copy of some of the convention's articles: its first, then its last
    assert len(doc.versions) == 1
    assert [(a.number, a.topic) for a in doc.versions[0].articles] == [("1", "persons_covered"), ("21", "other_income")]
