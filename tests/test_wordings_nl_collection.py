"""Wordings of the Dutch treaty collection's English conventions (../shared/corpus/nl) that the
real-convention packs found read wrongly, as short texts of the same shape: each test says what the
text says and what taxtreaty answered before.
"""

from __future__ import annotations

from typing import Any

import taxtreaty
from taxtreaty.provisions.model import Provision

INTEREST_HEAD = (
    "Convention between the Kingdom of the Netherlands and the People's Republic of Bangladesh\n\n"
    "Article 11\nInterest\n\n"
    "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be "
    "taxed in that other State.\n\n"
    "2. However, such interest may also be taxed in the Contracting State in which it arises and according to "
    "the laws of that State, but if the recipient is the beneficial owner of the interest the tax so charged "
    "shall not exceed 10 per cent of the gross amount of the interest.\n\n"
)


def _exemptions(text: str, parties: list[str]) -> list[Provision]:
    ps = taxtreaty.provisions(taxtreaty.parse(text), parties=parties)
    return [p for p in ps.provisions if p.kind == "exemption" and p.topic == "interest"]


def _decide(text: str, parties: list[str], **scenario: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(text), scenario, parties=parties).to_dict()


NAMED_BANKS = INTEREST_HEAD + (
    "3. Notwithstanding the provisions of paragraph 2:\n"
    "a) the Bangladesh Bank shall be exempt from Netherlands tax with respect to interest arising in the "
    "Netherlands;\n"
    "b) the Central Bank of the Netherlands shall be exempt from Bangladesh tax with respect to interest "
    "arising in Bangladesh;\n"
    "c) the Government of a Contracting State shall be exempt from tax in the other Contracting State with "
    "respect to interest arising in that other State.\n"
)


def test_a_bank_named_as_the_subject_of_an_exemption_is_that_institution_not_any_bank():
    # NL-BD 11(3)(a): read as recipient_kinds [bank] in both directions, so every bank's interest
    # got 0% (a Dutch bank's Bangladeshi interest too, where the protocol gives 7.5%)
    a, b, c = _exemptions(NAMED_BANKS, ["NL", "BD"])
    assert a.conditions["recipient_names"] == ["Bangladesh Bank"]
    assert "named_institution" in a.conditions["recipient_kinds"]
    assert a.conditions["source_state"] == "NL"
    # "the Central Bank of the Netherlands" is the central bank of a State the words name
    assert b.conditions["recipient_kinds"] == ["central_bank"] and "recipient_names" not in b.conditions
    assert (b.conditions["source_state"], b.conditions["residence_state"]) == ("BD", "NL")
    assert c.conditions["recipient_kinds"] == ["government"]


def test_a_bank_gets_the_cap_and_each_central_bank_its_own_exemption():
    bank = _decide(NAMED_BANKS, ["NL", "BD"], income="interest", source="BD", residence="NL",
                   beneficial_owner=True, recipient="bank", payer="company")
    assert (bank["status"], bank["max_rate_pct"]) == ("determined", "10")
    named = _decide(NAMED_BANKS, ["NL", "BD"], income="interest", source="NL", residence="BD", beneficial_owner=True,
                    recipient="named_institution", recipient_name="Bangladesh Bank")
    assert (named["status"], named["source_taxation"], named["eid"]) == ("determined", "none", "art_11__para_3__point_a")
    dnb = _decide(NAMED_BANKS, ["NL", "BD"], income="interest", source="BD", residence="NL",
                  beneficial_owner=True, recipient="central_bank")
    assert (dnb["status"], dnb["source_taxation"], dnb["eid"]) == ("determined", "none", "art_11__para_3__point_b")


LOAN_PROVISO = INTEREST_HEAD.replace("People's Republic of Bangladesh", "Republic of Uganda") + (
    "3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be exempt "
    "from tax in that State if it is paid in respect of a loan of any kind\n"
    "a) granted or guaranteed by the government of the other Contracting State;\n"
    "b)\n"
    "(i)granted by a bank,\n"
    "(ii)granted by a financial institution of a public character,provided that in the case of this "
    "sub-paragraph the loan repayment period is 3 years or more.\n"
)


def test_a_proviso_on_this_sub_paragraph_binds_every_item_of_it():
    # NL-UG 11(3)(b): the proviso printed at the end of (ii) was (ii)'s alone, so a bank loan of any
    # term was exempt (a 2-year bank loan got 0%)
    exemptions = {p.cite.eid: p for p in _exemptions(LOAN_PROVISO, ["NL", "UG"])}
    for eid in ("art_11__para_3__point_b__point_i", "art_11__para_3__point_b__point_ii"):
        assert "the loan repayment period is 3 years or more" in exemptions[eid].conditions["unread_condition"]
    assert "repayment" not in exemptions["art_11__para_3__point_a"].conditions.get("unread_condition", "")
    bank = _decide(LOAN_PROVISO, ["NL", "UG"], income="interest", source="UG", residence="NL",
                   beneficial_owner=True, recipient="bank", payer="company")
    assert bank["status"] == "indeterminate" and bank["max_rate_pct"] is None
