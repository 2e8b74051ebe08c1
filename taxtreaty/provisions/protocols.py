"""Protocol points: what a protocol's numbered points say about the articles they name.

A protocol prints its points in many shapes: a numeral alone on a line then "Ad Article 11"
(NL-BD), "IV. *Ad Article 4* A company ..." (NL-KE), numbered paragraphs "1. Con referencia al
artículo 12: a) ... b) ..." (Boletín Oficial), "Ad artigo 10.º ..." (Diário da República). The
parser may keep several points in one paragraph; `points` cuts a protocol's words into points
again, each with the articles its heading names ("Ad Articles 10, 11 and 12" -> 10, 11, 12).

Two readings of a point add provisions (the passes of `passes.py` change provisions only):

- `reclassifications`: "Payments received as a consideration for technical services ... are
  payments to which the provisions of Article 7 or Article 14 apply": the kind of income the words
  name goes to the business-profits (or independent-services) article, an allocation of the
  payment article with `values.reclassified_to` that the engine applies before the article's rates;
- `mfn_caveats` (a pass over the caps read): a most-favoured-nation point is a caveat (kind `mfn`)
  on every cap it can lower;
- `point_rates`: "Notwithstanding the provisions of paragraph 2 of Article 11, as long as the
  Netherlands does not levy a tax at source on interest then the rate ... on interest received by
  a bank ... shall not exceed 7.5 per cent": the rates and exemptions a point headed by one payment
  article sets, read by the article readers as if the point were a paragraph of that article (its
  conditions, provisos and what it displaces read the same way).

The words are the language file's `protocol_heading` and `reclassified` phrases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import regex

from taxtreaty.provisions import figures, provisos, references
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.point_laws import national_law_points
from taxtreaty.provisions.reading import PAYMENT_TOPICS, Reading
from taxtreaty.provisions.vocabulary import Phrases, all_words, fold_same_length, word_alternation
from taxtreaty.structure import eids
from taxtreaty.structure.metadata import state_mentions, states_named
from taxtreaty.structure.model import Article, Paragraph, Protocol, Version

#: a line that is only a point's numeral ("II", "4.", "(iii)")
_LABEL_LINE = regex.compile(r"\s*\(?(?P<label>[IVXLC]{1,6}|\d{1,2})[.)]?\s*")
#: a line that opens with a roman numeral and a dot ("IV. *Ad Article 4* A company ...")
_ROMAN_LEAD = regex.compile(r"\s*(?P<label>[IVXLC]{1,6})\.\s+")
#: markdown emphasis around a heading ("*Ad Article 4*")
_EMPHASIS = regex.compile(r"[*_]+")
#: topics a payment may be reclassified to
PROFIT_TOPICS = ("business_profits", "independent_services")


@dataclass
class ProtocolPoint:
    """One point of a protocol: its label, the articles its heading names, its words (cleaned offsets)."""

    language: str
    eid: str  # the protocol paragraph the point's words start in, or the point's label under it
    label: str | None
    articles: list[str]
    start: int
    end: int
    text: str
    heading: str = ""


def _heading_articles(line: str, ph: Phrases) -> tuple[list[str], int] | None:
    """The article numbers a heading at the start of a line names, and where the heading ends:
    "Ad Articles 10, 11 and 12" -> (["10", "11", "12"], 25); "Con referencia al artículo XI, apartado
    3 a." -> (["XI"], ...); "With reference to paragraph (3) of Article 11" -> (["11"], ...); None when the line does not open with a heading."""
    if "protocol_heading" not in ph.patterns:
        return None
    folded = fold_same_length(_EMPHASIS.sub(lambda m: " " * len(m.group()), line))
    lead = ph.patterns["protocol_heading"].match(folded.lstrip())
    if lead is None:
        return None
    offset = len(folded) - len(folded.lstrip())
    # the heading runs to the end of its references: numbers, article/paragraph words, joiners
    words = ph.word_group("and_words", "of_words")
    article = ph.raw["article_words"]
    paragraph = ph.raw["paragraph_words"] + ph.raw["point_words"]
    word_alts = "|".join(regex.escape(fold_same_length(w)) for w in sorted({*article, *paragraph}, key=len, reverse=True))
    piece = rf"(?:\s*(?:,|{words}|{word_alts}|[ivxlc]{{1,6}}\b|\d{{1,3}}(?:\.?[º°o])?|\(?[a-z]\)|\(\d{{1,3}}\)|[a-z]\.(?!\p{{L}})))"
    tail = regex.compile(rf"(?:{piece})*").match(folded, offset + lead.end())
    end = tail.end() if tail else offset + lead.end()
    heading = folded[:end]
    numbers = regex.findall(rf"(?:{'|'.join(regex.escape(fold_same_length(w)) for w in article)})\s+((?:[ivxlc]{{1,6}}|\d{{1,3}})\b(?:\s*(?:,|{words})\s*(?:[ivxlc]{{1,6}}|\d{{1,3}})\b)*)", heading)
    found: list[str] = []
    for group in numbers:
        for n in regex.findall(r"\b(?:[ivxlc]{1,6}|\d{1,3})\b", group):
            value = n.upper() if not n.isdigit() else n
            if value not in found:
                found.append(value)
    return found, end


def points(reading: Reading, version: Version, ph: Phrases) -> list[ProtocolPoint]:
    """The points of every protocol of a version, in order."""
    out: list[ProtocolPoint] = []
    for protocol in version.protocols:
        out += _protocol_points(reading, version, protocol, ph)
    return out


def _protocol_points(reading: Reading, version: Version, protocol: Protocol, ph: Phrases) -> list[ProtocolPoint]:
    found: list[ProtocolPoint] = []
    current: ProtocolPoint | None = None
    pending_label: str | None = None
    roman = False  # the current point was opened by a roman numeral: numbered paragraphs are its sub-points

    def close(at: int) -> None:
        if current is not None:
            current.end = max(current.start, at)
            current.text = reading.source.text[current.start : current.end]
            if current.text.strip():
                found.append(current)

    previous_end: int | None = None  # where the words of the paragraph before end (not its successor's number)
    for paragraph in protocol.paragraphs:
        base = reading.source.locate(paragraph.text, paragraph.span)
        if base is None:
            continue
        offset = 0
        for k, line in enumerate(paragraph.text.split("\n")):
            at = base + offset
            offset += len(line) + 1
            if not line.strip():
                continue
            # a point closed by the next numbered paragraph ends with its own words, not with "4." after them
            close_at = previous_end if k == 0 and previous_end is not None and previous_end <= at else at
            label = _LABEL_LINE.fullmatch(line)
            if label is not None:
                close(close_at)
                current, pending_label, roman = None, label.group("label"), not label.group("label").isdigit()
                continue
            lead = _ROMAN_LEAD.match(line)
            body_at = at + (lead.end() if lead else 0)
            heading = _heading_articles(line[lead.end():] if lead else line, ph)
            numbered = k == 0 and paragraph.number is not None
            if lead is None and pending_label is None and heading is None and not (numbered and not roman):
                continue  # the words go on in the current point (its sub-points "1.", "a)")
            close(close_at)
            if lead is not None:
                roman = True
            label_text = lead.group("label") if lead else pending_label or (paragraph.number if numbered else None)
            articles, heading_end = heading if heading is not None else ([], 0)
            start = body_at + heading_end
            while start < len(reading.source.text) and reading.source.text[start] in " \t*_:\n":
                start += 1  # the emphasis and blanks that close the heading
            # a point of its own paragraph is cited by the paragraph's eId; one of several in a paragraph by
            # its label under it ("protocol_1__para_nn_1__point_ii")
            own = numbered and label_text == paragraph.number and lead is None
            eid = paragraph.eid if own or not label_text else eids.point(paragraph.eid, label_text.lower())
            current = ProtocolPoint(version.language, eid, label_text, articles, start, start, "",
                                    heading=(line[lead.end():] if lead else line)[:heading_end])
            pending_label = None
        previous_end = base + len(paragraph.text)
    if current is not None:
        last = protocol.paragraphs[-1] if protocol.paragraphs else None
        base = reading.source.locate(last.text, last.span) if last is not None else None
        close((base + len(last.text)) if base is not None and last is not None else current.start)
    return found


def _articles_by_number(version: Version) -> dict[str, Article]:
    out: dict[str, Article] = {}
    for article in version.articles:
        out[eids.article(article.number)] = article
    return out


def _article(version: Version, number: str) -> Article | None:
    return _articles_by_number(version).get(eids.article(number))


def _only_home(version: Version, point: ProtocolPoint, topics: frozenset[str]) -> Article | None:
    """The one article a point names, when its topic is one of `topics`; None for none or several."""
    homes = [a for n in point.articles if (a := _article(version, n)) is not None]
    return homes[0] if len(homes) == 1 and homes[0].topic in topics else None


def _reclassifying_sentences(found: list[ProtocolPoint], ph: Phrases) -> Iterator[tuple[ProtocolPoint, int, int, str, Any]]:
    """(point, start, end, folded sentence, match) of each sentence of the points that holds `reclassified` words."""
    for point in found:
        folded = fold_same_length(point.text)
        for s_start, s_end in _sentences(point.text):
            sentence = folded[s_start:s_end]
            match = ph.find("reclassified", sentence)
            if match is not None:
                yield point, s_start, s_end, sentence, match


def reclassifications(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """"... technical services ... are payments to which the provisions of Article 7 or Article 14
    apply": an allocation of the payment article that sends the kind of income the words name to
    the articles of profits. Filed under the payment article the point's heading names, else under
    each payment article whose words name the same kind."""
    if "reclassified" not in ph.patterns:
        return []
    out: list[Provision] = []
    for point, s_start, s_end, sentence, match in _reclassifying_sentences(found, ph):
        targets = [n for kind, n in figures.find_references(sentence, ph) if kind == "article"]
        profit = [n for n in targets if (a := _article(version, n)) is not None and a.topic in PROFIT_TOPICS]
        kinds = [kind for start, _, kind in ph.group_hits("subtypes", sentence) if start < match.start()]
        if not profit or not kinds:
            continue
        subtype = kinds[0]
        # the payment article the heading names; else the heading's own (the rules file it under the
        # income whose kind it is: "Ad Article 7 and 14" about technical services is about royalties)
        named = [a for n in point.articles if (a := _article(version, n)) is not None]
        homes = [a for a in named if a.topic in PAYMENT_TOPICS] or named[:1] or [_article(version, profit[0])]
        cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
        for home in homes:
            if home is None:
                continue
            out.append(reading.provision(home, "allocation", cite, allocation=None,
                                         conditions={"income_subtype": subtype},
                                         values={"reclassified_to": profit}))
    return out


def deemed_items(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint],
                 read: list[Provision]) -> list[Provision]:
    """"... payments for technical services ... shall be deemed to be payments to which the provisions [of]
    subparagraph (a) of paragraph 2 of Article 12 apply", "serão considerados pagamentos a que se aplica a alínea
    a) do n.º 2 do artigo 12.º": a kind of payment the point deems within one item of a list of rates. Each cap of
    that item gives a cap for that kind (its rate and conditions, cited by the point), which displaces the list's
    rate "in all other cases" (the kind is no longer among them)."""
    if "reclassified" not in ph.patterns:
        return []
    out: list[Provision] = []
    for point, s_start, s_end, sentence, match in _reclassifying_sentences(found, ph):
        after = sentence[match.start():]
        refs = figures.find_references(after, ph)
        articles = list(dict.fromkeys(n for kind, n in refs if kind == "article"))
        paragraphs = list(dict.fromkeys(n for kind, n in refs if kind == "paragraph"))
        letters = figures.find_point_references(after, ph)
        kinds = list(dict.fromkeys(kind for start, _, kind in ph.group_hits("subtypes", sentence) if start < match.start()))
        article = _article(version, articles[0]) if len(articles) == 1 else None
        if article is None or article.topic not in PAYMENT_TOPICS or len(paragraphs) != 1 or len(letters) != 1 \
                or len(kinds) != 1:
            continue
        paragraph = eids.paragraph(article.eid, paragraphs[0])
        target = eids.point(paragraph, letters[0])
        caps = [p for p in read if p.kind == "withholding_cap" and p.cite.language == version.language
                and p.topic == article.topic and eids.within(p.cite.eid, paragraph)]
        items = [p for p in caps if p.status == "determined" and eids.within(p.cite.eid, target)]
        if not items:
            continue
        residual = list(dict.fromkeys(p.cite.eid for p in caps if p.conditions.get("otherwise")))
        cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
        for item in items:
            conditions = {k: v for k, v in item.conditions.items()
                          if k not in ("income_subtype", "income_subtype_not", "otherwise", "unread_condition")}
            conditions["income_subtype"] = kinds[0]
            out.append(reading.provision(article, "withholding_cap", cite, rate_pct=item.rate_pct,
                                         values=dict(item.values), conditions=conditions, overrides=residual))
            cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
    return out


def _sentences(text: str) -> list[tuple[int, int]]:
    """Sentence ranges of a point's words (offsets into `text`)."""
    out, start = [], 0
    for m in regex.finditer(r"(?<=[.;])\s+(?=[\p{Lu}(\d])|\n+", text):
        if text[start : m.start()].strip():
            out.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        out.append((start, len(text)))
    return out


def point_rates(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """The rates and exemptions of points headed by one payment article, read by the article readers
    as a paragraph of that article (a most-favoured-nation clause sets no rate of its own)."""
    from taxtreaty.provisions.readers.caps import read_caps
    from taxtreaty.provisions.readers.exemptions import read_exemptions

    out: list[Provision] = []
    for point in found:
        home = _only_home(version, point, PAYMENT_TOPICS)
        if home is None:
            continue
        if not figures.find_rates(fold_same_length(point.text), ph) and not ph.has("exempt", fold_same_length(point.text)):
            continue
        # a most-favoured-nation sentence sets no rate of its own ("the rate of the second agreement or 10
        # per cent, whichever is higher, shall apply"): what is read in it is dropped
        mfn = [(point.start + a, point.start + b) for a, b in _sentences(point.text)
               if provisos.sort_words(point.text[a:b], ph).caveat == "mfn"]
        units = _units_as_article(reading, version, point, home)
        if not units:
            continue
        for read in (read_caps, read_exemptions):
            for p in read(reading, units, ph):
                at = reading.source.clean_offset(p.cite.span[0])
                if _sets_a_rate(p, ph) and not any(a <= (at if at is not None else -1) < b for a, b in mfn):
                    out.append(_direction_outside_provisos(p))
    return out


#: articles of allocations a protocol point may set aside for some persons ("Notwithstanding the provisions of
#: Article 17, where a person who is a resident of South Africa on the date ..., that income shall be taxable
#: only in South Africa if ...")
_ALLOCATION_POINT_TOPICS = frozenset({"pensions", "government_service", "employment", "directors_fees", "students",
                                      "professors_researchers", "other_income"})


def point_allocations(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """"Notwithstanding the provisions of Article 17, where a person who is a resident of South Africa on the date
    on which the Convention comes into effect, continues ... to derive a pension ..., that income shall be taxable
    only in South Africa if the total gross amount ... does not exceed 10.000 Euro": a point headed by one article
    of allocations that gives the income of the residents of one State to that State alone. Its persons and amounts
    are not read: an allocation of that article for those residents whose words are unread (the decision is open,
    citing them), never silently left out."""
    from taxtreaty.provisions.reading import Emitted

    out: list[Provision] = []
    residents = [fold_same_length(w) for w in ph.words("resident_words")]
    for point in found:
        home = _only_home(version, point, _ALLOCATION_POINT_TOPICS)
        if home is None:
            continue
        folded = fold_same_length(point.text)
        lead = ph.find("notwithstanding", folded)
        exclusive = ph.find("exclusive", folded)
        if lead is None or lead.start() > _POINT_LEAD or exclusive is None:
            continue
        at = next((i for w in residents if (i := folded.find(w)) >= 0 and i < exclusive.start()), -1)
        named = states_named(folded[at : at + 60]) if at >= 0 else []
        given = states_named(folded[exclusive.end() : exclusive.end() + 40])
        if not named or given[:1] != named[:1]:
            continue
        units = _units_as_article(reading, version, point, home)
        if not units:
            continue
        emitted = Emitted(reading)
        unit = units[0]
        emitted.add(unit, "allocation", reading.cite(unit, 0, len(unit.text)), allocation="residence_only",
                    conditions={"residence_state": named[0], "unread_condition": " ".join(unit.text.split())},
                    overrides=[home.eid])
        out += emitted
    return out


#: how far into a point its "Notwithstanding" may stand
_POINT_LEAD = 40


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


def _sets_a_rate(provision: Provision, ph: Phrases) -> bool:
    """A cap or exemption the point's words set ("shall not exceed 7.5 per cent", "shall not levy a
    tax"), not one they name to qualify it ("el tipo del 0 por 100 no se aplicará cuando ...": that is
    the rate of the article, qualified by `passes.protocol_qualifiers`)."""
    words = fold_same_length(provision.cite.quote)
    if provision.kind not in ("withholding_cap", "exemption"):
        return False
    if "unread_condition" in provision.conditions:
        # "... is not charged to Netherlands company tax with respect to dividends ... the percentage provided
        # for in this subparagraph shall be reduced to 7 per cent": a rate for a case not read is not set
        return False
    if "shall_not_apply" in ph.patterns and ph.has("shall_not_apply", words):
        return False
    return ph.has("cap" if provision.kind == "withholding_cap" else "exempt", words)


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
                        and (a := _article(version, n)) is not None and a.topic in PAYMENT_TOPICS]
            if not articles:
                articles = [a for n in point.articles if (a := _article(version, n)) is not None and a.topic in PAYMENT_TOPICS]
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


@cache
def _name() -> regex.Pattern[str]:
    """A name as printed: capitalised words, joined by short lower-case words ("do", "de la", "of")
    that are not a list's "and" ("el Banco Nacional de Desarrollo y el Banco Hipotecario Nacional" is two)."""
    joiners = word_alternation([w.casefold() for w in all_words("and_words")])
    small = rf"(?!(?:{joiners})\s)\p{{Ll}}{{1,3}}"
    word = r"\p{Lu}[\p{L}'’.-]*"
    return regex.compile(rf"{word}(?:\s+(?:{small}\s+)*{word})+")


def _heading_target(point: ProtocolPoint, ph: Phrases) -> str | None:
    """The paragraph (or item) a point's heading names after its one article: "Con referencia al
    artículo XI, apartado 3 a." -> "art_11__para_3__point_a"; None without one article and paragraph."""
    if len(point.articles) != 1:
        return None
    folded = fold_same_length(point.heading)
    words = "|".join(regex.escape(fold_same_length(w)) for w in sorted(ph.raw["paragraph_words"], key=len, reverse=True))
    m = regex.search(rf"(?:{words})\s*(\d{{1,3}})\s*\.?\s*(?:\(?([a-z])(?:\)|\.|\b))?", folded)
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
    for m in regex.finditer(rf",\s*{joiners}\s+", text, flags=regex.IGNORECASE):
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
        if len(exemptions) != 1:
            continue
        base = exemptions[0]
        rest = point.start + include.end()
        items = [(a, b) for a, b in _sentences(reading.source.text[rest : point.end])]
        if not any(_name().search(reading.source.text[rest + a : rest + b]) for a, b in items):
            # "o Banco X, no caso do Brasil, e o Banco Y, no caso da Tailândia, consideram-se incluídos na
            # expressão": the names come before the words, one item to each "e"
            rest = point.start + _body_start(point)
            items = _joined_items(reading.source.text[rest : point.start + include.start()], ph)
        for a, b in items:
            words = reading.source.text[rest + a : rest + b]
            states = states_named(words[:40]) or states_named(words)
            names = [m.group() for m in _name().finditer(words) if not states_named(m.group()) or len(m.group().split()) > 2]
            names = [n for n in names if any(True for _ in ph.group_hits("kinds", fold_same_length(n)))
                     or ("institution_forms" in ph.patterns and ph.has("institution_forms", fold_same_length(n)))] or names
            if not names:
                continue
            conditions = {k: v for k, v in base.conditions.items() if k not in ("recipient_kinds", "recipient_names", "unread_condition")}
            conditions["recipient_names"] = [" ".join(n.split()).rstrip(".,;:") for n in names]
            if len(states) == 1:
                conditions["residence_state"] = states[0]
            cite = reading.cite_cleaned(version.language, point.eid, rest + a, rest + b)
            article = _article(version, point.articles[0])
            if article is not None:
                out.append(reading.provision(article, "exemption", cite, conditions=conditions, overrides=list(base.overrides)))
    return out


def _inherit(rates: list[Provision], read: list[Provision]) -> None:
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


def read_protocols(reading: Reading, version: Version, ph: Phrases, read: list[Provision]) -> list[Provision]:
    """The provisions a version's protocol points add (`read`: those of its articles), and the institutions an
    article's own paragraph names for another's exemption (`definition_points`)."""
    defined = institutions(reading, version, ph, definition_points(reading, version, ph), read)
    if not version.protocols:
        return defined
    found = points(reading, version, ph)
    rates = point_rates(reading, version, ph, found)
    _inherit(rates, read)
    return [*reclassifications(reading, version, ph, found), *deemed_items(reading, version, ph, found, read), *rates,
            *institutions(reading, version, ph, found, read), *point_allocations(reading, version, ph, found),
            *national_law_points(reading, version, ph, found, _ALLOCATION_POINT_TOPICS), *defined]


__all__ = ["ProtocolPoint", "deemed_items", "mfn_caveats", "point_rates", "points", "read_protocols", "reclassifications"]


def _units_as_article(reading: Reading, version: Version, point: ProtocolPoint, home: Article) -> list[Unit]:
    """A protocol point's words as one paragraph of the article it names, read by that article's readers."""
    span = reading.source.clean.original_span(point.start, point.end)
    paragraph = Paragraph(eid=point.eid, number=None, text=point.text, span=span)
    article = Article(eid=home.eid, number=home.number, heading=home.heading, topic=home.topic, span=span,
                      paragraphs=[paragraph])
    return reading.source.units(version.language, article, paragraph)
