"""A case an item of a list opens by excepting: "(a) except in the case of dividends paid by a
non-resident-owned investment corporation that is a resident of Canada, 5 per cent of the gross
amount of the dividends if the beneficial owner is a company ...".

The excepted case's words run from the phrase (`excepted_case` in the language file) to the next
comma or stop. They are no condition of the item: the State they name is no source State of the
rate, the kind of payer they name no kind the item asks for. They are blanked (same length, so
offsets hold) before the item's own conditions are read; the words themselves are sorted as a
negated condition (`unless_words`), a fact where one names it (provisions/provisos.py).
"""

from __future__ import annotations

import regex

from taxtreaty.provisions.vocabulary import Phrases

#: where an excepted case's words end
_END = regex.compile(r"[,;:]|\.(?!\d)")


def blank_excepted(folded: str, ph: Phrases) -> str:
    """`folded` with the words of every excepted case blanked."""
    if "excepted_case" not in ph.patterns:
        return folded
    out = folded
    for m in ph.finditer("excepted_case", folded):
        stop = _END.search(folded, m.end())
        end = stop.start() if stop else len(folded)
        out = out[: m.start()] + " " * (end - m.start()) + out[end:]
    return out
