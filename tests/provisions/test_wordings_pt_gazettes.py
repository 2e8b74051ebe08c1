"""Provisions, wordings met in Portuguese conventions as the Diário da República, the Diário da Assembleia da
República and Brazil's Diário Oficial da União print them (and their English and Spanish equivalents where the
same idea is written): each is read, never left as an unread condition. Sentences are our own paraphrases."""

from __future__ import annotations

from decimal import Decimal

import pytest
from helpers import extract_text, only

import taxtreaty
from taxtreaty.provisions.unread import uncovered_words
from taxtreaty.provisions.vocabulary import fold_same_length, phrases


@pytest.mark.parametrize(("language", "condition", "left_over"), [
    # the note on how the holding period is counted (the MLI's wording, now in bilateral texts) is no condition
    ("pt", "se o beneficiário efetivo for uma sociedade que detenha diretamente pelo menos 25% do capital da sociedade "
     "que paga os dividendos durante um período de 365 dias que inclua o dia do pagamento dos dividendos (para efeitos "
     "de cálculo deste período, não serão tomadas em consideração as alterações de titularidade que resultem "
     "diretamente de uma reestruturação, tal como uma fusão ou cisão, da sociedade que detém as partes de capital)", []),
    ("pt", "se o beneficiário efetivo for uma sociedade que detenha diretamente pelo menos 10 por cento do capital da "
     "sociedade que paga os dividendos durante um período de 365 dias que inclua o dia do pagamento (para fins do "
     "cálculo desse período, não serão levadas em consideração as mudanças de propriedade decorrentes de uma "
     "reorganização societária, como fusão ou cisão)", []),
    ("en", "if the beneficial owner is a company which holds directly at least 25 per cent of the capital of the company "
     "paying the dividends throughout a 365 day period that includes the day of the payment of the dividend (for the "
     "purpose of computing that period, no account shall be taken of changes of ownership that would directly result "
     "from a corporate reorganisation, such as a merger or divisive reorganisation)", []),
    ("es", "si el beneficiario efectivo es una sociedad que posea directamente al menos el 10 por ciento del capital de la "
     "sociedad que paga los dividendos durante un período de 365 días que incluya el día del pago (a efectos del "
     "cómputo de dicho período, no se tendrán en cuenta los cambios de propiedad derivados de una reorganización "
     "societaria, como una fusión o escisión)", []),
    # what follows the note is still read: a listing condition after it is not hidden by it
    ("en", "if the beneficial owner is a company which holds directly at least 25 per cent of the capital throughout a "
     "365 day period (for the purpose of computing that period, no account shall be taken of a merger) and whose "
     "shares are listed on a stock exchange", ["listed", "stock", "exchange"]),
    # the same words without the note are a condition not read
    ("pt", "se o beneficiário efetivo for uma sociedade que detenha pelo menos 25% do capital, não sendo tomadas em "
     "consideração as alterações de titularidade resultantes de uma fusão", ["alteracoes", "titularidade", "fusao"]),
    # a partnership excluded from the companies the lower rate is for, as DRE and DAR texts word it
    ("pt", "se o beneficiário for uma sociedade (com exclusão das sociedades de pessoas) que detenha, diretamente, "
     "pelo menos 70% do capital da sociedade que paga os dividendos", []),
    ("pt", "se o beneficiário efectivo for uma sociedade (com excepção das partnerships) que detenha directamente "
     "pelo menos 10% do capital da sociedade que paga os dividendos", []),
    ("es", "si el beneficiario efectivo es una sociedad (con exclusión de las sociedades de personas) que posea "
     "directamente al menos el 25 por ciento del capital", []),
])
def test_gazette_wordings_of_a_read_condition(language, condition, left_over):
    ph = phrases(language)
    assert ph is not None
    words = uncovered_words(fold_same_length(condition), ph)
    for word in left_over:
        assert word in words
    assert bool(words) == bool(left_over)


DAR_THREE_TIERS = """Artigo 10.º
Dividendos
1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2. No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos e de acordo com a legislação desse Estado, mas se o beneficiário efetivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:
a) 5% do montante bruto dos dividendos, se o beneficiário for uma sociedade (com exclusão das sociedades de pessoas) que detenha, diretamente, pelo menos 70% do capital da sociedade que paga os dividendos;
b) 10% do montante bruto dos dividendos, se o beneficiário for uma sociedade (com exclusão das sociedades de pessoas) que detenha, diretamente, pelo menos 25% do capital da sociedade que paga os dividendos durante um período de 365 dias que inclua o dia do pagamento dos dividendos (para efeitos de cálculo deste período, não serão tomadas em consideração as alterações de titularidade que resultem diretamente de uma fusão ou cisão);
c) 15% do montante bruto dos dividendos nos restantes casos.
"""


def test_three_dividend_tiers_with_a_counted_holding_period_are_read_whole():
    ps = extract_text(DAR_THREE_TIERS)
    top = only(ps, "art_10__para_2__point_a", "withholding_cap")
    assert top.rate_pct == Decimal("5") and top.conditions["min_capital_pct"] == Decimal("70")
    assert top.conditions["recipient"] == "partnership_excluded_company"
    mid = only(ps, "art_10__para_2__point_b", "withholding_cap")
    assert mid.rate_pct == Decimal("10") and mid.conditions["min_holding_days"] == 365
    for p in (top, mid):
        assert "unread_condition" not in p.conditions


@pytest.mark.parametrize(("text", "allocation"), [
    ("Artigo 18\nPensões\n1. As pensões e outras remunerações similares provenientes de um Estado Contratante e pagas "
     "a um residente do outro Estado Contratante em razão de um emprego anterior podem ser tributadas no primeiro "
     "Estado mencionado.\n", "source_may_tax"),
    ("Artículo 18\nPensiones\n1. Las pensiones y remuneraciones similares procedentes de un Estado Contratante y "
     "pagadas a un residente del otro Estado Contratante por razón de un empleo anterior pueden someterse a imposición "
     "en el Estado mencionado en primer lugar.\n", "source_may_tax"),
    # the first-mentioned State of an employment exercised abroad is the employee's residence
    ("Artigo 15\nRendimentos de Emprego\n2. As remunerações percebidas por um residente de um Estado Contratante em "
     "razão de um emprego exercido no outro Estado Contratante só são tributáveis no primeiro Estado mencionado se o "
     "beneficiário permanecer no outro Estado durante um período que não exceda 183 dias.\n", "residence_only"),
])
def test_the_first_mentioned_state_is_the_one_the_payment_comes_from(text, allocation):
    ps = extract_text(text)
    assert {p.allocation for p in ps.provisions if p.kind == "allocation"} == {allocation}


@pytest.mark.parametrize(("heading", "clause"), [
    ("Artigo 23\nEliminação da dupla tributação\n",
     "3. Relativamente aos residentes em Portugal, a expressão «imposto sobre o rendimento pago em Angola» incluirá o "
     "montante do imposto que deveria ter sido pago em Angola, mas que não o foi em virtude de isenção ou redução."),
    ("Article 23\nElimination of double taxation\n",
     "3. Where by reason of special relief the tax actually levied on interest is lower, the tax paid shall be deemed "
     "to have been paid at the rate of 10 per cent."),
    ("Artículo 23\nEliminación de la doble imposición\n",
     "3. A efectos de la deducción, el impuesto pagado incluirá el impuesto que se habría pagado de no ser por la "
     "exención concedida."),
])
def test_tax_sparing_is_not_a_credit_of_the_tax_paid(heading, clause):
    ps = extract_text(heading + clause + "\n")
    relief = only(ps, "art_23__para_3", "relief_method")
    assert relief.status == "unknown" and relief.values.get("deemed_paid") is True


@pytest.mark.parametrize(("condition", "expected"), [
    # the older texts' "capital social" and "período consecutivo", the figure before "pelo menos"
    ("se o beneficiário efectivo for uma sociedade que, durante um período consecutivo de três anos anteriormente ao "
     "pagamento dos dividendos, detiver 20 % pelo menos do capital social da sociedade que paga os dividendos",
     {"min_capital_pct": Decimal("20"), "capital_basis": "capital", "min_holding_months": 36}),
    # a period that ends on the day the right to the dividends is fixed, the direct holding after "tenha detido"
    ("se o beneficiário efetivo for uma sociedade que tenha detido, diretamente, durante um período de 6 meses "
     "imediatamente anterior à data da determinação do direito aos dividendos, pelo menos 15% do capital",
     {"min_capital_pct": Decimal("15"), "holding_direct": True, "min_holding_months": 6}),
    # the share of the votes, however the capital or the shares that carry them are named
    ("se o beneficiário efectivo for uma sociedade que detenha pelo menos 30 por cento das acções com direito de voto "
     "da sociedade que paga os dividendos", {"min_capital_pct": Decimal("30"), "capital_basis": "voting_power"}),
    ("se o beneficiário efetivo for uma sociedade que possua diretamente pelo menos 40% do capital votante da sociedade",
     {"min_capital_pct": Decimal("40"), "capital_basis": "voting_power", "holding_direct": True}),
    ("se o beneficiário efetivo for uma sociedade que controle, direta ou indiretamente, pelo menos 20 por cento do "
     "capital com direito a voto da sociedade que paga os dividendos",
     {"min_capital_pct": Decimal("20"), "capital_basis": "voting_power", "holding_direct": False}),
])
def test_older_and_brazilian_holding_wordings_are_read_whole(condition, expected):
    text = ("Artigo 10.º\nDividendos\n2 — Esses dividendos podem ser igualmente tributados no Estado Contratante de que "
            "é residente a sociedade que paga os dividendos, mas o imposto assim estabelecido não excederá:\n"
            f"a) 7% do montante bruto dos dividendos, {condition};\nb) 14% do montante bruto dos dividendos, nos "
            "restantes casos.\n")
    cap = only(extract_text(text), "art_10__para_2__point_a", "withholding_cap")
    assert {k: cap.conditions.get(k) for k in expected} == expected
    assert "unread_condition" not in cap.conditions


@pytest.mark.parametrize(("text", "unread"), [
    # what the loan finances is a condition no fact tells: the rate waits on it, never drops it
    ("Artigo 11\nJuros\n2. Todavia, esses juros podem também ser tributados no Estado Contratante de que provêm, mas o "
     "imposto assim estabelecido não poderá exceder:\na) 10 por cento do montante bruto dos juros pagos em decorrência "
     "de empréstimos bancários com prazo mínimo de oito anos, relacionados com a compra de equipamentos;\nb) 15 por "
     "cento do montante bruto dos juros nos demais casos.\n", "relacionados com a compra de equipamentos"),
    ("Artículo 11\nIntereses\n2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado "
     "Contratante del que procedan, pero el impuesto así exigido no podrá exceder del:\na) 10 por ciento del importe "
     "bruto de los intereses de préstamos concedidos por bancos por un período mínimo de ocho años, vinculados a la "
     "venta de bienes de equipo;\nb) 15 por ciento del importe bruto de los intereses en los demás casos.\n",
     "vinculados a la venta de bienes de equipo"),
    ("Article 11\nInterest\n2. However, such interest may also be taxed in the Contracting State in which it arises, "
     "but the tax so charged shall not exceed:\n(a) 10 per cent of the gross amount of the interest paid on bank loans "
     "for a period of at least 8 years in connection with the purchase of industrial equipment;\n(b) 15 per cent of "
     "the gross amount of the interest in all other cases.\n", "in connection with the purchase of industrial equipment"),
])
def test_a_loan_limited_to_what_it_finances_leaves_the_rate_waiting(text, unread):
    cap = only(extract_text(text), "art_11__para_2__point_a", "withholding_cap")
    assert unread in cap.conditions["unread_condition"]
    scenario = {"income": "interest", "source": "BR", "residence": "PT", "beneficial_owner": True, "payer": "company",
                "recipient": "bank", "recipient_bank": True, "loan_kind": "bank_loan", "loan_term_years": 10}
    decision = taxtreaty.decide(taxtreaty.parse(text.encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == ("indeterminate", None)
    assert any(unread in u["quote"] for u in decision["unread"])


@pytest.mark.parametrize(("owned", "kind"), [
    ("a qualquer agência (incluindo um banco) propriedade exclusiva desse Governo só podem ser tributados nesse outro "
     "Estado", "allocation"),
    # the Diário da República's usual wording: "uma instituição ou organismo (...) por ele integralmente detido"
    ("a uma instituição ou organismo (incluindo os bancos) por ele integralmente detido são isentos de imposto no "
     "primeiro Estado", "exemption"),
])
def test_a_body_the_government_owns_wholly_is_a_kind_of_recipient_read(owned, kind):
    text = ("Artigo 11.º\nJuros\n3 — Não obstante o disposto no n.º 2, os juros provenientes de um Estado Contratante e "
            f"pagos ao Governo do outro Estado Contratante ou {owned}.\n")
    rule = only(extract_text(text), "art_11__para_3", kind)
    assert "government_owned" in rule.conditions["recipient_kinds"] and "unread_condition" not in rule.conditions


GAINS_DRE = """Artigo 13.º
Mais-valias
1 — Os ganhos que um residente de um Estado Contratante aufira da alienação de bens imobiliários considerados no artigo 6.º e situados no outro Estado Contratante podem ser tributados nesse outro Estado.
2 — Os ganhos provenientes da alienação de quaisquer bens diferentes dos mencionados nos n.os 1 só podem ser tributados no Estado Contratante de que o alienante é residente.
"""


@pytest.mark.parametrize(("gain_property", "expected"), [
    ("immovable", ("art_13__para_1", "unlimited")), ("shares", ("art_13__para_2", "none")),
])
def test_the_gazettes_immovable_property_and_residual_paragraph_are_read(gain_property, expected):
    scenario = {"income": "capital_gains", "source": "PT", "residence": "CV", "gain_property": gain_property}
    decision = taxtreaty.decide(taxtreaty.parse(GAINS_DRE.encode()), scenario).to_dict()
    assert (decision["eid"], decision["source_taxation"]) == expected


INTERGOVERNMENTAL = """Artigo 11.º
Juros
2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas o imposto assim estabelecido não excederá 12 % do montante bruto dos juros.
3 — Não obstante o disposto no n.º 2, os juros provenientes de um Estado Contratante são isentos de imposto nesse Estado se forem pagos a quaisquer outras entidades ou instituições (incluindo os bancos) em virtude de financiamentos concedidos no âmbito de acordos concluídos entre os Governos dos Estados Contratantes.
"""


@pytest.mark.parametrize(("recipient", "expected"), [("company", ("0", "art_11__para_3")), ("individual", ("12", "art_11__para_2"))])
def test_any_other_entity_financed_under_the_governments_agreements_is_exempt(recipient, expected):
    # "quaisquer outras entidades ou instituições": any recipient but an individual, no condition left unread
    scenario = {"income": "interest", "source": "PT", "residence": "HR", "beneficial_owner": True, "payer": "company",
                "recipient": recipient, "loan_kind": "intergovernmental"}
    decision = taxtreaty.decide(taxtreaty.parse(INTERGOVERNMENTAL.encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", *expected)


BANK_AND_STATE = """Artigo 11.º
Juros
2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o beneficiário efetivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido não pode exceder 12 % do montante bruto dos juros.
3 — Não obstante o disposto no número 2, o imposto exigido por um Estado Contratante sobre os juros provenientes desse Estado Contratante, se o beneficiário efectivo desses juros for um banco residente do outro Estado Contratante que se tenha constituído e opere nos termos da legislação desse outro Estado Contratante, não pode exceder 6 % do montante bruto dos juros.
4 — Não obstante o disposto nos números 2 e 3, os juros provenientes de um Estado Contratante só podem ser tributados no outro Estado Contratante se o beneficiário efectivo dos juros for esse outro Estado Contratante, uma das suas subdivisões políticas ou autarquias locais, ou o banco central desse outro Estado Contratante.
"""


@pytest.mark.parametrize(("recipient", "expected"), [("government", ("0", "art_11__para_4")), ("bank", ("6", "art_11__para_3")),
                                                     ("central_bank", ("0", "art_11__para_4"))])
def test_the_other_state_itself_and_a_bank_constituted_under_its_laws(recipient, expected):
    # "se o beneficiário efectivo dos juros for esse outro Estado Contratante": the State itself (before: the
    # Government capped at 12 %); "um banco ... que se tenha constituído e opere nos termos da legislação desse outro
    # Estado": a bank of that State (before: an unread condition)
    scenario = {"income": "interest", "source": "PT", "residence": "MZ", "beneficial_owner": True, "payer": "company",
                "recipient": recipient}
    decision = taxtreaty.decide(taxtreaty.parse(BANK_AND_STATE.encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", *expected), decision
