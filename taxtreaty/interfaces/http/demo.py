"""A corpus in memory from files on disk: for tests, benchmarks and `taxtreaty serve --memory`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from taxtreaty.interfaces.http.backend import MemoryBackend


def memory_backend(paths: Iterable[str | Path], treaty: str | None = None) -> MemoryBackend:
    """Every .txt/.md file named or found under the folders named, parsed into a MemoryBackend."""
    backend = MemoryBackend()
    for raw in paths:
        path = Path(raw)
        files = sorted(p for p in path.rglob("*") if p.suffix in (".txt", ".md")) if path.is_dir() else [path]
        for file in files:
            backend.ingest(file.read_bytes(), file.name, treaty)
    return backend
