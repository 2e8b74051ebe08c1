"""`taxtreaty sample`: the main job, end to end, on the built-in synthetic convention.

Parse -> provisions -> one decision with its trace. It is what `scripts/install.sh` runs to show
a fresh installation works; the sample text is invented (see its header), not a real treaty.
"""

from __future__ import annotations

from importlib import resources

import typer
from rich.console import Console

from taxtreaty.interfaces.cli.provisions_cmd import render_table
from taxtreaty.interfaces.cli.rules_cmd import _print_decision
from taxtreaty.provisions import extract_provisions
from taxtreaty.rules import compile_treaty, decide_compiled, scenario_from
from taxtreaty.structure import parse
from taxtreaty.structure.outline import outline

SAMPLE = "sample_convention.txt"
EXAMPLE_SCENARIO = {
    "income": "dividends", "source": "PT", "residence": "IE", "date": "2025-05-01", "amount": "1000.00",
    "beneficial_owner": True, "recipient": "company", "capital_pct": 30, "held_months": 26,
}


def sample_command() -> None:
    """Run parse, provisions and one decision on the built-in sample convention."""
    console = Console(highlight=False)
    data = resources.files("taxtreaty.samples").joinpath(SAMPLE).read_bytes()
    doc = parse(data, path=f"<built-in sample: {SAMPLE}>")
    console.rule("1. structure (taxtreaty parse --outline)")
    typer.echo(outline(doc))
    console.rule("2. withholding caps (taxtreaty provisions)")
    facts = extract_provisions(doc)
    caps = facts.model_copy(update={"provisions": facts.find(kind="withholding_cap")})
    console.print(render_table(caps, SAMPLE))
    console.rule("3. a decision (taxtreaty ask)")
    typer.echo("scenario: " + ", ".join(f"{k}={v}" for k, v in EXAMPLE_SCENARIO.items()))
    decision = decide_compiled(compile_treaty(doc, facts), scenario_from(EXAMPLE_SCENARIO))
    _print_decision(decision.to_dict(), SAMPLE)


def register(app: typer.Typer) -> None:
    app.command("sample")(sample_command)
