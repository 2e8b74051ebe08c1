"""A limited force of attraction in the business-profits article (the UN Model's article 7(1)).

"Si la empresa realiza su actividad de dicha manera, los beneficios de la empresa pueden someterse a imposición en el
otro Estado, pero sólo en la medida en que puedan atribuirse a: a) ese establecimiento permanente; b) las ventas en ese
otro Estado de bienes o mercaderías de tipo idéntico o similar al de las vendidas por medio de ese establecimiento
permanente; o c) otras actividades llevadas a cabo en ese otro Estado de naturaleza idéntica o similar ..." (AR-CA 7(1)):
the State of a permanent establishment may tax the profits attributable to it, and besides those of sales or activities
there of the same or a similar kind as the establishment's. The second is a fact the user gives,
`similar_to_pe_activity` (a documented default, false, listed as an assumption: the answer names it, never silent).

The paragraph's source right, read before with no condition when the permanent establishment is named in its items
only (the right then clashed with the residence-only rule, naming no fact), is for profits attributable to the
permanent establishment (`pe_connected`), and a second right, cited by the item that holds the words (`attraction_similar`:
"of the same or similar kind as those sold through", "de tipo idéntico o similar", "de natureza idêntica ou similar"),
is for profits of such sales or activities (`similar_to_pe_activity`).
"""

from __future__ import annotations

from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.reading import Reading
from taxtreaty.provisions.vocabulary import Phrases
from taxtreaty.structure.model import Version

#: the fact the second right turns on (facts.yaml; a default in scenario.yaml)
FACT = "similar_to_pe_activity"


def limited_attraction(reading: Reading, version: Version, ph: Phrases, provisions: list[Provision]) -> list[Provision]:
    """The rights to the profits of sales or activities like a permanent establishment's (the list it is given is
    changed in place: the paragraph's right without a condition becomes the permanent establishment's)."""
    if "attraction_similar" not in ph.patterns or "permanent_establishment" not in ph.patterns:
        return []
    out: list[Provision] = []
    for article in version.articles:
        if article.topic != "business_profits":
            continue
        for paragraph in article.paragraphs:
            units = reading.source.units(version.language, article, paragraph)
            similar = [u for u in units if ph.has("attraction_similar", u.folded)]
            rights = [p for p in provisions if p.cite.language == version.language and p.topic == "business_profits"
                      and p.kind == "allocation" and p.allocation == "source_may_tax" and p.status == "determined"
                      and p.cite.eid == paragraph.eid and not p.conditions.get("income_subtype")]
            named = any(ph.has("permanent_establishment", u.folded) for u in units)
            if not similar or not rights or not named:
                continue
            for right in rights:
                base = {k: v for k, v in right.conditions.items() if k != "pe_connected"}
                right.conditions = {**base, "pe_connected": True}
                for unit in similar:
                    cite = reading.cite(unit, 0, len(unit.text))
                    out.append(reading.provision(unit, "allocation", cite, allocation="source_may_tax",
                                                 conditions={**base, FACT: True}, overrides=list(right.overrides)))
    return out


__all__ = ["FACT", "limited_attraction"]
