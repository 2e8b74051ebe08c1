"""Wordings of the Mexican Diario Oficial de la Federación's conventions, from short sentences of our own in their
shape ("párrafo" for the paragraph, a term "no menor a tres años", a lender named after the term):

- "los intereses se pagan por un préstamo con un plazo no menor a tres años otorgado por un banco residente del otro
  Estado": the lender's words after the loan's term name a bank loan, and "no menor a/de" is at least. Before, the
  bank was read as the PAYER (the introduction's "procedentes de" was the nearest role), the term's words stayed
  unread and the answer asked whether the payer is a bank, a question that never closes;
- "acciones cuyo valor proceda (se derive, provenga) en más de un 50 por ciento ... de bienes inmuebles": the
  immovable-value test of shares, in the subjunctive. Before, the paragraph's words stayed unread (open, naming no fact).

The same shapes in Portuguese ("concedido por um banco" after the term) are the pt rows."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import taxtreaty

INTEREST = """CONVENIO ENTRE LOS ESTADOS UNIDOS MEXICANOS Y LA REPÚBLICA DE LETONIA

ARTÍCULO 11
INTERESES

1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichos intereses también pueden someterse a imposición en el Estado Contratante del que procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado Contratante, el impuesto así exigido no excederá del 10 por ciento del importe bruto de los intereses.

3. No obstante las disposiciones del párrafo 2, los intereses procedentes de un Estado Contratante estarán exentos de impuesto en dicho Estado si:

a) el beneficiario efectivo es el otro Estado Contratante o el Banco Central de ese otro Estado Contratante;

b) {item}
"""
INTEREST_PT = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DA LETÓNIA

Artigo 11.º
Juros

1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá 10 % do montante bruto dos juros.

3 — Não obstante o disposto no n.º 2, os juros provenientes de um Estado Contratante ficarão isentos de imposto nesse Estado se:

a) o beneficiário efectivo for o outro Estado Contratante ou o Banco Central desse outro Estado;

b) {item}
"""
ITEMS = [
    ("es", "los intereses se pagan por un préstamo con un plazo no menor a tres años otorgado por un banco residente del otro Estado Contratante."),
    ("es", "los intereses son pagados por un crédito a un plazo no menor de tres años otorgado por un banco u otra institución financiera residente del otro Estado Contratante."),
    ("es", "los intereses se pagan por un préstamo otorgado por un banco residente del otro Estado Contratante, con un plazo no menor de tres años."),
    ("pt", "os juros forem pagos em relação a um empréstimo com um prazo de pelo menos três anos concedido por um banco residente do outro Estado Contratante."),
]
SOURCE = {"es": "MX", "pt": "PT"}


def _decide(language: str, item: str, **facts: Any) -> dict[str, Any]:
    doc = taxtreaty.parse((INTEREST if language == "es" else INTEREST_PT).format(item=item))
    return taxtreaty.decide(doc, {"income": "interest", "source": SOURCE[language], "residence": "LV",
                                  "beneficial_owner": True, "recipient": "bank", "payer": "company", **facts}).to_dict()


@pytest.mark.parametrize(("language", "item"), ITEMS)
@pytest.mark.parametrize(("years", "rate", "eid"), [(5, "0", "art_11__para_3__point_b"), (2, "10", "art_11__para_2")])
def test_a_bank_loan_named_after_its_term_is_the_lenders_and_the_term_is_read(language, item, years, rate, eid):
    d = _decide(language, item, loan_kind="bank_loan", loan_term_years=years)
    assert (d["status"], str(d["max_rate_pct"]), d["eid"]) == ("determined", rate, eid)


@pytest.mark.parametrize(("language", "item"), ITEMS)
def test_without_the_kind_of_loan_the_question_is_the_loan_not_the_payer(language, item):
    d = _decide(language, item, loan_term_years=5)
    assert d["status"] == "indeterminate"
    assert [m if isinstance(m, str) else m["fact"] for m in d["missing_facts"]] == ["loan_kind"]


GAINS = """CONVENIO ENTRE LOS ESTADOS UNIDOS MEXICANOS Y LA REPÚBLICA DE LETONIA

ARTÍCULO 13
GANANCIAS DE CAPITAL

1. Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. {item}

3. Las ganancias derivadas de la enajenación de cualquier otro bien distinto de los mencionados en los párrafos 1 y 2 sólo pueden someterse a imposición en el Estado Contratante en que resida el enajenante.
"""
SHARES = [
    "Las ganancias que obtenga un residente de un Estado Contratante de la enajenación de acciones cuyo valor proceda en más de un 50 por ciento, directa o indirectamente, de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.",
    "Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de acciones cuyo valor se derive directa o indirectamente en más de un 50 por ciento de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.",
    "Las ganancias derivadas de la enajenación de acciones u otros derechos cuyo valor provenga en más del 50 por ciento de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.",
]


@pytest.mark.parametrize("item", SHARES)
@pytest.mark.parametrize(("pct", "expected"), [(60, ("determined", "art_13__para_2", None)),
                                               (40, ("determined", "art_13__para_3", Decimal(0)))])
def test_shares_whose_value_proceeds_from_immovables_in_the_subjunctive(item, pct, expected):
    doc = taxtreaty.parse(GAINS.format(item=item))
    d = taxtreaty.decide(doc, {"income": "capital_gains", "source": "MX", "residence": "LV", "gain_property": "shares",
                               "immovable_value_pct": pct}).to_dict()
    rate = None if d["max_rate_pct"] is None else Decimal(str(d["max_rate_pct"]))
    assert (d["status"], d["eid"], rate) == expected


@pytest.mark.parametrize("item", SHARES)
def test_shares_without_their_value_ask_for_it(item):
    doc = taxtreaty.parse(GAINS.format(item=item))
    d = taxtreaty.decide(doc, {"income": "capital_gains", "source": "MX", "residence": "LV",
                               "gain_property": "shares"}).to_dict()
    assert d["status"] == "indeterminate"
    assert [m if isinstance(m, str) else m["fact"] for m in d["missing_facts"]] == ["immovable_value_pct"]
