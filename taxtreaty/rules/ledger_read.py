"""Open a payments ledger (CSV or Parquet, a file or uploaded bytes) and read it in chunks.

CSV is read as text, every value as printed ("" = not given), by the standard `csv` module, so
that every record keeps the number of the line it starts on and a bad line never stops the
run: a record with more or fewer fields than the header, or one the parser cannot take (a
field over `MAX_FIELD` characters), comes out as a row marked with its line and what was
wrong. Blank lines are skipped. What the file does not say is detected, unless given:

- the encoding: a UTF-8 or UTF-16 byte-order mark, else UTF-8 if the whole file decodes as
  UTF-8, else Windows-1252, else Latin-1 (which reads any byte);
- the separator (`,` `;` or tab): the one that splits the header into the most known columns;
- the decimal mark (`.` or `,`): from the numbers of the first rows (`1.000,50` and `12,5` say
  `,`; `1,000.50` and `12.5` say `.`), else `,` for a `;`-separated file and `.` otherwise.

Parquet keeps its column types; its rows are numbered from 1. A header that names a column
twice is refused, naming the column.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import gc
import io
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from taxtreaty.rules.ledger import OUTPUT_COLUMNS
from taxtreaty.rules.ledger_columns import DECIMAL_MARKS
from taxtreaty.rules.scenario import SCENARIO_KEYS
from taxtreaty.text import InputError

CHUNK_ROWS = 200_000
REQUIRED_COLUMNS = ("income", "source", "residence")
SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
#: longest CSV field read (characters); a longer one makes its record a malformed row
MAX_FIELD = 1 << 20
#: how much of the file the separator and decimal mark are detected from
_SNIFF_BYTES = 1 << 20
_NUMERIC_COLUMNS = ("amount", "capital_pct", "held_months", "days_present")
#: numbers that can only be read one way: (pattern, the decimal mark it shows)
_EVIDENCE = (
    (re.compile(r"[0-9]{1,3}(\.[0-9]{3})+,[0-9]+|[0-9]{1,3}(\.[0-9]{3}){2,}|[0-9]*,([0-9]{1,2}|[0-9]{4,})"), ","),
    (re.compile(r"[0-9]{1,3}(,[0-9]{3})+\.[0-9]+|[0-9]{1,3}(,[0-9]{3}){2,}|[0-9]*\.([0-9]{1,2}|[0-9]{4,})"), "."),
)


@dataclass
class Dialect:
    separator: str = ","
    decimal: str = "."
    encoding: str = "utf-8"
    #: the input began with a byte-order mark
    bom: bool = False
    #: what was detected rather than given
    detected: list[str] = field(default_factory=list)

    def describe(self) -> dict[str, Any]:
        return {"separator": self.separator, "decimal": self.decimal, "encoding": self.encoding,
                "detected": list(self.detected)}


@dataclass
class Chunk:
    frame: pd.DataFrame
    #: line (CSV) or row (Parquet) number of each row
    lines: np.ndarray
    #: row index -> ("", what was wrong) for records that could not be split into the header's fields
    rejected: dict[int, tuple[str, str]] = field(default_factory=dict)


def ledger_format(path: str, role: str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".parquet", ".pq") or (role == "input" and Path(path).is_dir()):
        return "parquet"
    raise InputError(f"{role} {path}: expected a .csv or .parquet file")


def check_separator(value: str | None) -> str | None:
    if value is None:
        return None
    named = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t"}.get(value.lower(), value)
    if named not in SEPARATORS:
        raise InputError(f"the separator is one of , ; tab (got {value!r})")
    return named


def check_decimal(value: str | None) -> str | None:
    if value is not None and value not in DECIMAL_MARKS:
        raise InputError(f"the decimal mark is . or , (got {value!r})")
    return value


def check_header(columns: list[str], where: str) -> None:
    seen: set[str] = set()
    for name in columns:
        if name and name in seen:
            raise InputError(f"{where}: the header names the column {name!r} twice; rename one of them")
        seen.add(name)
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise InputError(f"{where}: missing column {missing[0]!r} (a ledger needs {', '.join(REQUIRED_COLUMNS)}; "
                         f"the header has {', '.join(repr(c) for c in columns[:8])}{' ...' if len(columns) > 8 else ''})")
    clash = [c for c in (*OUTPUT_COLUMNS, "withholding") if c in columns]
    if clash:
        raise InputError(f"{where}: the ledger already has a column {clash[0]!r} that the output would overwrite")


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Millions of small lists are made and dropped: the cyclic collector would walk them again
    and again for nothing (they hold only strings). Reference counting still frees them."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class LedgerInput:
    """A ledger to read: a path (file, or directory of Parquet parts) or the bytes of an upload."""

    def __init__(self, source: str | bytes, fmt: str | None = None, *, separator: str | None = None,
                 decimal: str | None = None, encoding: str | None = None, name: str | None = None,
                 max_rows: int | None = None) -> None:
        self.source = source
        self.name = name or (source if isinstance(source, str) else "the upload")
        if fmt is None:
            fmt = ledger_format(source, "input") if isinstance(source, str) else (
                "parquet" if source[:4] == b"PAR1" else "csv")
        self.format = fmt
        self.unit = "line" if fmt == "csv" else "row"
        self.max_rows = max_rows
        if isinstance(source, str) and not Path(source).exists():
            raise InputError(f"cannot read {source}: no such file")
        self.dialect = Dialect(separator=check_separator(separator) or ",", decimal=check_decimal(decimal) or ".")
        self.header: list[str] = []
        #: physical lines in the file, when counted (progress)
        self.lines_total: int | None = None
        #: the line the header ends on
        self._header_end = 1
        if fmt == "csv":
            self._sniff(separator is None, decimal is None, encoding)
        else:
            self.header = self._parquet_columns()
            check_header(self.header, self.name)

    # -- opening -------------------------------------------------------------------------------
    def _binary(self) -> IO[bytes]:
        if isinstance(self.source, bytes):
            return io.BytesIO(self.source)
        try:
            return open(self.source, "rb")
        except IsADirectoryError:
            raise InputError(f"{self.source} is a directory; a CSV ledger is one file") from None
        except OSError as exc:
            raise InputError(f"cannot read {self.source}: {exc.strerror}") from None

    def _text(self) -> IO[str]:
        return io.TextIOWrapper(self._binary(), encoding=self.dialect.encoding, errors="strict", newline="")

    def _sniff(self, want_separator: bool, want_decimal: bool, encoding: str | None) -> None:
        self.dialect.encoding, self.dialect.bom, self.lines_total = self._encoding(encoding)
        if encoding is None:
            self.dialect.detected.append("encoding")
        with self._text() as text:
            head = text.read(_SNIFF_BYTES)
        lines = re.split(r"\r\n|\r|\n", head)
        first = next((line for line in lines if line.strip()), None)
        if first is None:
            raise InputError(f"{self.name}: the file is empty (a ledger starts with a header line such as "
                             f"{','.join(REQUIRED_COLUMNS)},amount)")
        if want_separator:
            self.dialect.separator = _separator_of(first)
            self.dialect.detected.append("separator")
        if len(lines) > 1 and len(head) == _SNIFF_BYTES:
            head = head[:head.rfind("\n")]  # the last line may be cut
        csv.field_size_limit(MAX_FIELD)
        reader = csv.reader(io.StringIO(head, newline=""), delimiter=self.dialect.separator)
        records = []
        for record in _records(reader):
            if isinstance(record, list) and record and not _blank(record):
                records.append(record)
                if len(records) == 1:
                    self._header_end = reader.line_num
                if len(records) > 5000:
                    break
        if not records:
            raise InputError(f"{self.name}: the header line cannot be read as CSV")
        self.header = [h.strip().lstrip("\ufeff").strip() for h in records[0]]
        check_header(self.header, self.name + _separator_hint(self.header, self.dialect.separator))
        if want_decimal:
            self.dialect.decimal = _decimal_of(self.header, records[1:5001], self.dialect.separator)
            self.dialect.detected.append("decimal")

    def _encoding(self, given: str | None) -> tuple[str, bool, int]:
        """(encoding, byte-order mark?, newline count), reading the file once."""
        with self._binary() as binary:
            start = binary.read(4)
            binary.seek(0)
            bom = start.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
            if given is not None:
                try:
                    codecs.lookup(given)
                except LookupError:
                    raise InputError(f"unknown encoding {given!r}") from None
                candidates = [given]
            elif start.startswith(codecs.BOM_UTF8):
                candidates = ["utf-8-sig"]
            elif start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
                candidates = ["utf-16"]
            else:
                candidates = ["utf-8", "cp1252"]
            decoders = [codecs.getincrementaldecoder(c)() for c in candidates]
            alive = [True] * len(decoders)
            newlines = 0
            for block in iter(lambda: binary.read(1 << 20), b""):
                newlines += block.count(b"\n")
                for i, decoder in enumerate(decoders):
                    if alive[i]:
                        try:
                            decoder.decode(block)
                        except UnicodeDecodeError:
                            alive[i] = False
                if not alive[0] and not any(alive[1:]):
                    newlines += sum(b.count(b"\n") for b in iter(lambda: binary.read(1 << 20), b""))
                    break
            for i, decoder in enumerate(decoders):
                if alive[i]:
                    try:
                        decoder.decode(b"", final=True)
                    except UnicodeDecodeError:
                        continue
                    return candidates[i], bom, newlines
            if given is not None or candidates[0] == "utf-16":
                raise InputError(f"{self.name}: the file is not {given or 'UTF-16'} text")
            return "latin-1", bom, newlines

    def _parquet_columns(self) -> list[str]:
        try:
            if isinstance(self.source, bytes):
                return list(pq.ParquetFile(io.BytesIO(self.source)).schema_arrow.names)
            if Path(self.source).is_dir():
                return list(pads.dataset(self.source, format="parquet").schema.names)
            return list(pq.ParquetFile(self.source).schema_arrow.names)
        except (pa.ArrowException, OSError) as exc:
            raise InputError(f"{self.name}: not a readable Parquet file ({str(exc).splitlines()[0]})") from None

    # -- reading -------------------------------------------------------------------------------
    def count_rows(self) -> int | None:
        if self.format == "csv":
            return max((self.lines_total or 0) - 1, 0)
        try:
            if isinstance(self.source, bytes):
                return pq.ParquetFile(io.BytesIO(self.source)).metadata.num_rows
            if Path(self.source).is_dir():
                return int(pads.dataset(self.source, format="parquet").count_rows())
            return pq.ParquetFile(self.source).metadata.num_rows
        except (OSError, pa.ArrowException):
            return None

    def chunks(self, rows: int = CHUNK_ROWS) -> Iterator[Chunk]:
        read = 0
        for chunk in (self._fast_csv_chunks(rows) if self.format == "csv" else self._parquet_chunks(rows)):
            read += len(chunk.frame)
            if self.max_rows is not None and read > self.max_rows:
                raise InputError(f"{self.name}: more than {self.max_rows} rows; split the ledger or use `taxtreaty ledger`")
            yield chunk

    def _fast_csv_chunks(self, rows: int) -> Iterator[Chunk]:
        """Arrow's CSV reader (C++, two threads) while every record is one line of the header's
        width; from the first batch where that fails (a ragged or blank line, a line break in a
        quoted field, anything it cannot parse), `_csv_chunks` from that batch's first line."""
        if self._header_end != 1 or not self.header:
            yield from self._csv_chunks(rows)
            return
        import pyarrow.csv as pacsv

        trouble: list[Any] = []

        def handler(row: Any) -> str:
            trouble.append(row)
            return "skip"

        names = [internal_name(h, i) for i, h in enumerate(self.header)]
        encoding = self.dialect.encoding
        try:
            stream = pacsv.open_csv(
                self._binary(),
                read_options=pacsv.ReadOptions(column_names=names, skip_rows=1, block_size=1 << 22,
                                               encoding="utf8" if encoding.startswith("utf-8") else encoding),
                parse_options=pacsv.ParseOptions(delimiter=self.dialect.separator, quote_char='"', double_quote=True,
                                                 escape_char=False, newlines_in_values=False, ignore_empty_lines=False,
                                                 invalid_row_handler=handler),
                convert_options=pacsv.ConvertOptions(column_types=dict.fromkeys(names, pa.string()),
                                                     strings_can_be_null=False, quoted_strings_can_be_null=False,
                                                     null_values=[]))
        except (pa.ArrowException, OSError, UnicodeDecodeError):
            yield from self._csv_chunks(rows)
            return
        done = 0  # rows yielded: lines 2 .. done + 1
        pending: list[pa.RecordBatch] = []
        finished = False
        with contextlib.closing(stream):
            while True:
                try:
                    batch = stream.read_next_batch()
                except StopIteration:
                    finished = True
                    break
                except (pa.ArrowException, OSError, UnicodeDecodeError):
                    trouble.append(None)
                    break
                if trouble or any(_unusual(column) for column in batch.columns):
                    break
                pending.append(batch)
                if sum(len(b) for b in pending) >= rows:
                    chunk, done = self._arrow_chunk(pending, done), done + sum(len(b) for b in pending)
                    pending = []
                    yield chunk
            if finished and not trouble:  # the whole file read, every record one line of the right width
                if pending:
                    yield self._arrow_chunk(pending, done)
                return
        if pending:  # good rows before the trouble
            chunk, done = self._arrow_chunk(pending, done), done + sum(len(b) for b in pending)
            yield chunk
        yield from self._csv_chunks(rows, skip_lines=done + 1)

    def _arrow_chunk(self, batches: list[pa.RecordBatch], done: int) -> Chunk:
        table = pa.Table.from_batches(batches)
        return Chunk(table.to_pandas(), np.arange(done + 2, done + 2 + table.num_rows, dtype=np.int64))

    def _csv_chunks(self, rows: int, skip_lines: int = 0) -> Iterator[Chunk]:
        csv.field_size_limit(MAX_FIELD)
        with self._text() as text, _no_cyclic_gc():
            for _ in range(skip_lines):
                text.readline()
            reader = csv.reader(text, delimiter=self.dialect.separator, quotechar='"', doublequote=True, strict=False)
            records = _records(reader)
            if not skip_lines:
                for record in records:  # the header: the first record that is not blank
                    if not isinstance(record, list) or not _blank(record):
                        break
            line = reader.line_num + skip_lines  # the last line read so far
            while True:
                batch = list(itertools.islice(records, rows))
                if not batch:
                    return
                starts, line = _start_lines(batch, line, reader.line_num + skip_lines)
                chunk = self._frame(batch, starts)
                if len(chunk.frame):
                    yield chunk

    def _frame(self, batch: list[Any], starts: np.ndarray) -> Chunk:
        """Records (lists of fields, some blank or of the wrong length, or a parse error) as a
        frame of the header's columns, blank lines left out."""
        width = len(self.header)
        errors: dict[int, tuple[str, str]] = {}
        messages = {i: r[0] for i, r in enumerate(batch) if not isinstance(r, list)}
        for i in messages:
            batch[i] = [_FAILED]  # a placeholder that is not blank; its fields are left empty below
        failed = list(messages)
        lists = pa.array(batch, type=pa.list_(pa.string()))
        lengths = pc.list_value_length(lists).to_numpy(zero_copy_only=False)
        blank = lengths == 0
        single = np.flatnonzero(lengths == 1)  # one field: blank when it is only spaces
        if len(single):
            only = lists.flatten().take(pa.array(lists.offsets.to_numpy()[single]))
            blank[single] = pc.fill_null(pc.equal(pc.utf8_trim_whitespace(only), ""), False).to_numpy(zero_copy_only=False)
        if blank.any():
            keep = np.flatnonzero(~blank)
            lists, lengths, starts = lists.take(pa.array(keep)), lengths[keep], starts[keep]
            position = {int(old): new for new, old in enumerate(keep)}
            messages = {position[i]: m for i, m in messages.items()}
            failed = list(messages)
        for i, message in messages.items():
            errors[i] = ("", message)
        for i in np.flatnonzero(lengths != width):
            errors.setdefault(int(i), ("", f"{int(lengths[i])} fields where the header has {width}"))
        offsets = lists.offsets.to_numpy()[:-1]
        flat = lists.flatten()
        columns: dict[str, Any] = {}
        for i, name in enumerate(self.header):
            present = lengths > i
            for j in failed:
                present[j] = False
            index = pa.array(offsets + i, mask=~present) if not present.all() else pa.array(offsets + i)
            columns[internal_name(name, i)] = flat.take(index)
        return Chunk(pa.table(columns).to_pandas(), starts, errors)

    def _parquet_chunks(self, rows: int) -> Iterator[Chunk]:
        try:
            if isinstance(self.source, bytes):
                batches: Iterator[pa.RecordBatch] = pq.ParquetFile(io.BytesIO(self.source)).iter_batches(batch_size=rows)
            elif Path(self.source).is_dir():  # a partitioned ledger: its files in name order, rows in file order
                fragments = sorted(pads.dataset(self.source, format="parquet").get_fragments(), key=lambda f: f.path)
                batches = (batch for fragment in fragments for batch in fragment.to_batches(batch_size=rows, use_threads=False))
            else:
                batches = pq.ParquetFile(self.source).iter_batches(batch_size=rows)
            row = 1
            for batch in batches:
                frame = batch.to_pandas()
                yield Chunk(frame, np.arange(row, row + len(frame), dtype=np.int64))
                row += len(frame)
        except pa.ArrowException as exc:
            raise InputError(f"{self.name}: not a readable Parquet file ({str(exc).splitlines()[0]})") from None

    def output_header(self, frame_columns: list[str]) -> list[str]:
        """The names the CSV output prints: the input's own (a blank name stays blank)."""
        return [external_name(c) for c in frame_columns]


_BLANK_PREFIX = "__column_"
#: stands in a batch for a record the csv module refused (its message goes to the row's reason)
_FAILED = "\x00"


def _records(reader: Any) -> Iterator[Any]:
    """The reader's records; a record it cannot parse is yielded as (message, line it ends on)."""
    while True:
        try:
            yield from reader
            return
        except csv.Error as exc:
            yield (f"cannot be read as CSV ({exc})", reader.line_num)


def _unusual(column: Any) -> bool:
    """A field holding a line break (a quoted field over several lines: Arrow was told there are
    none, so it should not happen; checked all the same, line numbers depend on it) or longer
    than MAX_FIELD (the csv module refuses it): the batch is read again by `_csv_chunks`."""
    if not len(column):
        return False
    longest = pc.max(pc.utf8_length(column)).as_py() or 0
    return longest > MAX_FIELD or bool(pc.any(pc.match_substring_regex(column, "[\r\n]")).as_py())


def _blank(record: list[str]) -> bool:
    return not record or (len(record) == 1 and not record[0].strip())


def _start_lines(batch: list[Any], last_line: int, now: int) -> tuple[np.ndarray, int]:
    """The line each record of `batch` starts on, the batch read after `last_line`, the reader now
    at line `now`. When the batch spans exactly one line per record, that is all; otherwise a
    record's lines are one plus the line breaks inside its quoted fields."""
    if now - last_line == len(batch):
        return np.arange(last_line + 1, now + 1, dtype=np.int64), now
    starts = np.empty(len(batch), dtype=np.int64)
    line = last_line + 1
    for i, record in enumerate(batch):
        starts[i] = line
        if isinstance(record, tuple):  # a parse error: the reader went on after the line it names
            line = record[1] + 1
        else:
            line += 1 + sum(f.count("\n") for f in record)
    return starts, now


def internal_name(name: str, index: int) -> str:
    """A blank header cell gets a private name inside the frame (two blank cells must not clash)."""
    return name if name else f"{_BLANK_PREFIX}{index + 1}"


def external_name(name: str) -> str:
    return "" if name.startswith(_BLANK_PREFIX) else name


def _separator_of(line: str) -> str:
    """The separator that splits the header into the most known column names (then the most fields)."""
    known = set(SCENARIO_KEYS)

    def score(sep: str) -> tuple[int, int]:
        fields = next(csv.reader([line], delimiter=sep), [])
        return sum(f.strip().lstrip("\ufeff") in known for f in fields), len(fields)

    return max(SEPARATORS, key=score)


def _separator_hint(header: list[str], separator: str) -> str:
    others = [s for s in SEPARATORS if s != separator and any(s in h for h in header)]
    if not others:
        return ""
    return f" (read with the separator {SEPARATORS[separator]}; the header holds a {SEPARATORS[others[0]]}: give --sep)"


def _decimal_of(header: list[str], records: list[list[str]], separator: str) -> str:
    """The decimal mark the numbers of the first rows show; by the separator when none tells."""
    votes = {".": 0, ",": 0}
    positions = [header.index(c) for c in _NUMERIC_COLUMNS if c in header]
    seen: set[str] = set()
    for record in records:
        for i in positions:
            value = record[i].strip() if i < len(record) else ""
            if not value or value in seen:
                continue
            seen.add(value)
            for pattern, mark in _EVIDENCE:
                if pattern.fullmatch(value):
                    votes[mark] += 1
    if votes["."] != votes[","]:
        return max(votes, key=lambda mark: votes[mark])
    return "," if separator == ";" else "."
