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
