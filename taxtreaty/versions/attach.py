"""Which convention an amending instrument amends: the one with the same Contracting States whose
signature date is the date the instrument names ("el Convenio del 13 de julio de 1978"). Nothing
less: an instrument that names no date, or whose convention is not there, waits for its base and is
applied to nothing (`--treaty ID` / `amends:` say it explicitly)."""

from __future__ import annotations

from dataclasses import dataclass

from taxtreaty.structure.instrument import Instrument


@dataclass(frozen=True)
class Candidate:
    key: str
    parties: tuple[str, ...]
    signed: str | None


def find_base(instrument: Instrument, candidates: list[Candidate]) -> tuple[str | None, str]:
    """(the key of the base convention, or None, and why)."""
    base = instrument.base
    if base is None or len(base.parties) != 2:
        return None, "the instrument does not name the Contracting States of the convention it amends"
    if not base.date:
        return None, "the instrument does not name the date of the convention it amends"
    pair = set(base.parties)
    found = [c for c in candidates if set(c.parties) == pair and c.signed == base.date]
    if len(found) == 1:
        return found[0].key, f"amends the convention between {'–'.join(sorted(pair))} signed on {base.date}"
    if len(found) > 1:
        return None, f"{len(found)} conventions between {'–'.join(sorted(pair))} signed on {base.date}: name one"
    return None, f"waiting for its base: the convention between {'–'.join(sorted(pair))} signed on {base.date} is not there"
