"""Several conventions in one file (an Act's schedules, an order with the old convention annexed)
are never read as language versions of one: the file is refused naming them, and each is read on
its own when chosen (`convention`); language versions of one convention stay one."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli

import taxtreaty
from taxtreaty.structure.conventions import NotAConventionError, SeveralConventionsError
from taxtreaty.text import InputError

ACT = Path(__file__).resolve().parents[1] / "cases" / "treaties" / "gazette_en_ca_act_ca_se_ca_lt.txt"


EN = ("ARTICLE", ["Persons Covered", "Taxes Covered", "General Definitions", "Resident", "Permanent Establishment",
                  "Dividends"], "This Article applies to persons who are residents of one or both of the Contracting States.")
PT = ("ARTIGO", ["Pessoas visadas", "Impostos visados", "Definições gerais", "Residente", "Estabelecimento estável",
                 "Dividendos"], "Este Artigo aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes.")

FR = ("ARTICLE", ["Personnes visées", "Impôts visés", "Définitions générales", "Résident", "Établissement stable",
                  "Dividendes"], "Le présent Article s'applique aux personnes qui sont des résidents d'un État contractant ou des deux États.")


def _convention(title: str, done: str, words: tuple[str, list[str], str] = EN) -> str:
    """A short convention of our own writing: its title, six articles, its signature."""
    word, topics, sentence = words
    body = [title, "", "The Governments have agreed as follows:", ""]
    for n, topic in enumerate(topics, 1):
        body += [f"{word} {n}", topic, "", f"1. {sentence}", ""]
    return "\n".join([*body, done, ""])


def _run(argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_cli(monkeypatch, capsys, *argv)


def test_an_acts_schedules_are_refused_as_one_convention_naming_each() -> None:
    with pytest.raises(SeveralConventionsError) as caught:
        taxtreaty.parse(ACT.read_bytes())
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("the file holds 2 conventions, not language versions of one: 1. CA–SE, line 50, ")
    assert "2. CA–LT, line 270, \"CONVENTION BETWEEN CANADA AND THE REPUBLIC OF LITHUANIA" in message
    assert message.endswith("choose one with --convention N")
    assert [c.states for c in caught.value.conventions] == [["CA", "SE"], ["CA", "LT"]]


@pytest.mark.parametrize(("number", "parties", "signed", "place"), [
    (1, ["CA", "SE"], "1996-08-27", "Stockholm"), (2, ["CA", "LT"], "1996-08-29", "Vilnius")])
def test_each_schedule_is_read_on_its_own_when_chosen(number: int, parties: list[str], signed: str, place: str) -> None:
    doc = taxtreaty.parse(ACT.read_bytes(), convention=number)
    assert [v.language for v in doc.versions] == ["en"]
    assert doc.parties == parties
    assert doc.signed is not None and (doc.signed.date, doc.signed.place) == (signed, place)
    articles = doc.versions[0].articles
    assert [a.number for a in articles] == [str(n) for n in range(1, 30)]
    # the consolidation's page foot inside article 10 is furniture, and the other schedule is not here
    dividends = doc.version("en").article("10")  # type: ignore[union-attr]
    text = " ".join(p.text for p in dividends.paragraphs)
    assert "Current to" not in text and "Last amended" not in text
    other = "Lithuania" if number == 1 else "Sweden"
    assert other not in " ".join(p.text for a in articles for p in a.paragraphs)
    assert not [w for w in doc.warnings if w.code == "articles_missing"]


def test_a_schedule_whose_title_is_not_read_is_still_another_convention() -> None:
    """An Irish order prints "AN AGREEMENT BETWEEN ...": no title the reader takes, but the
    articles numbered from 1 again in the same language are another convention's."""
    text = ACT.read_text(encoding="utf-8").replace("CONVENTION BETWEEN CANADA AND THE REPUBLIC OF LITHUANIA",
                                                   "AN AGREEMENT BETWEEN CANADA AND THE REPUBLIC OF LITHUANIA")
    with pytest.raises(SeveralConventionsError) as caught:
        taxtreaty.parse(text)
    assert "2. line 276, \"a convention whose title was not read\"" in str(caught.value)
    doc = taxtreaty.parse(text, convention=2)
    assert doc.parties == ["CA", "LT"] and doc.signed.date == "1996-08-29"  # type: ignore[union-attr]


def test_an_annexed_old_convention_with_the_same_states_is_another_convention() -> None:
    """A Singapore order prints the new agreement, then annexes the one it replaces: the same
    States, the same language, two conventions."""
    new = _convention("AGREEMENT BETWEEN THE GOVERNMENT OF THE REPUBLIC OF SINGAPORE AND THE GOVERNMENT OF "
                      "MALAYSIA FOR THE AVOIDANCE OF DOUBLE TAXATION", "Done at Putrajaya this 5th day of October 2004.")
    old = _convention("AGREEMENT BETWEEN THE GOVERNMENT OF THE REPUBLIC OF SINGAPORE AND THE GOVERNMENT OF "
                      "MALAYSIA FOR THE AVOIDANCE OF DOUBLE TAXATION", "Done at Kuala Lumpur this 26th day of December 1968.")
    text = ("INCOME TAX ACT\n(CHAPTER 134, SECTION 49)\n\nINCOME TAX (MALAYSIA) (AVOIDANCE OF DOUBLE TAXATION "
            "AGREEMENT) ORDER 2006\n\n1. This Order may be cited as the Income Tax (Malaysia) Order 2006.\n\n"
            "SCHEDULE\n\n" + new + "\nANNEX\n\n" + old)
    with pytest.raises(SeveralConventionsError) as caught:
        taxtreaty.parse(text)
    assert [c.states for c in caught.value.conventions] == [["SG", "MY"], ["SG", "MY"]]
    assert taxtreaty.parse(text, convention=2).signed.date == "1968-12-26"  # type: ignore[union-attr]


def test_language_versions_of_one_convention_stay_one() -> None:
    """An English and a French version of one convention (a Canadian schedule prints both), and
    an English and a Portuguese one: each title names the same States, each language once."""
    en = _convention("CONVENTION BETWEEN CANADA AND THE REPUBLIC OF PORTUGAL FOR THE AVOIDANCE OF DOUBLE TAXATION",
                     "DONE in duplicate at Ottawa, this 14th day of June 1999.")
    pt = _convention("CONVENÇÃO ENTRE O CANADÁ E A REPÚBLICA PORTUGUESA PARA EVITAR A DUPLA TRIBUTAÇÃO",
                     "Feito em duplicado em Otava, em 14 de junho de 1999.", PT)
    doc = taxtreaty.parse(en + "\n" + pt)
    assert [v.language for v in doc.versions] == ["en", "pt"]
    assert doc.parties == ["CA", "PT"]
    fr = _convention("CONVENTION ENTRE LE CANADA ET LA RÉPUBLIQUE PORTUGAISE EN VUE D'ÉVITER LES DOUBLES IMPOSITIONS",
                     "FAIT en double exemplaire à Ottawa, le 14 juin 1999.", FR)
    assert [v.language for v in taxtreaty.parse(en + "\n" + fr).versions] == ["en", "fr"]


def test_a_convention_number_beyond_the_file_is_refused() -> None:
    with pytest.raises(InputError, match="the file holds 2 convention"):
        taxtreaty.parse(ACT.read_bytes(), convention=3)
    one = _convention("CONVENTION BETWEEN CANADA AND SWEDEN", "DONE at Stockholm, this 27th day of August 1996.")
    assert taxtreaty.parse(one, convention=1).parties == ["CA", "SE"]
    with pytest.raises(InputError, match="the file holds 1 convention"):
        taxtreaty.parse(one, convention=2)


def test_the_commands_refuse_in_one_line_and_read_the_chosen_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(["parse", str(ACT)], monkeypatch, capsys)
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and "holds 2 conventions" in err
    code, out, err = _run(["parse", str(ACT), "--convention", "2"], monkeypatch, capsys)
    assert code == 0, err
    assert "CA–LT; signed 1996-08-29 in Vilnius" in out.splitlines()[0]
    code, out, err = _run(["ask", "--treaty", str(ACT), "--convention", "1", "--income", "interest", "--source", "SE",
                           "--residence", "CA", "--beneficial-owner", "--recipient", "company", "--json"],
                          monkeypatch, capsys)
    assert code == 0, err
    assert '"max_rate_pct": "10"' in out


TECHNICAL_EXPLANATION = """DEPARTMENT OF THE TREASURY
TECHNICAL EXPLANATION OF THE CONVENTION BETWEEN THE UNITED STATES OF AMERICA AND THE REPUBLIC OF ESTONIA

This is a technical explanation of the Convention signed at Washington on January 15, 1998. It is an
official guide to the Convention.

ARTICLE 1 (GENERAL SCOPE)

Paragraph 1 of Article 1 provides that the Convention applies to residents of one or both States.

ARTICLE 10 (DIVIDENDS)

Paragraph 2 provides that the tax shall not exceed 5 percent of the gross amount of the dividends if the
beneficial owner is a company that owns at least 10 percent of the voting stock, and 15 percent in all other cases.
"""


def test_a_technical_explanation_is_refused_as_no_convention() -> None:
    """Its "ARTICLE 10 (DIVIDENDS)" and "the tax shall not exceed 5 percent" read like a
    convention's: read as one, a 5% cap would be answered from a commentary."""
    with pytest.raises(NotAConventionError) as caught:
        taxtreaty.parse(TECHNICAL_EXPLANATION)
    assert str(caught.value).startswith('the text explains a convention, it is not one: "TECHNICAL EXPLANATION OF '
                                        'THE CONVENTION BETWEEN THE UNITED STATES')
    assert "(line 2)" in str(caught.value)
    # a convention whose preamble names an explanation in a sentence is still a convention
    one = _convention("CONVENTION BETWEEN CANADA AND SWEDEN", "DONE at Stockholm, this 27th day of August 1996.")
    one = one.replace("The Governments have agreed as follows:",
                      "The Governments, noting that a technical explanation of the Convention will be published, "
                      "have agreed as follows:")
    assert taxtreaty.parse(one).parties == ["CA", "SE"]
