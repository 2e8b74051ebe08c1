"""Protocol points: what a protocol's numbered points say about the articles they name.

`protocol_points.points` cuts a protocol into its points; each reading of a point that adds provisions
has its module (the passes of `passes.py` change provisions only):

- `point_reclassified`: a kind of payment sent to the profits articles, or deemed within one item of a
  list of rates;
- `point_rates`: the rates and exemptions a point headed by one payment article sets;
- `point_institutions`: the institutions a point counts among the recipients of an exemption;
- `point_allocations`: an allocation point for the residents of one State;
- `point_laws`: a point that gives one State back its own law on an article's income;
- `mfn_caveats` (here, a pass over the caps read): a most-favoured-nation point is a caveat (kind `mfn`)
  on every cap it can lower.
"""

from __future__ import annotations

from taxtreaty.provisions import figures, provisos
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.point_allocations import ALLOCATION_POINT_TOPICS, point_allocations
from taxtreaty.provisions.point_institutions import definition_points, institutions
from taxtreaty.provisions.point_laws import national_law_points
from taxtreaty.provisions.point_rates import inherit, point_rates
from taxtreaty.provisions.point_reclassified import deemed_items, reclassifications
from taxtreaty.provisions.protocol_points import article_numbered, points
from taxtreaty.provisions.reading import PAYMENT_TOPICS, Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure import eids
from taxtreaty.structure.model import Version


def mfn_caveats(reading: Reading, version: Version, ph: Phrases, provisions: list[Provision]) -> None:
    """"If after the signature of this Convention ... India should limit its taxation at source on
    dividends, interest, royalties ... to a rate lower than ...", "Si ... la República Argentina
    concluyera un Convenio ... con otro país miembro de la OCDE, en el que limite su imposición ... a un
    tipo inferior ...": a most-favoured-nation point. Every cap it can lower (of the payment articles
    it names, else of its heading's, else of the incomes it names) carries it as a caveat (kind
    `mfn`, the point's eId and words): the decision on such a cap says the rate may be lower."""
    for point in points(reading, version, ph):
        for sentence in provisos.sentences(point.text):
            if provisos.sort_words(sentence, ph).caveat != "mfn":
                continue
            folded = fold_same_length(sentence)
            articles = [a for kind, n in figures.find_references(folded, ph) if kind == "article"
                        and (a := article_numbered(version, n)) is not None and a.topic in PAYMENT_TOPICS]
            if not articles:
                articles = [a for n in point.articles if (a := article_numbered(version, n)) is not None and a.topic in PAYMENT_TOPICS]
            targets = {a.eid for a in articles}
            topics = {income for _, _, income in ph.group_hits("incomes", folded)}
            caveat = {"kind": "mfn", "eid": point.eid, "quote": sentence}
            for p in provisions:
                if p.cite.language != version.language or p.kind != "withholding_cap" or p.status != "determined":
                    continue
                # a rate the point itself sets or deems ("shall be reduced to 7 per cent", "shall be deemed to be
                # payments to which ... subparagraph (a) ... apply") may be lowered by its own clause too
                own = p.cite.eid.startswith("protocol") and eids.within(p.cite.eid, point.eid) \
                    and p.topic in {a.topic for a in articles}
                named = own or eids.article_of(p.cite.eid) in targets or (p.topic in topics and not p.cite.eid.startswith("protocol"))
                if named and caveat not in p.conditions.get("caveats", []):
                    p.conditions = {**p.conditions, "caveats": [*p.conditions.get("caveats", []), caveat]}


def read_protocols(reading: Reading, version: Version, ph: Phrases, read: list[Provision]) -> list[Provision]:
    """The provisions a version's protocol points add (`read`: those of its articles), and the institutions an
    article's own paragraph names for another's exemption (`definition_points`)."""
    defined = institutions(reading, version, ph, definition_points(reading, version, ph), read)
    if not version.protocols:
        return defined
    found = points(reading, version, ph)
    rates = point_rates(reading, version, ph, found)
    inherit(rates, read)
    return [*reclassifications(reading, version, ph, found), *deemed_items(reading, version, ph, found, read), *rates,
            *institutions(reading, version, ph, found, read), *point_allocations(reading, version, ph, found),
            *national_law_points(reading, version, ph, found, ALLOCATION_POINT_TOPICS), *defined]
