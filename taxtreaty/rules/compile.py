"""Compile a treaty's provisions once into per-topic rule sets the engine evaluates quickly.

`compile_treaty(doc, provisions)` groups the `ProvisionSet` by topic, picks for each topic the
language the decision will cite (the prevailing language when it has the article, else the
first version that has it), turns every provision's conditions into `Condition` tests, and
records what the text cannot tell: provisions whose value is unknown, paragraphs whose list
items are missing (parser warnings), and articles cut off by the end of the fragment. Nothing
here decides a case; `engine.py` does.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from taxtreaty.provisions.model import Provision, ProvisionSet
from taxtreaty.rules import labels
from taxtreaty.rules.completeness import complete_convention
from taxtreaty.rules.conditions import Condition, compile_conditions
from taxtreaty.rules.decision import Caveat, Cite
from taxtreaty.structure import eids
from taxtreaty.structure.model import Article, Document

#: parser warnings that mean words of a paragraph are not in the source
GAP_WARNINGS = {"list_items_missing", "amendment_not_applied"}
#: the last characters of a text that goes on (a list item, an enumeration)
_CONTINUES = (";", ":", ",", "-", "—")
#: provision kinds the engine reads for a distributive article
DISTRIBUTIVE_KINDS = {"withholding_cap", "exemption", "allocation", "threshold"}
#: the payments whose article sends income connected with a permanent establishment to article 7 or 14 (OECD 10(4),
#: 11(4), 12(3))
PE_SWITCHED = ("dividends", "interest", "royalties")


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    topic: str
    kind: str
    status: str
    reason: str | None
    rate: Decimal | None
    allocation: str | None
    conditions: tuple[Condition, ...]
    notes: tuple[str, ...]
    values: dict[str, Any]
    state: str | None
    cite: Cite
    #: eIds this rule is subject to or overridden by ("Com ressalva do disposto no n.º 2 do artigo 19.º")
    overrides: tuple[str, ...] = ()
    #: provisos the rule's benefit holds subject to (anti-abuse, "as long as the law of ...")
    caveats: tuple[Caveat, ...] = ()

    @property
    def paragraph_eid(self) -> str:
        return paragraph_of(self.cite.eid)

    @property
    def refers_to(self) -> list[str]:
        """Articles this rule sends the income to ("article 7 or article 14 shall apply")."""
        targets = self.values.get("refer_to") or self.values.get("articles") or self.values.get("article") or []
        return [str(t) for t in (targets if isinstance(targets, list | tuple) else [targets])]

    @property
    def is_pe_override(self) -> bool:
        """The PE exception of articles 10-12: connected income goes to article 7 or 14."""
        return bool(self.refers_to) and any(c.fact == "pe_connected" and c.value is True for c in self.conditions)


@dataclass(slots=True)
class TopicRules:
    topic: str
    language: str
    article: str | None  # article number as printed ("10")
    article_eid: str | None
    allocations: list[Rule] = field(default_factory=list)
    pe_overrides: list[Rule] = field(default_factory=list)
    exemptions: list[Rule] = field(default_factory=list)
    caps: list[Rule] = field(default_factory=list)
    thresholds: list[Rule] = field(default_factory=list)
    #: provisions whose value the text does not give, and paragraphs whose list items are missing
    gaps: list[Rule] = field(default_factory=list)
    #: the paragraph where the article is cut off by the end of the fragment
    truncated: Cite | None = None
    #: the cut falls inside that paragraph (mid-sentence), not after it: a list it holds may go on
    truncated_inside: bool = False
    #: (eid, message, prevailing language or None) for figures that differ between versions
    divergences: list[tuple[str, str, str | None]] = field(default_factory=list)

    @property
    def rate_paragraphs(self) -> set[str]:
        return {r.paragraph_eid for r in (*self.exemptions, *self.caps, *self.gaps)}

    def facts(self) -> set[str]:
        """Scenario facts any rule of this topic reads (for the ledger's grouping)."""
        rules = (*self.allocations, *self.pe_overrides, *self.exemptions, *self.caps, *self.gaps)
        result = {c.fact for r in rules for c in r.conditions}
        if self.truncated is not None or (not self.pe_overrides and self.topic in PE_SWITCHED):
            result.add("pe_connected")  # a lost or unread PE paragraph may matter (rates.pe_exception)
        if any(r.overrides for r in rules):
            result.add("payer")  # "subject to article 19(2)": matters when a government pays
        if self.thresholds:
            result.update({"days_present", "employer_resident", "pe_connected"})
        if any(r.values.get("lesser_of") for r in (*self.caps, *self.gaps)):
            result.add("lesser_of_rate_pct")  # the rate of a "lesser of" item no reader reads (rules.rates)
        return result


@dataclass(slots=True)
class InForce:
    """When the convention applies to payments: [effect_from, effect_until]; None = not known."""

    effect_from: dt.date | None = None
    effect_until: dt.date | None = None
    cites: list[Cite] = field(default_factory=list)
    given_by_user: bool = False
    #: "(a) in India, ... on or after 1 April 2024; (b) in Spain, ... 1 January 2024": the dates of
    #: effect a clause gives each State, earliest and latest (one State's several taxes)
    effect_from_by_state: dict[str, tuple[dt.date, dt.date]] = field(default_factory=dict)
    state_cites: dict[str, list[Cite]] = field(default_factory=dict)
    #: equally authentic versions that print different dates of effect: the latest of them
    #: (payments between `effect_from` and this are not decided)
    effect_from_latest: dt.date | None = None
    #: what `rules.dates` resolved: the entry into force used, the signature's lower bound, notes
    resolved: Any = None

    def describe(self) -> dict[str, Any]:
        """The dates a decision used, for `decision.version["dates"]`."""
        out: dict[str, Any] = {}
        if self.effect_from:
            out["effect_from"] = self.effect_from.isoformat()
        if self.effect_until:
            out["effect_until"] = self.effect_until.isoformat()
        if self.effect_from_by_state:
            out["effect_from_by_state"] = {k: [a.isoformat(), b.isoformat()] for k, (a, b) in self.effect_from_by_state.items()}
        if self.given_by_user:
            out["given_by_user"] = True
        if self.resolved is not None:
            out.update(self.resolved.describe())
        return out

    @property
    def known(self) -> bool:
        return self.effect_from is not None or self.effect_until is not None or bool(self.effect_from_by_state)


@dataclass(slots=True)
class CompiledTreaty:
    """A treaty ready to decide scenarios: built once, used for every row of a ledger."""

    name: str
    parties: tuple[str, ...]
    prevailing_language: str | None
    topics: dict[str, TopicRules]
    in_force: InForce
    relief: list[Rule]
    #: article numbers present per language, to say which articles a fragment holds
    articles_present: dict[str, list[str]]
    #: the articles income is sent to when connected with a PE or fixed base, by topic
    pe_articles: dict[str, Cite]
    complete: bool
    #: article eid -> topic, per language ("art_19" -> "government_service")
    article_topics: dict[str, str] = field(default_factory=dict)
    #: the convention's versions over time (`taxtreaty.versions.timeline.Timeline`), when amending
    #: instruments are known; the engine then decides on the version in effect on the payment date
    timeline: Any = None
    #: MLI positions for this covered agreement (`taxtreaty.versions.mli.Positions`), when known
    mli: Any = None
    #: complete, and every article's topic is known: an article it lacks is one it does not have
    articles_known: bool = False
    #: the parser's word that the text names a protocol none was read of (structure warning protocol_not_read)
    protocol_not_read: str | None = None
    #: the parser's word that the page reads as two columns merged line by line (structure warning columns_merged)
    columns_merged: str | None = None
    #: the parser's word that the copy printed no article headings and the articles' numbers are counted
    #: (structure warning article_headings_missing)
    headings_counted: str | None = None

    def all_versions(self) -> list[CompiledTreaty]:
        """This treaty and every version of it a decision may use (the ledger buckets on all of them):
        its versions over time, and each as the MLI modifies it."""
        found = [self] if self.timeline is None else [self, *self.timeline.compiled_versions()]
        if self.mli is not None and self.mli.modified is not self.mli.base:
            found += self.mli.modified.all_versions()
        return found

    def topic(self, topic: str) -> TopicRules | None:
        return self.topics.get(topic)


def paragraph_of(eid: str) -> str:
    """'art_10__para_3__point_a' -> 'art_10__para_3' (an article eid is returned as is)."""
    return eids.paragraph_of(eid)


def article_of(eid: str) -> str:
    return eids.article_of(eid)


def _cite(provision: Provision) -> Cite:
    c = provision.cite
    return Cite(eid=c.eid, language=c.language, quote=c.quote, span=(int(c.span[0]), int(c.span[1])))


def _node_cite(doc: Document, eid: str, language: str) -> Cite | None:
    node = doc.find(eid, language)
    if node is None:
        return None
    start, end = node.span
    return Cite(eid=eid, language=language, quote=doc.original[start:end], span=(start, end))


def _caveats(provision: Provision) -> tuple[Caveat, ...]:
    found = provision.conditions.get("caveats") or []
    if provision.conditions.get("otherwise"):  # the residual rate is no benefit a main-purpose proviso withdraws
        found = [c for c in found if c.get("kind") != "main_purpose"]
    return tuple(Caveat(str(c["kind"]), str(c.get("eid") or provision.cite.eid), str(c["quote"])) for c in found)


def _gross_rate(provision: Provision) -> Decimal | None:
    """The rate of the gross amount: "10 per cent of the adjusted amount", where "the adjusted amount means 60
    per cent of the gross amount" (`values.base_pct`), is 6 per cent of the gross."""
    rate, share = provision.rate_pct, provision.values.get("base_pct")
    if rate is None or share is None:
        return rate
    return (Decimal(rate) * Decimal(str(share)) / 100).normalize()


def _rule(provision: Provision, parties: tuple[str, ...]) -> Rule:
    tests, notes = compile_conditions(provision.conditions, parties, provision.topic)
    return Rule(
        id=provision.id, topic=provision.topic, kind=provision.kind, status=provision.status,
        reason=provision.reason, rate=_gross_rate(provision), allocation=provision.allocation,
        conditions=tuple(tests), notes=tuple(notes), values=dict(provision.values),
        state=_state(provision.state, parties), cite=_cite(provision), overrides=tuple(provision.overrides),
        caveats=_caveats(provision),
    )


def _state(value: str | None, parties: tuple[str, ...]) -> str | None:
    if value in ("first_state", "second_state"):
        if len(parties) == 2:
            return parties[0] if value == "first_state" else parties[1]
        return value
    return value


def _choose_language(doc: Document, topic: str, with_rules: set[str]) -> tuple[str | None, Article | None]:
    order = [v.language for v in doc.versions]
    if doc.prevailing_language in order:
        order.remove(doc.prevailing_language)
        order.insert(0, doc.prevailing_language)
    for language in order:
        version = doc.version(language)
        articles = version.by_topic(topic) if version else []
        if articles and (language in with_rules or not with_rules):
            return language, articles[0]
    for language in order:  # the article exists only in a version without extracted rules
        version = doc.version(language)
        if version and version.by_topic(topic):
            return language, version.by_topic(topic)[0]
    return (next(iter(sorted(with_rules))) if with_rules else None), None


def _truncation(doc: Document, article: Article, language: str) -> tuple[Cite | None, bool]:
    """Where the fragment cuts the article off, and whether the cut is inside that paragraph."""
    if article.complete and all(p.complete for p in article.paragraphs):
        return None, False
    cut = next((p for p in reversed(article.paragraphs) if not p.complete), None)
    inside = cut is not None
    if cut is None:
        if not article.paragraphs:
            return Cite(article.eid, language, doc.original[article.span[0]:article.span[1]], article.span), True
        cut = article.paragraphs[-1]
        # a paragraph that ends on ";", ":" or "," ends inside a list or a sentence, even when
        # the parser found no broken word
        inside = cut.text.rstrip().endswith(_CONTINUES)
    # a fragment that starts inside an article is incomplete at its head, not its end
    if article.paragraphs and cut is article.paragraphs[0] and len(article.paragraphs) > 1:
        return None, False
    return Cite(cut.eid, language, doc.original[cut.span[0]:cut.span[1]], cut.span), inside


def _gap_rules(doc: Document, topic: str, language: str, article: Article, covered: set[str]) -> list[Rule]:
    """Paragraphs of the article whose list items the parser found missing, not already covered
    by an unknown-status provision: the engine treats them as gaps that may hold a rate."""
    rules: list[Rule] = []
    for warning in doc.warnings:
        if warning.code not in GAP_WARNINGS or warning.language != language or not warning.eid:
            continue
        # words an amending instrument changed but could not be placed: a gap even where the old
        # words' rates were read (they are no longer the law from the instrument's effect)
        amended = warning.code == "amendment_not_applied"
        if article_of(warning.eid) != article.eid or (paragraph_of(warning.eid) in covered and not amended):
            continue
        cite = _node_cite(doc, warning.eid if amended else paragraph_of(warning.eid), language)
        if cite is None:
            continue
        rules.append(Rule(
            id=f"{language}:{cite.eid}:gap", topic=topic, kind="gap", status="unknown",
            reason=warning.message, rate=None, allocation=None, conditions=(), notes=(),
            values={"words_unread": True} if amended else {},
            state=None, cite=cite,
        ))
    return rules


def _in_force(provisions: list[Provision], prevailing: str | None = None) -> InForce:
    result = InForce()
    # the prevailing text's dates, when it gives any; otherwise every version's, and where they
    # differ the payments between them are left open
    if any(p.kind == "date" and p.status == "determined" and p.cite.language == prevailing for p in provisions):
        provisions = [p for p in provisions if p.kind != "date" or p.cite.language == prevailing]
    effect_days: list[dt.date] = []
    for p in provisions:
        if p.kind != "date" or p.status != "determined":
            continue
        role = str(p.values.get("role") or p.values.get("event") or "")
        raw = p.values.get("date")
        for key in ("effect_from", "entry_into_force", "effect_until", "terminated"):
            if key in p.values:
                role, raw = key, p.values[key]
        if raw is None:
            continue
        try:
            day = raw if isinstance(raw, dt.date) else dt.date.fromisoformat(str(raw))
        except ValueError:
            continue
        if not role:
            role = "entry_into_force" if p.topic == "entry_into_force" else "effect_until" if p.topic == "termination" else ""
        if role == "effect_from" and p.state:
            low, high = result.effect_from_by_state.get(p.state, (day, day))
            result.effect_from_by_state[p.state] = (min(low, day), max(high, day))
            result.state_cites.setdefault(p.state, []).append(_cite(p))
            continue
        if role in ("effect_from", "entry_into_force"):
            if role == "effect_from":
                effect_days.append(day)
            if role == "effect_from" or result.effect_from is None:
                result.effect_from = min(effect_days) if effect_days else day
            result.cites.append(_cite(p))
        elif role in ("effect_until", "terminated"):
            result.effect_until = day
            result.cites.append(_cite(p))
    if effect_days and max(effect_days) != min(effect_days):
        result.effect_from_latest = max(effect_days)
    return result


#: limits of an exemption the scenario has no fact for: the length of a stay, a sum of money
#: (value key -> labels.yaml condition)
_UNAPPLIED_LIMITS = {"years": "stay_years", "months": "stay_months", "amount": "amount_at_most"}


def _unapplied_limits(rules: TopicRules) -> None:
    """"... for a period not exceeding two years ... shall be exempt" (teachers), "payments not
    exceeding USD 9,000" (students): an exemption the text limits by a figure no scenario fact
    measures. The limit becomes an unknown condition of the exemption, so the decision cites it and
    stays indeterminate, never a confident exemption on a condition it did not test. Limits read as
    the paragraph's thresholds count too."""
    for i, rule in enumerate(rules.exemptions):
        values = dict(rule.values)
        for threshold in rules.thresholds:
            if threshold.paragraph_eid == rule.paragraph_eid:
                values.update({k: v for k, v in threshold.values.items() if k not in values})
        limits = [labels.label("conditions", words, value=_limit_text(values, key))
                  for key, words in _UNAPPLIED_LIMITS.items() if key in values]
        if not limits:
            continue
        doubt = tuple(Condition("unread_condition", "unknown", limit, labels.label("conditions", "limit_unapplied", words=limit))
                      for limit in limits)
        rules.exemptions[i] = replace(rule, conditions=(*rule.conditions, *doubt))


def _limit_text(values: dict[str, Any], key: str) -> str:
    if key == "amount" and values.get("currency"):
        return f"{values['currency']} {values[key]}"
    return str(values[key])


def _exemption_words_inside_a_rate(rules: TopicRules) -> None:
    """An exemption read from the very words that set a rate ("b) 15 por ciento ... por un vehículo de
    inversión ... cuyas rentas ... estén exentas") is doubtful: the exempt words may describe
    someone's status, not exempt the income. Such an exemption is never applied with confidence;
    it stays a candidate the decision cites (too cautious at worst, never 0% for every payment)."""
    def overlaps(a: Rule, b: Rule) -> bool:
        return a.cite.language == b.cite.language and a.cite.span[0] < b.cite.span[1] and b.cite.span[0] < a.cite.span[1]

    for i, rule in enumerate(rules.exemptions):
        rate = next((c for c in rules.caps if c.rate is not None and overlaps(rule, c)), None)
        if rate is None:
            continue
        doubt = Condition("unread_condition", "unknown", rate.cite.quote,
                          labels.label("conditions", "exempt_words_in_rate", value=f"{rate.rate.normalize():f}", words=rate.cite.eid))
        rules.exemptions[i] = replace(rule, conditions=(*rule.conditions, doubt))


def _no_subtype_default_without_a_general_rule(rules: TopicRules) -> None:
    """The default "the income is of no special kind" may only pick the article's general rule
    over a special one; when every cap (or every source allocation) is for a special kind of
    income, that default would decide between a cap and none, so the kind becomes a fact the
    decision asks for instead."""
    def special(rule: Rule) -> bool:
        return any(c.fact == "income_subtype" for c in rule.conditions)

    source_rules = [r for r in rules.allocations if r.allocation in ("source_may_tax", "source_only")]
    residence_base = any(r.allocation == "residence_only" and not special(r) for r in rules.allocations)
    for group in (rules.caps, source_rules):
        if group and all(special(r) for r in group) and not (group is source_rules and residence_base):
            for i, rule in enumerate(group):
                conditions = tuple(
                    Condition(c.fact, "unknown", c.value, c.label, c.label_not) if c.fact == "income_subtype" else c
                    for c in rule.conditions
                )
                updated = replace(rule, conditions=conditions)
                target = rules.caps if group is rules.caps else rules.allocations
                target[target.index(rule)] = updated
                group[i] = updated


#: anti-abuse tests a user can say bite (`main_purpose: true`)
_PURPOSE_TESTS = ("principal_purpose", "main_purpose")


def _article_wide_purpose_test(rules: TopicRules, found: list[Provision], parties: tuple[str, ...]) -> None:
    """"No relief shall be available under this Article if it was the main purpose ...", "The provisions of
    this Article shall not apply if it was the main purpose ...": a main-purpose paragraph of the article
    that no rate or exemption carries as its own proviso withdraws every benefit of the article. Each
    cap, exemption and residence-only rule gets it as a caveat (the answer stays determined and says so);
    a user who says it bites (`main_purpose: true`) gets the source State's own law."""
    if rules.article_eid is None:
        return
    benefits = [*rules.caps, *rules.exemptions, *(r for r in rules.allocations if r.allocation == "residence_only")]
    carried = {c.eid for r in benefits for c in r.caveats}
    for p in found:
        if p.kind != "anti_abuse" or p.values.get("test") not in _PURPOSE_TESTS or p.cite.language != rules.language:
            continue
        if article_of(p.cite.eid) != rules.article_eid or p.cite.eid in carried:
            continue
        caveat = Caveat("main_purpose", p.cite.eid, p.cite.quote)
        tests, _ = compile_conditions({"caveats": [{"kind": "main_purpose"}]}, parties, rules.topic)
        for group in (rules.caps, rules.exemptions, rules.allocations):
            for i, rule in enumerate(group):
                if rule in benefits and all(c.eid != caveat.eid for c in rule.caveats):
                    known = {(c.fact, c.op) for c in rule.conditions}
                    extra = tuple(t for t in tests if (t.fact, t.op) not in known)
                    group[i] = replace(rule, caveats=(*rule.caveats, caveat), conditions=(*rule.conditions, *extra))
        carried.add(p.cite.eid)


def _reclassified_topics(provision: Provision) -> list[str]:
    """The topics a provision is filed under: its own, except for a protocol point that sends a kind of
    payment to the articles of profits ("Ad Article 7 and 14: technical services ... are payments to
    which the provisions of Article 7 or Article 14 apply"), filed under the income that kind belongs
    to (`subtype_facts` of labels.yaml: technical services are royalties)."""
    if not provision.values.get("reclassified_to"):
        return [provision.topic]
    mapped = labels.subtype_facts().get(str(provision.conditions.get("income_subtype")))
    if mapped is None or not mapped.topics or provision.topic in mapped.topics:
        return [provision.topic]
    return list(mapped.topics)


def compile_treaty(
    doc: Document,
    provisions: ProvisionSet,
    parties: list[str] | tuple[str, ...] | None = None,
    in_force: tuple[dt.date | None, dt.date | None] | None = None,
    name: str | None = None,
    dates: Any = None,
) -> CompiledTreaty:
    """Build the rule sets of every topic of `doc` from its provisions (done once per treaty)."""
    party_codes = tuple(parties or provisions.parties or doc.parties)
    by_topic: dict[str, list[Provision]] = defaultdict(list)
    for p in provisions.provisions:
        for topic in _reclassified_topics(p):
            by_topic[topic].append(p if topic == p.topic else p.model_copy(update={"topic": topic}))

    topics: dict[str, TopicRules] = {}
    topic_names = set(by_topic)
    for version in doc.versions:
        topic_names.update(a.topic for a in version.articles if a.topic)
    for topic in sorted(topic_names):
        found = by_topic.get(topic, [])
        languages = {p.cite.language for p in found if p.kind in DISTRIBUTIVE_KINDS}
        language, article = _choose_language(doc, topic, languages)
        if language is None:
            continue
        rules = TopicRules(topic, language, article.number if article else None, article.eid if article else None)
        for p in found:
            if p.cite.language != language or p.kind not in DISTRIBUTIVE_KINDS:
                continue
            rule = _rule(p, party_codes)
            if rule.status != "determined":
                rules.gaps.append(rule)
            elif rule.is_pe_override:
                rules.pe_overrides.append(rule)
            elif rule.kind == "exemption":
                rules.exemptions.append(rule)
            elif rule.kind == "withholding_cap":
                rules.caps.append(rule)
            elif rule.kind == "threshold":
                rules.thresholds.append(rule)
            elif rule.kind == "allocation":
                rules.allocations.append(rule)
        _no_subtype_default_without_a_general_rule(rules)
        _article_wide_purpose_test(rules, found, party_codes)
        _exemption_words_inside_a_rate(rules)
        _unapplied_limits(rules)
        if article is not None:
            covered = {r.paragraph_eid for r in rules.gaps}
            covered |= {r.paragraph_eid for r in (*rules.caps, *rules.exemptions)}
            rules.gaps.extend(_gap_rules(doc, topic, language, article, covered))
            rules.truncated, rules.truncated_inside = _truncation(doc, article, language)
        rules.divergences = [
            (d.eid, d.message, d.prevailing_language or doc.prevailing_language) for d in provisions.divergences
            if rules.article_eid and article_of(d.eid) == rules.article_eid
        ]
        topics[topic] = rules

    from taxtreaty.rules.dates import resolve

    date_provisions, resolved = resolve(doc, provisions.provisions, dates)
    forced = _in_force(date_provisions, doc.prevailing_language)
    forced.resolved = resolved
    if in_force is not None and (in_force[0] or in_force[1]):
        forced = InForce(in_force[0], in_force[1], [], given_by_user=True)

    relief = [_rule(p, party_codes) for p in provisions.provisions if p.kind == "relief_method" and p.status == "determined"]

    pe_articles: dict[str, Cite] = {}
    for topic in ("business_profits", "independent_services"):
        rules_for = topics.get(topic)
        if rules_for and rules_for.article_eid:
            art = doc.find(rules_for.article_eid, rules_for.language)
            if isinstance(art, Article) and art.paragraphs:
                first = art.paragraphs[0]
                pe_articles[topic] = Cite(first.eid, rules_for.language, doc.original[first.span[0]:first.span[1]], first.span)

    articles_present = {v.language: [a.number for a in v.articles] for v in doc.versions}
    complete = complete_convention(doc)
    articles_known = complete and complete_convention(doc, every_topic=True)
    article_topics = {a.eid: a.topic for v in doc.versions for a in v.articles if a.topic}
    return CompiledTreaty(
        article_topics=article_topics,
        name=name or (doc.source.path or doc.source.sha256[:12]),
        parties=party_codes,
        prevailing_language=doc.prevailing_language,
        topics=topics,
        in_force=forced,
        relief=relief,
        articles_present=articles_present,
        pe_articles=pe_articles,
        complete=complete,
        articles_known=articles_known,
        protocol_not_read=next((w.message for w in doc.warnings if w.code == "protocol_not_read"), None),
        columns_merged=next((w.message for w in doc.warnings if w.code == "columns_merged"), None),
        headings_counted=next((w.message for w in doc.warnings if w.code == "article_headings_missing"), None),
    )


def merge_treaties(parts: list[CompiledTreaty]) -> CompiledTreaty:
    """One treaty from several documents (fragments of one convention): for each topic, the
    document that holds its article and the most rules wins. The parts are left as they were
    (they may be cached rule sets)."""
    first = parts[0]
    if len(parts) == 1:
        return first
    base = dataclasses.replace(first, topics=dict(first.topics), pe_articles=dict(first.pe_articles),
                               articles_present={k: list(v) for k, v in first.articles_present.items()},
                               article_topics=dict(first.article_topics))
    for other in parts[1:]:
        for topic, rules in other.topics.items():
            mine = base.topics.get(topic)
            weight = (rules.article_eid is not None, len(rules.caps) + len(rules.exemptions) + len(rules.allocations))
            if mine is None or weight > (mine.article_eid is not None, len(mine.caps) + len(mine.exemptions) + len(mine.allocations)):
                base.topics[topic] = rules
        base.relief = base.relief or other.relief
        if not base.in_force.known:
            base.in_force = other.in_force
        base.pe_articles = {**other.pe_articles, **base.pe_articles}
        base.complete = base.complete or other.complete
        base.articles_known = base.articles_known or other.articles_known
        for language, numbers in other.articles_present.items():
            base.articles_present.setdefault(language, [])
            base.articles_present[language] += [n for n in numbers if n not in base.articles_present[language]]
        base.article_topics = {**other.article_topics, **base.article_topics}
    return base
