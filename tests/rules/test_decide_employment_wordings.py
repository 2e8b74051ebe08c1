"""Employment (OECD 15(1)-(2)) in the wordings of other gazettes' conventions: the first sentence alone ("... só podem
ser tributados nesse Estado, a não ser que o emprego seja exercido no outro Estado Contratante.") gives the State of
the work its right as the second sentence ("Se o emprego for aí exercido, ... podem ser tributadas nesse outro
Estado") does (readers/allocations.py, `employment_in_other`); with no day test read the residence-only sentence is
not the rule for work done in the source State (rules/allocate.py, the `place_of_work` default). Before, the
one-sentence form was read as residence-only: employment of 200 days in the source State "determined, none" where
no day test followed, and "indeterminate" naming no fact where one did. Sentences are our own paraphrases."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import extract_text

import taxtreaty

HEAD = {"en": "Article 15\nDependent personal services\n", "es": "Artículo 15\nServicios personales dependientes\n",
        "pt": "Artigo 15\nRendimentos do emprego\n"}

FIRST = {
    "en": "1. Salaries, wages and other similar remuneration derived by a resident of a Contracting State in respect of "
          "an employment shall be taxable only in that State unless the employment is exercised in the other "
          "Contracting State.",
    "es": "1. Los sueldos, salarios y otras remuneraciones similares obtenidos por un residente de un Estado Contratante "
          "por razón de un empleo sólo pueden someterse a imposición en ese Estado, a no ser que el empleo se ejerza "
          "en el otro Estado Contratante.",
    "pt": "1. Os salários, ordenados e remunerações similares obtidos de um emprego por um residente de um Estado "
          "Contratante só podem ser tributados nesse Estado, a não ser que o emprego seja exercido no outro Estado "
          "Contratante.",
}
SECOND = {
    "en": " If the employment is so exercised, such remuneration as is derived therefrom may be taxed in that other State.",
    "es": " Si el empleo se ejerce aquí, las remuneraciones derivadas del mismo pueden someterse a imposición en este "
          "otro Estado.",
    "pt": " Se o emprego for aí exercido, as remunerações correspondentes podem ser tributadas nesse outro Estado.",
}
SHORT_STAY = {
    "en": "\n2. Notwithstanding the provisions of paragraph 1, remuneration derived by a resident of a Contracting State "
          "in respect of an employment exercised in the other Contracting State shall be taxable only in the "
          "first-mentioned State if:\na) the recipient is present in the other State for a period or periods not "
          "exceeding in the aggregate 183 days in any twelve-month period, and\nb) the remuneration is paid by, or on "
          "behalf of, an employer who is not a resident of the other State, and\nc) the remuneration is not borne by "
          "a permanent establishment which the employer has in the other State.",
    "es": "\n2. No obstante lo dispuesto en el apartado 1, las remuneraciones obtenidas por un residente de un Estado "
          "Contratante por razón de un empleo ejercido en el otro Estado Contratante sólo pueden someterse a "
          "imposición en el Estado mencionado en primer lugar si:\na) el perceptor permanece en el otro Estado durante "
          "un período o períodos cuya duración no exceda en conjunto de 183 días en cualquier período de doce meses, "
          "y\nb) las remuneraciones se pagan por, o en nombre de un empleador que no sea residente del otro Estado, y"
          "\nc) las remuneraciones no se soportan por un establecimiento permanente que el empleador tenga en el otro "
          "Estado.",
    "pt": "\n2. Não obstante o disposto no n.º 1, as remunerações obtidas por um residente de um Estado Contratante de um "
          "emprego exercido no outro Estado Contratante só podem ser tributadas no Estado primeiramente mencionado "
          "se:\na) o beneficiário permanecer no outro Estado durante um período ou períodos que não excedam, no total, "
          "183 dias em qualquer período de doze meses; e\nb) as remunerações forem pagas por uma entidade patronal ou "
          "em nome de uma entidade patronal que não seja residente do outro Estado; e\nc) as remunerações não forem "
          "suportadas por um estabelecimento estável que a entidade patronal tenha no outro Estado.",
}
LANGUAGES = ("en", "es", "pt")


def _decide(text: str, **facts: Any) -> dict[str, Any]:
    scenario = {"income": "employment", "source": "AA", "residence": "BB", **facts}
    return taxtreaty.decide(taxtreaty.parse(text), scenario, parties=["AA", "BB"]).to_dict()


@pytest.mark.parametrize(("language", "second"), [(lang, second) for lang in LANGUAGES for second in (False, True)])
def test_the_first_sentence_alone_or_with_the_second_gives_the_state_of_the_work_its_right(language: str, second: bool) -> None:
    text = HEAD[language] + FIRST[language] + (SECOND[language] if second else "") + "\n"
    rules = sorted(p.allocation for p in extract_text(text).provisions if p.kind == "allocation")
    # one source right, never two (the second sentence's is the one read when it is there)
    assert rules == ["residence_only", "source_may_tax"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_exception_of_another_kind_is_no_right_of_the_state_of_the_work(language: str) -> None:
    # "unless he has a fixed base ..." (independent services) names no employment exercised elsewhere
    other = {"en": "unless he has a fixed base regularly available to him in the other Contracting State.",
             "es": "a no ser que disponga de manera habitual de una base fija en el otro Estado Contratante.",
             "pt": "a não ser que disponha de forma habitual de uma instalação fixa no outro Estado Contratante."}
    cut = {"en": "unless the employment", "es": "a no ser que el empleo", "pt": "a não ser que o emprego"}[language]
    text = HEAD[language] + FIRST[language].split(cut)[0] + other[language] + "\n"
    rules = [p.allocation for p in extract_text(text).provisions if p.kind == "allocation"]
    assert rules == ["residence_only"]


@pytest.mark.parametrize(("language", "facts", "expected"), [
    (lang, facts, expected) for lang in LANGUAGES for facts, expected in [
        ({"days_present": 200}, ("determined", "unlimited", "art_15__para_1")),
        ({"days_present": 20, "employer_resident": "BB", "pe_connected": False}, ("determined", "none", "art_15__para_2")),
        ({"days_present": 20, "employer_resident": "AA"}, ("determined", "unlimited", "art_15__para_1")),
    ]])
def test_the_one_sentence_form_with_the_day_test(language: str, facts: dict[str, Any], expected: tuple[str, ...]) -> None:
    # before: "the day test ... was read but not the rules it qualifies", every case indeterminate naming no fact
    d = _decide(HEAD[language] + FIRST[language] + SHORT_STAY[language] + "\n", **facts)
    assert (d["status"], d["source_taxation"], d["eid"]) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_one_sentence_form_asks_the_days_and_the_employer(language: str) -> None:
    d = _decide(HEAD[language] + FIRST[language] + SHORT_STAY[language] + "\n")
    assert d["status"] == "indeterminate" and set(d["missing_facts"]) == {"days_present", "employer_resident"}


@pytest.mark.parametrize(("language", "second"), [(lang, second) for lang in LANGUAGES for second in (False, True)])
def test_with_no_day_test_the_work_in_the_source_state_is_taxable_there(language: str, second: bool) -> None:
    # before: the one-sentence form "determined, none" (residence only) for 200 days of work in the source State;
    # the two-sentence form "gives this income to different States ... by circumstances the scenario does not state"
    d = _decide(HEAD[language] + FIRST[language] + (SECOND[language] if second else "") + "\n", days_present=200)
    assert (d["status"], d["source_taxation"], d["eid"]) == ("determined", "unlimited", "art_15__para_1")
    assert any(a["fact"] == "place_of_work" for a in d["assumptions"])
