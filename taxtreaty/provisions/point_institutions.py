"""Protocol points (and an article's own definition paragraphs) that name the institutions among the
recipients of an exemption: "Con referencia al artículo XI, apartado 3 a. Queda establecido que ... se
consideran incluidas en la expresión determinadas instituciones ...: a) En el caso de Argentina: El Banco
Central de la República Argentina, ...". Each institution becomes an exemption like the one the point
names, for the institution by name.

The words are the language file's `protocol_includes` and `institution_forms` phrases.
"""

from __future__ import annotations

from functools import cache

import regex

from taxtreaty.patterns import compiled
from taxtreaty.provisions import references
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.protocol_points import ProtocolPoint, article_numbered, point_sentences
from taxtreaty.provisions.reading import PAYMENT_TOPICS, Reading
from taxtreaty.provisions.vocabulary import Phrases, all_words, fold_same_length, word_alternation
from taxtreaty.structure import eids
from taxtreaty.structure.metadata import states_named
from taxtreaty.structure.model import Version


@cache
def _name() -> regex.Pattern[str]:
    """A name as printed: capitalised words, joined by short lower-case words ("do", "de la", "of")
    that are not a list's "and" ("el Banco Nacional de Desarrollo y el Banco Hipotecario Nacional" is two),
    or by an "and" right between two capitalised words ("Banco de Exportação e Importação da China": one
    name; `_names` cuts it again where the word after the "and" opens a name of its own)."""
    joiners = word_alternation([w.casefold() for w in all_words("and_words")])
    small = rf"(?!(?:{joiners})\s)\p{{Ll}}{{1,3}}"
    word = r"\p{Lu}[\p{L}'’.-]*+"
    return regex.compile(rf"{word}(?:\s++(?:(?:{small}\s++)*+|(?:{joiners})\s++){word})++")


def _names(words: str, ph: Phrases) -> list[str]:
    """The names `words` prints: a match of `_name`, cut at an "and" whose next word opens a name of its own,
    a kind of institution ("Banco Nacional de Desarrollo y Banco Hipotecario Nacional": two banks), never
    at one inside a name ("Banco de Exportación e Importación de China", "Export and Import Bank of Korea")."""
    joiner = regex.compile(rf"\s+{ph.word_group('and_words')}\s+(?=\p{{Lu}})")
    out = []
    for m in _name().finditer(words):
        name, start = m.group(), 0
        for j in joiner.finditer(name):
            if any(a == 0 for a, _, _ in ph.group_hits("kinds", fold_same_length(name[j.end():]))):
                out.append(name[start : j.start()])
                start = j.end()
        out.append(name[start:])
    return [n for n in out if len(n.split()) > 1]


def _heading_target(point: ProtocolPoint, ph: Phrases) -> str | None:
    """The paragraph (or item) a point's heading names after its one article: "Con referencia al
    artículo XI, apartado 3 a." -> "art_11__para_3__point_a"; None without one article and paragraph."""
    if len(point.articles) != 1:
        return None
    folded = fold_same_length(point.heading)
    words = "|".join(regex.escape(fold_same_length(w)) for w in sorted(ph.raw["paragraph_words"], key=len, reverse=True))
    m = compiled(rf"(?:{words})\s*(\d{{1,3}})\s*\.?\s*(?:\(?([a-z])(?:\)|\.|\b))?").search(folded)
    if m is None:
        return None
    target = eids.paragraph(eids.article(point.articles[0]), m.group(1))
    return eids.point(target, m.group(2)) if m.group(2) else target


def _is_exemption(p: Provision) -> bool:
    """An exemption, or its allocation shape: "os juros ... pagos ao Governo do outro Estado Contratante ...
    só são tributáveis nesse outro Estado" (taxable only in the residence State, for kinds of recipient)."""
    if p.kind == "exemption":
        return True
    return p.kind == "allocation" and p.allocation == "residence_only" and bool(p.conditions.get("recipient_kinds"))


def _body_start(point: ProtocolPoint) -> int:
    """Where a point's words start after its heading (0 when the heading is not printed at its start)."""
    heading = " ".join(point.heading.split())
    head = " ".join(point.text[: len(point.heading) + 8].split())
    return len(point.heading) if heading and head.startswith(heading) else 0


def _joined_items(text: str, ph: Phrases) -> list[tuple[int, int]]:
    """The items of a list run in a sentence, split at ", e" / ", ou" ("o Banco X, no caso do Brasil, e o
    Banco Y, no caso da Tailândia"): offsets into `text`."""
    joiners = ph.word_group("and_words", "or_words")
    out, start = [], 0
    for m in compiled(rf",\s*{joiners}\s+", regex.IGNORECASE).finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text.rstrip(" ,"))))
    return [(a, b) for a, b in out if text[a:b].strip()]


def institutions(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint],
                 read: list[Provision]) -> list[Provision]:
    """"Con referencia al artículo XI, apartado 3 a. Queda establecido que ... se consideran incluidas en
    la expresión determinadas instituciones ...: a) En el caso de Argentina: El Banco Central de la
    República Argentina, ...; b) En el caso de Brasil, el Banco Central do Brasil, ...": the institutions
    a point names among the recipients of an exemption. Each item becomes an exemption like the one it
    names (its conditions), for the institutions by name (resident in the State the item names)."""
    if "protocol_includes" not in ph.patterns:
        return []
    out: list[Provision] = []
    for point in found:
        folded = fold_same_length(point.text)
        include = ph.find("protocol_includes", folded)
        if include is None or (target := _heading_target(point, ph) or references.item_named(point.articles, folded, include.start(), ph)) is None:
            continue
        exemptions = [p for p in read if _is_exemption(p) and p.status == "determined"
                      and p.cite.language == version.language and eids.within(p.cite.eid, target)]
        if len(exemptions) > 1:
            # "the terms “the central bank” and “institution owned by that Government” mean: ...": of a paragraph's
            # exemptions, the one for the kinds of recipient the point's words name
            named = {kind for _, _, kind in ph.group_hits("kinds", folded[: include.end()])}
            # ("As a person meant in subparagraph a) ... shall also be considered ...": the one for kinds of person)
            exemptions = [p for p in exemptions if (named & set(p.conditions.get("recipient_kinds", [])))
                          or (not named and p.conditions.get("recipient_kinds"))]
            # ("«institución financiera cuyo capital sea propiedad total del Gobierno» comprende ...": the words name an
            # owned institution and its Government; the exemption for both kinds, not the one for the Government alone)
            whole = [p for p in exemptions if named and named <= set(p.conditions.get("recipient_kinds", []))]
            exemptions = whole if len(whole) == 1 else exemptions
        if len(exemptions) != 1:
            continue
        base = exemptions[0]
        rest = point.start + include.end()
        items = [(a, b) for a, b in point_sentences(reading.source.text[rest : point.end])]
        if not any(_name().search(reading.source.text[rest + a : rest + b]) for a, b in items):
            # "o Banco X, no caso do Brasil, e o Banco Y, no caso da Tailândia, consideram-se incluídos na
            # expressão": the names come before the words, one item to each "e"
            rest = point.start + _body_start(point)
            items = _joined_items(reading.source.text[rest : point.start + include.start()], ph)
        for a, b in items:
            words = reading.source.text[rest + a : rest + b]
            states = states_named(words[:40]) or states_named(words)
            names = [n for n in _names(words, ph) if not states_named(n) or len(n.split()) > 2]
            names = [n for n in names if any(True for _ in ph.group_hits("kinds", fold_same_length(n)))
                     or ("institution_forms" in ph.patterns and ph.has("institution_forms", fold_same_length(n)))] or names
            if not names:
                continue
            conditions = {k: v for k, v in base.conditions.items() if k not in ("recipient_kinds", "recipient_names", "unread_condition")}
            conditions["recipient_names"] = [" ".join(n.split()).rstrip(".,;:") for n in names]
            if len(states) == 1:
                conditions["residence_state"] = states[0]
            cite = reading.cite_cleaned(version.language, point.eid, rest + a, rest + b)
            article = article_numbered(version, point.articles[0])
            if article is not None:
                out.append(reading.provision(article, "exemption", cite, conditions=conditions, overrides=list(base.overrides)))
    return out


def definition_points(reading: Reading, version: Version, ph: Phrases) -> list[ProtocolPoint]:
    """"4. For the purposes of paragraph 3, the term “any financial institution wholly owned by the other
    Contracting State” means: a) in the case of China: (i) China Development Bank Corporation; ...": a paragraph
    of a payment article that names the institutions of another paragraph's exemption, read as a protocol point
    headed by that paragraph (`institutions`)."""
    if "protocol_includes" not in ph.patterns:
        return []
    out: list[ProtocolPoint] = []
    for article in version.articles:
        if article.topic not in PAYMENT_TOPICS:
            continue
        for paragraph in article.paragraphs:
            include = ph.find("protocol_includes", fold_same_length(paragraph.text[:_DEFINITION_LEAD]))
            start = reading.source.locate(paragraph.text, paragraph.span) if include is not None else None
            if include is None or start is None:
                continue
            point = ProtocolPoint(version.language, paragraph.eid, None, [article.number], start,
                                  start + len(paragraph.text), paragraph.text, heading=paragraph.text[: include.start()])
            target = _heading_target(point, ph)
            if target is not None and not eids.within(paragraph.eid, target):
                out.append(point)
    return out


#: how far into a paragraph the words that name a kind's institutions may stand
_DEFINITION_LEAD = 200
