"""From the builder's nodes to the model: eIds, spans, intro and wrap-up texts, topics, and the
checks that need a whole article (cut inside a word, announced lists with no items, a version
that stops before its closing clause).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import regex

from taxtreaty import patterns, vocab
from taxtreaty.structure import eids
from taxtreaty.structure.model import Article, Paragraph, Point, Protocol
from taxtreaty.structure.nodes import ArticleNode, Node, ParaNode, PointNode, ProtocolNode
from taxtreaty.structure.topics import classify_article
from taxtreaty.text import CleanText

#: the end of a text cut inside a hyphenated word ("mon-")
_CUT_WORD = regex.compile(r"\p{L}[-‐]$")


class Assembler:
    def __init__(self, ct: CleanText, language: str | None, supported: bool,
                 warn: Callable[[str, str | None, str], None]):
        self.ct = ct
        self.language = language
        self.supported = supported
        self.warn = warn

    def finish(self, articles_built: list[ArticleNode], protocols_built: list[ProtocolNode],
               saw_closing: bool) -> tuple[list[Article], list[Protocol]]:
        """The model nodes of a version's articles and protocols; `saw_closing` tells whether the
        version reached its closing formula (else its last article is cut off)."""
        ct = self.ct
        # a version that ends without its closing formula ends mid-document
        if articles_built and not saw_closing:
            last = articles_built[-1]
            last.complete = False
            last_end = max([last.end] + [p.end for p in last.paragraphs])
            tail = ct.text[last.start:last_end].rstrip()
            cut_mid_sentence = not patterns.SENTENCE_END.search(tail)
            if last.paragraphs and cut_mid_sentence:
                last.paragraphs[-1].complete = False
            self.warn(
                "text_truncated", eids.article(last.number),
                "the text stops " + ("mid-sentence " if cut_mid_sentence else "")
                + f"in article {last.number} before the convention's closing clause; the rest is not in the source",
            )
        for art in articles_built[:-1]:
            self._check_cut_inside_a_word(art)
        articles = [self._article_model(a) for a in articles_built]
        protocols = [
            Protocol(
                eid=eids.protocol(k),
                heading=p.heading,
                span=ct.original_span(p.start, max([p.end] + [q.end for q in p.paragraphs])),
                paragraphs=self._paragraph_models(eids.protocol(k), p.paragraphs),
            )
            for k, p in enumerate(protocols_built, start=1)
        ]
        for art in articles:
            if not art.complete and not art.number_inferred:
                continue
            if art.number_inferred and art.heading is None:
                self.warn("article_incomplete", art.eid,
                          f"the text starts inside an article; numbered {art.number} from the next heading")
        return articles, protocols

    def _check_cut_inside_a_word(self, art: ArticleNode) -> None:
        """An article whose text ends in half a word ("10 % do mon-") right before the next
        heading lost the rest of its text with a page: it is incomplete, whatever it said."""
        end = max([art.end] + [p.end for p in art.paragraphs])
        tail = self.ct.text[max(art.start, end - 40):end].rstrip()
        if not art.paragraphs or not _CUT_WORD.search(tail):
            return
        art.complete = False
        art.paragraphs[-1].complete = False
        self.warn("text_truncated", eids.article(art.number),
                  f"article {art.number} stops inside a word ({tail.split()[-1]!r}) before the next heading; "
                  "the rest of it is not in the source")

    def _article_model(self, a: ArticleNode) -> Article:
        eid = eids.article(a.number)
        paragraphs = self._paragraph_models(eid, a.paragraphs)
        end = max([a.end] + [p.end for p in a.paragraphs])
        body = "\n".join(p.text for p in paragraphs)
        # a language read for structure only still names its topics from its own words (Dutch titles)
        topic = classify_article(a.heading, body, self.language) if self.supported or self.language else None
        if self.supported and topic is None:
            self.warn("topic_unknown", eid, f"article {a.number} ({a.heading or 'no heading'}) matches no Model topic")
        return Article(
            eid=eid, number=a.number, number_inferred=a.number_inferred, heading=a.heading, topic=topic,
            complete=a.complete, chapter=a.chapter, span=self.ct.original_span(a.start, end), paragraphs=paragraphs,
        )

    def _paragraph_models(self, owner: str, paras: list[ParaNode]) -> list[Paragraph]:
        out, unnumbered = [], 0
        in_protocol = eids.components(owner)[0][0] == eids.ALIASES["protocol"]
        for k, p in enumerate(paras):
            if p.number is None:
                unnumbered += 1
                eid = eids.paragraph(owner, None, unnumbered)
            else:
                eid = eids.paragraph(owner, p.number)
            points = self._point_models(eid, p.children)
            intro, wrap = self._intro_wrap(p)
            out.append(Paragraph(
                eid=eid, number=p.number, number_inferred=p.number_inferred, complete=p.complete,
                text=self.ct.text[p.start:p.end].strip(), span=self._span(p.start, p.end),
                intro=intro, wrap_up=wrap, points=points,
            ))
            # "... agreed upon the following provisions:" then the protocol's articles, or its numbered points
            # ("os signatários acordaram as seguintes disposições ...:" then "1. Ad n.º 3 do artigo 11.º")
            announces_points = p.number is None and in_protocol and any(q.number is not None for q in paras[k + 1 :])
            if not (p.number is None and any(q.protocol_article for q in paras)) and not announces_points:
                self._check_missing_items(eid, p, points)
        return out

    def _point_models(self, owner: str, points: list[PointNode]) -> list[Point]:
        out = []
        for p in points:
            eid = eids.point(owner, p.label)
            intro, wrap = self._intro_wrap(p)
            out.append(Point(
                eid=eid, label=p.label, label_printed=p.printed, text=self.ct.text[p.start:p.end].strip(),
                span=self._span(p.start, p.end), intro=intro, wrap_up=wrap,
                points=self._point_models(eid, p.children),
            ))
            if p.printed is not None:
                self.warn("ocr_repaired", eid, f"point label {p.printed!r} read as {p.label!r} from the list's sequence")
        return out

    def _span(self, start: int, end: int) -> tuple[int, int]:
        text = self.ct.text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        return self.ct.original_span(start, end)

    def _intro_wrap(self, node: Node) -> tuple[str | None, str | None]:
        if not node.children:
            return None, None
        first = node.children[0]
        intro = self.ct.text[node.start:getattr(first, "marker_start", first.start)].strip() or None
        last_end = node.children[-1].end
        wrap = self.ct.text[last_end:node.end].strip() or None
        return intro, wrap

    def _check_missing_items(self, eid: str, para: ParaNode, points: list[Point]) -> None:
        """A paragraph or point that announces a list (ends a line with ":") and has none after it."""
        text = self.ct.text[para.start:para.end]
        own = text if not para.children else (self._intro_wrap(para)[0] or "")
        lines = own.split("\n")
        for k, ln in enumerate(lines):
            if k + 1 < len(lines) and patterns.BULLET.match(lines[k + 1].strip()):
                continue  # the items are dash bullets ("to wit:" then "– the Agreement of ...")
            if ln.rstrip().endswith(":") and (k + 1 < len(lines) or not para.children):
                if _announced_text_follows(lines[k + 1 :]) or (k == 0 and _heading_of_text(ln, lines[k + 1 :])):
                    continue
                if para.children and lines[-1].rstrip().endswith(":") and k + 1 < len(lines):
                    continue  # "... de la siguiente forma:" then "Cuando ... permitirá:" and its items
                self.warn("list_items_missing", eid,
                          f"{eid} announces a list ({ln.strip()[-40:]!r}) but no items follow in the source text")
                return
        for point in points:
            if point.text.rstrip().endswith(":") and not point.points:
                self.warn("list_items_missing", point.eid,
                          f"{point.eid} announces a list but no items follow in the source text")


#: "... shall be eliminated as follows:" then the rule itself in sentences: the text a colon
#: announces is there when at least this much follows it, in this many sentences
_ANNOUNCED_TEXT_MIN_CHARS = 300
_ANNOUNCED_TEXT_MIN_SENTENCES = 3
_SENTENCE_STOP = regex.compile(r"[.;!?](?=\s|$)")


#: a paragraph's first line that heads the sentences under it is at most this long
_HEADING_LINE_MAX = 80
_HEADING_LINE_MAX_WORDS = 4


@cache
def _cites_article() -> regex.Pattern[str]:
    words = sorted({vocab.fold(w).rstrip(".") for w in vocab.all_words("article_words")}, key=len, reverse=True)
    return regex.compile(rf"(?<!\p{{L}})(?:{'|'.join(regex.escape(w) for w in words)})s?\.?\s*(?:\d|[ivxlc]+\b)")


def _heading_of_text(line: str, following: list[str]) -> bool:
    """"Con referencia al artículo 2°:", "Ad Article 10:", "En Australia:": a short first line that
    names an article (or is a few words) and heads the sentences under it, which start with a capital.
    "However, the tax so charged shall not exceed:" names none: its items are lost."""
    text = line.strip().lstrip("-–—• ").rstrip(":").strip()
    rest = " ".join(ln.strip() for ln in following if ln.strip())
    if not text or len(line.strip()) > _HEADING_LINE_MAX or not rest[:1].isupper():
        return False
    return len(text.split()) <= _HEADING_LINE_MAX_WORDS or bool(_cites_article().search(vocab.fold(text)))


def _announced_text_follows(lines: list[str]) -> bool:
    """Is what a colon announces present as running text ("In India double taxation shall be
    eliminated as follows:" then paragraphs of sentences), rather than lost list items with at
    most a wrap-up sentence after them? A following line that starts in lower case, or too little
    text, is not enough."""
    following = [ln.strip() for ln in lines if ln.strip()]
    if not following or not following[0][:1].isupper():
        return False
    text = " ".join(following)
    return len(text) >= _ANNOUNCED_TEXT_MIN_CHARS and len(_SENTENCE_STOP.findall(text)) >= _ANNOUNCED_TEXT_MIN_SENTENCES

