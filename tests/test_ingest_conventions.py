"""A file holding several conventions (an Act whose schedules are conventions) is refused by ingest
as by parse, in one line naming them and how to choose; `ingest --convention N`, the store's
`ingest(..., convention=N)` and an HTTP request's "convention" ingest the one chosen, each
convention of the file a document of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from helpers import run_cli

from taxtreaty.interfaces.http import create_app
from taxtreaty.interfaces.http.backend import MemoryBackend
from taxtreaty.store import Store

ACT = Path(__file__).resolve().parent / "cases" / "treaties" / "gazette_en_ca_act_ca_se_ca_lt.txt"
TOKEN = "test-token-of-our-own"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _parties(db: str) -> list[list[str]]:
    with Store.open(db, create=False) as store:
        return sorted(t.parties for t in store.list_treaties())


def test_ingest_refuses_the_act_in_one_line_and_stores_each_chosen_convention(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TAXTREATY_DB", raising=False)
    db = str(tmp_path / "store.sqlite")
    code, out, err = run_cli(monkeypatch, capsys, "ingest", str(ACT), "--db", db, columns=400)
    assert code == 1
    [line] = [ln for ln in err.splitlines() if ln.startswith("rejected")]
    assert "holds 2 conventions" in line and "1. CA–SE" in line and "2. CA–LT" in line
    assert line.endswith("choose one with --convention N")
    assert _parties(db) == []

    for number in (2, 1):
        code, out, err = run_cli(monkeypatch, capsys, "ingest", str(ACT), "--db", db, "--convention", str(number),
                                 "--json")
        assert code == 0, err
        assert '"added"' in out and '"rejected": []' in out
    assert _parties(db) == [["CA", "LT"], ["CA", "SE"]]
    # the same convention again is skipped; a convention the file does not hold is one line
    code, out, err = run_cli(monkeypatch, capsys, "ingest", str(ACT), "--db", db, "--convention", "1")
    assert code == 0 and "skipped" in out, err
    code, out, err = run_cli(monkeypatch, capsys, "ingest", str(ACT), "--db", db, "--convention", "3", columns=400)
    assert code == 1 and "--convention 3: the file holds 2 convention(s)" in err
    assert _parties(db) == [["CA", "LT"], ["CA", "SE"]]


def test_the_store_api_keeps_a_file_of_one_convention_under_its_own_sha256(tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text(ACT.read_text(encoding="utf-8").split("SCHEDULE 2")[0], encoding="utf-8")
    with Store.open(str(tmp_path / "s.sqlite")) as store:
        first = store.ingest([str(one)], convention=1)
        assert [a.treaty for a in first.added] and not first.rejected
        # the same file without the option is the same document: skipped, not stored twice
        again = store.ingest([str(one)])
        assert again.skipped and again.skipped[0].sha256 == first.added[0].sha256
        data = ACT.read_bytes()
        added = store.ingest_bytes(data, "act.txt", convention=2)
        assert added.added and added.added[0].sha256 != first.added[0].sha256
        assert store.ingest_bytes(data, "act.txt", convention=2).skipped


@pytest.mark.parametrize("backend", ["memory", "store"])
def test_the_http_ingest_chooses_with_the_requests_convention(backend: str, tmp_path: Path) -> None:
    app = create_app(backend=MemoryBackend(), token=TOKEN) if backend == "memory" else \
        create_app(str(tmp_path / "h.sqlite"), token=TOKEN)
    client = TestClient(app)
    text = ACT.read_text(encoding="utf-8")
    refused = client.post("/treaties", json={"text": text, "name": "act.txt"}, headers=AUTH)
    assert refused.status_code == 422, refused.text
    detail = refused.json()["detail"]
    assert "\n" not in detail and "holds 2 conventions" in detail and "2. CA–LT" in detail
    assert detail.endswith('choose one with "convention": N in the request')
    first = client.post("/treaties", json={"text": text, "name": "act.txt", "convention": 2}, headers=AUTH)
    assert first.status_code == 201 and first.json()["status"] == "added", first.text
    other = client.post("/treaties", json={"text": text, "name": "act.txt", "convention": 1}, headers=AUTH)
    assert other.status_code == 201 and other.json()["status"] == "added"
    assert other.json()["treaty"] != first.json()["treaty"]
    again = client.post("/treaties", json={"text": text, "name": "act.txt", "convention": 2}, headers=AUTH)
    assert again.json()["status"] == "skipped" and again.json()["sha256"] == first.json()["sha256"]
    assert client.get(f"/treaties/{first.json()['treaty']}").json()["parties"] == ["CA", "LT"]
    assert client.post("/treaties", json={"text": text, "convention": 0}, headers=AUTH).status_code == 422


def test_ingest_of_a_folder_chooses_a_convention_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--convention FILE=N`, repeatable: a folder with two copies of the Act and a file of one convention;
    # each copy gets its own choice (by its name or its path), the other file is read whole
    monkeypatch.delenv("TAXTREATY_DB", raising=False)
    folder = tmp_path / "texts"
    (folder / "later").mkdir(parents=True)
    (folder / "act.txt").write_bytes(ACT.read_bytes())
    (folder / "later" / "act-copy.txt").write_bytes(ACT.read_bytes())
    (folder / "one.txt").write_text(ACT.read_text(encoding="utf-8").split("SCHEDULE 2")[0], encoding="utf-8")
    db = str(tmp_path / "store.sqlite")
    code, out, err = run_cli(monkeypatch, capsys, "ingest", str(folder), "--db", db, "--convention", "act.txt=2",
                             "--convention", f"{folder / 'later' / 'act-copy.txt'}=1", columns=400)
    assert code == 0, err
    added = {line.split()[1].rsplit("/", 1)[-1]: line.split()[-1] for line in out.splitlines() if line.startswith("added ")}
    assert set(added) == {"act.txt", "act-copy.txt", "one.txt"} and "rejected" not in err
    assert added["act.txt"].startswith("CA-LT") and added["act-copy.txt"].startswith("CA-SE")
    # without a choice for the Act, it is refused; the others are skipped as stored
    code, out, err = run_cli(monkeypatch, capsys, "ingest", str(folder), "--db", db, "--convention",
                             "later/act-copy.txt=1", columns=400)
    assert code == 2 and err.count("\n") == 1 and "later/act-copy.txt is none of the files to ingest" in err


@pytest.mark.parametrize(("value", "says"), [
    ("act.txt=two", "give N or FILE=N"), ("act.txt=0", "give N or FILE=N"), ("=2", "give N or FILE=N"),
    ("missing.txt=1", "missing.txt is none of the files to ingest"),
])
def test_a_bad_per_file_convention_is_one_line(
    value: str, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TAXTREATY_DB", raising=False)
    (tmp_path / "act.txt").write_bytes(ACT.read_bytes())
    db = tmp_path / "store.sqlite"
    code, _out, err = run_cli(monkeypatch, capsys, "ingest", str(tmp_path / "act.txt"), "--db", str(db),
                             "--convention", value, columns=400)
    assert code == 2 and err.startswith("taxtreaty: error: --convention") and says in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not db.exists()  # refused before the store is opened


def test_the_same_file_given_two_conventions_is_refused() -> None:
    from taxtreaty.store.ingest import convention_choices
    from taxtreaty.text import InputError

    assert convention_choices(["2", "a.txt=1", "dir/b=c.txt=3"]) == (2, {"a.txt": 1, "dir/b=c.txt": 3})
    with pytest.raises(InputError, match="given another convention already"):
        convention_choices(["a.txt=1", "a.txt=2"])
    with pytest.raises(InputError, match="a second N for every file"):
        convention_choices(["1", "2"])
