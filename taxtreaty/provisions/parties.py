"""The parties of a payment a clause names: the kinds of payer, recipient and guarantor ("paid to the
Government", "granted by a bank", "guaranteed by ... an export credit agency", "the State of Estonia"),
each placed by the role word nearest before it; the alternatives when the kinds name either party ("the
payer or the recipient ... is the Government"); and the States the parties are residents of (`direction`).

Each reader takes folded clause text (see `vocabulary.fold_same_length`) and the language's `Phrases`;
the words come from the data files.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions.states import state_right_after, states_named
from taxtreaty.provisions.vocabulary import Phrases, phrases, require_phrases

#: kinds that make a guarantee a public one ("guaranteed by the Government")
PUBLIC_KINDS = frozenset({"government", "local_authority", "central_bank"})


#: who may guarantee, insure or finance a loan for `guaranteed_by_government`: the public kinds and an
#: entity the government owns ("a loan ... guaranteed or insured by a public export credit agency")
GUARANTOR_KINDS = PUBLIC_KINDS | {"government_owned"}


@cache
def _government_state(language: str) -> regex.Pattern[str] | None:
    """"the State of Estonia", "o Estado Português", "el Estado español": a State named as a payer or
    recipient is its government. Templates from the language file, "{state}" a State's name
    (countries.yaml) or adjective (`state_adjectives`), with or without an article."""
    ph = phrases(language)
    assert ph is not None
    templates = ph.raw.get("government_state") or []
    if not templates:
        return None
    names = {vocab.fold(n) for variants in vocab.countries().values() for n in variants}
    names |= {vocab.fold(str(a)) for a in (ph.raw.get("state_adjectives") or {})}
    state = rf"(?:{ph.word_group('determiners')}\s+)?(?:" + "|".join(
        regex.escape(n).replace(r"\ ", r"\s+") for n in sorted(names, key=len, reverse=True)) + r")(?![\p{L}])"
    pieces = []
    for template in templates:
        before, _, after = vocab.fold(template).partition("{state}")
        lead = r"\s+".join(regex.escape(w) for w in before.split())
        tail = r"\s+".join(regex.escape(w) for w in after.split())
        pieces.append(r"(?<![\p{L}])" + (lead + r"\s+" if lead else "") + state + (r"\s+" + tail if tail else ""))
    return regex.compile("|".join(pieces))


@cache
def _adjective_prefilter(language: str) -> regex.Pattern[str] | None:
    ph = phrases(language)
    assert ph is not None
    adjectives = [vocab.fold(str(a)) for a in (ph.raw.get("state_adjectives") or {})]
    return regex.compile("|".join(regex.escape(a) for a in adjectives)) if adjectives else None


def government_state_in(folded: str, ph: Phrases) -> regex.Pattern[str] | None:
    """The `government_state` pattern when the clause may hold one: it names a State (a cheap,
    remembered search) or a State's adjective; None otherwise."""
    pattern = _government_state(ph.code)
    if pattern is None:
        return None
    adjectives = _adjective_prefilter(ph.code)
    if not states_named(folded) and (adjectives is None or adjectives.search(folded) is None):
        return None
    return pattern


def kind_hits(folded: str, ph: Phrases) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every payer or recipient kind named in a clause, "the State of Estonia"
    (`government_state`) included, longest first at a spot."""
    hits = ph.group_hits("kinds", folded)
    pattern = government_state_in(folded, ph)
    if pattern is None or not pattern.search(folded):
        return hits
    # "a resident of the State of Estonia" is a resident, not the government
    residents = [vocab.fold(w) for w in ph.words("resident_words")]
    extra = [(m.start(), m.end(), "government") for m in pattern.finditer(folded)
             if not any(w in folded[max(0, m.start() - 16) : m.start()] for w in residents)]
    merged = sorted([*extra, *hits], key=lambda h: (h[0], -(h[1] - h[0])))
    kept: list[tuple[int, int, str]] = []
    for hit in merged:
        if kept and hit[0] < kept[-1][1]:
            continue
        kept.append(hit)
    return kept


def parties_kinds(folded: str, ph: Phrases, default_role: str | None = "recipient",
                  context_role: str | None = None) -> dict[str, Any]:
    """payer_kinds / recipient_kinds / guaranteed_by_government, each kind placed by the role word
    ("paid to", "debtor", "guaranteed by") nearest before it in the clause."""
    roles = []
    for key, role in (("recipient_role", "recipient"), ("payer_role", "payer"), ("guarantee_role", "guarantee")):
        roles += [(m.start(), m.end(), role) for m in ph.finditer(key, folded)]
    roles.sort()
    # "préstamos concedidos por un banco", "loan granted by a bank": the kind of income names the bank,
    # not the payer or the recipient
    incomes = [(a, b) for a, b, _ in ph.group_hits("subtypes", folded)]
    hits = kind_hits(folded, ph)
    asides = inclusion_asides(folded, ph, hits)
    out: dict[str, Any] = {}
    for start, _end, kind in hits:
        if any(a <= start < b for a, b in incomes) or any(a <= start < b for a, b in asides):
            continue  # "a otras instituciones u organismos (comprendidas las instituciones financieras)": some of them
        # a role may end inside the kind it introduces ("el beneficiario efectivo es | es ese Estado contratante")
        before = [r for r in roles if r[0] < start]
        role = before[-1][2] if before else (context_role or default_role)
        if role is None:
            continue
        if role == "payer" and _to_right_before(folded, start, ph):
            # "los dividendos pagados por una sociedad residente de un Estado Contratante a un fondo de pensiones",
            # "paid by a company ... to a pension fund": the kind the payment goes to is the recipient's
            role = "recipient"
        if role == "guarantee" and kind not in GUARANTOR_KINDS:
            role = "recipient"  # "loans made or guaranteed by a bank": the lender's kind
        if role == "guarantee":
            out["guaranteed_by_government"] = True
            # "paid to, or on loans guaranteed by, the Government": both roles
            earlier = [r for r in before[:-1] if r[2] == "recipient"]
            if not (earlier and not kind_hits(folded[earlier[-1][1] : before[-1][0]], ph)):
                continue
            if _names_a_resident(folded[earlier[-1][1] : before[-1][0]], ph):
                # "beneficially owned by a resident of that other State with respect to debt-claims guaranteed
                # ... by the Government": any resident is the recipient; the kinds are the guarantor's only
                continue
            role = "recipient"
        key = "payer_kinds" if role == "payer" else "recipient_kinds"
        kinds = out.setdefault(key, [])
        if kind not in kinds:
            kinds.append(kind)
    return out


#: how far (characters) before an inclusion aside a kind may end and the aside extend that kind's list
_ASIDE_HEAD = 12


def inclusion_asides(folded: str, ph: Phrases, hits: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """Spans of brackets that say what words naming no kind include ("otras instituciones u organismos
    (comprendidas las instituciones financieras)"): the kinds they name are some of those, never all, so no
    condition of their own (the words before stay unread). After a kind ("a bank or any other financial
    institution (including an insurance company)") the aside's kinds are on the list too: not an aside here."""
    if "inclusion_aside" not in ph.patterns:
        return []
    out = []
    for m in ph.finditer("inclusion_aside", folded):
        close = folded.find(")", m.end())
        if close >= 0 and not any(m.start() - _ASIDE_HEAD <= end <= m.start() for _, end, _ in hits):
            out.append((m.start(), close + 1))
    return out


def _to_right_before(folded: str, start: int, ph: Phrases) -> bool:
    """The words right before a kind say where the payment goes ("a un", "to a"): `recipient_to` phrases."""
    if "recipient_to" not in ph.patterns:
        return False
    head = folded[max(0, start - 16) : start].rstrip()
    return any(m.end() == len(head) for m in ph.finditer("recipient_to", head))


def _names_a_resident(folded: str, ph: Phrases) -> bool:
    """The words name the recipient as a resident ("a resident of that other Contracting State"), not by kind."""
    return any(vocab.fold(w) in folded for w in ph.words("resident_words"))


@cache
def _either_join(language: str) -> regex.Pattern[str]:
    """What joins two role words that name either party ("the payer or the recipient", "o devedor ou o beneficiário"),
    a condition's opener again between them too ("se esses juros forem pagos por, ou se o beneficiário efetivo desses
    juros for, um Estado Contratante")."""
    ph = require_phrases(language)
    again = rf"(?:{ph.word_group('condition_openers')}\s+)?" if "condition_openers" in ph.raw else ""
    return regex.compile(rf"\s*,?\s*{ph.word_group('or_words')}\s+{again}(?:{ph.word_group('determiners')}\s+)?")


#: how far (characters) the role words of "paid to, or on loans guaranteed or insured by," may stand apart
_RECIPIENT_OR_GUARANTOR_GAP = 40


def _recipient_or_guarantor(folded: str, ph: Phrases) -> bool:
    """"paid to, or on loans guaranteed or insured by, the Government": one list of kinds that is
    the recipient's or the guarantor's, joined by "or" with no kind named between the two roles."""
    guarantees = list(ph.finditer("guarantee_role", folded))
    if not guarantees:
        return False
    or_word = compiled(rf"\b{ph.word_group('or_words')}\b")
    for r in ph.finditer("recipient_role", folded):
        after = [g for g in guarantees if r.end() <= g.start() <= r.end() + _RECIPIENT_OR_GUARANTOR_GAP]
        if not after:
            continue
        gap = folded[r.end() : after[0].start()]
        # "paid to, or on loans guaranteed by,", "granted or guaranteed by", "granted, guaranteed or insured by"
        listed = or_word.search(gap) or not gap.strip(" ,")
        if listed and not kind_hits(gap, ph) and not ph.find("payer_role", gap):
            return True
    return False


def either_party(conditions: dict[str, Any], folded: str, ph: Phrases) -> list[dict[str, Any]]:
    """"the payer or the recipient of the interest is the Government": the kinds name either party.
    All conditions of one provision must hold, so this is two alternatives, one on the payer's kind
    and one on the recipient's; any other clause is its one set of conditions. "Paid to, or on loans
    guaranteed or insured by, the Government" likewise: one alternative on the recipient's kind, one
    on a loan the Government guarantees (whoever the lender is)."""
    kinds = [*conditions.get("payer_kinds", []), *conditions.get("recipient_kinds", [])]
    if not kinds:
        return [conditions]
    if conditions.get("guaranteed_by_government") and conditions.get("recipient_kinds") \
            and (_recipient_or_guarantor(folded, ph)
                 or ("guaranteed_alternative" in ph.patterns and ph.has("guaranteed_alternative", folded))):
        paid_to = {k: v for k, v in conditions.items() if k != "guaranteed_by_government"}
        guaranteed = {k: v for k, v in conditions.items() if k != "recipient_kinds"}
        return [paid_to, guaranteed]
    roles = sorted([(m.start(), m.end(), "payer") for m in ph.finditer("payer_role", folded)]
                   + [(m.start(), m.end(), "recipient") for m in ph.finditer("recipient_role", folded)])
    joined = any(a[2] != b[2] and _either_join(ph.code).fullmatch(folded, a[1], b[0]) for a, b in pairwise(roles))
    if not joined and conditions.get("payer_kinds") and conditions.get("recipient_kinds"):
        # "such recipient is a Contracting State ... ; or such interest is paid by one of those States": two
        # clauses joined by "; or", one on each party
        clause_or = compiled(rf"[;,]\s*{ph.word_group('or_words')}\s")
        if any(a[2] != b[2] and clause_or.search(folded, a[1], b[0]) for a, b in pairwise(roles)):
            rest = {k: v for k, v in conditions.items() if k not in ("payer_kinds", "recipient_kinds")}
            return [{**rest, "recipient_kinds": conditions["recipient_kinds"]}, {**rest, "payer_kinds": conditions["payer_kinds"]}]
    if not joined:
        return [conditions]
    kinds = list(dict.fromkeys(kinds))
    rest = {k: v for k, v in conditions.items() if k not in ("payer_kinds", "recipient_kinds")}
    return [{**rest, "payer_kinds": kinds}, {**rest, "recipient_kinds": kinds}]


def last_role(folded: str, ph: Phrases) -> str | None:
    """The role announced at the end of a list's introduction ("if the interest is paid to:")."""
    roles = []
    for key, role in (("recipient_role", "recipient"), ("payer_role", "payer")):
        roles += [(m.start(), role) for m in ph.finditer(key, folded)]
    return max(roles)[1] if roles else None


def _role_before_state(folded: str, state: str, ph: Phrases) -> str | None:
    """The role whose word stands nearest before the State's first name: "payer" ("arising in", "paid by"),
    "recipient" ("paid to") or "guarantor" ("guaranteed or insured by"); None when none stands before it."""
    at = min((m.start() for name in vocab.countries().get(state, ())
              if (m := compiled(rf"(?<![\p{{L}}]){regex.escape(vocab.fold(name))}(?![\p{{L}}])").search(folded))),
             default=None)
    if at is None:
        return None
    ends = [(m.end(), role) for key, role in (("payer_role", "payer"), ("recipient_role", "recipient"),
                                              ("guarantee_role", "guarantor")) if key in ph.patterns
            for m in ph.finditer(key, folded, 0, at)]
    return max(ends)[1] if ends else None


def _paying_government(folded: str, government: regex.Pattern[str], ph: Phrases, parties: list[str]) -> str | None:
    """The State whose government a payer's word names as the payer ("paid by the Government of Sweden",
    "pagados por el Gobierno de Suecia", "pagos pelo Governo da Suécia"), or None."""
    for m in government.finditer(folded):
        named = [c for c in states_named(m.group()) if not parties or c in parties]
        if len(named) != 1:
            continue
        before = folded[max(0, m.start() - 60) : m.start()]
        for role in ph.finditer("payer_role", before):
            gap = before[role.end():]
            if compiled(rf"\s*(?:{ph.word_group('determiners')}\s+)?").fullmatch(gap):
                return named[0]
    return None


def paying_government(folded: str, ph: Phrases, parties: list[str]) -> str | None:
    """The State a clause names as the payer by its government ("paid by the Government of Sweden"), or None."""
    government = government_state_in(folded, ph)
    return None if government is None else _paying_government(folded, government, ph, parties)


def direction(folded: str, ph: Phrases, parties: list[str]) -> dict[str, Any]:
    """source_state / residence_state when the clause names the States ("paid by a company which is a
    resident of the Netherlands to a resident of Greece"; "a company resident of Ethiopia")."""
    out: dict[str, Any] = {}
    government = government_state_in(folded, ph)
    paying = None
    if government is not None:  # "paid to the State of Estonia": a recipient, not a direction
        paying = _paying_government(folded, government, ph, parties)
        folded = government.sub(lambda m: " " * len(m.group()), folded)
    if paying is not None:
        # "interest paid by the Government of Sweden (to a resident of Canada)": the paying State is the source
        # State, whatever other State the clause names
        to = ph.find("to_resident", folded)
        after = [c for c in states_named(folded[to.start():]) if c != paying] if to is not None else []
        return {"source_state": paying, **({"residence_state": after[0]} if after else {})}
    if "currency_equivalent" in ph.patterns:  # "or the equivalent in Netherlands or Vietnamese currency"
        folded = ph.patterns["currency_equivalent"].sub(lambda m: " " * len(m.group()), folded)
    named = [c for c in states_named(folded) if not parties or c in parties]
    if not named:
        return out
    if "payer_state_lead" in ph.patterns:  # "(i) ... quando esta sociedade for residente de Portugal"
        for m in ph.finditer("payer_state_lead", folded):
            right = state_right_after(folded, m.end(), ph)
            if right is not None and right in named:
                out["source_state"] = right
                return out
    to = ph.find("to_resident", folded)
    if to is not None:
        before = [c for c in states_named(folded[: to.start()]) if c in named]
        after = [c for c in states_named(folded[to.start() :]) if c in named]
        if before:
            out["source_state"] = before[0]
        if after:
            out["residence_state"] = after[0]
        return out
    if len(named) == 1 and ph.find("payer_role", folded) is not None:
        # "interest arising in a Contracting State ... on a loan guaranteed or insured by the Export Development
        # Corporation of Canada": the State belongs to the guarantor's (or the recipient's) name, no direction
        if _role_before_state(folded, named[0], ph) == "payer":
            out["source_state"] = named[0]
        return out
    # "the Bangladesh Bank shall be exempt from Netherlands tax with respect to interest arising in the
    # Netherlands": a State right after a payer's word ("arising in", "paid by") is the source State,
    # whatever other State the clause names
    for m in ph.finditer("payer_role", folded):
        right = state_right_after(folded, m.end(), ph)
        if right is not None and right in named:
            out["source_state"] = right
            break
    return out


#: the payers whose debt is the public debt of a State
_PUBLIC_DEBTORS = ("government", "local_authority")


def public_debt_payers(conditions: dict[str, Any], folded: str, ph: Phrases) -> dict[str, Any]:
    """"interest on public debt shall be exempt from tax in the State in which it arises": the public debt is the
    debt of the government or a political subdivision, so a clause naming it and no payer asks that payer (before,
    no condition was read and every interest was exempt)."""
    if "public_debt" not in ph.patterns or conditions.get("payer_kinds") or not ph.has("public_debt", folded):
        return conditions
    return {**conditions, "payer_kinds": list(_PUBLIC_DEBTORS)}


def public_debt_alternatives(conditions: dict[str, Any], folded: str, ph: Phrases) -> list[dict[str, Any]]:
    """"Los intereses de la deuda pública, de los bonos u obligaciones emitidos por el Gobierno de un Estado
    Contratante, o una de sus subdivisiones políticas o cualquier institución ... de propiedad total de ese
    Gobierno": the public debt is the debt of the government or a political subdivision, whatever the
    debt-claim, so one alternative asks only that payer; the kind of loan named beside it (bonds) stays the
    other alternative, for every payer the clause names."""
    if "public_debt" in ph.patterns and not conditions.get("payer_kinds") and ph.has("public_debt", folded):
        return [public_debt_payers(conditions, folded, ph)]
    if "public_debt" not in ph.patterns or "income_subtype" not in conditions or not ph.has("public_debt", folded):
        return [conditions]
    payers = [k for k in conditions.get("payer_kinds", []) if k in _PUBLIC_DEBTORS]
    if not payers:
        return [conditions]
    debt = {k: v for k, v in conditions.items() if k != "income_subtype"}
    return [{**debt, "payer_kinds": payers}, conditions]


def issuer_state_only(sentence: str, exclusive: regex.Match[str], ph: Phrases) -> bool:
    """"... emitidos por el Gobierno de un Estado Contratante ... sólo pueden someterse a imposición en ese Estado":
    the State that clause names by its government (a public payer), no recipient before the words, and the
    State after them not "the other" nor a State by name: the State that issues and pays, not the residence."""
    before = sentence[: exclusive.start()]
    kinds = parties_kinds(before, ph, default_role=None)
    if not set(kinds.get("payer_kinds", [])) & GUARANTOR_KINDS or kinds.get("recipient_kinds"):
        return False
    if ph.find("to_resident", before) is not None or ph.find("recipient_role", before) is not None:
        return False
    after = sentence[exclusive.end() : exclusive.end() + 40]
    if "that_other_state" in ph.patterns and ph.find("that_other_state", after) is not None:
        return False
    return not states_named(after)
