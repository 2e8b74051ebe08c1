"""Exemptions at source, and who they apply to.

"Interest arising in a Contracting State and paid to the Government of the other Contracting State
shall be exempt from tax in the first-mentioned State": one `exemption` per party the words name
(a list's items each name who is exempt: a government, a central bank, a named institution, and
the State it belongs to). In the articles on students and professors the exemption is the host
State's (`exempt_in_host`), with the period or sum it is bounded by.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions import conditions as cond
from taxtreaty.provisions import states
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.parties import either_party, last_role, parties_kinds, public_debt_payers
from taxtreaty.provisions.readers.thresholds import figure_values
from taxtreaty.provisions.reading import CAP_TOPICS, HOST_EXEMPTION_TOPICS, Emitted, Reading, cite_label
from taxtreaty.provisions.states import states_named
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length, require_phrases


def read_exemptions(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """The exemptions of one paragraph's units: each item of a list of who is exempt, or each sentence that exempts."""
    out = Emitted(reading)
    host = units[0].article.topic in HOST_EXEMPTION_TOPICS
    for unit in units:
        if unit.role == "point" and "shall_not_apply" in ph.patterns \
                and any(ph.has("shall_not_apply", c.folded) for c in unit.context):
            # "La reducción o exención ... no se aplicará si el beneficiario efectivo: a) está exento de
            # impuesto sobre dicha renta ...": the items say when a rate is switched off, none exempts
            continue
        ctx_exempt = [c for c in unit.context if ph.has("exempt", c.folded)]
        if ctx_exempt and unit.role == "point":
            role = last_role(ctx_exempt[-1].folded, ph) or "recipient"
            conditions: dict[str, Any] = {}
            for ctx in unit.context:
                conditions = cond.merge(conditions, cond.clause_conditions(ctx.folded, ph, reading.parties))
                if ctx is not ctx_exempt[-1]:
                    conditions = cond.merge(conditions, parties_kinds(ctx.folded, ph, default_role=None))
            own = parties_kinds(unit.folded, ph, default_role=None, context_role=role)
            conditions = cond.merge(conditions, own)
            conditions = cond.merge(conditions, cond.clause_conditions(unit.folded, ph, reading.parties))
            read_name = _institution(reading, unit.text, conditions, "payer" if role == "payer" else "recipient", ph)
            _place_states(reading, unit, conditions, role, ph)
            if host:
                conditions.pop("income_subtype", None)
            elif not set(conditions) - {"beneficial_owner", "source_state", "residence_state"}:
                # "(c) any other institution as may be agreed upon ... between the competent authorities": an
                # item of the list of who is exempt that names no one the extractor reads is not everyone
                words = _joiner_end(ph.code).sub("", " ".join(unit.text.split()).rstrip(";,. "))
                conditions["unread_condition"] = words.rstrip(";,. ")
            if reading.cut_after(unit):
                reading.warnings.append({
                    "code": "list_may_continue", "language": unit.language, "eid": unit.eid,
                    "message": f"{cite_label(unit.article, unit.eid)} is the last item before the source text stops: "
                    "the list of who is exempt may continue beyond it, and this item may be cut short",
                })
            for either in either_party(conditions, unit.folded, ph):
                for alternative in cond.loan_alternatives(either, unit.folded, ph):
                    out.add(unit, "exemption", reading.cite(unit, 0, len(unit.text)), conditions=alternative,
                            allocation="exempt_in_host" if host else None, read_names=read_name)
            continue
        if not ph.has("exempt", unit.folded):
            continue
        sentences = unit.sentences()
        if unit.role == "intro":
            # the points under an introduction say who is exempt; a whole sentence before the one that
            # opens the list is an exemption of its own ("... shall be exempt ... if it is derived and
            # beneficially owned by a pension fund ... or by the Government of a Contracting State. For
            # the purposes of this paragraph the term Government of a Contracting State shall include:")
            sentences = sentences[:-1]
        for s_start, s_end in sentences:
            sentence = unit.folded[s_start:s_end]
            if not ph.has("exempt", _without_franked(sentence, ph)):
                continue
            if "exempt_in_excess" in ph.patterns and ph.has("exempt_in_excess", sentence):
                continue  # "exempt from any Canadian tax in excess of 15 per cent": the caps reader's
            if unit.article.topic not in HOST_EXEMPTION_TOPICS and not _is_source_exemption(unit, sentence, ph):
                continue
            conditions = cond.clause_conditions(sentence, ph, reading.parties)
            conditions = public_debt_payers(cond.merge(conditions, parties_kinds(sentence, ph)), sentence, ph)
            if unit.role == "point" and unit.context and s_start == 0:
                source = states.source_from_introduction(unit.context[-1].folded, sentence, ph, reading.parties)
                if source is not None:
                    conditions["source_state"] = source
                    conditions.pop("residence_state", None)
            exempt = ph.find("exempt", sentence)
            named: tuple[str, ...] = ()
            if exempt is not None and not host:
                # "the Bangladesh Bank shall be exempt from Netherlands tax ...": the institution the
                # sentence begins with is the one exempt
                _institution(reading, unit.text[s_start : s_start + exempt.start()], conditions, "recipient", ph)
                named = _named_recipients(unit.text[s_start : s_start + exempt.start()], sentence[: exempt.start()], ph)
                if named:  # "paid to the Nederlandse Investeringsbank ... N.V. (...)": those, not any bank
                    conditions["recipient_kinds"] = ["named_institution"]
                    conditions["recipient_names"] = list(named)
            values = figure_values(sentence, ph) if host else {}
            if host:
                conditions.pop("income_subtype", None)
            status, reason = "determined", None
            if sentence.rstrip().endswith(":"):
                status = "unknown"
                reason = f"{cite_label(unit.article, unit.eid)} announces who is exempt but the list is missing from the source text"
            for either in either_party(conditions, sentence, ph):
                for alternative in cond.loan_alternatives(either, sentence, ph):
                    out.add(unit, "exemption", reading.cite(unit, s_start, s_end), conditions=alternative, values=values,
                            allocation="exempt_in_host" if host else None, status=status, reason=reason,
                            read_names=named)
    return out


@cache
def _joiner_end(language: str) -> regex.Pattern[str]:
    """A list joiner ending an item ("...; or"), with the stop before it."""
    return regex.compile(rf"[;,.]?\s+{require_phrases(language).word_group('and_words', 'or_words')}$")


def _is_source_exemption(unit: Unit, sentence: str, ph: Phrases) -> bool:
    """An exemption in an income article (not "exempt income" in a definition)."""
    return unit.article.topic in CAP_TOPICS or ph.has("notwithstanding", sentence)


def _institution(reading: Reading, text: str, conditions: dict[str, Any], key: str, ph: Phrases) -> tuple[str, ...]:
    """The institution a text names, into the conditions on the payer or the recipient (`key`): a
    proper name of a bank ("Banco Popular da China (the People's Bank of China)", "the Bangladesh
    Bank") is that institution, never any bank; the central bank of a State the name names ("the
    Central Bank of the Netherlands", "the Bank of Latvia (Central Bank)") is that State's central bank.
    Returns the name (its words are read), or nothing."""
    name = _institution_name(text, ph)
    if name is None:
        return ()
    kinds = conditions.setdefault(f"{key}_kinds", [])
    named = [c for c in states_named(fold_same_length(name)) if not reading.parties or c in reading.parties]
    central = "central_bank" in {k for _, _, k in ph.group_hits("kinds", fold_same_length(name))}
    source = conditions.get("source_state")
    if central and not named and key == "recipient" and len(reading.parties) == 2 and source in reading.parties:
        # "b) interest arising in Estonia shall be exempt ... if paid to: (ii) the Nederlandsche Bank (Central
        # Bank)": a central bank by its own words, of the State the list's payments go to (one to a State)
        named = [c for c in reading.parties if c != source]
    if central and len(set(named)) == 1:
        kinds[:] = [k for k in kinds if k != "bank"]
        if "central_bank" not in kinds:
            kinds.append("central_bank")
        conditions[f"{'source' if key == 'payer' else 'residence'}_state"] = named[0]
        return (name,)
    if "named_institution" not in kinds:
        kinds.append("named_institution")
    conditions[f"{key}_names"] = [name]
    return (name,)


def _named_recipients(text: str, folded: str, ph: Phrases) -> tuple[str, ...]:
    """The institutions named after "paid to" when every one is a proper name with a company form
    ("the Nederlandse Investeringsbank voor Ontwikkelingslanden N.V. (Netherlands Investment Bank for
    Developing Countries)": `institution_forms`), as printed; () when any is a kind, not a name."""
    if "institution_forms" not in ph.patterns:
        return ()
    roles = ph.finditer("recipient_role", folded)
    if not roles:
        return ()
    rest = " ".join(text[roles[0].end() :].split()).strip(" ,")
    joiners = ph.word_group("and_words", "or_words")
    pieces = compiled(rf"\s*,?\s+(?i:{joiners})\s+(?=(?i:{ph.word_group('determiners')})\s+\p{{Lu}})|\s*;\s*").split(rest)
    names = []
    for piece in pieces:
        lead = compiled(rf"^(?i:{vocab.accent_insensitive_alternation(ph.words('name_leads'))})\s+(?=\p{{Lu}})").match(piece)
        name = piece[lead.end():] if lead else piece
        capitalised = sum(1 for w in name.split() if w[:1].isupper())
        if capitalised < 2 or not name[:1].isupper() or not ph.has("institution_forms", fold_same_length(name)):
            return ()
        names.append(name.strip(" ,"))
    return tuple(names)


def _institution_name(text: str, ph: Phrases) -> str | None:
    """"ii) Ao Banco Popular da China (the People's Bank of China);" -> the name as printed."""
    text = " ".join(text.split()).rstrip(";,.").strip()
    text = _joiner_end(ph.code).sub("", text).rstrip(";,.")
    m = compiled(rf"^(?i:{vocab.accent_insensitive_alternation(ph.words('name_leads'))})\s+(?=\p{{Lu}})").match(text)
    name = text[m.end():] if m else text
    capitalised = sum(1 for w in name.split() if w[:1].isupper())
    kinds = {k for _, _, k in ph.group_hits("kinds", fold_same_length(name))}
    # a proper name of a bank ("Banco de Fomento Estatal"), not a generic kind ("the Government")
    if capitalised < 2 or not name[:1].isupper() or not kinds or kinds - {"bank", "central_bank"}:
        return None
    if "generic_state" in ph.patterns and ph.has("generic_state", fold_same_length(name)):
        return None  # "the Central Bank of the other Contracting State": a kind named by its State in general
    return name


def _place_states(reading: Reading, unit: Unit, conditions: dict[str, Any], role: str | None, ph: Phrases) -> None:
    """"a) Na China: i) Ao Governo...": the State named by an enclosing point that only names a
    place, or by the item itself ("the Bank of Latvia"), is the payer's or the recipient's."""
    key = "source_state" if role == "payer" else "residence_state"
    for ctx in unit.context[1:]:
        if ph.find("recipient_role", ctx.folded) or ph.find("payer_role", ctx.folded) or ph.has("exempt", ctx.folded):
            continue
        named = [c for c in states_named(ctx.text) if not reading.parties or c in reading.parties]
        if len(named) == 1:
            conditions[key] = named[0]
    if ph.find("guarantee_role", unit.folded):
        return  # "a loan guaranteed by the Export Credits Guarantee Department of the United Kingdom": the guarantor's State
    own_role = last_role(unit.folded, ph)  # "paid to the Central Bank of Kenya": the item's own role decides
    if own_role is not None:
        key = "source_state" if own_role == "payer" else "residence_state"
    # "the Central Bank of Kenya or the Bank of England": a place that is no State we know may be the other party
    places = compiled(rf"\b{ph.word_group('place_leads')}\s+(\p{{Lu}}\p{{L}}+(?:\s+\p{{Lu}}\p{{L}}+)*)").findall(unit.text)
    if any(not states_named(place) and not ph.has("condition_words", fold_same_length(place)) for place in places):
        return
    named = [c for c in states_named(unit.text) if not reading.parties or c in reading.parties]
    if len(named) == 1 and key not in conditions:
        conditions[key] = named[0]


def _without_franked(folded: str, ph: Phrases) -> str:
    """The words with "exentos (franked)" blanked: franked dividends (a fact of the rate) are not exempt."""
    if "franked" not in ph.patterns:
        return folded
    return ph.patterns["franked"].sub(lambda m: " " * len(m.group()), folded)
