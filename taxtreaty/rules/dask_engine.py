"""`taxtreaty ledger --engine dask`: the same evaluation, partition by partition on a Dask cluster.

The ledger is read as partitioned Parquet (a CSV is first split into Parquet partitions in a
temporary directory, keeping each row's line number). The compiled `LedgerEvaluator` is sent
once to every worker; each partition is evaluated by `LedgerEvaluator.evaluate` (the very code
the local engine runs) and the results are written in partition order, so the output is
identical row for row to `--engine local`. Without `--scheduler` a small in-process
`LocalCluster` is started (threads, within two cores); with it, the cluster at that address.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from taxtreaty.rules.ledger import LedgerEvaluator
from taxtreaty.rules.ledger_io import (
    CHUNK_ROWS,
    LedgerReport,
    Progress,
    Writer,
    finish,
    ledger_format,
    read_chunks,
)
from taxtreaty.text import InputError

LINE_COLUMN = "__taxtreaty_line"


def _evaluate_partition(frame: pd.DataFrame, evaluator: LedgerEvaluator, unit: str) -> tuple[pd.DataFrame, list[Any], int]:
    first = int(frame[LINE_COLUMN].iloc[0]) if len(frame) else 1
    result, bad = evaluator.evaluate(frame.drop(columns=[LINE_COLUMN]).reset_index(drop=True), first, unit)
    return finish(result), bad, evaluator.decided


def _partitions(path: str, fmt: str, folder: Path, rows: int) -> tuple[list[Path], int]:
    """Write the ledger as Parquet partitions, each row with its line/row number."""
    parts: list[Path] = []
    total = 0
    for n, (chunk, first) in enumerate(read_chunks(path, fmt, rows)):
        chunk = chunk.copy()
        chunk[LINE_COLUMN] = range(first, first + len(chunk))
        part = folder / f"part-{n:05d}.parquet"
        chunk.to_parquet(part, index=False)
        parts.append(part)
        total += len(chunk)
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
             progress: Progress | None = None, partition_rows: int = CHUNK_ROWS) -> LedgerReport:
    fmt = ledger_format(path, "input")
    unit = "line" if fmt == "csv" else "row"
    writer = Writer(output)
    report = LedgerReport()
    client = cluster = None
    try:
        with tempfile.TemporaryDirectory(prefix="taxtreaty-ledger-") as tmp:
            parts, total = _partitions(path, fmt, Path(tmp), partition_rows)
            import dask.dataframe as dd

            frame = dd.read_parquet([str(p) for p in parts])
            client, cluster = _client(scheduler)
            shared = client.scatter(evaluator, broadcast=True)
            delayed_parts = frame.to_delayed()
            import dask

            tasks = [dask.delayed(_evaluate_partition)(part, shared, unit) for part in delayed_parts]
            futures = client.compute(tasks)
            for future in futures:  # in partition order, whatever order they finish in
                result, bad, decided = future.result()
                writer.write(result)
                report.rows += len(result)
                report.statuses.update(result["status"].astype(str).value_counts().to_dict())
                report.malformed.extend(bad)
                report.decided_groups = max(report.decided_groups, decided)
                if progress:
                    progress(report.rows, total)
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    return report
