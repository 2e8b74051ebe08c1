"""Provisions: who an exemption's public kinds name (the recipient, the payer or the guarantor), from
excerpts in the wording of real conventions (NL-JP, NL-BB, NL-RO 11(3) and 10(3)); issue 11's
confidently wrong answers."""

from __future__ import annotations

import pytest
from helpers import extract_text, one

import taxtreaty

HEAD = "CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND JAPAN\n\nArticle 11\nInterest\n\n"
CAP = ("1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed "
       "in that other Contracting State.\n\n2. However, such interest may also be taxed in the Contracting State in "
       "which it arises, but if the beneficial owner of the interest is a resident of the other Contracting State, "
       "the tax so charged shall not exceed 10 per cent of the gross amount of the interest.\n\n")
GUARANTEED = HEAD + CAP + (
    "3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be taxable only "
    "in the other Contracting State if:\n\na) the interest is beneficially owned by the Government of that other "
    "Contracting State, or the central bank of that other Contracting State or any institution owned by that "
    "Government;\n\nb) the interest is beneficially owned by a resident of that other Contracting State with respect "
    "to debt-claims insured or indirectly financed by the Government of that other Contracting State or any "
    "institution owned by that Government.\n")


def _ask(text: str, parties: list[str], **facts: object) -> taxtreaty.Decision:
    return taxtreaty.decide(taxtreaty.parse(text), {"date": "2024-05-01", **facts}, parties=parties)


def test_a_resident_whose_debt_claim_the_government_backs_is_any_resident():
    # NL-JP 11(3)(b): the Government is the guarantor, not the recipient: any resident on a backed debt-claim
    ps = extract_text(GUARANTEED)
    backed = one(ps, "art_11__para_3__point_b", "allocation")
    assert backed.conditions.get("guaranteed_by_government") is True
    assert "recipient_kinds" not in backed.conditions and "unread_condition" not in backed.conditions
    owned = one(ps, "art_11__para_3__point_a", "allocation")
    assert "government_owned" in owned.conditions["recipient_kinds"]
    decision = _ask(GUARANTEED, ["NL", "JP"], income="interest", source="NL", residence="JP", beneficial_owner=True,
                    recipient="individual", loan_kind="government_guaranteed")
    assert (decision.status, decision.source_taxation, decision.eid) == ("determined", "none", "art_11__para_3__point_b")
    other = _ask(GUARANTEED, ["NL", "JP"], income="interest", source="NL", residence="JP", beneficial_owner=True,
                 recipient="individual", loan_kind="other")
    assert (other.status, str(other.max_rate_pct)) == ("determined", "10")


@pytest.mark.parametrize(("item", "kinds"), [
    ("c) a Contracting State, or a political subdivision or local authority thereof;", ["government", "local_authority"]),
    ("c) the Government, an administrative-territorial unit or a local authority thereof;", ["government", "local_authority"]),
])
def test_a_state_at_the_head_of_a_recipient_item_is_the_government(item: str, kinds: list[str]):
    # NL-BB 10(3)(c) was read as local authorities only (a government recipient got 15%); NL-RO 11(3)(i)
    # "an administrative-territorial unit" was left unread
    text = ("CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND BARBADOS\n\nArticle 10\nDividends\n\n"
            "2. However, such dividends may also be taxed in the Contracting State of which the company paying the "
            "dividends is a resident, but if the beneficial owner of the dividends is a resident of the other "
            "Contracting State, the tax so charged shall not exceed 15 percent of the gross amount of the dividends.\n\n"
            "3. Notwithstanding the provisions of paragraph 2, the Contracting State of which the company paying the "
            "dividends is a resident shall not levy a tax on dividends paid by that company, if the beneficial owner "
            f"of the dividends is:\n\na) a pension fund;\n\nb) a bank;\n\n{item}\n")
    exemption = one(extract_text(text), "art_10__para_3__point_c", "exemption")
    assert sorted(exemption.conditions["recipient_kinds"]) == sorted(kinds)
    assert "unread_condition" not in exemption.conditions
