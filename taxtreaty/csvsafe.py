"""CSV cells a spreadsheet would run as a formula, made inert (one rule for every CSV written).

A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is read by spreadsheets as
a formula or a DDE command (`=HYPERLINK(...)`, `+cmd|' /C calc'!A0`, `@SUM(...)`); it is written
with a leading apostrophe, which spreadsheets show as text. A plain number such as `-12.50` or
`+3` is left as it is (a spreadsheet reads it as the number it is).
"""

from __future__ import annotations

import re
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: a cell that is only a number: safe even when it starts with a sign
PLAIN_NUMBER = r"[+-]?[0-9][0-9.,]*"
_PLAIN = re.compile(PLAIN_NUMBER)


def csv_cell(value: Any) -> Any:
    """`value` as it may be written to a CSV cell."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN.fullmatch(value):
        return "'" + value
    return value
