"""The bank loop (issue 12): a company under a rate for banks was asked "who is the recipient?", and
"a company" led back to the same question, since no value said "a company that is not a bank". The
yes/no facts recipient_bank and recipient_financial_institution (scenario.yaml recipient_refinements)
settle it: the question asked is theirs, and either answer determines the rate. Conventions of our
own in the wording of the Latin American and Dutch collections."""

from __future__ import annotations

from decimal import Decimal

import pytest

from taxtreaty.pipeline import compile_text
from taxtreaty.rules import scenario_from
from taxtreaty.rules.questions import explain

TEXTS = {
    "es": ("Convenio entre los Estados Unidos Mexicanos y la República de Panamá\n\nArtículo 11\nIntereses\n\n"
           "1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante "
           "pueden someterse a imposición en ese otro Estado.\n\n"
           "2. Sin embargo, dichos intereses también pueden someterse a imposición en el Estado Contratante del que "
           "procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado Contratante, el "
           "impuesto así exigido no podrá exceder del:\n"
           "a) 5 por ciento del importe bruto de los intereses pagados a {kind};\n"
           "b) 10 por ciento del importe bruto de los intereses en cualquier otro caso.\n", ("MX", "PA")),
    "en": ("Convention between the Kingdom of the Netherlands and the Republic of Ghana\n\nArticle 11\nInterest\n\n"
           "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be "
           "taxed in that other State.\n\n"
           "2. However, such interest may also be taxed in the Contracting State in which it arises, but if the "
           "beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall "
           "not exceed:\n"
           "a) 5 per cent of the gross amount of the interest if it is paid to {kind};\n"
           "b) 10 per cent of the gross amount of the interest in all other cases.\n", ("NL", "GH")),
    "pt": ("Convenção entre a República Portuguesa e a República de Angola\n\nArtigo 11.º\nJuros\n\n"
           "1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem "
           "ser tributados nesse outro Estado.\n\n"
           "2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o "
           "beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido "
           "não excederá:\n"
           "a) 5 por cento do montante bruto dos juros pagos a {kind};\n"
           "b) 10 por cento do montante bruto dos juros em todos os outros casos.\n", ("PT", "AO")),
}
KINDS = [("es", "bancos", "recipient_bank"), ("en", "a bank", "recipient_bank"), ("pt", "bancos", "recipient_bank"),
         ("es", "instituciones financieras", "recipient_financial_institution"),
         ("en", "a financial institution", "recipient_financial_institution"),
         ("pt", "instituições financeiras", "recipient_financial_institution")]


@pytest.mark.parametrize(("language", "kind", "fact"), KINDS)
def test_a_company_under_a_rate_for_banks_is_asked_whether_it_is_one(language: str, kind: str, fact: str) -> None:
    text, parties = TEXTS[language]
    treaty = compile_text(text.format(kind=kind), list(parties))
    base = {"income": "interest", "source": parties[0], "residence": parties[1], "beneficial_owner": True,
            "recipient": "company", "payer": "company", "date": "2024-06-01"}
    asked = explain(treaty, scenario_from(base))
    assert asked.status == "indeterminate" and asked.missing_facts == [fact], asked.to_dict()
    assert [q["fact"] for q in asked.questions] == [fact]
    for answer, rate in ((False, Decimal(10)), (True, Decimal(5))):
        after = explain(treaty, scenario_from({**base, fact: answer}))
        assert (after.status, after.max_rate_pct) == ("determined", rate), after.to_dict()
    # a bank is a bank, and an individual none: nothing asked
    assert explain(treaty, scenario_from({**base, "recipient": "bank"})).max_rate_pct == Decimal(5)
    assert explain(treaty, scenario_from({**base, "recipient": "individual"})).max_rate_pct == Decimal(10)
