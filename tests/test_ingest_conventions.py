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
