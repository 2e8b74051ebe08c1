"""Lists of public recipients as English conventions print them (fixtures of our own in the wordings of
NL-EE and NL-UG): a named institution that says it is the central bank ("the Nederlandsche Bank (Central
Bank)") is that State's central bank; a guarantee "by any of the bodies mentioned or referred to in
sub-paragraph a) or sub-paragraph b)" is a government's when those items name public bodies only
(passes.referenced_guarantors); a protocol point that counts named institutions among "a person meant in
subparagraph a) of paragraph 3 of Article 11" adds them, and its deeming sentence is no condition."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import extract_text

import taxtreaty

HEAD = """CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF ESTONIA FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 1
Personal scope

This Convention shall apply to persons who are residents of one or both of the States.

Article 11
Interest

1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.

2. However, such interest may also be taxed in the Contracting State in which it arises, but if the recipient is the beneficial owner of the interest the tax so charged shall not exceed 10 per cent of the gross amount of the interest.

3. Notwithstanding the provisions of paragraphs 1 and 2,

a) interest arising in the Netherlands shall be exempt from Netherlands tax if the interest is paid to:

(i) the State of Estonia or a local authority thereof;

(ii) {ee_bank};

b) interest arising in Estonia shall be exempt from Estonian tax if the interest is paid to:

(i) the State of the Netherlands or a local authority thereof;

(ii) {nl_bank};

c) interest arising in a Contracting State on a loan guaranteed or insured by any of the bodies mentioned or referred to in sub-paragraph a) or sub-paragraph b) and paid to a resident of the other Contracting State shall be taxable only in that other State.

Article 12
Termination

This Convention shall remain in force until terminated by one of the States.

DONE at Tallinn, this 14th day of March 1997, in duplicate, in the English language.
"""


def _conditions(text: str, eid: str) -> list[dict[str, Any]]:
    return [p.conditions for p in extract_text(text).provisions if p.cite.eid == eid]


@pytest.mark.parametrize("nl_bank, kinds", [
    ("the Nederlandsche Bank (Central Bank)", ["central_bank"]),
    ("the Central Bank of the Netherlands", ["central_bank"]),
    # a bank by name that does not say it is the central bank stays that institution
    ("the Bank Nederlandse Gemeenten", ["bank", "named_institution"]),
])
def test_an_institution_that_says_it_is_the_central_bank(nl_bank: str, kinds: list[str]) -> None:
    text = HEAD.format(ee_bank="the Bank of Estonia (Central Bank)", nl_bank=nl_bank)
    [item] = _conditions(text, "art_11__para_3__point_b__point_ii")
    assert item["recipient_kinds"] == kinds
    if kinds == ["central_bank"]:
        assert item["residence_state"] == "NL"


@pytest.mark.parametrize("ee_bank, read", [
    ("the Bank of Estonia (Central Bank)", True),
    # a commercial bank among the bodies: a bank's guarantee is no government's, the words stay unread
    ("any bank of Estonia", False),
])
def test_a_guarantee_by_the_bodies_of_other_items(ee_bank: str, read: bool) -> None:
    text = HEAD.format(ee_bank=ee_bank, nl_bank="the Nederlandsche Bank (Central Bank)")
    [guarantee] = _conditions(text, "art_11__para_3__point_c")
    assert guarantee["guaranteed_by_government"] is True
    assert ("unread_condition" in guarantee) is not read
    decision = taxtreaty.decide(taxtreaty.parse(text), {
        "income": "interest", "source": "NL", "residence": "EE", "beneficial_owner": True, "recipient": "company",
        "payer": "company", "loan_kind": "government_guaranteed"}).to_dict()
    assert (decision["status"], decision["source_taxation"]) == (("determined", "none") if read else ("indeterminate", None))


UG = """CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF UGANDA FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 1
Personal scope

This Convention shall apply to persons who are residents of one or both of the States.

Article 11
Interest

1. Interest arising in a Contracting State and beneficially owned by a resident of the other Contracting State may be taxed in that other State.

2. However, such interest may also be taxed in the Contracting State in which it arises, but if the beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the interest.

3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be exempt from tax in that State if it is paid in respect of a loan of any kind

a) granted or guaranteed by the government, a political subdivision or local authority of the other Contracting State or the Central Bank of the other Contracting State;

b) granted by a bank, provided that the loan repayment period is 3 years or more.

Article 12
Termination

This Convention shall remain in force until terminated by one of the States.

DONE at Kampala, this 31st day of August 2004, in duplicate, in the English language.

PROTOCOL

At the moment of signing the Convention the undersigned have agreed upon the following provisions.

I

Ad Article 11

It is understood that when a person mentioned in subparagraph a) of paragraph 3 of Article 11 grants any loan through another person, the loan shall be deemed to be granted by the first-mentioned person. As a person meant in subparagraph a) of paragraph 3 of Article 11 shall also be considered the Netherlands Finance Company for Developing Countries NV (FMO) and the Netherlands Investment Bank for Developing Countries NV (NIO).
"""


def test_a_protocol_point_adding_named_persons_to_an_item() -> None:
    ps = extract_text(UG)
    # the point's sentences are no condition on the item it widens
    assert all("unread_condition" not in p.conditions for p in ps.provisions if p.cite.eid.startswith("art_11__para_3__point_a"))
    [added] = [p for p in ps.provisions if p.cite.eid.startswith("protocol") and p.kind == "exemption"]
    assert added.conditions["recipient_names"] == ["Netherlands Finance Company for Developing Countries NV",
                                                   "Netherlands Investment Bank for Developing Countries NV"]
    decision = taxtreaty.decide(taxtreaty.parse(UG), {"income": "interest", "source": "NL", "residence": "UG",
                                                     "beneficial_owner": True, "recipient": "central_bank"}).to_dict()
    assert (decision["status"], decision["source_taxation"]) == ("determined", "none")
