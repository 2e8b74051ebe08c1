"""Anti-abuse rules: the tests the text sets (main purpose, beneficial ownership, ...), one
`anti_abuse` provision per test, cited from the first sentence that sets it."""

from __future__ import annotations

from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.reading import Emitted, Reading
from taxtreaty.provisions.vocabulary import Phrases


def read_anti_abuse(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """Each anti-abuse test the sentences of one paragraph's units set, once."""
    out = Emitted(reading)
    for unit in units:
        if not ph.group_hits("anti_abuse", unit.folded):
            continue
        seen: set[str] = set()
        for s_start, s_end in unit.sentences():
            for _, _, test in ph.group_hits("anti_abuse", unit.folded[s_start:s_end]):
                if test in seen:
                    continue
                seen.add(test)
                out.add(unit, "anti_abuse", reading.cite(unit, s_start, s_end), values={"test": test})
    return out
