"""`GET /rates` and the web rates table: the rate matrix of the decisions `/ask` gives.

Each cell is `service.decide` on the cell's canonical scenario (see `rules/matrix.py`), so the
table can never say what `/ask` would not. The whole matrix is computed once per change of the
corpus, off the request path (a background thread started by the first request after a change;
`warm` starts it ahead, e.g. after an ingest), and served from memory: a request does bounded work whatever
the size of the store. While a new matrix is being built after a change, requests wait a moment
and then get 503 with Retry-After, never the previous corpus's table presented as current.

`taxtreaty serve` builds it in a child process (`CHILD_BUILD`, for a store it can reopen by URL):
deciding every cell of 3,000 treaties is some 15 s of CPU and loads every parsed document (about
570 MB); in a thread of the server that CPU competed with the event loop for the GIL, and the
documents stayed in the server's memory. The child returns the cells and their encoded answers,
then exits. In-process (tests, the demo backend, `create_app` without `serve`) it stays a thread.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from taxtreaty.interfaces.http import service
from taxtreaty.interfaces.http.backend import Backend, NotFound, Unavailable
from taxtreaty.interfaces.http.models import Scenario
from taxtreaty.interfaces.http.views import RATES_MODEL, Encoded, encode
from taxtreaty.rules.matrix import Cell, grouped, treaty_cells

log = logging.getLogger("taxtreaty.http")
#: how long a request waits for a matrix being built before it is told to come back
WAIT_SECONDS = 5.0
RETRY_AFTER_SECONDS = 5
#: build the matrix in a child process when the backend is a store it can reopen by URL (`serve` sets it)
CHILD_BUILD = False


def generation(backend: Backend) -> str:
    """What the corpus holds: the matrix is rebuilt when this changes."""
    probe = getattr(backend, "generation", None)
    if probe is not None:
        return str(probe())
    summaries = backend.list_treaties()
    return hashlib.sha256(repr(sorted((s["id"], s.get("files"), tuple(s["parties"])) for s in summaries)).encode()).hexdigest()


def build(backend: Backend, as_of: dt.date) -> list[Cell]:
    cells: list[Cell] = []
    for summary in backend.list_treaties():
        treaty_id, parties = summary["id"], list(summary["parties"])
        if len(parties) != 2:
            continue
        try:
            compiled = service.treaty_rules(backend, treaty_id, parties)
        except (NotFound, Unavailable):
            continue

        def ask(scenario: dict[str, Any], tid: str = treaty_id, states: list[str] = parties) -> dict[str, Any]:
            return service.decide(backend, tid, Scenario.model_validate(scenario), states)

        cells.extend(treaty_cells(compiled, as_of=as_of, decide=ask, name=treaty_id))
    return cells


def _store_url(backend: Backend) -> str | None:
    store = getattr(backend, "store", None)
    url = getattr(store, "url", None)
    return url if isinstance(url, str) and type(backend).__name__ == "StoreBackend" else None


def build_in_child(url: str, as_of: str) -> tuple[str, list[Cell], dict[str | None, Encoded]]:
    """(generation, cells, encoded answers) of the store at `url`, in a process of its own: what
    `RateTable` keeps, computed where neither its CPU nor its documents touch the server."""
    from taxtreaty.interfaces.http.store_backend import StoreBackend

    backend = StoreBackend.open(url)
    seen = generation(backend)
    cells = build(backend, dt.date.fromisoformat(as_of))
    return seen, cells, encode_rows(grouped(cells))


def _built(backend: Backend, key: tuple[str, str]) -> tuple[tuple[str, str], list[Cell], dict[str | None, Encoded]]:
    url = _store_url(backend) if CHILD_BUILD else None
    if url is None:
        cells = build(backend, dt.date.fromisoformat(key[1]))
        return key, cells, encode_rows(grouped(cells))
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        seen, cells, encoded = pool.submit(build_in_child, url, key[1]).result()
    # the child saw the store as it was when it opened it: its table is that generation's
    return (seen, key[1]), cells, encoded


class RateTable:
    """The matrix of one backend, per (generation, day), built once in a background thread, with
    its answers encoded there too (the whole table and each State's rows: `views.Encoded`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[str, str] | None = None
        self._cells: list[Cell] = []
        self._encoded: dict[str | None, Encoded] = {}
        self._building: tuple[tuple[str, str], threading.Event] | None = None

    def _start(self, backend: Backend, key: tuple[str, str]) -> threading.Event:
        done = threading.Event()
        self._building = (key, done)

        def work() -> None:
            try:
                built_key, cells, encoded = _built(backend, key)
                with self._lock:
                    self._key, self._cells, self._encoded = built_key, cells, encoded
            except Exception:  # reported to the requests that wait, which answer 503
                log.exception("building the rates matrix failed")
            finally:
                with self._lock:
                    self._building = None
                done.set()

        threading.Thread(target=work, name="rates-matrix", daemon=True).start()
        return done

    def warm(self, backend: Backend) -> None:
        """Start building the matrix now if the corpus has changed (the app's refresh loop)."""
        key = (generation(backend), dt.date.today().isoformat())
        with self._lock:
            if self._key == key or (self._building is not None and self._building[0] == key):
                return
            self._start(backend, key)

    def _settle(self, backend: Backend, wait: float) -> tuple[str, str]:
        """The key of the corpus as it is now, once its matrix is built (Unavailable after `wait`)."""
        key = (generation(backend), dt.date.today().isoformat())
        with self._lock:
            if self._key == key:
                return key
            if self._building is not None and self._building[0] == key:
                done = self._building[1]
            else:
                done = self._start(backend, key)
        done.wait(wait)
        with self._lock:
            if self._key != key:
                raise Unavailable(
                    "the rates table is being rebuilt after a change to the corpus; "
                    f"try again in {RETRY_AFTER_SECONDS} seconds")
        return key

    def rows(self, backend: Backend, country: str | None, wait: float = WAIT_SECONDS) -> list[dict[str, Any]]:
        key = self._settle(backend, wait)
        with self._lock:
            cells = self._cells if self._key == key else []
        code = country.upper() if country else None
        return grouped(c for c in cells if code is None or code in (c.source, c.residence))

    def encoded(self, backend: Backend, country: str | None, wait: float = WAIT_SECONDS) -> Encoded:
        """`GET /rates` (or one State's rows) as bytes, for the corpus as it is now."""
        key = self._settle(backend, wait)
        found = self.ready(key[0], country)
        if found is None:  # rebuilt again in the meantime
            raise Unavailable(f"the rates table is being rebuilt after a change to the corpus; try again in "
                              f"{RETRY_AFTER_SECONDS} seconds")
        return found

    def ready(self, generation: str, country: str | None) -> Encoded | None:
        """The encoded answer when the matrix of `generation` (today) is built, else None: no wait,
        no lock, no store access (the event loop's look-up, `views.ViewLane`)."""
        key, encoded = self._key, self._encoded
        if key != (generation, dt.date.today().isoformat()):
            return None
        code = country.upper() if country else None
        return encoded.get(code, NO_ROWS)


NO_ROWS = encode(RATES_MODEL, [])


def encode_rows(rows: list[dict[str, Any]]) -> dict[str | None, Encoded]:
    """The whole table (key None) and each State's rows (the rows where it is source or residence),
    in the table's order, encoded as `GET /rates` answers them."""
    by_state: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        for code in dict.fromkeys((row["source"], row["residence"])):
            by_state.setdefault(code, []).append(row)
    out: dict[str | None, Encoded] = {None: encode(RATES_MODEL, rows)}
    out.update({code: encode(RATES_MODEL, picked) for code, picked in by_state.items()})
    return out


def table_of(backend: Backend) -> RateTable:
    table = getattr(backend, "_rate_table", None)
    if table is None:
        table = RateTable()
        backend._rate_table = table  # type: ignore[attr-defined]
    return table
