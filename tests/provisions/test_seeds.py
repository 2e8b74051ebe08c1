"""The provisions of every seed fragment, with the citation eid and the quote-at-span check."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from conftest import seed_path

import taxtreaty
from taxtreaty.provisions.model import Provision, ProvisionSet


def _load(prefix: str) -> tuple[taxtreaty.Document, ProvisionSet, str]:
    path = seed_path(prefix)
    doc = taxtreaty.parse_file(str(path))
    return doc, taxtreaty.provisions(doc), path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def seeds() -> dict[str, tuple[taxtreaty.Document, ProvisionSet, str]]:
    return {prefix: _load(prefix) for prefix in ("000", "001", "002", "003", "004")}


def one(ps: ProvisionSet, *, language: str, eid: str, kind: str, **fields: object) -> Provision:
    found = [
        p for p in ps.provisions
        if p.cite.language == language and p.cite.eid == eid and p.kind == kind
        and all(getattr(p, k) == v for k, v in fields.items())
    ]
    assert len(found) == 1, f"{language} {eid} {kind} {fields}: {[(p.rate_pct, p.status) for p in ps.provisions if p.cite.eid == eid]}"
    return found[0]


def assert_cited(p: Provision, source_text: str) -> None:
    """The quote is exactly the source file's characters at the stated span."""
    start, end = p.cite.span
    assert source_text[start:end] == p.cite.quote
    assert p.cite.quote.strip() == p.cite.quote and p.cite.quote


def test_000_dividends_interest_shipping(seeds):
    _doc, ps, text = seeds["000"]
    base = one(ps, language="en", eid="art_10__para_2", kind="withholding_cap", rate_pct=Decimal("15"))
    assert base.conditions == {"beneficial_owner": True}
    assert "shall not exceed 15 per cent of the gross amount" in base.cite.quote
    assert_cited(base, text)

    reduced = one(ps, language="en", eid="art_10__para_3", kind="withholding_cap", rate_pct=Decimal("10"))
    assert reduced.conditions == {
        "beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("25"),
        "capital_basis": "capital", "holding_direct": True, "min_holding_months": 24,
        "paid_after": dt.date(1996, 12, 31),
    }
    assert_cited(reduced, text)

    interest = one(ps, language="en", eid="art_11__para_2", kind="withholding_cap")
    assert interest.rate_pct == Decimal("10") and interest.status == "determined"
    assert_cited(interest, text)

    by_debtor = one(ps, language="en", eid="art_11__para_3__point_a", kind="exemption")
    assert by_debtor.conditions == {"payer_kinds": ["government", "local_authority"]}
    to_state = one(ps, language="en", eid="art_11__para_3__point_b", kind="exemption")
    assert to_state.conditions == {"recipient_kinds": ["government", "local_authority"]}
    assert_cited(to_state, text)
    # the file stops inside 11(3)(b): the list of exempt recipients may go on
    assert any(w["code"] == "list_may_continue" and w["eid"] == "art_11__para_3__point_b" for w in ps.warnings)

    shipping = one(ps, language="en", eid="art_8__para_1", kind="allocation")
    assert shipping.allocation == "effective_management_only"
    assert_cited(shipping, text)

    pe = one(ps, language="en", eid="art_10__para_5", kind="allocation")
    assert pe.conditions == {"pe_connected": True} and pe.values == {"refer_to": ["7", "14"]}


def test_000_quote_spans_a_hyphen_free_page_join(seeds):
    """10(2) runs over a blank-line break in the file: the quote keeps the original characters."""
    _, ps, text = seeds["000"]
    cap = one(ps, language="en", eid="art_10__para_2", kind="withholding_cap")
    assert "beneficial owner of the\n\ndividends" in cap.cite.quote
    assert_cited(cap, text)


def test_002_dividends_unknown_in_both_languages(seeds):
    _doc, ps, text = seeds["002"]
    for language in ("pt", "en"):
        cap = one(ps, language=language, eid="art_10__para_2", kind="withholding_cap")
        assert cap.status == "unknown" and cap.rate_pct is None
        assert "list items are missing" in (cap.reason or "")
        assert cap.cite.quote.endswith(("não excederá:", "shall not exceed:"))
        assert_cited(cap, text)
    assert not [p for p in ps.find(topic="dividends", kind="withholding_cap") if p.status == "determined"]


def test_002_interest_royalties_telecom(seeds):
    _, ps, text = seeds["002"]
    for language in ("pt", "en"):
        for eid in ("art_11__para_2", "art_12__para_2"):
            cap = one(ps, language=language, eid=eid, kind="withholding_cap")
            assert cap.rate_pct == Decimal("10") and cap.conditions["beneficial_owner"] is True
            assert_cited(cap, text)
    words = one(ps, language="en", eid="art_11__para_2", kind="withholding_cap")
    assert "ten per cent" in words.cite.quote
    telecom = one(ps, language="pt", eid="art_23__para_3", kind="withholding_cap")
    assert telecom.rate_pct == Decimal("10")
    assert telecom.conditions == {"income_subtype": "telecommunication_services"}
    assert_cited(telecom, text)


def test_002_thresholds_relief_map_entry_into_force(seeds):
    _, ps, text = seeds["002"]
    student = one(ps, language="pt", eid="art_21__para_2", kind="threshold")
    assert student.values == {"years": 2, "amount": 9000, "currency": "USD"}
    assert "USD 9000" in student.cite.quote
    offshore = [p for p in ps.find(topic="offshore_activities", kind="threshold") if p.cite.eid == "art_22__para_3"]
    assert [p.values for p in offshore] == [{"days": 30, "period_months": 12}]
    pensions = one(ps, language="pt", eid="art_18__para_nn_1", kind="allocation")
    assert pensions.allocation == "residence_only"
    credit_pt = one(ps, language="pt", eid="art_24__para_1", kind="relief_method")
    credit_tl = one(ps, language="pt", eid="art_24__para_2", kind="relief_method")
    assert (credit_pt.state, credit_tl.state) == ("PT", "TL")
    assert credit_pt.values == credit_tl.values == {"method": "credit", "limit": "ordinary"}
    assert credit_pt.cite.quote.startswith("Em Portugal")
    progression = one(ps, language="pt", eid="art_24__para_3", kind="relief_method")
    assert progression.values == {"method": "exemption", "progression": True}
    map_limit = one(ps, language="pt", eid="art_26__para_1", kind="time_limit")
    assert map_limit.values["years"] == 3 and "três anos" in map_limit.cite.quote
    entry = one(ps, language="pt", eid="art_31__para_1", kind="date")
    assert entry.values == {"event": "entry_into_force", "days_after": 30, "after": "last_notification"}
    prevailing = [p for p in ps.provisions if p.kind == "prevailing_language"]
    assert [p.values for p in prevailing] == [{"language": "pt"}]
    for p in (student, *offshore, pensions, credit_pt, credit_tl, progression, map_limit, entry, *prevailing):
        assert_cited(p, text)


def test_002_employment_conditions_lost_is_unknown(seeds):
    """15(2) makes the exclusive residence rule depend on items that are not in the file."""
    _, ps, _ = seeds["002"]
    rule = one(ps, language="pt", eid="art_15__para_2", kind="allocation")
    assert rule.status == "unknown" and rule.allocation is None


def test_002_completeness_is_reported_per_language(seeds):
    _, ps, _ = seeds["002"]
    # both versions lost the dividend rates: no version can supply them, so no completeness divergence
    assert not [d for d in ps.divergences if d.what == "completeness" and d.eid == "art_10__para_2"]
    assert all(d.prevailing_language == "pt" for d in ps.divergences)


def test_003_dated_rates(seeds):
    _, ps, text = seeds["003"]
    caps = sorted(ps.find(topic="dividends", kind="withholding_cap"), key=lambda p: p.rate_pct or 0)
    assert [(p.rate_pct, p.conditions) for p in caps] == [
        (Decimal("10"), {"beneficial_owner": True, "paid_from": dt.date(1997, 1, 1)}),
        (Decimal("15"), {"beneficial_owner": True, "paid_until": dt.date(1996, 12, 31)}),
    ]
    assert caps[0].cite.quote == "y del 10% de dicho monto, a partir del 1.° de enero de 1997."
    for p in caps:
        assert p.cite.eid == "art_10__para_2"
        assert_cited(p, text)
    hydro = one(ps, language="es", eid="art_8__para_4", kind="allocation")
    assert hydro.allocation == "source_may_tax" and hydro.overrides == ["art_8__para_1"]
    assert hydro.conditions == {"income_subtype": "hydrocarbon_shipping"}


def test_004_fifteen_per_cent(seeds):
    _, ps, text = seeds["004"]
    cap = one(ps, language="pt", eid="art_10__para_2", kind="withholding_cap")
    assert cap.rate_pct == Decimal("15") and cap.conditions == {"beneficial_owner": True}
    assert_cited(cap, text)


def test_001_fragment_start_is_unknown_and_named_banks(seeds):
    _, ps, text = seeds["001"]
    shipping = one(ps, language="pt", eid="art_8__para_1", kind="allocation")
    assert shipping.status == "unknown" and "start of article 8(1) is missing" in (shipping.reason or "")
    bank = one(ps, language="pt", eid="art_11__para_3__point_a__point_ii", kind="exemption")
    assert bank.conditions["recipient_names"] == ["Banco Popular da China (the People's Bank of China)"]
    assert bank.conditions["residence_state"] == "CN"
    assert "named_institution" in bank.conditions["recipient_kinds"]
    assert_cited(bank, text)
    government = one(ps, language="pt", eid="art_11__para_3__point_a__point_i", kind="exemption")
    assert government.conditions["recipient_kinds"] == ["government", "local_authority"]


def test_every_seed_citation_is_exact(seeds):
    for _prefix, (doc, ps, text) in seeds.items():
        assert ps.provisions
        for p in ps.provisions:
            assert_cited(p, text)
            assert doc.quote_at(p.cite.span) == p.cite.quote
            assert p.status == "determined" or p.reason
            if p.status == "unknown":
                assert p.rate_pct is None and p.allocation is None
        for d in ps.divergences:
            for c in d.cites:
                assert text[c.span[0] : c.span[1]] == c.quote


def test_module_is_callable_and_parties_override(seeds):
    doc, ps, _ = seeds["004"]
    again = taxtreaty.provisions(doc, ["pt", "br"])
    assert again.parties == ["PT", "BR"]
    assert [p.rate_pct for p in again.find(kind="withholding_cap")] == [p.rate_pct for p in ps.find(kind="withholding_cap")]
    from taxtreaty.provisions import extract_provisions

    assert extract_provisions(doc).model_dump() == ps.model_dump()


def test_002_government_service_paying_state_with_residence_exception(seeds):
    _, ps, _ = seeds["002"]
    rules = [(p.cite.eid, p.allocation) for p in ps.find(topic="government_service", kind="allocation", language="pt")]
    assert rules == [
        ("art_19__para_1", "paying_state_only"), ("art_19__para_1", "residence_only"),
        ("art_19__para_2", "paying_state_only"), ("art_19__para_2", "residence_only"),
    ]
    (notwithstanding,) = [p for p in ps.find(topic="government_service") if p.overrides]
    assert notwithstanding.overrides == ["art_19__para_1"] and notwithstanding.cite.eid == "art_19__para_2"


def test_002_facts_beyond_the_english_fragment_come_from_portuguese(seeds):
    _, ps, _ = seeds["002"]
    (gap,) = [w for w in ps.warnings if w["code"] == "version_incomplete"]
    assert gap["language"] == "en" and gap["from_language"] == "pt"
    assert gap["articles"][0] == "art_13" and gap["articles"][-1] == "art_32"
    assert "come from the pt version only" in gap["message"]
