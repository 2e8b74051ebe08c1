"""Extract what a convention decides, each fact with the exact words it rests on.

One pass over every supported language version: each paragraph is cut into units (see
`citing.Unit`), and small readers, one per provision kind, look at the units of the articles
whose topic they concern:

- `_caps`: withholding caps ("shall not exceed 15 per cent"), with the conditions that select
  each rate, and `unknown` where a paragraph announces a rate the source text does not hold;
- `_exemptions`: exemptions at source and who they apply to;
- `_allocations`: who may tax (exclusive / shared / effective management / paying State), the
  exceptions ("notwithstanding") and the permanent-establishment switch to article 7 or 14;
- `_thresholds`: days, months, years and sums of money (183 days, USD 9,000);
- `_relief`: the method each State uses to eliminate double taxation;
- `_time_limits`, `_dates`, `_anti_abuse`, `_prevailing_language`.

Damage in the source (a list whose items are missing, a paragraph cut off) turns the facts it
hides into `unknown` provisions with the reason and the words around the gap; nothing is guessed.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from functools import cache
from itertools import pairwise
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.patterns import SENTENCE_END
from taxtreaty.provisions import conditions as cond
from taxtreaty.provisions import figures
from taxtreaty.provisions.align import divergences, missing_articles
from taxtreaty.provisions.citing import SourceText, Unit
from taxtreaty.provisions.conditions import states_named
from taxtreaty.provisions.model import Citation, Provision, ProvisionSet
from taxtreaty.provisions.unread import unread_condition
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length, phrases
from taxtreaty.structure.model import Article, Document, Version

#: articles whose rates are withholding caps
CAP_TOPICS = frozenset({"dividends", "interest", "royalties", "other_income", "business_profits", "technical_fees", None})
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
UNCLASSIFIED = "unclassified"


def cite_label(article: Article, eid: str) -> str:
    """"art_10__para_2__point_a" -> "article 10(2)(a)"."""
    parts = eid.split("__")
    label = f"article {article.number}"
    for part in parts[1:]:
        kind, _, num = part.partition("_")
        label += f"({num})" if kind in ("para", "point") and not num.startswith("nn") else ""
    return label


class _Extractor:
    def __init__(self, doc: Document, parties: list[str]) -> None:
        self.doc = doc
        self.parties = parties
        self.source = SourceText(doc)
        self.provisions: list[Provision] = []
        self.warnings: list[dict[str, Any]] = []
        self._counter: dict[tuple[str, str, str], int] = defaultdict(int)
        self._damage = self._damage_index()
        self._cleaned: dict[int, tuple[int, int]] = {}

    # -- bookkeeping ---------------------------------------------------------------------------------

    def _damage_index(self) -> dict[tuple[str, str], list[str]]:
        """(language, eid) -> parse warnings that say text is missing there."""
        index: dict[tuple[str, str], list[str]] = defaultdict(list)
        for w in self.doc.warnings:
            if w.code in ("list_items_missing", "paragraphs_missing", "text_truncated", "article_incomplete") and w.eid:
                index[(w.language or "", w.eid)].append(w.code)
        return index

    def damaged(self, language: str, eid: str) -> list[str]:
        """Damage warnings on this node or any node inside it."""
        out = []
        for (lang, weid), codes in self._damage.items():
            if lang == language and (weid == eid or weid.startswith(eid + "__")):
                out += codes
        return out

    def add(self, unit_or_article: Unit | Article, kind: str, cite: Citation, *, topic: str | None = None,
            clause: str | None = None, **fields: Any) -> Provision:
        article = unit_or_article.article if isinstance(unit_or_article, Unit) else unit_or_article
        if kind == "withholding_cap" and topic is None and isinstance(unit_or_article, Unit):
            topic = self._income_named(unit_or_article, cite, clause)
        cleaned = self._cleaned.pop(id(cite), None)
        # "...sólo pueden someterse a imposición en el otro Estado si ... los intereses se pagan por préstamos
        # otorgados por un plazo no inferior a tres años por bancos": residence-only in a rate article takes
        # the source State's tax away as an exemption does, so its unread conditions count the same
        exempting = (kind == "allocation" and fields.get("allocation") == "residence_only"
                     and article.topic in PAYMENT_TOPICS)
        if (kind in ("withholding_cap", "exemption") or exempting) and isinstance(unit_or_article, Unit):
            if fields.get("status", "determined") == "determined":
                conditions = fields.get("conditions", {})
                names = tuple(fold_same_length(" ".join(str(n).split())) for key in ("recipient_names", "payer_names")
                              for n in conditions.get(key, []))
                unread = self._unread(unit_or_article, cite, cleaned, names)
                if unread:
                    fields["conditions"] = {**conditions, "unread_condition": unread}
            if not fields.get("overrides") and not exempting:
                fields["overrides"] = self._displaced(unit_or_article, cleaned)
        key = (cite.language, cite.eid, kind)
        self._counter[key] += 1
        provision = Provision(
            id=f"{cite.language}:{cite.eid}:{kind}:{self._counter[key]}",
            topic=topic or article.topic or UNCLASSIFIED,
            kind=kind,  # type: ignore[arg-type]
            cite=cite,
            **fields,
        )
        self.provisions.append(provision)
        return provision

    def _unread(self, unit: Unit, cite: Citation, cleaned: tuple[int, int] | None,
                names: tuple[str, ...] = ()) -> str | None:
        """The words of a condition on this rate or exemption that no condition key holds (see `unread`)."""
        ph = phrases(unit.language)
        if ph is None:
            return None
        own = self.source.text[cleaned[0] : cleaned[1]] if cleaned else cite.quote
        texts = [(c.text, c.folded) for c in unit.context] + [(own, fold_same_length(own))]
        return unread_condition(texts, ph, names)

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
            found = self._references_displaced(unit, folded, ph)
            if found:
                return found
        return []

    def _references_displaced(self, unit: Unit, folded: str, ph: Phrases) -> list[str]:
        if ph.has("notwithstanding_any", folded[:80]):
            return ["*"]
        m = ph.find("notwithstanding", folded)
        if m is None or m.start() > 40:
            return []
        window = folded[m.start() : m.start() + 120]
        # the reference ends at ";" or ":", or at a comma that does not go on listing numbers or items
        end = _REFERENCE_END.search(window)
        window = window[: end.start()] if end else window
        refs = figures.find_references(window, ph)
        arts = [n for kind, n in refs if kind == "article"]
        article = f"art_{arts[0]}" if arts else unit.article.eid
        paragraphs = [n for kind, n in refs if kind == "paragraph"]
        points = figures.find_point_references(window, ph)
        if points:
            para = paragraphs[0] if paragraphs else self._paragraph_holding(unit, points[0])
            if para is None:
                return []
            return [f"{article}__para_{para}__point_{p}" for p in points]
        return [f"{article}__para_{n}" for n in paragraphs]

    @staticmethod
    def _paragraph_holding(unit: Unit, letter: str) -> str | None:
        """"Não obstante o disposto na alínea a)" names no paragraph: the unit's own paragraph when it
        has that item, else the nearest paragraph before it that has."""
        paragraphs = unit.article.paragraphs
        here = next((i for i, p in enumerate(paragraphs) if p is unit.paragraph), len(paragraphs) - 1)
        for paragraph in [paragraphs[here], *reversed(paragraphs[:here])]:
            if any(p.eid.endswith(f"__point_{letter}") for p in paragraph.points):
                return paragraph.number
        return None

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

    def cite(self, unit: Unit, start: int, end: int) -> Citation:
        return self.cite_cleaned(unit.language, unit.eid, unit.start + start, unit.start + end)

    def cite_cleaned(self, language: str, eid: str, start: int, end: int) -> Citation:
        """Cite cleaned[start:end], remembering the cleaned range: conditions are read from the
        cleaned words (no page furniture, hyphenation joined), quotes are the original's."""
        citation = self.source.cite(language, eid, start, end)
        self._cleaned[id(citation)] = (start, end)
        return citation

    # -- driver --------------------------------------------------------------------------------------

    def run(self) -> ProvisionSet:
        for version in self.doc.versions:
            ph = phrases(version.language)
            if not version.supported or ph is None:
                self.warnings.append({
                    "code": "language_not_supported", "language": version.language,
                    "message": f"no provisions are read from the {version.language} version: no phrase vocabulary for it",
                })
                continue
            for article in version.articles:
                self._article(version, article, ph)
        self._prevailing_language()
        self._undistinguished_caps()
        self._protocol_qualifiers()
        for language, eid, line in dict.fromkeys(self.source.cuts):
            self.warnings.append({
                "code": "swallowed_heading", "language": language, "eid": eid,
                "message": f"{eid} runs into a line that reads like an article heading ({line!r}); "
                "the text after it is not read as part of this paragraph",
            })
        self.warnings += missing_articles(self.doc)
        # the parser's warnings say where the text is damaged; the extractor's follow them
        parse_warnings = [{"source": "parse", **w.model_dump()} for w in self.doc.warnings]
        warnings = parse_warnings + [{"source": "provisions", **w} for w in self.warnings]
        result = ProvisionSet(parties=list(self.parties), provisions=self.provisions, warnings=warnings)
        result.divergences = divergences(self.doc, self.source, result)
        return result

    def _protocol_qualifiers(self) -> None:
        """A protocol paragraph that names a paragraph or item of a dividend, interest or royalty
        article ("En relación con el artículo 10, apartado 2, letra a), se entiende que el tipo del 0
        por 100 no se aplicará cuando ...", "With reference to subparagraph a) of paragraph 2 of
        Article 10, ...") qualifies the caps and exemptions there. Its words are not read, so they
        join those provisions' `unread_condition`: the engine then answers indeterminate, citing
        them, instead of applying the rate as if the protocol were not there."""
        for version in self.doc.versions:
            ph = phrases(version.language)
            if ph is None or not version.supported:
                continue
            topics = {a.number: a.topic for a in version.articles}
            for protocol in version.protocols:
                for paragraph in protocol.paragraphs:
                    whole = " ".join(paragraph.text.split())
                    pieces = [(whole, _protocol_targets(fold_same_length(whole), ph, topics))]
                    # "Ad artigo 10.º Fica entendido que ...\nAd artigo 11.º As disposições do n.º 2 ...": points
                    # the parser left in one paragraph, each line naming its own article
                    named = set(pieces[0][1])
                    for line in paragraph.text.splitlines() if "\n" in paragraph.text else ():
                        words = " ".join(line.split())
                        targets = [t for t in _protocol_targets(fold_same_length(words), ph, topics) if t not in named]
                        named.update(targets)
                        pieces.append((words, targets))
                    for words, targets in pieces:
                        for p in self.provisions:
                            if (p.cite.language == version.language and p.kind in ("withholding_cap", "exemption")
                                    and any(p.cite.eid == t or p.cite.eid.startswith(t + "__") for t in targets)):
                                known = p.conditions.get("unread_condition")
                                if known is None or words not in known:
                                    p.conditions["unread_condition"] = f"{known} … {words}" if known else words

    def _undistinguished_caps(self) -> None:
        """Two rates for the same income with no condition told apart: the lower one's selecting
        words were not read.

        "3 por ciento del importe bruto pagado por el uso de noticias; ... c) 10 por ciento ... en los
        demás casos": if the extractor reads no condition in the 3% item that the 10% item lacks,
        the 3% would look like it applies to every royalty, and the most favourable rate would win.
        A treaty never gives two rates for one case, so the lower cap's own words become its
        `unread_condition` (the engine then answers indeterminate where it would decide). The
        residual cap of a list ("in all other cases") is explained by those words.
        """
        def selecting(p: Provision) -> dict[str, Any]:
            return {k: v for k, v in p.conditions.items() if k not in ("otherwise", "unread_condition")}

        caps: dict[tuple[str, str, str], list[Provision]] = defaultdict(list)
        for p in self.provisions:
            if p.kind == "withholding_cap" and p.status == "determined" and p.rate_pct is not None:
                caps[(p.cite.language, p.cite.eid.split("__")[0], p.topic)].append(p)
        for group in caps.values():
            for low in group:
                if low.conditions.get("otherwise") or "unread_condition" in low.conditions:
                    continue
                # "a) 15 por cento ... de marcas de indústria ou comércio; b) 10 por cento ... em todos os
                # demais casos": an item the residual rate's conditions also describe was not told apart either
                if any(other is not low and selecting(other) == selecting(low)
                       and (other.rate_pct > low.rate_pct or other.conditions.get("otherwise")) for other in group):
                    low.conditions = {**low.conditions, "unread_condition": low.cite.quote}

    def _article(self, version: Version, article: Article, ph: Phrases) -> None:
        topic = article.topic
        caps_before = len(self.provisions)
        for paragraph in article.paragraphs:
            units = self.source.units(version.language, article, paragraph, cut_restarts=topic in CAP_TOPICS)
            if not units:
                continue
            if topic in CAP_TOPICS:
                self._caps(units, ph)
            if topic in CAP_TOPICS or topic in HOST_EXEMPTION_TOPICS or topic in INCOME_TOPICS:
                self._exemptions(units, ph)
            if topic in INCOME_TOPICS or topic is None:
                self._allocations(units, ph)
            if topic in THRESHOLD_TOPICS:
                self._thresholds(units, ph)
            if topic == "elimination_double_taxation":
                self._relief(units, ph)
            if topic == "mutual_agreement":
                self._time_limits(units, ph)
            if topic == "entry_into_force":
                self._dates(units, ph)
            if topic == "termination":
                self._termination(units, ph)
            self._anti_abuse(units, ph)
        if topic in ("dividends", "interest", "royalties"):
            self._disapplied(version, article, ph, caps_before)
            self._dated_caps(version, article, ph, caps_before)
            self._applies_instead(version, article, ph, caps_before)
            self._missing_caps(version, article, caps_before)

    def _dated_caps(self, version: Version, article: Article, ph: Phrases, before: int) -> None:
        """"Esta limitación se aplicará a los cánones pagados a partir del 1 de enero de 2025", "This
        limitation shall apply to royalties paid on or after ...": a sentence of a paragraph of rates that
        gives no rate of its own but says from (or until) when the paragraph applies. Its payment dates
        become conditions of the paragraph's rates and exemptions that carry none of their own, never a
        cap applied to payments the text leaves outside it."""
        for paragraph in article.paragraphs:
            dates: dict[str, Any] = {}
            for unit in self.source.units(version.language, article, paragraph, cut_restarts=True):
                for s_start, s_end in unit.sentences():
                    sentence = unit.folded[s_start:s_end]
                    if ph.has("shall_apply", sentence) and not figures.find_rates(sentence, ph):
                        dates.update(cond.payment_dates(sentence, ph))
            if not dates:
                continue
            for p in self.provisions[before:]:
                if (p.kind in ("withholding_cap", "exemption") and p.status == "determined"
                        and (p.cite.eid == paragraph.eid or p.cite.eid.startswith(paragraph.eid + "__"))
                        and not {"paid_after", "paid_from", "paid_until"} & set(p.conditions)):
                    p.conditions = {**p.conditions, **dates}

    def _applies_instead(self, version: Version, article: Article, ph: Phrases, before: int) -> None:
        """"Notwithstanding the provisions of sub-paragraph (a) ..., where dividends are paid by an
        investment vehicle described in sub-paragraph (b), the provisions of sub-paragraph (b) shall
        apply": a sentence with no rate of its own that puts one item of a list of rates in place of
        another. The applied item's rates and exemptions get the displaced item among their
        `overrides`, so the engine applies it where both hold and asks where it may hold, never the
        displaced item's lower rate with confidence."""
        for paragraph in article.paragraphs:
            for unit in self.source.units(version.language, article, paragraph, cut_restarts=True):
                for s_start, s_end in unit.sentences():
                    sentence = unit.folded[s_start:s_end]
                    applies = ph.find("shall_apply", sentence)
                    if applies is None or figures.find_rates(sentence, ph):
                        continue
                    displaced = [e for e in self._references_displaced(unit, sentence, ph) if "__point_" in e]
                    if not displaced:
                        continue
                    # "the provisions of sub-paragraph (b) shall apply" / "se aplicará lo dispuesto en el apartado b)"
                    after = figures.find_point_references(sentence[applies.end() : applies.end() + 60], ph)
                    before_words = figures.find_point_references(sentence[max(0, applies.start() - 60) : applies.start()], ph)
                    applied = after[:1] or before_words[-1:]
                    if not applied:
                        continue
                    target = f"{displaced[0].rsplit('__point_', 1)[0]}__point_{applied[0]}"
                    if target in displaced:
                        continue
                    for p in self.provisions[before:]:
                        if p.kind in ("withholding_cap", "exemption") and (
                                p.cite.eid == target or p.cite.eid.startswith(target + "__")):
                            p.overrides = list(dict.fromkeys([*p.overrides, *displaced]))

    def _disapplied(self, version: Version, article: Article, ph: Phrases, before: int) -> None:
        """"O disposto na alínea a) do n.º 2 não é aplicável quando a sociedade que paga os dividendos
        for uma sociedade de investimento imobiliário": the article switches one of its own rates or
        exemptions off in a case no condition key describes. The switch's words become that rate's
        `unread_condition` (the engine answers indeterminate, citing them), never a rate applied as
        if the exception were not there. The switch to the business-profits article (a permanent
        establishment) is read by `_pe_switch`; a language without `shall_not_apply` phrases reads none."""
        if "shall_not_apply" not in ph.patterns:
            return
        for paragraph in article.paragraphs:
            for unit in self.source.units(version.language, article, paragraph, cut_restarts=True):
                if not ph.has("shall_not_apply", unit.folded) or ph.has("effectively_connected", unit.folded):
                    continue
                for s_start, s_end in unit.sentences():
                    sentence = unit.folded[s_start:s_end]
                    switch = ph.find("shall_not_apply", sentence)
                    if switch is None:
                        continue
                    targets = self._switched_off(unit, sentence[: switch.start()], ph)
                    words = " ".join(unit.text[s_start:s_end].split())
                    for p in self.provisions[before:]:
                        if p.kind in ("withholding_cap", "exemption") and p.status == "determined" \
                                and "unread_condition" not in p.conditions and p.cite.eid != unit.eid \
                                and any(p.cite.eid == t or p.cite.eid.startswith(t + "__") for t in targets):
                            p.conditions = {**p.conditions, "unread_condition": words}

    def _switched_off(self, unit: Unit, folded: str, ph: Phrases) -> list[str]:
        """The eIds a "... shall not apply" sentence names before its verb: "alínea a) do n.º 2" ->
        art_10__para_2__point_a; "o n.º 3" -> art_10__para_3; nothing for a reference to another article."""
        refs = figures.find_references(folded, ph)
        if any(kind == "article" for kind, _ in refs):
            return []
        paragraphs = [n for kind, n in refs if kind == "paragraph"]
        points = figures.find_point_references(folded, ph)
        if points and len(paragraphs) > 1:
            # "subparagraph a) of paragraph 2 and subparagraph a) of paragraph 3": the items of each (a
            # name that matches no item switches nothing off)
            return [f"{unit.article.eid}__para_{n}__point_{p}" for n in paragraphs for p in points]
        if points:
            para = paragraphs[0] if paragraphs else self._paragraph_holding(unit, points[0])
            return [f"{unit.article.eid}__para_{para}__point_{p}" for p in points] if para else []
        return [f"{unit.article.eid}__para_{n}" for n in paragraphs]

    # -- withholding caps ------------------------------------------------------------------------------

    def _caps(self, units: list[Unit], ph: Phrases) -> None:
        paragraph = units[0].paragraph
        found = False
        covered: set[int] = set()  # units whose rate came from the item that introduces them
        for unit in units:
            inherited_cap = any(ph.has("cap", c.folded) for c in unit.context)
            unit_found = False
            # "shall not exceed 5 per cent ... if ...; 15 per cent ... in all other cases": a sentence
            # that follows a capped one after ";" continues its list of rates
            chained_from: str | None = None
            sentences = unit.sentences()
            cut_unit = self._cut_after(unit)
            for k, (s_start, s_end) in enumerate(sentences):
                sentence = unit.folded[s_start:s_end]
                previous_chain, chained_from = chained_from, None
                if cut_unit and k == len(sentences) - 1 and not SENTENCE_END.search(sentence.rstrip()) \
                        and (inherited_cap or ph.has("cap", sentence)) and figures.find_rates(sentence, ph):
                    # the source stops inside this clause: the words after its rate (the conditions
                    # that select it, or "per cent" after a threshold) are lost, so no rate is certain
                    found = unit_found = True
                    self.add(unit, "withholding_cap", self.cite(unit, s_start, s_end), status="unknown",
                             reason=f"{cite_label(unit.article, unit.eid)} is cut off mid-sentence in the source text; "
                             "the rest of the clause, and the conditions it may set, are missing",
                             conditions=cond.clause_conditions(sentence, ph, self.parties))
                    continue
                damaged_rates = figures.find_damaged_rates(sentence, ph)
                if damaged_rates:
                    cap = ph.find("cap", sentence)
                    if (cap is not None and cap.start() < damaged_rates[0][0]) or (k == 0 and inherited_cap):
                        # the figures of this clause cannot all be read: none of them is stated as certain
                        found = unit_found = True
                        printed = unit.text[s_start + damaged_rates[0][0] : s_start + damaged_rates[0][1]]
                        self.add(unit, "withholding_cap", self.cite(unit, s_start, s_end), status="unknown",
                                 reason=f"a rate in {cite_label(unit.article, unit.eid)} is damaged in the source text "
                                 f"({printed!r}); no rate of this clause is read as certain",
                                 conditions=cond.clause_conditions(sentence, ph, self.parties))
                        continue
                rates = [r for r in figures.find_rates(sentence, ph) if not cond.is_holding_share(sentence, r, ph)]
                if not rates:
                    continue
                cap = ph.find("cap", sentence)
                if not ((cap is not None and cap.start() < rates[0].start) or (k == 0 and inherited_cap)
                        or (previous_chain is not None and rates[0].start < 40)):
                    continue
                if sentence.rstrip().endswith(";"):
                    chained_from = previous_chain or sentence[: rates[0].start]
                found = unit_found = True
                children = [u for u in units if unit in u.context and u.role == "point"] if unit.role == "intro" else []
                covered.update(id(c) for c in children)
                if children and len(rates) == 1:
                    self._cap_alternatives(unit, ph, s_start, sentence, rates[0], children)
                else:
                    self._cap_sentence(unit, ph, s_start, sentence, rates, lead=previous_chain)
            if inherited_cap and unit.role == "point" and not unit_found and id(unit) not in covered \
                    and not any(ph.has("cap", c.folded) for c in unit.context[1:]):
                # an item of a list of rates that holds no readable rate: never skip it silently
                where = cite_label(unit.article, unit.eid)
                self.add(unit, "withholding_cap", self.cite(unit, 0, len(unit.text)), status="unknown",
                         reason=f"{where} is an item of the list of rates but no rate can be read from its words",
                         conditions=cond.clause_conditions(unit.folded, ph, self.parties))
        cap_units = [u for u in units if ph.has("cap", u.folded)]
        if not cap_units and units[0].article.topic in ("dividends", "interest", "royalties"):
            # "o imposto assim estabelecido não [page header] excederá 10 por cento": the words of the
            # limit are broken, but the clause that announces one is there; never read it as no limit
            cap_units = [u for u in units if ph.has("charged_tax", u.folded)]
        damage = self.damaged(units[0].language, paragraph.eid)
        if cap_units and found and self._list_continues(units):
            damage = [*damage, "list_items_missing"]
        if cap_units and (not found or "list_items_missing" in damage):
            self._unknown_cap(cap_units[0], ph, found, damage)

    def _list_continues(self, units: list[Unit]) -> bool:
        """The last item of a list ends as if another followed ("...;", "...; or") and none does."""
        points = [u for u in units if u.role == "point"]
        if not points:
            return False
        last = points[-1].text.rstrip()
        return bool(regex.search(r"(?:[;,]|[;,]\s*(?:and|or|e|ou|y|o))$", last))

    def _cap_sentence(self, unit: Unit, ph: Phrases, s_start: int, sentence: str, rates: list[figures.Figure],
                      lead: str | None = None) -> None:
        # one segment per rate: it ends at the last "," or ";" before the next rate
        bounds = [0]
        for prev, nxt in pairwise(rates):
            gap = sentence[prev.end : nxt.start]
            cut = max(gap.rfind(","), gap.rfind(";"))
            bounds.append(prev.end + cut if cut >= 0 else nxt.start)
        bounds.append(len(sentence))
        inherited: dict[str, Any] = {}
        for ctx in unit.context:
            inherited = cond.merge(inherited, cond.clause_conditions(ctx.folded, ph, self.parties))
        if lead is not None:  # the words before the first rate of the sentence this one continues
            inherited = cond.merge(inherited, cond.clause_conditions(lead, ph, self.parties))
        prefix = cond.clause_conditions(sentence[: rates[0].start], ph, self.parties)
        for i, rate in enumerate(rates):
            seg_start, seg_end = bounds[i], bounds[i + 1]
            own = cond.clause_conditions(sentence[seg_start:seg_end], ph, self.parties)
            base = inherited if i == 0 else cond.merge(inherited, prefix)
            conditions = cond.merge(base, own)
            kinds = cond.parties_kinds(sentence[seg_start:seg_end], ph)
            conditions = cond.merge(conditions, kinds)
            if not own.get("otherwise"):
                conditions.pop("otherwise", None)
            self.add(
                unit, "withholding_cap", self.cite(unit, s_start + seg_start, s_start + seg_end),
                rate_pct=cond.as_decimal(rate.value), conditions=conditions, values=_base(sentence, rate),
                state=conditions.get("source_state"), clause=sentence,
            )

    def _cap_alternatives(self, unit: Unit, ph: Phrases, s_start: int, sentence: str, rate: figures.Figure,
                          children: list[Unit]) -> None:
        """"c) 5 per cent ... if the beneficial owner is: (i) a company ...; (ii) the Government ...": one
        cap per item, cited from the rate through the item."""
        inherited: dict[str, Any] = {}
        for ctx in unit.context:
            inherited = cond.merge(inherited, cond.clause_conditions(ctx.folded, ph, self.parties))
        base = cond.merge(inherited, cond.clause_conditions(sentence, ph, self.parties))
        role = cond.last_role(sentence, ph) or "recipient"
        for child in children:
            own = cond.merge(cond.clause_conditions(child.folded, ph, self.parties),
                             cond.parties_kinds(child.folded, ph, default_role=None, context_role=role))
            conditions = cond.merge(base, own)
            cite = self.cite_cleaned(unit.language, unit.eid, unit.start + s_start, child.end)
            self.add(unit, "withholding_cap", cite, rate_pct=cond.as_decimal(rate.value), conditions=conditions,
                     values=_base(sentence, rate), state=conditions.get("source_state"))

    def _unknown_cap(self, unit: Unit, ph: Phrases, found_some: bool, damage: list[str]) -> None:
        where = cite_label(unit.article, unit.paragraph.eid)
        sentences = unit.sentences()
        s_start, s_end = next(((a, b) for a, b in sentences if ph.has("cap", unit.folded[a:b])),
                              next(((a, b) for a, b in sentences if ph.has("charged_tax", unit.folded[a:b])), sentences[-1]))
        if found_some:
            reason = (f"{where} lists rates but some of its list items are missing from the source text; "
                      "a rate for other cases may be among them")
        elif "list_items_missing" in damage or unit.text.rstrip().endswith(":"):
            reason = f"{where} announces the rates but its list items are missing from the source text"
        elif not unit.paragraph.complete or not unit.article.complete:
            reason = f"{where} is cut off in the source text before the rate"
        else:
            reason = f"{where} sets a limit but no rate could be read from its words"
        conditions = cond.clause_conditions(unit.folded[s_start:s_end], ph, self.parties)
        conditions.pop("otherwise", None)
        self.add(unit, "withholding_cap", self.cite(unit, s_start, s_end), status="unknown", reason=reason,
                 conditions=conditions)

    def _missing_caps(self, version: Version, article: Article, before: int) -> None:
        """An income article with no cap at all, in a text that lost paragraphs of it."""
        if any(p.kind == "withholding_cap" for p in self.provisions[before:]):
            return
        damage = self.damaged(version.language, article.eid)
        if not damage and article.complete:
            return
        if not any(p.number == "2" for p in article.paragraphs) or damage:
            heading_end = self.doc.original.find("\n", article.span[0], article.span[1])
            span = (article.span[0], heading_end if heading_end > 0 else article.span[1])
            cite = self.source.cite_original(version.language, article.eid, span)
            lost = "paragraphs_missing" in damage
            reason = (f"paragraphs of article {article.number} are missing from the source text; no rate can be read"
                      if lost else f"article {article.number} is incomplete in the source text and no rate can be read from it")
            self.add(article, "withholding_cap", cite, status="unknown", reason=reason)

    # -- exemptions ------------------------------------------------------------------------------------

    def _exemptions(self, units: list[Unit], ph: Phrases) -> None:
        host = units[0].article.topic in HOST_EXEMPTION_TOPICS
        for unit in units:
            ctx_exempt = [c for c in unit.context if ph.has("exempt", c.folded)]
            if ctx_exempt and unit.role == "point":
                role = cond.last_role(ctx_exempt[-1].folded, ph) or "recipient"
                conditions: dict[str, Any] = {}
                for ctx in unit.context:
                    conditions = cond.merge(conditions, cond.clause_conditions(ctx.folded, ph, self.parties))
                    if ctx is not ctx_exempt[-1]:
                        conditions = cond.merge(conditions, cond.parties_kinds(ctx.folded, ph, default_role=None))
                own = cond.parties_kinds(unit.folded, ph, default_role=None, context_role=role)
                conditions = cond.merge(conditions, own)
                conditions = cond.merge(conditions, cond.clause_conditions(unit.folded, ph, self.parties))
                names = self._institution_names(unit, ph)
                if names:
                    key = "payer" if role == "payer" else "recipient"
                    conditions.setdefault(f"{key}_kinds", [])
                    if "named_institution" not in conditions[f"{key}_kinds"]:
                        conditions[f"{key}_kinds"].append("named_institution")
                    conditions[f"{key}_names"] = names
                self._place_states(unit, conditions, role, ph)
                if host:
                    conditions.pop("income_subtype", None)
                elif not set(conditions) - {"beneficial_owner", "source_state", "residence_state"}:
                    # "(c) any other institution as may be agreed upon ... between the competent authorities": an
                    # item of the list of who is exempt that names no one the extractor reads is not everyone
                    words = regex.sub(r"[;,.]?\s+(?:or|and|ou|e|o|y)$", "", " ".join(unit.text.split()).rstrip(";,. "))
                    conditions["unread_condition"] = words.rstrip(";,. ")
                if self._cut_after(unit):
                    self.warnings.append({
                        "code": "list_may_continue", "language": unit.language, "eid": unit.eid,
                        "message": f"{cite_label(unit.article, unit.eid)} is the last item before the source text stops: "
                        "the list of who is exempt may continue beyond it, and this item may be cut short",
                    })
                for alternative in cond.either_party(conditions, unit.folded, ph):
                    self.add(unit, "exemption", self.cite(unit, 0, len(unit.text)), conditions=alternative,
                             allocation="exempt_in_host" if host else None)
                continue
            if unit.role == "intro" or not ph.has("exempt", unit.folded):
                continue  # the points under an introduction say who is exempt
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                if not ph.has("exempt", sentence):
                    continue
                if unit.article.topic not in HOST_EXEMPTION_TOPICS and not self._is_source_exemption(unit, sentence, ph):
                    continue
                conditions = cond.clause_conditions(sentence, ph, self.parties)
                conditions = cond.merge(conditions, cond.parties_kinds(sentence, ph))
                values = self._figure_values(sentence, ph) if host else {}
                if host:
                    conditions.pop("income_subtype", None)
                status, reason = "determined", None
                if sentence.rstrip().endswith(":"):
                    status = "unknown"
                    reason = f"{cite_label(unit.article, unit.eid)} announces who is exempt but the list is missing from the source text"
                for alternative in cond.either_party(conditions, sentence, ph):
                    self.add(unit, "exemption", self.cite(unit, s_start, s_end), conditions=alternative, values=values,
                             allocation="exempt_in_host" if host else None, status=status, reason=reason)

    def _cut_after(self, unit: Unit) -> bool:
        """The unit runs to the point where the source text stops (the article is cut off)."""
        article = unit.article
        if article.complete or not article.paragraphs or unit.paragraph is not article.paragraphs[-1]:
            return False
        para_start = self.source.locate(unit.paragraph.text, unit.paragraph.span)
        return para_start is not None and unit.end >= para_start + len(unit.paragraph.text)

    def _is_source_exemption(self, unit: Unit, sentence: str, ph: Phrases) -> bool:
        """An exemption in an income article (not "exempt income" in a definition)."""
        return unit.article.topic in CAP_TOPICS or ph.has("notwithstanding", sentence)

    def _institution_names(self, unit: Unit, ph: Phrases) -> list[str]:
        """"ii) Ao Banco Popular da China (the People's Bank of China);" -> the name as printed."""
        text = " ".join(unit.text.split()).rstrip(";,.").strip()
        text = regex.sub(r"[;,]?\s+(?:or|and|ou|e|o|y)$", "", text).rstrip(";,.")
        m = regex.match(r"^(?i:to\s+the|to|the|ao|à|a|al|a\s+la|os|as|o|el|la)\s+(?=\p{Lu})", text)
        name = text[m.end():] if m else text
        capitalised = sum(1 for w in name.split() if w[:1].isupper())
        kinds = {k for _, _, k in ph.group_hits("kinds", fold_same_length(name))}
        # a proper name of a bank ("Banco de Fomento Estatal"), not a generic kind ("the Government")
        if capitalised < 2 or not name[:1].isupper() or not kinds or kinds - {"bank", "central_bank"}:
            return []
        return [name]

    def _place_states(self, unit: Unit, conditions: dict[str, Any], role: str | None, ph: Phrases) -> None:
        """"a) Na China: i) Ao Governo...": the State named by an enclosing point that only names a
        place, or by the item itself ("the Bank of Latvia"), is the payer's or the recipient's."""
        key = "source_state" if role == "payer" else "residence_state"
        for ctx in unit.context[1:]:
            if ph.find("recipient_role", ctx.folded) or ph.find("payer_role", ctx.folded) or ph.has("exempt", ctx.folded):
                continue
            named = [c for c in states_named(ctx.text) if not self.parties or c in self.parties]
            if len(named) == 1:
                conditions[key] = named[0]
        if ph.find("guarantee_role", unit.folded):
            return  # "a loan guaranteed by the Export Credits Guarantee Department of the United Kingdom": the guarantor's State
        own_role = cond.last_role(unit.folded, ph)  # "paid to the Central Bank of Kenya": the item's own role decides
        if own_role is not None:
            key = "source_state" if own_role == "payer" else "residence_state"
        # "the Central Bank of Kenya or the Bank of England": a place that is no State we know may be the other party
        places = regex.findall(r"\bof\s+(?:the\s+)?(\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+)*)", unit.text)
        if any(not states_named(place) and not ph.has("condition_words", fold_same_length(place)) for place in places):
            return
        named = [c for c in states_named(unit.text) if not self.parties or c in self.parties]
        if len(named) == 1 and key not in conditions:
            conditions[key] = named[0]

    # -- allocation ------------------------------------------------------------------------------------

    def _allocations(self, units: list[Unit], ph: Phrases) -> None:
        article = units[0].article
        self._pe_switch(units, ph)
        for unit in units:
            if unit.role == "point" and article.topic in PAYMENT_TOPICS and _exclusive_list_intro(unit, ph):
                self._exclusive_list_item(unit, ph)
                continue
            if not (ph.has("exclusive", unit.folded) or ph.has("shared", unit.folded)
                    or ph.has("notwithstanding_any", unit.folded)):
                continue  # one search per unit decides for most of them
            sentences = unit.sentences()
            for k, (s_start, s_end) in enumerate(sentences):
                sentence = unit.folded[s_start:s_end]
                exclusive = ph.find("exclusive", sentence)
                shared = ph.find("shared", sentence) if exclusive is None else None
                if shared is not None and any(m.start() <= shared.start() < m.end() for m in ph.finditer("exempt", sentence)):
                    shared = None  # "no pueden someterse a imposición", "não podem ser tributados": a negated grant
                overrides = self._overrides(unit, sentence, ph)
                if exclusive is None and shared is None:
                    if overrides == ["*"] and k == 0:
                        self.add(unit, "allocation", self.cite(unit, s_start, s_end), overrides=overrides,
                                 values={"prevails_over": "any_other_provision"})
                    continue
                conditions: dict[str, Any] = {}
                if exclusive is not None and ph.has("beneficial_owner", sentence[exclusive.end():]):
                    conditions["beneficial_owner"] = True  # "...only in that other State if such resident is the beneficial owner"
                sub = cond.subtype(sentence, ph)
                if sub:
                    conditions["income_subtype"] = sub
                if (exclusive is not None and unit.role == "intro" and article.topic in PAYMENT_TOPICS
                        and k == len(sentences) - 1 and sentence.rstrip().endswith(":")
                        and any(u.context and u.context[-1] is unit for u in units)):
                    continue  # "...sólo pueden someterse a imposición en el otro Estado si:": each item is one case
                if exclusive is not None:
                    if ph.has("effective_management", sentence):
                        allocation = "effective_management_only"
                    elif "source_place" in ph.patterns and ph.find("source_place", sentence, exclusive.end(),
                                                                   min(len(sentence), exclusive.end() + 100)):
                        # Andean style: "sólo serán gravables en el País Miembro en cuyo territorio se impute y
                        # registre su pago": the only State named is the one where the income arises
                        allocation = "source_only"
                    elif (article.topic == "pensions" and ph.find("exception_lead", sentence[:20]) is None
                          and {"government", "local_authority"} & set(
                              cond.parties_kinds(sentence, ph, default_role=None).get("payer_kinds", []))):
                        # "las pensiones pagadas por un Estado Contratante o por una de sus subdivisiones
                        # políticas ... sólo pueden someterse a imposición en ese Estado": the paying State's
                        allocation = "paying_state_only"
                    elif article.topic == "government_service" and ph.find("exception_lead", sentence[:20]) is None \
                            and ph.find("exception_lead", sentence, exclusive.start(), exclusive.end()) is None:
                        # "paid by a Contracting State ... shall be taxable only in that State"; the
                        # "However, ... only in the other State if ... a resident" exception is residence_only
                        # (also "só podem, contudo, ser tributados no outro Estado")
                        allocation = "paying_state_only"
                    elif self._paying_state_first(sentence, exclusive, ph):
                        # "payments made by a Contracting State under the social security legislation of that
                        # State to a resident of the other Contracting State shall be taxable only in the
                        # first-mentioned State": the State that pays, not the residence
                        allocation = "paying_state_only"
                    else:
                        allocation = "residence_only"
                    if article.topic in PAYMENT_TOPICS:
                        # "interest ... paid to the Government of the other State ... shall be taxable only
                        # in that other State": residence-only for those recipients, not for every payment
                        conditions = cond.merge(conditions, cond.parties_kinds(sentence, ph, default_role=None))
                    # "...only in that State unless ... permanent establishment ... may be taxed in the other"
                    rest = sentence[exclusive.end():]
                    self._emit_allocation(unit, ph, k, s_start, s_end, allocation, conditions, overrides)
                    if ph.has("shared", rest) and ph.has("permanent_establishment", rest):
                        self._emit_allocation(unit, ph, k, s_start, s_end, "source_may_tax",
                                              {**conditions, "pe_connected": True}, overrides)
                    continue
                assert shared is not None
                before = sentence[: shared.start()]
                if ph.find("to_resident", before) is not None and not ph.has("shared_also", sentence):
                    continue  # "paid to a resident of the other State may be taxed in that other State"
                if article.topic == "business_profits" and ph.has("permanent_establishment", sentence):
                    conditions["pe_connected"] = True
                self._emit_allocation(unit, ph, k, s_start, s_end, "source_may_tax", conditions, overrides)

    def _exclusive_list_item(self, unit: Unit, ph: Phrases) -> None:
        """"...sólo pueden someterse a imposición en el otro Estado si: a) el beneficiario efectivo es el banco
        central de ese otro Estado; b) los intereses se pagan por préstamos ... garantizados por el Gobierno":
        the residence State alone taxes in the case each item describes, not every payment."""
        intro = unit.context[-1]
        role = cond.last_role(intro.folded, ph)
        conditions = cond.clause_conditions(unit.folded, ph, self.parties)
        conditions = cond.merge(conditions, cond.parties_kinds(unit.folded, ph, default_role=None, context_role=role))
        if not set(conditions) - {"beneficial_owner"}:
            # nothing read from the item: its words are the condition, never "every payment"
            conditions["unread_condition"] = " ".join(unit.text.split()).rstrip(";,. ")
        overrides = self._overrides(intro, intro.folded, ph)
        self._emit_allocation(unit, ph, 0, 0, len(unit.text), "residence_only", conditions, overrides)

    def _paying_state_first(self, sentence: str, exclusive: regex.Match[str], ph: Phrases) -> bool:
        """"...shall be taxable only in the first-mentioned State" where the State first mentioned is
        the one that pays ("made by a Contracting State ... to a resident of the other")."""
        if "first_mentioned" not in ph.patterns:
            return False
        if ph.find("first_mentioned", sentence, exclusive.end(), min(len(sentence), exclusive.end() + 40)) is None:
            return False
        before = sentence[: exclusive.start()]
        payer = ph.find("payer_role", before)
        to = ph.find("to_resident", before)
        return payer is not None and (to is None or payer.start() < to.start())

    def _emit_allocation(self, unit: Unit, ph: Phrases, k: int, s_start: int, s_end: int, allocation: str,
                         conditions: dict[str, Any], overrides: list[str]) -> None:
        paragraph = unit.paragraph
        status, reason = "determined", None
        sentence_count = len(unit.sentences())
        where = cite_label(unit.article, unit.eid)
        if not paragraph.complete and k == 0 and (unit.article.number_inferred or paragraph.number_inferred):
            status, reason = "unknown", f"the start of {where} is missing from the source text; which State may tax cannot be read"
        elif not paragraph.complete and k == sentence_count - 1 and unit.role in ("whole", "wrap"):
            status, reason = "unknown", f"{where} is cut off in the source text"
        elif "list_items_missing" in self.damaged(unit.language, unit.eid) and self._depends_on_lost_list(unit, ph, k):
            status, reason = "unknown", f"{where} makes this depend on items of a list that are missing from the source text"
        self.add(unit, "allocation", self.cite(unit, s_start, s_end), allocation=None if status == "unknown" else allocation,
                 conditions=conditions, overrides=overrides, status=status, reason=reason)

    def _depends_on_lost_list(self, unit: Unit, ph: Phrases, k: int) -> bool:
        """The sentence announces a list of conditions ("...taxable only in the first State if:") or
        follows one ("...from the alienation of:" [items lost] "may be taxed in that other State")."""
        sentences = unit.sentences()
        a, b = sentences[k]
        sentence = unit.folded[a:b].rstrip()
        if sentence.endswith(":"):
            cap = ph.find("cap", sentence)
            return cap is None
        if k > 0:
            pa, pb = sentences[k - 1]
            return unit.folded[pa:pb].rstrip().endswith(":")
        return False

    def _overrides(self, unit: Unit, sentence: str, ph: Phrases) -> list[str]:
        """"Notwithstanding any other provision" -> ["*"]; "Notwithstanding paragraph 1" -> that paragraph's eid;
        "Notwithstanding subparagraph a) of paragraph 2" -> that item's eid."""
        if ph.has("notwithstanding_any", sentence):
            return ["*"]
        if figures.find_point_references(sentence[:160], ph):
            return self._references_displaced(unit, sentence, ph)
        m = ph.find("notwithstanding", sentence)
        if m is None or m.start() > 40:
            return []
        refs = figures.find_references(sentence[m.start() : m.start() + 90], ph)
        article = unit.article.eid
        arts = [n for kind, n in refs if kind == "article"]
        owner = f"art_{arts[0]}" if arts else article
        return [f"{owner}__para_{n}" for kind, n in refs if kind == "paragraph"]

    def _pe_switch(self, units: list[Unit], ph: Phrases) -> None:
        """"...shall not apply if ... effectively connected with a permanent establishment ... In such
        case the provisions of article 7 or article 14 shall apply": the income goes to those articles."""
        for unit in units:
            if not ph.has("effectively_connected", unit.folded):
                continue
            sentences = unit.sentences()
            connected = next((i for i, (a, b) in enumerate(sentences) if ph.has("effectively_connected", unit.folded[a:b])), None)
            if connected is None:
                continue
            for j in range(connected, min(connected + 2, len(sentences))):
                a, b = sentences[j]
                sentence = unit.folded[a:b]
                if not ph.has("shall_apply", sentence):
                    continue
                arts = [n for kind, n in figures.find_references(sentence, ph) if kind == "article"]
                arts = [n for n in dict.fromkeys(arts) if n != unit.article.number]
                if not arts:
                    continue
                start = sentences[connected][0]
                self.add(unit, "allocation", self.cite(unit, start, b), conditions={"pe_connected": True},
                         values={"refer_to": arts})
                return

    # -- thresholds ------------------------------------------------------------------------------------

    def _figure_values(self, sentence: str, ph: Phrases) -> dict[str, Any]:
        groups = self._figure_groups(sentence, ph)
        return groups[0] if groups else {}

    def _figure_groups(self, sentence: str, ph: Phrases) -> list[dict[str, Any]]:
        """The periods and sums of one sentence, as values: a unit seen twice starts a new group;
        "30 days in any 12 months" is one group {"days": 30, "period_months": 12}."""
        groups: list[dict[str, Any]] = []
        current: dict[str, Any] = {}
        items: list[tuple[int, str, Any, Any]] = []
        durations = figures.find_durations(sentence, ph)
        for i, d in enumerate(durations):
            items.append((d.start, d.unit, d, durations[i - 1] if i else None))
        for a in figures.find_amounts(sentence, ph):
            items.append((a.start, "amount", a, None))
        items.sort(key=lambda t: t[0])
        for _, unit_name, fig, previous in items:
            if unit_name == "months" and previous is not None and previous.unit == "days" and "days" in current \
                    and "period_months" not in current:
                between = sentence[previous.end : fig.start]
                if ph.find("period_words", between) is not None and len(between) < 40:
                    current["period_months"] = _number(fig.value)
                    continue
            key = unit_name if unit_name != "amount" else "amount"
            if key in current:
                groups.append(current)
                current = {}
            if unit_name == "amount":
                current["amount"] = _number(fig.value)
                current["currency"] = fig.currency
            else:
                current[unit_name] = _number(fig.value)
        if current:
            groups.append(current)
        return groups

    def _thresholds(self, units: list[Unit], ph: Phrases) -> None:
        for unit in units:
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                for values in self._figure_groups(sentence, ph):
                    self.add(unit, "threshold", self.cite(unit, s_start, s_end), values=values)

    # -- relief ----------------------------------------------------------------------------------------

    def _relief(self, units: list[Unit], ph: Phrases) -> None:
        for unit in units:
            if unit.role == "intro":
                continue
            text = unit.folded
            if "relief_deemed_paid" in ph.patterns and ph.has("relief_deemed_paid", text):
                # tax sparing names no method of its own (it is never another State's credit), and the
                # tax it deems paid is not in the data: a credit computed from the tax paid would be short
                self.add(unit, "relief_method", self.cite(unit, 0, len(unit.text)), status="unknown",
                         values={"deemed_paid": True},
                         reason=f"{cite_label(unit.article, unit.eid)} deems the source State's tax paid at a rate "
                         "set in the text (tax sparing); the credit it gives is not computed from the tax paid")
                continue
            if ph.has("relief_reduction", text):
                # the Dutch method: "shall allow a reduction of its tax ... computed in the proportion"
                # of the exempt income to the whole; the exempt income still sets the rate
                values: dict[str, Any] = {"method": "exemption_with_progression", "progression": True,
                                          "computed_as": "reduction_of_tax"}
            elif ph.has("relief_progression", text):
                values = {"method": "exemption", "progression": True}
            elif ph.has("relief_exemption", text):
                values = {"method": "exemption"}
            elif ph.has("relief_credit", text):
                values = {"method": "credit"}
                if ph.has("relief_limit", text):
                    values["limit"] = "ordinary"
            else:
                continue
            sentences = unit.sentences()
            first = unit.folded[sentences[0][0] : sentences[0][1]] if sentences else text
            # the State a relief rule speaks of: for an item of a list, the one its introduction names
            # ("In China, ... as follows:", "..., Greece shall allow:"); the item itself often names the
            # other State ("the tax paid in the Netherlands"). Otherwise its own first sentence
            # ("In Portugal, ...", "Where a resident of the Netherlands derives ...").
            named = []
            for intro in reversed(unit.context):
                intro_sentences = intro.sentences()
                if intro_sentences:
                    a, b = intro_sentences[-1]
                    named = [c for c in states_named(intro.folded[a:b]) if not self.parties or c in self.parties]
                if named:
                    break
            if not named:
                named = [c for c in states_named(first) if not self.parties or c in self.parties]
            state = named[0] if named else None
            method_sentence = next(
                ((a, b) for a, b in sentences
                 if any(ph.has(k, unit.folded[a:b])
                        for k in ("relief_reduction", "relief_progression", "relief_exemption", "relief_credit"))),
                (0, len(unit.text)),
            )
            start = sentences[0][0] if state and sentences and sentences[0] != method_sentence and \
                states_named(first) else method_sentence[0]
            self.add(unit, "relief_method", self.cite(unit, start, method_sentence[1]), values=values, state=state)

    # -- time limits, dates, anti-abuse -----------------------------------------------------------------

    def _time_limits(self, units: list[Unit], ph: Phrases) -> None:
        for unit in units:
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                for d in figures.find_durations(sentence, ph):
                    before = sentence[max(0, d.start - 30) : d.start]
                    if ph.find("map_time_limit", before) is None:
                        continue
                    self.add(unit, "time_limit", self.cite(unit, s_start, s_end),
                             values={d.unit: _number(d.value), "event": "mutual_agreement_case"})
                    break

    def _dates(self, units: list[Unit], ph: Phrases) -> None:
        for unit in units:
            context = " ".join(c.folded for c in unit.context)
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                effect = ph.find("effect", sentence)
                entry = ph.find("entry_into_force", sentence)
                # "shall enter into force 30 days after ... and shall have effect ...": the words
                # before "have effect" are about entry into force
                entry_part = sentence[: effect.start()] if effect is not None and entry is not None \
                    and entry.start() < effect.start() else sentence
                if entry is not None and (effect is None or entry_part is not sentence):
                    values: dict[str, Any] = {"event": "entry_into_force"}
                    days = [d for d in figures.find_durations(entry_part, ph) if d.unit in ("days", "months")]
                    ordinal = _ordinal_day(entry_part)
                    if days:
                        values[f"{days[0].unit}_after"] = _number(days[0].value)
                    elif ordinal:
                        values["days_after"] = ordinal  # "on the thirtieth day after"
                    if (days or ordinal) and ph.has("notification", entry_part):
                        values["after"] = "last_notification"
                    dates = figures.find_dates(entry_part)
                    if dates:
                        values["date"] = dates[0].date.isoformat()
                    if len(values) > 1:
                        self.add(unit, "date", self.cite(unit, s_start, s_start + len(entry_part.rstrip(" ,"))), values=values)
                in_effect = effect is not None or ph.has("effect", context)
                # "produzirão efeitos a partir de 1 de Janeiro de 2001": the day itself, when printed
                printed = figures.find_dates(sentence[effect.start():] if effect is not None else sentence) \
                    if in_effect else []
                january = ph.has("january_first", sentence)
                if in_effect and (january or (printed and unit.context)):
                    following = ph.has("following_year", sentence)
                    values = {"event": "effect",
                              "from": ("january_1_of_year_after_entry_into_force" if following else "january_1")
                              if january else "printed_date"}
                    if printed and not following:
                        values["effect_from"] = printed[0].date.isoformat()
                    # "(a) in India, ... 1 April 2024; (b) in Spain: (i) ... 1 January 2024": each State's
                    # date is its own, never the other's
                    self.add(unit, "date", self.cite(unit, s_start, s_end), values=values,
                             state=self._effect_state(unit))

    def _effect_state(self, unit: Unit) -> str | None:
        """The State an item of the clause on dates of effect speaks of: the one its own first words
        name ("(a) in India, ...") or, for a sub-item, its introduction's ("(b) in Spain: (i) ...")."""
        if not unit.context:
            return None
        for text in (unit.folded[:60], *(c.folded[:60] for c in reversed(unit.context))):
            named = [c for c in states_named(text) if not self.parties or c in self.parties]
            if len(named) == 1:
                return named[0]
            if named:
                return None
        return None

    def _termination(self, units: list[Unit], ph: Phrases) -> None:
        """The final clause on termination: when notice may be given ("at least six months before the
        end of any calendar year", "até ao dia 30 de Junho de qualquer ano civil", after a waiting period
        from entry into force) and from when the convention then ceases to have effect ("for taxable
        years beginning after the end of the calendar year in which the notice is given")."""
        for unit in units:
            context = " ".join(c.folded for c in unit.context)
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                effect = ph.has("termination_effect", sentence) or ph.has("termination_effect", context)
                # "...following the year in which the notice of termination has been given" speaks of the
                # effect of a notice, not of when one may be given
                if ph.has("termination_notice", sentence) and not effect:
                    values = _notice_values(sentence, ph)
                    if len(values) > 1:
                        self.add(unit, "date", self.cite(unit, s_start, s_end), values=values)
                if effect and (ph.has("after_year_end", sentence)
                               or (ph.has("january_first", sentence) and ph.has("following_year", sentence))):
                    self.add(unit, "date", self.cite(unit, s_start, s_end),
                             values={"event": "termination_effect", "from": "january_1_of_year_after_notice"})

    def _anti_abuse(self, units: list[Unit], ph: Phrases) -> None:
        for unit in units:
            if not ph.group_hits("anti_abuse", unit.folded):
                continue
            seen: set[str] = set()
            for s_start, s_end in unit.sentences():
                for _, _, test in ph.group_hits("anti_abuse", unit.folded[s_start:s_end]):
                    if test in seen:
                        continue
                    seen.add(test)
                    self.add(unit, "anti_abuse", self.cite(unit, s_start, s_end), values={"test": test})

    def _prevailing_language(self) -> None:
        language = self.doc.prevailing_language
        if not language:
            return
        folded = self.source.folded
        words = sorted({vocab.fold(w) for lang in vocab.languages().values() for w in lang.prevail_words}, key=len, reverse=True)
        names = sorted((n for lang in vocab.languages().values() for n, code in lang.language_names.items() if code == language),
                       key=len, reverse=True)
        if not names:
            return
        pattern = regex.compile(r"(?<!\p{L})(?:" + "|".join(regex.escape(w) for w in words) + r")")
        name_re = regex.compile(r"(?<!\p{L})(?:" + "|".join(regex.escape(n) for n in names) + r")(?!\p{L})")
        for m in pattern.finditer(folded):
            start = max(folded.rfind(".", 0, m.start()), folded.rfind("\n", 0, m.start())) + 1
            ends = [i for i in (folded.find(".", m.end()), folded.find("\n", m.end())) if i >= 0]
            end = min(ends) + 1 if ends else len(folded)
            if not name_re.search(folded[start:end]):
                continue
            version = next((v for v in self.doc.versions
                            if self.source.clean.original_span(start, start)[0] >= v.span[0]
                            and self.source.clean.original_span(start, start)[0] <= v.span[1] + 2000), None)
            cite = self.source.cite(version.language if version else language, "final_clause", start, end)
            self.provisions.append(Provision(
                id=f"{cite.language}:final_clause:prevailing_language:1", topic="final_clause",
                kind="prevailing_language", values={"language": language}, cite=cite,
            ))
            return


#: where a "notwithstanding" reference ends: ";", ":", or a comma not followed by more numbers or items
_REFERENCE_END = regex.compile(r"[;:]|,(?!\s*(?:\(?\d|\(?[a-z]\)|and\b|or\b|e\b|ou\b|y\b|o\b|sub|para|al[ií]nea|apartado|n\.))")


@cache
def _ordinal_day_regex() -> regex.Pattern[str]:
    words = "|".join(regex.escape(w) for w in sorted(vocab.all_day_words(), key=len, reverse=True))
    return regex.compile(rf"(?<![\p{{L}}])(?P<n>{words})\s+(?:day|dia|día)(?![\p{{L}}])")


def _ordinal_day(text: str) -> int | None:
    """"the thirtieth day after" -> 30 (ordinal day words from the language files)."""
    m = _ordinal_day_regex().search(text)
    return vocab.all_day_words()[m.group("n")] if m else None


def _exclusive_list_intro(unit: Unit, ph: Phrases) -> bool:
    """The item's list is introduced by "...taxable only in the other State if:" (no rate announced)."""
    if not unit.context:
        return False
    intro = unit.context[-1].folded.rstrip()
    return intro.endswith(":") and ph.has("exclusive", intro) and not ph.has("cap", intro)


def _protocol_targets(folded: str, ph: Phrases, topics: dict[str, str | None]) -> list[str]:
    """The eIds a protocol paragraph's first cross-reference names, when it is a paragraph (or an item
    of one) of an article with rates: "artículo 10, apartado 2, letra a)" -> ["art_10__para_2__point_a"].
    A reference to a whole article ("the rate provided for in Article 12") names no one rate, and one
    to a whole paragraph only when the protocol switches it off ("no se aplicarán"): "as disposições do
    parágrafo 2 do Artigo 12 aplicam-se aos ... serviços técnicos" widens the paragraph, it does not
    qualify its rates."""
    refs = figures.find_references(folded[:200], ph)
    articles = [n for kind, n in refs if kind == "article"]
    paragraphs = [n for kind, n in refs if kind == "paragraph"]
    if not articles or not paragraphs or topics.get(articles[0]) not in PAYMENT_TOPICS:
        return []
    base = f"art_{articles[0]}__para_{paragraphs[0]}"
    letters = figures.find_point_references(folded[:200], ph)
    if letters:
        return [f"{base}__point_{letter}" for letter in letters]
    switched_off = "shall_not_apply" in ph.patterns and ph.has("shall_not_apply", folded)
    return [base] if switched_off else []


def _notice_values(sentence: str, ph: Phrases) -> dict[str, Any]:
    """{"event": "termination_notice"} with what the sentence says of the deadline: the months before
    the end of a calendar year, or a day of the year ("30 June" -> "by": "06-30"), and the years from
    entry into force before notice may be given."""
    values: dict[str, Any] = {"event": "termination_notice"}
    year_end = ph.find("before_year_end", sentence)
    for d in figures.find_durations(sentence, ph):
        if d.unit == "months" and year_end is not None and 0 <= year_end.start() - d.end < 12:
            values["months_before_year_end"] = _number(d.value)
        elif d.unit == "years" and ph.has("entry_into_force", sentence[d.end :]):
            values["years_after_entry_into_force"] = _number(d.value)
    day = figures.find_day_of_year(sentence)
    ordinal = _ordinal_day_regex().search(sentence)
    if day is None and ordinal is not None:  # "on or before the thirtieth day of June"
        month = regex.match(r"\s*(?:of|de|del)\s+(\p{L}+)", sentence[ordinal.end() : ordinal.end() + 20])
        if month is not None and month.group(1) in vocab.all_months():
            day = (vocab.all_months()[month.group(1)], vocab.all_day_words()[ordinal.group("n")])
    if day is not None:
        values["by"] = f"{day[0]:02d}-{day[1]:02d}"
    return values


def _base(sentence: str, rate: figures.Figure) -> dict[str, Any]:
    """What the rate applies to: the gross amount (the Model's wording) or another base the text defines
    ("10 per cent of the adjusted amount of the royalties")."""
    after = sentence[rate.end : rate.end + 40]
    if regex.search(r"gross|brut", after):
        return {"base": "gross_amount"}
    if regex.search(r"adjusted|ajustad", after):
        return {"base": "adjusted_amount"}
    return {}


def _number(value: Decimal) -> int | Decimal:
    """Whole numbers as int (days, months, money in units), others as Decimal."""
    return int(value) if value == value.to_integral() else cond.as_decimal(value)


def extract_provisions(doc: Document, parties: list[str] | None = None) -> ProvisionSet:
    """Every provision of `doc`, each with its citation; `parties` (ISO codes) overrides the
    document's own when given (`--parties PT,CN`)."""
    chosen = [p.upper() for p in parties] if parties else [p for p in doc.parties if isinstance(p, str)]
    if not doc.original:
        from taxtreaty.text import InputError

        raise InputError("the document carries no source text (parse it from its file to extract provisions)")
    return _Extractor(doc, chosen).run()


__all__ = ["extract_provisions"]
