"""`taxtreaty provisions FILE [--json | --table] [--parties PT,CN]`.

`--json` prints `{"parties", "provisions", "divergences", "warnings"}` (the `ProvisionSet`);
decimals (`rate_pct`, `min_capital_pct`) are JSON strings ("15", "7.5") so no precision is lost,
dates are ISO strings. `--table` (the default) prints one row per provision.
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from taxtreaty.interfaces.cli.common import CONVENTION_HELP, load_document, parse_parties, print_json
from taxtreaty.provisions import extract_provisions
from taxtreaty.provisions.model import Provision, ProvisionSet
from taxtreaty.rules.conditions import condition_words
from taxtreaty.rules.labels import has, label


def _conditions_text(p: Provision, parties: tuple[str, ...]) -> str:
    return "; ".join(condition_words(p.conditions, parties, p.topic))


def _value_text(p: Provision) -> str:
    if p.status == "unknown":
        return "unknown"
    if p.rate_pct is not None:
        return f"{p.rate_pct}%"
    if p.allocation:
        words = label("allocations", p.allocation) if has("allocations", p.allocation) else p.allocation
        extra = ", ".join(f"{k}={v}" for k, v in p.values.items())
        return words + (f" ({extra})" if extra else "")
    return ", ".join(f"{k}={v}" for k, v in p.values.items())


def render_table(result: ProvisionSet, source: str) -> Table:
    parties = "–".join(result.parties) or "parties unknown"
    table = Table(title=f"{source}: {parties}", show_lines=False, expand=False)
    for column in ("lang", "cite", "topic", "kind", "value", "conditions", "state", "quote / reason"):
        table.add_column(column, overflow="fold")
    for p in result.provisions:
        quote = p.reason if p.status == "unknown" else " ".join(p.cite.quote.split())
        if quote and len(quote) > 100:
            quote = quote[:97] + "..."
        table.add_row(p.cite.language, p.cite.eid, p.topic, p.kind, _value_text(p), _conditions_text(p, tuple(result.parties)),
                      p.state or "", quote or "", style="yellow" if p.status == "unknown" else None)
    return table


def provisions_command(
    file: str = typer.Argument(..., help="Treaty text file, or - for standard input."),
    as_json: bool = typer.Option(False, "--json", help="Print the provisions, divergences and warnings as JSON."),
    as_table: bool = typer.Option(False, "--table", help="Print a table of the provisions (default)."),
    parties: str = typer.Option(None, "--parties", help="Contracting States as ISO codes, e.g. PT,CN."),
    convention: int = typer.Option(None, "--convention", min=1, help=CONVENTION_HELP),
) -> None:
    """Extract what the convention decides (caps, exemptions, allocation, thresholds...), each with its citation."""
    if as_json and as_table:
        raise typer.BadParameter("choose one of --json, --table")
    chosen = parse_parties(parties) if parties else None
    doc = load_document(file, parties, convention)
    result = extract_provisions(doc, chosen)
    if as_json:
        print_json(result.model_dump(mode="json"))
        return
    console = Console(width=200)
    console.print(render_table(result, doc.source.path or "stdin"))
    for d in result.divergences:
        console.print(f"[bold]divergence[/bold] {d.message}")
    for w in result.warnings:
        console.print(f"[dim]warning[/dim] {w.get('message', w)}")


def register(app: typer.Typer) -> None:
    app.command("provisions")(provisions_command)
