"""`taxtreaty parse FILE [--json | --akn | --outline]`.

`--akn` prints one Akoma Ntoso document per language version, one after another (see
`taxtreaty.structure.akn` for why); `--akn --language pt` prints only the Portuguese one.
"""

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
    language: str = typer.Option(
        None, "--language", help="With --akn: print only this language version (pt, en, es...)."
    ),
) -> None:
    """Parse a treaty text into articles, paragraphs and points with Akoma Ntoso ids."""
    if sum([as_json, as_akn, as_outline]) > 1:
        raise typer.BadParameter("choose one of --json, --akn, --outline")
    doc = load_document(file, parties)
    if as_json:
        print_json(doc.to_json_dict())
    elif as_akn:
        from taxtreaty.structure.akn import to_akn

        typer.echo(to_akn(doc, language=language))
    else:
        typer.echo(outline(doc))


def register(app: typer.Typer) -> None:
    app.command("parse")(parse_command)
