"""Brazil's promulgating decrees as the Planalto's older web pages print them (issue 11): the decree's own articles
with the article's sentence cut after its first word ("Art. 1o  A" / "Convenção entre a República Federativa do Brasil
e ..., apensa por cópia ao presente Decreto, será executada e cumprida tão inteiramente como nela se contém."), or
under a bare heading ("Art. 2o" / "São sujeitos à aprovação do Congresso Nacional ...", "Art. 3o" / "Este Decreto
entra em vigor ..."). Before, they were read as a first version of the convention of their own (articles "1 A", 2
and 3): every decision answered that the article on dividends was not in the text. The decree's statement of the
entry into force ("Considerando que a Convenção entrou em vigor em 5 de outubro de 2001") gives the dates of effect.
Sentences of our own in that shape."""

from __future__ import annotations

import pytest

import taxtreaty

DECREE = """DECRETO Nº 9.876, DE 13 DE NOVEMBRO DE
2003.
Promulga a Convenção entre a
República Federativa do Brasil e a República de Cabo Verde Destinada a
Evitar a Dupla Tributação em Matéria de Impostos sobre o Rendimento.
        O PRESIDENTE DA
REPÚBLICA, no uso da atribuição que lhe confere o art. 84,
inciso VIII, da Constituição,
        Considerando que a Convenção
entrou em vigor em 5 de outubro de 2003, nos termos do parágrafo 2
de seu Artigo 28,
        DECRETA:
        Art. 1o  A
Convenção entre a República Federativa do Brasil e a República
de Cabo Verde Destinada a Evitar a Dupla Tributação, apensa por cópia ao presente
Decreto, será executada e cumprida tão inteiramente como nela se
contém.
        Art. 2o
 São sujeitos à aprovação do Congresso Nacional quaisquer atos que
possam resultar em revisão da referida Convenção.
        Art. 3o
 Este Decreto entra em vigor na data de sua publicação.
Brasília, 13 de novembro de 2003; 182o da
Independência e 115o da República.
"""
CONVENTION = """CONVENÇÃO ENTRE A REPÚBLICA FEDERATIVA DO BRASIL E A REPÚBLICA DE CABO VERDE DESTINADA A EVITAR A DUPLA TRIBUTAÇÃO

Artigo 1o
Pessoas Visadas
Esta Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes.

Artigo 10
Dividendos
1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2. Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efetivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não poderá exceder 12 por cento do montante bruto dos dividendos.

Artigo 28
Entrada em Vigor
2. As suas disposições serão aplicáveis quanto aos impostos retidos na fonte, às importâncias pagas no ou depois do primeiro dia de janeiro do ano imediatamente seguinte àquele em que a Convenção entrar em vigor.

Feito em Brasília, em 16 de maio de 2002.
"""


def test_the_decrees_articles_are_not_the_conventions():
    document = taxtreaty.parse(DECREE + "\n" + CONVENTION)
    assert len(document.versions) == 1
    assert [(a.number, a.topic) for a in document.versions[0].articles] == [
        ("1", "persons_covered"), ("10", "dividends"), ("28", "entry_into_force")]


@pytest.mark.parametrize(("date", "expected"), [("2004-02-01", ("determined", "12")), ("2003-12-01", ("not_covered", None))])
def test_the_decrees_entry_into_force_gives_the_dates_of_effect(date, expected):
    scenario = {"income": "dividends", "source": "BR", "residence": "CV", "beneficial_owner": True,
                "recipient": "company", "date": date}
    decision = taxtreaty.decide(taxtreaty.parse(DECREE + "\n" + CONVENTION), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == expected
