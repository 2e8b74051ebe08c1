"""A corpus in memory from files on disk: for tests, benchmarks and `taxtreaty serve --memory`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from taxtreaty.interfaces.http.backend import MemoryBackend
from taxtreaty.text import InputError


def memory_backend(paths: Iterable[str | Path], treaty: str | None = None) -> MemoryBackend:
    """Every .txt/.md file named or found under the folders named, parsed into a MemoryBackend.

    Files that are not conventions (a README in the folder) are left out and listed in
    `backend.rejected` with the reason, as `taxtreaty ingest` would report them.
    """
    backend = MemoryBackend()
    for raw in paths:
        path = Path(raw)
        files = sorted(p for p in path.rglob("*") if p.suffix in (".txt", ".md")) if path.is_dir() else [path]
        for file in files:
            try:
                backend.ingest(file.read_bytes(), file.name, treaty)
            except InputError as exc:
                backend.rejected.append((str(file), str(exc)))
    return backend
