"""The structure's words come from the data files, through the one loader that refuses a file it
cannot read as meant (naming the file)."""

from __future__ import annotations

import pytest

from taxtreaty import vocab
from taxtreaty.structure.metadata import find_date, find_signature


def _refused(monkeypatch: pytest.MonkeyPatch, loader: object, text: str) -> str:
    real = vocab._data_text
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: text if parts[-1] in ("furniture.yaml", "en.yaml") else real(*parts))
    loader.cache_clear()  # type: ignore[attr-defined]
    try:
        with pytest.raises(vocab.DataFileError) as info:
            loader()  # type: ignore[operator]
    finally:
        monkeypatch.undo()
        loader.cache_clear()  # type: ignore[attr-defined]
    return str(info.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("patterns: []\nhtml_tag: [sup]\n", "furniture.yaml: unknown keys ['html_tag']"),
        ("patterns:\n  - {name: page, regex: '\\d+', prefx: true}\n", "furniture.yaml: pattern 'page' has unknown keys ['prefx']"),
        ("patterns:\n  - {name: page}\n", "furniture.yaml: pattern"),
        ("html_tags: [sup]\n", "furniture.yaml: expected a top-level 'patterns' list"),
        ("patterns: []\nhtml_tags: ['<sup>']\n", "furniture.yaml: html_tags"),
    ],
)
def test_a_damaged_furniture_file_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch, text: str, fragment: str) -> None:
    assert fragment in _refused(monkeypatch, vocab._furniture, text)


def test_a_language_file_with_an_unknown_or_misshapen_key_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    en = vocab._data_text("languages", "en.yaml")
    message = _refused(monkeypatch, vocab.languages, en + "\nplace_joiner: [of]\n")
    assert message == "languages/en.yaml: unknown keys ['place_joiner']"
    message = _refused(monkeypatch, vocab.languages, en.replace('place_articles: ["the"]', "place_articles: the"))
    assert message == "languages/en.yaml: place_articles must be a list of words"


@pytest.mark.parametrize(
    ("phrases", "accents", "text", "found"),
    [
        (["day of"], False, "25th day  of September", "day  of"),
        (["dia do mês"], True, "aos 27 DIAS DO MES", None),  # "dias" is not "dia"
        (["dias do mês"], True, "aos 27 DIAS DO MES de", "DIAS DO MES"),
        ([], False, "anything", None),
    ],
)
def test_phrase_alternation(phrases: list[str], accents: bool, text: str, found: str | None) -> None:
    import regex

    m = regex.search(rf"(?i:{vocab.phrase_alternation(phrases, accents=accents)})(?=\s|$)", text)
    assert (m.group() if m else None) == found


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("aos 27 dias do mês de Setembro de 2011", "2011-09-27"),
        ("the 25th day of September, 1997", "1997-09-25"),
        ("el 5 del mes de marzo del 2000", "2000-03-05"),
        ("le 3 mars 2001", "2001-03-03"),
    ],
)
def test_dates_read_with_the_words_of_the_data(text: str, date: str) -> None:
    assert find_date(text)[0] == date


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("Done in duplicate at the City of Washington, this 20th day of May 1996", "City"),
        ("Feito em duplicado em Rio de Janeiro, em 12 de março de 2003", "Rio de Janeiro"),
        ("Hecho en la Ciudad de México, el 5 de marzo de 2000", "Ciudad de México"),
    ],
)
def test_signature_places_read_with_the_words_of_the_data(text: str, place: str) -> None:
    signed = find_signature(text)
    assert signed is not None and signed.place == place
