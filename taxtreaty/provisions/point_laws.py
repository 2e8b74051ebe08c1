"""Protocol points that give one State back its own law on an article's income: "Notwithstanding the
provisions of paragraph 1 of Article 18 of the Convention, the Netherlands may apply its national legislation
with respect to the payments referred to therein" (NL-RO protocol XII). The article gives the income to the
residence State; the point lets the State it names tax it by its own law when the income arises there: an
allocation of that article for the State as source (`source_state`), which may tax without a limit. The rest
of the point (what the competent authorities may later agree) changes no answer and stays text.

The words are the language file's `notwithstanding` and `national_law_applies` phrases.
"""

from __future__ import annotations

from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.protocol_points import ProtocolPoint, notwithstanding_points, units_as_article
from taxtreaty.provisions.reading import Emitted, Reading
from taxtreaty.provisions.vocabulary import Phrases
from taxtreaty.structure.metadata import states_named
from taxtreaty.structure.model import Version

#: how far before the phrase its State may stand
_SUBJECT = 80


def national_law_points(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint],
                        topics: frozenset[str]) -> list[Provision]:
    """One `source_may_tax` allocation, for the named State as source, per point headed by one article of
    `topics` that opens with "notwithstanding" and lets one State apply its own law."""
    if "national_law_applies" not in ph.patterns:
        return []
    out: list[Provision] = []
    for point, home, folded, lead, law in notwithstanding_points(version, found, topics, ph, "national_law_applies"):
        # the State is the subject right before the phrase, after the "notwithstanding" clause's comma
        before = folded[max(lead.end(), law.start() - _SUBJECT) : law.start()]
        named = states_named(before[before.rfind(",") + 1 :] if "," in before else before)
        if len(named) != 1 or named[0] not in reading.parties:
            continue
        units = units_as_article(reading, version, point, home)
        if not units:
            continue
        unit = units[0]
        at = ph.find("national_law_applies", unit.folded)
        sentence = next(((a, b) for a, b in unit.sentences() if at is not None and a <= at.start() < b), (0, len(unit.text)))
        emitted = Emitted(reading)
        emitted.add(unit, "allocation", reading.cite(unit, *sentence), allocation="source_may_tax",
                    conditions={"source_state": named[0]}, overrides=[home.eid])
        out += emitted
    return out
