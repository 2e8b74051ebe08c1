"""Protocol points that give the income of one State's residents under an article of allocations to that State
alone ("Notwithstanding the provisions of Article 17, where a person who is a resident of South Africa ...,
that income shall be taxable only in South Africa if ..."): an allocation whose persons and amounts stay
unread words (the decision is open, citing them).
"""

from __future__ import annotations

from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.protocol_points import ProtocolPoint, notwithstanding_points, units_as_article
from taxtreaty.provisions.reading import Emitted, Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure.metadata import states_named
from taxtreaty.structure.model import Version

#: articles of allocations a protocol point may set aside for some persons ("Notwithstanding the provisions of
#: Article 17, where a person who is a resident of South Africa on the date ..., that income shall be taxable
#: only in South Africa if ...")
ALLOCATION_POINT_TOPICS = frozenset({"pensions", "government_service", "employment", "directors_fees", "students",
                                      "professors_researchers", "other_income"})


def point_allocations(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """"Notwithstanding the provisions of Article 17, where a person who is a resident of South Africa on the date
    on which the Convention comes into effect, continues ... to derive a pension ..., that income shall be taxable
    only in South Africa if the total gross amount ... does not exceed 10.000 Euro": a point headed by one article
    of allocations that gives the income of the residents of one State to that State alone. Its persons and amounts
    are not read: an allocation of that article for those residents whose words are unread (the decision is open,
    citing them), never silently left out."""

    out: list[Provision] = []
    residents = [fold_same_length(w) for w in ph.words("resident_words")]
    for point, home, folded, _lead, exclusive in notwithstanding_points(version, found, ALLOCATION_POINT_TOPICS, ph,
                                                                        "exclusive"):
        at = next((i for w in residents if (i := folded.find(w)) >= 0 and i < exclusive.start()), -1)
        named = states_named(folded[at : at + 60]) if at >= 0 else []
        given = states_named(folded[exclusive.end() : exclusive.end() + 40])
        if not named or given[:1] != named[:1]:
            continue
        units = units_as_article(reading, version, point, home)
        if not units:
            continue
        emitted = Emitted(reading)
        unit = units[0]
        emitted.add(unit, "allocation", reading.cite(unit, 0, len(unit.text)), allocation="residence_only",
                    conditions={"residence_state": named[0], "unread_condition": " ".join(unit.text.split())},
                    overrides=[home.eid])
        out += emitted
    return out

