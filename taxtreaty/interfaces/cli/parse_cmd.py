"""`taxtreaty parse FILE [--json | --akn | --outline]`."""

from __future__ import annotations

import typer

from taxtreaty.interfaces.cli.common import load_document, print_json
from taxtreaty.structure.outline import outline


def parse_command(
    file: str = typer.Argument(..., help="Treaty text file, or - for standard input."),
    as_json: bool = typer.Option(False, "--json", help="Print the document tree as JSON."),
    as_akn: bool = typer.Option(False, "--akn", help="Print Akoma Ntoso 3.0 XML."),
    as_outline: bool = typer.Option(False, "--outline", help="Print one line per article (default)."),
    parties: str = typer.Option(None, "--parties", help="Contracting States when the text does not name them, e.g. PT,CN."),
) -> None:
    """Parse a treaty text into articles, paragraphs and points with Akoma Ntoso ids."""
    if sum([as_json, as_akn, as_outline]) > 1:
        raise typer.BadParameter("choose one of --json, --akn, --outline")
    doc = load_document(file, parties)
    if as_json:
        print_json(doc.to_json_dict())
    elif as_akn:
        from taxtreaty.structure.akn import to_akn

        typer.echo(to_akn(doc))
    else:
        typer.echo(outline(doc))


def register(app: typer.Typer) -> None:
    app.command("parse")(parse_command)
