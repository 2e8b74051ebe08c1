"""A right kept on the gains of a former resident (OECD article 13, the emigrant's shares).

"The provisions of paragraph 4 shall not affect the right of each of the Contracting States to levy according to its
own law a tax on gains from the alienation of shares ... in a company ... which under the laws of that State is a
resident of that State, derived by an individual who is a resident of the other Contracting State and has been a
resident of the first-mentioned State in the course of the last five years preceding the alienation" (and "no
afectarán al derecho de ...", "não prejudicam o direito de ..."), or a protocol point: "Notwithstanding the provisions
of paragraph 4 of Article 13, the Netherlands may, in accordance with its own laws, ... levy tax on gains derived by an
individual who has been a resident of the Netherlands and has become a resident of Kenya from the alienation of shares
... provided that such individual has a qualified shareholding in that company". Either gives the taxing State back its
right on those gains: a `source_may_tax` allocation that sets aside the paragraphs it names (`overrides`), with its
conditions as facts: the property (`gain_property: shares`), the alienator an individual (`recipient`), a former
resident of the taxing State (`former_resident`) within the years the words count (`former_resident_within_years`), a
company resident of that State (`company_in_source`). A clause none of these reads ("provided that ...") stays
`unread_condition`; a protocol point that sets the article aside in words that are not these keeps them all unread.

The words are the language files' `gain_former_resident`, `gain_individual`, `gain_company_resident`,
`gain_period_within`, `gain_not_lead`, `gain_shares`, `gain_condition_lead`, `notwithstanding` and `point_state_may`.
"""

from __future__ import annotations

from typing import Any

from taxtreaty.provisions import figures
from taxtreaty.provisions.holdings import SHARE_KEYS, holding
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.protocol_points import (
    NOTWITHSTANDING_LEAD,
    ProtocolPoint,
    article_numbered,
    point_sentences,
    units_as_article,
)
from taxtreaty.provisions.reading import Emitted, Reading
from taxtreaty.provisions.references import reference_end
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure import eids
from taxtreaty.structure.metadata import states_named
from taxtreaty.structure.model import Version

#: how far (characters) after the former-resident words their period ("in the course of the last five years") may stand
_PERIOD_WINDOW = 120
#: how far a "notwithstanding" reference of a protocol point may run
_REFERENCE_WINDOW = 160
#: how far after the reference the State and its "may" may stand
_STATE_WINDOW = 80
_KEYS = ("gain_former_resident", "gain_individual", "gain_company_resident", "gain_period_within")


def _words(text: str) -> str:
    return " ".join(text.split()).strip(" ,;:.")


def emigrant_conditions(folded: str, text: str, ph: Phrases) -> dict[str, Any] | None:
    """The conditions of a right on a former resident's gains in `folded` (the words after the verb that keeps or gives
    the right; `text` the same words unfolded), or None when they do not speak of a former resident."""
    if any(k not in ph.patterns for k in _KEYS):
        return None
    former = ph.find("gain_former_resident", folded)
    if former is None:
        return None
    out: dict[str, Any] = {}
    unread: list[str] = []
    if "gain_shares" in ph.patterns and ph.has(
        "gain_shares", folded[: former.start()] + folded[former.end() :]
    ):
        out["gain_property"] = ["shares"]
    if ph.has("gain_individual", folded):
        out["recipient"] = "individual"
    out["former_resident"] = True
    window = folded[former.end() : former.end() + _PERIOD_WINDOW]
    years = next((d for d in figures.find_durations(window, ph) if d.unit == "years"), None)
    if years is not None:
        if ph.has("gain_period_within", window):
            out["former_resident_within_years"] = int(years.value)
        else:  # "was a resident ... for a period of five years or more": a length of residence, not read
            unread.append(_words(text[former.start() : former.end() + years.end]))
    if ph.has("gain_company_resident", folded):
        out["company_in_source"] = True
    # the clauses of conditions after the former-resident words ("provided that such individual has a qualified
    # shareholding in that company"): a participation, or words no fact answers
    if "gain_condition_lead" in ph.patterns:
        for m in ph.finditer("gain_condition_lead", folded, former.end()):
            not_lead = ph.find("gain_not_lead", folded, m.start()) if "gain_not_lead" in ph.patterns else None
            if not_lead is not None and not_lead.start() == m.start():
                continue  # "e se tenha tornado residente": a reflexive, no condition
            stop = min(
                (i for i in (folded.find(",", m.end()), folded.find(";", m.end())) if i >= 0),
                default=len(folded),
            )
            found = {k: v for k, v in holding(folded[m.start() : stop], ph).items() if k in SHARE_KEYS}
            if found:
                out.update(found)
            else:
                unread.append(_words(text[m.start() : stop]))
    if unread:
        out["unread_condition"] = " … ".join(dict.fromkeys(unread))
    return out


def _grouped(refs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """{article: [paragraphs]} of a reference: "paragraphs 1, 2 and 3 of Article 10 and paragraph 4 of Article 13"
    (the paragraphs before the article they are of), "Article 13, paragraph 4" (after it)."""
    out: dict[str, list[str]] = {}
    first_article = bool(refs) and refs[0][0] == "article"
    pending: list[str] = []
    current: str | None = None
    for kind, n in refs:
        if kind == "article":
            current = n
            out.setdefault(n, [])
            if not first_article:
                out[n] += pending
                pending = []
        elif first_article and current is not None:
            out[current].append(n)
        else:
            pending.append(n)
    return out


def point_gain_rights(
    reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]
) -> list[Provision]:
    """A `source_may_tax` allocation of the capital gains article for each protocol sentence that opens with
    "Notwithstanding" a paragraph of that article and gives one State, named right after, its right ("the Netherlands
    may ... levy tax on gains ..."): its conditions are those of a former resident's gains when its words are those,
    else its words stay unread (the decision is open, citing them)."""
    if "point_state_may" not in ph.patterns or "notwithstanding" not in ph.patterns:
        return []
    out: list[Provision] = []
    for point in found:
        for a, b in point_sentences(point.text):
            text = point.text[a:b]
            folded = fold_same_length(text)
            lead = ph.find("notwithstanding", folded)
            if lead is None or lead.start() > NOTWITHSTANDING_LEAD:
                continue
            window = folded[lead.end() : lead.end() + _REFERENCE_WINDOW]
            end = reference_end(ph.code).search(window)
            if end is None:
                continue
            homes = [
                (home, paragraphs)
                for n, paragraphs in _grouped(figures.find_references(window[: end.start()], ph)).items()
                if (home := article_numbered(version, n)) is not None and home.topic == "capital_gains"
            ]
            if len(homes) != 1:
                continue
            home, paragraphs = homes[0]
            rest_at = lead.end() + end.end()
            may = ph.find("point_state_may", folded, rest_at, min(len(folded), rest_at + _STATE_WINDOW))
            named = states_named(folded[rest_at : may.start()]) if may is not None else []
            if may is None or len(named) != 1 or named[0] not in reading.parties:
                continue
            conditions = emigrant_conditions(folded[may.end() :], text[may.end() :], ph) or {
                "unread_condition": _words(text)
            }
            units = units_as_article(reading, version, point, home)
            unit = units[0] if units else None
            at = unit.text.find(text.strip()) if unit is not None else -1
            if unit is None or at < 0:
                continue
            emitted = Emitted(reading)
            overrides = [eids.paragraph(home.eid, p) for p in paragraphs] or [home.eid]
            emitted.add(
                unit,
                "allocation",
                reading.cite(unit, at, at + len(text.strip())),
                allocation="source_may_tax",
                conditions={"source_state": named[0], **conditions},
                overrides=overrides,
            )
            out += emitted
    return out
