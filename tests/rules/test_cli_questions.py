"""`taxtreaty ask`: any fact with --fact, the missing facts asked in the user's words, --interactive
until the answer is determined (stdin fed as a terminal would be), and --memo (issue 12)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CORPUS
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app, main
from taxtreaty.rules.facts import fact_schema

LV = CORPUS / "nl" / "NL-LV_convention_EN.txt"
ROYALTY = ["--income", "royalties", "--source", "LV", "--residence", "NL", "--beneficial-owner", "--date", "2024-05-01"]

pytestmark = pytest.mark.skipif(not LV.exists(), reason="../shared/corpus is not beside the repository")


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def ask(*args: str, stdin: str | None = None):
    return CliRunner().invoke(app, ["ask", "--treaty", str(LV), *args], input=stdin)


def flat(text: str) -> str:
    """The output as one line of words (the terminal wraps long lines; colours aside)."""
    return " ".join(ANSI.sub("", text).split())


def test_missing_facts_are_asked_in_the_users_words_with_what_each_answer_leads_to() -> None:
    result = ask(*ROYALTY)
    assert result.exit_code == 0, result.output
    words = flat(result.output)
    assert fact_schema()["royalty_kind"].question in words
    assert "the use of, or the right to use, industrial, commercial or scientific equipment → " in words
    assert "missing facts:" not in words and "unread_condition" not in words
    data = json.loads(ask(*ROYALTY, "--json").output)
    (question,) = data["questions"]
    assert question["fact"] == "royalty_kind"
    leads = {a["values"][0]: a["leads_to"]["max_rate_pct"] for a in question["answers"]}
    assert leads["equipment"] == "5" and leads["copyright"] == "10"


def test_any_fact_of_the_schema_with_fact_and_a_bad_one_is_one_line(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    result = ask(*ROYALTY, "--fact", "royalty_kind=equipment", "--json")
    data = json.loads(result.output)
    assert (data["status"], data["max_rate_pct"]) == ("determined", "5")
    monkeypatch.setattr("sys.argv", ["taxtreaty", "ask", "--treaty", str(LV), *ROYALTY, "--fact", "colour=red"])
    with pytest.raises(SystemExit) as info:
        main()
    err = capsys.readouterr().err
    assert info.value.code == 2 and "colour" in err and err.count("\n") == 1 and "Traceback" not in err


def test_interactive_asks_until_the_answer_is_determined() -> None:
    schema = fact_schema()["royalty_kind"]
    number = list(schema.choices).index("equipment") + 1
    result = ask(*ROYALTY, "--interactive", stdin=f"{number}\n")
    assert result.exit_code == 0, result.output
    words = flat(result.output)
    assert schema.question in words
    assert "determined" in words and "max rate: 5%" in words


def test_interactive_a_bad_reply_is_asked_again_and_the_end_of_input_stops() -> None:
    result = ask(*ROYALTY, "--interactive", stdin="spaceships\n")
    assert result.exit_code == 0, result.output
    words = flat(result.output)
    assert "try again" in words and "no more input" in words and "indeterminate" in words


def test_interactive_on_a_pseudo_terminal() -> None:
    """The real command on a terminal: the question appears, the reply is typed, the answer follows."""
    main, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "COLUMNS": "200", "NO_COLOR": "1"}
    process = subprocess.Popen([sys.executable, "-c", "from taxtreaty.interfaces.cli import main; main()", "ask", "--treaty", str(LV), *ROYALTY,
                                "--interactive"], stdin=child, stdout=child, stderr=child, env=env, close_fds=True)
    os.close(child)
    seen = b""

    def read_until(marker: bytes, limit: float = 120.0) -> None:
        nonlocal seen
        end = time.monotonic() + limit
        while marker not in seen and time.monotonic() < end:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(main, 4096)
                except OSError:
                    return

    read_until(b"> ")
    assert fact_schema()["royalty_kind"].question in flat(seen.decode(errors="replace"))
    os.write(main, f"{list(fact_schema()['royalty_kind'].choices).index('equipment') + 1}\n".encode())
    read_until(b"max rate")
    process.wait(timeout=60)
    os.close(main)
    assert "max rate: 5%" in flat(seen.decode(errors="replace")), seen.decode(errors="replace")[-2000:]


def test_memo_says_the_answer_the_words_the_facts_and_the_open_questions(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    result = ask(*ROYALTY, "--memo", str(memo))
    assert result.exit_code == 0, result.output
    text = memo.read_text(encoding="utf-8")
    for heading in ("# Royalties paid from LV to a resident of NL", "## Answer", "## The words of the convention",
                    "## Facts given", "## Open questions"):
        assert heading in text
    assert fact_schema()["royalty_kind"].question in text
    assert "the recipient is the beneficial owner of the income" in text  # the fact given, in words
    for raw in ("None", "True", "False", "royalty_kind", "beneficial_owner"):
        assert raw not in text.replace("royalty_kind=", ""), raw
    determined = tmp_path / "determined.md"
    ask(*ROYALTY, "--fact", "royalty_kind=equipment", "--memo", str(determined))
    words = determined.read_text(encoding="utf-8")
    assert "at most 5%" in words and "> " in words and "art_12__para_2__point_a" in words
