"""Allocation rules that narrow or override one another rather than clash (rules/allocate.py), and
what a whole convention's silence means (rules/completeness.py): fixtures in the texts' own wordings,
in English and Spanish (paraphrased from ../shared/corpus)."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

EN_HEAD = "CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF LATVIA FOR THE AVOIDANCE OF DOUBLE TAXATION\n\n"
EN_END = ("IN WITNESS WHEREOF the undersigned, duly authorised thereto, have signed this Convention.\n\n"
          "DONE at Riga, this 14th day of March 1994, in duplicate, in the English language.\n")
ES_HEAD = "CONVENIO ENTRE LA REPUBLICA ARGENTINA Y EL REINO DE ESPAÑA PARA EVITAR LA DOBLE IMPOSICION\n\n"
ES_END = ("EN FE DE LO CUAL, los signatarios, debidamente autorizados al efecto, firman el presente Convenio.\n\n"
          "HECHO en Madrid el 21 de julio de 1992, en dos ejemplares en lengua española.\n")


def _en(*articles: tuple[str, str]) -> str:
    body = [("Personal scope", "This Convention shall apply to persons who are residents of one or both of the States."),
            *articles,
            ("Entry into force", "This Convention shall enter into force on the thirtieth day after the latter of the "
                                 "dates on which the Governments have notified each other."),
            ("Termination", "This Convention shall remain in force until terminated by one of the States.")]
    return EN_HEAD + "".join(f"Article {n}\n{title}\n\n{text}\n\n" for n, (title, text) in enumerate(body, 1)) + EN_END


def _es(*articles: tuple[str, str]) -> str:
    body = [("Ámbito subjetivo", "El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes."),
            *articles,
            ("Entrada en vigor", "El presente Convenio entrará en vigor treinta días después de la fecha de la última "
                                 "notificación."),
            ("Denuncia", "El presente Convenio permanecerá en vigor indefinidamente, pero cualquiera de los Estados "
                         "Contratantes podrá denunciarlo.")]
    return ES_HEAD + "".join(f"ARTICULO {n}\n{title}\n\n{text}\n\n" for n, (title, text) in enumerate(body, 1)) + ES_END


def ask(text: str, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(text), facts).to_dict()


DIVIDENDS = ("Dividends", "1. Dividends paid by a company which is a resident of one of the States to a resident of the "
             "other State may be taxed in that other State.\n\n2. However, such dividends may also be taxed in the State "
             "of which the company paying the dividends is a resident, but the tax so charged shall not exceed 15 per "
             "cent of the gross amount of the dividends.")


# -- a whole convention that has no other-income article: domestic law ------------------------------

def test_complete_convention_without_other_income_article_leaves_the_source_state_its_law() -> None:
    decision = ask(_en(DIVIDENDS), income="other_income", source="LV", residence="NL")
    assert (decision["status"], decision["source_taxation"]) == ("determined", "unlimited")
    assert any("no article limits the source State" in r for r in decision["reasons"])


def test_a_fragment_or_a_lost_article_never_claims_the_article_is_absent() -> None:
    whole = _en(DIVIDENDS)
    fragment = whole[whole.index("Article 2"):whole.index("Article 3")]
    assert ask(EN_HEAD + fragment, income="other_income", source="LV", residence="NL")["status"] == "indeterminate"
    # articles 1, 3, 4, 5: article 2 is not in the text (it might be the one looked for)
    skipped = whole
    for old, new in (("Article 4\nTermination", "Article 5\nTermination"), ("Article 3\nEntry", "Article 4\nEntry"),
                     ("Article 2\nDividends", "Article 3\nDividends")):
        skipped = skipped.replace(old, new)
    assert [a.number for a in taxtreaty.parse(skipped).versions[0].articles] == ["1", "3", "4", "5"]
    assert ask(skipped, income="other_income", source="LV", residence="NL")["status"] == "indeterminate"


# -- pensions: a lump sum is the exception of 18(2), not a clash with 18(1) -----------------------------

PENSIONS_EN = ("Pensions", "1. Subject to the provisions of paragraph 2 of Article 19, pensions and other similar "
               "remuneration paid to a resident of a Contracting State in consideration of past employment and any "
               "annuity shall be taxable only in that State.\n\n2. However, where such remuneration is not of a "
               "periodical nature and it is paid in consideration of past employment in the other Contracting State, "
               "or where instead of the right to annuities a lump sum is paid, this remuneration or this lump sum may "
               "be taxed in the Contracting State where it arises.")
PENSIONS_ES = ("Pensiones", "1. Las pensiones y remuneraciones similares pagadas a un residente de un Estado Contratante "
               "por razón de un empleo anterior sólo pueden someterse a imposición en ese Estado.\n\n2. Sin embargo, "
               "cuando tales remuneraciones no tengan carácter periódico, pueden someterse a imposición en el otro "
               "Estado Contratante.")


def test_pension_periodicity_is_a_fact_the_answer_depends_on() -> None:
    text = _en(PENSIONS_EN)
    base = {"income": "pensions", "source": "NL", "residence": "LV", "recipient": "individual", "payer": "company"}
    open_ = ask(text, **base)
    assert open_["status"] == "indeterminate" and "payment_periodic" in open_["missing_facts"]
    assert "art_18__para_1" not in " ".join(open_["reasons"])  # no clash is claimed
    periodic = ask(text, **base, payment_periodic=True)
    assert (periodic["status"], periodic["source_taxation"], periodic["eid"]) == ("determined", "none", "art_2__para_1")
    lump = ask(text, **base, payment_periodic=False, employment_state="NL")
    assert (lump["status"], lump["source_taxation"], lump["eid"]) == ("determined", "unlimited", "art_2__para_2")
    elsewhere = ask(text, **base, payment_periodic=False, employment_state="LV")
    assert (elsewhere["source_taxation"], elsewhere["eid"]) == ("none", "art_2__para_1")


def test_pension_periodicity_in_spanish() -> None:
    text = _es(PENSIONS_ES)
    base = {"income": "pensions", "source": "ES", "residence": "AR", "recipient": "individual", "payer": "company"}
    assert ask(text, **base)["missing_facts"] == ["payment_periodic"]
    assert ask(text, **base, payment_periodic=True)["source_taxation"] == "none"
    assert ask(text, **base, payment_periodic=False)["source_taxation"] == "unlimited"


def test_whether_or_not_periodic_is_no_exception() -> None:
    text = _en(("Pensions", "Pensions and other similar remuneration, whether or not of a periodical nature, arising in one "
                            "of the States and paid to a resident of the other State may be taxed in the first-mentioned State."))
    decision = ask(text, income="pensions", source="NL", residence="LV", recipient="individual", payer="company")
    assert (decision["status"], decision["source_taxation"]) == ("determined", "unlimited")


def test_social_security_paragraph_is_for_public_payers_only() -> None:
    # AR-DE 19(2): "Las anualidades abonadas por un Estado Contratante en virtud de un sistema de seguridad social"
    text = _es(("Pensiones", "1. Las pensiones pagadas a un residente de un Estado Contratante sólo pueden someterse a "
                             "imposición en ese Estado.\n\n2. Las anualidades abonadas por un Estado Contratante en virtud de "
                             "un sistema de seguridad social pueden someterse a imposición en ese Estado."))
    base = {"income": "pensions", "source": "ES", "residence": "AR", "recipient": "individual"}
    company = ask(text, **base, payer="company")
    assert (company["status"], company["source_taxation"], company["eid"]) == ("determined", "none", "art_2__para_1")
    public = ask(text, **base, payer="government")
    assert (public["source_taxation"], public["eid"]) == ("unlimited", "art_2__para_2")


def test_residence_may_tax_is_not_exclusive() -> None:
    # AR-RU 18(1): "... pagadas ... a un residente de un Estado Contratante ... pueden someterse a imposición en ese Estado"
    text = _es(("Pensiones", "1. Las pensiones y otras remuneraciones similares pagadas en razón de un empleo anterior a "
                             "un residente de un Estado Contratante, pueden someterse a imposición en ese Estado Contratante."))
    decision = ask(text, income="pensions", source="ES", residence="AR", recipient="individual", payer="company")
    assert (decision["status"], decision["source_taxation"], decision["eid"]) == ("determined", "unlimited", "art_2__para_1")


# -- other income: income arising in the source State, "notwithstanding" -----------------------------

@pytest.mark.parametrize("text", [
    _es(("Otras rentas", "1. Las rentas de un residente de un Estado Contratante no comprendidas en los artículos "
                         "anteriores, originadas en el otro Estado Contratante, pueden someterse a imposición en el Estado "
                         "mencionado en último término.\n\n2. Las restantes rentas de un residente de un Estado Contratante "
                         "sólo pueden someterse a imposición en ese Estado.")),
    _en(("Other income", "1. Items of income of a resident of a Contracting State, wherever arising, not dealt with in the "
                         "foregoing Articles shall be taxable only in that State.\n\n2. Notwithstanding the provisions of "
                         "paragraph 1, items of income of a resident of a Contracting State not dealt with in the foregoing "
                         "Articles and arising in the other Contracting State may also be taxed in that other State.")),
], ids=["es-arising", "en-notwithstanding"])
def test_other_income_arising_in_the_source_state_may_be_taxed_there(text: str) -> None:
    source, residence = ("ES", "AR") if "ARTICULO" in text else ("NL", "LV")
    decision = ask(text, income="other_income", source=source, residence=residence, recipient="individual")
    assert (decision["status"], decision["source_taxation"]) == ("determined", "unlimited")
    assert any(a["fact"] == "arising_in_source" for a in decision["assumptions"])


def test_an_unconditional_notwithstanding_rule_is_still_a_clash() -> None:
    # its subject may be narrower than the words read ("payments ... under the social security or similar
    # legislation" of a red-team fixture): never resolved silently
    text = _en(("Other income", "1. Items of income of a resident of a Contracting State not dealt with in the foregoing "
                                "Articles shall be taxable only in that State.\n\n2. Notwithstanding the provisions of "
                                "paragraph 1, such items of income may also be taxed in the other State."))
    decision = ask(text, income="other_income", source="NL", residence="LV", recipient="individual")
    assert decision["status"] == "indeterminate"
    assert {c["eid"] for c in decision["candidates"]} == {"art_2__para_1", "art_2__para_2"}


# -- directors' fees: the paragraph of the direction ----------------------------------------------------

def test_directors_fees_paragraph_by_direction() -> None:
    text = _en(("Directors' fees", "1. Directors' fees derived by a resident of the Netherlands in his capacity as a member "
                                   "of the board of directors of a company which is a resident of Latvia may be taxed in "
                                   "Latvia.\n\n2. Remuneration derived by a resident of Latvia in his capacity as a "
                                   "\u201cbestuurder\u201d of a company which is a resident of the Netherlands may be taxed in "
                                   "the Netherlands."))
    to_latvia = ask(text, income="directors_fees", source="NL", residence="LV", recipient="individual")
    assert (to_latvia["status"], to_latvia["source_taxation"], to_latvia["eid"]) == ("determined", "unlimited", "art_2__para_2")
    to_nl = ask(text, income="directors_fees", source="LV", residence="NL", recipient="individual")
    assert to_nl["eid"] == "art_2__para_1"


# -- shipping: purely domestic carriage narrows the source State's rule --------------------------------

def test_domestic_carriage_is_a_kind_of_income_not_a_clash() -> None:
    # AR-CA 8(2): "... de manera exclusiva en localidades de un Estado Contratante, pueden someterse a imposición en ese Estado"
    text = _es(("Transporte marítimo y aéreo", "1. Los beneficios obtenidos por una empresa de un Estado Contratante "
                "procedentes de la explotación de buques o aeronaves en el transporte internacional sólo pueden "
                "someterse a imposición en ese Estado.\n\n2. No obstante las disposiciones del apartado 1, los "
                "beneficios obtenidos por la explotación de buques o aeronaves utilizados para transportar pasajeros "
                "de manera exclusiva en localidades de un Estado Contratante pueden someterse a imposición en ese Estado."))
    decision = ask(text, income="shipping", source="ES", residence="AR", recipient="company")
    assert (decision["status"], decision["source_taxation"], decision["eid"]) == ("determined", "none", "art_2__para_1")
    assert any(a["fact"] == "income_subtype" for a in decision["assumptions"])


# -- the PE switch, in Spanish, also where the article caps nothing --------------------------------------

_DIV_ES_1 = ("1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro "
             "Estado Contratante pueden someterse a imposición en este otro Estado.\n\n")


@pytest.mark.parametrize("rest", [
    # AR-BR X: no cap; "se aplican las disposiciones del artículo VII o del artículo XIV"
    "2. Sin embargo, estos dividendos pueden someterse a imposición en el Estado Contratante en que resida la sociedad "
    "que pague los dividendos y de acuerdo con la legislación de este Estado.\n\n3. Las disposiciones de los apartados 1 "
    "y 2 no se aplican si el beneficiario de los dividendos tiene en el otro Estado Contratante un establecimiento "
    "permanente con el que la participación que genere los dividendos esté vinculada efectivamente. En este caso se "
    "aplican las disposiciones del artículo VII o del artículo XIV.",
    # AR-DE 10(4): "se vincula efectivamente ... deberán aplicarse", with a 15 % cap
    "2. Sin embargo, tales dividendos pueden someterse a imposición en el Estado Contratante en que resida la sociedad "
    "que pague los dividendos, pero el impuesto así exigido no deberá exceder del 15 por ciento del importe bruto de los "
    "dividendos.\n\n3. No se aplicarán las disposiciones de los apartados 1 y 2 cuando el beneficiario de los dividendos "
    "lleva a cabo actividades empresariales en el otro Estado Contratante mediante un establecimiento permanente situado "
    "en éste, y la participación que genera los dividendos se vincula efectivamente a ese establecimiento permanente. En "
    "tal caso, deberán aplicarse las disposiciones del artículo 7 o del artículo 14, según corresponda.",
    # AR-ES 11(5): the sentence naming the articles closes the paragraph after a list
    "2. Sin embargo, estos dividendos pueden someterse a imposición en el Estado Contratante en que resida la sociedad "
    "que pague los dividendos, pero el impuesto así exigido no puede exceder del 10 por ciento del importe bruto de los "
    "dividendos.\n\n3. Las disposiciones de los apartados 1 y 2 no se aplican si el beneficiario efectivo de los "
    "dividendos ejerce en el otro Estado Contratante una actividad industrial por medio de un establecimiento permanente "
    "situado en este otro Estado, y la participación que genera los dividendos está vinculada efectivamente con:\n\n"
    "a) ese establecimiento permanente; o con\n\nb) las actividades comerciales mencionadas en el apartado 1 del "
    "artículo 7.\n\nEn estos casos se aplicarán las disposiciones del artículo 7 o del artículo 14, según corresponda.",
], ids=["roman-no-cap", "se-vincula", "after-a-list"])
def test_spanish_pe_switch_sends_the_income_to_article_7(rest: str) -> None:
    text = _es(("Dividendos", _DIV_ES_1 + rest))
    decision = ask(text, income="dividends", source="ES", residence="AR", beneficial_owner=True, recipient="company",
                   capital_pct=30, pe_connected=True)
    assert (decision["status"], decision["source_taxation"], decision["article_applied"]) == ("determined", "unlimited", "7")


def test_shall_not_apply_names_no_article_to_switch_to() -> None:
    # AR-AU 22(3): "no se aplicará a las rentas, distintas de las rentas derivadas de bienes inmuebles definidos en el
    # apartado 2 del Artículo 6 ... En estos casos se aplicarán las disposiciones del Artículo 7 o del Artículo 14"
    text = _es(("Otras rentas", "1. Las rentas de un residente de un Estado Contratante no mencionadas en los anteriores "
                "artículos sólo pueden someterse a imposición en ese Estado.\n\n2. Lo dispuesto en el apartado 1 no se "
                "aplicará a las rentas, distintas de las rentas derivadas de bienes inmuebles definidos en el apartado 2 "
                "del Artículo 6, cuando dicha renta esté vinculada efectivamente con un establecimiento permanente situado "
                "en el otro Estado Contratante. En estos casos se aplicarán las disposiciones del Artículo 7 o del "
                "Artículo 14, según corresponda."))
    decision = ask(text, income="other_income", source="ES", residence="AR", recipient="company", pe_connected=True)
    assert (decision["source_taxation"], decision["article_applied"]) == ("unlimited", "7")


# -- a main-purpose paragraph that withdraws the whole article ------------------------------------------

def test_article_wide_main_purpose_clause_is_a_caveat_of_every_benefit() -> None:
    # NL-KE 10(8): "No relief shall be available under this Article if it was the main purpose ..."
    text = _en(("Dividends", DIVIDENDS[1] + "\n\n3. Notwithstanding the provisions of paragraph 2, dividends paid by a "
                "company which is a resident of one of the States shall be exempt from tax in that State if the beneficial "
                "owner is the Government of the other State.\n\n4. No relief shall be available under this Article if it "
                "was the main purpose or one of the main purposes of any person concerned with the creation or assignment "
                "of the shares in respect of which the dividend is paid to take advantage of this Article by means of "
                "that creation or assignment."))
    base = {"income": "dividends", "source": "LV", "residence": "NL", "beneficial_owner": True}
    capped = ask(text, **base, recipient="company", capital_pct=30)
    assert (capped["status"], capped["max_rate_pct"]) == ("determined", "15")
    assert [(c["kind"], c["eid"]) for c in capped["caveats"]] == [("main_purpose", "art_2__para_4")]
    exempt = ask(text, **base, recipient="government")
    assert (exempt["source_taxation"], [c["kind"] for c in exempt["caveats"]]) == ("none", ["main_purpose"])
    for recipient in ("company", "government"):
        bites = ask(text, **base, recipient=recipient, main_purpose=True)
        assert (bites["status"], bites["source_taxation"]) == ("determined", "unlimited")


def test_an_exception_in_words_no_allocation_phrase_matches_is_a_gap() -> None:
    # NL-KE 8(2): "Notwithstanding paragraph 1 of this Article where an enterprise derives profits from the
    # operation of ships ...: a) such profits shall be deemed to be ... 5 per cent ...; b) the tax chargeable in
    # that other state shall be reduced by ... fifty per cent"
    text = _en(("Shipping and air transport", "1. Profits from the operation of ships or aircraft in international traffic "
                "shall be taxable only in the Contracting State in which the place of effective management of the "
                "enterprise is situated.\n\n2. Notwithstanding paragraph 1 of this Article where an enterprise derives "
                "profits from the operation of ships in international traffic in the other Contracting State:\n\na) such "
                "profits shall be deemed to be an amount not exceeding 5 per cent of the full amount received by the "
                "enterprise; and\n\nb) the tax chargeable in that other State shall be reduced by an amount equal to "
                "fifty per cent thereof."))
    decision = ask(text, income="shipping", source="LV", residence="NL", recipient="company")
    assert decision["status"] == "indeterminate"
    assert any("art_2__para_2" in r for r in decision["reasons"])


def test_a_source_rule_for_a_narrower_kind_of_other_income_is_not_every_other_income() -> None:
    # NL-ET 21(3): "... derives income from sources within the other Contracting State in form of games of chance,
    # such income may be taxed in the other Contracting State"
    rule = ("2. Notwithstanding the provisions of paragraph 1, if a resident of a Contracting State derives income from "
            "sources within the other Contracting State in form of {kind}, such income may be taxed in the other "
            "Contracting State.")
    base = ("Other income", "1. Items of income of a resident of a Contracting State, wherever arising, not dealt with in "
            "the foregoing Articles shall be taxable only in that State.\n\n")
    games = ask(_en((base[0], base[1] + rule.format(kind="games of chance"))), income="other_income", source="LV",
                residence="NL", recipient="individual")
    assert (games["status"], games["source_taxation"], games["eid"]) == ("determined", "none", "art_2__para_1")
    # words no kind reads narrow it too: the answer waits on them, never "unlimited" for all other income
    prizes = ask(_en((base[0], base[1] + rule.format(kind="prizes awarded by a public body"))), income="other_income",
                 source="LV", residence="NL", recipient="individual")
    assert prizes["status"] == "indeterminate" and prizes["unread"]


def test_two_exceptions_of_the_same_conditions_that_disagree_are_a_clash() -> None:
    # NL-JP 17(2): "Annuities ... shall be taxable only in that Contracting State. However, such annuities may
    # also be taxed in the other Contracting State if ...": both are for annuities (the article treats them
    # apart), so an annuity is neither "only in the residence State" nor taxed at source without saying so
    text = _en(("Pensions and annuities",
                "1. Pensions and other similar remuneration paid to a resident of one of the States shall be taxable only "
                "in that State.\n\n2. Annuities derived by an individual who is a resident of one of the States shall be "
                "taxable only in that State. However, such annuities may also be taxed in the other State if they arise "
                "in that other State and are not adequately taxed in the first-mentioned State."))
    annuity = ask(text, income="pensions", source="NL", residence="LV", recipient="individual", payer="company", annuity=True)
    assert annuity["status"] == "indeterminate"
    assert {c["eid"] for c in annuity["candidates"]} == {"art_2__para_2"}
    pension = ask(text, income="pensions", source="NL", residence="LV", recipient="individual", payer="company", annuity=False)
    assert (pension["status"], pension["source_taxation"], pension["eid"]) == ("determined", "none", "art_2__para_1")
