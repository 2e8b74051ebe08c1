"""Venezuela's Gaceta Oficial and Panama's Gaceta Oficial Digital as they print a convention (issue 11). Venezuela: the
approving law's own "ARTÍCULO ÚNICO:" first, then every article on one line, its heading, a colon and its title in
capitals running on into the text ("ARTICULO 1: AMBITO PERSONAL El presente Convenio ...", "ARTICULO 21: OTRAS RENTAS
Las rentas ..."): an article without numbered paragraphs was lost (article 1) or ran on into the article before (the
other-income rule read inside the interest article); the wordings "pueden ser gravados", "sólo pueden ser gravadas",
"una compañía (distinta de una sociedad de personas) que controle directamente al menos el 10 por ciento del capital
de la compañía que pague los dividendos" (its words were left unread). Panama: the running line of every page ("No
27740 Gaceta Oficial Digital, martes 10 de marzo de 2015 3") inside a sentence. And the copies of a fiscal database
that close a title with a stop and a dash ("Artículo 21. Otras rentas.— Las rentas ..."). Sentences of our own in those shapes."""

from __future__ import annotations

from typing import Any

import taxtreaty

TEXT = """LEY APROBATORIA DEL CONVENIO ENTRE EL GOBIERNO DE LA REPÚBLICA BOLIVARIANA DE VENEZUELA Y EL GOBIERNO DE LA REPÚBLICA DEL PERÚ PARA EVITAR LA DOBLE TRIBUTACIÓN
ARTÍCULO ÚNICO: Se aprueba en todas sus partes el Convenio entre el Gobierno de la República Bolivariana de Venezuela y el Gobierno de la República del Perú para Evitar la Doble Tributación.
CONVENIO ENTRE EL GOBIERNO DE LA REPÚBLICA BOLIVARIANA DE VENEZUELA Y EL GOBIERNO DE LA REPÚBLICA DEL PERÚ PARA EVITAR LA DOBLE TRIBUTACIÓN
ARTICULO 1: AMBITO PERSONAL El presente Convenio se aplicará a las personas que sean residentes de uno o de ambos Estados Contratantes.
ARTICULO 10: DIVIDENDOS 1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden ser gravados en ese otro Estado. 2. Sin embargo, dichos dividendos también pueden ser gravados en el Estado Contratante en el que resida la sociedad que pague los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del: a) 5 por ciento del monto bruto de los dividendos si el beneficiario efectivo es una compañía (distinta de una sociedad de personas) que controle directamente al menos el 10 por ciento del capital de la compañía que pague los dividendos; b) 10 por ciento del monto bruto de los dividendos en todos los otros casos.
ARTICULO 11: INTERESES 1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden ser gravados en ese otro Estado. 2. Sin embargo, dichos intereses también pueden ser gravados en el Estado Contratante del que procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 10 por ciento del monto bruto de los intereses.
ARTICULO 21: OTRAS RENTAS Las rentas de un residente de un Estado Contratante, cualquiera que sea su procedencia, no mencionadas en los artículos anteriores del presente Convenio, sólo pueden ser gravadas en ese Estado.
ARTICULO 28: TERMINACION El presente Convenio permanecerá en vigor indefinidamente.
"""


def _decide(**facts: Any) -> dict[str, Any]:
    scenario = {"source": "VE", "residence": "PE", "beneficial_owner": True, **facts}
    return taxtreaty.decide(taxtreaty.parse(TEXT), scenario).to_dict()


def test_a_heading_in_capitals_running_on_into_an_unnumbered_article():
    version = taxtreaty.parse(TEXT).version("es")
    assert [(a.number, a.heading, a.topic) for a in version.articles] == [
        ("1", "AMBITO PERSONAL", "persons_covered"), ("10", "DIVIDENDOS", "dividends"), ("11", "INTERESES", "interest"),
        ("21", "OTRAS RENTAS", "other_income"), ("28", "TERMINACION", "termination")]
    assert version.article("1").paragraphs[0].text.startswith("El presente Convenio se aplicará")
    assert "Las rentas" not in version.article("11").paragraphs[-1].text


def test_venezuelan_wordings():
    other = _decide(income="other_income", recipient="individual")
    assert (other["status"], other["source_taxation"], other["article_applied"]) == ("determined", "none", "21")
    qualifying = _decide(income="dividends", recipient="company", capital_pct=10)
    assert (qualifying["status"], str(qualifying["max_rate_pct"])) == ("determined", "5")
    partnership = _decide(income="dividends", recipient="partnership", capital_pct=50)
    assert (partnership["status"], str(partnership["max_rate_pct"])) == ("determined", "10")
    interest = _decide(income="interest", recipient="company", payer="company")
    assert (interest["status"], str(interest["max_rate_pct"])) == ("determined", "10")


PANAMA = """CONVENIO ENTRE LA REPÚBLICA DE PANAMÁ Y LA REPÚBLICA DEL PERÚ PARA EVITAR LA DOBLE IMPOSICIÓN
Artículo 16
ARTISTAS Y DEPORTISTAS
1. Las rentas que un residente de un Estado Contratante obtenga en calidad de artista del espectáculo
No 27740 Gaceta Oficial Digital, martes 10 de marzo de 2015 3
o deportista pueden someterse a imposición en ese otro Estado.
Artículo 17
PENSIONES
1. Las pensiones pagadas a un residente de un Estado Contratante sólo pueden someterse a imposición en ese Estado.
4 No 27740 Gaceta Oficial Digital, martes 10 de marzo de 2015
"""


def test_the_running_line_of_panamas_gaceta_oficial_leaves_the_sentence_whole():
    version = taxtreaty.parse(PANAMA).version("es")
    text = " ".join(version.article("16").paragraphs[0].text.split())
    assert text.endswith("artista del espectáculo o deportista pueden someterse a imposición en ese otro Estado.")
    assert "Gaceta" not in version.article("17").paragraphs[0].text


DASHED = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE CHILE PARA EVITAR LA DOBLE IMPOSICIÓN
Artículo 1. Personas comprendidas.— El presente Convenio se aplica a las personas residentes de
uno o de ambos Estados Contratantes.
Artículo 10. Dividendos.— 1. Los dividendos pagados por una sociedad residente de un Estado
Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 10 por 100 del importe bruto de los dividendos.
Artículo 21. Otras rentas.— Las rentas de un residente de un Estado Contratante, cualquiera que fuese su procedencia, no mencionadas en los artículos anteriores del presente Convenio, sólo pueden someterse a imposición en ese Estado.
"""


def test_a_title_closed_by_a_stop_and_a_dash_runs_on_into_its_text():
    # the copies of a fiscal database ("Artículo 21. Otras rentas.— Las rentas ..."): article 21 ran on into
    # article 10's last paragraph, the other-income rule read inside the dividends article
    version = taxtreaty.parse(DASHED).version("es")
    assert [(a.number, a.topic) for a in version.articles] == [
        ("1", "persons_covered"), ("10", "dividends"), ("21", "other_income")]
    assert version.article("1").paragraphs[0].text.startswith("El presente Convenio")
    assert "Las rentas" not in version.article("10").paragraphs[-1].text
