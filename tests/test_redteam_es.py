"""Red team, Spanish: synthetic conventions in the styles of the BOE (Spain), the DOF (Mexico) and
South American gazettes (OCR'd, "ARTÍCULO DÉCIMO"), each checked against what its text says.

The fixtures under tests/fixtures/redteam/es/ are invented texts (they say so in their first line);
the expected values below are read from them by hand.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import taxtreaty
from taxtreaty.provisions.model import Provision, ProvisionSet
from taxtreaty.rules import decide
from taxtreaty.structure.model import Document

HERE = Path(__file__).resolve().parent / "fixtures" / "redteam" / "es"
FIXTURES = sorted(HERE.glob("*.txt"))


@cache
def load(name: str) -> tuple[Document, ProvisionSet]:
    doc = taxtreaty.parse_file(HERE / name)
    return doc, taxtreaty.provisions(doc)


def at(ps: ProvisionSet, eid: str, kind: str | None = None) -> list[Provision]:
    return [p for p in ps.provisions if p.cite.eid == eid and (kind is None or p.kind == kind)]


def one(ps: ProvisionSet, eid: str, kind: str) -> Provision:
    (p,) = at(ps, eid, kind)
    return p


def ask(name: str, **facts: Any) -> Any:
    return decide(load(name), facts)


def candidates(decision: Any) -> dict[str, Decimal | None]:
    """eid -> the most the source State may take if that candidate is the one that applies."""
    out = {}
    for c in decision.to_dict().get("candidates", []):
        out[c["eid"]] = None if c["max_rate_pct"] is None else Decimal(c["max_rate_pct"])
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_every_quote_is_the_source_at_its_span(path: Path) -> None:
    doc, ps = load(path.name)
    assert ps.provisions
    for p in ps.provisions:
        assert p.cite.quote == doc.original[p.cite.span[0] : p.cite.span[1]], p.id


# -- BOE style: Spain - Chile ("Artículo 10. Dividendos.", "por 100") -----------------------------------

BOE = "boe_espana_chile.txt"


def test_boe_dividend_caps_in_por_100() -> None:
    _, ps = load(BOE)
    low = one(ps, "art_10__para_2__point_a", "withholding_cap")
    assert low.rate_pct == Decimal("0")
    assert {k: v for k, v in low.conditions.items() if k != "unread_condition"} == {
        "beneficial_owner": True, "recipient": "partnership_excluded_company", "min_capital_pct": Decimal("20"),
        "capital_basis": "capital", "holding_direct": True,
    }
    high = one(ps, "art_10__para_2__point_b", "withholding_cap")
    assert (high.rate_pct, high.conditions) == (Decimal("10"), {"beneficial_owner": True, "otherwise": True})
    assert one(ps, "art_10__para_4", "allocation").values == {"refer_to": ["7"]}


def test_boe_protocol_that_qualifies_a_rate_makes_it_indeterminate() -> None:
    """Bug: the protocol says the 0 por 100 of article 10(2)(a) does not apply to dividends paid out of
    exempt profits; taxtreaty ignored protocols and answered 0% as determined."""
    doc, ps = load(BOE)
    low = one(ps, "art_10__para_2__point_a", "withholding_cap")
    assert low.conditions["unread_condition"].startswith("En relación con el artículo 10, apartado 2, letra a)")
    assert "unread_condition" not in one(ps, "art_10__para_2__point_b", "withholding_cap").conditions
    # the most-favoured-nation clause names the whole article 12, no one rate: the caps stay as read
    assert all("tercer Estado" not in p.conditions.get("unread_condition", "") for p in ps.find(topic="royalties"))
    parent = ask(BOE, income="dividends", source="CL", residence="ES", beneficial_owner=True, recipient="company",
                 capital_pct=Decimal("30"))
    assert parent.status == "indeterminate"
    assert candidates(parent) == {"art_10__para_2__point_a": Decimal("0"), "art_10__para_2__point_b": Decimal("10")}
    small = ask(BOE, income="dividends", source="CL", residence="ES", beneficial_owner=True, recipient="company",
                capital_pct=Decimal("5"))
    assert (small.status, small.max_rate_pct) == ("determined", Decimal("10"))
    assert doc.versions[0].protocols


@pytest.mark.parametrize("text", [
    "Article 10\nDividends\n\n2. However, the tax so charged shall not exceed:\n"
    "a) 5 per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly "
    "at least 10 per cent of the capital of the company paying the dividends;\n"
    "b) 15 per cent of the gross amount of the dividends in all other cases.\n\n"
    "PROTOCOL\n\nAt the signing of the Convention the undersigned have agreed:\n\n"
    "1. With reference to subparagraph a) of paragraph 2 of Article 10, the rate of 5 per cent shall not apply "
    "to dividends paid by a real estate investment company.\n",
    "Artigo 10.º\nDividendos\n\n2 — Todavia, o imposto assim estabelecido não excederá:\n"
    "a) 5 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha "
    "directamente pelo menos 10 % do capital da sociedade que paga os dividendos;\n"
    "b) 15 % do montante bruto dos dividendos, nos restantes casos.\n\n"
    "PROTOCOLO\n\nNo momento da assinatura da Convenção, os signatários acordaram:\n\n"
    "1. Com referência à alínea a) do n.º 2 do artigo 10.º, a taxa de 5 % não se aplica aos dividendos pagos "
    "por uma sociedade de investimento imobiliário.\n",
], ids=["en", "pt"])
def test_a_protocol_qualifier_generalises_across_languages(text: str) -> None:
    ps = taxtreaty.provisions(taxtreaty.parse(text))
    (low,) = [p for p in ps.find(kind="withholding_cap") if p.rate_pct == Decimal("5")]
    (high,) = [p for p in ps.find(kind="withholding_cap") if p.rate_pct == Decimal("15")]
    assert low.cite.eid == "art_10__para_2__point_a"
    assert "10" in low.conditions["unread_condition"] and "5" in low.conditions["unread_condition"]
    assert "unread_condition" not in high.conditions


def test_boe_interest_residence_only_for_governments_and_central_banks_only() -> None:
    """Bug: "pagados al Gobierno ... o al Banco Central de Chile, sólo pueden someterse a imposición en
    ese otro Estado" was read as residence-only for every interest payment (0% for a company)."""
    _, ps = load(BOE)
    alloc = one(ps, "art_11__para_3", "allocation")
    assert alloc.allocation == "residence_only"
    assert alloc.conditions["recipient_kinds"] == ["government", "local_authority", "central_bank"]
    company = ask(BOE, income="interest", source="CL", residence="ES", beneficial_owner=True, recipient="company")
    assert company.status == "indeterminate"  # 5% for bank loans or traded bonds (words unread) or 15%
    assert candidates(company) == {"art_11__para_2__point_a": Decimal("5"), "art_11__para_2__point_b": Decimal("15")}
    bank = ask(BOE, income="interest", source="CL", residence="ES", beneficial_owner=True, recipient="central_bank")
    assert (bank.status, bank.max_rate_pct) == ("determined", Decimal("0"))


def test_boe_interest_bank_loan_rate_keeps_its_unread_condition() -> None:
    _, ps = load(BOE)
    low = one(ps, "art_11__para_2__point_a", "withholding_cap")
    assert low.rate_pct == Decimal("5")
    assert "préstamos otorgados por bancos" in low.conditions["unread_condition"]
    high = one(ps, "art_11__para_2__point_b", "withholding_cap")
    assert (high.rate_pct, high.conditions.get("otherwise")) == (Decimal("15"), True)


def test_boe_royalty_list() -> None:
    _, ps = load(BOE)
    equipment = one(ps, "art_12__para_2__point_a", "withholding_cap")
    assert (equipment.rate_pct, equipment.conditions["income_subtype"]) == (Decimal("5"), "equipment_rental")
    rest = one(ps, "art_12__para_2__point_b", "withholding_cap")
    assert (rest.rate_pct, rest.conditions.get("otherwise")) == (Decimal("10"), True)
    general = ask(BOE, income="royalties", source="CL", residence="ES", beneficial_owner=True)
    assert (general.status, general.max_rate_pct) == ("determined", Decimal("10"))


def test_boe_student_payments_are_exempt_not_taxable() -> None:
    """Bug: "no pueden someterse a imposición en ese Estado" matched "pueden someterse a imposición"
    and was read as "the source State may tax"."""
    _, ps = load(BOE)
    eid = "art_20__para_nn_1"
    assert not at(ps, eid, "allocation")
    exemption = one(ps, eid, "exemption")
    assert exemption.allocation == "exempt_in_host"
    assert exemption.conditions["unread_condition"] == "siempre que procedan de fuentes situadas fuera de ese Estado"


def test_boe_relief_entry_into_force_and_notice() -> None:
    _, ps = load(BOE)
    relief = one(ps, "art_23__para_1__point_a", "relief_method")
    assert (relief.values, relief.state) == ({"method": "credit", "limit": "ordinary"}, "ES")
    assert one(ps, "art_29__para_1", "date").values == {
        "event": "entry_into_force", "days_after": 30, "after": "last_notification"}
    assert one(ps, "art_29__para_2", "date").values == {
        "event": "effect", "from": "january_1_of_year_after_entry_into_force"}
    # "al menos con seis meses de antelación al final de cualquier año civil" (missed before)
    assert one(ps, "art_30__para_nn_1", "date").values == {"event": "termination_notice", "months_before_year_end": 6}


# -- DOF style: Mexico - Colombia ("ARTICULO 10", "no puede exceder del", "4,9 por ciento") -----------

DOF = "dof_mexico_colombia.txt"


def test_dof_dividend_holding_for_a_period_before_payment_is_read() -> None:
    """Missed: "ha poseído directamente ... durante un período ininterrumpido de dieciocho meses anterior
    a la fecha del pago" was left unread (indeterminate) although every condition in it was read."""
    _, ps = load(DOF)
    low = one(ps, "art_10__para_2__point_a", "withholding_cap")
    assert low.rate_pct == Decimal("0")
    assert low.conditions == {
        "beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("25"), "capital_basis": "capital",
        "holding_direct": True, "min_holding_months": 18,
    }
    held = ask(DOF, income="dividends", source="CO", residence="MX", beneficial_owner=True, recipient="company",
               capital_pct=Decimal("30"), held_months=24)
    # indeterminate only because a company might be a recognised pension fund (paragraph 3): 0% either way
    assert candidates(held) == {"art_10__para_2__point_a": Decimal("0"), "art_10__para_3": Decimal("0")}
    short = ask(DOF, income="dividends", source="CO", residence="MX", beneficial_owner=True, recipient="company",
                capital_pct=Decimal("30"), held_months=12)
    assert candidates(short) == {"art_10__para_2__point_b": Decimal("10"), "art_10__para_3": Decimal("0")}


def test_dof_recognised_pension_fund_exemption_stays_unread() -> None:
    _, ps = load(DOF)
    exemption = one(ps, "art_10__para_3", "exemption")
    assert exemption.conditions["recipient_kinds"] == ["pension_fund"]
    assert "reconocido" in exemption.conditions["unread_condition"]


def test_dof_decimal_comma_rate_and_central_bank_by_name() -> None:
    _, ps = load(DOF)
    low = one(ps, "art_11__para_2__point_a", "withholding_cap")
    assert low.rate_pct == Decimal("4.9")
    assert low.conditions["unread_condition"] == "siempre que el préstamo tenga un plazo de al menos tres años"
    # "el Banco de la República" is Colombia's central bank (was read as a commercial bank, unread)
    public = one(ps, "art_11__para_3__point_a", "exemption")
    assert public.conditions == {
        "recipient_kinds": ["government", "local_authority", "central_bank"], "beneficial_owner": True}
    guaranteed = one(ps, "art_11__para_3__point_b", "exemption")
    assert "Banco Nacional de Comercio Exterior" in guaranteed.conditions["unread_condition"]
    company = ask(DOF, income="interest", source="CO", residence="MX", beneficial_owner=True, recipient="company")
    assert company.status == "indeterminate"
    assert candidates(company)["art_11__para_2__point_b"] == Decimal("15")
    assert "art_11__para_3__point_a" not in candidates(company)


def test_dof_credit_relief_item_and_termination() -> None:
    """Missed: the Mexican credit ("acreditar contra el impuesto mexicano: a) el impuesto colombiano
    pagado ..., en una cantidad que no exceda del impuesto exigible en México") and "dar por terminado"."""
    _, ps = load(DOF)
    relief = one(ps, "art_24__para_1__point_a", "relief_method")
    assert (relief.values, relief.state) == ({"method": "credit", "limit": "ordinary"}, "MX")
    values = sorted((p.values for p in at(ps, "art_31__para_nn_1", "date")), key=lambda v: v["event"])
    assert values == [
        {"event": "termination_effect", "from": "january_1_of_year_after_notice"},
        {"event": "termination_notice", "by": "06-30"},
    ]


# -- South American style, OCR'd: Argentina - Uruguay ("ARTÍCULO DÉCIMO PRIMERO") ---------------------

OCR = "ocr_argentina_uruguay.txt"


def test_ocr_voting_shares_controlled_directly() -> None:
    """Missed: "controla directamente por lo menos el 25% de las acciones con derecho a voto" was unread."""
    _, ps = load(OCR)
    low = one(ps, "art_10__para_2__point_a", "withholding_cap")
    assert low.rate_pct == Decimal("10")
    assert low.conditions == {
        "beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("25"),
        "capital_basis": "voting_power", "holding_direct": True,
    }


def test_ocr_damaged_rate_digits_are_never_read_as_a_rate() -> None:
    """"quince por ciento (l5%)", split by a page header of the gazette: unknown, not a guess."""
    _, ps = load(OCR)
    damaged = one(ps, "art_10__para_2__point_b", "withholding_cap")
    assert (damaged.status, damaged.rate_pct) == ("unknown", None)
    assert "l5%" in (damaged.reason or "")
    other = ask(OCR, income="dividends", source="AR", residence="UY", beneficial_owner=True, recipient="individual")
    assert other.status == "indeterminate" and other.max_rate_pct is None
    assert candidates(other) == {None: None, "art_10__para_2__point_b": None}  # no cap, or the unread one


def test_ocr_mojibake_and_footnote_marker_keep_the_interest_cap() -> None:
    """"el impuesto asÃ­ exigido no excederÃ¡ del 12% ... intereses.(1)": mojibake repaired."""
    _, ps = load(OCR)
    cap = one(ps, "art_11__para_2", "withholding_cap")
    assert (cap.status, cap.rate_pct, cap.conditions) == ("determined", Decimal("12"), {"beneficial_owner": True})


def test_ocr_credit_sale_interest_is_not_equipment_rental() -> None:
    """Bug: interest "en relación con la venta a crédito de equipos industriales, comerciales o
    científicos" was tagged as the royalty kind equipment_rental."""
    _, ps = load(OCR)
    exemption = one(ps, "art_11__para_3", "exemption")
    assert exemption.conditions == {"income_subtype": "credit_sale"}
    general = ask(OCR, income="interest", source="AR", residence="UY", beneficial_owner=True)
    assert general.max_rate_pct == Decimal("12")


def test_ocr_news_royalty_rate_is_never_applied_to_every_royalty() -> None:
    _, ps = load(OCR)
    news = one(ps, "art_12__para_2__point_a", "withholding_cap")
    assert news.rate_pct == Decimal("3") and "noticias" in news.conditions["unread_condition"]
    general = ask(OCR, income="royalties", source="AR", residence="UY", beneficial_owner=True)
    assert general.status == "indeterminate"
    assert candidates(general) == {"art_12__para_2__point_a": Decimal("3"), "art_12__para_2__point_c": Decimal("10")}


def test_ocr_exemption_with_progression() -> None:
    _, ps = load(OCR)
    relief = one(ps, "art_23__para_1", "relief_method")
    assert (relief.values, relief.state) == ({"method": "exemption", "progression": True}, "UY")


# -- Chile style, rates inline in one paragraph, the Additional Tax clause ------------------------------

CHILE = "chile_espana_inline.txt"


def test_chile_additional_tax_clause_leaves_the_dividend_caps_open() -> None:
    """Bug: "Las disposiciones del párrafo 2 no limitarán la aplicación del Impuesto Adicional a pagar en
    Chile ..." was ignored: 15% (or 5%) was answered as the most Chile may take."""
    _, ps = load(CHILE)
    caps = {p.rate_pct: p for p in at(ps, "art_10__para_2", "withholding_cap")}
    assert set(caps) == {Decimal("5"), Decimal("15")}
    assert caps[Decimal("15")].conditions["unread_condition"].startswith("Las disposiciones del párrafo 2 no limitarán")
    assert caps[Decimal("5")].conditions["holding_direct"] is False  # "directa o indirectamente"
    answer = ask(CHILE, income="dividends", source="CL", residence="ES", beneficial_owner=True, recipient="individual")
    assert answer.status == "indeterminate" and answer.max_rate_pct is None


def test_chile_decimal_comma_rate() -> None:
    _, ps = load(CHILE)
    assert one(ps, "art_11__para_2", "withholding_cap").rate_pct == Decimal("12.5")


def test_chile_residence_only_exception_with_unread_terms_is_a_candidate_not_ignored() -> None:
    """Bug: "sólo pueden someterse a imposición en el otro Estado si ... los intereses se pagan por
    préstamos otorgados por un plazo no inferior a tres años por bancos o compañías de seguros" was
    residence-only with beneficial ownership as its only condition (0% for every interest payment);
    once its words were kept unread, the engine ignored it and answered 12.5% as determined."""
    _, ps = load(CHILE)
    exception = one(ps, "art_11__para_3", "allocation")
    assert exception.allocation == "residence_only"
    assert "plazo no inferior a tres años" in exception.conditions["unread_condition"]
    answer = ask(CHILE, income="interest", source="ES", residence="CL", beneficial_owner=True, recipient="company")
    assert answer.status == "indeterminate"
    assert candidates(answer) == {"art_11__para_2": Decimal("12.5"), "art_11__para_3": Decimal("0")}


def test_chile_government_service_and_employment() -> None:
    _, ps = load(CHILE)
    assert one(ps, "art_19__para_1__point_a", "allocation").allocation == "paying_state_only"
    assert one(ps, "art_19__para_1__point_b", "allocation").allocation == "residence_only"
    assert one(ps, "art_15__para_2", "threshold").values == {"days": 183, "period_months": 12}
    assert one(ps, "art_13__para_4", "allocation").allocation == "source_may_tax"


PROTOCOL_TAIL = (
    "Artículo 10\nDividendos\n\n2. Sin embargo, el impuesto así exigido no podrá exceder del 10 por ciento del importe "
    "bruto de los dividendos.\n\nArtículo 12\nRegalías\n\n2. Sin embargo, el impuesto así exigido no podrá exceder del "
    "15 por ciento del importe bruto de las regalías.\n\nPROTOCOLO\n\nEn el momento de la firma del Convenio, los "
    "signatarios han convenido lo siguiente:\n\n1. {clause}\n"
)


@pytest.mark.parametrize(("clause", "qualified"), [
    # switches the paragraph off in a case no condition key holds: the cap is open
    ("Las disposiciones del párrafo 2 del artículo 10 no se aplicarán a los dividendos distribuidos por una "
     "sociedad de inversión inmobiliaria.", {"dividends"}),
    # widens the royalty paragraph to technical services: its rate stays as read
    ("Se entiende que las disposiciones del párrafo 2 del artículo 12 se aplican a los pagos por servicios técnicos.",
     set()),
    # names a whole article only (a most-favoured-nation clause): no one rate is qualified
    ("Si un Estado acordara con un tercer Estado un tipo inferior al previsto en el artículo 12, ese tipo se aplicará.",
     set()),
])
def test_protocol_paragraphs_qualify_only_the_rates_they_switch_off(clause: str, qualified: set[str]) -> None:
    ps = taxtreaty.provisions(taxtreaty.parse(PROTOCOL_TAIL.format(clause=clause)))
    caps = ps.find(kind="withholding_cap")
    assert {p.topic: p.rate_pct for p in caps} == {"dividends": Decimal("10"), "royalties": Decimal("15")}
    assert {p.topic for p in caps if "unread_condition" in p.conditions} == qualified
    for p in caps:
        if p.topic in qualified:
            assert p.conditions["unread_condition"] == clause


# -- Andean Community style: taxation only where the income arises ---------------------------------------

ANDEAN = "andina_decision.txt"


@pytest.mark.parametrize(("income", "eid"), [
    ("interest", "art_10__para_nn_1"), ("dividends", "art_11__para_nn_1"), ("royalties", "art_12__para_nn_1"),
    ("pensions", "art_15__para_nn_1"), ("capital_gains", "art_19__para_nn_1"),
])
def test_andean_income_is_taxed_only_where_it_arises(income: str, eid: str) -> None:
    """Bug: "Las ganancias de capital sólo podrán gravarse por el País Miembro en cuyo territorio
    estuvieren situados los bienes" was read as "the source State may tax too" (the residence State
    would have taxed with a credit); "sólo serán gravables en el País Miembro en cuyo territorio se
    impute y registre su pago" was not read at all."""
    _, ps = load(ANDEAN)
    assert one(ps, eid, "allocation").allocation == "source_only"
    answer = ask(ANDEAN, income=income, source="PE", residence="EC")
    assert (answer.status, answer.source_taxation, answer.residence_taxation) == ("determined", "unlimited", "none")
    assert answer.eid == eid


def test_an_exclusive_rule_for_the_residence_state_is_not_source_only() -> None:
    text = (
        "Artículo 8\nTransporte marítimo y aéreo\n\n1. Los beneficios procedentes de la explotación de buques o "
        "aeronaves en tráfico internacional sólo pueden someterse a imposición en el Estado contratante en que "
        "esté situada la sede de dirección efectiva de la empresa.\n\n"
        "Artículo 13\nGanancias de capital\n\n5. Las ganancias derivadas de la enajenación de cualquier otro bien "
        "sólo pueden someterse a imposición en el Estado contratante en que resida el transmitente.\n"
    )
    ps = taxtreaty.provisions(taxtreaty.parse(text))
    assert {p.cite.eid: p.allocation for p in ps.find(kind="allocation")} == {
        "art_13__para_5": "residence_only", "art_8__para_1": "effective_management_only"}


# -- BOE style again: Spain - Ecuador (rates in one sentence, "diez (10) por ciento", a dated limit) ---

ECUADOR = "boe_espana_ecuador.txt"


def test_ecuador_words_with_bracketed_figure_are_one_rate() -> None:
    """Bug: "y del diez (10) por ciento del importe bruto de los dividendos en los demás casos" was not
    read as a rate: the 5% took the "demás casos" and an individual got "no cap applies" (determined)."""
    _, ps = load(ECUADOR)
    caps = {p.rate_pct: p.conditions for p in at(ps, "art_10__para_2", "withholding_cap")}
    assert caps == {
        Decimal("5"): {"beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("25"),
                       "capital_basis": "capital", "holding_direct": True, "min_holding_days": 365},
        Decimal("10"): {"beneficial_owner": True, "otherwise": True},
    }
    answer = ask(ECUADOR, income="dividends", source="EC", residence="ES", beneficial_owner=True, recipient="individual")
    assert (answer.status, answer.source_taxation, answer.max_rate_pct) == ("determined", "limited", Decimal("10"))


@pytest.mark.parametrize(("words", "rate"), [
    ("del diez (10) por ciento", Decimal("10")), ("del diez por ciento (10 %)", Decimal("10")),
    ("del 5 por 100", Decimal("5")), ("del diez (15) por ciento", None),
])
def test_rate_words_and_bracketed_figures(words: str, rate: Decimal | None) -> None:
    text = ("Artículo 12\nCánones\n\n2. Sin embargo, el impuesto así exigido no podrá exceder "
            f"{words} del importe bruto de los cánones.\n")
    (cap,) = taxtreaty.provisions(taxtreaty.parse(text)).find(kind="withholding_cap")
    assert cap.rate_pct == rate
    assert cap.status == ("determined" if rate is not None else "unknown")


def test_ecuador_damaged_interest_rate_and_exemption_list_recipients() -> None:
    """Bug: "estarán exentos en ese Estado cuando se paguen a: a) ...; b) el Banco Central del Ecuador"
    made the listed bodies the payers ("procedentes de" was the only role word), so interest paid by a
    local authority to anyone would have been exempt."""
    _, ps = load(ECUADOR)
    damaged = one(ps, "art_11__para_2", "withholding_cap")
    assert (damaged.status, damaged.rate_pct) == ("unknown", None) and "1O por 100" in (damaged.reason or "")
    assert one(ps, "art_11__para_3__point_a", "exemption").conditions == {"recipient_kinds": ["local_authority"]}
    bank = one(ps, "art_11__para_3__point_b", "exemption").conditions
    assert bank["recipient_kinds"] == ["central_bank", "named_institution"] and "payer_kinds" not in bank
    assert "acuerden las autoridades" in one(ps, "art_11__para_3__point_c", "exemption").conditions["unread_condition"]


def test_ecuador_royalty_cap_applies_only_from_its_date() -> None:
    """Bug: "Esta limitación se aplicará a los cánones pagados a partir del 1 de enero de 2025" was
    ignored: the 10% cap was applied to royalties paid in 2024."""
    _, ps = load(ECUADOR)
    cap = one(ps, "art_12__para_2", "withholding_cap")
    assert cap.conditions == {"beneficial_owner": True, "paid_from": date(2025, 1, 1)}
    before = ask(ECUADOR, income="royalties", source="EC", residence="ES", beneficial_owner=True, date="2024-06-01")
    assert (before.status, before.source_taxation) == ("determined", "unlimited")
    after = ask(ECUADOR, income="royalties", source="EC", residence="ES", beneficial_owner=True, date="2025-06-01")
    assert (after.status, after.max_rate_pct) == ("determined", Decimal("10"))
    undated = ask(ECUADOR, income="royalties", source="EC", residence="ES", beneficial_owner=True)
    assert undated.status == "indeterminate"


def test_ecuador_relief_teachers_map_and_entry_into_force() -> None:
    """Missed: "España permitirá deducir del impuesto ..." (credit) and "entrará en vigor el trigésimo
    día siguiente a la fecha de la última notificación"."""
    _, ps = load(ECUADOR)
    relief = one(ps, "art_24__para_1", "relief_method")
    assert (relief.values, relief.state) == ({"method": "credit"}, "ES")
    teacher = one(ps, "art_20__para_nn_1", "exemption")  # "perío-\ndo" joined across the line
    assert (teacher.allocation, teacher.values) == ("exempt_in_host", {"years": 2})
    assert one(ps, "art_26__para_1", "time_limit").values == {"years": 3, "event": "mutual_agreement_case"}
    assert one(ps, "art_29__para_nn_1", "date").values == {
        "event": "entry_into_force", "days_after": 30, "after": "last_notification"}


# -- DOF style: Mexico - Spain, an exclusive rule whose cases are a list ------------------------------

LISTS = "dof_mexico_espana_listas.txt"


def test_exclusive_rule_with_a_list_of_cases_is_one_rule_per_case() -> None:
    """Bug: "sólo pueden someterse a imposición en el otro Estado Contratante si: a) el beneficiario
    efectivo es ... el banco central ...; b) los intereses se pagan por préstamos ... garantizados por el
    Gobierno" was residence-only with no condition: 0% for any interest, to anyone."""
    _, ps = load(LISTS)
    assert not at(ps, "art_11__para_3", "allocation")
    public = one(ps, "art_11__para_3__point_a", "allocation")
    assert (public.allocation, public.conditions) == (
        "residence_only", {"beneficial_owner": True, "recipient_kinds": ["local_authority", "central_bank"]})
    guaranteed = one(ps, "art_11__para_3__point_b", "allocation")
    assert guaranteed.conditions["guaranteed_by_government"] is True
    assert "plazo de tres años o más" in guaranteed.conditions["unread_condition"]
    company = ask(LISTS, income="interest", source="MX", residence="ES", beneficial_owner=True, recipient="company")
    assert (company.status, company.max_rate_pct) == ("determined", Decimal("10"))
    bank = ask(LISTS, income="interest", source="MX", residence="ES", beneficial_owner=True, recipient="central_bank")
    assert (bank.status, bank.source_taxation, bank.max_rate_pct) == ("determined", "none", Decimal("0"))


def test_direct_participation_in_the_capital_is_read() -> None:
    """Missed: "que tenga una participación directa de al menos el 10 por ciento en el capital" was unread."""
    _, ps = load(LISTS)
    assert one(ps, "art_10__para_2__point_a", "withholding_cap").conditions == {
        "beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("10"), "capital_basis": "capital",
        "holding_direct": True}


def test_government_pensions_go_to_the_paying_state() -> None:
    """Bug: "Las pensiones pagadas por un Estado Contratante o por una de sus subdivisiones políticas ...
    sólo pueden someterse a imposición en ese Estado" was read as residence-only."""
    _, ps = load(LISTS)
    assert one(ps, "art_18__para_2", "allocation").allocation == "paying_state_only"
    answer = ask(LISTS, income="pensions", source="MX", residence="ES", payer="government")
    assert (answer.status, answer.source_taxation, answer.residence_taxation) == ("determined", "unlimited", "none")


# -- Colombian style: a higher rate on dividends from untaxed profits ------------------------------------

COLOMBIA = "do_colombia_portugal.txt"


def test_colombia_rate_on_untaxed_profits_keeps_the_dividend_cap_open() -> None:
    """Bug: "No obstante lo dispuesto en el párrafo 2, ... los dividendos podrán someterse a imposición
    en Colombia a la tarifa del 33 por ciento si los beneficios ... no han estado sometidos a imposición"
    was read as a bare "the source State may tax" and the 10% cap was answered as determined."""
    _, ps = load(COLOMBIA)
    higher = one(ps, "art_10__para_3", "withholding_cap")
    assert (higher.rate_pct, higher.overrides) == (Decimal("33"), ["art_10__para_2"])
    assert "no han estado sometidos a imposición" in higher.conditions["unread_condition"]
    answer = ask(COLOMBIA, income="dividends", source="CO", residence="PT", beneficial_owner=True, recipient="company")
    assert answer.status == "indeterminate"
    assert candidates(answer) == {"art_10__para_2": Decimal("10"), "art_10__para_3": Decimal("33")}


def test_colombia_student_allowance_and_prevailing_english_text() -> None:
    _, ps = load(COLOMBIA)
    student = one(ps, "art_20__para_nn_1", "exemption")
    assert (student.allocation, student.values) == ("exempt_in_host", {"amount": 9000, "currency": "USD", "years": 5})
    assert one(ps, "final_clause", "prevailing_language").values == {"language": "en"}


# -- still open (each fails today; strict, so a fix shows up as XPASS and must be promoted) --------------


@pytest.mark.xfail(strict=True, reason="'el otro Estado contratante' at the head of an exemption-list item is not read "
                   "as the government: the State itself is left out of the exemption (too narrow, never too wide)")
def test_open_the_state_itself_in_an_exemption_list() -> None:
    _, ps = load(ECUADOR)
    assert "government" in one(ps, "art_11__para_3__point_a", "exemption").conditions["recipient_kinds"]


def test_open_holding_period_in_days() -> None:
    answer = ask(ECUADOR, income="dividends", source="EC", residence="ES", beneficial_owner=True, recipient="company",
                 capital_pct=Decimal("30"), held_months=24)
    assert (answer.status, answer.max_rate_pct) == ("determined", Decimal("5"))


@pytest.mark.xfail(strict=True, reason="'quince por ciento (l5%)': the words are clear but the OCR'd figure marks "
                   "the whole clause damaged (safe: unknown, never a guess)")
def test_open_rate_words_clear_when_the_figure_is_damaged() -> None:
    _, ps = load(OCR)
    assert one(ps, "art_10__para_2__point_b", "withholding_cap").rate_pct == Decimal("15")


@pytest.mark.xfail(strict=True, reason="the Argentine Boletín Oficial running line is not page furniture yet: it "
                   "splits 'dividen-/dos' and the point is cut at the header")
def test_open_argentine_gazette_header_is_furniture() -> None:
    doc, _ = load(OCR)
    point = doc.version("es").article("10").paragraph("2").points[1]
    assert "BOLETIN" not in point.text and "dividendos en los demás casos" in point.text


@pytest.mark.xfail(strict=True, reason="'posterior al quinto año siguiente a la entrada en vigor' (an ordinal year) "
                   "is not read as years_after_entry_into_force")
def test_open_termination_waiting_period_in_ordinal_words() -> None:
    _, ps = load(DOF)
    notice = next(p for p in at(ps, "art_31__para_nn_1", "date") if p.values["event"] == "termination_notice")
    assert notice.values.get("years_after_entry_into_force") == 5
