"""The provisions extractor's words live in taxtreaty/data/provisions/<language>.yaml, read by one
loader that names the file it refuses; no .py file under taxtreaty/provisions alternates words."""

from __future__ import annotations

import pytest
from conftest import ROOT
from word_lists import files_with_word_alternations, word_alternations

from taxtreaty import vocab
from taxtreaty.provisions import vocabulary
from taxtreaty.provisions.vocabulary import fold_same_length


def test_fold_keeps_offsets():
    text = "Straße — beneficiário efectivo, 1.º de enero"
    assert len(fold_same_length(text)) == len(text)


def test_no_word_alternation_in_the_provisions_code() -> None:
    assert files_with_word_alternations(ROOT / "taxtreaty" / "provisions") == {}


@pytest.mark.parametrize(("source", "words"), [
    ('JOIN = r"\\s+(?:and|or|e|ou)\\s+"', ["and", "or", "ou"]),
    ('DAY = rf"(?P<n>{words})\\s+(?:day|dia|día)(?![\\p{{L}}])"', ["day", "dia", "día"]),
    ('LEAD = r"^(?i:to\\s+the|to|the)\\s+"', ["tothe", "to", "the"]),
])
def test_the_check_sees_an_alternation_of_words(source: str, words: list[str]) -> None:
    assert word_alternations(source) == [(1, words)]


@pytest.mark.parametrize("source", [
    'NUMBER = r"\\d{1,3}(?:[.,]\\d{1,2})?|\\d+"',
    'LABEL = r"^(?:[ivx]{1,4}|[a-z]{1,2})$"',
    'def f():\n    """Docstrings may say "and|or"."""\n',
])
def test_the_check_leaves_syntax_and_docstrings_alone(source: str) -> None:
    assert word_alternations(source) == []


@pytest.mark.parametrize("code", vocabulary.available_languages())
def test_every_phrase_file_loads_with_every_key(code: str) -> None:
    ph = vocabulary.require_phrases(code)
    for key in vocabulary.WORD_KEYS:
        assert isinstance(ph.words(key), tuple)
    assert ph.word_group("and_words", "or_words") != "(?!)"


def _damaged(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    real = vocab._data_text
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: text if parts == ("provisions", "en.yaml") else real(*parts))


@pytest.mark.parametrize(("change", "message"), [
    ("colour_words: [red]\n", r"^provisions/en\.yaml: unknown keys \['colour_words'\]"),
    ("NO: [Norway]\n", r"^provisions/en\.yaml: key False at top level was read as bool"),
])
def test_the_loader_refuses_a_damaged_file_and_names_it(monkeypatch: pytest.MonkeyPatch, change: str, message: str) -> None:
    _damaged(monkeypatch, vocab._data_text("provisions", "en.yaml") + change)
    vocabulary.phrases.cache_clear()
    try:
        with pytest.raises(vocab.DataFileError, match=message):
            vocabulary.phrases("en")
    finally:
        monkeypatch.undo()
        vocabulary.phrases.cache_clear()


def test_a_word_list_must_be_a_list_of_words(monkeypatch: pytest.MonkeyPatch) -> None:
    text = vocab._data_text("provisions", "en.yaml").replace('and_words: ["and"]', "and_words: and")
    _damaged(monkeypatch, text)
    vocabulary.phrases.cache_clear()
    try:
        with pytest.raises(vocab.DataFileError, match=r"^provisions/en\.yaml: and_words must be a list"):
            vocabulary.phrases("en")
    finally:
        monkeypatch.undo()
        vocabulary.phrases.cache_clear()


def test_an_empty_phrase_list_never_matches() -> None:
    import regex

    from taxtreaty.provisions.vocabulary import alternation

    empty = regex.compile(alternation([]))
    assert empty.search("shall not exceed 10 per cent") is None
    assert regex.compile(alternation(["", "  "])).search("anything") is None
    assert regex.compile(alternation(["per cent"])).search("10 per cent")
