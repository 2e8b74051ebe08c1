"""`taxtreaty sample` (what scripts/install.sh runs) works end to end on the built-in convention."""

from __future__ import annotations

import subprocess
import sys


def test_sample_runs_parse_provisions_and_a_decision() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "from taxtreaty.interfaces.cli import main; main()", "sample"],
        capture_output=True, text=True, timeout=120, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # structure: the sample's parties and its dividends article with a topic
    assert "PT–IE" in out
    assert "art_10" in out and "dividends" in out
    # the decision: a 30% holding for 26 months selects the 5% cap of Art. 10(2)(a), with the relief article
    assert "determined" in out
    assert "max rate: 5%" in out
    assert "art_10__para_2__point_a" in out
    assert "relief:" in out and "credit" in out
    assert "Traceback" not in result.stderr
