"""Extract what a convention decides, each fact with the exact words it rests on.

One pass over every supported language version: each paragraph is cut into units (see
`citing.Unit`), and the readers of `taxtreaty.provisions.readers`, one per kind of provision, read
the units of the articles whose topic they concern (`READERS`). Then the passes of
`taxtreaty.provisions.passes` apply what one provision's words do to others (a rate switched off,
dated, displaced; a protocol's qualification), the whole-document checks run, and the
divergences between language versions are attached.

Damage in the source (a list whose items are missing, a paragraph cut off) turns the facts it
hides into `unknown` provisions with the reason and the words around the gap; nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Callable

from taxtreaty.provisions import (
    attraction,
    gains,
    item_refs,
    lenders,
    one_state,
    outside_definition,
    passes,
    protocols,
)
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision, ProvisionSet
from taxtreaty.provisions.readers.allocations import read_allocations
from taxtreaty.provisions.readers.anti_abuse import read_anti_abuse
from taxtreaty.provisions.readers.caps import missing_caps, read_caps
from taxtreaty.provisions.readers.exemptions import read_exemptions
from taxtreaty.provisions.readers.final_clauses import (
    read_dates,
    read_prevailing_language,
    read_termination,
    read_time_limits,
)
from taxtreaty.provisions.readers.relief import read_relief
from taxtreaty.provisions.readers.thresholds import read_thresholds
from taxtreaty.provisions.reading import (
    CAP_TOPICS,
    HOST_EXEMPTION_TOPICS,
    INCOME_TOPICS,
    LIMIT_TOPICS,
    RATE_TOPICS,
    THRESHOLD_TOPICS,
    Reading,
    cite_label,
)
from taxtreaty.provisions.vocabulary import Phrases, phrases
from taxtreaty.structure.model import Article, Document, Version

Reader = Callable[[Reading, list[Unit], Phrases], list[Provision]]


def read_limits(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """The caps of an article of allocations (shipping, pensions): only where the paragraph limits the tax
    itself ("The tax so charged shall not exceed the lesser of ...", "el impuesto así exigido no excederá");
    "the amount of such profits shall not exceed 5 per cent of the sums receivable" limits a base, not a rate."""
    if not any(ph.has("charged_tax", u.folded) for u in units):
        return []
    return read_caps(reading, units, ph)

#: (does it read an article of this topic?, reader), in the order they run on each paragraph
READERS: tuple[tuple[Callable[[str | None], bool], Reader], ...] = (
    (lambda topic: topic in CAP_TOPICS, read_caps),
    (lambda topic: topic in LIMIT_TOPICS, read_limits),
    (lambda topic: topic in CAP_TOPICS or topic in HOST_EXEMPTION_TOPICS or topic in INCOME_TOPICS, read_exemptions),
    (lambda topic: topic in INCOME_TOPICS or topic is None, read_allocations),
    (lambda topic: topic in THRESHOLD_TOPICS, read_thresholds),
    (lambda topic: topic == "elimination_double_taxation", read_relief),
    (lambda topic: topic == "mutual_agreement", read_time_limits),
    (lambda topic: topic == "entry_into_force", read_dates),
    (lambda topic: topic == "termination", read_termination),
    (lambda topic: True, read_anti_abuse),
)


def read_article(reading: Reading, version: Version, article: Article, ph: Phrases) -> list[Provision]:
    """The provisions of one article: its paragraphs' readers, then the passes within an article of rates."""
    topic = article.topic
    readers = [read for reads, read in READERS if reads(topic)]
    found: list[Provision] = []
    for paragraph in article.paragraphs:
        units = reading.source.units(version.language, article, paragraph, cut_restarts=topic in CAP_TOPICS)
        if not units:
            continue
        for read in readers:
            found += read(reading, units, ph)
    if topic == "capital_gains":
        gains.excepted_paragraphs(reading, version, article, ph, found)
    if topic in RATE_TOPICS:
        passes.disapplied_rates(reading, version, article, ph, found)
        passes.dated_caps(reading, version, article, ph, found)
        passes.wrap_qualifiers(reading, version, article, ph, found)
        passes.owner_in_first_paragraph(reading, version, article, ph, found)
        passes.applies_instead(reading, version, article, ph, found)
        passes.replacing_rates(reading, version, article, ph, found)
        passes.defined_kinds(reading, version, article, ph, found)
        passes.referenced_kinds(article, ph, found)
        item_refs.cited_kinds(article, ph, found)
        lenders.named_lenders(topic, ph, found)
        passes.referenced_guarantors(article, ph, found)
        passes.headed_kind(article, ph, found)
        found += missing_caps(reading, version, article, found)
    return found


def run(reading: Reading) -> ProvisionSet:
    """Every provision of the reading's document, with the passes applied and the warnings."""
    provisions: list[Provision] = []
    for version in reading.doc.versions:
        ph = phrases(version.language)
        if not version.supported or ph is None:
            reading.warnings.append({
                "code": "language_not_supported", "language": version.language,
                "message": f"no provisions are read from the {version.language} version: no phrase vocabulary for it",
            })
            continue
        for article in version.articles:
            provisions += read_article(reading, version, article, ph)
        provisions += attraction.limited_attraction(reading, version, ph, provisions)
        provisions += protocols.read_protocols(reading, version, ph, provisions)
        provisions += one_state.extended_definitions(reading, version, ph)
    prevailing = read_prevailing_language(reading)
    if prevailing is not None:
        provisions.append(prevailing)
    passes.undistinguished_caps(provisions)
    passes.kinds_with_an_article_of_their_own(provisions)
    for version in reading.doc.versions:
        ph = phrases(version.language)
        if version.supported and ph is not None:
            protocols.participation_caveats(reading, version, ph, provisions)
    passes.protocol_qualifiers(reading.doc, provisions, reading.parties)
    for version in reading.doc.versions:
        ph = phrases(version.language)
        if version.supported and ph is not None:
            # after the qualifiers, which part a cap's kinds (a protocol's own rule for technical assistance):
            # a clause on some kinds only is carried by their caps alone
            protocols.mfn_caveats(reading, version, ph, provisions)
            protocols.article_mfn_caveats(reading, version, ph, provisions)
    for version in reading.doc.versions:
        ph = phrases(version.language)
        if version.supported and ph is not None:
            item_refs.kinds_named_apart(version, ph, provisions)
    for version in reading.doc.versions:
        ph = phrases(version.language)
        if version.supported and ph is not None:
            provisions += outside_definition.outside_definition(reading, version, ph, provisions)
    for version in reading.doc.versions:
        ph = phrases(version.language)
        if version.supported and ph is not None:
            protocols.unread_technical_points(reading, version, ph, provisions)
    reading.warnings += passes.document_warnings(reading)
    # the parser's warnings say where the text is damaged; the extractor's follow them
    parse_warnings = [{"source": "parse", **w.model_dump()} for w in reading.doc.warnings]
    warnings = parse_warnings + [{"source": "provisions", **w} for w in reading.warnings]
    result = ProvisionSet(parties=list(reading.parties), provisions=provisions, warnings=warnings)
    return passes.attach_alignment(reading, result)


def extract_provisions(doc: Document, parties: list[str] | None = None) -> ProvisionSet:
    """Every provision of `doc`, each with its citation; `parties` (ISO codes) overrides the
    document's own when given (`--parties PT,CN`)."""
    chosen = [p.upper() for p in parties] if parties else [p for p in doc.parties if isinstance(p, str)]
    if not doc.original:
        from taxtreaty.text import InputError

        raise InputError("the document carries no source text (parse it from its file to extract provisions)")
    return run(Reading(doc, chosen))


__all__ = ["READERS", "Reading", "cite_label", "extract_provisions", "read_article", "run"]
