"""Read a payments ledger in chunks, evaluate it, write the result; never half-written.

CSV is read as text (every value as printed, "" = not given) so that bad values can be
reported with their line number; Parquet keeps its column types. Output goes to a temporary
file beside the target and is renamed into place only when every chunk succeeded.

Added columns: treaty, status, source_taxation, max_rate_pct, withholding (decimal text),
withholding_minor (integer minor units), article, eid, missing_facts, reason.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from taxtreaty.rules.ledger import OUTPUT_COLUMNS, LedgerEvaluator, Malformed, withholding_text
from taxtreaty.text import InputError

CHUNK_ROWS = 200_000
REQUIRED_COLUMNS = ("income", "source", "residence")
Progress = Callable[[int, int | None], None]


@dataclass
class LedgerReport:
    rows: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    malformed: list[Malformed] = field(default_factory=list)
    decided_groups: int = 0


def ledger_format(path: str, role: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".parquet", ".pq") or (role == "input" and Path(path).is_dir()):
        return "parquet"
    raise InputError(f"{role} {path}: expected a .csv or .parquet file")


def count_rows(path: str, fmt: str) -> int | None:
    try:
        if fmt == "parquet":
            return int(pads.dataset(path, format="parquet").count_rows()) if Path(path).is_dir() else pq.ParquetFile(path).metadata.num_rows
        with open(path, "rb") as fh:
            lines = sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
        return max(lines - 1, 0)
    except (OSError, pa.ArrowException):
        return None


def _check_columns(columns: list[str], path: str) -> None:
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise InputError(f"{path}: missing column {missing[0]!r} (a ledger needs {', '.join(REQUIRED_COLUMNS)})")
    clash = [c for c in (*OUTPUT_COLUMNS, "withholding") if c in columns]
    if clash:
        raise InputError(f"{path}: the ledger already has a column {clash[0]!r} that the output would overwrite")


def read_chunks(path: str, fmt: str, rows: int = CHUNK_ROWS) -> Iterator[tuple[pd.DataFrame, int]]:
    """(chunk, number of its first row: CSV line or Parquet row)."""
    if not Path(path).exists():
        raise InputError(f"cannot read {path}: no such file")
    if fmt == "csv":
        try:
            reader = pd.read_csv(path, dtype=str, keep_default_na=False, chunksize=rows, encoding="utf-8-sig")
            line = 2
            first = True
            for chunk in reader:
                if first:
                    _check_columns(list(chunk.columns), path)
                    first = False
                yield chunk, line
                line += len(chunk)
            if first:
                raise InputError(f"{path}: the ledger has no rows")
        except pd.errors.EmptyDataError:
            raise InputError(f"{path}: the file is empty") from None
        except pd.errors.ParserError as exc:
            raise InputError(f"{path}: malformed CSV: {str(exc).strip().splitlines()[-1]}") from None
        except UnicodeDecodeError:
            raise InputError(f"{path}: not UTF-8 text") from None
        return
    try:
        if Path(path).is_dir():  # a partitioned ledger: its files in name order, rows in file order
            dataset = pads.dataset(path, format="parquet")
            _check_columns(list(dataset.schema.names), path)
            fragments = sorted(dataset.get_fragments(), key=lambda f: f.path)
            batches: Iterator[pa.RecordBatch] = (
                batch for fragment in fragments for batch in fragment.to_batches(batch_size=rows, use_threads=False)
            )
        else:
            single = pq.ParquetFile(path)
            _check_columns(list(single.schema_arrow.names), path)
            batches = single.iter_batches(batch_size=rows)
        row = 1
        for batch in batches:
            frame = batch.to_pandas()
            yield frame, row
            row += len(frame)
    except pa.ArrowException as exc:
        raise InputError(f"{path}: not a readable Parquet file ({str(exc).splitlines()[0]})") from None


def finish(result: pd.DataFrame) -> pd.DataFrame:
    """The evaluated chunk in its written form (withholding as decimal text next to the minor units)."""
    position = list(result.columns).index("withholding_minor")
    result.insert(position, "withholding", withholding_text(result["withholding_minor"]))
    return result


class Writer:
    """Appends evaluated chunks to a temporary file; `commit` renames it onto the target."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.format = ledger_format(path, "output")
        folder = Path(path).resolve().parent
        if not folder.is_dir():
            raise InputError(f"-o {path}: no such directory {folder}")
        handle, self.temp = tempfile.mkstemp(prefix=".taxtreaty-ledger-", suffix=Path(path).suffix, dir=folder)
        os.close(handle)
        self._parquet: pq.ParquetWriter | None = None
        self._schema: pa.Schema | None = None
        self._first = True

    def write(self, frame: pd.DataFrame) -> None:
        if self.format == "csv":
            frame.to_csv(self.temp, mode="w" if self._first else "a", header=self._first, index=False)
        else:
            # without pandas metadata: the file's types alone decide how it reads back, whichever
            # engine (pandas or Dask, with their own string dtypes) produced the frame
            table = pa.Table.from_pandas(_plain(frame), preserve_index=False).replace_schema_metadata(None)
            if self._parquet is None:
                self._schema = table.schema
                self._parquet = pq.ParquetWriter(self.temp, self._schema)
            self._parquet.write_table(table.cast(self._schema))
        self._first = False

    def commit(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
        os.replace(self.temp, self.path)

    def abort(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
        if os.path.exists(self.temp):
            os.unlink(self.temp)


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """Categoricals as plain strings, so every chunk has the same Parquet schema."""
    out = frame.copy()
    for name in (*OUTPUT_COLUMNS, "withholding"):
        if name in out.columns and name != "withholding_minor":
            out[name] = out[name].astype(object).where(out[name].notna(), None)
            out[name] = pd.array(out[name], dtype=pd.StringDtype())
    return out


def run_local(path: str, evaluator: LedgerEvaluator, output: str, progress: Progress | None = None,
              chunk_rows: int = CHUNK_ROWS) -> LedgerReport:
    fmt = ledger_format(path, "input")
    writer = Writer(output)
    report = LedgerReport()
    total = count_rows(path, fmt) if progress else None
    try:
        for chunk, first in read_chunks(path, fmt, chunk_rows):
            result, bad = evaluator.evaluate(chunk, first, "line" if fmt == "csv" else "row")
            writer.write(finish(result))
            report.rows += len(chunk)
            report.statuses.update(result["status"].astype(str).value_counts().to_dict())
            report.malformed.extend(bad)
            if progress:
                progress(report.rows, total)
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    report.decided_groups = evaluator.decided
    return report
