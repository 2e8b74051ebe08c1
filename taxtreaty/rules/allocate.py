"""Articles without rates: who may tax, by the allocations of the text (exceptions before the base
rule), the employment article's day test, "subject to article 19(2)", and clashes between two
unconditional allocations (never resolved silently)."""

from __future__ import annotations

from decimal import Decimal

from taxtreaty.rules import gains
from taxtreaty.rules.compile import CompiledTreaty, Rule, TopicRules, article_of
from taxtreaty.rules.decision import Candidate, Decision, TraceEntry
from taxtreaty.rules.evaluate import (
    ALLOCATION_OUTCOME,
    SOURCE_ALLOCATIONS,
    Check,
    allocation_effect,
    apply_caveats,
    depends_on,
    effect,
    gap_reason,
    note_unknowns,
    truncation_note,
)
from taxtreaty.rules.scenario import Scenario
from taxtreaty.rules.tables import tables
from taxtreaty.structure import eids


def day_threshold(rules: TopicRules) -> Rule | None:
    """The "183 days in any twelve-month period" test of the employment article, if read."""
    if rules.topic != "employment":
        return None
    return next((r for r in rules.thresholds if isinstance(r.values.get("days"), int)), None)


def short_stay(rules: TopicRules, scenario: Scenario, decision: Decision, defaults_used: set[str]) -> None:
    """Employment (OECD 15(1)-(2)): the source State - where the work is done - may tax, unless
    the employee is present there no more than N days, the employer is not a resident of it and
    no permanent establishment there bears the pay; then only the residence State may."""
    threshold = day_threshold(rules)
    assert threshold is not None
    days = int(threshold.values["days"])
    paragraph = threshold.paragraph_eid
    base_source = next((r for r in rules.allocations if r.allocation in SOURCE_ALLOCATIONS
                        and r.paragraph_eid != paragraph and not r.conditions), None)
    exception = next((r for r in rules.allocations if r.allocation == "residence_only" and r.paragraph_eid == paragraph), None)
    if base_source is None or exception is None:
        decision.status = "indeterminate"
        decision.reasons.append(f"article {rules.article}: the day test of {threshold.cite.eid} was read but not the rules it qualifies")
        return
    defaults = tables().defaults
    others = [r for r in rules.allocations if r.paragraph_eid not in (base_source.paragraph_eid, paragraph)]
    if others:
        decision.assumptions.append({"fact": "international_traffic", "value": False, "why": defaults["international_traffic"].why,
                                     "eid": others[0].cite.eid})
    decision.assumptions.append({"fact": "place_of_work", "value": scenario.source, "why": defaults["place_of_work"].why})
    decision.trace.append(TraceEntry(base_source.cite, "the source State (where the employment is exercised) may tax"))
    missing = [f for f, v in (("days_present", scenario.days_present), ("employer_resident", scenario.employer_resident)) if v is None]
    if scenario.days_present is not None and scenario.days_present > days:
        decision.trace.append(TraceEntry(threshold.cite, f"exception not met: present {scenario.days_present} days, more than {days}"))
        outcome = base_source
    elif scenario.employer_resident is not None and scenario.employer_resident == scenario.source:
        decision.trace.append(TraceEntry(exception.cite, "exception not met: the employer is a resident of the source State"))
        outcome = base_source
    elif missing:
        decision.status = "indeterminate"
        decision.missing_facts.extend(missing)
        decision.trace.append(TraceEntry(threshold.cite, f"exception: present no more than {days} days"))
        decision.candidates.append(Candidate("unlimited", None, base_source.cite.eid, f"present more than {days} days, or the employer is a resident of the source State"))
        decision.candidates.append(Candidate("none", Decimal(0), exception.cite.eid, f"present no more than {days} days, and the employer is not a resident of the source State"))
        decision.reasons.append(f"the answer depends on the days of presence in the source State and on where the employer is resident (the limit is {days} days)")
        return
    else:
        if scenario.pe_connected is None:
            defaults_used.add("pe_connected")
        if scenario.pe_connected:
            decision.trace.append(TraceEntry(exception.cite, "exception not met: the pay is borne by a permanent establishment in the source State"))
            outcome = base_source
        else:
            decision.trace.append(TraceEntry(threshold.cite, f"present {scenario.days_present} days, no more than {days}"))
            decision.trace.append(TraceEntry(exception.cite, "exception applies: only the residence State may tax"))
            outcome = exception
    source, residence, _ = ALLOCATION_OUTCOME[outcome.allocation or ""]
    decision.source_taxation, decision.residence_taxation = source, residence  # type: ignore[assignment]
    decision.max_rate_pct = Decimal(0) if source == "none" else None
    decision.eid = outcome.cite.eid
    truncation_note(rules, decision)


def _subject_to(treaty: CompiledTreaty, rule: Rule, scenario: Scenario, decision: Decision,
                defaults_used: set[str]) -> bool:
    """'Subject to article 19(2)' (pensions, salaries): a reference to the government-service
    article matters only when a government pays; otherwise the rule stands, noting the default."""
    for eid in rule.overrides:
        if treaty.article_topics.get(article_of(eid)) != "government_service":
            continue
        if scenario.payer is None:
            defaults_used.add("payer")
        elif scenario.payer in ("government", "local_authority", "central_bank"):
            decision.status = "indeterminate"
            decision.candidates.append(Candidate("unknown", None, eid, "paid by a State or its authority"))
            decision.reasons.append(f"{rule.cite.eid} is subject to {eid} (government service), which applies when a State or its authority pays")
            return False
    return True


def _conditional(rule: Rule) -> bool:
    """An exception of the article: a rule with a condition of its own. A proviso that withdraws the
    benefit when the user says it bites (a main-purpose test, the MLI's principal purpose test:
    `not_true`) does not make a paragraph an exception to the others."""
    return any(c.op != "not_true" for c in rule.conditions)


def _clashing(chosen: Rule, ordered: list[Rule]) -> list[Rule]:
    """Other unconditional allocations of the article that give the income elsewhere: two rules
    that both apply and disagree are not resolved silently (Catala's conflict error)."""
    outcome = ALLOCATION_OUTCOME.get(chosen.allocation or "", (None,))[0]
    return [
        rule for rule in ordered
        if rule is not chosen and not _conditional(rule) and rule.allocation in ALLOCATION_OUTCOME
        and ALLOCATION_OUTCOME[rule.allocation or ""][0] != outcome
    ]


def _clashing_exceptions(chosen: Rule, ordered: list[Rule], scenario: Scenario, defaults_used: set[str]) -> list[Rule]:
    """Exceptions of the very same conditions as the one chosen that hold too and give the income elsewhere
    ("Annuities ... shall be taxable only in that Contracting State. However, such annuities may also be taxed
    in the other Contracting State if ..."): the words that tell them apart were not read, so no one of them is
    the answer."""
    conditions = {(c.fact, c.op, repr(c.value)) for c in chosen.conditions}
    outcome = ALLOCATION_OUTCOME.get(chosen.allocation or "", (None,))[0]
    return [
        rule for rule in ordered
        if rule is not chosen and rule.allocation in ALLOCATION_OUTCOME
        and ALLOCATION_OUTCOME[rule.allocation or ""][0] != outcome
        and {(c.fact, c.op, repr(c.value)) for c in rule.conditions} == conditions
        and Check(rule, scenario, defaults_used).holds is True
    ]


def _narrower(chosen: Rule, ordered: list[Rule], scenario: Scenario, defaults_used: set[str]) -> list[tuple[Rule, Check]]:
    """Exceptions of the rule chosen that the facts do not rule out: every condition of it and more, another
    outcome ("Sin embargo, las ganancias originadas en la enajenación de bienes muebles mencionados en el apartado 3
    del artículo 22, sólo pueden someterse a imposición ..." after the permanent establishment's rule, the words that
    say which movables unread). Tried after it by their place in the text, they would never be looked at."""
    own = {(c.fact, c.op, repr(c.value)) for c in chosen.conditions}
    outcome = ALLOCATION_OUTCOME.get(chosen.allocation or "", (None,))[0]
    found = []
    for rule in ordered:
        if rule is chosen or ALLOCATION_OUTCOME.get(rule.allocation or "", (outcome,))[0] == outcome:
            continue
        if own < {(c.fact, c.op, repr(c.value)) for c in rule.conditions}:
            check = Check(rule, scenario, defaults_used)
            if check.holds is not False:
                found.append((rule, check))
    return found


def _gap_blocks(gap: Rule, chosen: Rule | None) -> bool:
    """Words not read leave the answer open, unless they only set aside paragraphs the answer does not rest on: "5.
    Notwithstanding the provisions of paragraph 4, a Contracting State may ... levy tax on gains ... from the alienation
    of shares ..." (an exception no reader turned into an allocation) says nothing of a gain on immovable property under
    paragraph 1."""
    if chosen is None or not gap.overrides or "*" in gap.overrides:
        return True
    return any(eids.within(chosen.cite.eid, o) or eids.within(o, chosen.paragraph_eid) for o in gap.overrides)


def _same_outcome(chosen: Rule, pending: list[Rule]) -> bool:
    """Every pending exception, if it applies, taxes the income as `chosen` does."""
    outcome = ALLOCATION_OUTCOME.get(chosen.allocation or "")
    return outcome is not None and all(ALLOCATION_OUTCOME.get(r.allocation or "") == outcome for r in pending)


def _beneficial_owner_only(ordered: list[Rule], scenario: Scenario) -> bool:
    """The recipient is not the beneficial owner and every allocation of the article (the PE switch
    aside) is for a beneficial owner only: none of them applies to this payment."""
    if scenario.beneficial_owner is not False:
        return False
    rules = [r for r in ordered if r.allocation in ALLOCATION_OUTCOME and not any(c.fact == "pe_connected" for c in r.conditions)]
    return bool(rules) and all(any(c.fact == "beneficial_owner" for c in r.conditions) for r in rules)


def _overriders_first(ordered: list[Rule]) -> list[Rule]:
    """A rule that sets another aside ("No obstante las disposiciones de los apartados 1 y 2, ... también pueden
    someterse a imposición en ese otro Estado") is tried before the rules it names, whatever their conditions."""
    out = list(ordered)
    for rule in ordered:
        named = [k for k, other in enumerate(out) if other is not rule and other.paragraph_eid in rule.overrides]
        if named and out.index(rule) > min(named):
            out.remove(rule)
            out.insert(min(named), rule)
    return out


#: caveats of another paragraph giving the same right that the answer states too: "1. Profits ... may be taxed in that
#: State. 2. Such profits may also be taxed in the Contracting State in which they arise, but the tax so charged shall be
#: reduced by an amount equal to 50 per cent thereof" (the first paragraph is chosen, the second limits the right)
_SHARED_CAVEATS = ("tax_reduced",)


def _reductions_beside(chosen: Rule, ordered: list[Rule], scenario: Scenario, decision: Decision,
                       defaults_used: set[str]) -> None:
    """The `_SHARED_CAVEATS` of every other rule that holds and gives the source State what the chosen one gives."""
    source = ALLOCATION_OUTCOME.get(chosen.allocation or "", (None, None, None))[0]
    for rule in ordered:
        if rule is chosen or ALLOCATION_OUTCOME.get(rule.allocation or "", (None, None, None))[0] != source:
            continue
        shared = [c for c in rule.caveats if c.kind in _SHARED_CAVEATS]
        if shared and Check(rule, scenario, defaults_used).holds is True:
            decision.add_caveats(shared)


def _worked_in_source(rules: TopicRules, scenario: Scenario, decision: Decision) -> list[Rule]:
    """The employment article's rules for work done in the source State (the documented `place_of_work` default):
    "... shall be taxable only in that State unless the employment is exercised in the other Contracting State. If the
    employment is so exercised, ... may be taxed in that other State" is one paragraph giving the income to the
    residence State for work done there and to the State of the work otherwise, so with no day test read the
    residence-only sentence of a paragraph that also gives the source State its right is not this payment's rule."""
    if rules.topic != "employment":
        return list(rules.allocations)
    worked = {r.paragraph_eid for r in rules.allocations if r.allocation in SOURCE_ALLOCATIONS and not r.conditions}
    kept = [r for r in rules.allocations
            if not (r.allocation == "residence_only" and not r.conditions and r.paragraph_eid in worked)]
    if len(kept) < len(rules.allocations):
        decision.assumptions.append({"fact": "place_of_work", "value": scenario.source,
                                     "why": tables().defaults["place_of_work"].why})
    return kept


def allocation(treaty: CompiledTreaty, rules: TopicRules, scenario: Scenario, decision: Decision,
               defaults_used: set[str]) -> None:
    """Articles without rates: exceptions (allocations with conditions) before the base rule. A rule
    that overrides another ("Notwithstanding the provisions of paragraph 1, payments ... under the social
    security or similar legislation ...") without a condition read is still a clash: its subject may be
    narrower than the words read say."""
    # "may be taxed in that State" (the residence State's own right, residence_may_tax) says nothing of the
    # source State's: the words that give or limit that right ("Such profits may also be taxed in the Contracting
    # State in which they arise, but ...") are the ones the answer rests on, so they are tried first
    ordered = _overriders_first(sorted(_worked_in_source(rules, scenario, decision), key=lambda r: (
        not _conditional(r), r.allocation == "residence_may_tax", r.cite.span[0])))
    chosen: Rule | None = None
    unknown: list[tuple[Rule, Check]] = []
    for rule in ordered:
        check = Check(rule, scenario, defaults_used)
        if check.holds is not True:
            if check.holds is None:
                unknown.append((rule, check))
            decision.trace.append(TraceEntry(rule.cite, effect("allocation", check, allocation=allocation_effect(rule.allocation))))
            continue
        chosen = rule
        break
    if chosen is not None:
        clash = _clashing(chosen, ordered) if not _conditional(chosen) else \
            _clashing_exceptions(chosen, ordered, scenario, defaults_used)
        if clash:
            decision.status = "indeterminate"
            note_unknowns(decision, unknown, scenario)  # an exception the facts may yet select, named
            for rule, _ in unknown:
                source = ALLOCATION_OUTCOME.get(rule.allocation or "", ("unknown", None, None))[0]
                decision.candidates.append(Candidate(source, Decimal(0) if source == "none" else None, rule.cite.eid,
                                                     " and ".join(c.label for c in rule.conditions)))
            for rule in (chosen, *clash):
                decision.trace.append(TraceEntry(rule.cite, allocation_effect(rule.allocation)))
                source = ALLOCATION_OUTCOME.get(rule.allocation or "", ("unknown", None, None))[0]
                decision.candidates.append(Candidate(source, None, rule.cite.eid, "this paragraph is the one that fits the case"))
                # the circumstances that tell the paragraphs apart are in their words, which no fact
                # answers: named as words not read, so the user sees what the answer turns on
                decision.add_unread(rule.cite.eid, rule.cite.quote)
            decision.reasons.append(
                f"article {rules.article} gives this income to different States in "
                f"{', '.join(dict.fromkeys(r.cite.eid for r in (chosen, *clash)))}, by circumstances the scenario does not state "
                "and the engine could not read as facts (their words are quoted as unread)"
            )
            return
    if chosen is not None and _conditional(chosen):
        unknown += _narrower(chosen, ordered, scenario, defaults_used)
    if chosen is not None and unknown and _same_outcome(chosen, [r for r, _ in unknown]):
        # an exception the facts may yet select gives the income where the rule chosen gives it (a lump sum
        # "may be taxed in the State where it arises", a protocol point lets that State apply its law): the
        # answer does not depend on it (a clash above is still one)
        decision.trace.append(TraceEntry(chosen.cite, "whichever of these applies, the outcome is the same"))
        unknown = []
    gaps = [gap for gap in rules.gaps if _gap_blocks(gap, chosen)]
    if chosen is None and not unknown and not gaps and _beneficial_owner_only(ordered, scenario):
        # "...shall be taxable only in that other State if such resident is the beneficial owner": the recipient
        # is not, so the article's rule does not apply and nothing in it limits the source State's tax
        decision.source_taxation, decision.residence_taxation = "unlimited", "shared"
        decision.eid = ordered[0].cite.eid
        decision.reasons.append(
            f"the recipient is not the beneficial owner: article {rules.article} applies only to a beneficial owner, so it "
            "does not limit the source State's tax (a convention with the State of the beneficial owner may)")
        return
    if chosen is None or unknown or gaps:
        decision.status = "indeterminate"
        for gap in gaps:
            decision.trace.append(TraceEntry(gap.cite, f"gap: {gap.reason or 'the words are missing'}"))
            decision.reasons.append(gap_reason(gap, decision))
        note_unknowns(decision, unknown, scenario)
        if chosen is None and not gaps and not unknown:
            if rules.truncated is not None:
                decision.trace.append(TraceEntry(rules.truncated, "the article is cut off here"))
                decision.reasons.append(f"article {rules.article} is incomplete in the source text and no paragraph that allocates this income is present; source text incomplete")
            else:
                decision.reasons.append(f"no rule of article {rules.article} allocating this income was found")
        for rule, _ in unknown:
            source = ALLOCATION_OUTCOME.get(rule.allocation or "", ("unknown", None, None))[0]
            decision.candidates.append(Candidate(source, Decimal(0) if source == "none" else None, rule.cite.eid,
                                                 " and ".join(c.label for c in rule.conditions)))
        if chosen is not None:
            source = ALLOCATION_OUTCOME.get(chosen.allocation or "", ("unknown", None, None))[0]
            decision.candidates.append(Candidate(source, Decimal(0) if source == "none" else None, chosen.cite.eid,
                                                 "none of the exceptions applies"))
        depends_on(decision, unknown)
        return
    source, residence, assumption = ALLOCATION_OUTCOME.get(chosen.allocation or "", (None, None, None))
    if source is None:
        decision.status = "indeterminate"
        decision.reasons.append(f"{chosen.cite.eid}: allocation {chosen.allocation!r} is not understood by the engine")
        return
    decision.trace.append(TraceEntry(chosen.cite, allocation_effect(chosen.allocation)))
    if not _subject_to(treaty, chosen, scenario, decision, defaults_used):
        return
    decision.source_taxation = source  # type: ignore[assignment]
    decision.residence_taxation = residence
    decision.max_rate_pct = Decimal(0) if source == "none" else None
    decision.eid = chosen.cite.eid
    apply_caveats(decision, chosen)
    _reductions_beside(chosen, ordered, scenario, decision, defaults_used)
    if rules.topic == "capital_gains" and source == "unlimited":
        gains.capped(rules, chosen, scenario, decision, defaults_used)
    if assumption:
        default = tables().defaults[assumption]
        decision.assumptions.append({"fact": assumption, "value": default.value, "why": default.why})
    truncation_note(rules, decision)
