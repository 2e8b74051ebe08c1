"""Write an evaluated ledger: CSV or Parquet, to a file (never half-written) or to a stream.

- A file is written to a hidden temporary file beside it (`.taxtreaty-ledger-*`), held under an
  exclusive lock while written, and renamed onto the target only when every chunk succeeded;
  on any error it is removed. A run killed outright cannot remove it: the next run into the
  same folder removes every such file whose lock no process holds (`remove_leftovers`).
- CSV output keeps the input's separator and decimal mark (in `max_rate_pct` and
  `withholding`), is UTF-8 (with a byte-order mark when the input had one or was not UTF-8,
  so a spreadsheet reads it as it read the input), and neutralises cells a spreadsheet would
  run as a formula (`neutralise`). Parquet keeps every value as it is.
- `ReportWriter` writes `--report FILE`: every rejected row and a summary, as JSON or CSV.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from taxtreaty.csvsafe import FORMULA_STARTS, PLAIN_NUMBER
from taxtreaty.rules.ledger import OUTPUT_COLUMNS, withholding_text
from taxtreaty.rules.ledger_columns import Malformed
from taxtreaty.rules.ledger_read import Dialect, external_name, ledger_format
from taxtreaty.text import InputError

TEMP_PREFIX = ".taxtreaty-ledger-"
_RISKY_START = "^[" + "".join("\\" + c if c in "-+" else c for c in FORMULA_STARTS) + "]"

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: leftovers are not detected
    fcntl = None  # type: ignore[assignment]


def neutralise(series: pd.Series) -> pd.Series:
    """`taxtreaty.csvsafe.csv_cell` on a column: cells a spreadsheet would execute get a leading
    apostrophe. Categorical columns are fixed in their categories only (a handful of values for
    a million rows); arrow text is checked with one regex pass."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        categories = series.cat.categories
        if len(categories) == 0 or (categories.dtype.kind not in "OU" and str(categories.dtype) != "str"):
            return series
        fixed = neutralise(pd.Series(categories.astype(object), dtype=object))
        if fixed.equals(pd.Series(categories.astype(object), dtype=object)):
            return series
        return series.cat.rename_categories(list(fixed))
    if not (series.dtype == object or isinstance(series.dtype, pd.StringDtype) or str(series.dtype) == "str"):
        return series
    arrow = getattr(series.array, "_pa_array", None)
    if arrow is not None:  # one regex pass in Arrow; most columns have no such cell at all
        import pyarrow.compute as pc

        if not pc.any(pc.match_substring_regex(arrow, _RISKY_START)).as_py():
            return series
    text = series.astype("string")
    risky = text.str.startswith(FORMULA_STARTS).fillna(False) & ~text.str.fullmatch(PLAIN_NUMBER).fillna(False)
    if not risky.any():
        return series
    out = series.astype(object).copy()
    out[risky.to_numpy()] = "'" + text[risky].astype(object)
    return out


def finish(result: pd.DataFrame, decimal: str = ".") -> pd.DataFrame:
    """The evaluated chunk in its written form (withholding as decimal text next to the minor
    units; the decimal mark of the input in the two decimal columns)."""
    position = list(result.columns).index("withholding_minor")
    result.insert(position, "withholding", withholding_text(result["withholding_minor"]))
    if decimal != ".":
        result["withholding"] = result["withholding"].str.replace(".", decimal, regex=False)
        rates = result["max_rate_pct"]
        result["max_rate_pct"] = rates.cat.rename_categories([str(c).replace(".", decimal) for c in rates.cat.categories])
    return result


_DIR_LOCK = ".lock"


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove temporary files and folders of ledger runs that were killed (no process holds
    their lock: the file's own, or a folder's `.lock` file)."""
    removed: list[Path] = []
    if fcntl is None or not folder.is_dir():
        return removed
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            if not path.name.startswith(TEMP_PREFIX):
                continue
            lock = path / _DIR_LOCK if path.is_dir() else path
            try:
                with open(lock, "rb") as handle:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    if path.is_dir():
                        shutil.rmtree(path, ignore_errors=True)
                    else:
                        path.unlink()
                    removed.append(path)
            except OSError:  # locked: a run in progress; or gone already
                continue
    return removed


@contextlib.contextmanager
def locked_temp_dir(folder: Path) -> Iterator[Path]:
    """A temporary folder in `folder` (the Dask engine's partitions), locked while in use and
    removed on any exit; a killed run's is removed by the next run (`remove_leftovers`)."""
    remove_leftovers(folder)
    try:
        path = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=folder))
    except OSError as exc:
        raise _disk_error(exc, f"into {folder}") from None
    handle = open(path / _DIR_LOCK, "wb")  # noqa: SIM115 - held for the folder's life
    try:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield path
    finally:
        handle.close()
        shutil.rmtree(path, ignore_errors=True)


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """Categoricals as plain strings, so every chunk has the same Parquet schema."""
    out = frame.copy()
    for name in (*OUTPUT_COLUMNS, "withholding"):
        if name in out.columns and name != "withholding_minor":
            out[name] = out[name].astype(object).where(out[name].notna(), None)
            out[name] = pd.array(out[name], dtype=pd.StringDtype())
    return out


def _disk_error(exc: OSError, where: str) -> InputError:
    return InputError(f"cannot write {where}: {exc.strerror or exc}")


class Writer:
    """Appends evaluated chunks to a temporary file (or a stream); `commit` puts it in place."""

    def __init__(self, target: str | IO[bytes], dialect: Dialect | None = None, fmt: str | None = None) -> None:
        self.dialect = dialect or Dialect()
        self.format = fmt or (ledger_format(target, "output") if isinstance(target, str) else "csv")
        self.target = target
        self._parquet: pq.ParquetWriter | None = None
        self._schema: pa.Schema | None = None
        self._first = True
        self.temp: str | None = None
        self._lock: IO[bytes] | None = None
        if isinstance(target, str):
            folder = Path(target).resolve().parent
            if not folder.is_dir():
                raise InputError(f"-o {target}: no such directory {folder}")
            remove_leftovers(folder)
            try:
                handle, self.temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=Path(target).suffix, dir=folder)
            except OSError as exc:
                raise _disk_error(exc, f"into {folder}") from None
            self._lock = os.fdopen(handle, "r+b")
            if fcntl is not None:
                fcntl.flock(self._lock, fcntl.LOCK_EX)
            stream: IO[bytes] = open(self.temp, "wb")  # noqa: SIM115 - closed in commit/abort
        else:
            stream = target
        self._binary = stream
        self._text: io.TextIOWrapper | None = None

    @property
    def where(self) -> str:
        return self.target if isinstance(self.target, str) else "the output"

    def write(self, frame: pd.DataFrame) -> None:
        try:
            if self.format == "csv":
                self._write_csv(frame)
            else:
                self._write_parquet(frame)
        except OSError as exc:
            raise _disk_error(exc, self.where) from None
        self._first = False

    def _write_csv(self, frame: pd.DataFrame) -> None:
        if self._text is None:
            self._text = io.TextIOWrapper(self._binary, encoding="utf-8", newline="", write_through=False)
            if self.dialect.bom or not self.dialect.encoding.startswith("utf-8"):
                self._text.write("\ufeff")
        safe = pd.DataFrame({name: neutralise(frame[name]) for name in frame.columns}, index=frame.index)
        header = [external_name(str(c)) for c in frame.columns] if self._first else False
        safe.to_csv(self._text, header=header, index=False, sep=self.dialect.separator, lineterminator="\n",
                    quoting=csv.QUOTE_MINIMAL)

    def _write_parquet(self, frame: pd.DataFrame) -> None:
        # without pandas metadata: the file's types alone decide how it reads back, whichever
        # engine (pandas or Dask, with their own string dtypes) produced the frame
        named = frame.rename(columns={c: external_name(str(c)) or str(c).lstrip("_") for c in frame.columns})
        table = pa.Table.from_pandas(_plain(named), preserve_index=False).replace_schema_metadata(None)
        if self._parquet is None:
            self._schema = table.schema
            self._parquet = pq.ParquetWriter(self._binary, self._schema)
        self._parquet.write_table(table.cast(self._schema))

    def commit(self) -> None:
        try:
            if self._parquet is not None:
                self._parquet.close()
            if self._text is not None:
                self._text.flush()
                self._text.detach()
            self._binary.flush()
            if self.temp is not None:
                self._binary.close()
                os.replace(self.temp, self.target)  # type: ignore[arg-type]
                self.temp = None
        except OSError as exc:
            self.abort()
            raise _disk_error(exc, self.where) from None
        finally:
            self._unlock()

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            if self._parquet is not None:
                self._parquet.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                self._binary.close()
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock.close()
            self._lock = None


class ReportWriter:
    """`--report FILE`: every rejected row (as it comes, kept on disk, not in memory) and a summary.

    JSON: {"summary": {...}, "rejected": [{"line", "column", "message"}, ...]}.
    CSV: columns record,line,column,message: one `rejected` record per row, then `summary`
    records whose column is the figure's name and message its value.
    """

    def __init__(self, path: str) -> None:
        suffix = Path(path).suffix.lower()
        if suffix not in (".json", ".csv"):
            raise InputError(f"--report {path}: expected a .json or .csv file")
        folder = Path(path).resolve().parent
        if not folder.is_dir():
            raise InputError(f"--report {path}: no such directory {folder}")
        self.path = path
        self.format = suffix[1:]
        self._spool = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")  # noqa: SIM115 - closed in close()
        self.count = 0

    def add(self, rows: list[Malformed]) -> None:
        try:
            for row in rows:
                self._spool.write(json.dumps([row.unit, row.line, row.column, row.message], ensure_ascii=False) + "\n")
        except OSError as exc:
            raise _disk_error(exc, "the report") from None
        self.count += len(rows)

    def write(self, summary: dict[str, Any]) -> None:
        self._spool.seek(0)
        folder = Path(self.path).resolve().parent
        handle, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix="." + self.format, dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                if self.format == "json":
                    out.write('{"summary": ' + json.dumps(summary, ensure_ascii=False) + ', "rejected": [')
                    for n, line in enumerate(self._spool):
                        unit, number, column, message = json.loads(line)
                        out.write(("," if n else "") + "\n  " + json.dumps(
                            {unit: number, "column": column or None, "message": message}, ensure_ascii=False))
                    out.write("\n]}\n")
                else:
                    writer = csv.writer(out, lineterminator="\n")
                    writer.writerow(["record", "line", "column", "message"])
                    for line in self._spool:
                        _unit, number, column, message = json.loads(line)
                        writer.writerow(["rejected", number, column, message])
                    for key, value in _flat(summary):
                        writer.writerow(["summary", "", key, value])
            os.replace(temp, self.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise _disk_error(exc, self.path) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._spool.close()


def _flat(data: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            out.extend(_flat(value, f"{prefix}{key}."))
        elif isinstance(value, list | tuple):
            out.append((prefix + key, ",".join(str(v) for v in value)))
        else:
            out.append((prefix + key, "" if value is None else value))
    return out


def counts(statuses: pd.Series) -> dict[str, int]:
    values = statuses.astype(str).value_counts()
    return {str(k): int(v) for k, v in values.items()}


def missing_counts(frame: pd.DataFrame) -> dict[str, int]:
    """How many rows of a decided chunk each missing fact leaves open ("loan_guaranteed,recipient_bank" counts
    once for each): what a user adds as a column to decide them."""
    if "missing_facts" not in frame.columns:
        return {}
    out: dict[str, int] = {}
    for joined, n in frame["missing_facts"].astype(str).value_counts().items():
        for fact in str(joined).split(","):
            if fact and fact != "nan":
                out[fact] = out.get(fact, 0) + int(n)
    return out

