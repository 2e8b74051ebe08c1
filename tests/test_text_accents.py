"""Accented letters a copy lost with its encoding (text/accents.py): a word that dropped its letter
("Artculo"), or printed "?" or U+FFFD for it ("Art?culo"), is written again as the one word of the
language data it stands for; a word that is itself a word of the language ("no" of "não") unless the word
beside it makes a phrase of the accented one ("no pode exceder" for "não pode exceder"), one that stands
for two words ("est?": está or esté) and a text that lost nothing are left as printed. Our own sentences."""

from __future__ import annotations

import random

import pytest

from taxtreaty.checks.damage import ACCENT_MUTATIONS
from taxtreaty.text import clean

#: (language, text as printed): a few lines of a convention, each in its clean form
TEXTS = {
    "es": (
        "Artículo 10\nDividendos\n1. Los dividendos pagados por una sociedad residente de un Estado Contratante "
        "a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado. "
        "La Convención se aplicará también a las personas de la República, según el párrafo 2."
    ),
    "pt": (
        "Artigo 10.º\nDividendos\n1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a "
        "um residente do outro Estado Contratante podem ser tributados nesse outro Estado. A presente Convenção "
        "aplica-se às pessoas residentes; a tributação dos rendimentos da República é regulada no parágrafo 2."
    ),
}


@pytest.mark.parametrize(
    ("damaged", "restored"),
    [
        # es: a letter dropped, "?", U+FFFD; the case of the printed word kept
        (
            "El presente Convenio se aplica a las personas. Artculo 10. La imposicin de los dividendos segn el Estado "
            "que las del otro.",
            "Artículo 10. La imposición",
        ),
        (
            "El presente Convenio se aplica a las personas. Art?culo 10. La imposici?n de los dividendos.",
            "Artículo 10. La imposición",
        ),
        (
            "El presente Convenio se aplica a las personas. ART\ufffdCULO 10. La imposici\ufffdn de los dividendos.",
            "ARTÍCULO 10. La imposición",
        ),
        # pt: two letters dropped at once ("çã"), a capital's accent dropped in capitals
        (
            "O presente texto da Conveno e os da tributao dos rendimentos do DIRIO DA REPBLICA que os das",
            "Convenção e os da tributação dos rendimentos do DIÁRIO DA REPÚBLICA",
        ),
        (
            "A Conven??o aplica-se ?s pessoas; a tributa\ufffd\ufffdo.",
            "A Convenção aplica-se às pessoas; a tributação.",
        ),
        # pt "no" (of "não") before a word that makes a phrase of "não" in the data ("não pode exceder", "a não
        # ser que"), and "exceder" (of "excederá") after such a "não": written again
        (
            "O imposto da Conveno no pode exceder 10 por cento da tributao dos dividendos da REPBLICA que os do",
            "não pode exceder 10 por cento",
        ),
        (
            "O imposto assim estabelecido no exceder 10 % da tributao, a no ser que o emprego da REPBLICA que os do",
            "não excederá 10 % da tributação, a não ser que",
        ),
        # es "así" dropped is "as": before "también" it is the "así" of "como así también"
        (
            "los intereses de los bancos, como as tambin los de la financiacin de obras pblicas segn el Artculo 3 "
            "de los que las del",
            "como así también los de la financiación de obras públicas",
        ),
        # a letter the word reads by the word after it: "s podem" is "só podem"
        (
            "Os rendimentos s podem ser tributados no Estado da Conveno e da tributao dos das REPBLICA que os do",
            "Os rendimentos só podem ser tributados",
        ),
    ],
)
def test_a_damaged_word_is_written_as_the_word_it_stands_for(damaged: str, restored: str) -> None:
    ct = clean(damaged)
    assert restored in ct.text
    assert ct.accents is not None and ct.accents.edits


@pytest.mark.parametrize(
    ("damaged", "kept"),
    [
        # pt "não" with its "ã" dropped is "no", a word of its own: left where the word after it makes a phrase
        # of "no" ("no Estado", "no entanto"), and where no phrase of the data follows ("no sentido")
        (
            "O imposto da Conveno cobrado no Estado, no entanto, no sentido da tributao dos dividendos da REPBLICA "
            "que os do",
            "cobrado no Estado, no entanto, no sentido",
        ),
        # es "será" dropped is "ser", a word of its own; "est?" is "está" or "esté": both left
        ("El Convenio ser aplicado en la Repblica segn el Artculo 3 de los que las del", "ser aplicado"),
        ("La Convenci?n est? en vigor.", "est? en vigor"),
        # en: a question mark is punctuation, a word no language data knows is left
        ("Does the Convention apply? The Contracting States shall consult.", "apply? The"),
    ],
)
def test_a_word_of_the_language_or_of_several_words_is_left_as_printed(damaged: str, kept: str) -> None:
    assert kept in clean(damaged).text


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_text_that_lost_nothing_is_not_touched(language: str) -> None:
    text = TEXTS[language]
    ct = clean(text)
    assert ct.accents is None
    assert ct.text == clean(text.replace("\n", "\n\n")).text  # (the cleaner's own work, the same)


def test_an_english_text_is_not_touched() -> None:
    text = (
        "Article 10\nDividends\n1. Dividends paid by a company which is a resident of a Contracting State to a "
        "resident of the other Contracting State may be taxed in that other State, per cent as the case may be."
    )
    assert clean(text).accents is None
    assert clean(text).text == text


#: the words each damage leaves as printed: "aplicará" dropped is "aplicar", a word of its own; "é" dropped
#: leaves no word, printed "?" it could be "é" or "à"
LEFT = {
    ("es", "drop_accented_letters"): {"aplicará": "aplicar"},
    ("pt", "drop_accented_letters"): {" é ": "  "},
    ("pt", "question_for_accented_letters"): {" é ": " ? "},
    ("pt", "replacement_for_accented_letters"): {" é ": " \ufffd "},
}


@pytest.mark.parametrize("language", sorted(TEXTS))
@pytest.mark.parametrize("damage", sorted(ACCENT_MUTATIONS))
def test_each_damage_is_restored_and_maps_to_the_printed_words(language: str, damage: str) -> None:
    text = TEXTS[language]
    damaged = ACCENT_MUTATIONS[damage](text, random.Random(0))
    ct = clean(damaged)
    expected = clean(text).text
    for word, printed in LEFT.get((language, damage), {}).items():
        expected = expected.replace(word, printed)
    assert ct.text == expected
    # every restored word maps back to the damaged word it was read from, the rest character for character
    for start, end, word in ct.accents.edits:
        at = ct.text.find(word)
        assert at >= 0
        assert ct.map.to_original(at, at + len(word)) == (start, end) or damaged[start:end] != word
    first = ct.text.find("Dividendos")
    assert damaged[slice(*ct.map.to_original(first, first + len("Dividendos")))] == "Dividendos"


def test_the_parse_warns_of_the_lost_accents() -> None:
    import taxtreaty

    text = (
        "CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y EL REINO DE ESPAÑA\n\nArtículo 1\nPersonas comprendidas\n"
        "El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes, "
        "según la legislación de los Estados y de las Partes que lo apliquen.\n"
    )
    doc = taxtreaty.parse(ACCENT_MUTATIONS["drop_accented_letters"](text, random.Random(0)))
    lost = [w for w in doc.warnings if w.code == "lost_accents"]
    assert len(lost) == 1 and lost[0].language == "es" and "Artculo -> Artículo" in lost[0].message
    assert not [w for w in taxtreaty.parse(text).warnings if w.code == "lost_accents"]
