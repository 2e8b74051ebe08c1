"""Colombia's approving laws as the Senate's and the Función Pública's web copies print them (issue 11): the law's
heading and "Visto el texto del ... que a la letra dice:" first, the convention's headings "Artículo 1o." (the
ordinal mark as a letter o, then a stop) with the title on the next line closed by a stop ("Personas
comprendidas."), and after the signature the Executive's approval and the law's own "DECRETA: Artículo 1o.
Apruébase ..." (never the convention's articles). Before, a heading "Artículo 1o." took the stop for its title: the
title on the next line was lost, and article 2 matched no topic. Sentences of our own in that shape."""

from __future__ import annotations

import pytest

import taxtreaty

_HEAD = """LEY 1234 DE 2010
(julio 30)
CONGRESO DE LA REPÚBLICA
Por medio de la cual se aprueba el “Convenio entre la República de Colombia y la República del Ecuador para evitar la doble imposición”, firmado en Quito el 2 de marzo de 2009.
Visto el texto del “Convenio entre la República de Colombia y la República del Ecuador para evitar la doble imposición”, que a la letra dice:
CONVENIO ENTRE LA REPÚBLICA DE COLOMBIA Y LA REPÚBLICA DEL ECUADOR PARA EVITAR LA DOBLE IMPOSICIÓN
CAPITULO I.
Ambito de aplicación del convenio.
"""
_ARTICLES = """{h1}
Personas comprendidas.
El presente Convenio se aplica a las personas residentes de uno o de ambos Estados contratantes.
{h2}
Impuestos comprendidos.
1. El presente Convenio se aplica a los impuestos sobre la renta exigibles por cada uno de los Estados contratantes.
{h10}
Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 7 por ciento del importe bruto de los dividendos.
"""
_TAIL = """Hecho en Quito, el 2 de marzo de 2009, en dos ejemplares en lengua española.
RAMA EJECUTIVA DEL PODER PÚBLICO
PRESIDENCIA DE LA REPÚBLICA
Aprobado. Sométase a la consideración del honorable Congreso de la República para los efectos constitucionales.
DECRETA:
Artículo 1o. Apruébase el “Convenio entre la República de Colombia y la República del Ecuador para evitar la doble imposición”.
Artículo 2o. De conformidad con lo dispuesto en el artículo 1o de la Ley 7ª de 1944, el Convenio obligará al país a partir de la fecha en que se perfeccione el vínculo internacional respecto del mismo.
Artículo 3o. La presente ley rige a partir de la fecha de su publicación.
"""


@pytest.mark.parametrize(("h1", "h2", "h10"), [
    ("Artículo 1o.", "Artículo 2o.", "Artículo 10."),
    ("Artículo 1°.", "Artículo 2º.", "Artículo 10°."),
    ("ARTÍCULO 1o", "ARTÍCULO 2o", "ARTÍCULO 10"),
])
def test_an_ordinal_mark_and_a_stop_keep_the_title_on_the_next_line(h1, h2, h10):
    text = _HEAD + _ARTICLES.format(h1=h1, h2=h2, h10=h10) + _TAIL
    document = taxtreaty.parse(text)
    assert len(document.versions) == 1
    articles = document.versions[0].articles
    assert [(a.number, a.topic) for a in articles] == [("1", "persons_covered"), ("2", "taxes_covered"),
                                                       ("10", "dividends")]
    assert [a.heading for a in articles] == ["Personas comprendidas", "Impuestos comprendidos", "Dividendos"]
    scenario = {"income": "dividends", "source": "CO", "residence": "EC", "beneficial_owner": True,
                "recipient": "company"}
    decision = taxtreaty.decide(document, scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", "7", "art_10__para_2")


@pytest.mark.parametrize("verb", ["Apruébase", "Apruébese"])
def test_the_laws_own_articles_hard_wrapped_stay_the_laws(verb):
    # "Artículo 1o. Apruébese el “Convenio entre ... y" / "la República del Ecuador ...": a hard-wrapped copy
    # cuts the law's article 1 inside the convention's title; it is still the approving law's article (the
    # subjunctive "Apruébese" as well as "Apruébase"), never a second convention in the same language
    tail = _TAIL.replace("Apruébase", verb).replace("Colombia y la República del Ecuador", "Colombia y\nla República del Ecuador")
    assert "\nla República del Ecuador" in tail
    text = _HEAD + _ARTICLES.format(h1="Artículo 1o.", h2="Artículo 2o.", h10="Artículo 10.") + tail
    document = taxtreaty.parse(text)
    assert len(document.versions) == 1
    assert [a.number for a in document.versions[0].articles] == ["1", "2", "10"]
