"""Law over time from the command line (issue 14's "What it must show"): PT–TL's dates, given with
`ask --in-force` or stored with `ingest --in-force`, and dates of effect for a stored treaty id
(`--in-force-from` once failed with "no such file")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import seed_path
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app

INTEREST = ["--income", "interest", "--source", "TL", "--residence", "PT", "--beneficial-owner", "--json"]


def cli(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def pt_tl() -> Path:
    return seed_path("002")  # the Portugal–Timor-Leste convention of ../shared/seeds (skipped without it)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory, pt_tl: Path) -> str:
    path = str(tmp_path_factory.mktemp("pt-tl") / "s.sqlite")
    assert CliRunner().invoke(app, ["ingest", str(pt_tl), "--in-force", "2013-05-01", "--db", path]).exit_code == 0
    return path


def _stored_id(db: str) -> str:
    return next(t["id"] for t in cli("list", "--db", db, "--json") if sorted(t["parties"]) == ["PT", "TL"])


def test_pt_tl_2005_is_not_covered_and_article_31_applies_from_the_entry_into_force_given(pt_tl: Path) -> None:
    early = cli("ask", "--treaty", str(pt_tl), *INTEREST, "--date", "2005-06-01")
    assert early["status"] == "not_covered" and "2011-09-27" in early["reasons"][0]
    given = ["--in-force", "2013-05-01"]
    assert cli("ask", "--treaty", str(pt_tl), *INTEREST, "--date", "2013-06-01", *given)["status"] == "not_covered"
    later = cli("ask", "--treaty", str(pt_tl), *INTEREST, "--date", "2014-01-01", *given)
    assert later["status"] == "determined" and later["version"]["dates"]["entry_into_force"] == "2013-05-01"


def test_a_stored_treaty_keeps_its_entry_into_force_and_takes_dates_of_effect_by_id(db: str) -> None:
    treaty = _stored_id(db)
    assert cli("ask", "--treaty", treaty, "--db", db, *INTEREST, "--date", "2013-06-01")["status"] == "not_covered"
    stored = cli("ask", "--treaty", treaty, "--db", db, *INTEREST, "--date", "2014-01-01")
    assert stored["status"] == "determined" and stored["version"]["dates"]["entry_into_force"] == "2013-05-01"
    window = cli("ask", "--treaty", treaty, "--db", db, *INTEREST, "--date", "2014-01-01", "--in-force-from", "2015-01-01")
    assert window["status"] == "not_covered"
