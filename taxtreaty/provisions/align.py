"""Compare the language versions of one convention, paragraph by paragraph.

The versions share eIds (the parser numbers each version the same way), so `art_11__para_2` in
Portuguese and in English are the same paragraph. For each paragraph present in two supported
versions, the figures each one holds are compared: rates, days, months, years, sums of money,
dates and cross-references. A difference is a `Divergence` with a citation in each language and
the language that prevails under the final clause.

Where one version is damaged (a provision `unknown`) and the other gives the fact, a divergence
of kind `completeness` says which version the fact comes from.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from taxtreaty.provisions import figures
from taxtreaty.provisions.conditions import as_decimal
from taxtreaty.provisions.model import Citation, Divergence, ProvisionSet
from taxtreaty.provisions.vocabulary import fold_same_length, phrases
from taxtreaty.structure import eids

if TYPE_CHECKING:
    from taxtreaty.provisions.citing import SourceText
    from taxtreaty.structure.model import Document, Paragraph


def paragraph_figures(text: str, language: str) -> dict[str, Counter[str]]:
    """What a paragraph says in numbers, by kind, as comparable strings."""
    ph = phrases(language)
    if ph is None:
        return {}
    folded = fold_same_length(text)
    out: dict[str, Counter[str]] = {
        "rate": Counter(str(as_decimal(r.value)) for r in figures.find_rates(folded, ph)),
        "amount": Counter(f"{as_decimal(a.value)} {a.currency}" for a in figures.find_amounts(folded, ph)),
        "date": Counter(d.date.isoformat() for d in figures.find_dates(folded)),
        "reference": Counter(f"{k} {n}" for k, n in set(figures.find_references(folded, ph))),
    }
    for d in figures.find_durations(folded, ph):
        out.setdefault(d.unit, Counter())[str(as_decimal(d.value))] += 1
    return out


def _cite_paragraph(source: SourceText, language: str, paragraph: Paragraph) -> Citation:
    return source.cite_original(language, paragraph.eid, paragraph.span)


def _describe(counter: Counter[str]) -> str:
    return ", ".join(sorted(counter.elements())) or "none"


def divergences(doc: Document, source: SourceText, result: ProvisionSet) -> list[Divergence]:
    out: list[Divergence] = []
    versions = [v for v in doc.versions if v.supported and phrases(v.language) is not None]
    prevailing = doc.prevailing_language
    # where a version lost the words, the completeness divergence below says so once
    damaged = {(p.cite.language, p.cite.eid) for p in result.provisions if p.status == "unknown"}
    for i, first in enumerate(versions):
        for second in versions[i + 1 :]:
            paragraphs = {p.eid: p for a in second.articles for p in a.paragraphs}
            for article in first.articles:
                for para in article.paragraphs:
                    other = paragraphs.get(para.eid)
                    if other is None:
                        continue
                    if (first.language, para.eid) in damaged or (second.language, other.eid) in damaged:
                        continue
                    out += _compare(source, first.language, para, second.language, other, prevailing)
            out += _completeness(result, first.language, second.language, prevailing)
    return out


def _compare(source: SourceText, lang_a: str, para_a: Paragraph, lang_b: str, para_b: Paragraph,
             prevailing: str | None) -> list[Divergence]:
    figs_a = paragraph_figures(para_a.text, lang_a)
    figs_b = paragraph_figures(para_b.text, lang_b)
    out = []
    for what in sorted(set(figs_a) | set(figs_b)):
        a, b = figs_a.get(what, Counter()), figs_b.get(what, Counter())
        if what == "reference":
            a, b = Counter(set(a)), Counter(set(b))
        if a == b:
            continue
        if what == "reference" and (not a or not b):
            continue  # "paragraph 2" written out in one version, "this paragraph" in the other
        values: dict[str, Any] = {lang_a: _describe(a), lang_b: _describe(b)}
        message = (f"{para_a.eid}: the {lang_a} text says {values[lang_a]} and the {lang_b} text says "
                   f"{values[lang_b]} ({what})")
        if prevailing in (lang_a, lang_b):
            message += f"; the {prevailing} text prevails"
        out.append(Divergence(
            eid=para_a.eid, what=what, values=values,
            cites=[_cite_paragraph(source, lang_a, para_a), _cite_paragraph(source, lang_b, para_b)],
            prevailing_language=prevailing, message=message,
        ))
    return out


def _completeness(result: ProvisionSet, lang_a: str, lang_b: str, prevailing: str | None) -> list[Divergence]:
    """A fact unknown in one version (damaged text) and known in the other."""
    out = []
    by_key: dict[tuple[str, str, str], dict[str, list]] = {}
    for p in result.provisions:
        if p.cite.language not in (lang_a, lang_b):
            continue
        paragraph_eid = eids.without_points(p.cite.eid)
        by_key.setdefault((paragraph_eid, p.topic, p.kind), {}).setdefault(p.cite.language, []).append(p)
    for (eid, topic, kind), langs in sorted(by_key.items()):
        if len(langs) < 2:
            continue
        status = {lang: {p.status for p in provs} for lang, provs in langs.items()}
        unknown = [lang for lang, s in status.items() if s == {"unknown"}]
        known = [lang for lang, s in status.items() if "determined" in s]
        if len(unknown) != 1 or len(known) != 1:
            continue
        damaged, whole = unknown[0], known[0]
        facts = [p for p in langs[whole] if p.status == "determined"]
        rates = ", ".join(f"{p.rate_pct}%" for p in facts if p.rate_pct is not None) or f"{len(facts)} {kind} provision(s)"
        message = (f"{eid} ({topic}): the {damaged} text is damaged here ({langs[damaged][0].reason}); "
                   f"the facts ({rates}) come from the {whole} version only")
        if prevailing == damaged:
            message += f", although the {prevailing} text prevails"
        out.append(Divergence(
            eid=eid, what="completeness", values={damaged: "unknown", whole: rates},
            cites=[langs[damaged][0].cite, facts[0].cite], prevailing_language=prevailing, message=message,
        ))
    return out


def missing_articles(doc: Document) -> list[dict[str, Any]]:
    """Articles one supported version has and another lacks (a version cut short): their facts
    come from one version only."""
    out: list[dict[str, Any]] = []
    versions = [v for v in doc.versions if v.supported and phrases(v.language) is not None]
    for whole in versions:
        for other in versions:
            if other is whole:
                continue
            present = {a.eid for a in other.articles}
            lacking = [a for a in whole.articles if a.eid not in present]
            if not lacking or not other.articles:
                continue
            numbers = ", ".join(a.number for a in lacking)
            message = (f"the {other.language} version has no article{'s' if len(lacking) > 1 else ''} {numbers}: the facts of "
                       f"{'that article' if len(lacking) == 1 else 'those articles'} come from the {whole.language} version only")
            if doc.prevailing_language == other.language:
                message += f", although the {other.language} text prevails"
            out.append({"code": "version_incomplete", "language": other.language, "eid": None, "message": message,
                        "articles": [a.eid for a in lacking], "from_language": whole.language})
    return out
