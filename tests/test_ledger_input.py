"""The ledger as a practitioner feeds it: ragged lines, `;` files with decimal commas, Latin-1,
formula cells, empty files, duplicate columns, a report of the rejected rows, exit statuses,
one rounding rule, temporary files that never outlive a run, and a full disk."""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
import sys
import textwrap
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from conftest import FIXTURES, ROOT
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app
from taxtreaty.pipeline import load_book
from taxtreaty.rules import decide, withholding_minor
from taxtreaty.rules.ledger import LedgerEvaluator
from taxtreaty.rules.ledger_io import run_local
from taxtreaty.rules.ledger_write import TEMP_PREFIX, Writer, neutralise, remove_leftovers

SYNTHETIC = FIXTURES / "ledger" / "pt-mt-synthetic.txt"  # dividends 5% (25% holding) / 12.5%, interest 10%
HEADER = "income,source,residence,amount,beneficial_owner,recipient,capital_pct,memo"
GOOD = "dividends,MT,PT,1000.99,yes,company,30,ok"


@pytest.fixture(scope="module")
def treaty_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("treaties")
    shutil.copy(SYNTHETIC, folder / "pt-mt.txt")
    return folder


@pytest.fixture(scope="module")
def book(treaty_dir: Path):
    return load_book(str(treaty_dir), lambda _m: None)


def run(treaty_dir: Path, ledger: Path, out: Path, *extra: str):
    return CliRunner().invoke(app, ["ledger", str(ledger), "--treaties", str(treaty_dir), "-o", str(out), *extra])


def read_out(path: Path, sep: str = ",") -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False, sep=sep, encoding="utf-8-sig")


def test_a_ragged_line_never_aborts_and_every_row_comes_out(treaty_dir: Path, tmp_path: Path) -> None:
    rows = [GOOD] * 5000
    rows[5000 - 1] = GOOD + ",extra"  # line 5005 once the lines below are in
    rows.insert(10, "")  # a blank line (line 12): skipped, later line numbers stay right
    rows.insert(20, 'dividends,MT,PT,10,yes,company,30,"two\nlines"')  # lines 22-23: one record
    rows.insert(30, "dividends,MT,PT")  # line 32: too few fields
    ledger = tmp_path / "p.csv"
    ledger.write_text(HEADER + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    result = run(treaty_dir, ledger, out)
    assert result.exit_code == 0, result.output
    written = read_out(out)
    assert len(written) == 5002  # every record, the blank line left out
    bad = written[written["status"] == "malformed"]
    assert list(bad["reason"]) == ["line 33: 3 fields where the header has 8", "line 5005: 9 fields where the header has 8"]
    assert written.loc[19, "memo"] == "two\nlines" and written.loc[19, "status"] == "determined"
    assert "line 5005" in result.output


def test_a_field_the_parser_refuses_is_one_malformed_row(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    huge = "x" * (2 << 20)
    ledger.write_text(f"{HEADER}\n{GOOD}\ndividends,MT,PT,1,yes,company,30,\"{huge}\"\n{GOOD}\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    result = run(treaty_dir, ledger, out)
    assert result.exit_code == 0, result.output
    written = read_out(out)
    assert list(written["status"]) == ["determined", "malformed", "determined"]
    assert written.loc[1, "reason"].startswith("line 3: cannot be read as CSV")


def test_semicolons_and_decimal_commas_are_detected_and_kept(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text("income;source;residence;amount;beneficial_owner;recipient;capital_pct\n"
                      "dividends;MT;PT;1.000,99;yes;company;30\n"
                      "dividends;MT;PT;2.000.000,00;yes;company;24,5\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    result = run(treaty_dir, ledger, out)
    assert result.exit_code == 0, result.output
    written = read_out(out, sep=";")
    assert list(written["withholding_minor"]) == ["5004", "25000000"]
    assert list(written["withholding"]) == ["50,04", "250000,00"]
    assert list(written["max_rate_pct"]) == ["5", "12,5"]


def test_separator_and_decimal_mark_given(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text("income\tsource\tresidence\tbeneficial_owner\tamount\n" "interest\tMT\tPT\tyes\t1,000.50\n",
                      encoding="utf-8")
    out = tmp_path / "o.csv"
    assert run(treaty_dir, ledger, out, "--sep", "tab", "--decimal", ".").exit_code == 0
    assert read_out(out, sep="\t")["withholding"].tolist() == ["100.05"]
    wrong = run(treaty_dir, ledger, out, "--decimal", ",")
    assert wrong.exit_code == 0
    reason = read_out(out, sep="\t")["reason"][0]
    assert reason.startswith("line 2: amount: not an amount") and "(with ',' as the decimal mark)" in reason


def test_latin1_input(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_bytes(f"{HEADER}\n{GOOD[:-2]}Não é,\n".encode("latin-1").replace(b"\xe9,", b"\xe9"))
    out = tmp_path / "o.csv"
    assert run(treaty_dir, ledger, out).exit_code == 0
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM: spreadsheets read it as they read the input
    assert read_out(out)["memo"].tolist() == ["Não é"]


def test_formula_cells_are_neutralised_in_csv_and_kept_in_parquet(treaty_dir: Path, tmp_path: Path) -> None:
    memos = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3", "-12.50", "plain", "\tx"]
    ledger = tmp_path / "p.csv"
    pd.DataFrame({"income": "interest", "source": ["=1+1", *["MT"] * 6], "residence": "PT", "memo": memos}) \
        .to_csv(ledger, index=False)
    out = tmp_path / "o.csv"
    assert run(treaty_dir, ledger, out).exit_code == 0
    written = read_out(out)
    assert written["memo"].tolist() == ["'" + memos[0], "'" + memos[1], "'@SUM(1)", "'-2+3", "-12.50", "plain", "'\tx"]
    assert written["source"][0] == "'=1+1" and written["status"][0] == "malformed"
    parquet = tmp_path / "o.parquet"
    assert run(treaty_dir, ledger, parquet).exit_code == 0
    assert pd.read_parquet(parquet)["memo"].tolist() == memos


def test_neutralise_on_categories_and_text() -> None:
    cat = pd.Series(pd.Categorical(["=a", "b", "=a", None]))
    assert neutralise(cat).astype(object).tolist()[:3] == ["'=a", "b", "'=a"]
    assert neutralise(pd.Series([1, 2])).tolist() == [1, 2]


def test_export_csv_neutralises_formulas() -> None:
    from taxtreaty.store.export import csv_cell

    assert csv_cell("=cmd") == "'=cmd" and csv_cell("art_10") == "art_10" and csv_cell("-5") == "-5"


def test_empty_file_and_header_only(treaty_dir: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    out = tmp_path / "o.csv"
    result = run(treaty_dir, empty, out)
    assert result.exit_code == 2 and "the file is empty" in result.output
    assert not out.exists()
    header_only = tmp_path / "h.csv"
    header_only.write_text(HEADER + "\n", encoding="utf-8")
    result = run(treaty_dir, header_only, out)
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").strip() == ""  # no row, nothing to write but nothing lost


def test_duplicate_column_is_an_error_naming_it(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text("income,source,residence,amount,amount\ninterest,MT,PT,1,2\n", encoding="utf-8")
    result = run(treaty_dir, ledger, tmp_path / "o.csv")
    assert result.exit_code == 2
    assert "'amount' twice" in result.output


def test_missing_column_hints_at_the_separator(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text("income|source|residence\ninterest|MT|PT\n", encoding="utf-8")
    result = run(treaty_dir, ledger, tmp_path / "o.csv")
    assert result.exit_code == 2 and "missing column 'income'" in result.output


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_report_lists_rejected_rows_and_a_summary(treaty_dir: Path, tmp_path: Path, suffix: str) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text(f"{HEADER}\n{GOOD}\nwages,MT,PT,1,,,,\n{GOOD},x\n", encoding="utf-8")
    report = tmp_path / f"report{suffix}"
    result = run(treaty_dir, ledger, tmp_path / "o.csv", "--report", str(report))
    assert result.exit_code == 0, result.output
    if suffix == ".json":
        data = json.loads(report.read_text(encoding="utf-8"))
        assert data["summary"]["rows"] == 3 and data["summary"]["rejected"] == 2
        assert data["summary"]["statuses"] == {"determined": 1, "malformed": 2}
        assert data["summary"]["csv"]["separator"] == ","
        assert [(r["line"], r["column"]) for r in data["rejected"]] == [(3, "income"), (4, None)]
    else:
        rows = pd.read_csv(report, dtype=str, keep_default_na=False)
        rejected = rows[rows["record"] == "rejected"]
        assert rejected["line"].tolist() == ["3", "4"]
        summary = dict(zip(rows[rows["record"] == "summary"]["column"], rows[rows["record"] == "summary"]["message"],
                           strict=True))
        assert summary["rows"] == "3" and summary["statuses.malformed"] == "2"


def test_strict_exits_1_only_with_rejected_rows(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text(f"{HEADER}\n{GOOD}\n", encoding="utf-8")
    assert run(treaty_dir, ledger, tmp_path / "o.csv", "--strict").exit_code == 0
    ledger.write_text(f"{HEADER}\n{GOOD}\nwages,MT,PT,1,,,,\n", encoding="utf-8")
    assert run(treaty_dir, ledger, tmp_path / "o.csv", "--strict").exit_code == 1


# -- money: one rounding rule ----------------------------------------------------------------------

BOUNDARIES = [("1000.99", "30", 5004), ("1000.99", "10", 12512), ("0.19", "30", 0), ("0.20", "30", 1),
              ("0.07", "10", 0), ("0.08", "10", 1), ("99999999.99", "30", 499999999), ("0", "30", 0)]


@pytest.mark.parametrize(("amount", "capital", "expected"), BOUNDARIES)
def test_withholding_is_rounded_down_everywhere(book, amount: str, capital: str, expected: int) -> None:
    facts = {"income": "dividends", "source": "MT", "residence": "PT", "amount": amount, "beneficial_owner": "yes",
             "recipient": "company", "capital_pct": capital}
    decision = decide(book.treaties[0], facts)
    rate = Decimal("5") if capital == "30" else Decimal("12.5")
    assert decision.max_rate_pct == rate
    minor = int(Decimal(amount) * 100)
    assert decision.withholding_minor == withholding_minor(minor, rate) == expected
    assert expected * 100 <= minor * rate < (expected + 1) * 100  # never above the cap, less than a cent below
    result, _ = LedgerEvaluator(book).evaluate(pd.DataFrame([facts]))
    assert int(result["withholding_minor"][0]) == expected


def test_withholding_the_same_in_ask_and_ledger(treaty_dir: Path, tmp_path: Path) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text(HEADER + "\n" + "\n".join(f"dividends,MT,PT,{a},yes,company,{c},x" for a, c, _ in BOUNDARIES)
                      + "\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    assert run(treaty_dir, ledger, out).exit_code == 0
    assert read_out(out)["withholding_minor"].astype(int).tolist() == [e for _, _, e in BOUNDARIES]
    ask = CliRunner().invoke(app, ["ask", "--treaty", str(treaty_dir / "pt-mt.txt"), "--income", "dividends",
                                   "--source", "MT", "--residence", "PT", "--amount", "1000.99", "--beneficial-owner",
                                   "--recipient", "company", "--capital-pct", "30", "--json"])
    assert ask.exit_code == 0, ask.output
    assert json.loads(ask.output)["max_withholding"] == "50.04"


# -- temporary files ---------------------------------------------------------------------------------

def test_leftovers_of_a_killed_run_are_removed_by_the_next(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from taxtreaty.rules.ledger_write import Writer
        w = Writer({str(tmp_path / "o.csv")!r})
        print(w.temp, flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        temp = Path(proc.stdout.readline().strip())  # type: ignore[union-attr]
        assert temp.exists() and temp.name.startswith(TEMP_PREFIX)
        assert remove_leftovers(tmp_path) == []  # the run is alive: its file is locked, left alone
        proc.kill()
        proc.wait(10)
        assert temp.exists()  # killed outright: nothing could remove it
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    writer = Writer(str(tmp_path / "o.csv"))  # the next run into the same folder
    writer.abort()
    assert not temp.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_sigterm_removes_the_temporary_file(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from taxtreaty.interfaces.cli import exit_on_signals
        from taxtreaty.rules.ledger_write import Writer
        exit_on_signals()
        w = Writer({str(tmp_path / "o.csv")!r})
        try:
            print(w.temp, flush=True)
            time.sleep(60)
        except BaseException:
            w.abort()
            raise
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    temp = Path(proc.stdout.readline().strip())  # type: ignore[union-attr]
    assert temp.exists()
    proc.terminate()
    assert proc.wait(10) != 0
    assert not temp.exists()


@pytest.mark.parametrize("output", ["o.csv", "o.parquet"])
def test_disk_full_while_writing_is_one_line_and_leaves_nothing(treaty_dir: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch, output: str) -> None:
    ledger = tmp_path / "p.csv"
    ledger.write_text(f"{HEADER}\n{GOOD}\n", encoding="utf-8")
    out_dir = tmp_path / "out"
    out_dir.mkdir()

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Writer, "_write_csv" if output.endswith(".csv") else "_write_parquet", full)
    result = run(treaty_dir, ledger, out_dir / output)
    assert result.exit_code == 2
    assert "No space left on device" in result.output and "Traceback" not in result.output
    assert list(out_dir.iterdir()) == []


def test_metadata_suggestion_is_written_beside_the_output(tmp_path: Path) -> None:
    from conftest import seed_path

    treaties = tmp_path / "treaties"
    treaties.mkdir()
    shutil.copy(SYNTHETIC, treaties / "pt-mt.txt")
    shutil.copy(seed_path("000"), treaties / "fragment.txt")  # does not name its States
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    ledger = tmp_path / "p.csv"
    ledger.write_text("income,source,residence\ninterest,CZ,PT\n", encoding="utf-8")
    result = run(treaties, ledger, out_dir / "o.csv")
    assert result.exit_code == 0, result.output
    suggested = out_dir / "treaties-suggested.yaml"
    assert suggested.exists() and not (treaties / "treaties.yaml").exists()
    assert f"--meta {suggested}" in result.output
    suggested.write_text(suggested.read_text(encoding="utf-8").replace("[XX, YY]", "[PT, CZ]"), encoding="utf-8")
    again = run(treaties, ledger, out_dir / "o.csv", "--meta", str(suggested))
    assert again.exit_code == 0, again.output
    assert read_out(out_dir / "o.csv")["treaty"].tolist() == ["fragment.txt"]


def test_dask_engine_reads_ragged_csv_like_local(book, tmp_path: Path) -> None:
    from taxtreaty.rules.dask_engine import run_dask

    ledger = tmp_path / "p.csv"
    ledger.write_text("income;source;residence;amount\n" + "interest;MT;PT;1.000,50\n" * 30 + "interest;MT\n"
                      + "interest;MT;PT;12,5\n" * 30, encoding="utf-8")
    local, dasked = tmp_path / "l.csv", tmp_path / "d.csv"
    a = run_local(str(ledger), LedgerEvaluator(book), str(local), chunk_rows=7)
    b = run_dask(str(ledger), LedgerEvaluator(book), str(dasked), partition_rows=9)
    assert a.rows == b.rows == 61 and a.malformed_count == b.malformed_count == 1
    assert local.read_bytes() == dasked.read_bytes()


# -- scale -------------------------------------------------------------------------------------------

#: the peak resident memory of the process (VmHWM: unlike ru_maxrss, not carried over from
#: the test process that forked it)
_PEAK = """
import sys
sys.path.insert(0, {root!r})
sys.argv = ["taxtreaty", *{args!r}]
from taxtreaty.interfaces.cli import main
try:
    main()
finally:
    status = open("/proc/self/status").read()
    with open({peak!r}, "w") as fh:
        fh.write(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
"""


def _ledger_peak_kb(treaty_dir: Path, ledger: Path, out: Path) -> int:
    peak = out.with_suffix(".peak")
    args = ["ledger", str(ledger), "--treaties", str(treaty_dir), "-o", str(out)]
    done = subprocess.run([sys.executable, "-c", _PEAK.format(root=str(ROOT), args=args, peak=str(peak))],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return int(peak.read_text())


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc to read the peak memory")
def test_a_million_rows_all_come_out_in_bounded_memory(treaty_dir: Path, tmp_path: Path) -> None:
    import numpy as np

    rng = np.random.default_rng(3)
    n = 1_000_000
    amounts = np.char.mod("%.2f", np.round(rng.uniform(0, 1e6, n), 2))
    kinds = np.array(["dividends,MT,PT", "interest,MT,PT", "royalties,PT,MT", "dividends,ES,PT"])[rng.integers(0, 4, n)]
    capital = np.array(["30", "10", ""])[rng.integers(0, 3, n)]
    lines = np.char.add(np.char.add(np.char.add(kinds, ","), amounts), np.char.add(",yes,company,", capital))
    lines = np.char.add(lines, ",m")
    lines[123_457] = "dividends,MT,PT,1,yes"  # one ragged line among a million
    big = tmp_path / "big.csv"
    with open(big, "w", encoding="utf-8") as fh:
        fh.write(HEADER + "\n")
        fh.write("\n".join(lines.tolist()))
        fh.write("\n")
    small = tmp_path / "small.csv"
    with open(big, encoding="utf-8") as src, open(small, "w", encoding="utf-8") as dst:
        for _ in range(300_001):
            dst.write(src.readline())
    out_big, out_small = tmp_path / "big-out.csv", tmp_path / "small-out.csv"
    peak_big = _ledger_peak_kb(treaty_dir, big, out_big)
    peak_small = _ledger_peak_kb(treaty_dir, small, out_small)
    with open(out_big, encoding="utf-8") as fh:
        header = fh.readline()
        assert header.startswith(HEADER + ",treaty,status")
        count = sum(1 for _ in fh)
    assert count == n  # every row out
    status = pd.read_csv(out_big, usecols=["status"], dtype=str)["status"]
    assert status.value_counts()["malformed"] == 1
    # memory is bounded by the chunk (200,000 rows), not the file: 1,000,000 rows (3.3 times as many) take about
    # what 300,000 take; measured 1.2-1.33 times (the allocator's and the collector's timing vary), so the bound
    # is 1.6, well below the 3.3 a memory growing with the file would give
    assert peak_big < 1.6 * peak_small, (peak_big, peak_small)
    assert peak_big < 1_200_000, peak_big  # KB
    print(f"peak RSS: {peak_big // 1024} MB for {n:,} rows, {peak_small // 1024} MB for 300,000 rows")


def test_a_killed_dask_runs_partition_folder_is_removed_by_the_next_run(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        from taxtreaty.rules.ledger_write import locked_temp_dir
        with locked_temp_dir(Path({str(tmp_path)!r})) as folder:
            (folder / "part-00000.parquet").write_bytes(b"x" * 1000)
            print(folder, flush=True)
            time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        folder = Path(proc.stdout.readline().strip())  # type: ignore[union-attr]
        assert folder.is_dir() and remove_leftovers(tmp_path) == []  # in use: kept
        proc.kill()
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert folder.is_dir()
    assert remove_leftovers(tmp_path) == [folder] and not folder.exists()
