"""Regressions for the parser and cleaner defects other stages reported (follow-up on issue 2).

Each section names the defect it pins down. The texts are synthetic (other wordings, other
damage) except where a corpus file is the report's own evidence.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

import taxtreaty
from taxtreaty import vocab
from taxtreaty.interfaces.cli import main

# -- 1. YAML 1.1 booleans in the data files -------------------------------------------------------

NORWAY_TEXT = """CONVENTION BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF CHILE
Article 1
Persons covered
This Convention shall apply to persons who are residents of one or both of the Contracting States.
Article 2
Taxes covered
The existing taxes to which the Convention shall apply are the income tax and the capital tax.
IN WITNESS WHEREOF the undersigned have signed this Convention.
DONE at Oslo, this 3rd day of June 2004, in duplicate.
"""


def test_norway_is_a_country_and_its_key_is_text() -> None:
    countries = vocab.countries()
    assert "Norway" in countries["NO"]
    assert all(isinstance(code, str) and len(code) == 2 for code in countries)


def test_a_text_naming_norway_gets_its_parties_and_an_outline(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = taxtreaty.parse(NORWAY_TEXT)
    assert doc.parties == ["NO", "CL"]
    path = tmp_path / "no_cl.txt"
    path.write_text(NORWAY_TEXT, encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["taxtreaty", "parse", "--outline", str(path)])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "NO–CL; signed 2004-06-03 in Oslo" in out.splitlines()[0]


@pytest.mark.parametrize(
    ("bad_yaml", "fragment"),
    [
        ("PT: [Portugal]\nNO: [Norway]\n", "False"),
        ("PT: [Portugal]\n~: [Nowhere]\n", "None"),
        ("PT: [Portugal]\nPortugal: [Portugal]\n", "'Portugal'"),
        ("PT: [Portugal]\nFI: [Finland, yes]\n", "FI"),
    ],
)
def test_countries_file_with_a_non_text_key_is_refused_naming_the_file(
    monkeypatch: pytest.MonkeyPatch, bad_yaml: str, fragment: str
) -> None:
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: bad_yaml)
    vocab.countries.cache_clear()
    try:
        with pytest.raises(vocab.DataFileError) as info:
            vocab.countries()
    finally:
        monkeypatch.undo()
        vocab.countries.cache_clear()
    message = str(info.value)
    assert message.startswith("countries.yaml: ")
    assert fragment in message


def test_a_boolean_key_anywhere_in_a_data_file_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: "point_labels:\n  on: [a]\n")
    vocab.ocr_point_labels.cache_clear()
    try:
        with pytest.raises(vocab.DataFileError, match=r"^ocr\.yaml: key True at point_labels"):
            vocab.ocr_point_labels()
    finally:
        monkeypatch.undo()
        vocab.ocr_point_labels.cache_clear()


YAML_BOOLEAN_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false"}
#: keys whose value is a flag, meant as a boolean
FLAG_KEYS = {"supported", "prefix"}


def _plain_boolean_words(node: yaml.Node, key: str | None = None) -> list[str]:
    """Unquoted scalars that some YAML 1.1 loader reads as a boolean, outside the flag keys."""
    if isinstance(node, yaml.MappingNode):
        found = []
        for k, v in node.value:
            found += _plain_boolean_words(k) + _plain_boolean_words(v, k.value)
        return found
    if isinstance(node, yaml.SequenceNode):
        return [w for item in node.value for w in _plain_boolean_words(item)]
    if node.style is None and node.value.lower() in YAML_BOOLEAN_WORDS and key not in FLAG_KEYS:
        return [node.value]
    return []


@pytest.mark.parametrize("name", ["countries.yaml", "furniture.yaml", "ocr.yaml", "topics.yaml",
                                  "languages/en.yaml", "languages/es.yaml", "languages/pt.yaml",
                                  "languages/fr.yaml", "languages/nl.yaml"])
def test_no_data_file_has_an_unquoted_yaml_boolean_word(name: str) -> None:
    """PyYAML reads `NO`, `on`, `yes` unquoted as booleans, other YAML 1.1 loaders `y` and `n`
    too: every such word in our files is quoted, except the values of the flags."""
    assert _plain_boolean_words(yaml.compose(vocab._data_text(*name.split("/")))) == []


def test_the_boolean_check_sees_an_unquoted_word() -> None:
    assert _plain_boolean_words(yaml.compose("stopwords: [el, y, 'n']\nNO: [Norway]\nsupported: true\n")) == ["y", "NO"]
