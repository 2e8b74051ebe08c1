"""Provisions follow-ups: conditions the extractor did not read (`unread_condition`), the eIds a cap
or exemption displaces (`overrides`), "the State of Estonia" as the government, the Dutch
reduction method as exemption with progression, and termination dates.

Synthetic texts (below, in other wordings than the corpus) prove the readers generalise; the
corpus survey pins, for every cap and exemption of the 16 English NL conventions, which carry an
unread condition (each checked by hand against the text)."""

from __future__ import annotations

from decimal import Decimal
from functools import cache

import pytest
from conftest import CORPUS, seed_path

import taxtreaty
from taxtreaty.provisions.model import Provision, ProvisionSet
from taxtreaty.provisions.unread import uncovered_words, unread_condition
from taxtreaty.provisions.vocabulary import fold_same_length, phrases

NL = CORPUS / "nl"


def extract(text: str) -> ProvisionSet:
    doc = taxtreaty.parse(text)
    ps = taxtreaty.provisions(doc)
    for p in ps.provisions:
        assert doc.original[p.cite.span[0] : p.cite.span[1]] == p.cite.quote
    return ps


def only(ps: ProvisionSet, eid: str, kind: str, **fields: object) -> Provision:
    found = [p for p in ps.provisions if p.cite.eid == eid and p.kind == kind
             and all(getattr(p, k) == v for k, v in fields.items())]
    assert len(found) == 1, [(p.cite.eid, p.kind, p.rate_pct) for p in ps.provisions]
    return found[0]


@cache
def corpus(code: str) -> ProvisionSet:
    path = NL / f"NL-{code}_convention_EN.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return taxtreaty.provisions(taxtreaty.parse_file(str(path)))


# -- 1. unread conditions: synthetic wordings ------------------------------------------------------

EN_UNREAD = """CONVENTION BETWEEN THE KINGDOM OF SPAIN AND THE REPUBLIC OF ESTONIA

Article 10
Dividends

1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.

2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed:

a) nil per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly at least 20 per cent of the capital of the company paying the dividends, on condition that the shares of that company are listed on a stock exchange of either State;

b) ten per cent of the gross amount of the dividends in all other cases.

3. Notwithstanding subparagraph a) of paragraph 2, so long as the company paying the dividends is allowed to deduct them from its taxable profits under the laws of Spain, the tax so charged shall not exceed 12 per cent of the gross amount of the dividends.

Article 11
Interest

1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.

2. However, such interest may also be taxed in the Contracting State in which it arises, but if the beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed eight per cent of the gross amount of the interest; provided that where the interest is paid on a loan made for a period of more than ten years the tax so charged shall not exceed 4 per cent of the gross amount of the interest.

3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be exempt from tax in that State if it is paid to the State of Estonia or to a financial institution wholly owned by the Government of Estonia.
"""

PT_UNREAD = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E O REINO DE ESPANHA

Artigo 10.º
Dividendos

1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:

a) 5 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha directamente pelo menos 25 % do capital da sociedade que paga os dividendos, desde que as acções dessa sociedade sejam cotadas numa bolsa de valores reconhecida;

b) 15 % do montante bruto dos dividendos, nos restantes casos.

3 — Não obstante o disposto na alínea a) do n.º 2, os dividendos pagos ao Estado Português ficam isentos de imposto.

Artigo 11.º
Juros

1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá 10 % do montante bruto dos juros.
"""

ES_UNREAD = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA PORTUGUESA

Artículo 10
Dividendos

1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero, si el beneficiario efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:

a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 10 por ciento del capital de la sociedad que paga los dividendos, siempre que dicha sociedad no sea una sociedad de inversión colectiva;

b) 15 por ciento del importe bruto de los dividendos en los demás casos.

3. No obstante lo dispuesto en el apartado a) del párrafo 2, los dividendos pagados al Estado español estarán exentos de imposición.
"""


def test_english_unread_conditions_are_kept_with_their_words():
    ps = extract(EN_UNREAD)
    zero = only(ps, "art_10__para_2__point_a", "withholding_cap")
    assert zero.rate_pct == Decimal("0")
    assert zero.conditions["min_capital_pct"] == Decimal("20")  # the read condition stays
    assert zero.conditions["unread_condition"] == (
        "on condition that the shares of that company are listed on a stock exchange of either State")
    other = only(ps, "art_10__para_2__point_b", "withholding_cap")
    assert other.rate_pct == Decimal("10") and "unread_condition" not in other.conditions
    later = only(ps, "art_10__para_3", "withholding_cap")
    assert later.rate_pct == Decimal("12")
    assert later.conditions["unread_condition"].startswith(
        "so long as the company paying the dividends is allowed to deduct them from its taxable profits")
    # a second rate in the sentence, chosen by the loan's term (a condition no key holds)
    base, long_loan = sorted(ps.find(topic="interest", kind="withholding_cap"), key=lambda p: p.rate_pct or 0, reverse=True)
    assert base.rate_pct == Decimal("8") and "unread_condition" not in base.conditions
    assert long_loan.rate_pct == Decimal("4")
    assert long_loan.conditions["unread_condition"] == "on a loan made for a period of more than ten years"


def test_portuguese_and_spanish_unread_conditions():
    pt = extract(PT_UNREAD)
    listed = only(pt, "art_10__para_2__point_a", "withholding_cap")
    assert listed.rate_pct == Decimal("5") and listed.conditions["min_capital_pct"] == Decimal("25")
    assert listed.conditions["unread_condition"] == (
        "desde que as acções dessa sociedade sejam cotadas numa bolsa de valores reconhecida")
    assert "unread_condition" not in only(pt, "art_10__para_2__point_b", "withholding_cap").conditions
    assert "unread_condition" not in only(pt, "art_11__para_2", "withholding_cap").conditions
    es = extract(ES_UNREAD)
    fund = only(es, "art_10__para_2__point_a", "withholding_cap")
    assert fund.rate_pct == Decimal("5")
    assert fund.conditions["unread_condition"] == (
        "siempre que dicha sociedad no sea una sociedad de inversión colectiva")
    assert "unread_condition" not in only(es, "art_10__para_2__point_b", "withholding_cap").conditions


@pytest.mark.parametrize(("language", "condition", "left_over"), [
    # every word accounted for: beneficial owner, company, holding, basis, period, payer
    ("en", "if the beneficial owner is a company which holds directly at least 25 per cent of the capital "
           "of the company paying the dividends for an uninterrupted period of two years", []),
    ("en", "if the recipient is the beneficial owner of the interest the tax so charged", []),
    ("en", "where such interest is paid to a bank or a financial institution", []),
    ("en", "if the beneficial owner of the interest is a resident of the other Contacting State", []),  # misprint
    ("en", "provided that such payments arise from sources outside that State", ["arise", "sources", "outside"]),
    ("en", "if it is paid on a loan made for a period of more than 7 years", ["made", "years"]),
    ("pt", "se a pessoa que recebe os dividendos for o seu beneficiário efectivo", []),
    ("pt", "desde que provenham de fontes situadas fora desse Estado", ["provenham", "fontes", "situadas", "fora"]),
    ("es", "si el beneficiario efectivo es una sociedad que posea directamente al menos el 25 por ciento del capital", []),
    ("es", "siempre que las acciones se negocien en una bolsa", ["negocien", "bolsa"]),
])
def test_words_a_read_condition_is_made_of(language, condition, left_over):
    ph = phrases(language)
    assert ph is not None
    words = uncovered_words(fold_same_length(condition), ph)
    for word in left_over:
        assert word in words
    assert bool(words) == bool(left_over)


def test_a_condition_announced_by_a_list_introduction_is_read_in_the_items():
    ph = phrases("en")
    assert ph is not None
    intro = "a company which holds directly at least 10 per cent of the capital, provided that:"
    item = "the shares of that company are regularly traded on a recognised stock exchange; or"
    texts = [(t, fold_same_length(t)) for t in (intro, item)]
    assert unread_condition(texts, ph) == "the shares of that company are regularly traded on a recognised stock exchange"
    plain = [(t, fold_same_length(t)) for t in ("if the beneficial owner of the dividends is:", "a pension fund;")]
    assert unread_condition(plain, ph) is None


# -- 1. unread conditions: the corpus survey ----------------------------------------------------------

#: every determined cap and exemption of the 16 English NL conventions that carries an unread
#: condition (the words checked by hand against each text); any other determined cap or exemption
#: of those files carries none, and was checked by hand not to hide one
CORPUS_UNREAD: dict[str, set[str]] = {
    "BB": {"art_10__para_3__point_a__point_i", "art_10__para_3__point_a__point_ii__point_aa",
           "art_10__para_3__point_a__point_ii__point_bb", "art_10__para_3__point_b", "art_10__para_3__point_d__point_i",
           "art_10__para_3__point_d__point_ii", "art_10__para_3__point_e", "art_10__para_11", "art_21__para_nn_1"},
    "CN": {"art_11__para_3", "art_12__para_2__point_a", "art_12__para_2__point_b", "art_20__para_nn_1"},
    "DK": {"art_20__para_nn_1"},
    "EE": {"art_10__para_2__point_a", "art_11__para_3__point_a__point_iii", "art_11__para_3__point_b__point_iii", "art_21__para_nn_1"},
    # ET, GR, KR, UG: a protocol point on its own line of a one-paragraph protocol ("Ad Article 10 ... The
    # provision of subparagraph a) of paragraph 2 of Article 10 shall not apply, if ...") qualifies the rates
    "ET": {"art_10__para_2__point_b", "art_10__para_2__point_c", "art_19__para_nn_1"},
    "GH": {"art_11__para_3__point_b", "art_20__para_1", "art_21__para_1"},
    "GR": {"art_10__para_2__point_a__point_i", "art_10__para_2__point_a__point_ii", "art_10__para_2__point_b",
           "art_22__para_nn_1"},
    "IN": {"art_11__para_2__point_a", "art_21__para_1__point_b"},
    "IS": {"art_10__para_3", "art_21__para_nn_1"},
    "JP": {"art_8__para_2", "art_10__para_2__point_a", "art_10__para_3__point_a", "art_10__para_3__point_b", "art_19__para_nn_1"},
    "KR": {"art_10__para_2__point_a", "art_11__para_2__point_a", "art_11__para_3", "art_12__para_2__point_a", "art_12__para_2__point_b",
           "art_22__para_1__point_b__point_i", "art_22__para_1__point_b__point_ii", "art_22__para_2__point_c",
           "art_22__para_3__point_b"},
    "LV": {"art_10__para_2__point_a", "art_11__para_3__point_a__point_iii", "art_11__para_3__point_b__point_iii", "art_21__para_nn_1"},
    "SE": {"art_21__para_nn_1"},
    "UG": {"art_10__para_3__point_a", "art_10__para_3__point_b", "art_11__para_3__point_a", "art_11__para_3__point_b__point_ii",
           "art_19__para_1", "art_20__para_nn_1"},
    "ZA": set(),
    "ZM": {"art_11__para_3", "art_20__para_1", "art_20__para_2"},
}


@pytest.mark.parametrize("code", sorted(CORPUS_UNREAD))
def test_corpus_caps_and_exemptions_with_unread_conditions(code):
    ps = corpus(code)
    flagged = {p.cite.eid for p in ps.provisions
               if p.kind in ("withholding_cap", "exemption") and "unread_condition" in p.conditions}
    assert flagged == CORPUS_UNREAD[code]
    for p in ps.provisions:
        words = p.conditions.get("unread_condition")
        if words:  # the words are the text's (page furniture aside), not a paraphrase
            assert " ".join(words.split(" … ")[0].split()[:4]) in " ".join(taxtreaty.parse_file(
                str(NL / f"NL-{code}_convention_EN.txt")).original.split())


def test_the_two_defects_reported_by_the_rules_engineer():
    bb = corpus("BB")
    traded = only(bb, "art_10__para_3__point_a__point_i", "exemption")
    assert traded.conditions["unread_condition"] == (
        "the shares of the company receiving the dividends are regularly traded on a recognised stock exchange")
    assert traded.conditions["min_capital_pct"] == Decimal("10")
    iceland = only(corpus("IS"), "art_10__para_3", "withholding_cap")
    assert iceland.rate_pct == Decimal("15")
    assert iceland.conditions["unread_condition"].startswith("as long as according to the laws of Iceland dividends")
    assert iceland.overrides == ["art_10__para_2__point_a"]
    allocation = only(corpus("IS"), "art_10__para_3", "allocation")
    assert allocation.overrides == ["art_10__para_2__point_a"]


def test_a_ceiling_on_the_holding_is_not_read_as_a_minimum():
    below = only(corpus("UG"), "art_10__para_3__point_b", "withholding_cap")
    assert "min_capital_pct" not in below.conditions
    assert "holds directly less than 50 per cent of the capital" in below.conditions["unread_condition"]


def test_seed_caps_keep_their_conditions_without_unread_words():
    for prefix in ("000", "001", "003", "004"):
        ps = taxtreaty.provisions(taxtreaty.parse_file(str(seed_path(prefix))))
        caps = [p for p in ps.provisions if p.kind == "withholding_cap" and p.status == "determined"]
        assert caps
        assert all("unread_condition" not in p.conditions for p in caps), prefix


# -- 2. overrides -------------------------------------------------------------------------------------

def test_overrides_name_the_paragraphs_and_items_displaced():
    en = extract(EN_UNREAD)
    assert only(en, "art_10__para_3", "withholding_cap").overrides == ["art_10__para_2__point_a"]
    assert only(en, "art_11__para_3", "exemption").overrides == ["art_11__para_2"]
    assert only(en, "art_10__para_2__point_a", "withholding_cap").overrides == []
    pt = extract(PT_UNREAD)
    assert only(pt, "art_10__para_3", "exemption").overrides == ["art_10__para_2__point_a"]
    es = extract(ES_UNREAD)
    assert only(es, "art_10__para_3", "exemption").overrides == ["art_10__para_2__point_a"]
    # an item inherits the "Notwithstanding" of its list's introduction
    assert only(corpus("BB"), "art_10__para_3__point_c", "exemption").overrides == ["art_10__para_2"]


def test_an_item_named_without_its_paragraph_is_found_in_the_article():
    text = PT_UNREAD.replace("Não obstante o disposto na alínea a) do n.º 2,", "Não obstante o disposto na alínea a),")
    assert only(extract(text), "art_10__para_3", "exemption").overrides == ["art_10__para_2__point_a"]


# -- 3. "the State of Estonia" is the government -------------------------------------------------------

def test_a_state_named_as_recipient_is_its_government():
    en = extract(EN_UNREAD)
    exempt = only(en, "art_11__para_3", "exemption")
    assert "government" in exempt.conditions["recipient_kinds"]
    assert exempt.conditions["unread_condition"] == (
        "if it is paid to the State of Estonia or to a financial institution wholly owned by the Government of Estonia")
    assert only(extract(PT_UNREAD), "art_10__para_3", "exemption").conditions["recipient_kinds"] == ["government"]
    assert only(extract(ES_UNREAD), "art_10__para_3", "exemption").conditions["recipient_kinds"] == ["government"]
    estonia = only(corpus("EE"), "art_11__para_3__point_a__point_i", "exemption")
    assert estonia.conditions["recipient_kinds"] == ["government", "local_authority"]


def test_a_resident_of_a_state_is_not_its_government():
    from taxtreaty.provisions.conditions import parties_kinds

    ph = phrases("en")
    assert ph is not None
    assert parties_kinds(fold_same_length("paid to a resident of the State of Estonia"), ph) == {}
    assert parties_kinds(fold_same_length("the State of which the company paying the dividends is a resident"), ph) == {}


# -- 4. the Dutch reduction method ---------------------------------------------------------------------

def test_the_dutch_reduction_is_exemption_with_progression():
    for code, eid in (("BB", "art_24__para_2"), ("KR", "art_23__para_2"), ("ZM", "art_22__para_2"), ("GR", "art_25__para_2")):
        relief = only(corpus(code), eid, "relief_method")
        assert relief.values == {"method": "exemption_with_progression", "progression": True,
                                 "computed_as": "reduction_of_tax"}, code
        assert relief.state == "NL"
    # "a reduction from the Netherlands tax ... equal to the tax paid in China" is a credit
    assert only(corpus("CN"), "art_22__para_2__point_c", "relief_method").values["method"] == "credit"


# -- 5. termination dates ------------------------------------------------------------------------------

def test_termination_dates_from_the_final_clauses():
    bb = [p.values for p in corpus("BB").find(kind="date") if str(p.values["event"]).startswith("termination")]
    assert bb == [
        {"event": "termination_notice", "months_before_year_end": 6, "years_after_entry_into_force": 5},
        {"event": "termination_effect", "from": "january_1_of_year_after_notice"},
    ]
    cn = [p.values for p in corpus("CN").find(kind="date") if p.values["event"] == "termination_notice"]
    assert cn == [{"event": "termination_notice", "years_after_entry_into_force": 5, "by": "06-30"}]
    ps = taxtreaty.provisions(taxtreaty.parse_file(str(seed_path("002"))))
    pt = [(p.cite.eid, p.values) for p in ps.find(kind="date", language="pt") if p.values["event"].startswith("termination")]
    assert ("art_32__para_2", {"event": "termination_notice", "by": "06-30"}) in pt
    assert ("art_32__para_2", {"event": "termination_notice", "years_after_entry_into_force": 3}) in pt
    assert any(v == {"event": "termination_effect", "from": "january_1_of_year_after_notice"} for _, v in pt)


ES_TERMINATION = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA PORTUGUESA

Artículo 30
Denuncia

1. El presente Convenio permanecerá en vigor indefinidamente, pero cualquiera de los Estados Contratantes podrá denunciarlo por vía diplomática hasta el 30 de junio de cualquier año civil.

2. En tal caso, el Convenio dejará de surtir efecto respecto de los impuestos devengados a partir del 1 de enero del año civil siguiente a aquel en que se notifique la denuncia.
"""


def test_spanish_termination_in_other_words():
    dates = [p.values for p in extract(ES_TERMINATION).find(kind="date")]
    assert {"event": "termination_notice", "by": "06-30"} in dates
    assert {"event": "termination_effect", "from": "january_1_of_year_after_notice"} in dates


PT_FURNITURE = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E O REINO DE ESPANHA

Artigo 10.º
Dividendos

1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:

a) 5 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha directa-

12 DE MARÇO DE 2003

4321

mente pelo menos 25 % do capital da sociedade que paga os dividendos;

b) 10 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha pelo menos 10 % do capital, salvo se a sociedade que paga os dividendos for uma sociedade de investimento imobiliá-

12 DE MARÇO DE 2003

4322

rio;

c) 15 % do montante bruto dos dividendos, nos restantes casos.
"""


def test_page_furniture_and_hyphenation_inside_a_condition():
    ps = extract(PT_FURNITURE)
    direct = only(ps, "art_10__para_2__point_a", "withholding_cap")
    assert direct.rate_pct == Decimal("5") and direct.conditions["min_capital_pct"] == Decimal("25")
    assert "unread_condition" not in direct.conditions  # "directa-" + page break + "mente" is one word
    assert "4321" in direct.cite.quote  # the quote is the original slice, furniture included
    reit = only(ps, "art_10__para_2__point_b", "withholding_cap")
    assert reit.conditions["unread_condition"] == (
        "salvo se a sociedade que paga os dividendos for uma sociedade de investimento imobiliário")
    assert "unread_condition" not in only(ps, "art_10__para_2__point_c", "withholding_cap").conditions
