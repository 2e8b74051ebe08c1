"""`POST /ledger`: the CLI's ledger (taxtreaty.rules.ledger_io.run_ledger) over the server's store.

The upload (CSV, or Parquet: its first bytes say which) is read by the same `LedgerInput`,
decided by the same `LedgerEvaluator` and written by the same `Writer` as `taxtreaty ledger`, as
CSV or Parquet (`OUTPUT_FORMATS`), so the same file gives the same bytes out as `taxtreaty ledger
-o out.csv` or `-o out.parquet`, with the same columns and statuses. The treaties are those of the backend that the ledger's
(source, residence) pairs name, each compiled once per content and cached (`service.treaty_rules`),
the way `taxtreaty ledger --treaties STORE` compiles a stored treaty (`pipeline.compile_stored`:
stored amendments and dates of effect applied).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import IO, Any

from taxtreaty.interfaces.http import service
from taxtreaty.interfaces.http.backend import Backend, NotFound
from taxtreaty.rules.ledger import TreatyBook
from taxtreaty.rules.ledger_io import LedgerReport, run_ledger
from taxtreaty.rules.ledger_read import LedgerInput
from taxtreaty.rules.ledger_write import Writer

#: the answer is kept in memory up to this size, then in an unlinked temporary file
_SPOOL_BYTES = 8 * 1024 * 1024
_STREAM_BLOCK = 64 * 1024
#: the answer's formats: name -> (media type, file suffix)
OUTPUT_FORMATS = {"csv": ("text/csv; charset=utf-8", "csv"), "parquet": ("application/vnd.apache.parquet", "parquet")}
_PARQUET_MEDIA = ("application/vnd.apache.parquet", "application/x-parquet", "application/parquet")


def output_format(given: str | None, accept: str) -> str:
    """The answer's format: `given` (a `format` parameter) if any, else Parquet when the Accept
    header names a Parquet media type before (or without) CSV, else CSV."""
    if given:
        return given
    best, best_q = "csv", -1.0
    for part in accept.split(","):
        media, _, params = part.strip().partition(";")
        media = media.strip().lower()
        fmt = "parquet" if media in _PARQUET_MEDIA else "csv" if media in ("text/csv", "application/csv") else None
        if fmt is None:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > best_q and q > 0:
            best, best_q = fmt, q
    return best


def treaty_book(backend: Backend, pairs: set[tuple[str, str]]) -> TreatyBook:
    """The treaties of `backend` between the pairs of States a ledger names (each pair once)."""
    chosen: dict[str, tuple[str, ...]] = {}
    for a, b in sorted(pairs):
        if a == b:
            continue
        treaty_id = backend.treaty_for_parties(a, b)
        if treaty_id is not None and treaty_id not in chosen:
            chosen[treaty_id] = tuple(backend.summary(treaty_id).get("parties") or ())
    treaties = []
    for treaty_id, parties in chosen.items():
        compiled = _compiled(backend, treaty_id, parties)
        if compiled is not None and len(compiled.parties) == 2:
            treaties.append(compiled)
    return TreatyBook(treaties)


def _compiled(backend: Backend, treaty_id: str, parties: tuple[str, ...]) -> Any:
    try:
        return service.treaty_rules(backend, treaty_id, list(parties) or None)
    except NotFound:
        return None


def decide_upload(backend: Backend, data: bytes, max_rows: int, separator: str | None = None,
                  decimal: str | None = None, fmt: str = "csv") -> tuple[IO[bytes], LedgerReport]:
    """The decided ledger as CSV or Parquet bytes (`fmt`; a file positioned at its start) and the
    run's report. Raises InputError when the upload cannot be read as a ledger at all."""
    name = "the Parquet file" if data[:4] == b"PAR1" else "the CSV"
    source = LedgerInput(data, separator=separator, decimal=decimal, name=name, max_rows=max_rows)
    out = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)  # noqa: SIM115 - handed to the response
    try:
        report = run_ledger(source, lambda pairs: treaty_book(backend, pairs), Writer(out, source.dialect, fmt))
    except BaseException:
        out.close()
        raise
    out.seek(0)
    return out, report


def stream(out: IO[bytes]) -> Iterator[bytes]:
    """The answer in blocks; the file is closed when the response ends or the client leaves."""
    try:
        while block := out.read(_STREAM_BLOCK):
            yield block
    finally:
        out.close()
