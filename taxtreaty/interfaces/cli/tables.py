"""Tables on stdout: `--format table|csv|json|markdown`, one emitter for every command.

`table` is a rich table on a terminal; when stdout is a file or a pipe it is plain text, one line
per row, columns padded and separated by two spaces, never wrapped or cut (so `grep` and
`cut` see whole words and ids). `csv` neutralises formula cells (taxtreaty.csvsafe), `json` is a
list of objects keyed by the column names, `markdown` a GitHub table.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence

from taxtreaty.csvsafe import csv_cell
from taxtreaty.text import InputError

FORMATS = ("table", "csv", "json", "markdown")
FORMAT_HELP = "table (plain text when not on a terminal), csv, json or markdown."


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise InputError(f"unknown --format {fmt!r} ({', '.join(FORMATS)})")
    return fmt


def _flat(cell: object) -> str:
    return " / ".join(str(cell).splitlines()) if cell is not None else ""


def plain(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Padded columns, two spaces apart, nothing wrapped; the last column is not padded."""
    table = [[_flat(h) for h in headers], *[[_flat(c) for c in row] for row in rows]]
    widths = [max(len(r[i]) for r in table) for i in range(len(headers))]
    lines = []
    for row in table:
        cells = [c.ljust(widths[i]) if i < len(row) - 1 else c for i, c in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def markdown(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    def cell(value: object) -> str:
        return "<br>".join(("" if value is None else str(value)).splitlines()).replace("|", "\\|")

    out = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def emit(headers: Sequence[str], rows: Sequence[Sequence[object]], fmt: str = "table", title: str | None = None) -> None:
    """Print the table in `fmt` on stdout."""
    check_format(fmt)
    if fmt == "json":
        sys.stdout.write(json.dumps([dict(zip(headers, row, strict=True)) for row in rows], ensure_ascii=False,
                                    indent=2, default=str) + "\n")
    elif fmt == "csv":
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows([[csv_cell("" if c is None else str(c)) for c in row] for row in rows])
    elif fmt == "markdown":
        sys.stdout.write(markdown(headers, rows))
    elif sys.stdout.isatty():
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        table = Table(*headers, title=escape(title) if title else None)
        for row in rows:
            table.add_row(*(escape(_flat(c)) if c is not None else "" for c in row))
        Console(highlight=False).print(table)
    else:
        if title:
            sys.stdout.write(title + "\n")
        sys.stdout.write(plain(headers, rows))
