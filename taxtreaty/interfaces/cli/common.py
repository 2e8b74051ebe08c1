"""Helpers shared by the command modules."""

from __future__ import annotations

import json
import sys
from typing import Any

from taxtreaty.structure import Document, parse
from taxtreaty.text import InputError


def read_input(path: str) -> tuple[bytes, str | None]:
    """Bytes of FILE, or of standard input for "-"."""
    if path == "-":
        return sys.stdin.buffer.read(), None
    try:
        with open(path, "rb") as fh:
            return fh.read(), path
    except IsADirectoryError:
        raise InputError(f"{path} is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


#: the help of every command's --convention option
CONVENTION_HELP = "Of a file holding several conventions (an Act's schedules, an order with the old convention annexed): the one numbered N (1, 2 ...), as the refusal lists them."


def load_document(path: str, parties: str | None = None, convention: int | None = None) -> Document:
    data, name = read_input(path)
    doc = parse(data, path=name, convention=convention)
    if parties:
        doc.parties = parse_parties(parties)
    return doc


def parse_parties(value: str) -> list[str]:
    codes = [c.strip().upper() for c in value.split(",") if c.strip()]
    if len(codes) != 2 or not all(len(c) == 2 and c.isalpha() for c in codes):
        raise InputError(f"--parties takes two ISO 3166 codes such as PT,CN (got {value!r})")
    return codes


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    sys.stdout.write("\n")


def write_akn_versions(documents: dict[str, str], out_dir: str, stem: str) -> list[str]:
    """Each language version as its own Akoma Ntoso file `<stem>.<language>.akn.xml` in
    `out_dir` (created if needed). Each file is written to a temporary name and renamed, so a
    failure never leaves a half-written file. Returns the paths written."""
    import os
    import tempfile
    from pathlib import Path

    from taxtreaty.text import InputError

    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"--out-dir {out_dir}: cannot create the folder ({exc.strerror or exc})") from None
    written = []
    safe_stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in stem) or "treaty"
    for language, xml in documents.items():
        target = folder / f"{safe_stem}.{language}.akn.xml"
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(xml if xml.endswith("\n") else xml + "\n")
            os.replace(tmp, target)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
        written.append(str(target))
    return written
