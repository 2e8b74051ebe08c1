"""Where a text was published: the front matter of a markdown mirror of a gazette.

Collections mirrored as markdown open each file with a YAML block (`---` ... `---`) naming the
instrument, its gazette, dates and the source address. That block is furniture for the
structure (never articles), and data for the workbench: `read(original)` returns the fields of
`taxtreaty/data/publication.yaml` that the block gives, as plain text. A block that is not
valid YAML, not a mapping, or implausibly large is ignored (the text is still read).
"""

from __future__ import annotations

from functools import cache

import regex
import yaml

from taxtreaty.vocab import DataFileError, read_data_file

_BLOCK = regex.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", regex.DOTALL)
#: front matter longer than this is not front matter
MAX_BLOCK = 64 * 1024
MAX_VALUE = 2000


@cache
def _fields() -> dict[str, tuple[str, ...]]:
    raw = read_data_file("publication.yaml")
    if not isinstance(raw, dict) or not all(isinstance(v, list) and all(isinstance(k, str) for k in v) for v in raw.values()):
        raise DataFileError("publication.yaml: each field must list the front-matter keys that hold it")
    return {str(field): tuple(keys) for field, keys in raw.items()}


def front_matter_end(original: str) -> int:
    """Where the front matter ends (0 when the text has none)."""
    found = _BLOCK.match(original[: MAX_BLOCK + 16])
    return found.end() if found else 0


def read(original: str) -> dict[str, str]:
    found = _BLOCK.match(original[: MAX_BLOCK + 16])
    if not found:
        return {}
    try:
        data = yaml.safe_load(found.group(1))
    except yaml.YAMLError:
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, str] = {}
    for field, keys in _fields().items():
        for key in keys:
            value = data.get(key)
            if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value).strip():
                out[field] = str(value).strip()[:MAX_VALUE]
                break
    return out
