"""Allocations: which State may tax an income or a capital.

"...shall be taxable only in that State" (`residence_only`; `effective_management_only`,
`source_only`, `paying_state_only` where the words say so), "...may be taxed in the other State"
(`source_may_tax`), the exceptions a "notwithstanding" makes, the cases of a list introduced by
"...taxable only in the other State if:", and the switch of an income connected with a permanent
establishment to the business-profits article.
"""

from __future__ import annotations

from typing import Any

import regex

from taxtreaty.provisions import conditions as cond
from taxtreaty.provisions import figures, gains, provisos
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.parties import (
    direction,
    either_party,
    issuer_state_only,
    last_role,
    parties_kinds,
    paying_government,
    public_debt_alternatives,
)
from taxtreaty.provisions.reading import (
    CAP_TOPICS,
    INCOME_TOPICS,
    PAYMENT_TOPICS,
    Emitted,
    Reading,
    cite_label,
)
from taxtreaty.provisions.references import overrides_named
from taxtreaty.provisions.states import states_named
from taxtreaty.provisions.subtypes import subtype_conditions
from taxtreaty.provisions.vocabulary import Phrases
from taxtreaty.structure import eids
from taxtreaty.structure.numbers import article_number_value as number_value

#: how many characters may follow "arising in the other" before the verb ("Contracting State, también")
#: and still be only the State's name
_ARISING_TAIL = 30


def read_allocations(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """The allocations of one paragraph's units."""
    out = Emitted(reading)
    article = units[0].article
    _pe_switch(reading, out, units, ph)
    for unit in units:
        if unit.role == "point" and article.topic in PAYMENT_TOPICS and _exclusive_list_intro(unit, ph):
            _exclusive_list_item(reading, out, unit, ph)
            continue
        if not (ph.has("exclusive", unit.folded) or ph.has("shared", unit.folded)
                or ph.has("notwithstanding_any", unit.folded)):
            _unread_exception(reading, out, unit, units, ph)
            continue  # one search per unit decides for most of them
        sentences = unit.sentences()
        for k, (s_start, s_end) in enumerate(sentences):
            sentence = unit.folded[s_start:s_end]
            exclusive = ph.find("exclusive", sentence)
            shared = ph.find("shared", sentence) if exclusive is None else None
            if shared is not None and any(m.start() <= shared.start() < m.end() for m in ph.finditer("exempt", sentence)):
                shared = None  # "no pueden someterse a imposición", "não podem ser tributados": a negated grant
            if shared is not None and article.topic in PAYMENT_TOPICS and "excess_amount" in ph.patterns \
                    and ph.find("excess_amount", sentence, 0, shared.start()) is not None:
                # "En este caso, el exceso podrá someterse a imposición de acuerdo con la legislación de cada
                # Estado": the part paid over the arm's-length amount, which the article leaves to each State's
                # law; no right of the source State over the payment itself
                continue
            overrides = overrides_named(unit, sentence, ph)
            if exclusive is None and shared is None:
                if overrides == ["*"] and k == 0:
                    out.add(unit, "allocation", reading.cite(unit, s_start, s_end), overrides=overrides,
                            values={"prevails_over": "any_other_provision"})
                continue
            conditions: dict[str, Any] = {}
            owner_words = sentence if article.topic in CAP_TOPICS else sentence[exclusive.end():] if exclusive else ""
            if exclusive is not None and ph.has("beneficial_owner", owner_words):
                # "...only in that other State if such resident is the beneficial owner"; in the articles on
                # payments also "Royalties ... beneficially owned by a resident of the other Contracting State
                # shall be taxable only in that other Contracting State": the rule is the beneficial owner's
                conditions["beneficial_owner"] = True
            conditions.update(subtype_conditions(sentence, ph))
            verb = exclusive or shared
            if verb is not None and article.topic == "capital_gains":
                # the property the paragraph is for, the tests on shares, and the clauses no fact answers
                conditions.update(gains.gain_conditions(unit, k, verb, ph))
            if verb is not None and (article.topic not in PAYMENT_TOPICS or exclusive is not None):
                # "los intereses originados en Argentina y pagados a un residente de Canadá solo podrán
                # someterse a imposición en Canadá": a rule for one direction of the payment
                conditions.update(_named_direction(sentence[: verb.start()], ph, reading.parties))
            if article.topic == "pensions":
                conditions.update(_pension_conditions(sentence, ph))
                # "Las anualidades originadas en un Estado Contratante ... también pueden someterse a imposición
                # en el Estado donde provienen": in an article that treats annuities apart, a rule for them alone
                # (a rule on pensions alone is not narrowed: an annuity is a pension in the wider sense, and the
                # annuities' own rule, when it holds, is the one that speaks of them)
                # "Las anualidades abonadas ... en virtud de un sistema de seguridad social": payments of a social
                # security system, whatever the word for them (the payer says it)
                # (every sentence of the paragraph: "However, such annuities may also be taxed in the other State ...")
                if "social_security" not in conditions and cond.annuity_subject(unit.folded, ph, article):
                    conditions.setdefault("annuity", True)
            elif article.topic == "other_income" and shared is not None and "arising_in_source" in ph.patterns \
                    and (arising := ph.find("arising_in_source", sentence, 0, shared.start())) is not None:
                # "items of income ... arising in the other Contracting State may also be taxed in that other
                # State", "originadas en el otro Estado Contratante, pueden someterse a imposición en el Estado
                # mencionado en el último término": the source State's share, not a clash with the residence rule;
                # words between it and the verb ("from sources within the other Contracting State in form of games
                # of chance, such income may be taxed") narrow the rule further: unread unless a kind is read
                conditions["arising_in_source"] = True
                rest = " ".join(unit.text[s_start + arising.end(): s_start + shared.start()].split())
                if len(rest) > _ARISING_TAIL and "income_subtype" not in conditions:
                    conditions["unread_condition"] = rest.strip(" ,;")
            if article.topic in PAYMENT_TOPICS:  # "... only in the other State if ... loans of more than 3 years"
                conditions.update(cond.loan_term(sentence, ph))
            if (exclusive is not None and unit.role == "intro" and article.topic in PAYMENT_TOPICS
                    and k == len(sentences) - 1 and _goes_on_in_items(sentence)
                    and any(u.context and u.context[-1] is unit for u in units)):
                continue  # "...sólo pueden someterse a imposición en el otro Estado si:": each item is one case
            if exclusive is not None:
                if ph.has("effective_management", sentence):
                    allocation = "effective_management_only"
                elif "paying_place" in ph.patterns and ph.find("paying_place", sentence, exclusive.end(),
                                                               min(len(sentence), exclusive.end() + 120)):
                    # "sólo pueden someterse a imposición en el Estado Contratante desde cuyo territorio se
                    # efectúan los pagos": the State the payments are made from, not the residence
                    allocation = "paying_state_only"
                elif "source_place" in ph.patterns and ph.find("source_place", sentence, exclusive.end(),
                                                               min(len(sentence), exclusive.end() + 100)):
                    # Andean style: "sólo serán gravables en el País Miembro en cuyo territorio se impute y
                    # registre su pago": the only State named is the one where the income arises
                    allocation = "source_only"
                elif (article.topic == "pensions" and ph.find("exception_lead", sentence[:20]) is None
                      and {"government", "local_authority"} & set(
                          parties_kinds(sentence, ph, default_role=None).get("payer_kinds", []))):
                    # "las pensiones pagadas por un Estado Contratante o por una de sus subdivisiones
                    # políticas ... sólo pueden someterse a imposición en ese Estado": the paying State's
                    allocation = "paying_state_only"
                elif (article.topic == "pensions" and conditions.get("social_security")
                      and not regex.search(rf"\b{ph.word_group('resident_words')}", sentence[: exclusive.start()])):
                    # "pensions ... paid under the social security legislation of a Contracting State shall be taxable
                    # only in that State" (no resident named before): the State whose system pays, not the residence
                    allocation = "paying_state_only"
                elif article.topic == "government_service" and ph.find("exception_lead", sentence[:20]) is None \
                        and ph.find("exception_lead", sentence, exclusive.start(), exclusive.end()) is None:
                    # "paid by a Contracting State ... shall be taxable only in that State"; the
                    # "However, ... only in the other State if ... a resident" exception is residence_only
                    # (also "só podem, contudo, ser tributados no outro Estado")
                    allocation = "paying_state_only"
                elif "arising_in_other" in ph.patterns and ph.has("arising_in_other", sentence[exclusive.end():]) \
                        and ph.has("shared", sentence[exclusive.end():]):
                    # "só podem ser tributados nesse Estado, a menos que provenham do outro Estado Contratante, caso
                    # em que podem ser tributados nesse outro Estado": income from the other State (the source of
                    # every cross-border payment) may be taxed there
                    allocation = "source_may_tax"
                elif article.topic in PAYMENT_TOPICS and issuer_state_only(sentence, exclusive, ph):
                    # "los intereses de la deuda pública, de los bonos u obligaciones emitidos por el Gobierno de
                    # un Estado Contratante ... sólo pueden someterse a imposición en ese Estado": the issuing State
                    allocation = "paying_state_only"
                elif _paying_state_first(sentence, exclusive, ph):
                    # "payments made by a Contracting State under the social security legislation of that
                    # State to a resident of the other Contracting State shall be taxable only in the
                    # first-mentioned State": the State that pays, not the residence
                    allocation = "paying_state_only"
                else:
                    allocation = "residence_only"
                if article.topic in PAYMENT_TOPICS:
                    # "interest ... paid to the Government of the other State ... shall be taxable only
                    # in that other State": residence-only for those recipients, not for every payment
                    conditions = cond.merge(conditions, parties_kinds(sentence, ph, default_role=None))
                if allocation == "residence_only" and article.topic not in PAYMENT_TOPICS:
                    # (in the articles on payments every condition of a residence-only rule is read as an
                    # exemption's: reading.Reading.add, relative clauses included)
                    conditions.update(_relative_taxation(sentence[: exclusive.start()], ph))
                # "...only in that State unless ... permanent establishment ... may be taxed in the other"
                rest = sentence[exclusive.end():]
                if (article.topic == "other_income" and allocation == "residence_only"
                        and (conditions.get("recipient_subject_to_tax") is True or (
                            "taxed_in_residence" in ph.patterns
                            and ph.find("taxed_in_residence", sentence, 0, exclusive.start()) is not None))):
                    # "Items of income of a resident ... not dealt with in the foregoing Articles and taxed by that
                    # State shall be taxable only in that State": the recipient's own taxation is a fact; income its
                    # State does not tax is not dealt with here, so the source State keeps its own law
                    conditions["recipient_subject_to_tax"] = True
                    _emit_allocation(reading, out, unit, ph, k, s_start, s_end, "source_may_tax",
                                     {**conditions, "recipient_subject_to_tax": False}, overrides)
                # ("se esses juros forem pagos por, ou se o beneficiário efetivo desses juros for, um Estado
                # Contratante ...": the kinds are the payer's or the recipient's, one rule for each)
                for either in either_party(conditions, sentence, ph) if article.topic in PAYMENT_TOPICS else [conditions]:
                    _emit_allocation(reading, out, unit, ph, k, s_start, s_end, allocation, either, overrides)
                if ph.has("shared", rest) and ph.has("permanent_establishment", rest):
                    _emit_allocation(reading, out, unit, ph, k, s_start, s_end, "source_may_tax",
                                          {**conditions, "pe_connected": True}, overrides)
                elif (article.topic == "employment" and allocation == "residence_only"
                      and "employment_in_other" in ph.patterns and ph.has("employment_in_other", rest)
                      and not any(ph.has("shared", unit.folded[a:b]) for a, b in sentences[k + 1:])):
                    # "só podem ser tributados nesse Estado, a não ser que o emprego seja exercido no outro Estado
                    # Contratante." with no "Se o emprego for aí exercido, ... podem ser tributadas nesse outro
                    # Estado" after it: the exception the sentence names is the State of the work's right to tax
                    _emit_allocation(reading, out, unit, ph, k, s_start, s_end, "source_may_tax", conditions, overrides)
                continue
            assert shared is not None
            before = sentence[: shared.start()]
            # (no gain is paid: "a fixed base available to a resident of a Contracting State" is no recipient)
            if article.topic != "capital_gains" and ph.find("to_resident", before) is not None \
                    and not ph.has("shared_also", sentence) \
                    and not _paying_state_first(sentence, shared, ph) and "employment_in_source" not in conditions:
                # "paid to a resident of the other State may be taxed in that other State" (not "pensions ...
                # arising in one of the Contracting States and paid to a resident of the other Contracting State
                # may be taxed in the first-mentioned State": the State they arise in)
                if article.topic == "pensions" and not _names_other_state(sentence, shared, ph):
                    # "las pensiones ... pagadas ... a un residente de un Estado Contratante ... pueden someterse a
                    # imposición en ese Estado": the residence State may tax, not exclusively (the source keeps its right)
                    _emit_allocation(reading, out, unit, ph, k, s_start, s_end, "residence_may_tax", conditions, overrides)
                continue
            if article.topic == "shipping_air_transport" and not ph.has("shared_also", sentence) \
                    and "that_state" in ph.patterns and "enterprise_of_state" in ph.patterns \
                    and ph.find("enterprise_of_state", sentence, 0, shared.start()) is not None \
                    and ph.find("that_state", sentence, shared.start(), min(len(sentence), shared.end() + 30)) is not None:
                # India style: "Profits derived by an enterprise of a Contracting State from the operation of ships in
                # international traffic may be taxed in that State" (then "Such profits may also be taxed in the
                # Contracting State in which they arise ..."): the enterprise's State may tax, not the source State
                _emit_allocation(reading, out, unit, ph, k, s_start, s_end, "residence_may_tax", conditions, overrides)
                continue
            if article.topic == "business_profits" and ph.has("permanent_establishment", sentence) and not (
                    "pe_or_otherwise" in ph.patterns and ph.has("pe_or_otherwise", sentence)):
                # not "whether ... through a permanent establishment ... or otherwise" (insurance profits): that
                # right holds without one
                conditions["pe_connected"] = True
            if "tax_reduced" in ph.patterns and ph.find("tax_reduced", sentence, shared.end()) is not None:
                # "may be taxed in the Contracting State in which they arise, but the tax so charged shall be reduced
                # by an amount equal to 50 per cent thereof": a source right, never an unlimited one without saying so
                quote = " ".join(unit.text[s_start:s_end].split())
                conditions["caveats"] = [{"kind": "tax_reduced", "eid": unit.eid, "quote": quote}]
            _emit_allocation(reading, out, unit, ph, k, s_start, s_end, "source_may_tax", conditions, overrides)
    return out


def _relative_taxation(before_verb: str, ph: Phrases) -> dict[str, Any]:
    """"Items of income of a resident of a Contracting State who is subject to tax there in respect thereof ...
    shall be taxable only in that State": the residence-only rule is for a recipient taxed in its State (the fact
    recipient_subject_to_tax); other words in the clause ("who is subject to tax there on a remittance basis")
    keep it unread, never dropped. The clause, up to its comma, is sorted as a proviso's (`provisos.relative_fact`)."""
    starts = [m.start() for key in ("relative_not_taxed", "relative_taxed") if key in ph.patterns
              and (m := ph.find(key, before_verb)) is not None]
    if not starts:
        return {}
    start = min(starts)
    clause_end = min((i for i in (before_verb.find(",", start), before_verb.find(";", start)) if i >= 0),
                     default=len(before_verb))
    clause = before_verb[start:clause_end]
    sorted_words = provisos.relative_fact(clause, ph)
    if sorted_words is not None and sorted_words.kind == "fact":
        return dict(sorted_words.facts)
    return {"unread_condition": " ".join(clause.split())}


def _unread_exception(reading: Reading, out: Emitted, unit: Unit, units: list[Unit], ph: Phrases) -> None:
    """"Notwithstanding paragraph 1 of this Article where an enterprise derives profits from the operation of
    ships ...: a) such profits shall be deemed to be ...; b) the tax chargeable in that other state shall be
    reduced by ... fifty per cent": an exception to a rule of the same article that says who may tax in
    words no allocation phrase matches. It is a gap (status unknown) of the article, so no answer rests on
    the rule it qualifies as if the exception were not there."""
    article = unit.article
    if article.topic in (*PAYMENT_TOPICS, "business_profits") or article.topic not in INCOME_TOPICS \
            or unit.role not in ("whole", "intro"):
        return
    first = unit.sentences()[:1]
    if not first:
        return
    a, b = first[0]
    sentence = unit.folded[a:b]
    lead = ph.find("notwithstanding", sentence)
    if lead is None or "subject_to" not in ph.patterns or ph.find("subject_to", sentence, lead.start(), lead.end() + 20):
        return  # "Com ressalva do disposto no n.º 3", "Sin perjuicio de": subject to, no exception
    overrides = [o for o in overrides_named(unit, sentence, ph) if o != "*" and eids.article_of(o) == article.eid]
    if not overrides or any(ph.has("exclusive", u.folded) or ph.has("shared", u.folded) for u in units):
        return
    out.add(unit, "allocation", reading.cite(unit, a, b), overrides=overrides, status="unknown",
            reason=f"{cite_label(article, unit.eid)} makes an exception to {', '.join(overrides)} in words the extractor "
                   "does not read as an allocation")


def _pension_conditions(sentence: str, ph: Phrases) -> dict[str, Any]:
    """What a pension rule is limited to: payments that are not periodic or lump sums ("However, where such
    remuneration is not of a periodical nature ... or where instead of the right to annuities a lump sum is
    paid"), payments under a social security system (paid by a public body), and remuneration for past
    employment in the other State (the State where the employment was exercised)."""
    out: dict[str, Any] = {}
    if "not_periodic" in ph.patterns and ph.has("not_periodic", sentence):
        out["payment_periodic"] = False
    if "past_employment_in_other" in ph.patterns and ph.has("past_employment_in_other", sentence):
        out["employment_in_source"] = True
    social = ph.find("social_security", sentence) if "social_security" in ph.patterns else None
    if social is not None and ph.find("social_security_among", sentence, 0, social.start()) is None:
        out["social_security"] = True
    return out


def _named_direction(before: str, ph: Phrases, parties: list[str]) -> dict[str, Any]:
    """"Directors' fees ... derived by a resident of the Netherlands ... of a company which is a resident of
    Zambia may be taxed in Zambia": a paragraph for one direction only, when the words before the allocation
    name both Contracting States and the recipient's is the one right after "derived by" (its residence)."""
    if len(parties) != 2:
        return {}
    if paying_government(before, ph, parties) is not None:
        # "interest paid by the Government of Sweden to a resident of Canada shall be taxable only in Canada"
        return direction(before, ph, parties)
    named = [c for c in states_named(before) if c in parties]
    if set(named) != set(parties):
        return {}
    for m in ph.finditer("recipient_role", before):
        after = [c for c in states_named(before[m.end(): m.end() + 50]) if c in parties]
        if after:
            residence = after[0]
            return {"residence_state": residence, "source_state": next(c for c in parties if c != residence)}
    return {}


def _names_other_state(sentence: str, shared: regex.Match[str], ph: Phrases) -> bool:
    """"...may be taxed in that other State" / "in the first-mentioned State" (not "in that State")."""
    if "that_other_state" not in ph.patterns:
        return True  # the language does not say: read nothing
    return ph.find("that_other_state", sentence, shared.end(), min(len(sentence), shared.end() + 30)) is not None


def _exclusive_list_item(reading: Reading, out: Emitted, unit: Unit, ph: Phrases) -> None:
    """"...sólo pueden someterse a imposición en el otro Estado si: a) el beneficiario efectivo es el banco
    central de ese otro Estado; b) los intereses se pagan por préstamos ... garantizados por el Gobierno":
    the residence State alone taxes in the case each item describes, not every payment. An item of an item
    ("c) the interest is beneficially owned by a resident of that other Contracting State that is either: (i) a
    bank; (ii) an insurance company; ...") is one such case, under its own introduction's conditions too."""
    exclusive_at = _exclusive_intro_at(unit, ph)
    intro = unit.context[-1]
    role = last_role(intro.folded, ph)
    conditions: dict[str, Any] = {}
    for between in unit.context[exclusive_at + 1 :]:  # the items' own introductions under the rule's
        conditions = cond.merge(conditions, cond.clause_conditions(between.folded, ph, reading.parties))
    conditions = cond.merge(conditions, cond.clause_conditions(unit.folded, ph, reading.parties))
    conditions = cond.merge(conditions, parties_kinds(unit.folded, ph, default_role=None, context_role=role))
    if not set(conditions) - {"beneficial_owner"}:
        # nothing read from the item: its words are the condition, never "every payment"
        conditions["unread_condition"] = " ".join(unit.text.split()).rstrip(";,. ")
    rule = unit.context[exclusive_at]
    overrides = overrides_named(rule, rule.folded, ph)
    for either in either_party(conditions, unit.folded, ph):
        _emit_allocation(reading, out, unit, ph, 0, 0, len(unit.text), "residence_only", either, overrides)


def _paying_state_first(sentence: str, exclusive: regex.Match[str], ph: Phrases) -> bool:
    """"...shall be taxable only in the first-mentioned State" (or "may be taxed in the first-mentioned
    State") where the State first mentioned is the one that pays or where the income arises ("made by a
    Contracting State ... to a resident of the other", "arising in one of the Contracting States and paid
    to a resident of the other")."""
    if "first_mentioned" not in ph.patterns:
        return False
    if ph.find("first_mentioned", sentence, exclusive.end(), min(len(sentence), exclusive.end() + 40)) is None:
        return False
    before = sentence[: exclusive.start()]
    payer = ph.find("payer_role", before)
    to = ph.find("to_resident", before)
    return payer is not None and (to is None or payer.start() < to.start())


def _emit_allocation(reading: Reading, out: Emitted, unit: Unit, ph: Phrases,
                     k: int, s_start: int, s_end: int, allocation: str,
                     conditions: dict[str, Any], overrides: list[str]) -> None:
    paragraph = unit.paragraph
    status, reason = "determined", None
    sentence_count = len(unit.sentences())
    where = cite_label(unit.article, unit.eid)
    if not paragraph.complete and k == 0 and (unit.article.number_inferred or paragraph.number_inferred):
        status, reason = "unknown", f"the start of {where} is missing from the source text; which State may tax cannot be read"
    elif not paragraph.complete and k == sentence_count - 1 and unit.role in ("whole", "wrap"):
        status, reason = "unknown", f"{where} is cut off in the source text"
    elif "list_items_missing" in reading.damaged(unit.language, unit.eid) and _depends_on_lost_list(unit, ph, k):
        status, reason = "unknown", f"{where} makes this depend on items of a list that are missing from the source text"
    alternatives = [a for c in public_debt_alternatives(conditions, unit.folded[s_start:s_end], ph)
                    for a in cond.loan_alternatives(c, unit.folded[s_start:s_end], ph)]
    for alternative in alternatives:
        out.add(unit, "allocation", reading.cite(unit, s_start, s_end), allocation=None if status == "unknown" else allocation,
                conditions=alternative, overrides=overrides, status=status, reason=reason)


def _depends_on_lost_list(unit: Unit, ph: Phrases, k: int) -> bool:
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


def _pe_switch(reading: Reading, out: Emitted, units: list[Unit], ph: Phrases) -> None:
    """"...shall not apply if ... effectively connected with a permanent establishment ... In such
    case the provisions of article 7 or article 14 shall apply": the income goes to those articles. The
    sentence that names them may close the paragraph after a list ("... está vinculado efectivamente con:
    a) ese establecimiento permanente ...; b) ... En estos casos se aplicarán las disposiciones del
    artículo 7 o del artículo 14")."""
    for k, unit in enumerate(units):
        if not ph.has("effectively_connected", unit.folded):
            continue
        sentences = unit.sentences()
        connected = next((i for i, (a, b) in enumerate(sentences) if ph.has("effectively_connected", unit.folded[a:b])), None)
        if connected is None:
            continue
        own = number_value(unit.article.number)
        later = [(other, other.sentences()[0]) for other in units[k + 1: k + 4] if other.sentences()]
        for where, (a, b) in [*((unit, s) for s in sentences[connected: connected + 2]), *later]:
            sentence = where.folded[a:b]
            if not _applies(sentence, ph):
                continue
            arts = [n for kind, n in figures.find_references(sentence, ph) if kind == "article"]
            arts = [n for n in dict.fromkeys(arts) if n != unit.article.number and number_value(n) != own]
            if not arts:
                continue
            start, end = sentences[connected][0], (b if where is unit else sentences[connected][1])
            out.add(unit, "allocation", reading.cite(unit, start, end), conditions={"pe_connected": True},
                    values={"refer_to": arts})
            return


def _applies(sentence: str, ph: Phrases) -> bool:
    """"...shall apply" that is not "...shall not apply" ("no se aplicará a las rentas, distintas de las
    rentas derivadas de bienes inmuebles definidos en el apartado 2 del Artículo 6": not a switch to article 6)."""
    negated = ph.finditer("shall_not_apply", sentence) if "shall_not_apply" in ph.patterns else []
    return any(not any(n.start() <= m.start() < n.end() for n in negated) for m in ph.finditer("shall_apply", sentence))


def _exclusive_list_intro(unit: Unit, ph: Phrases) -> bool:
    """The item's list is introduced by "...taxable only in the other State if:" or "... si ... y" (no rate
    announced), or is the list of an item of such a list ("c) ... that is either: (i) a bank; ...")."""
    return _exclusive_intro_at(unit, ph) >= 0


def _exclusive_intro_at(unit: Unit, ph: Phrases) -> int:
    """Where in the item's context the introduction "...taxable only in the other State if:" stands, when every
    introduction below it goes on in its items too; -1 when there is none."""
    for at in range(len(unit.context) - 1, -1, -1):
        intro = unit.context[at].folded.rstrip()
        if not _goes_on_in_items(intro) or ph.has("cap", intro):
            return -1
        if ph.has("exclusive", intro):
            return at
    return -1


def _goes_on_in_items(sentence: str) -> bool:
    """Does the last sentence of a list's introduction go on in its items: "... only in that other State
    if:", or "... si el perceptor de los intereses es su beneficiario efectivo y" (a word, no stop)?"""
    end = sentence.rstrip()[-1:]
    return end == ":" or end.isalpha()
