"""Every command turns every failure into one line and an exit status; two first ingests into a
brand-new store do not race (SQLite and PostgreSQL); a full disk during ingest is one line."""

from __future__ import annotations

import errno
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import test_store_support as support
from conftest import ROOT, seed_path
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app

store_url = support.store_url


def one_line_failure(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


ASK = ["ask", "--treaty", str(ROOT / "tests" / "fixtures" / "ledger" / "pt-mt-synthetic.txt")]


@pytest.mark.parametrize(("payload", "words"), [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"income": "dividends", "source": "MT", "residence": "PT", "amount": ' + b"9" * 100_000 + b"}",
     "a number of 100000 digits"),
    (b"\xfa\xfb\xfc", "UTF-8"),
])
def test_ask_scenario_files_that_used_to_crash(tmp_path: Path, payload: bytes, words: str) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_bytes(payload)
    line = one_line_failure(cli(*ASK, "--scenario", str(scenario)))
    assert words in line


def test_ask_scenario_in_utf16_is_read(tmp_path: Path) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_bytes('{"income": "dividends", "source": "MT", "residence": "PT"}'.encode("utf-16"))
    result = cli(*ASK, "--scenario", str(scenario), "--json")
    assert result.exit_code == 0, result.output
    assert '"status": "indeterminate"' in result.output


def test_check_on_deeply_nested_yaml(tmp_path: Path) -> None:
    cases = tmp_path / "cases.yaml"
    cases.write_text("a: " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    line = one_line_failure(cli("check", str(cases)))
    assert line.startswith("taxtreaty: error:")


def test_search_limit_too_large(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    assert cli("ingest", str(seed_path("002")), "--db", str(db)).exit_code == 0
    line = one_line_failure(cli("search", "dividends", "--db", str(db), "--limit", "99999999999999999999"))
    assert "--limit" in line


def test_disk_full_during_ingest_is_one_line_and_stores_nothing_half(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from taxtreaty.store import ingest as ingest_module

    db = tmp_path / "s.sqlite"
    assert cli("ingest", str(seed_path("002")), "--db", str(db)).exit_code == 0

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(ingest_module, "write_document", full)
    line = one_line_failure(cli("ingest", str(seed_path("003")), "--db", str(db)))
    assert "No space left on device" in line
    monkeypatch.undo()
    listed = cli("list", "--db", str(db), "--format", "csv").output.strip().splitlines()
    assert len(listed) == 2  # the first treaty only


_INGEST = """
import sys
sys.path.insert(0, {root!r})
from taxtreaty.store import Store
with Store.open(sys.argv[1]) as store:
    report = store.ingest([sys.argv[2]])
print(len(report.added) + len(report.skipped), len(report.rejected))
"""


def test_two_first_ingests_into_a_new_store_do_not_race(store_url: str, tmp_path: Path) -> None:
    """Both processes create and migrate the same brand-new store at once: one waits, both succeed."""
    script = _INGEST.format(root=str(ROOT))
    texts = [str(seed_path("002")), str(seed_path("003"))]
    rounds = 3 if store_url.startswith("sqlite") else 1
    for n in range(rounds):
        url = store_url.replace("store.sqlite", f"store-{n}.sqlite")
        procs = [subprocess.Popen([sys.executable, "-c", script, url, text], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for text in texts]
        outcomes = [p.communicate(timeout=300) for p in procs]
        for proc, (out, err) in zip(procs, outcomes, strict=True):
            assert proc.returncode == 0, err
            assert out.split() == ["1", "0"], (out, err)
        from taxtreaty.store import Store

        with Store.open(url) as store:
            assert store.counts()["documents"] == 2 and store.check() == []


def test_an_unexpected_error_is_one_line_with_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    from taxtreaty.interfaces.cli import rules_cmd

    def broken(*_args, **_kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(rules_cmd, "_load", broken)
    line = one_line_failure(cli(*ASK, "--income", "dividends", "--source", "MT", "--residence", "PT"), code=3)
    assert line.startswith("taxtreaty: internal error: KeyError")


def test_sigterm_during_a_command_exits_and_cleans(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from taxtreaty.interfaces.cli import exit_on_signals
        exit_on_signals()
        try:
            print("ready", flush=True)  # inside the try: a signal right after it still reaches the finally
            time.sleep(60)
        finally:
            print("cleaned", flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"  # type: ignore[union-attr]
    proc.terminate()
    out, _ = proc.communicate(timeout=10)
    assert "cleaned" in out and proc.returncode == 128 + 15
