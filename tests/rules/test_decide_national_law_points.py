"""A protocol point that lets one State apply its own law to an article's income ("Notwithstanding the
provisions of paragraph 1 of Article 18 ..., the Netherlands may apply its national legislation with respect
to the payments referred to therein", NL-RO protocol XII): that State, as source, may tax without a limit
(provisions/point_laws.py); and an exception the facts may yet select that gives the income where the rule
chosen gives it changes nothing (rules/allocate.py). Fixtures of our own in the texts' wordings."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

EN = """CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND ROMANIA FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 1
Personal scope

This Convention shall apply to persons who are residents of one or both of the States.

Article 2
Pensions

1. Pensions and other similar remuneration paid to a resident of a Contracting State in consideration of past employment shall be taxable only in that State.

2. However, where such remuneration is not of a periodical nature and it is paid in consideration of past employment in the other Contracting State, this remuneration may be taxed in the Contracting State where it arises.

Article 3
Termination

This Convention shall remain in force until terminated by one of the States.

IN WITNESS WHEREOF the undersigned have signed this Convention.

DONE at Bucharest, this 27th day of March 1998, in duplicate, in the English language.

PROTOCOL

At the moment of signing the Convention the undersigned have agreed upon the following provisions.

I

Ad Article 2

{point}
"""
EN_POINT = ("Notwithstanding the provisions of paragraph 1 of Article 2 of the Convention, the Netherlands may apply its "
            "national legislation with respect to the payments referred to therein. When the competent authority of "
            "Romania informs the competent authority of the Netherlands that Romania can tax such payments, the "
            "competent authorities shall by mutual agreement determine whether paragraph 1 of Article 2 will be applicable.")

ES = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE CHILE PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 1
Ámbito subjetivo

El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes.

Artículo 2
Pensiones

1. Las pensiones y remuneraciones análogas pagadas a un residente de un Estado Contratante por razón de un empleo anterior sólo pueden someterse a imposición en ese Estado.

Artículo 3
Denuncia

El presente Convenio permanecerá en vigor indefinidamente.

HECHO en Madrid el 7 de julio de 2003, en dos ejemplares en lengua española.

PROTOCOLO

1. En relación con el artículo 2: No obstante lo dispuesto en el apartado 1 del artículo 2, Chile podrá aplicar su legislación interna a las pensiones que allí se mencionan.
"""


def ask(text: str, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(text), facts).to_dict()


@pytest.mark.parametrize("text, facts, status, source_taxation", [
    # the State the point names, as source: its own law, whatever 2(2) would say of a lump sum
    (EN.format(point=EN_POINT), {"source": "NL", "residence": "RO"}, "determined", "unlimited"),
    (EN.format(point=EN_POINT), {"source": "NL", "residence": "RO", "payment_periodic": True}, "determined", "unlimited"),
    # the other State as source: the article's rules, and the fact 2(2) turns on
    (EN.format(point=EN_POINT), {"source": "RO", "residence": "NL", "payment_periodic": True}, "determined", "none"),
    (EN.format(point=EN_POINT), {"source": "RO", "residence": "NL"}, "indeterminate", None),
    # no such point: the lump-sum exception is open
    (EN.format(point="The term pensions includes annuities."), {"source": "NL", "residence": "RO"}, "indeterminate", None),
    (ES, {"source": "CL", "residence": "ES"}, "determined", "unlimited"),
    (ES, {"source": "ES", "residence": "CL"}, "determined", "none"),
])
def test_a_point_giving_one_state_its_own_law(text: str, facts: dict[str, Any], status: str,
                                              source_taxation: str | None) -> None:
    decision = ask(text, income="pensions", recipient="individual", payer="company", **facts)
    assert (decision["status"], decision["source_taxation"]) == (status, source_taxation)
    if source_taxation == "unlimited":
        assert decision["eid"].startswith("protocol")


def test_the_point_is_an_allocation_for_that_state_as_source() -> None:
    ps = taxtreaty.provisions(taxtreaty.parse(EN.format(point=EN_POINT)))
    [point] = [p for p in ps.provisions if p.cite.eid.startswith("protocol")]
    assert (point.topic, point.allocation, point.conditions) == ("pensions", "source_may_tax", {"source_state": "NL"})
    # the competent authorities' later agreement is no condition: the quote is the point's first sentence
    assert point.cite.quote.endswith("referred to therein.")
