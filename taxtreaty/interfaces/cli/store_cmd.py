"""Corpus commands: `ingest`, `list`, `show`, `search`, `compare`, `rates`, `export`.

They all work on one store: `--db PATH|URL`, else `$TAXTREATY_DB`, else the default SQLite file
(see `taxtreaty.store.urls`). Queries never create a store; only `ingest` does.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from taxtreaty.interfaces.cli.common import CONVENTION_HELP, print_json
from taxtreaty.interfaces.cli.tables import FORMAT_HELP, check_format, emit
from taxtreaty.text import InputError

DB_HELP = "Store: a SQLite file path or postgresql:// URL (default: $TAXTREATY_DB, else ~/.local/share/taxtreaty/taxtreaty.sqlite)."
LANG_HELP = "Only this language version (pt, en, es)."
#: the most hits one search prints (the HTTP API's limit is 100)
MAX_SEARCH_LIMIT = 1000



def _out() -> Console:
    # made per call: the width comes from the terminal (or $COLUMNS) of this run; plain lines
    # are never hard-wrapped, so paths and eIds stay whole for grep and copy-paste
    return Console(highlight=False, soft_wrap=True)


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


#: ingest's --convention: N for every file, or FILE=N for one, repeatable
INGEST_CONVENTION_HELP = (f"{CONVENTION_HELP} Repeatable: FILE=N chooses for one file (its path or its name), "
                          "N for every other file.")
AS_OF_HELP = ("The text in effect on this day (YYYY-MM-DD): the convention as amended by the stored "
              "amending instruments that have effect by then.")


def _open(db: str | None, create: bool = False):  # type: ignore[no-untyped-def]
    from taxtreaty.store import Store

    return Store.open(db, create=create)


def _marked(snippet: str) -> str:
    """`**word**` marks from search snippets as rich bold."""
    parts = escape(snippet).split("**")
    return "".join(f"[bold yellow]{p}[/]" if i % 2 else p for i, p in enumerate(parts))


def ingest_command(
    paths: Annotated[list[str] | None, typer.Argument(help="Files, folders (read recursively) or glob patterns.")] = None,
    db: str = typer.Option(None, "--db", help=DB_HELP),
    treaty: str = typer.Option(None, "--treaty", help="Put every file into this treaty id (else grouped automatically)."),
    parties: str = typer.Option(None, "--parties", help="The Contracting States, when the texts do not name them, e.g. PT,CZ."),
    signed: str = typer.Option(None, "--signed", help="The date of signature, YYYY-MM-DD, when the texts do not give it."),
    effect: str = typer.Option(None, "--effect", help="Dates of effect FROM[:UNTIL] (YYYY-MM-DD), when the texts do not give them."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Parsing processes (default: number of CPUs)."),
    in_force: str = typer.Option(None, "--in-force", help="The date these texts entered into force, when they leave it "
                                 "open (YYYY-MM-DD); else `entry_into_force:` in a treaties.yaml beside them."),
    mli_file: str = typer.Option(None, "--mli", help="MLI positions (YAML, the shape of data/mli/positions.yaml) to keep "
                                 "in the store: every surface deciding on its treaties applies them (texts optional)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    convention: Annotated[list[str] | None, typer.Option("--convention", help=INGEST_CONVENTION_HELP)] = None,
) -> None:
    """Add treaty texts to the store (idempotent: files already stored are skipped), and MLI positions (--mli)."""
    from taxtreaty.store.edit import facts_from_options
    from taxtreaty.store.ingest import chosen_per_file, convention_choices, expand_paths

    every, per_file = convention_choices(convention or [])

    if jobs < 0 or jobs > 256:
        raise InputError("--jobs must be 0 (automatic) to 256")
    given = facts_from_options(parties, signed, effect)
    if mli_file is not None:
        stored = _store_mli(db, mli_file)
        if not paths:
            if as_json:
                print_json({"mli": stored})
            else:
                _out().print(f"MLI positions stored for {', '.join(p.replace(',', '–') for p in stored)} (from {escape(mli_file)})")
            return
    paths = paths or []
    from taxtreaty.store.urls import resolve_url, sqlite_path

    own = sqlite_path(resolve_url(db))
    files, missing = expand_paths(paths, [Path(f"{own}{s}") for s in ("", "-wal", "-shm")] if own else [])
    if not files:
        reasons = "; ".join(f"{m.path}: {m.reason}" for m in missing) or "no files"
        raise InputError(f"nothing to ingest ({reasons})")
    chosen_per_file(files, per_file)  # a FILE=N naming no file to ingest is one line, before the store is opened
    store = _open(db, create=True)
    with Progress(TextColumn("ingest"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  TextColumn("{task.description}"), console=_err(), transient=True,
                  disable=as_json or not _err().is_terminal) as progress:
        task = progress.add_task("", total=len(files))

        def advance(path: str, outcome: str) -> None:
            progress.update(task, advance=1, description=f"{outcome}: {path.rsplit('/', 1)[-1]}")

        report = store.ingest(paths, treaty=treaty, processes=jobs or None, progress=advance, in_force=in_force,
                              given=None if given.empty else given, convention=every,
                              conventions=per_file)
    store.close()
    if as_json:
        print_json(report.model_dump(mode="json"))
    else:
        for item in report.added:
            _out().print(f"added    {escape(item.path or '-')} -> {item.treaty}")
        for item in report.skipped:
            _out().print(f"skipped  {escape(item.path or '-')} ({item.reason})")
        for item in report.warnings:
            _err().print(f"warning  {escape(item.path or '-')}: {escape(item.reason or '')}")
        for item in report.rejected:
            _err().print(f"rejected {escape(item.path or '-')}: {escape(item.reason or '')}")
        _out().print(f"{len(report.added)} added, {len(report.skipped)} skipped, {len(report.rejected)} rejected")
    if report.rejected:
        raise typer.Exit(1)


def _store_mli(db: str | None, path: str) -> list[str]:
    """Check the positions file (one line on a bad one) and keep its agreements in the store."""
    from taxtreaty.versions.mli import read_positions

    found = read_positions(path)
    if not found:
        raise InputError(f"{path}: no agreements to store")
    with _open(db, create=True) as store:
        return store.store_mli([p.to_entry() for p in found.values()], Path(path).name)


def edit_command(
    treaty: str = typer.Argument(..., help="Treaty id (or a unique prefix of it)."),
    parties: str = typer.Option(None, "--parties", help="The Contracting States, e.g. PT,CZ."),
    signed: str = typer.Option(None, "--signed", help="The date of signature, YYYY-MM-DD."),
    effect: str = typer.Option(None, "--effect", help="Dates of effect FROM[:UNTIL] (YYYY-MM-DD)."),
    show_history: bool = typer.Option(False, "--history", help="Print the treaty's history of changes."),
    db: str = typer.Option(None, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Change what the texts do not say about a stored treaty (parties, signature, dates of effect); every change is kept in its history."""
    from taxtreaty.store.edit import facts_from_options

    facts = facts_from_options(parties, signed, effect)
    with _open(db) as store:
        changes = [] if facts.empty and show_history else store.edit(treaty, facts)
        past = store.history(treaty) if show_history else []
    if as_json:
        print_json({"changes": [{"field": f, "old": o, "new": n} for f, o, n in changes], "history": past})
        return
    for field, old, new in changes:
        _out().print(f"{escape(field)}: {escape(old or '-')} -> {escape(new or '-')}")
    if not changes and not show_history:
        _out().print("nothing changed (the store already says so)")
    for entry in past:
        _out().print(f"{entry['at']}  {entry['how']:<7} {escape(entry['field'])}: {escape(entry['old'] or '-')} -> "
                     f"{escape(entry['new'] or '-')}")


def list_command(
    db: str = typer.Option(None, "--db", help=DB_HELP),
    country: str = typer.Option(None, "--country", help="Only treaties with this party (ISO code)."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (the full records)."),
) -> None:
    """List the treaties in the store."""
    check_format(fmt)
    with _open(db) as store:
        treaties = store.list_treaties(country)
    if as_json:
        print_json([t.model_dump(mode="json") for t in treaties])
        return
    emit(["treaty", "parties", "signed", "languages", "files", "articles", "title"],
         [[t.id, "–".join(t.parties) or "?", t.signed_date or "?", ",".join(t.languages), t.documents, t.articles,
           t.title] for t in treaties], fmt)


def show_command(
    treaty: str = typer.Argument(..., help="Treaty id (or a unique prefix of it)."),
    article: str = typer.Argument(None, help="Article, optionally with a paragraph: 10 or 10(2)."),
    lang: str = typer.Option(None, "--lang", help=LANG_HELP),
    db: str = typer.Option(None, "--db", help=DB_HELP),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP + " (the list of articles)"),
    as_of: str = typer.Option(None, "--as-of", help=AS_OF_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Show a treaty's articles, or one article's text with citations (language versions side by side)."""
    check_format(fmt)
    if as_of is not None and _show_as_of(treaty, article, lang, db, fmt, as_of, as_json):
        return
    with _open(db) as store:
        if article is None:
            detail = store.get_treaty(treaty)
            if as_json:
                print_json(detail.model_dump(mode="json"))
                return
            _out().print(f"[bold]{escape(detail.title)}[/] ({detail.id}); grouping: {escape(detail.grouping)}")
            for f in detail.files:
                _out().print(f"  file {escape(f.path or '-')} [{','.join(f.languages)}] sha256 {f.sha256[:12]}")
            emit(["lang", "art", "eId", "heading", "topic"],
                 [[a.language, a.number + ("" if a.complete else " (incomplete)"), a.eid, a.heading or "-", a.topic or "-"]
                  for a in detail.article_list if not lang or a.language == lang], fmt)
            return
        view = store.article(treaty, article, lang)
    if as_json:
        print_json(view.model_dump(mode="json"))
        return
    _print_article(view)


def _show_as_of(treaty: str, article: str | None, lang: str | None, db: str | None, fmt: str, as_of: str,
                as_json: bool) -> bool:
    """`show --as-of`: the version in effect on that day; False when the stored text is the only one."""
    from taxtreaty.interfaces.cli.as_of import version_for
    from taxtreaty.store.queries import document_article

    version, name = version_for(db, treaty, as_of)
    if version is None:
        _err().print(f"{escape(name)}: no amending instrument is stored: the stored text is its only version")
        return False
    doc = version.document
    if article is None:
        if as_json:
            print_json({"treaty": name, "version": version.describe(),
                        "articles": [{"language": v.language, "number": a.number, "eid": a.eid, "heading": a.heading,
                                      "topic": a.topic, "amended_by": version.amended.get(a.eid)}
                                     for v in doc.versions for a in v.articles]})
            return True
        (_out() if fmt == "table" else _err()).print(f"[bold]{escape(name)}[/] {escape(version.note())}")
        emit(["lang", "art", "eId", "heading", "topic", "words of"],
             [[v.language, a.number, a.eid, a.heading or "-", a.topic or "-",
               next((src for eid, src in version.amended.items() if eid == a.eid or eid.startswith(a.eid + "__")), "")]
              for v in doc.versions for a in v.articles if not lang or v.language == lang], fmt)
        return True
    view = document_article(doc, name, doc.versions[0].title or name if doc.versions else name, article, lang,
                            version.amended)
    if as_json:
        print_json({**view.model_dump(mode="json"), "version": version.describe()})
        return True
    _out().print(f"[dim]{escape(version.note())}[/]")
    _print_article(view)
    return True


def _print_article(view: Any) -> None:
    _out().print(f"[bold]{escape(view.title)}[/] — Art. {view.article}"
               + (f"({view.paragraph})" if view.paragraph else "")
               + (f"; the {view.prevailing_language} text prevails" if view.prevailing_language else ""))
    table = Table(show_lines=True)
    for version in view.versions:
        note = "" if version.complete else " — incomplete in the source"
        table.add_column(f"\\[{version.language}] {escape(version.heading or '')}{note}", ratio=1)
    rows: dict[str, list[str]] = {}
    order: list[str] = []
    for i, version in enumerate(view.versions):
        for p in version.paragraphs:
            if p.eid not in rows:
                rows[p.eid] = [""] * len(view.versions)
                order.append(p.eid)
            label = f"[dim]{p.eid} · {escape(p.cite.split(',')[0])}[/]"
            rows[p.eid][i] = f"{label}\n{escape(p.text)}" + ("" if p.complete else "\n[red](incomplete)[/]")
    for eid in order:
        table.add_row(*rows[eid])
    _out().print(table)


def search_command(
    query: str = typer.Argument(..., help="Words to find; accents and case do not matter."),
    lang: str = typer.Option(None, "--lang", help=LANG_HELP),
    topic: str = typer.Option(None, "--topic", help="Only articles on this topic (e.g. dividends)."),
    treaty: str = typer.Option(None, "--treaty", help="Only this treaty."),
    limit: int = typer.Option(20, "--limit", help="At most this many hits."),
    db: str = typer.Option(None, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Ranked full-text search across treaties and languages."""
    if not 1 <= limit <= MAX_SEARCH_LIMIT:
        raise InputError(f"--limit takes 1 to {MAX_SEARCH_LIMIT} (got {limit})")
    with _open(db) as store:
        hits = store.search(query, lang=lang, topic=topic, treaty=treaty, limit=limit)
    if as_json:
        print_json([h.model_dump(mode="json") for h in hits])
        return
    if not hits:
        _err().print("no matches")
        raise typer.Exit(1)
    for h in hits:
        via = "" if h.match == "text" else f" (via {h.match})"
        _out().print(f"[bold]{h.treaty}[/] \\[{h.language}] {h.eid} — {escape(h.cite.split(',')[0])}{via}")
        _out().print(f"    {_marked(h.snippet)}")


def compare_command(
    treaty_a: str = typer.Argument(..., help="First treaty id."),
    treaty_b: str = typer.Argument(..., help="Second treaty id."),
    topic: str = typer.Option(None, "--topic", help="Only this topic (e.g. dividends)."),
    as_of: str = typer.Option(None, "--as-of", help=AS_OF_HELP),
    db: str = typer.Option(None, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Compare two treaties article by article, aligned by topic."""
    texts, versions = {}, {}
    if as_of is not None:
        from taxtreaty.interfaces.cli.as_of import compared_text

        for ref in (treaty_a, treaty_b):
            name, found = compared_text(db, ref, as_of)
            if found is not None:
                texts[name], versions[name] = found
            else:
                _err().print(f"{escape(name)}: no amending instrument is stored: the stored text is its only version")
    with _open(db) as store:
        result = store.compare(treaty_a, treaty_b, topic, texts)
    decided = _decided_rates(db, (result.a, result.b), topic, as_of)
    if as_json:
        print_json({**result.model_dump(mode="json"), "decisions": decided,
                    **({"versions": versions} if as_of is not None else {})})
        return
    for name, version in versions.items():
        _out().print(f"[dim]{escape(name)} {escape(version['note'])}[/]")
    _out().print(f"A = {result.a}: {escape(result.a_title)}\nB = {result.b}: {escape(result.b_title)}")
    for t in result.topics:
        _out().print(f"\n[bold]{t.topic}[/]: A art. {t.a.article or '-'} \\[{t.a.language}]  |  "
                   f"B art. {t.b.article or '-'} \\[{t.b.language}]" + ("  (same)" if t.same else ""))
        for label, side in (("A", t.a), ("B", t.b)):
            for f in side.figures:
                if f.kind in ("withholding_cap", "exemption", "threshold") or f.status == "unknown":
                    cite = f"{f.eid} \\[{f.language}]"
                    why = f" — {escape(f.reason)}" if f.reason else ""
                    _out().print(f"  {label}: {f.kind} {f.value} ({escape(f.conditions)}) {cite}{why}")
        for d in t.differences:
            _out().print(f"  [yellow]≠ {escape(d)}[/]")
        if t.diff and not t.same:
            _out().print(f"  diff: {escape(t.diff)}")
    _print_decided(decided, result.a, result.b)


def _decided_rates(db: str | None, refs: tuple[str, str], topic: str | None, as_of: str | None) -> dict[str, list[dict[str, Any]]]:
    """The rate rows of a comparison: the engine's decisions on the canonical payments of each treaty
    in both directions (the cells of `rates`, so compare, rates and ask show one answer)."""
    from taxtreaty.pipeline import load_store
    from taxtreaty.rules.matrix import treaty_cells
    from taxtreaty.rules.scenario import read_date

    day = read_date("--as-of", as_of) if as_of else None
    out: dict[str, list[dict[str, Any]]] = {}
    for ref in refs:
        compiled = load_store(db, lambda message: _err().print(f"[yellow]warning:[/] {escape(message)}"), ref=ref)
        cells = treaty_cells(compiled[0], day, name=ref) if compiled else []
        out[ref] = [c.to_dict() for c in cells if topic is None or c.income == topic]
    return out


def _print_decided(decided: dict[str, list[dict[str, Any]]], a: str, b: str) -> None:
    rows: dict[tuple[str, str], dict[str, list[str]]] = {}
    for ref in (a, b):
        for cell in decided.get(ref, []):
            row = rows.setdefault((cell["income"], cell["variant"]), {a: [], b: []})
            row[ref].append(f"{cell['source']}→{cell['residence']} {cell['shown']}")
    if not rows:
        return
    _out().print("\n[bold]decisions[/] (the engine's answers on canonical payments, as `rates` shows them)")
    for (income, variant), sides in rows.items():
        _out().print(f"  {income}, {escape(variant)}: A {escape(', '.join(sides[a]) or '-')}  |  "
                     f"B {escape(', '.join(sides[b]) or '-')}")


def rates_command(
    country: str = typer.Option(None, "--country", help="Only treaties with this party (ISO code)."),
    fmt: str = typer.Option("table", "--format", help="table, csv, json or markdown."),
    as_of: str = typer.Option(None, "--as-of", help="Payment date the cells answer for (YYYY-MM-DD; default today)."),
    db: str = typer.Option(None, "--db", help=DB_HELP),
) -> None:
    """The rate matrix: the engine's decision for canonical payments, treaty by treaty and by
    direction (source → residence). Every cell is what `ask` answers for the cell's scenario
    (`--format json` gives it), exemptions as 0%."""
    import csv

    from taxtreaty.pipeline import load_store
    from taxtreaty.rules.matrix import COLUMNS, grouped, rate_matrix, to_csv_rows
    from taxtreaty.rules.scenario import read_date, read_state

    if fmt not in ("table", "csv", "json", "markdown"):
        raise InputError(f"unknown --format {fmt!r} (table, csv, json or markdown)")
    code = read_state("--country", country)
    date = read_date("--as-of", as_of)
    with _open(db) as store:
        location = store.url
    warnings: list[str] = []
    cells = rate_matrix(load_store(location, warnings.append), as_of=date, country=code)
    for warning in warnings:
        _err().print(f"warning: {escape(warning)}")
    if fmt == "json":
        print_json([c.to_dict() for c in cells])
        return
    if fmt == "csv":
        from taxtreaty.csvsafe import csv_cell

        header, rows = to_csv_rows(cells)
        writer = csv.writer(sys.stdout)
        writer.writerow(header)
        writer.writerows([[csv_cell(v) for v in row] for row in rows])
        return
    rows = grouped(cells)
    if fmt == "markdown":
        sys.stdout.write("| treaty | source → residence | " + " | ".join(COLUMNS) + " |\n")
        sys.stdout.write("|---|---|" + "---|" * len(COLUMNS) + "\n")
        for row in rows:
            shown = [_md(row["cells"].get(col)) for col in COLUMNS]
            sys.stdout.write(f"| {row['treaty']} | {row['source']} → {row['residence']} | " + " | ".join(shown) + " |\n")
        return
    if not sys.stdout.isatty():  # plain lines, nothing wrapped inside a word
        emit(["treaty", "source → residence", *COLUMNS, "other cases"],
             [[row["treaty"], f"{row['source']} → {row['residence']}",
               *("-" if row["cells"].get(c) is None else row["cells"][c]["shown"] for c in COLUMNS),
               "; ".join(f"{n['variant']}: {n['shown']}" for n in row["notes"])] for row in rows])
        return
    table = Table("treaty", "source → residence", *COLUMNS, "other cases", show_lines=True)
    for row in rows:
        shown = []
        for column in COLUMNS:
            cell = row["cells"].get(column)
            shown.append("-" if cell is None else escape(cell["shown"]) + (f"\n[dim]{cell['eid']}[/]" if cell["eid"] else ""))
        notes = "\n".join(escape(f"{n['variant']}: {n['shown']}") for n in row["notes"])
        table.add_row(row["treaty"], f"{row['source']} → {row['residence']}", *shown, notes)
    _out().print(table)


def _md(cell: dict | None) -> str:  # type: ignore[type-arg]
    if cell is None:
        return "-"
    text = cell["shown"] + (f" ({cell['eid']})" if cell["eid"] else "")
    return text.replace("|", "\\|")


def export_command(
    treaty: str = typer.Argument(..., help="Treaty id."),
    fmt: str = typer.Option("json", "--format", help="akn, json or csv."),
    language: str = typer.Option(None, "--language", help="With --format akn: only this language version (pt, en, es...)."),
    out_dir: str = typer.Option(None, "--out-dir", help="With --format akn: one file per language version in this folder."),
    as_of: str = typer.Option(None, "--as-of", help=AS_OF_HELP),
    db: str = typer.Option(None, "--db", help=DB_HELP),
) -> None:
    """Export a treaty as Akoma Ntoso XML (one document: a version, or a collection of the
    versions), JSON (trees + provisions) or CSV (passages)."""
    if out_dir is not None and fmt != "akn":
        raise InputError("--out-dir goes with --format akn")
    from taxtreaty.interfaces.cli.as_of import export_text

    output, note = export_text(db, treaty, fmt, language, as_of)
    if note:
        _err().print(escape(note))
    if out_dir is not None:
        from taxtreaty.interfaces.cli.common import write_akn_versions
        from taxtreaty.structure.akn import component_documents

        parts = component_documents(output)
        if set(parts) == {"_"}:
            parts = {language or "version": output}
        for path in write_akn_versions(parts, out_dir, treaty):
            _err().print(f"wrote {escape(path)}")
        return
    sys.stdout.write(output if output.endswith("\n") else output + "\n")


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest_command)
    app.command("edit")(edit_command)
    app.command("list")(list_command)
    app.command("show")(show_command)
    app.command("search")(search_command)
    app.command("compare")(compare_command)
    app.command("rates")(rates_command)
    app.command("export")(export_command)
