"""A relative clause after the recipient that states its own taxation ("paid to a resident of the other
Contracting State who is subject to tax there in respect thereof", "que esté sometido a imposición en ese
Estado", "que esteja sujeito a imposto nesse Estado") is the fact `recipient_subject_to_tax`, or words left
unread: never dropped (a residence-only rule or a cap applied to a recipient its State does not tax is
confidently wrong). Texts are short conventions of our own in the wordings of old UK-style and Iberian texts."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import extract_text

import taxtreaty

HEAD = {"en": "Convention between Ireland and the Kingdom of the Netherlands\n\n",
        "es": "Convenio entre el Reino de España y la República Argentina\n\n",
        "pt": "Convenção entre a República Portuguesa e o Reino de Espanha\n\n"}
PARTIES = {"en": ["IE", "NL"], "es": ["ES", "AR"], "pt": ["PT", "ES"]}
INTEREST = {
    "en": "Article 11\nInterest\n\n1. Interest arising in a Contracting State and paid to a resident of the other "
          "Contracting State who is subject to tax there in respect thereof shall be taxable only in that other State.\n",
    "es": "Artículo 11\nIntereses\n\n1. Los intereses procedentes de un Estado Contratante y pagados a un residente del "
          "otro Estado Contratante que esté sometido a imposición en ese Estado por dichos intereses sólo pueden "
          "someterse a imposición en ese otro Estado.\n",
    "pt": "Artigo 11.º\nJuros\n\n1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro "
          "Estado Contratante que esteja sujeito a imposto nesse Estado relativamente a esses juros só podem ser "
          "tributados nesse outro Estado.\n",
}


def _rule(text: str, eid: str, kind: str) -> dict[str, Any]:
    found = [p for p in extract_text(text).provisions if p.cite.eid == eid and p.kind == kind]
    assert len(found) == 1, found
    return found[0].conditions


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_a_relative_clause_on_the_recipients_taxation_is_the_fact(language: str) -> None:
    conditions = _rule(HEAD[language] + INTEREST[language], "art_11__para_1", "allocation")
    assert conditions.get("recipient_subject_to_tax") is True
    assert "unread_condition" not in conditions


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_the_residence_only_rule_asks_whether_the_recipient_is_taxed(language: str) -> None:
    doc = taxtreaty.parse(HEAD[language] + INTEREST[language])
    source, residence = PARTIES[language]
    facts = {"income": "interest", "source": source, "residence": residence, "beneficial_owner": True,
             "recipient": "company"}
    open_ = taxtreaty.decide(doc, facts, parties=PARTIES[language]).to_dict()
    assert open_["status"] == "indeterminate" and open_["missing_facts"] == ["recipient_subject_to_tax"]
    taxed = taxtreaty.decide(doc, {**facts, "recipient_subject_to_tax": True}, parties=PARTIES[language]).to_dict()
    assert (taxed["status"], taxed["source_taxation"]) == ("determined", "none")
    untaxed = taxtreaty.decide(doc, {**facts, "recipient_subject_to_tax": False}, parties=PARTIES[language]).to_dict()
    assert untaxed["source_taxation"] != "none"  # the exemption is not the answer for an untaxed recipient


def test_after_the_beneficial_owner_in_a_cap_the_relative_clause_is_the_fact_too() -> None:
    text = HEAD["en"] + (
        "Article 10\nDividends\n\n1. Dividends paid by a company which is a resident of a Contracting State to a resident "
        "of the other Contracting State may be taxed in that other State.\n\n2. However, such dividends may also be taxed "
        "in the Contracting State of which the company paying the dividends is a resident, but if the recipient is the "
        "beneficial owner of the dividends, who is subject to Irish tax in respect thereof, the tax so charged shall not "
        "exceed 15 per cent of the gross amount of the dividends.\n")
    conditions = _rule(text, "art_10__para_2", "withholding_cap")
    assert conditions.get("beneficial_owner") is True and conditions.get("recipient_subject_to_tax") is True
    assert "unread_condition" not in conditions


def test_a_denied_relative_clause_is_the_fact_denied() -> None:
    text = HEAD["pt"] + (
        "Artigo 12.º\nRoyalties\n\n1 — As royalties provenientes de um Estado Contratante e pagas a um residente do "
        "outro Estado Contratante que não esteja sujeito a imposto nesse Estado podem ser tributadas no Estado de que "
        "provêm, mas o imposto assim estabelecido não excederá 10 % do montante bruto das royalties.\n")
    assert _rule(text, "art_12__para_1", "withholding_cap").get("recipient_subject_to_tax") is False


@pytest.mark.parametrize("text", [
    # more than the recipient's taxation follows the relative clause
    HEAD["es"] + "Artículo 12\nCánones\n\n1. Los cánones procedentes de un Estado Contratante y pagados a un residente "
    "del otro Estado Contratante que esté sometido a imposición en ese Estado por los mismos en virtud de un régimen "
    "especial sólo pueden someterse a imposición en ese otro Estado.\n",
    # the relative clause is the payer's, not the recipient's
    HEAD["en"] + "Article 12\nRoyalties\n\n1. Royalties arising in a Contracting State and paid to a resident of the "
    "other Contracting State shall be taxable only in that other State if paid by a company which is subject to tax "
    "on its profits.\n",
    # a switch turns the rule off for recipients that are not taxed: read with the switch, not as the fact alone
    HEAD["en"] + "Article 12\nRoyalties\n\n1. Royalties arising in a Contracting State and paid to a resident of the "
    "other Contracting State shall be taxable only in that other State.\n\n2. Paragraph 1 shall not apply to royalties "
    "paid to a resident of the other Contracting State which is not subject to tax there in respect thereof.\n",
])
def test_a_relative_clause_that_is_not_only_the_fact_stays_unread(text: str) -> None:
    conditions = _rule(text, "art_12__para_1", "allocation")
    assert "unread_condition" in conditions and "recipient_subject_to_tax" not in conditions


OTHER_INCOME = {
    "en": "Article 21\nOther income\n\n1. Items of income of a resident of a Contracting State who is subject to tax "
          "there in respect thereof, wherever arising, not dealt with in the foregoing Articles of this Convention "
          "shall be taxable only in that State.\n",
    "es": "Artículo 21\nOtras rentas\n\n1. Las rentas de un residente de un Estado Contratante que esté sometido a "
          "imposición en ese Estado por dichas rentas, cualquiera que fuese su procedencia, no mencionadas en los "
          "artículos anteriores del presente Convenio, sólo pueden someterse a imposición en ese Estado.\n",
    "pt": "Artigo 21.º\nOutros rendimentos\n\n1 — Os elementos do rendimento de um residente de um Estado Contratante "
          "que esteja sujeito a imposto nesse Estado relativamente a esses rendimentos, donde quer que provenham, não "
          "tratados nos artigos anteriores desta Convenção, só podem ser tributados nesse Estado.\n",
}


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_other_income_of_a_resident_taxed_there_is_for_that_recipient_only(language: str) -> None:
    # "Items of income of a resident ... who is subject to tax there in respect thereof ... shall be taxable only
    # in that State": the clause was dropped and income its State does not tax got "determined: 0%" at source
    text = HEAD[language] + OTHER_INCOME[language]
    rules = [p for p in extract_text(text).provisions if p.cite.eid == "art_21__para_1" and p.kind == "allocation"]
    assert {(p.allocation, p.conditions.get("recipient_subject_to_tax")) for p in rules} == {
        ("residence_only", True), ("source_may_tax", False)}
    source, residence = PARTIES[language]
    facts = {"income": "other_income", "source": source, "residence": residence, "recipient": "individual"}
    doc = taxtreaty.parse(text)
    open_answer = taxtreaty.decide(doc, facts, parties=PARTIES[language])
    assert open_answer.status == "indeterminate" and "recipient_subject_to_tax" in open_answer.missing_facts
    taxed = taxtreaty.decide(doc, {**facts, "recipient_subject_to_tax": True}, parties=PARTIES[language])
    assert (taxed.status, taxed.source_taxation) == ("determined", "none")
    untaxed = taxtreaty.decide(doc, {**facts, "recipient_subject_to_tax": False}, parties=PARTIES[language])
    assert (untaxed.status, untaxed.source_taxation) == ("determined", "unlimited")
