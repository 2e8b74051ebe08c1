"""The ledger: vectorised evaluation equals one decision per row; malformed rows keep their line
number; CSV and Parquet in and out; `--engine dask` gives the same output row for row."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest
from conftest import FIXTURES, seed_path
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app
from taxtreaty.pipeline import load_book
from taxtreaty.rules import decide
from taxtreaty.rules.dask_engine import run_dask
from taxtreaty.rules.ledger import LedgerEvaluator
from taxtreaty.rules.ledger_io import run_local

RULES = FIXTURES / "rules"


@pytest.fixture(scope="module")
def treaty_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("treaties")
    shutil.copy(seed_path("000"), folder / "pt-cz.txt")
    shutil.copy(seed_path("002"), folder / "pt-tl.txt")  # names its parties; provisions from the extractor
    shutil.copy(seed_path("003"), folder / "pt-ve.txt")
    shutil.copy(seed_path("004"), folder / "unnamed.txt")  # no parties anywhere: skipped with a warning
    shutil.copy(RULES / "seed_000.provisions.yaml", folder / "pt-cz.provisions.yaml")
    shutil.copy(RULES / "seed_003.provisions.yaml", folder / "ve-rules.yaml")
    (folder / "treaties.yaml").write_text(
        "pt-cz.txt: {parties: [PT, CZ]}\n"
        "pt-ve.txt: {parties: [PT, VE], provisions: ve-rules.yaml}\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture(scope="module")
def book(treaty_dir):
    warnings: list[str] = []
    result = load_book(str(treaty_dir), warnings.append)
    assert [w.split(":")[0] for w in warnings] == ["unnamed.txt"]
    return result


def random_ledger(n: int, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    pairs = [("CZ", "PT"), ("PT", "CZ"), ("TL", "PT"), ("PT", "TL"), ("VE", "PT"), ("ES", "PT")]
    chosen = rng.integers(0, len(pairs), n)
    return pd.DataFrame({
        "income": rng.choice(["dividends", "interest", "shipping", "pensions", "royalties", "business_profits"], n),
        "source": [pairs[i][0] for i in chosen],
        "residence": [pairs[i][1] for i in chosen],
        "date": rng.choice(["1996-06-01", "1996-12-31", "1997-01-01", "1998-05-01", "", "2024-05-01"], n),
        "amount": rng.choice(["1000", "250.55", "", "0.99", "123456789.01"], n),
        "beneficial_owner": rng.choice(["yes", "no", ""], n),
        "recipient": rng.choice(["company", "individual", "government", "central_bank", ""], n),
        "capital_pct": rng.choice(["30", "24.99", "25", "", "100"], n),
        "held_months": rng.choice(["26", "12", "", "24", "23"], n),
        "pe_connected": rng.choice(["", "no", "yes"], n, p=[0.8, 0.15, 0.05]),
        "payer": rng.choice(["", "government", "company", "local_authority"], n),
        # facts of the schema beyond the first fourteen: read from the same definition
        "voting_pct": rng.choice(["", "10", "25", "60"], n),
        "held_days": rng.choice(["", "100", "365", "400"], n),
        "loan_kind": rng.choice(["", "bank_loan", "bonds", "sale_on_credit"], n),
        "royalty_kind": rng.choice(["", "software", "equipment"], n),
        "recipient_subject_to_tax": rng.choice(["", "yes", "no"], n),
        "main_purpose": rng.choice(["", "no", "yes"], n, p=[0.6, 0.3, 0.1]),
        "invested_currency": rng.choice(["", "USD", "EUR"], n),
        "memo": [f"row {i}" for i in range(n)],
    })


def _none(value):
    return None if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)) else value


def test_vectorised_equals_one_decision_per_row(book):
    ledger = random_ledger(3000)
    result, bad = LedgerEvaluator(book).evaluate(ledger)
    assert bad == []
    assert len(result) == len(ledger)
    assert list(result["memo"]) == list(ledger["memo"])  # other columns pass through, in order
    checked = 0
    for i in range(len(ledger)):
        row = {k: v for k, v in ledger.iloc[i].items() if v != "" and k != "memo"}
        index = book.by_pair.get(frozenset((row["source"], row["residence"])))
        got = result.iloc[i]
        if index is None:
            assert got["status"] == "not_covered"
            continue
        expected = decide(book.treaties[index], row)
        assert got["status"] == expected.status
        assert _none(got["max_rate_pct"]) == (None if expected.max_rate_pct is None else str(expected.max_rate_pct))
        assert _none(got["eid"]) == expected.eid
        assert _none(got["withholding_minor"]) == expected.withholding_minor
        assert _none(got["missing_facts"]) in (None, ",".join(expected.missing_facts))
        checked += 1
    assert checked > 2000


def test_known_rows(book):
    ledger = pd.DataFrame([
        {"income": "dividends", "source": "CZ", "residence": "PT", "date": "1998-05-01", "amount": "1000",
         "beneficial_owner": "yes", "recipient": "company", "capital_pct": "30", "held_months": "26"},
        {"income": "dividends", "source": "VE", "residence": "PT", "date": "1996-06-01", "amount": "250.50",
         "beneficial_owner": "yes", "recipient": "", "capital_pct": "", "held_months": ""},
        {"income": "dividends", "source": "TL", "residence": "PT", "date": "", "amount": "",
         "beneficial_owner": "yes", "recipient": "", "capital_pct": "", "held_months": ""},
    ])
    result, _ = LedgerEvaluator(book).evaluate(ledger)
    assert list(result["status"]) == ["determined", "determined", "indeterminate"]
    assert list(result["max_rate_pct"][:2]) == ["10", "15"]
    assert list(result["withholding_minor"][:2]) == [10000, 3757]
    assert list(result["treaty"]) == ["pt-cz.txt", "pt-ve.txt", "pt-tl.txt"]
    assert "art_10__para_2" in result["reason"][2]


def test_malformed_rows_keep_their_line_numbers(book):
    ledger = random_ledger(10)
    ledger.loc[2, "date"] = "2024-13-01"
    ledger.loc[4, "income"] = "dividend"
    ledger.loc[5, "capital_pct"] = "150"
    ledger.loc[6, "amount"] = "10.001"
    ledger.loc[7, "beneficial_owner"] = "perhaps"
    ledger.loc[8, "source"] = ""
    result, bad = LedgerEvaluator(book).evaluate(ledger, first_line=2)
    assert len(result) == 10
    assert [(b.line, b.column) for b in bad] == [(4, "date"), (6, "income"), (7, "capital_pct"), (8, "amount"),
                                                 (9, "beneficial_owner"), (10, "source")]
    assert list(result["status"][[2, 4, 5, 6, 7, 8]]) == ["malformed"] * 6
    assert result["reason"][2] == "line 4: date: must be a date as YYYY-MM-DD"
    assert "malformed" not in set(result["status"][[0, 1, 3, 9]])


def test_cli_ledger_csv_reports_malformed_rows_and_writes_every_row(treaty_dir, tmp_path):
    ledger = random_ledger(50)
    ledger.loc[10, "held_months"] = "twelve"
    source = tmp_path / "payments.csv"
    ledger.to_csv(source, index=False)
    out = tmp_path / "decided.csv"
    result = CliRunner().invoke(app, ["ledger", str(source), "--treaties", str(treaty_dir), "-o", str(out)])
    assert result.exit_code == 0, result.output  # the run completed: rejected rows are in the output
    assert "line 12: held_months: not a number" in result.output
    strict = CliRunner().invoke(app, ["ledger", str(source), "--treaties", str(treaty_dir), "-o", str(out), "--strict"])
    assert strict.exit_code == 1, strict.output
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert len(written) == 50
    assert written.loc[10, "status"] == "malformed"
    assert {"treaty", "status", "max_rate_pct", "withholding", "article", "eid", "reason"} <= set(written.columns)
    assert set(written["withholding"][written["withholding"] != ""].str.match(r"^\d+\.\d\d$")) == {True}


def test_cli_ledger_parquet_round_trip(treaty_dir, tmp_path):
    ledger = random_ledger(40)
    source = tmp_path / "payments.parquet"
    ledger.to_parquet(source, index=False)
    out = tmp_path / "decided.parquet"
    result = CliRunner().invoke(app, ["ledger", str(source), "--treaties", str(treaty_dir), "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = pd.read_parquet(out)
    assert len(written) == 40 and list(written["memo"]) == list(ledger["memo"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "spark"], "--engine takes local or dask"),
        (["--scheduler", "tcp://x:1"], "--scheduler needs --engine dask"),
    ],
)
def test_cli_ledger_bad_options(treaty_dir, tmp_path, args, message):
    source = tmp_path / "p.csv"
    random_ledger(3).to_csv(source, index=False)
    result = CliRunner().invoke(app, ["ledger", str(source), "--treaties", str(treaty_dir), "-o", str(tmp_path / "o.csv"), *args])
    assert result.exit_code != 0
    assert message in str(result.exception or "") + result.output


def test_missing_column_writes_nothing(book, tmp_path):
    source = tmp_path / "p.csv"
    random_ledger(3).drop(columns=["residence"]).to_csv(source, index=False)
    out = tmp_path / "o.csv"
    with pytest.raises(Exception, match="missing column 'residence'"):
        run_local(str(source), LedgerEvaluator(book), str(out))
    assert list(tmp_path.iterdir()) == [source]  # no output, no temporary file left behind


def test_dask_engine_gives_the_same_output_row_for_row(book, tmp_path):
    ledger = random_ledger(900, seed=11)
    ledger.loc[17, "date"] = "not a date"
    source = tmp_path / "payments.parquet"
    ledger.to_parquet(source, index=False)
    local_out, dask_out = tmp_path / "local.parquet", tmp_path / "dask.parquet"
    local = run_local(str(source), LedgerEvaluator(book), str(local_out), chunk_rows=250)
    dasked = run_dask(str(source), LedgerEvaluator(book), str(dask_out), partition_rows=200)
    assert local.rows == dasked.rows == 900
    assert [str(b) for b in local.malformed] == [str(b) for b in dasked.malformed] == ["row 18: date: must be a date as YYYY-MM-DD"]
    pd.testing.assert_frame_equal(pd.read_parquet(local_out), pd.read_parquet(dask_out))


def test_one_evaluator_over_chunks_with_different_state_orders(book):
    """Decisions are memoised across chunks; State codes differ per chunk and must not leak."""
    evaluator = LedgerEvaluator(book)
    first = pd.DataFrame([{"income": "dividends", "source": "CZ", "residence": "PT", "beneficial_owner": "yes",
                           "recipient": "company", "capital_pct": "30", "held_months": "26", "date": "1998-05-01"}])
    second = pd.DataFrame([{**first.iloc[0].to_dict(), "source": "VE", "residence": "PT", "date": "1996-06-01"},
                           {**first.iloc[0].to_dict(), "source": "PT", "residence": "CZ"}])
    evaluator.evaluate(first)
    result, _ = evaluator.evaluate(second)
    fresh, _ = LedgerEvaluator(book).evaluate(second)
    assert list(result["max_rate_pct"]) == list(fresh["max_rate_pct"]) == ["15", "10"]
    assert list(result["treaty"]) == ["pt-ve.txt", "pt-cz.txt"]


def test_parallel_reading_reports_the_same_first_error(book, monkeypatch):
    ledger = random_ledger(200)
    ledger.loc[3, "date"] = "bad"
    ledger.loc[3, "income"] = "wages"  # two bad values: the income is reported (read first)
    monkeypatch.setattr("taxtreaty.rules.ledger._PARALLEL_ROWS", 1)
    _, parallel = LedgerEvaluator(book).evaluate(ledger)
    monkeypatch.setattr("taxtreaty.rules.ledger._PARALLEL_ROWS", 10**9)
    _, serial = LedgerEvaluator(book).evaluate(ledger)
    assert [str(b) for b in parallel] == [str(b) for b in serial] == [
        "line 5: income: income must be one of " + ", ".join(
            ["dividends", "interest", "royalties", "technical_services", "business_profits", "shipping", "employment", "pensions",
             "directors_fees", "entertainers", "government_service", "students", "teachers", "capital_gains",
             "immovable_property", "other_income"]) + " (got 'wages')"
    ]


def test_partitioned_parquet_directory_in_file_order(book, tmp_path):
    ledger = random_ledger(30)
    folder = tmp_path / "ledger"
    folder.mkdir()
    ledger.iloc[:10].to_parquet(folder / "part-0.parquet", index=False)
    ledger.iloc[10:].to_parquet(folder / "part-1.parquet", index=False)
    out = tmp_path / "o.csv"
    report = run_local(str(folder), LedgerEvaluator(book), str(out), chunk_rows=7)
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert report.rows == 30 and list(written["memo"]) == list(ledger["memo"])


def test_unreadable_parquet_is_a_one_line_error(book, tmp_path):
    from taxtreaty.text import InputError

    bad = tmp_path / "p.parquet"
    bad.write_bytes(b"not parquet at all")
    with pytest.raises(InputError, match="not a readable Parquet file"):
        run_local(str(bad), LedgerEvaluator(book), str(tmp_path / "o.csv"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.parquet"]


@pytest.mark.slow
def test_dask_with_a_scheduler_address_and_worker_processes(book, tmp_path):
    """--scheduler: the compiled evaluator is pickled to a worker process; same output."""
    from distributed import LocalCluster

    ledger = random_ledger(300, seed=5)
    source = tmp_path / "payments.csv"
    ledger.to_csv(source, index=False)
    local_out, dask_out = tmp_path / "local.csv", tmp_path / "dask.csv"
    run_local(str(source), LedgerEvaluator(book), str(local_out))
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        run_dask(str(source), LedgerEvaluator(book), str(dask_out), scheduler=cluster.scheduler_address, partition_rows=100)
    assert dask_out.read_bytes() == local_out.read_bytes()


def test_the_ledger_reads_every_fact_of_the_schema(book):
    """Ledger columns come from data/rules/facts.yaml: every fact is a column the evaluator reads."""
    from taxtreaty.rules.facts import fact_schema

    evaluator = LedgerEvaluator(book)
    read = {"income", "source", "residence", "amount", *evaluator.bucketed, *evaluator.coded}
    assert read == set(fact_schema().keys)
    ledger = pd.DataFrame([{"income": "interest", "source": "CZ", "residence": "PT", "loan_kind": "mortgage"},
                           {"income": "dividends", "source": "CZ", "residence": "PT", "held_days": "99999"},
                           {"income": "dividends", "source": "CZ", "residence": "PT", "date": "20240501"}])
    _, bad = evaluator.evaluate(ledger)
    assert [(b.column, b.message.split(" (")[0]) for b in bad] == [
        ("loan_kind", "loan_kind must be one of bank_loan, sale_on_credit, government_guaranteed, bonds, public_works, intergovernmental, other"),
        ("held_days", "must be between 0 and 73000"), ("date", "must be a date as YYYY-MM-DD")]


def test_the_summary_names_the_facts_the_open_rows_turn_on(treaty_dir, tmp_path):
    # a ledger without some fact's column (beneficial_owner here) leaves rows open; the run says which facts
    # (and how many rows each), the --report summary too, so that the user knows which column to add
    ledger = random_ledger(60).drop(columns=["beneficial_owner"])
    source = tmp_path / "payments.csv"
    ledger.to_csv(source, index=False)
    out, report = tmp_path / "decided.csv", tmp_path / "report.json"
    result = CliRunner().invoke(app, ["ledger", str(source), "--treaties", str(treaty_dir), "-o", str(out),
                                      "--report", str(report)])
    assert result.exit_code == 0, result.output
    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    expected: dict[str, int] = {}
    for joined in written["missing_facts"]:
        for fact in filter(None, joined.split(",")):
            expected[fact] = expected.get(fact, 0) + 1
    assert expected.get("beneficial_owner", 0) > 0
    assert f"beneficial_owner ({expected['beneficial_owner']} rows)" in " ".join(result.output.split())
    assert json.loads(report.read_text(encoding="utf-8"))["summary"]["missing_facts"] == expected


LESSER_OF_SHIPPING = (
    "CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF THE PHILIPPINES\n\n"
    "Article 8\nShipping and Air Transport\n\n"
    "1. Profits derived by an enterprise of one of the States from the operation of ships in international traffic "
    "may be taxed in that State.\n\n"
    "2. However, such profits may also be taxed in the other State. The tax so charged shall not exceed the lesser "
    "of\n\na) the rate of 1½ per cent applied on the gross revenue derived from that other State, or\n\n"
    "b) the lowest rate of Philippine tax applied on such profits derived by an enterprise of a third State.\n")


def test_a_rate_given_for_a_lesser_of_limb_is_read_value_by_value_not_by_buckets():
    # lesser_of_rate_pct is a value the engine uses as it is (facts.yaml `exact`): two rows in one bucket
    # of a threshold would share one answer, here each value has its own, over chunks too
    from taxtreaty.pipeline import compile_text
    from taxtreaty.rules.ledger import TreatyBook

    book = TreatyBook([compile_text(LESSER_OF_SHIPPING, parties=["NL", "PH"])])
    evaluator = LedgerEvaluator(book)
    rows = ["0.5", "1", "1.25", "3", "", "1"]
    ledger = pd.DataFrame({"income": "shipping", "source": "PH", "residence": "NL", "amount": "10000",
                           "lesser_of_rate_pct": rows})
    first, bad = evaluator.evaluate(ledger)
    second, _ = evaluator.evaluate(ledger.iloc[::-1].reset_index(drop=True))
    assert bad == []
    assert [_none(v) for v in first["max_rate_pct"]] == ["0.5", "1", "1.25", "1.5", None, "1"]
    assert list(first["withholding_minor"][:4]) == [5000, 10000, 12500, 15000]
    assert [_none(v) for v in second["max_rate_pct"]] == ["1", None, "1.5", "1.25", "1", "0.5"]
    assert first["missing_facts"][4] == "lesser_of_rate_pct"
    for i, given in enumerate(rows):
        scenario = {"income": "shipping", "source": "PH", "residence": "NL", **({"lesser_of_rate_pct": given} if given else {})}
        expected = decide(book.treaties[0], scenario)
        assert _none(first["max_rate_pct"][i]) == (None if expected.max_rate_pct is None else str(expected.max_rate_pct))
    comma, _ = evaluator.evaluate(pd.DataFrame({"income": ["shipping"], "source": ["PH"], "residence": ["NL"],
                                                "lesser_of_rate_pct": ["1,25"]}), decimal=",")
    assert list(comma["max_rate_pct"]) == ["1.25"]
