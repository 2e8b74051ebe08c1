"""`taxtreaty parse FILE [--json | --akn | --outline]`.

`--akn` prints one Akoma Ntoso document: the version alone, or a `documentCollection` of the
language versions (see `taxtreaty.structure.akn`); `--akn --language pt` prints only the
Portuguese one; `--akn --out-dir DIR` writes one file per version. Each expression's
``lifecycle`` holds the signature and the entry into force the text gives (`versions.history`).
"""

from __future__ import annotations

import typer

from taxtreaty.interfaces.cli.common import load_document, print_json
from taxtreaty.structure.outline import outline
from taxtreaty.text import InputError


def _history(doc):  # type: ignore[no-untyped-def]
    """The text's own events (its entry into force, as a decision reads it), or None when the
    text cannot be compiled (a fragment without rules)."""
    from taxtreaty.pipeline import compile_document
    from taxtreaty.versions.history import akn_history

    try:
        return akn_history(compile_document(doc, list(doc.parties) or None, None, None))
    except (InputError, ValueError):
        return None


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
) -> None:
    """Parse a treaty text into articles, paragraphs and points with Akoma Ntoso ids."""
    if sum([as_json, as_akn, as_outline]) > 1:
        raise typer.BadParameter("choose one of --json, --akn, --outline")
    doc = load_document(file, parties)
    if as_json:
        print_json(doc.to_json_dict())
    elif as_akn:
        from taxtreaty.structure.akn import akn_documents, to_akn

        history = _history(doc)
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
