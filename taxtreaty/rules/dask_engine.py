"""`taxtreaty ledger --engine dask`: the same evaluation, partition by partition on a Dask cluster.

The ledger is read as partitioned Parquet (a CSV is first split into Parquet partitions in a
locked temporary folder beside the output, removed on any exit or by the next run if this one
was killed, keeping each row's line number and what was wrong with its record). The compiled `LedgerEvaluator` is sent
once to every worker; each partition is evaluated by `LedgerEvaluator.evaluate` (the very code
the local engine runs) and the results are written in partition order, so the output is
identical row for row to `--engine local`. Without `--scheduler` a small in-process
`LocalCluster` is started (threads, within two cores); with it, the cluster at that address.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from taxtreaty.rules.ledger import LedgerEvaluator
from taxtreaty.rules.ledger_io import CHUNK_ROWS, LedgerReport, Progress
from taxtreaty.rules.ledger_read import LedgerInput
from taxtreaty.rules.ledger_write import ReportWriter, Writer, counts, finish, locked_temp_dir, missing_counts
from taxtreaty.text import InputError

LINE_COLUMN = "__taxtreaty_line"
REJECTED_COLUMN = "__taxtreaty_rejected"


def _evaluate_partition(frame: pd.DataFrame, evaluator: LedgerEvaluator, unit: str,
                        decimal: str, output_decimal: str) -> tuple[pd.DataFrame, list[Any], int]:
    lines = frame[LINE_COLUMN].to_numpy(dtype="int64")
    notes = frame[REJECTED_COLUMN]
    rejected = {int(i): ("", str(notes.iloc[i])) for i in np.flatnonzero(notes.notna().to_numpy())}
    rows = frame.drop(columns=[LINE_COLUMN, REJECTED_COLUMN]).reset_index(drop=True)
    result, bad = evaluator.evaluate(rows, lines, unit, decimal=decimal, rejected=rejected)
    return finish(result, output_decimal), bad, evaluator.decided


def _partitions(source: LedgerInput, folder: Path, rows: int) -> tuple[list[Path], int]:
    """Write the ledger as Parquet partitions, each row with its line/row number and what was
    wrong with its record, if anything."""
    parts: list[Path] = []
    total = 0
    for n, chunk in enumerate(source.chunks(rows)):
        frame = chunk.frame.copy()
        frame[LINE_COLUMN] = chunk.lines
        notes = np.full(len(frame), None, dtype=object)
        for i, (_column, message) in chunk.rejected.items():
            notes[i] = message
        frame[REJECTED_COLUMN] = pd.array(notes, dtype=pd.StringDtype())
        part = folder / f"part-{n:05d}.parquet"
        frame.to_parquet(part, index=False)
        parts.append(part)
        total += len(frame)
    return parts, total


def _client(scheduler: str | None) -> tuple[Any, Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - a declared dependency
        raise InputError("--engine dask needs the 'distributed' package") from None
    if scheduler:
        try:
            return Client(scheduler, timeout="10s"), None
        except (OSError, TimeoutError) as exc:
            raise InputError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
    cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)
    return Client(cluster), cluster


def run_dask(path: str, evaluator: LedgerEvaluator, output: str, scheduler: str | None = None,
             progress: Progress | None = None, partition_rows: int = CHUNK_ROWS, *, separator: str | None = None,
             decimal: str | None = None, encoding: str | None = None, report: ReportWriter | None = None) -> LedgerReport:
    source = LedgerInput(path, separator=separator, decimal=decimal, encoding=encoding)
    writer = Writer(output, source.dialect)
    result = LedgerReport(dialect=source.dialect if source.format == "csv" else None, treaties=len(evaluator.book.treaties))
    output_decimal = source.dialect.decimal if source.format == "csv" else "."
    client = cluster = None
    try:
        with locked_temp_dir(Path(output).resolve().parent) as tmp:  # beside the output, cleaned if killed
            parts, total = _partitions(source, tmp, partition_rows)
            if not parts:
                writer.commit()
                return result
            import dask.dataframe as dd

            frame = dd.read_parquet([str(p) for p in parts])
            client, cluster = _client(scheduler)
            shared = client.scatter(evaluator, broadcast=True)
            delayed_parts = frame.to_delayed()
            import dask

            tasks = [dask.delayed(_evaluate_partition)(part, shared, source.unit, source.dialect.decimal, output_decimal)
                     for part in delayed_parts]
            futures = client.compute(tasks)
            for future in futures:  # in partition order, whatever order they finish in
                chunk, bad, decided = future.result()
                writer.write(chunk)
                result.add(counts(chunk["status"]), bad, len(chunk), missing_counts(chunk))
                if report is not None:
                    report.add(bad)
                result.decided_groups = max(result.decided_groups, decided)
                if progress:
                    progress(result.rows, total)
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    return result
