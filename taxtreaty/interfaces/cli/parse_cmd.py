"""`taxtreaty parse FILE [--json | --akn | --outline]`.

`--akn` prints one Akoma Ntoso document: the version alone, or a `documentCollection` of the
language versions (see `taxtreaty.structure.akn`); `--akn --language pt` prints only the
Portuguese one; `--akn --out-dir DIR` writes one file per version. Each expression's
``lifecycle`` holds the signature and the entry into force the text gives (`versions.history`);
with `--amendment PROTOCOL` (repeatable) the convention's expression also carries each amending
instrument's taking effect and its passive modifications, as `export --format akn` writes them for
a stored treaty. One file alone knows no instrument that amends it: give them, or ingest both.
"""

from __future__ import annotations

import typer

from taxtreaty.interfaces.cli.common import CONVENTION_HELP, load_document, print_json
from taxtreaty.structure.outline import outline
from taxtreaty.text import InputError


def _history(doc, amendments: list[str] | None = None, amendment_in_force: str | None = None):  # type: ignore[no-untyped-def]
    """The text's own events (its entry into force, as a decision reads it) and those of the amending
    instruments given, with their modifications; None when the text cannot be compiled (a fragment
    without rules) and no instrument is given."""
    from taxtreaty.pipeline import compile_document, with_amendments
    from taxtreaty.rules.scenario import read_date
    from taxtreaty.versions.history import akn_history

    day = read_date("--amendment-in-force", amendment_in_force) if amendment_in_force else None
    try:
        treaty = compile_document(doc, list(doc.parties) or None, None, None)
    except (InputError, ValueError) as exc:
        if amendments:
            raise InputError(f"--amendment needs the convention it amends as FILE: {exc}") from None
        return None
    if amendments:
        treaty = with_amendments(treaty, doc, amendments, day)
    return akn_history(treaty)


def parse_command(
    file: str = typer.Argument(..., help="Treaty text file, or - for standard input."),
    as_json: bool = typer.Option(False, "--json", help="Print the document tree as JSON."),
    as_akn: bool = typer.Option(False, "--akn", help="Print Akoma Ntoso 3.0 XML."),
    as_outline: bool = typer.Option(False, "--outline", help="Print one line per article (default)."),
    parties: str = typer.Option(None, "--parties", help="Contracting States when the text does not name them, e.g. PT,CN."),
    language: str = typer.Option(
        None, "--language", help="With --akn: print only this language version (pt, en, es...)."
    ),
    out_dir: str = typer.Option(None, "--out-dir", help="With --akn: one file per language version in this folder."),
    amendment: list[str] = typer.Option(  # noqa: B008 -- typer declares options as defaults
        None, "--amendment", help="With --akn: an amending instrument of this convention (repeatable): its "
                                  "taking effect and passive modifications go into the convention's metadata."),
    amendment_in_force: str = typer.Option(None, "--amendment-in-force", help="With --amendment: the instruments' "
                                           "entry into force, when their text leaves it open (YYYY-MM-DD)."),
    convention: int = typer.Option(None, "--convention", min=1, help=CONVENTION_HELP),
) -> None:
    """Parse a treaty text into articles, paragraphs and points with Akoma Ntoso ids."""
    if sum([as_json, as_akn, as_outline]) > 1:
        raise typer.BadParameter("choose one of --json, --akn, --outline")
    if (amendment or amendment_in_force) and not as_akn:
        raise typer.BadParameter("--amendment and --amendment-in-force go with --akn")
    doc = load_document(file, parties, convention)
    if as_json:
        print_json(doc.to_json_dict())
    elif as_akn:
        from taxtreaty.structure.akn import akn_documents, to_akn

        history = _history(doc, amendment or None, amendment_in_force)
        if out_dir is not None:
            from pathlib import Path

            from taxtreaty.interfaces.cli.common import write_akn_versions

            documents = akn_documents(doc, history)
            if language is not None:
                to_akn(doc, language=language)  # the one-line error for a language the text lacks
                documents = {k: v for k, v in documents.items() if k.split("_")[0] == language}
            stem = Path(file).stem if file != "-" else "stdin"
            for path in write_akn_versions(documents, out_dir, stem):
                typer.echo(f"wrote {path}", err=True)
            return
        typer.echo(to_akn(doc, language=language, history=history))
    elif out_dir is not None or language is not None:
        raise typer.BadParameter("--language and --out-dir go with --akn")
    else:
        typer.echo(outline(doc))


def register(app: typer.Typer) -> None:
    app.command("parse")(parse_command)
