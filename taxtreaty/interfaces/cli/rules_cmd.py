"""`taxtreaty ask` (one payment) and `taxtreaty ledger` (a payments file), from the rules engine.

    taxtreaty ask --treaty pt-cz.txt --parties PT,CZ --income dividends --source CZ --residence PT \\
        --beneficial-owner --recipient company --capital-pct 30 --held-months 26 --date 1998-05-01
    taxtreaty ask --treaty pt-tl-2011 --scenario payment.json --json      # a stored treaty id
    taxtreaty ledger payments.csv --treaties treaties/ -o decided.parquet --engine dask
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

import typer

from taxtreaty.interfaces.cli.common import CONVENTION_HELP, parse_parties, print_json
from taxtreaty.interfaces.cli.fact_options import schema_keys_help, with_fact_options
from taxtreaty.text import InputError

LEDGER_EXIT_MALFORMED = 1
_FACT_HELP = schema_keys_help()


#: the longest integer a scenario file may hold, in digits (a 100,000-digit number is refused
#: before Python converts it)
_MAX_DIGITS = 40


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise InputError(f"a number of {len(text)} digits (at most {_MAX_DIGITS})")
    return int(text)


def _read_scenario(path: str) -> dict[str, Any]:
    """A scenario JSON file (UTF-8, or UTF-16 / UTF-8 with a byte-order mark), or one line saying
    why it cannot be read."""
    import codecs

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    encoding = "utf-16" if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8-sig"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 (or UTF-16 with a byte-order mark) text") from None
    try:
        parsed = json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    except RecursionError:
        raise InputError(f"{path}: the JSON is nested too deeply to read") from None
    if not isinstance(parsed, dict):
        raise InputError(f"{path}: the scenario must be a JSON object")
    return parsed


def _date_option(value: str | None, name: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise InputError(f"{name} takes a date as YYYY-MM-DD (got {value!r})") from None


def _given(in_force: str | None) -> Any:
    if in_force is None:
        return None
    from taxtreaty.rules.dates import GivenDates

    return GivenDates(entry_into_force=_date_option(in_force, "--in-force"))


def _money(value: str | None, name: str) -> int | None:
    if value is None:
        return None
    from taxtreaty.rules.scenario import read_amount

    try:
        return read_amount(name, value)
    except InputError:
        raise InputError(f"{name} takes an amount such as 280 or 280.50 (got {value!r})") from None


def _load(treaty: str, parties: list[str] | None, in_force: tuple[dt.date | None, dt.date | None] | None,
          db: str | None, amendments: list[str] | None = None, amendment_in_force: dt.date | None = None,
          dates: Any = None, convention: int | None = None) -> Any:
    from taxtreaty.pipeline import load_store, load_treaty
    from taxtreaty.structure import parse_file

    if Path(treaty).exists():
        document = parse_file(treaty, convention) if convention is not None else None
        compiled = load_treaty(document or treaty, parties, in_force, dates=dates)
        if amendments:
            from taxtreaty.pipeline import with_amendments

            compiled = with_amendments(compiled, document or parse_file(treaty), amendments, amendment_in_force)
        return compiled
    if convention is not None:
        raise InputError(f"{treaty}: --convention chooses a convention of a file (a stored treaty is one convention)")
    if amendments:
        raise InputError(f"{treaty}: --amendment needs the convention's file (a stored treaty has its amendments stored with it)")
    try:
        compiled = load_store(db, lambda _m: None, treaty, parties)[0]
    except InputError as exc:
        raise InputError(f"{treaty}: no such file, and not in the treaty store ({exc})") from None
    if dates is not None:
        raise InputError(f"{treaty}: --in-force needs the convention's file (give a stored treaty its entry into force "
                         "with ingest --in-force)")
    if in_force:
        from taxtreaty.rules.compile import InForce

        # the dates of effect the user gives win over those stored, in every version
        for version in compiled.all_versions():
            version.in_force = InForce(in_force[0], in_force[1], [], given_by_user=True)
    return compiled


@with_fact_options
def ask_command(
    treaty: str = typer.Option(..., "--treaty", help="Treaty text file, or the id of a stored treaty."),
    scenario_file: str = typer.Option(None, "--scenario", help="Scenario as a JSON file (- for stdin) instead of the flags."),
    parties: str = typer.Option(None, "--parties", help="Contracting States when the text does not name them, e.g. PT,CZ."),
    in_force_from: str = typer.Option(None, "--in-force-from", help="The convention has effect for payments from this date."),
    in_force_until: str = typer.Option(None, "--in-force-until", help="... and until this date."),
    in_force: str = typer.Option(None, "--in-force", help="The date the convention entered into force, when its text "
                                 "leaves it open (its dates of effect are computed from it)."),
    residence_tax: str = typer.Option(None, "--residence-tax", help="Residence tax before credit on this income: computes the credit."),
    amendment: list[str] = typer.Option(  # noqa: B008 -- typer declares options as defaults
        None, "--amendment", help="An amending protocol of the convention (repeatable): "
                                        "the payment is decided on the version in effect on its date."),
    amendment_in_force: str = typer.Option(None, "--amendment-in-force", help="Entry into force of the amending "
                                           "protocol(s), when their text leaves it open (YYYY-MM-DD)."),
    fact: list[str] = typer.Option(  # noqa: B008 -- typer declares options as defaults
        None, "--fact", help=_FACT_HELP),
    interactive: bool = typer.Option(False, "--interactive", help="Ask the missing facts one by one until the answer is determined."),
    memo: str = typer.Option(None, "--memo", help="Write a decision memo (Markdown) to this file."),
    mli_file: str = typer.Option(None, "--mli", help="MLI positions (YAML, the shape of data/mli/positions.yaml) "
                                 "for this covered agreement: articles 7, 8 and 9 apply from their date of effect (over those a store keeps)."),
    db: str = typer.Option(None, "--db", help="Treaty store (path or URL) for a stored treaty id."),
    as_json: bool = typer.Option(False, "--json", help="Print the decision as JSON."),
    convention: int = typer.Option(None, "--convention", min=1, help=CONVENTION_HELP),
    **facts: Any,
) -> None:
    """Who may tax one payment, at what rate, with what relief, and the words that say so.

    Every fact of a scenario is an option (generated from the fact schema, data/rules/facts.yaml)."""
    from taxtreaty.rules import scenario_from
    from taxtreaty.rules.questions import explain

    given = {k: v for k, v in facts.items() if v is not None}
    if scenario_file is not None:
        if given:
            raise InputError(f"give the scenario either with --scenario or with flags, not both (got --{next(iter(given)).replace('_', '-')})")
        raw = _read_scenario(scenario_file)
    else:
        raw = given
    raw = {**raw, **_fact_pairs(fact or [])}
    facts = scenario_from(raw)
    window = (_date_option(in_force_from, "--in-force-from"), _date_option(in_force_until, "--in-force-until"))
    compiled = _load(treaty, parse_parties(parties) if parties else None, window if any(window) else None, db,
                     amendment or None, _date_option(amendment_in_force, "--amendment-in-force"), _given(in_force),
                     convention)
    if mli_file is not None:
        from taxtreaty.versions.mli import attach

        compiled = attach(compiled, mli_file)
        if compiled.mli is None or not compiled.mli.positions.parties <= set(compiled.parties):
            raise InputError(f"{mli_file}: no positions for {'-'.join(compiled.parties) or 'this convention'}")
    decision = explain(compiled, facts)
    if interactive:
        from taxtreaty.interfaces.cli.interactive import ask_until_determined

        raw, decision = ask_until_determined(lambda given: explain(compiled, scenario_from(given)), raw,
                                             _read_line, lambda line: typer.echo(line, err=as_json))
        facts = scenario_from(raw)
    data = decision.to_dict()
    tax = _money(residence_tax, "--residence-tax")
    if tax is not None:  # the decision stands; the relief part says what it could compute, or why not
        data["relief"] = {**data["relief"], **_credit(decision, tax)}
    if memo:
        from taxtreaty.rules.memo import memo_markdown

        try:
            Path(memo).write_text(memo_markdown(data, facts.to_dict(), compiled.name), encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the memo to {memo}: {exc.strerror}") from None
    if as_json:
        print_json(data)
    else:
        _print_decision(data, compiled.name)


def _credit(decision: Any, residence_tax_minor: int) -> dict[str, Any]:
    """The credit for `--residence-tax`, or `credit: None` and the reason it cannot be computed."""
    from taxtreaty.rules.relief import credit_for_decision

    if decision.withholding_minor is None:
        why = ("the decision has no source-tax cap to credit" if decision.max_rate_pct is None
               else "the credit needs the gross amount (--amount)")
        return {"credit": None, "reason": f"no credit computed: {why}"}
    try:
        return credit_for_decision(decision, decision.withholding_minor, residence_tax_minor)
    except InputError as exc:
        relief = decision.relief or {}
        found = relief.get("reason") or str(exc).removeprefix("relief: ")
        return {"credit": None, "reason": f"no credit computed: {found}"}


def _fact_pairs(pairs: list[str]) -> dict[str, str]:
    """--fact KEY=VALUE -> {key: value} (the scenario's readers check key and value)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--fact takes KEY=VALUE (got {pair!r})")
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def _read_line(prompt: str) -> str | None:
    """One reply from the terminal (or the input fed to it); None at the end of input."""
    try:
        return input(prompt)
    except EOFError:
        return None


def _print_decision(data: dict[str, Any], name: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False)
    status = data["status"]
    colour = {"determined": "green", "indeterminate": "yellow", "not_covered": "red"}[status]
    headline = f"[bold {colour}]{status}[/]"
    if data.get("source_taxation"):
        from taxtreaty.rules.labels import label

        headline += f"  [bold]{label('source_taxation', data['source_taxation'])}[/]"
    if data.get("max_rate_pct") is not None:
        headline += f"  max rate: [bold]{data['max_rate_pct']}%[/]"
    if data.get("article_applied"):
        headline += f"  article {data['article_applied']}"
    if data.get("max_withholding") is not None:
        headline += f"  max withholding: {data['max_withholding']}"
    console.print(f"{escape(name)}: {headline}")
    for n, step in enumerate(data["trace"], start=1):
        # rich would read a bare "[pt]" as markup and drop it, so the language tag is escaped
        console.print(f" {n}. [cyan]{step['eid']}[/] {escape('[' + step['language'] + ']')} {escape(step['effect'])}")
        # a gazette's line breaks (DAR prints a blank line after every line) are not the quote's words
        shown = " ".join(step["quote"].split())
        console.print(f"    [dim]“{escape(shown)}”[/] (chars {step['span'][0]}-{step['span'][1]})")
    if data.get("candidates"):
        console.print("[bold]candidates:[/]")
        for c in data["candidates"]:
            rate = f" {c['max_rate_pct']}%" if c.get("max_rate_pct") is not None else ""
            from taxtreaty.rules.labels import has, label

            words = label("source_taxation", c["source_taxation"]) if has("source_taxation", c["source_taxation"]) else "not known"
            console.print(f"  - {words}{rate} ({c.get('eid') or '-'}) if {escape(c['if'])}")
    for caveat in data.get("caveats") or []:
        console.print(f"[bold]caveat:[/] {escape(caveat.get('label') or caveat['kind'])} ({caveat['eid']}): [dim]“{escape(caveat['quote'])}”[/]")
    for entry in data.get("unread") or []:
        console.print(f"[bold]not read:[/] {entry['eid']}: [dim]“{escape(entry['quote'])}”[/]")
    for question in data.get("questions") or []:
        console.print(f"[bold]to decide, tell:[/] {escape(question['question'])}")
        for answer in question["answers"]:
            console.print(f"    {escape(answer['label'])} → {escape(answer['leads_to']['summary'])}")
    for reason in data["reasons"]:
        console.print(f"[bold]note:[/] {escape(reason)}")
    for a in data.get("assumptions", []):
        console.print(f"[bold]assumed:[/] {escape(a['why'])}")
    relief = data.get("relief") or {}
    if relief:
        where = f" ({relief['eid']})" if relief.get("eid") else ""
        extra = f": credit {relief['credit'] / 100:.2f}" if relief.get("credit") is not None else ""
        why = f" — {escape(relief['reason'])}" if relief.get("reason") else ""
        console.print(f"[bold]relief:[/] {relief.get('method')}{where}{extra}{why}")


def ledger_command(
    payments: str = typer.Argument(..., help="Payments ledger, .csv or .parquet (columns: scenario keys)."),
    treaties: str = typer.Option(..., "--treaties", help="Directory of treaty files, or a treaty store (path or URL)."),
    output: str = typer.Option(..., "-o", "--output", help="Output file, .csv or .parquet."),
    engine: str = typer.Option("local", "--engine", help="local (pandas, one process) or dask."),
    scheduler: str = typer.Option(None, "--scheduler", help="With --engine dask: address of a running scheduler."),
    partition_rows: int = typer.Option(200_000, "--partition-rows", min=1, max=10_000_000, help="Rows per chunk / Dask partition."),
    sep: str = typer.Option(None, "--sep", help="CSV separator: , ; or tab (default: detected from the header)."),
    decimal: str = typer.Option(None, "--decimal", help="Decimal mark of the numbers: . or , (default: detected)."),
    encoding: str = typer.Option(None, "--encoding", help="Text encoding of the CSV (default: detected; UTF-8, UTF-16, Windows-1252, Latin-1)."),
    report_file: str = typer.Option(None, "--report", help="Write every rejected row and a summary to this .json or .csv file."),
    strict: bool = typer.Option(False, "--strict", help="Exit with status 1 when any row was rejected (malformed)."),
    meta: str = typer.Option(None, "--meta", help="Treaty metadata file (parties, dates) to use instead of DIR/treaties.yaml."),
    mli_file: str = typer.Option(None, "--mli", help="MLI positions (YAML, the shape of data/mli/positions.yaml) for "
                                 "the treaties of its pairs (over those a store keeps: ingest --mli)."),
) -> None:
    """Add max rate, withholding, status, article and eId to every row of a payments ledger."""
    from taxtreaty.pipeline import load_book, suggest_metadata
    from taxtreaty.rules.ledger import LedgerEvaluator
    from taxtreaty.rules.ledger_read import check_decimal, check_separator, ledger_format
    from taxtreaty.rules.ledger_write import ReportWriter

    if engine not in ("local", "dask"):
        raise InputError(f"--engine takes local or dask (got {engine!r})")
    if scheduler and engine != "dask":
        raise InputError("--scheduler needs --engine dask")
    ledger_format(payments, "input")
    ledger_format(output, "output")
    separator, mark = check_separator(sep), check_decimal(decimal)
    if not Path(payments).exists():
        raise InputError(f"cannot read {payments}: no such file")
    if Path(payments).resolve() == Path(output).resolve():
        raise InputError("-o would overwrite the ledger itself; choose another output file")
    if meta is not None and not Path(meta).is_file():
        raise InputError(f"--meta {meta}: no such file")
    unnamed: list[str] = []
    book = load_book(treaties, lambda message: typer.echo(f"taxtreaty: warning: {message}", err=True),
                     meta=Path(meta) if meta else None, unnamed=unnamed, mli_file=mli_file)
    if unnamed:
        written = suggest_metadata(unnamed, Path(output).resolve().parent, Path(meta) if meta else None)
        if written is not None:
            typer.echo(f"taxtreaty: note: {len(unnamed)} treaty file(s) do not name their Contracting States; "
                       f"fill in {written} and run again with --meta {written}", err=True)
    evaluator = LedgerEvaluator(book)
    report = ReportWriter(report_file) if report_file else None
    options = {"separator": separator, "decimal": mark, "encoding": encoding, "report": report}
    try:
        with _progress() as progress:
            if engine == "dask":
                from taxtreaty.rules.dask_engine import run_dask

                result = run_dask(payments, evaluator, output, scheduler, progress, partition_rows, **options)
            else:
                from taxtreaty.rules.ledger_io import run_local

                result = run_local(payments, evaluator, output, progress, partition_rows, **options)
        if report is not None:
            report.write(result.summary(payments, output))
    finally:
        if report is not None:
            report.close()
    counts = ", ".join(f"{k} {v}" for k, v in sorted(result.statuses.items()))
    typer.echo(f"{output}: {result.rows} rows ({counts or 'none'}); {len(book.treaties)} treaties; "
               f"{result.decided_groups} distinct cases decided", err=True)
    if result.missing:
        # what would decide the open rows: a column of the ledger for each fact (docs/rules.md lists them)
        needed = ", ".join(f"{fact} ({n} rows)" for fact, n in result.missing.most_common(8))
        more = f" and {len(result.missing) - 8} more" if len(result.missing) > 8 else ""
        typer.echo(f"taxtreaty: note: open rows turn on these facts; add them as columns to decide them: {needed}{more}",
                   err=True)
    for bad in result.malformed[:20]:
        typer.echo(f"taxtreaty: malformed: {payments}: {bad}", err=True)
    if result.malformed_count > 20:
        where = f" and in {report_file}" if report_file else ""
        typer.echo(f"taxtreaty: malformed: ... and {result.malformed_count - 20} more rows (status 'malformed' in {output}{where})", err=True)
    if strict and result.malformed_count:
        raise typer.Exit(LEDGER_EXIT_MALFORMED)


class _progress:
    """A rich progress bar on a terminal; nothing when stderr is redirected."""

    def __enter__(self) -> Any:
        if not sys.stderr.isatty():
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(TextColumn("ledger"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True)
        self._bar.__enter__()
        self._task = self._bar.add_task("rows", total=None)

        def update(done: int, total: int | None) -> None:
            self._bar.update(self._task, completed=done, total=total)

        return update

    def __exit__(self, *exc: object) -> None:
        if hasattr(self, "_bar"):
            self._bar.__exit__(*exc)  # type: ignore[arg-type]


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)
    app.command("ledger")(ledger_command)
