"""Run a ledger: read it in chunks, evaluate each chunk, write the result. One implementation
for `taxtreaty ledger` and `POST /ledger`.

`run_ledger(source, book, writer)` is the loop both call: a `LedgerInput` (ledger_read.py)
gives chunks, a `LedgerEvaluator` over the `TreatyBook` decides them (ledger.py), a `Writer`
(ledger_write.py) writes them. Every input row gives one output row, in order: decided, or
`malformed` with its line and what was wrong. `book` is a TreatyBook, or a function of the
(source, residence) pairs the ledger names that returns one (the HTTP server compiles only
the treaties a ledger needs); with a function the ledger is read twice.

Added columns: treaty, status, source_taxation, max_rate_pct, withholding (decimal text),
withholding_minor (integer minor units), article, eid, missing_facts, reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from taxtreaty.rules.ledger import LedgerEvaluator, TreatyBook
from taxtreaty.rules.ledger_columns import Malformed
from taxtreaty.rules.ledger_read import CHUNK_ROWS, Dialect, LedgerInput, ledger_format
from taxtreaty.rules.ledger_write import ReportWriter, Writer, counts, finish, missing_counts

Progress = Callable[[int, int | None], None]
BookFor = Callable[[set[tuple[str, str]]], TreatyBook]
#: malformed rows kept in memory for the report on stderr (all of them go to --report)
KEEP_MALFORMED = 1000

__all__ = ["CHUNK_ROWS", "LedgerReport", "Writer", "finish", "ledger_format", "run_ledger", "run_local"]


@dataclass
class LedgerReport:
    rows: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    #: how many rows each missing fact leaves open (a column the ledger could add)
    missing: Counter[str] = field(default_factory=Counter)
    #: the first KEEP_MALFORMED malformed rows
    malformed: list[Malformed] = field(default_factory=list)
    malformed_count: int = 0
    decided_groups: int = 0
    treaties: int = 0
    dialect: Dialect | None = None

    def add(self, statuses: dict[str, int], bad: list[Malformed], rows: int, missing: dict[str, int] | None = None) -> None:
        self.rows += rows
        self.statuses.update(statuses)
        self.missing.update(missing or {})
        self.malformed_count += len(bad)
        self.malformed.extend(bad[: max(0, KEEP_MALFORMED - len(self.malformed))])

    def summary(self, source: str, output: str | None) -> dict[str, Any]:
        return {
            "input": source, "output": output, "rows": self.rows,
            "statuses": {k: self.statuses[k] for k in sorted(self.statuses) if k},
            "missing_facts": dict(self.missing.most_common()),
            "rejected": self.malformed_count, "treaties": self.treaties, "distinct_cases_decided": self.decided_groups,
            **({"csv": self.dialect.describe()} if self.dialect else {}),
        }


def pairs_of(source: LedgerInput, chunk_rows: int = CHUNK_ROWS) -> set[tuple[str, str]]:
    """The (source, residence) pairs of ISO-looking codes the ledger names."""
    found: set[tuple[str, str]] = set()
    for chunk in source.chunks(chunk_rows):
        frame = chunk.frame
        if "source" not in frame.columns or "residence" not in frame.columns:
            continue
        a = frame["source"].astype("string").str.strip().str.upper()
        b = frame["residence"].astype("string").str.strip().str.upper()
        both = (a.str.len() == 2) & (b.str.len() == 2)
        pairs = (a[both.fillna(False)] + "," + b[both.fillna(False)]).unique()
        found.update(tuple(p.split(",")) for p in pairs if isinstance(p, str))  # type: ignore[misc]
    return found


def run_ledger(source: LedgerInput, book: TreatyBook | BookFor | LedgerEvaluator, writer: Writer, *,
               progress: Progress | None = None, chunk_rows: int = CHUNK_ROWS,
               report: ReportWriter | None = None) -> LedgerReport:
    """Every row of `source`, decided, into `writer` (committed at the end, removed on any error)."""
    result = LedgerReport(dialect=source.dialect if source.format == "csv" else None)
    try:
        if isinstance(book, LedgerEvaluator):
            evaluator = book
        else:
            evaluator = LedgerEvaluator(book if isinstance(book, TreatyBook) else book(pairs_of(source, chunk_rows)))
        result.treaties = len(evaluator.book.treaties)
        total = source.count_rows() if progress else None
        decimal = source.dialect.decimal
        for chunk in source.chunks(chunk_rows):
            frame, bad = evaluator.evaluate(chunk.frame, chunk.lines, source.unit, decimal=decimal, rejected=chunk.rejected)
            writer.write(finish(frame, decimal if source.format == "csv" else "."))
            result.add(counts(frame["status"]), bad, len(frame), missing_counts(frame))
            if report is not None:
                report.add(bad)
            if progress:
                progress(result.rows, total)
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    result.decided_groups = evaluator.decided
    return result


def run_local(path: str, evaluator: LedgerEvaluator, output: str, progress: Progress | None = None,
              chunk_rows: int = CHUNK_ROWS, *, separator: str | None = None, decimal: str | None = None,
              encoding: str | None = None, report: ReportWriter | None = None) -> LedgerReport:
    """`taxtreaty ledger --engine local`: the ledger at `path` into the file `output`."""
    source = LedgerInput(path, separator=separator, decimal=decimal, encoding=encoding)
    writer = Writer(output, source.dialect)
    return run_ledger(source, evaluator, writer, progress=progress, chunk_rows=chunk_rows, report=report)

