"""The BOE's consolidated page (boe.es/buscar/act.php) prints the convention's entry into force in its status block,
the date under its label ("Entrada en vigor:" then "23/12/2005"), above the King's instrument of ratification
(issue 11). It is the collection's status line: the dates of effect follow it (they were taken from the signature,
so a payment before the convention had effect was determined). The text is our own, in the page's shape."""

from __future__ import annotations

import taxtreaty

TEXT = """Legislación consolidada(información)Este texto consolidado es de carácter informativo y no tiene valor jurídico.

Instrumento de Ratificación del Convenio entre el Reino de España y la República de Chile para evitar la doble imposición, hecho en Madrid el 7 de julio de 2003.

Publicado en:
«BOE» núm. 28, de 02/02/2006.
Entrada en vigor:
{entry}
Departamento:
Jefatura del Estado

JUAN CARLOS I
REY DE ESPAÑA
Vistos y examinados los veintiocho artículos del Convenio,
Vengo en aprobar y ratificar cuanto en él se dispone.
Dado en Madrid, a diecisiete de noviembre de dos mil cinco.

CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE CHILE PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 1. Personas comprendidas.

El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes.

Artículo 10. Dividendos.

1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 10 por 100 del importe bruto de los dividendos.

Artículo 27. Entrada en vigor.

1. El presente Convenio entrará en vigor el día de la recepción de la última notificación.

2. Las disposiciones del Convenio se aplicarán respecto de las cantidades pagadas a partir del primer día del mes de enero del año calendario siguiente a aquel en que el Convenio entre en vigor.

Hecho en Madrid, el 7 de julio de 2003, en duplicado.
"""
SCENARIO = {"income": "dividends", "source": "ES", "residence": "CL", "beneficial_owner": True, "recipient": "individual"}


def _decide(entry: str, date: str) -> dict[str, object]:
    return taxtreaty.decide(taxtreaty.parse(TEXT.format(entry=entry)), {**SCENARIO, "date": date}).to_dict()


def test_the_status_blocks_entry_into_force_dates_the_effect():
    assert _decide("23/12/2005", "2005-06-01")["status"] == "not_covered"
    after = _decide("23/12/2005", "2006-01-01")
    assert (after["status"], str(after["max_rate_pct"])) == ("determined", "10")
    assert after["version"]["dates"]["entry_into_force"] == "2005-12-23"
    assert after["version"]["dates"]["entry_into_force_from"] == "the collection's status line"
