"""`taxtreaty check CASES.(yaml|jsonl)... [--treaties DIR_OR_DB]`: golden cases."""

from __future__ import annotations

import typer

from taxtreaty.checks import load_cases, run_cases


def check_command(
    cases: list[str] = typer.Argument(  # noqa: B008 -- typer declares arguments as defaults
        ..., help="Cases files (.yaml, .yml or .jsonl); see docs/testing.md."
    ),
    treaties: str = typer.Option(
        None, "--treaties", help="Folder of treaty files, or the store (database path or URL) for stored ids."
    ),
) -> None:
    """Check expected answers (decisions and extracted provisions) against the treaty texts.

    Prints one line per failing case with the expected and actual values, then "N passed, M
    failed". Exit status: 0 when every case passes, 1 when any fails or cannot run, 2 when a
    cases file is malformed.
    """
    files = [load_cases(path) for path in cases]  # every file validated before anything runs
    report = run_cases(files, treaties=treaties)
    for result in report.failures():
        typer.echo(result.line())
    typer.echo(report.summary_line())
    if report.failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("check")(check_command)
