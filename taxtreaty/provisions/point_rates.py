"""Protocol points that set a rate: "Notwithstanding the provisions of paragraph 2 of Article 11, as long as
the Netherlands does not levy a tax at source on interest then the rate ... on interest received by a bank
... shall not exceed 7.5 per cent": the rates and exemptions a point headed by one payment article sets,
read by the article readers as if the point were a paragraph of that article (its conditions, provisos and
what it displaces read the same way); a rate that replaces one cap takes that cap's conditions (`inherit`).
"""

from __future__ import annotations

from collections import Counter

from taxtreaty.provisions import figures, provisos
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.protocol_points import ProtocolPoint, only_home, point_sentences, units_as_article
from taxtreaty.provisions.reading import PAYMENT_TOPICS, Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure import eids
from taxtreaty.structure.metadata import state_mentions
from taxtreaty.structure.model import Version


def point_rates(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """The rates and exemptions of points headed by one payment article, read by the article readers
    as a paragraph of that article (a most-favoured-nation clause sets no rate of its own)."""
    from taxtreaty.provisions.readers.caps import read_caps
    from taxtreaty.provisions.readers.exemptions import read_exemptions

    out: list[Provision] = []
    for point in found:
        home = only_home(version, point, PAYMENT_TOPICS)
        if home is None:
            continue
        if not figures.find_rates(fold_same_length(point.text), ph) and not ph.has("exempt", fold_same_length(point.text)):
            continue
        # a most-favoured-nation sentence sets no rate of its own ("the rate of the second agreement or 10
        # per cent, whichever is higher, shall apply"): what is read in it is dropped
        mfn = [(point.start + a, point.start + b) for a, b in point_sentences(point.text)
               if provisos.sort_words(point.text[a:b], ph).caveat == "mfn"]
        units = units_as_article(reading, version, point, home)
        if not units:
            continue
        set_here = []
        for read in (read_caps, read_exemptions):
            for p in read(reading, units, ph):
                at = reading.source.clean_offset(p.cite.span[0])
                if _sets_a_rate(p, reading.source.cited_text(p.cite), ph) and not any(a <= (at if at is not None else -1) < b for a, b in mfn):
                    set_here.append(_direction_outside_provisos(p))
        out += set_here + _granted_rights(reading, units, ph, set_here)
    return out


def _granted_rights(reading: Reading, units: list, ph: Phrases, caps: list[Provision]) -> list[Provision]:
    """"No obstante lo dispuesto en el apartado 1 del artículo 12, los cánones pueden someterse también a imposición
    en el Estado contratante del que procedan, pero el impuesto así exigido no excederá del 5 por ciento": a point
    that sets a cap on a right of the source State it grants against a rule it sets aside (the article gives the
    royalties to the residence State alone). The grant is an allocation of the point, so the cap is not left under
    a rule that forbids any tax at source."""
    from taxtreaty.provisions.readers.allocations import read_allocations

    capped = [c for c in caps if c.kind == "withholding_cap" and c.overrides]
    if not capped:
        return []
    return [p for p in read_allocations(reading, units, ph)
            if p.kind == "allocation" and p.allocation == "source_may_tax" and p.overrides
            and any(p.cite.eid == c.cite.eid and set(p.overrides) & set(c.overrides) for c in capped)]


def _mentions(text: str) -> Counter[str]:
    """How many times each State (ISO code) is named in the words."""
    return Counter(state_mentions(text))


def _direction_outside_provisos(provision: Provision) -> Provision:
    """"... as long as the Netherlands does not levy a tax at source on interest paid to a resident of Vietnam,
    the percentage provided for in this paragraph shall be reduced to 7 per cent": the States the proviso's words
    name are the proviso's (a caveat about a State's law), not the direction of the rate, which is the paragraph's
    (both ways); a direction only the proviso's words name is dropped."""
    keys = [k for k in ("source_state", "residence_state") if k in provision.conditions]
    provisos = [c for c in provision.conditions.get("caveats", []) if c.get("kind") == "domestic_law"]
    if not keys or not provisos:
        return provision
    # mentions of each State in the rate's words and in the provisos' (counted, so hard-wrapped lines and page
    # furniture between the words change nothing)
    cited = _mentions(provision.cite.quote)
    for caveat in provisos:
        cited.subtract(_mentions(str(caveat["quote"])))
    dropped = [k for k in keys if cited[str(provision.conditions[k]).upper()] <= 0]
    if dropped:
        provision.conditions = {k: v for k, v in provision.conditions.items() if k not in dropped}
        if provision.state is not None and "source_state" in dropped:
            provision.state = None
    return provision


def _sets_a_rate(provision: Provision, text: str, ph: Phrases) -> bool:
    """A cap or exemption the point's words set ("shall not exceed 7.5 per cent", "shall not levy a
    tax"), not one they name to qualify it ("el tipo del 0 por 100 no se aplicará cuando ...": that is
    the rate of the article, qualified by `passes.protocol_qualifiers`)."""
    words = fold_same_length(text)  # the cleaned words cited (the quote may hold a repaired line's mojibake)
    if provision.kind not in ("withholding_cap", "exemption"):
        return False
    if "unread_condition" in provision.conditions:
        # "... is not charged to Netherlands company tax with respect to dividends ... the percentage provided
        # for in this subparagraph shall be reduced to 7 per cent": a rate for a case not read is not set
        return False
    if "shall_not_apply" in ph.patterns and ph.has("shall_not_apply", words):
        return False
    return ph.has("cap" if provision.kind == "withholding_cap" else "exempt", words)


def inherit(rates: list[Provision], read: list[Provision]) -> None:
    """"Notwithstanding the provisions of paragraph 2 of Article 11, ... the percentage provided for in
    this paragraph shall be reduced to 7 per cent": a point's rate replaces the one cap it displaces,
    for the same payments, so it takes that cap's conditions (beneficial ownership, a holding) under
    its own."""
    for rate in rates:
        if rate.kind != "withholding_cap" or not rate.overrides:
            continue
        displaced = [p for p in read if p.kind == "withholding_cap" and p.status == "determined" and p.topic == rate.topic
                     and p.cite.language == rate.cite.language and any(eids.within(p.cite.eid, o) for o in rate.overrides)]
        if len(displaced) != 1:
            continue
        inherited = {k: v for k, v in displaced[0].conditions.items() if k not in ("unread_condition", "caveats", "otherwise")}
        rate.conditions = {**inherited, **rate.conditions}
