"""Protocol points: what a protocol's numbered points say about the articles they name.

`protocol_points.points` cuts a protocol into its points; each reading of a point that adds provisions
has its module (the passes of `passes.py` change provisions only):

- `point_reclassified`: a kind of payment sent to the profits articles, or deemed within one item of a
  list of rates;
- `point_participating`: interest on profit-sharing bonds treated as dividends (the fact `interest_profit_sharing`);
- `point_contingent`: fees for technical services that are royalties only where computed on production, sales or
  profits (the fact `fee_contingent_on_results`), else profits;
- `point_rates`: the rates and exemptions a point headed by one payment article sets;
- `point_institutions`: the institutions a point counts among the recipients of an exemption;
- `point_allocations`: an allocation point for the residents of one State;
- `point_laws`: a point that gives one State back its own law on an article's income;
- `emigrants.point_gain_rights`: a point that gives one State a right on gains the capital gains article gives elsewhere;
- `mfn_caveats` (here, a pass over the caps read): a most-favoured-nation point is a caveat (kind `mfn`);
  `article_mfn_caveats` (here): so is such a paragraph of a payment article itself
- `participation_caveats` (here): a point on income from profit-participating rights is a caveat (kind
  `profit_participation`) on the dividend and interest answers it names
- `unread_technical_points` (here, last): a point of the royalty article on technical services that no reader
  consumed is a caveat (kind `protocol_point`) on that article's caps, exemptions and residence-only rules
  on every cap it can lower.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from taxtreaty.provisions import figures, one_state, provisos, references
from taxtreaty.provisions.emigrants import point_gain_rights
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.point_allocations import ALLOCATION_POINT_TOPICS, point_allocations
from taxtreaty.provisions.point_contingent import contingent_fees
from taxtreaty.provisions.point_institutions import definition_points, institutions
from taxtreaty.provisions.point_laws import national_law_points
from taxtreaty.provisions.point_participating import participating_interest
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
    `mfn`, the point's eId and words): the decision on such a cap says the rate may be lower. A clause that binds
    one State (`one_state.mfn_bound_state`) is carried by the cap as that State applies it at source only (a cap
    read for both is split by source State)."""
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
            kinds = ph.group_hits("subtypes", folded)
            topics = {income for start, end, income in ph.group_hits("incomes", folded)
                      if not any(s < end and start < e for s, e, _ in kinds)}
            caveat = {"kind": "mfn", "eid": point.eid, "quote": sentence}
            # a clause binding one State ("royalties arising in Estonia from Estonian tax", "will apply to residents
            # of the Netherlands") lowers that State's tax at source only: the cap as the other State applies it stays
            bound = one_state.mfn_bound_state(sentence, ph, reading.parties)
            for p in list(provisions):
                if p.cite.language != version.language or p.kind != "withholding_cap" or p.status != "determined":
                    continue
                if not _binds(p, bound):
                    continue
                if not _mfn_covers_kind(p, topics, {kind for _, _, kind in kinds}):
                    continue
                # a rate the point itself sets or deems ("shall be reduced to 7 per cent", "shall be deemed to be
                # payments to which ... subparagraph (a) ... apply") may be lowered by its own clause too
                own = p.cite.eid.startswith("protocol") and eids.within(p.cite.eid, point.eid) \
                    and p.topic in {a.topic for a in articles}
                named = own or eids.article_of(p.cite.eid) in targets or (p.topic in topics and not p.cite.eid.startswith("protocol"))
                if named and caveat not in p.conditions.get("caveats", []):
                    _carry(p, caveat, bound, reading.parties, provisions)


def _binds(cap: Provision, bound: str | None) -> bool:
    """A clause binding `bound` alone (None: both States) can lower `cap`: a cap of the other State's source tax stays."""
    return bound is None or cap.conditions.get("source_state", bound) == bound


def _carry(cap: Provision, caveat: dict[str, str], bound: str | None, parties: list[str], provisions: list[Provision]) -> None:
    """`cap` carries `caveat`; for a clause binding one State (`bound`), the copy of a cap read for both that
    holds for income arising there (`one_state.for_one_source`) does, and `cap` stays the other State's."""
    if bound is not None and "source_state" not in cap.conditions:
        cap = one_state.for_one_source(cap, bound, parties, provisions)
    cap.conditions = {**cap.conditions, "caveats": [*cap.conditions.get("caveats", []), caveat]}


def article_mfn_caveats(reading: Reading, version: Version, ph: Phrases, provisions: list[Provision]) -> None:
    """"10. If under any convention ... concluded ... between the Republic of South Africa and a third country,
    South Africa limits its taxation on dividends as contemplated in subparagraph a) of paragraph 2 of this Article to
    a rate lower ... the same rate ... shall automatically apply in both Contracting States": a most-favoured-nation
    paragraph of a payment article itself. The caps of the paragraphs and items of that article it names (else all
    the article's) carry it as a caveat (kind `mfn`, the paragraph's eId and words), in the direction it binds
    (`one_state.mfn_bound_state`). A sentence on a permanent establishment in a third State is no such clause."""
    for article, unit, words, sentence in _article_sentences(reading, version):
        if provisos.sort_words(words, ph).caveat != "mfn" or ph.has("permanent_establishment", sentence):
            continue
        targets = references.switched_off(unit, sentence, ph) or [article.eid]
        caveat = {"kind": "mfn", "eid": unit.eid, "quote": words}
        bound = one_state.mfn_bound_state(words, ph, reading.parties)
        for p in list(provisions):
            if p.cite.language != version.language or p.kind != "withholding_cap" or p.status != "determined" \
                    or not any(eids.within(p.cite.eid, t) for t in targets) or not _binds(p, bound):
                continue
            if not any(c.get("kind") == "mfn" and c.get("eid") == unit.eid for c in p.conditions.get("caveats", [])):
                _carry(p, caveat, bound, reading.parties, provisions)


def _article_sentences(reading: Reading, version: Version) -> Iterator[tuple[Any, Any, str, str]]:
    """Each sentence of the payment articles: (article, unit, its words on one line, its folded text)."""
    for article in version.articles:
        if article.topic not in PAYMENT_TOPICS:
            continue
        for paragraph in article.paragraphs:
            for unit in reading.source.units(version.language, article, paragraph, cut_restarts=True):
                for s_start, s_end in unit.sentences():
                    yield article, unit, " ".join(unit.text[s_start:s_end].split()), unit.folded[s_start:s_end]


def _mfn_covers_kind(cap: Provision, general: set[str], named: set[str]) -> bool:
    """A clause naming kinds of payment only ("pagos por servicios de asistencia técnica previstos en el
    Artículo 12", "payments for technical services") lowers the caps of those kinds, not the article's
    others (trademarks, "all other cases"); one naming the income itself ("regalías, pagos por asistencia
    técnica") lowers every cap of it. A part of a kind (`technical_services_part`) is of that kind."""
    if not named or cap.topic in general:
        return True
    subtype = cap.conditions.get("income_subtype")
    capped = {subtype} if isinstance(subtype, str) else set(subtype or ())
    return any(c == n or c.startswith(f"{n}_") or n.startswith(f"{c}_") for c in capped for n in named)


#: the payment articles whose answers a point on income from profit-participating rights qualifies
_PARTICIPATION_TOPICS = ("dividends", "interest")


def participation_caveats(reading: Reading, version: Version, ph: Phrases, provisions: list[Provision]) -> None:
    """"in case one of the States subjects the income from profit sharing bonds to a tax on dividends, article 10 is
    applicable", "los dividendos e intereses ... serán gravados con los impuestos que disponga la legislación de ese
    Estado, cuando se basen en derechos o acreencias que impliquen participación en las ganancias": a point on income
    from rights or debt-claims participating in profits (`profit_participation` words). It changes the answer for that
    income only, and no fact says whether a payment is such income: every cap, exemption and residence-only rule of
    the dividend and interest articles (the point naming either) carries it as a caveat (kind `profit_participation`, the point's words),
    so that the answer for ordinary dividends or interest says so, never silently."""
    if "profit_participation" not in ph.patterns:
        return
    for point in points(reading, version, ph):
        for sentence in provisos.sentences(point.text):
            folded = fold_same_length(sentence)
            if not ph.has("profit_participation", folded):
                continue
            named = [*point.articles, *(n for kind, n in figures.find_references(folded, ph) if kind == "article")]
            targets = {a.eid for n in named if (a := article_numbered(version, n)) is not None
                       and a.topic in _PARTICIPATION_TOPICS}
            if targets:
                # such income is interest in form and dividends in substance ("Os juros sobre o capital próprio
                # ... poderão ser considerados como dividendos para os fins do Artigo 10"): asked as either, the
                # answer carries the point, whichever of the two articles it names
                targets |= {a.eid for a in version.articles if a.topic in _PARTICIPATION_TOPICS}
            caveat = {"kind": "profit_participation", "eid": point.eid, "quote": " ".join(sentence.split())}
            if any(p.cite.eid == point.eid and p.values.get("reclassified_topic") for p in provisions):
                continue  # read as the switch of such interest to the dividend article (point_participating.py): a fact
            for p in provisions:
                if p.cite.language != version.language or eids.article_of(p.cite.eid) not in targets:
                    continue
                benefit = p.kind in ("withholding_cap", "exemption") or (p.kind == "allocation" and p.allocation == "residence_only")
                if benefit and caveat not in p.conditions.get("caveats", []):
                    p.conditions = {**p.conditions, "caveats": [*p.conditions.get("caveats", []), caveat]}


#: the kinds of royalty (`subtypes` of the language files) a protocol point of the royalty article may speak of
_ROYALTY_KINDS = ("technical_services", "technical_services_part", "equipment_rental", "equipment_some", "know_how",
                  "know_how_part", "software", "copyright", "copyright_some", "films", "patents", "trademarks", "news")
#: a quote this long found inside a point's sentence consumes it (a shorter one may be a common phrase)
_CONSUMING_QUOTE = 40


def _read_words(provisions: list[Provision], language: str) -> list[str]:
    """The words a provision, its caveats or its unread condition hold (whitespace collapsed)."""
    out: list[str] = []
    for p in provisions:
        if p.cite.language != language:
            continue
        out.append(p.cite.quote)
        out += [str(c.get("quote", "")) for c in p.conditions.get("caveats", [])]
        out += str(p.conditions.get("unread_condition", "")).split(" … ")
    return [" ".join(w.split()) for w in out if w and w.strip()]


def unread_technical_points(reading: Reading, version: Version, ph: Phrases, provisions: list[Provision]) -> None:
    """A protocol point of the royalty article that speaks of a kind of royalty, technical services or assistance
    above all ("technical services", "servicios de asistencia técnica", "assistência técnica"; "the lease of ships
    ... under a bare boat charter contract shall not be considered as payments for the use of ... equipment"), in
    words no reader turned into a provision, a caveat or a condition: it widens or narrows the definition in a
    way not read, or neither, yet it may change the answer. Every cap, exemption and residence-only rule of that article carries it as a caveat (kind `protocol_point`, its
    words), so that the answer says there is more to read, never silently."""
    read = _read_words(provisions, version.language)
    for point in points(reading, version, ph):
        for sentence in provisos.sentences(point.text):
            folded = fold_same_length(sentence)
            if not any(kind in _ROYALTY_KINDS for _, _, kind in ph.group_hits("subtypes", folded)):
                continue
            words = " ".join(sentence.split())
            if any(words in q or (len(q) >= _CONSUMING_QUOTE and q in words) for q in read):
                continue
            named = [*point.articles, *(n for kind, n in figures.find_references(folded, ph) if kind == "article")]
            targets = {a.eid for n in named if (a := article_numbered(version, n)) is not None and a.topic == "royalties"}
            caveat = {"kind": "protocol_point", "eid": point.eid, "quote": words}
            for p in provisions:
                benefit = p.kind in ("withholding_cap", "exemption") or (p.kind == "allocation" and p.allocation == "residence_only")
                if (p.cite.language == version.language and benefit and eids.article_of(p.cite.eid) in targets
                        and caveat not in p.conditions.get("caveats", [])):
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
    return [*reclassifications(reading, version, ph, found), *contingent_fees(reading, version, ph, found),
            *participating_interest(reading, version, ph, found),
            *deemed_items(reading, version, ph, found, read), *rates,
            *institutions(reading, version, ph, found, read), *point_allocations(reading, version, ph, found),
            *national_law_points(reading, version, ph, found, ALLOCATION_POINT_TOPICS),
            *point_gain_rights(reading, version, ph, found), *defined]
