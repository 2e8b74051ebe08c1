"""The after-the-fact passes: what one provision's words do to provisions read elsewhere.

Each pass is a named function over provisions already read (an article's, or the whole set):

- `disapplied_rates`: "O disposto na alínea a) do n.º 2 não é aplicável quando ..." switches a
  rate or exemption off in a case no condition key describes;
- `dated_caps`: "This limitation shall apply to royalties paid on or after ..." dates the
  paragraph's rates;
- `applies_instead`: "..., the provisions of sub-paragraph (b) shall apply" puts one item of a
  list of rates in place of another;
- `replacing_rates`: "la tasa del 15 por ciento se aplicará en lugar de la prevista en el inciso b)"
  replaces an item's rate in a case not read;
- `undistinguished_caps`: two rates for one income whose conditions were not told apart;
- `defined_kinds`: "the term “Government” shall include ... the Central Bank": an article's definition
  of a recipient kind its exemption names;
- `protocol_qualifiers`: a protocol paragraph that qualifies a rate of an article;
- `document_warnings`: whole-document checks (swallowed headings, articles missing);
- `attach_alignment`: the divergences between the language versions.

They change `conditions` and `overrides` in place (provisions are mutable models); the one addition is
`disapplied_rates`' copy of a rate for income arising in the one State a switch names (the next id of its eId).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from taxtreaty.provisions import conditions as cond
from taxtreaty.provisions import figures, one_state, provisos
from taxtreaty.provisions.align import divergences, missing_articles
from taxtreaty.provisions.model import Provision, ProvisionSet
from taxtreaty.provisions.parties import GUARANTOR_KINDS, PUBLIC_KINDS, kind_hits
from taxtreaty.provisions.reading import PAYMENT_TOPICS, Reading
from taxtreaty.provisions.references import references_displaced, switched_off
from taxtreaty.provisions.states import states_named
from taxtreaty.provisions.subtypes import subtype_conditions
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length, phrases
from taxtreaty.structure import eids
from taxtreaty.structure.model import Article, Document, Version


def disapplied_rates(reading: Reading, version: Version, article: Article, ph: Phrases,
                     found: list[Provision]) -> None:
    """"O disposto na alínea a) do n.º 2 não é aplicável quando a sociedade que paga os dividendos
    for uma sociedade de investimento imobiliário": the article switches one of its own rates or
    exemptions off in a case no condition key describes. The switch's words become that rate's
    `unread_condition` (the engine answers indeterminate, citing them), never a rate applied as
    if the exception were not there. The switch to the business-profits article (a permanent
    establishment) is read by `readers.allocations`; a language without `shall_not_apply` phrases reads none."""
    if "shall_not_apply" not in ph.patterns:
        return
    for paragraph in article.paragraphs:
        for unit in reading.source.units(version.language, article, paragraph, cut_restarts=True):
            if not ph.has("shall_not_apply", unit.folded) or ph.has("effectively_connected", unit.folded):
                continue
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                switch = ph.find("shall_not_apply", sentence)
                if switch is None:
                    continue
                targets = switched_off(unit, sentence[: switch.start()], ph)
                words = " ".join(unit.text[s_start:s_end].split())
                state = _one_state_named(sentence, reading.parties) if "keeps_domestic_tax" in ph.patterns and ph.has("keeps_domestic_tax", sentence) else None
                for p in list(found):
                    if (p.kind in ("withholding_cap", "exemption") or _exempting(p)) and p.status == "determined" \
                            and "unread_condition" not in p.conditions and p.cite.eid != unit.eid \
                            and any(eids.within(p.cite.eid, t) for t in targets):
                        if state is not None and "source_state" not in p.conditions:
                            found.append(_for_source(p, state, found))
                            other = next(c for c in reading.parties if c != state)
                            p.conditions, p.state = {**p.conditions, "source_state": other}, other
                            p = found[-1]
                        p.conditions = provisos.attach(p.conditions, words, unit.eid, ph)


def _exempting(p: Provision) -> bool:
    """A residence-only rule of a rate article ("Interest ... shall be taxable only in that other State"): it takes the
    source State's tax away as an exemption does, so a switch that turns it off ("Paragraph 1 shall not apply to
    interest paid to a resident ... which is not subject to tax there") qualifies it the same way."""
    return p.kind == "allocation" and p.allocation == "residence_only" and p.topic in PAYMENT_TOPICS


def _one_state_named(sentence: str, parties: list[str]) -> str | None:
    """"Las disposiciones del párrafo 2 no limitarán la aplicación del Impuesto Adicional a pagar en Chile":
    a switch whose words name one Contracting State (the State whose tax it keeps) switches the rates off
    for income arising there only; None when it names none or both, or the parties are not two."""
    if len(parties) != 2:
        return None
    named = {c for c in states_named(sentence) if c in parties}
    return named.pop() if len(named) == 1 else None


def _for_source(provision: Provision, state: str, found: list[Provision]) -> Provision:
    """A copy of `provision` for income arising in `state` (its own id: the next number of its eId and kind)."""
    stem = provision.id.rsplit(":", 1)[0]
    taken = sum(1 for p in found if p.id.rsplit(":", 1)[0] == stem)
    return provision.model_copy(deep=True, update={
        "id": f"{stem}:{taken + 1}", "state": state, "conditions": {**provision.conditions, "source_state": state}})


def wrap_qualifiers(reading: Reading, version: Version, article: Article, ph: Phrases, found: list[Provision]) -> None:
    """"b) por el uso ... de patentes, marcas ...  En tanto la transferencia de tecnología esté sujeta a aprobación,
    de acuerdo con la ley argentina, la limitación de la tasa para las regalías comprendidas en el inciso b) será
    únicamente aplicable ... si el contrato ... está aprobado": the words after a list of rates that qualify one of
    its items qualify that item's caps (sorted: a fact, a caveat, no condition, or words not read), never left out."""
    for paragraph in article.paragraphs:
        units = reading.source.units(version.language, article, paragraph, cut_restarts=True)
        for unit in (u for u in units if u.role == "wrap"):
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                if not any(True for _ in ph.finditer("condition_openers", sentence)):
                    continue
                targets = [eids.point(paragraph.eid, letter) for letter in figures.find_point_references(sentence, ph)]
                if not targets or any(kind == "article" for kind, _ in figures.find_references(sentence, ph)):
                    continue  # an item of another article's list is not this list's
                words = " ".join(unit.text[s_start:s_end].split())
                scope = one_state.scoped_state(words, ph, reading.parties)  # "en el caso de regalías originadas en X"
                for p in list(found):
                    if p.kind == "withholding_cap" and p.status == "determined" and any(eids.within(p.cite.eid, t) for t in targets):
                        if scope is not None and p.conditions.get("source_state", scope) != scope:
                            continue
                        if scope is not None and "source_state" not in p.conditions:
                            p = one_state.for_one_source(p, scope, reading.parties, found)
                        p.conditions = provisos.attach(p.conditions, words, unit.eid, ph)


def dated_caps(reading: Reading, version: Version, article: Article, ph: Phrases, found: list[Provision]) -> None:
    """"Esta limitación se aplicará a los cánones pagados a partir del 1 de enero de 2025", "This
    limitation shall apply to royalties paid on or after ...": a sentence of a paragraph of rates that
    gives no rate of its own but says from (or until) when the paragraph applies. Its payment dates
    become conditions of the paragraph's rates and exemptions that carry none of their own, never a
    cap applied to payments the text leaves outside it."""
    for paragraph in article.paragraphs:
        dates: dict[str, Any] = {}
        for unit in reading.source.units(version.language, article, paragraph, cut_restarts=True):
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                if ph.has("shall_apply", sentence) and not figures.find_rates(sentence, ph):
                    dates.update(cond.payment_dates(sentence, ph))
        if not dates:
            continue
        for p in found:
            if (p.kind in ("withholding_cap", "exemption") and p.status == "determined"
                    and eids.within(p.cite.eid, paragraph.eid)
                    and not {"paid_after", "paid_from", "paid_until"} & set(p.conditions)):
                p.conditions = {**p.conditions, **dates}


def owner_in_first_paragraph(reading: Reading, version: Version, article: Article, ph: Phrases,
                             found: list[Provision]) -> None:
    """"Los dividendos pagados por una sociedad residente ..., cuyo beneficiario efectivo es un
    residente del otro Estado, pueden someterse a imposición en ese otro Estado" then "estos
    dividendos" in the paragraph of rates: the article speaks only of income beneficially owned by a
    resident of the other State, so every rate of it ("such dividends") is for a beneficial owner,
    though its own words do not repeat it. Exemptions are left as they read ("interest derived by the
    Government ... shall be exempt"): they name their recipient, whom the first paragraph does not limit."""
    if article.topic not in ("dividends", "interest", "royalties") or not article.paragraphs:
        return
    first = article.paragraphs[0]
    units = reading.source.units(version.language, article, first)
    if not units or not ph.has("beneficial_owner", units[0].folded) or ph.has("cap", units[0].folded):
        return
    for p in found:
        if (p.kind == "withholding_cap" and p.status == "determined"
                and not eids.within(p.cite.eid, first.eid) and "beneficial_owner" not in p.conditions):
            p.conditions = {"beneficial_owner": True, **p.conditions}


def applies_instead(reading: Reading, version: Version, article: Article, ph: Phrases,
                    found: list[Provision]) -> None:
    """"Notwithstanding the provisions of sub-paragraph (a) ..., where dividends are paid by an
    investment vehicle described in sub-paragraph (b), the provisions of sub-paragraph (b) shall
    apply": a sentence with no rate of its own that puts one item of a list of rates in place of
    another. The applied item's rates and exemptions get the displaced item among their
    `overrides`, so the engine applies it where both hold and asks where it may hold, never the
    displaced item's lower rate with confidence."""
    for paragraph in article.paragraphs:
        for unit in reading.source.units(version.language, article, paragraph, cut_restarts=True):
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                applies = ph.find("shall_apply", sentence)
                if applies is None or figures.find_rates(sentence, ph):
                    continue
                displaced = [e for e in references_displaced(unit, sentence, ph) if eids.has_point(e)]
                if not displaced:
                    continue
                # "the provisions of sub-paragraph (b) shall apply" / "se aplicará lo dispuesto en el apartado b)"
                after = figures.find_point_references(sentence[applies.end() : applies.end() + 60], ph)
                before_words = figures.find_point_references(sentence[max(0, applies.start() - 60) : applies.start()], ph)
                applied = after[:1] or before_words[-1:]
                if not applied:
                    continue
                target = eids.point(eids.parent(displaced[0]) or displaced[0], applied[0])
                if target in displaced:
                    continue
                for p in found:
                    if p.kind in ("withholding_cap", "exemption") and (
                            eids.within(p.cite.eid, target)):
                        p.overrides = list(dict.fromkeys([*p.overrides, *displaced]))


def replacing_rates(reading: Reading, version: Version, article: Article, ph: Phrases,
                    found: list[Provision]) -> None:
    """"Durante un período de 5 años a partir de la fecha en que surtan sus efectos las disposiciones del
    presente Artículo, la tasa del 15 por ciento se aplicará en lugar de la prevista en el inciso b) del
    párrafo 2", "... shall apply instead of the rate provided in subparagraph (b)": a sentence that puts a
    rate of its own in place of another item's, in a case (a period, a kind of payer) no condition key
    reads. When that rate is not read as a cap of its own, its words join the replaced item's
    `unread_condition`: the engine asks, never applying the replaced rate as if the sentence were not
    there (`instead_words` of the language files)."""
    if "instead_words" not in ph.patterns:
        return
    for paragraph in article.paragraphs:
        for unit in reading.source.units(version.language, article, paragraph, cut_restarts=True):
            if not ph.has("instead_words", unit.folded):
                continue
            if any(p.cite.eid == unit.eid and p.kind in ("withholding_cap", "exemption") for p in found):
                continue  # the sentence's rate was read, with its conditions
            for s_start, s_end in unit.sentences():
                sentence = unit.folded[s_start:s_end]
                instead = ph.find("instead_words", sentence)
                if instead is None or not figures.find_rates(sentence, ph):
                    continue
                targets = switched_off(unit, sentence[instead.end():], ph)
                words = " ".join(unit.text[s_start:s_end].split())
                for p in found:
                    if p.kind == "withholding_cap" and p.status == "determined" and p.cite.eid != unit.eid \
                            and any(eids.within(p.cite.eid, t) for t in targets):
                        p.conditions = provisos.attach(p.conditions, words, unit.eid, ph)


def undistinguished_caps(provisions: list[Provision]) -> None:
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
    for p in provisions:
        if p.kind == "withholding_cap" and p.status == "determined" and p.rate_pct is not None:
            caps[(p.cite.language, eids.article_of(p.cite.eid), p.topic)].append(p)
    for group in caps.values():
        for low in group:
            if low.conditions.get("otherwise") or "unread_condition" in low.conditions:
                continue
            # "a) 15 por cento ... de marcas de indústria ou comércio; b) 10 por cento ... em todos os
            # demais casos": an item the residual rate's conditions also describe was not told apart either
            if any(other is not low and selecting(other) == selecting(low)
                   and (other.rate_pct > low.rate_pct or other.conditions.get("otherwise")) for other in group):
                low.conditions = {**low.conditions, "unread_condition": low.cite.quote}


def kinds_with_an_article_of_their_own(provisions: list[Provision]) -> None:
    """"ARTICLE 12 ROYALTIES" and "ARTICLE 12A FEES FOR TECHNICAL SERVICES": two articles of one income,
    one of them for one kind of it only (every cap it sets is for that kind). The other article's rules
    are not for that kind: its caps, exemptions and allocations carry the kind as `income_subtype_excluded`,
    so fees for technical services get article 12A's rate, never article 12's (and a payment whose kind
    is not told is asked about instead of given the lower rate)."""
    kinds = ("withholding_cap", "exemption", "allocation")
    by_article: dict[tuple[str, str], dict[str, list[Provision]]] = defaultdict(lambda: defaultdict(list))
    for p in provisions:
        if p.topic in PAYMENT_TOPICS and p.kind in kinds and not p.cite.eid.startswith("protocol"):
            by_article[(p.cite.language, p.topic)][eids.article_of(p.cite.eid)].append(p)
    for articles in by_article.values():
        if len(articles) < 2:
            continue
        own: dict[str, str] = {}  # article -> the one kind every cap of it is for
        for article, found in articles.items():
            caps = [p for p in found if p.kind == "withholding_cap"]
            subtypes = {p.conditions.get("income_subtype") for p in caps}
            if caps and len(subtypes) == 1 and isinstance(next(iter(subtypes)), str):
                own[article] = str(next(iter(subtypes)))
        for article, found in articles.items():
            excluded = sorted({kind for other, kind in own.items() if other != article})
            if not excluded or article in own:
                continue
            for p in found:
                if "income_subtype" in p.conditions or p.values.get("refer_to"):
                    continue
                already = list(p.conditions.get("income_subtype_excluded") or [])
                p.conditions = {**p.conditions, "income_subtype_excluded": [*already, *(k for k in excluded if k not in already)]}


def defined_kinds(reading: Reading, version: Version, article: Article, ph: Phrases, found: list[Provision]) -> None:
    """"For the purposes of paragraph 3 the term “Government” means: ... and shall include: the local
    authorities; the Nederlandsche Bank (Central Bank); ...", "For the purposes of this paragraph, the
    term ''Government'' shall include the Central Bank of the Netherlands, the Central Bank of
    Barbados": the article defines a recipient kind its exemption names, so the public bodies the
    definition lists (local authorities, central banks: `conditions.PUBLIC_KINDS`) are recipients of
    that exemption too. Banks and institutions a definition names by name are left to the names; a
    language without `kind_definition` phrases reads none."""
    if "kind_definition" not in ph.patterns:
        return
    for paragraph in article.paragraphs:
        units = reading.source.units(version.language, article, paragraph, cut_restarts=True)
        for k, unit in enumerate(units):
            match = ph.find("kind_definition", unit.folded)
            if match is None:
                continue
            defined = {kind for start, end, kind in kind_hits(unit.folded, ph)
                       if match.start() <= start and end <= match.end()}
            if len(defined) != 1:
                continue
            body = unit.folded[match.end():] + " " + " ".join(u.folded for u in units[k + 1:])
            added = [kind for _, _, kind in kind_hits(body, ph) if kind in PUBLIC_KINDS and kind not in defined]
            if not added:
                break
            # "For the purposes of paragraph 3": the paragraph the definition serves, named in its own sentence
            lead = max((a for a, _ in unit.sentences() if a <= match.start()), default=0)
            refs = [n for kind, n in figures.find_references(unit.folded[lead : match.start()], ph) if kind == "paragraph"]
            targets = [f"art_{article.number.lower()}__para_{n}" for n in refs] or [paragraph.eid]
            (term,) = defined
            for p in found:
                kinds = p.conditions.get("recipient_kinds")
                if (p.kind == "exemption" or p.allocation == "residence_only") and kinds and term in kinds \
                        and any(p.cite.eid == t or p.cite.eid.startswith(t + "__") for t in targets):
                    p.conditions = {**p.conditions, "recipient_kinds": [*kinds, *(a for a in dict.fromkeys(added) if a not in kinds)]}
            break


def _point(article: Article, paragraph: str, letter: str) -> Any | None:
    """The item "paragraph 3, subparagraph a)" of the article, or None."""
    for node in article.paragraphs:
        if node.eid == eids.paragraph(article.eid, paragraph):
            return next((p for p in getattr(node, "points", []) or [] if p.eid == eids.point(node.eid, letter)), None)
    return None


def headed_kind(article: Article, ph: Phrases, found: list[Provision]) -> None:
    """"Artigo 13 - Remunerações por serviços técnicos", "ARTICLE 12A FEES FOR TECHNICAL SERVICES":
    an article of a payment topic whose heading names one kind of that income, and not the income
    itself ("Royalties and fees for technical services" names both), is for that kind only: its caps,
    exemptions and allocations that name no kind ("essas remunerações ... não poderá exceder 7 por
    cento") carry it, so `kinds_with_an_article_of_their_own` keeps the other article's rates from it
    and its rate from the other kinds."""
    if not article.heading or article.topic not in PAYMENT_TOPICS:
        return
    kinds = subtype_conditions(fold_same_length(" ".join(article.heading.split())), ph)
    kind = kinds.get("income_subtype")
    if not isinstance(kind, str):
        return
    for p in found:
        if p.kind in ("withholding_cap", "exemption", "allocation") and "income_subtype" not in p.conditions \
                and not p.values.get("refer_to"):
            p.conditions = {**p.conditions, "income_subtype": kind}


def referenced_kinds(article: Article, ph: Phrases, found: list[Provision]) -> None:
    """"10 per cent in the case of royalties as defined in paragraph 3, subparagraph a)", "in the case of
    royalties referred to in sub-paragraph b) of paragraph 3": a rate for the kinds of royalty an item of
    the definition lists. The item's kinds are read there (`conditions.subtype_conditions`) and the
    words of the reference are no longer a condition no key holds."""
    if "reference_words" not in ph.patterns:
        return
    for p in found:
        words = p.conditions.get("unread_condition")
        if p.kind != "withholding_cap" or not words:
            continue
        pieces = words.split(" … ")
        for piece in list(pieces):
            folded = fold_same_length(piece)
            refs = [n for kind, n in figures.find_references(folded, ph) if kind == "paragraph"]
            letters = figures.find_point_references(folded, ph)
            if len(refs) != 1 or len(letters) != 1 or not ph.has("reference_words", folded):
                continue
            item = _point(article, refs[0], letters[0])
            if item is None:
                continue
            kinds = subtype_conditions(fold_same_length(" ".join(item.text.split())), ph)
            if not kinds:
                continue
            pieces.remove(piece)
            conditions = {k: v for k, v in p.conditions.items() if k != "unread_condition"}
            conditions.update(kinds)
            if pieces:
                conditions["unread_condition"] = " … ".join(pieces)
            p.conditions = conditions
            break


def referenced_guarantors(article: Article, ph: Phrases, found: list[Provision]) -> None:
    """"on a loan guaranteed or insured by any of the bodies mentioned or referred to in sub-paragraph a) or
    sub-paragraph b)" (NL-EE 11(3)(c)): a guarantee by the persons other items of the paragraph name. When every
    rule read under those items is for public kinds of recipient (a government, its authorities, its central
    bank, an entity it owns), the guarantee is a government's (`guaranteed_by_government`) and the words of the
    reference are no longer a condition no key holds; otherwise (a bank among them) they stay unread."""
    if "reference_words" not in ph.patterns:
        return
    for p in found:
        words = p.conditions.get("unread_condition")
        if not words or not p.conditions.get("guaranteed_by_government"):
            continue
        pieces = words.split(" … ")
        for piece in list(pieces):
            folded = fold_same_length(piece)
            if not ph.has("guarantee_role", folded) or not ph.has("reference_words", folded):
                continue
            paragraphs = {n for kind, n in figures.find_references(folded, ph) if kind == "paragraph"}
            own = eids.components(eids.paragraph_of(p.cite.eid))[-1][1]
            items = [_point(article, next(iter(paragraphs)) if len(paragraphs) == 1 else own, letter)
                     for letter in figures.find_point_references(folded, ph)]
            if not items or len(paragraphs) > 1 or any(item is None for item in items):
                continue
            named = [q for q in found if q is not p and q.kind in ("exemption", "allocation")
                     and any(eids.within(q.cite.eid, item.eid) for item in items)]
            if not named or any(not q.conditions.get("recipient_kinds")
                                or set(q.conditions["recipient_kinds"]) - GUARANTOR_KINDS for q in named):
                continue
            pieces.remove(piece)
            p.conditions = {k: v for k, v in p.conditions.items() if k != "unread_condition"}
            if pieces:
                p.conditions["unread_condition"] = " … ".join(pieces)
            break


def protocol_qualifiers(doc: Document, provisions: list[Provision], parties: list[str] | tuple[str, ...] = ()) -> None:
    """A protocol paragraph that names a paragraph or item of a dividend, interest or royalty
    article ("En relación con el artículo 10, apartado 2, letra a), se entiende que el tipo del 0
    por 100 no se aplicará cuando ...", "With reference to subparagraph a) of paragraph 2 of
    Article 10, ...") qualifies the caps and exemptions there. Its words are not read, so they
    join those provisions' `unread_condition`: the engine then answers indeterminate, citing
    them, instead of applying the rate as if the protocol were not there."""
    for version in doc.versions:
        ph = phrases(version.language)
        if ph is None or not version.supported:
            continue
        topics = {a.number: a.topic for a in version.articles}
        for protocol in version.protocols:
            for paragraph in protocol.paragraphs:
                whole = " ".join(paragraph.text.split())
                pieces = [(whole, protocol_targets(fold_same_length(whole), ph, topics))]
                # "Ad artigo 10.º Fica entendido que ...\nAd artigo 11.º As disposições do n.º 2 ...": points
                # the parser left in one paragraph, each line naming its own article; "4. Con respecto al
                # Artículo 12: a) ... b) ...": items under a heading line, each naming its own paragraph
                lines: list[tuple[str, list[str]]] = []
                named: set[str] = set()
                heading: str | None = None  # "Ad Article 11" on a line of its own: the article of the lines under it
                for line in paragraph.text.splitlines() if "\n" in paragraph.text else ():
                    words = " ".join(line.split())
                    folded = fold_same_length(words)
                    refs = figures.find_references(folded[:200], ph)
                    if refs and all(kind == "article" for kind, _ in refs):
                        heading = refs[0][1] if len(refs) == 1 else None
                    targets = protocol_targets(folded, ph, topics, heading)
                    named.update(targets)
                    lines.append((words, targets))
                if named:  # each line qualifies what it names; the whole only when no line names anything
                    pieces = lines
                for words, targets in pieces:
                    kind = _one_subtype(words, ph)
                    qualified = []
                    for p in list(provisions):
                        # a residence-only rule of a rate article takes the source State's tax away as an exemption does
                        exempting = p.kind == "allocation" and p.allocation == "residence_only" and p.topic in PAYMENT_TOPICS \
                            and bool(set(p.conditions) - {"beneficial_owner"})
                        if (p.cite.language == version.language and (p.kind in ("withholding_cap", "exemption") or exempting)
                                and any(eids.within(p.cite.eid, t) for t in targets)):
                            qualified.append(p)
                    scope = one_state.scoped_state(words, ph, parties)
                    for p in _the_rates_named(qualified, words, ph):
                            if _replaced_by_point(p, words, provisions):
                                continue
                            if scope is not None and p.conditions.get("source_state", scope) != scope:
                                continue  # "en el caso de Argentina": not the rate the other State charges
                            if scope is not None and "source_state" not in p.conditions:
                                p = one_state.for_one_source(p, scope, parties, provisions)
                            known = p.conditions.get("unread_condition")
                            if known is not None and words in known:
                                continue
                            others = _other_kinds(p, kind)
                            if others is not None:
                                # "con respecto al uso de un derecho de autor ..., sólo procederá si ...", "en los
                                # casos de pagos por asistencia técnica, el impuesto ... se determinará luego de
                                # deducir los gastos": the point qualifies the rate for that kind only; every other
                                # kind the rate covers keeps it as it was
                                narrowed = p.model_copy(update={"id": f"{p.id}:{kind}", "conditions": provisos.attach(
                                    {**p.conditions, "income_subtype": kind}, words, paragraph.eid, ph)})
                                provisions.insert(provisions.index(p) + 1, narrowed)
                                p.conditions = {**p.conditions, **others}
                                continue
                            p.conditions = provisos.attach(p.conditions, words, paragraph.eid, ph)


def _replaced_by_point(p: Provision, words: str, provisions: list[Provision]) -> bool:
    """"Notwithstanding the provisions of subparagraph (b) of paragraph 2 of Article 10, as long as ..., the
    percentage provided for in this subparagraph shall be reduced to 7 per cent": the point's own rate was read
    (`point_rates.point_rates`, displacing `p` where it applies, with its proviso as a caveat); its words do not
    qualify the rate they replace a second time."""
    said = " ".join(words.split())
    return any(q.cite.eid.startswith("protocol") and q.cite.language == p.cite.language and q.status == "determined"
               and any(eids.within(p.cite.eid, o) for o in q.overrides) and " ".join(q.cite.quote.split()) in said
               for q in provisions if q is not p)


def _other_kinds(p: Provision, kind: str | None) -> dict[str, Any] | None:
    """The conditions that leave `kind` out of a cap a protocol point restricts for that kind only: every
    kind but it (`income_subtype_not`) for a cap of any kind, the rest of the list for a cap of several
    kinds among them; None when the point is not about one kind of the cap (then it qualifies the whole)."""
    if kind is None or p.kind != "withholding_cap" or "income_subtype_not" in p.conditions:
        return None
    current = p.conditions.get("income_subtype")
    if current is None:
        return {"income_subtype_not": kind}
    if isinstance(current, list) and kind in current and len(current) > 1:
        rest = [k for k in current if k != kind]
        return {"income_subtype": rest[0] if len(rest) == 1 else rest}
    return None


def _one_subtype(words: str, ph: Phrases) -> str | None:
    """The one kind of income a protocol point speaks of ("con respecto al uso de un derecho de autor"),
    or None (no kind named, or several)."""
    kind = subtype_conditions(fold_same_length(words), ph).get("income_subtype")
    return kind if isinstance(kind, str) else None


def _the_rates_named(qualified: list[Provision], words: str, ph: Phrases) -> list[Provision]:
    """Of the caps of a paragraph a protocol point names, those whose rate its words name ("El tipo del 0
    por 100 no se aplicará cuando ...": the 0 % item, not the rate of the other cases); all of them when
    the words name no rate of theirs."""
    named = {f.value for f in figures.find_rates(fold_same_length(words), ph)}
    chosen = [p for p in qualified if p.kind == "withholding_cap" and p.rate_pct is not None and p.rate_pct in named]
    return chosen or qualified


def protocol_targets(folded: str, ph: Phrases, topics: dict[str, str | None], heading: str | None = None) -> list[str]:
    """The eIds a protocol paragraph's first cross-reference names, when it is a paragraph (or an item
    of one) of an article with rates: "artículo 10, apartado 2, letra a)" -> ["art_10__para_2__point_a"].
    A reference to a whole article ("the rate provided for in Article 12") names no one rate, and one
    to a whole paragraph only when the protocol switches it off ("no se aplicarán"): "as disposições do
    parágrafo 2 do Artigo 12 aplicam-se aos ... serviços técnicos" widens the paragraph, it does not
    qualify its rates. `heading` is the article a heading line above names ("Ad Article 11"), for a
    paragraph that names its paragraph and item only ("The provisions of sub-paragraph d) (ii) of paragraph 3
    shall apply only for the first five years")."""
    # the first sentence only: "In such case the provisions of sub-paragraph b ... shall apply" names
    # what applies instead, not what the point qualifies
    first = provisos.first_sentence_end(folded)
    sentence = folded[:first]  # "... con respecto al uso de un derecho de autor ..., sólo procederá si ..."
    whole, folded = folded, folded[: min(first, 200)]
    # "En relación con el apartado 2 del artículo 10. El tipo del 0 por 100 no se aplicará cuando ...": a
    # heading that is a sentence of its own; what the point does to the paragraph is in the next one
    said = sentence
    if "protocol_heading" in ph.patterns and ph.patterns["protocol_heading"].match(folded.lstrip()):
        rest = whole[first:]
        said = whole[: first + min(provisos.first_sentence_end(rest), 200)]
    refs = figures.find_references(folded, ph)
    articles = [n for kind, n in refs if kind == "article"] or ([heading] if heading else [])
    paragraphs = [n for kind, n in refs if kind == "paragraph"]
    if not articles or not paragraphs or topics.get(articles[0]) not in PAYMENT_TOPICS:
        return []
    base = eids.paragraph(eids.article(articles[0]), paragraphs[0])
    # "subapartado c) del apartado 2", or the item's letter run into its paragraph's number ("apartado 2.c)"), unless
    # the point puts a kind of payment in that item ("están incluidas entre los conceptos a los que se aplica lo
    # dispuesto por el apartado 2 c)": point_reclassified.deemed_items read it)
    letters = figures.find_point_references(folded, ph)
    if not letters and not ("reclassified" in ph.patterns and ph.has("reclassified", sentence)):
        letters = [letter for number, letter in figures.find_paragraph_items(folded, ph) if number == paragraphs[0]]
    if letters:
        return [eids.point(base, letter) for letter in letters]
    switched_off = "shall_not_apply" in ph.patterns and ph.has("shall_not_apply", said)
    return [base] if switched_off else []


def document_warnings(reading: Reading) -> list[dict[str, Any]]:
    """Whole-document checks: paragraphs that ran into a line that reads like an article heading,
    and articles the numbering says are missing."""
    warnings: list[dict[str, Any]] = []
    for language, eid, line in dict.fromkeys(reading.source.cuts):
        warnings.append({
            "code": "swallowed_heading", "language": language, "eid": eid,
            "message": f"{eid} runs into a line that reads like an article heading ({line!r}); "
            "the text after it is not read as part of this paragraph",
        })
    return warnings + missing_articles(reading.doc)


def attach_alignment(reading: Reading, result: ProvisionSet) -> ProvisionSet:
    """The divergences between the language versions of the text, on `result`."""
    result.divergences = divergences(reading.doc, reading.source, result)
    return result
