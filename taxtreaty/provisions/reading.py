"""The state one extraction shares between its readers and passes.

A `Reading` holds the document, its parties, the cleaned source (`citing.SourceText`), the
extractor's warnings and the damage the parser found. It cites cleaned ranges and builds each
`Provision` (numbering its id, filing a cap under the income its words name, attaching the words
of a condition no key holds and the rates a "notwithstanding" displaces). A reader collects
what it finds in an `Emitted` list and returns it; the orchestrator (`extract`) keeps the order.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

from taxtreaty.provisions import alternatives, provisos
from taxtreaty.provisions import conditions as cond
from taxtreaty.provisions.citing import SourceText, Unit
from taxtreaty.provisions.model import Citation, Provision
from taxtreaty.provisions.references import references_displaced
from taxtreaty.provisions.unread import unread_pieces
from taxtreaty.provisions.vocabulary import fold_same_length, phrases
from taxtreaty.structure import eids
from taxtreaty.structure.model import Article, Document

#: articles whose rates are withholding caps
CAP_TOPICS = frozenset({"dividends", "interest", "royalties", "other_income", "business_profits", "technical_fees", None})
#: articles of allocations that may cap the other State's tax ("The tax so charged shall not exceed the lesser of
#: a) the rate of 1½ per cent ...", "el impuesto así exigido no excederá ... el 15 por ciento"): their caps are read
LIMIT_TOPICS = frozenset({"shipping_air_transport", "pensions", "capital_gains"})
#: articles that allocate taxing rights on an income or capital
INCOME_TOPICS = frozenset({
    "immovable_property", "business_profits", "shipping_air_transport", "dividends", "interest", "royalties",
    "capital_gains", "independent_services", "employment", "directors_fees", "entertainers_sportspersons",
    "pensions", "government_service", "students", "professors_researchers", "offshore_activities", "other_income",
    "capital", "technical_fees",
})
#: articles whose periods and sums are thresholds
THRESHOLD_TOPICS = frozenset({
    "permanent_establishment", "independent_services", "employment", "entertainers_sportspersons", "students",
    "professors_researchers", "offshore_activities", "government_service", "pensions", "shipping_air_transport",
})
HOST_EXEMPTION_TOPICS = frozenset({"students", "professors_researchers"})
#: payments whose allocation may depend on who pays or receives them (governments, central banks)
PAYMENT_TOPICS = frozenset({"dividends", "interest", "royalties"})
#: articles of rates whose after-the-fact passes run (dated caps, "applies instead", disapplied rates)
RATE_TOPICS = ("dividends", "interest", "royalties")
UNCLASSIFIED = "unclassified"
#: parse warnings that say text is missing at a node
DAMAGE_CODES = ("list_items_missing", "paragraphs_missing", "text_truncated", "article_incomplete")


def cite_label(article: Article, eid: str) -> str:
    """"art_10__para_2__point_a" -> "article 10(2)(a)"."""
    label = f"article {article.number}"
    for kind, num in eids.components(eid)[1:]:
        label += f"({num})" if kind in ("para", "point") and not num.startswith("nn") else ""
    return label


def number(value: Decimal) -> int | Decimal:
    """Whole numbers as int (days, months, money in units), others as Decimal."""
    return int(value) if value == value.to_integral() else cond.as_decimal(value)


class Reading:
    """One extraction's shared state: the document, its cleaned source, warnings and ids."""

    def __init__(self, doc: Document, parties: list[str]) -> None:
        self.doc = doc
        self.parties = parties
        self.source = SourceText(doc)
        self.warnings: list[dict[str, Any]] = []
        self._counter: dict[tuple[str, str, str], int] = defaultdict(int)
        self._damage = self._damage_index()
        self._cleaned: dict[int, tuple[int, int]] = {}
        #: each version's protocol points, cut once (`protocol_points.points`: four readers ask for them)
        self.protocol_points: dict[tuple[int, str], list[Any]] = {}

    # -- damage --------------------------------------------------------------------------------------

    def _damage_index(self) -> dict[tuple[str, str], list[str]]:
        """(language, eid) -> parse warnings that say text is missing there."""
        index: dict[tuple[str, str], list[str]] = defaultdict(list)
        for w in self.doc.warnings:
            if w.code in DAMAGE_CODES and w.eid:
                index[(w.language or "", w.eid)].append(w.code)
        return index

    def damaged(self, language: str, eid: str) -> list[str]:
        """Damage warnings on this node or any node inside it."""
        out = []
        for (lang, weid), codes in self._damage.items():
            if lang == language and eids.within(weid, eid):
                out += codes
        return out

    def cut_after(self, unit: Unit) -> bool:
        """The unit runs to the point where the source text stops (the article is cut off)."""
        article = unit.article
        if article.complete or not article.paragraphs or unit.paragraph is not article.paragraphs[-1]:
            return False
        para_start = self.source.locate(unit.paragraph.text, unit.paragraph.span)
        return para_start is not None and unit.end >= para_start + len(unit.paragraph.text)

    # -- citations -----------------------------------------------------------------------------------

    def cite(self, unit: Unit, start: int, end: int) -> Citation:
        return self.cite_cleaned(unit.language, unit.eid, unit.start + start, unit.start + end)

    def cite_cleaned(self, language: str, eid: str, start: int, end: int) -> Citation:
        """Cite cleaned[start:end], remembering the cleaned range: conditions are read from the
        cleaned words (no page furniture, hyphenation joined), quotes are the original's."""
        citation = self.source.cite(language, eid, start, end)
        self._cleaned[id(citation)] = (start, end)
        return citation

    # -- provisions ----------------------------------------------------------------------------------

    def provision(self, unit_or_article: Unit | Article, kind: str, cite: Citation, *, topic: str | None = None,
                  clause: str | None = None, **fields: Any) -> Provision:
        """A new provision of `kind` cited by `cite`, numbered in the order provisions are made (one: the
        alternatives of `provisions` come only from a unit's words)."""
        return self.provisions(unit_or_article, kind, cite, topic=topic, clause=clause, **fields)[0]

    def provisions(self, unit_or_article: Unit | Article, kind: str, cite: Citation, *, topic: str | None = None,
                   clause: str | None = None, **fields: Any) -> list[Provision]:
        """The provisions of `kind` cited by `cite`: one, or one per alternative when unread words are
        another member of a list of kinds the clause names (`alternatives.split`)."""
        article = unit_or_article.article if isinstance(unit_or_article, Unit) else unit_or_article
        if kind == "withholding_cap" and topic is None and isinstance(unit_or_article, Unit):
            topic = self._income_named(unit_or_article, cite, clause)
        cleaned = self._cleaned.pop(id(cite), None)
        # the names of institutions the reader read without keeping them as names (a central bank of a
        # State: "the Central Bank of the Netherlands (de Nederlandsche Bank NV)"): their words are read
        read_names = tuple(fields.pop("read_names", None) or ())
        # the words whose conditions select the provision, when the cited range holds others too: "the rate ...
        # of the royalties paid: a) for copyright ..., if the beneficiary is the author; or b) for patents ...":
        # (b)'s cap is cited from the rate through (b), across (a), whose condition is not (b)'s
        condition_texts = fields.pop("condition_texts", None)
        # "...sólo pueden someterse a imposición en el otro Estado si ... los intereses se pagan por préstamos
        # otorgados por un plazo no inferior a tres años por bancos": residence-only in a rate article takes
        # the source State's tax away as an exemption does, so its unread conditions count the same
        exempting = (kind == "allocation" and fields.get("allocation") == "residence_only"
                     and article.topic in PAYMENT_TOPICS)
        variants: list[dict[str, Any] | None] = [None]  # None: the fields' own conditions
        if (kind in ("withholding_cap", "exemption") or exempting) and isinstance(unit_or_article, Unit):
            if fields.get("status", "determined") == "determined":
                conditions = fields.get("conditions", {})
                names = tuple(fold_same_length(" ".join(str(n).split())) for key in ("recipient_names", "payer_names")
                              for n in [*conditions.get(key, []), *(read_names if key == "recipient_names" else ())])
                texts = self._condition_texts(unit_or_article, cite, cleaned, condition_texts)
                ph = phrases(unit_or_article.language)
                unread = unread_pieces(texts, ph, names) if ph is not None else []
                if unread and ph is not None:
                    variants = [provisos.attach(c, words, cite.eid, ph) if words else c
                                for c, words in alternatives.split(conditions, unread, texts, ph)]
            if not fields.get("overrides") and not exempting:
                fields["overrides"] = self._displaced(unit_or_article, cleaned)
        out = []
        for conditions in variants:
            key = (cite.language, cite.eid, kind)
            self._counter[key] += 1
            out.append(Provision(
                id=f"{cite.language}:{cite.eid}:{kind}:{self._counter[key]}",
                topic=topic or article.topic or UNCLASSIFIED,
                kind=kind,  # type: ignore[arg-type]
                cite=cite,
                **({**fields, "conditions": conditions} if conditions is not None else fields),
            ))
        return out

    def _condition_texts(self, unit: Unit, cite: Citation, cleaned: tuple[int, int] | None,
                         condition_texts: list[str] | None = None) -> list[tuple[str, str]]:
        """The (text, folded) pairs whose conditions select this rate or exemption, outermost first: the
        introductions above the unit, then the cited range, or `condition_texts` when the reader gives them
        (their words no condition key holds are the unread ones: see `unread`)."""
        own = self.source.text[cleaned[0] : cleaned[1]] if cleaned else cite.quote
        texts = [(c.text, c.folded) for c in unit.context]
        return texts + [(t, fold_same_length(t)) for t in (condition_texts or [own])]

    def _displaced(self, unit: Unit, cleaned: tuple[int, int] | None) -> list[str]:
        """The eIds a rate or an exemption displaces: "Notwithstanding subparagraph a) of paragraph 2"
        at the start of its sentence, or of the introduction of the list it is an item of."""
        ph = phrases(unit.language)
        if ph is None:
            return []
        own_start = cleaned[0] - unit.start if cleaned else 0
        sentences = [(a, b) for a, b in unit.sentences() if a <= own_start]
        texts = [c.folded for c in unit.context]
        if sentences:
            texts.append(unit.folded[sentences[-1][0] : sentences[-1][1]])
        for folded in reversed(texts):  # the nearest words first
            found = references_displaced(unit, folded, ph)
            if found:
                return found
        return []

    def _income_named(self, unit: Unit, cite: Citation, clause: str | None) -> str | None:
        """The one income (dividends, interest, royalties) a cap's words name, when it is not the
        article's topic: a damaged heading can merge two articles, and the words decide. The
        sentence of the rate first (its own segment, "y del doce por ciento de dicho importe", may
        not name it), then the whole item with the text that introduces it."""
        ph = phrases(unit.language)
        topic = unit.article.topic
        if ph is None or topic not in ("dividends", "interest", "royalties"):
            return None
        named: set[str] = set()
        for words in (clause or "", " ".join([*(c.folded for c in unit.context), unit.folded])):
            named = {income for _, _, income in ph.group_hits("incomes", words)}
            if named:
                break
        if len(named) == 1 and topic not in named:
            (income,) = named
            self.warnings.append({
                "code": "topic_from_words", "language": unit.language, "eid": unit.eid,
                "message": f"{cite_label(unit.article, unit.eid)} sits in an article read as {topic} but its words "
                f"speak of {income}; the cap is filed under {income}",
            })
            return income
        return None


class Emitted(list[Provision]):
    """What one reader found, in order: `add` makes a provision through the `Reading` and keeps it."""

    def __init__(self, reading: Reading) -> None:
        super().__init__()
        self.reading = reading

    def add(self, unit_or_article: Unit | Article, kind: str, cite: Citation, **fields: Any) -> list[Provision]:
        made = self.reading.provisions(unit_or_article, kind, cite, **fields)
        self.extend(made)
        return made
