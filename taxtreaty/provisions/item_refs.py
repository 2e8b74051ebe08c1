"""Items of a list of rates that name their kinds of payment by citing other items.

"a) 10 por ciento del importe bruto de las regalías en los casos de pagos o créditos a los que se
refiere: ii) los subapartados 3 (b)(d); y iii) el subapartado 3 (j) relacionado con cualquier pago o
crédito mencionado en los subapartados 2 (a) (i) o (ii)": the royalties of (ii) are the kinds the
definition's items 3(b) to 3(d) name; those of (iii) are bounded by its sister items (i) and (ii).
`cited_kinds` resolves such references inside the article's own tree (`subapartado 3 (b)`, `3(b) to
(d)`, `2 (a) (i) o (ii)`) and reads the kinds of the items cited (`conditions.subtype_conditions`):
the reference words leave `unread_condition` and the cap carries the kinds (`income_subtype`). A
reference that does not resolve, an item cited that names no kind, or other words beside the
reference stay unread words: never a guess.

Two items printed side by side with nothing between them ("3 (b)(d)") are read as the run from the
first to the last: a list of two would print its joiner ("3 (b) y (d)"); the kinds of the items in
between are kinds the definition gives as parts (`know_how_part`), so the run never names more
sure kinds than the items at its ends where those are the only ones that are.

The words are the language file's `point_words`, `paragraph_words`, `item_range` ("to", "a") and
`item_reference_words` ("en el caso de pagos o créditos a que se refiere"); nothing here knows a
treaty.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import regex

from taxtreaty.patterns import compiled
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.subtypes import subtype_conditions
from taxtreaty.provisions.vocabulary import Phrases, alternation, fold_same_length, require_phrases
from taxtreaty.structure import eids
from taxtreaty.structure.model import Article, Paragraph, Point, Version

#: "(b)", "( ii )": one label in brackets
_GROUP = regex.compile(r"\(\s*([a-z]{1,4})\s*\)")
_WORD = regex.compile(r"\p{L}[\p{L}'’]*")


@cache
def _reference(language: str) -> regex.Pattern[str]:
    """"subapartados 3 (b)(d)", "subparagraphs 3(b) to (d)", "subapartados 2 (a) (i) o (ii)": a paragraph
    number then the labels of its items, in brackets, side by side or joined by "and", "or", "," or a
    word of a run ("to")."""
    ph = require_phrases(language)
    words = alternation([*ph.raw["point_words"], *ph.raw["paragraph_words"]], whole_word=False)
    joiners = ph.word_group("and_words", "or_words")
    run = alternation(ph.raw["item_range"]) if "item_range" in ph.raw else "(?!)"
    sep = rf"\s*(?:(?:,|{joiners}(?![\p{{L}}])|{run})\s*)?"
    group = r"\(\s*[a-z]{1,4}\s*\)"
    return regex.compile(rf"(?<![\p{{L}}]){words}s?\s*(?P<para>\d{{1,2}})\s*(?P<groups>{group}(?:{sep}{group})*)")


def _child(node: Paragraph | Point, label: str) -> Point | None:
    return next((p for p in node.points if p.eid == eids.point(node.eid, label)), None)


def _run(parent: Paragraph | Point, first: Point, last: Point) -> list[Point] | None:
    points = list(parent.points)
    if first not in points or last not in points or points.index(last) < points.index(first):
        return None
    return points[points.index(first) : points.index(last) + 1]


def resolve(article: Article, folded: str, match: regex.Match[str], ph: Phrases) -> list[Point] | None:
    """The items one reference names, or None when any label does not resolve in the article."""
    paragraph = article.paragraph(match.group("para"))
    if paragraph is None:
        return None
    groups = list(_GROUP.finditer(folded, match.start("groups"), match.end("groups")))
    run = alternation(ph.raw["item_range"]) if "item_range" in ph.raw else "(?!)"
    out: list[Point] = []
    parent: Paragraph | Point = paragraph
    last: Point | None = None
    for k, group in enumerate(groups):
        label = group.group(1)
        between = folded[groups[k - 1].end() : group.start()].strip() if k else ""
        if last is None:
            found = _child(parent, label)
            if found is None:
                return None
            out.append(found)
            last = found
            continue
        if not between:
            child = _child(last, label)
            if child is not None:  # "2 (a) (i)": an item of the item named before it
                out.remove(last)
                parent, last = last, child
                out.append(child)
                continue
        sibling = _child(parent, label)
        if sibling is None:
            return None
        if not between or compiled(run).fullmatch(between):
            # "3 (b) to (d)", "3 (b)(d)": the run from the item named before to this one
            items = _run(parent, last, sibling)
            if items is None:
                return None
            out += [p for p in items if p not in out]
        else:
            out.append(sibling)
        last = sibling
    return out


def _only_reference_words(folded: str, spans: list[tuple[int, int]], ph: Phrases) -> bool:
    """Nothing but the references, the words that lead to them and the small words of a list."""
    covered = bytearray(len(folded))
    for start, end in spans:
        covered[start:end] = b"\x01" * (end - start)
    if "item_reference_words" in ph.patterns:
        for m in ph.finditer("item_reference_words", folded):
            covered[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    small = set(ph.words("and_words")) | set(ph.words("or_words")) | set(ph.words("determiners")) | set(ph.words("of_words"))
    return all(all(covered[m.start() : m.end()]) or m.group() in small for m in _WORD.finditer(folded))


def _kinds_of_item(item: Point, ph: Phrases) -> list[str] | None:
    found = subtype_conditions(fold_same_length(" ".join(item.text.split())), ph).get("income_subtype")
    if found is None or subtype_conditions(fold_same_length(" ".join(item.text.split())), ph).get("income_subtype_excluded"):
        return None
    return [found] if isinstance(found, str) else list(found)


def _as_list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else [str(v) for v in value or ()]


def _piece_kinds(article: Article, p: Provision, piece: str, ph: Phrases, found: list[Provision]) -> list[str] | None:
    """The kinds of payment the references of one piece of unread words name, or None."""
    folded = fold_same_length(piece)
    matches = list(_reference(ph.code).finditer(folded))
    if not matches or not _only_reference_words(folded, [(m.start(), m.end()) for m in matches], ph):
        return None
    own_parent = eids.parent(p.cite.eid)
    sisters: list[str] = []
    others: list[list[str] | None] = []
    for match in matches:
        items = resolve(article, folded, match, ph)
        if not items:
            return None
        for item in items:
            if item.eid == p.cite.eid or eids.within(p.cite.eid, item.eid):
                return None  # the item itself, or the list it is in: no kind of its own
            if eids.parent(item.eid) == own_parent:
                # a sister item of the same list: the kinds its own cap carries, at the same rate
                caps = [q for q in found if q.kind == "withholding_cap" and q.cite.eid == item.eid]
                if not caps or any("unread_condition" in q.conditions or "income_subtype" not in q.conditions
                                   or q.rate_pct != p.rate_pct for q in caps):
                    return None
                sisters += [k for q in caps for k in _as_list(q.conditions["income_subtype"])]
            else:
                others.append(_kinds_of_item(item, ph))
    if sisters:
        # "3 (j) as it relates to any payment mentioned in 2 (a) (i) or (ii)": bounded by the sister items
        return list(dict.fromkeys(sisters))
    if any(k is None for k in others):
        return None
    return list(dict.fromkeys(k for kinds in others if kinds for k in kinds))


def cited_kinds(article: Article, ph: Phrases, found: list[Provision]) -> None:
    """Each cap of the article whose unread words are references to items of the article: the kinds of
    those items (see the module's doc). Sister items first: a cap bounded by them waits for theirs."""
    caps = [p for p in found if p.kind == "withholding_cap" and p.conditions.get("unread_condition")
            and "income_subtype" not in p.conditions and p.cite.eid.startswith(article.eid + "__")]
    changed = True
    while changed:
        changed = False
        for p in caps:
            words = p.conditions.get("unread_condition")
            if not words:
                continue
            pieces = str(words).split(" … ")
            kinds = _as_list(p.conditions.get("income_subtype"))
            left = []
            for piece in pieces:
                got = _piece_kinds(article, p, piece, ph, found)
                if got is None:
                    left.append(piece)
                else:
                    kinds += [k for k in got if k not in kinds]
            if len(left) == len(pieces):
                continue
            conditions = {k: v for k, v in p.conditions.items() if k != "unread_condition"}
            conditions["income_subtype"] = kinds[0] if len(kinds) == 1 else kinds
            if left:
                conditions["unread_condition"] = " … ".join(left)
            p.conditions = conditions
            changed = True


#: the kinds of royalty a clause's copyright may cover, unless the definition names them apart (the `maybe`
#: of `copyright` in data/rules/labels.yaml `subtype_facts`)
_COPYRIGHT = ("copyright", "copyright_some")
_WITHIN_COPYRIGHT = ("films", "software")


def definition_paragraph(article: Article, ph: Phrases) -> tuple[Paragraph, str] | None:
    """The article's paragraph that defines its income ("El término “regalías” empleado en el presente artículo
    significa ..."), with its folded words."""
    if "kind_definition" not in ph.patterns:
        return None
    for paragraph in article.paragraphs:
        folded = fold_same_length(" ".join(paragraph.text.split()))
        match = ph.find("kind_definition", folded)
        if match is not None and any(match.start() <= a and b <= match.end() and income == article.topic
                                     for a, b, income in ph.group_hits("incomes", folded)):
            return paragraph, folded
    return None


def _definition(article: Article, ph: Phrases) -> str | None:
    found = definition_paragraph(article, ph)
    return found[1] if found else None


def apart_kinds(article: Article, ph: Phrases) -> list[str]:
    """The kinds a copyright may cover (films, software) that the article's definition names apart from its
    copyright: a kind whose word comes after another kind's, not after the copyright's ("un derecho de autor
    sobre una obra literaria ..., patentes, ..., programas de computación", or an item of its own "h) ...
    películas cinematográficas"). Named right after the copyright ("derechos de autor sobre obras
    literarias, artísticas o científicas, incluidas las películas cinematográficas") it may be of it."""
    folded = _definition(article, ph)
    if folded is None:
        return []
    hits = ph.group_hits("subtypes", folded)
    if not any(kind in _COPYRIGHT for _, _, kind in hits):
        return []
    out: list[str] = []
    for k, (_, _, kind) in enumerate(hits):
        if kind in _WITHIN_COPYRIGHT and k and hits[k - 1][2] not in _COPYRIGHT and kind not in out:
            out.append(kind)
    return out


def kinds_named_apart(version: Version, ph: Phrases, provisions: list[Provision]) -> None:
    """The rules of an income whose kind is a copyright (or every kind but one, "income_subtype_not") carry
    the kinds its article's definition names apart (`income_subtype_apart`): a film or software royalty is
    then not asked whether it is such a copyright (rules: not "maybe")."""
    for article in version.articles:
        if article.topic != "royalties":
            continue
        apart = apart_kinds(article, ph)
        if not apart:
            continue
        for p in provisions:
            if p.topic != article.topic or p.cite.language != version.language or "income_subtype_apart" in p.conditions:
                continue
            own = [*_as_list(p.conditions.get("income_subtype")), *_as_list(p.conditions.get("income_subtype_not"))]
            if any(k in _COPYRIGHT for k in own):
                p.conditions = {**p.conditions, "income_subtype_apart": [k for k in apart if k not in own]}


__all__ = ["apart_kinds", "cited_kinds", "definition_paragraph", "kinds_named_apart", "resolve"]
