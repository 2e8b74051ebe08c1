"""Articles with rates (dividends, interest, royalties, capped other income): the PE exception,
residence-only bases, exemptions before caps, and the most favourable cap whose conditions hold.

A cap or exemption more favourable than the best one that holds, whose conditions wait on a fact
the scenario does not give (or on words the engine could not read), makes the decision
`indeterminate`, with every outcome the missing facts could lead to among the candidates; a
paragraph whose words are missing is a gap. The caveats of the rule applied are listed.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from taxtreaty.rules import labels
from taxtreaty.rules.compile import PE_SWITCHED, CompiledTreaty, Rule, TopicRules
from taxtreaty.rules.conditions import Condition
from taxtreaty.rules.decision import Candidate, Decision, TraceEntry
from taxtreaty.rules.evaluate import (
    ALLOCATION_OUTCOME,
    SOURCE_ALLOCATIONS,
    Check,
    allocation_effect,
    apply_caveats,
    depends_on,
    displaces,
    effect,
    exempting,
    gap_reason,
    note_unknowns,
    pct,
    truncation_note,
    when,
)
from taxtreaty.rules.scenario import Scenario

#: allocations that give a payment to the source State alone (an exception of a rate article for some payments)
SOURCE_EXCLUSIVE = ("paying_state_only", "source_only")


def pe_exception(treaty: CompiledTreaty, rules: TopicRules, scenario: Scenario, decision: Decision,
                 defaults_used: set[str]) -> bool:
    """Paragraph 4/5 of articles 10-12: income connected with a PE goes to article 7 or 14."""
    if not rules.pe_overrides and rules.truncated is not None:
        # the article is cut off: its PE paragraph (usually after the rates) may be in the lost part
        if scenario.pe_connected:
            decision.status = "indeterminate"
            decision.trace.append(TraceEntry(rules.truncated, "the article is cut off here"))
            decision.reasons.append(
                f"the income is connected with a permanent establishment, but article {rules.article} is cut off at "
                f"{rules.truncated.eid} before any paragraph on that case; source text incomplete"
            )
            return True
        if scenario.pe_connected is None:
            defaults_used.add("pe_connected")
    if not rules.pe_overrides and rules.truncated is None and scenario.pe_connected and rules.topic in PE_SWITCHED:
        # no paragraph sending such income to article 7 or 14 was read: nearly every convention has one, and
        # one whose words were not read (a copy that lost its accents: "vinculada efectivamente" unread) would
        # leave the cap standing for income the article does not cap: never a rate, the case named
        decision.status = "indeterminate"
        decision.reasons.append(
            f"the income is connected with a permanent establishment, and no paragraph of article {rules.article} "
            "read sends such income to article 7 or 14; where the article has none, its rates apply")
        return True
    for rule in rules.pe_overrides:
        check = Check(rule, scenario, defaults_used)
        if check.holds is not True:
            decision.trace.append(TraceEntry(rule.cite, effect("pe", check)))
            continue
        independent = scenario.recipient == "individual"
        topic = "independent_services" if independent else "business_profits"
        targets = rule.refers_to
        number = targets[1] if independent and len(targets) > 1 else (targets[0] if targets else ("14" if independent else "7"))
        decision.trace.append(TraceEntry(rule.cite, labels.label("effects", "pe_applies", article=number)))
        decision.article_applied = number
        decision.eid = rule.cite.eid
        decision.source_taxation = "unlimited"
        decision.residence_taxation = "shared"
        target = treaty.pe_articles.get(topic)
        if target is not None:
            decision.trace.append(TraceEntry(target, labels.label("effects", "pe_article")))
            decision.eid = target.eid
        else:
            decision.reasons.append(f"article {number} is not in the source text; the source State taxes the income as profits of the permanent establishment or fixed base, with no treaty cap")
        return True
    return False


def _trace_allocations(rules: TopicRules, decision: Decision) -> None:
    for rule in rules.allocations:
        if rule.allocation in SOURCE_ALLOCATIONS:
            decision.trace.append(TraceEntry(rule.cite, allocation_effect(rule.allocation)))


def _residence_only_base(rules: TopicRules, scenario: Scenario, decision: Decision, defaults_used: set[str]) -> bool:
    """True (and the decision made) when the article gives the income to the residence State only
    and no rule letting the source State tax holds; indeterminate when one might."""
    # (a protocol point sending a kind of payment elsewhere is reclassify.py's, its defaults assumed there)
    checks = [(rule, Check(rule, scenario, defaults_used)) for rule in rules.allocations
              if not rule.values.get("reclassified_to")]
    residence = [r for r, c in checks if c.holds and r.allocation == "residence_only"]
    source = [r for r, c in checks if c.holds and r.allocation in SOURCE_ALLOCATIONS]
    if not residence or source:
        return False
    pending = [(r, c) for r, c in checks if c.holds is None and r.allocation in SOURCE_ALLOCATIONS]
    base = residence[0]
    decision.trace.append(TraceEntry(base.cite, allocation_effect("residence_only")))
    for rule, check in checks:
        if rule.allocation in SOURCE_ALLOCATIONS:
            decision.trace.append(TraceEntry(rule.cite, effect("allocation", check, allocation=allocation_effect(rule.allocation))))
    if pending:
        decision.status = "indeterminate"
        note_unknowns(decision, pending, scenario)
        decision.candidates.append(Candidate("none", Decimal(0), base.cite.eid, "none of the exceptions applies"))
        for rule, _ in pending:
            decision.candidates.append(Candidate("limited", None, rule.cite.eid, when(rule)))
        depends_on(decision, pending)
        return True
    decision.source_taxation, decision.max_rate_pct, decision.residence_taxation = "none", Decimal(0), "exclusive"
    decision.eid = base.cite.eid
    apply_caveats(decision, base)
    truncation_note(rules, decision)
    return True


def _for_some_payments(rule: Rule) -> bool:
    """A residence-only rule of a rate article for some payments only (its recipients, loans, ...),
    not the article's base: beneficial ownership alone ("Royalties ... beneficially owned by a
    resident of the other Contracting State shall be taxable only in that other Contracting State")
    is a condition of the base, as it is of every cap."""
    return any(c.fact != "beneficial_owner" for c in rule.conditions)


def _otherwise_after_siblings(evaluated: list[tuple[Rule, Check]]) -> None:
    """"(c) 10 per cent in all other cases" holds only where no other item of its list does. A
    higher-rate item that holds rules it out ("(b) 15 per cent where those dividends are paid out of
    income ... by an investment vehicle"); one whose conditions are unknown leaves it unknown. Lower-rate
    items need nothing: the most favourable cap that holds is chosen anyway."""
    for rule, check in evaluated:
        if rule.kind != "withholding_cap" or "otherwise" not in rule.notes or rule.rate is None or check.holds is False:
            continue
        higher = [(r, c) for r, c in evaluated if r is not rule and r.kind == "withholding_cap" and r.status == "determined"
                  and "otherwise" not in r.notes and r.rate is not None and r.rate > rule.rate
                  and r.paragraph_eid == rule.paragraph_eid]
        held = [r for r, c in higher if c.holds]
        if held:
            check.failed.append(Condition("otherwise", "eq", False, labels.label("conditions", "otherwise_not", words=held[0].cite.eid)))
            check.holds = False
            continue
        for _, other in higher:
            check.unknown.extend(c for c in other.unknown if c not in check.unknown)
        if check.unknown:
            check.holds = None


def _given_limb(rule: Rule, scenario: Scenario) -> Rule:
    """"The tax so charged shall not exceed the lesser of (a) 15 per cent ... and (b) the rate determined by
    reference to the tax the recipient would pay as a resident": the rate of the item no reader reads is the
    user's to give (`lesser_of_rate_pct`); given, the item is a cap at that rate, and the lowest holds."""
    given = scenario.lesser_of_rate_pct
    if given is None or rule.status == "determined" or not rule.values.get("lesser_of"):
        return rule
    return replace(rule, status="determined", rate=given, reason=None,
                   values={**rule.values, "words_unread": False, "rate_given": True})


def _lesser_of_limbs(decision: Decision, pending: list[tuple[Rule, Check]], best: Rule | None) -> None:
    """An open "lesser of": at most the rate the other items give, and the fact that settles it."""
    limbs = [r for r, _ in pending if r.status != "determined" and r.values.get("lesser_of")]
    if not limbs:
        return
    if "lesser_of_rate_pct" not in decision.missing_facts:
        decision.missing_facts.append("lesser_of_rate_pct")
    bound = f"at most {pct(best.rate)} ({best.cite.eid}); " if best is not None and best.rate is not None else ""
    decision.reasons.append(
        f"the limit is the lesser of the rates of its items: {bound}{', '.join(r.cite.eid for r in limbs)} gives a rate "
        "by the words quoted, which no reader turns into a figure: give that rate as lesser_of_rate_pct")


def withholding(rules: TopicRules, scenario: Scenario, decision: Decision, defaults_used: set[str]) -> None:
    """Articles with rates: exemptions before caps, the most favourable cap whose conditions hold.

    Caps only matter where the article lets the source State tax at all: when the only
    allocation that holds is "taxable only in the residence State" (other income, with a
    capped exception for a kind of income), the answer is that allocation."""
    if _residence_only_base(rules, scenario, decision, defaults_used):
        return
    _trace_allocations(rules, decision)
    # "...sólo pueden someterse a imposición en el otro Estado si [conditions]": a residence-only exception
    # of a rate article takes the source State's tax away as an exemption does, whether its conditions
    # hold or are not known (then a candidate, never ignored)
    exceptions = tuple(r for r in rules.allocations if r.allocation == "residence_only" and _for_some_payments(r))
    # "los intereses de la deuda pública ... emitidos por el Gobierno de un Estado Contratante ... sólo pueden
    # someterse a imposición en ese Estado": some payments go to the source State alone, whatever the caps
    to_source = tuple(r for r in rules.allocations if r.allocation in SOURCE_EXCLUSIVE and _for_some_payments(r))
    evaluated: list[tuple[Rule, Check]] = [
        (rule, Check(rule, scenario, defaults_used))
        for rule in (*rules.exemptions, *exceptions, *to_source, *(_given_limb(r, scenario) for r in (*rules.caps, *rules.gaps)))
    ]
    evaluated.sort(key=lambda rc: rc[0].cite.span[0])
    _otherwise_after_siblings(evaluated)
    exempt = next((r for r, c in evaluated if exempting(r) and r.status == "determined" and c.holds), None)
    held_caps = [r for r, c in evaluated if r.kind == "withholding_cap" and r.status == "determined" and c.holds]
    # "Notwithstanding subparagraph a) of paragraph 2, ... shall not exceed 15 per cent": a cap that
    # displaces another (its `overrides`) replaces it when both hold, even at a higher rate
    displaced = [r for r in held_caps if any(displaces(other, r) for other in held_caps if other is not r)]
    # the list's "in all other cases" rate is not for the displaced item's case either
    held_caps = [r for r in held_caps if r not in displaced and not (
        "otherwise" in r.notes and any(r.paragraph_eid == d.paragraph_eid for d in displaced))]
    best = min(held_caps, key=lambda r: r.rate if r.rate is not None else Decimal(100), default=None)
    sourced = next((r for r, c in evaluated if r in to_source and r.status == "determined" and c.holds), None)

    pending: list[tuple[Rule, Check]] = []
    for rule, check in evaluated:
        if exempt is not None or check.holds is False or (best is not None and displaces(best, rule)):
            continue  # a cap the chosen one displaces is set aside, whether it holds or not
        more_favourable = exempting(rule) or rule in to_source or (
            rule.kind == "withholding_cap" and (best is None or (rule.rate or 0) < (best.rate or 0))
        ) or (best is not None and displaces(rule, best))  # it may displace the chosen cap
        if rule.status != "determined" or (check.holds is None and more_favourable):
            pending.append((rule, check))
    if sourced is not None:  # only an exemption (or a gap) could still take the source State's tax away
        pending = [(r, c) for r, c in pending if r.status != "determined" or exempting(r)]
    # cut inside a paragraph of rates (mid-sentence): its list may go on with other rates or
    # exemptions; cut after a complete paragraph: the rates it states are whole
    cut_in_rates = rules.truncated is not None and rules.truncated_inside and rules.truncated.eid in rules.rate_paragraphs

    for rule, check in evaluated:
        if rule.status != "determined":
            step = labels.label("effects", "gap", reason=rule.reason or "the words that give the value are missing")
        elif rule is exempt:
            step = labels.label("effects", "exemption_applies")
        elif exempting(rule):
            step = effect("exemption", check)
        elif rule in to_source:
            step = allocation_effect(rule.allocation) if rule is sourced else \
                effect("allocation", check, allocation=allocation_effect(rule.allocation))
        elif rule is best:
            step = labels.label("effects", "cap_applies", rate=pct(rule.rate))
            if rule.values.get("rate_given"):
                decision.reasons.append(f"{rule.cite.eid} gives a rate in words no reader turns into a figure; "
                                        f"the rate given for it (lesser_of_rate_pct) is {pct(rule.rate)}")
        else:
            step = effect("cap", check, rate=pct(rule.rate))
        decision.trace.append(TraceEntry(rule.cite, step))

    if exempt is not None:
        decision.source_taxation, decision.max_rate_pct, decision.residence_taxation = "none", Decimal(0), "exclusive"
        decision.eid = exempt.cite.eid
        apply_caveats(decision, exempt)
        if rules.truncated is not None:
            truncation_note(rules, decision)
        return
    if sourced is not None and not pending:
        source, residence, _ = ALLOCATION_OUTCOME[sourced.allocation or ""]
        decision.source_taxation, decision.residence_taxation = source, residence  # type: ignore[assignment]
        decision.eid = sourced.cite.eid
        apply_caveats(decision, sourced)
        truncation_note(rules, decision)
        return
    if pending or (cut_in_rates and rules.truncated is not None):
        _indeterminate(rules, scenario, decision, evaluated, pending, best, cut_in_rates)
        return
    if best is not None:
        decision.source_taxation, decision.max_rate_pct, decision.residence_taxation = "limited", best.rate, "shared"
        decision.eid = best.cite.eid
        if best.values.get("base_pct") is not None:
            decision.reasons.append(f"{best.cite.eid} caps the tax on a base that is {best.values['base_pct']}% of the gross "
                                    f"amount: at most {pct(best.rate)} of the gross amount")
        apply_caveats(decision, best)
    elif not rules.caps and not any(r.allocation in SOURCE_ALLOCATIONS for r in rules.allocations):
        # only exemptions, none of which applies (students, teachers): the income then falls
        # under another article, which the text does not name here
        decision.status = "indeterminate"
        decision.reasons.append(
            f"no exemption of article {rules.article} applies; the income then falls under another article "
            "(employment, other income) that this article does not name"
        )
        return
    else:
        decision.source_taxation, decision.residence_taxation = "unlimited", "shared"
        # the words that give the source State its right ("Sin embargo, tales intereses pueden someterse a
        # imposición en el Estado Contratante del que proceden"), not a rule for other payments that does not hold
        granting = [r for r in rules.allocations if r.allocation in SOURCE_ALLOCATIONS
                    and Check(r, scenario, defaults_used).holds is not False]
        cited = granting[-1] if granting else rules.allocations[-1] if rules.allocations else None
        decision.eid = cited.cite.eid if cited is not None else None
        decision.reasons.append("no cap's conditions are met; the source State may tax under its own law")
    truncation_note(rules, decision)


def _indeterminate(rules: TopicRules, scenario: Scenario, decision: Decision, evaluated: list[tuple[Rule, Check]],
                   pending: list[tuple[Rule, Check]], best: Rule | None, cut_in_rates: bool) -> None:
    """The candidates of an open rate: the best cap that holds (or what applies when none of the
    pending rules does), and each pending rule."""
    decision.status = "indeterminate"
    note_unknowns(decision, pending, scenario)
    base = next((r for r in rules.allocations if r.allocation == "residence_only" and not _for_some_payments(r)), None)
    # what applies when none of the pending rules does: a cap that may still hold (its facts not given)
    # is itself pending when more favourable; otherwise the least favourable that can hold
    fallback = [r for r, c in evaluated if r.kind == "withholding_cap" and r.status == "determined" and c.holds is not False
                and all(r is not p for p, _ in pending)]
    if best is not None:
        decision.candidates.append(Candidate("limited", best.rate, best.cite.eid, "none of the other candidates applies"))
    elif base is not None:
        # "interest ... may be taxed only in that other State" and a cap for some interest only
        # ("determined with reference to receipts, sales, income, profits"): the rest is not taxed at source
        decision.candidates.append(Candidate("none", Decimal(0), base.cite.eid, "none of the other candidates applies"))
    else:
        for rule in fallback:
            decision.candidates.append(Candidate("limited", rule.rate, rule.cite.eid, when(rule)))
        # no cap at all, if the facts asked for rule the pending ones out (words not read are not
        # taken to fail: they only keep the answer open)
        askable = any(c.missing_fact(scenario) is not None for _, check in pending for c in check.unknown)
        unconditional = any(r.allocation in SOURCE_ALLOCATIONS and not r.conditions for r in rules.allocations)
        if (askable or unconditional or not any(c.holds is None for r, c in evaluated if r.status == "determined")) and (rules.caps or any(r.allocation in SOURCE_ALLOCATIONS for r in rules.allocations)):
            decision.candidates.append(Candidate("unlimited", None, None, "no cap applies"))
    for rule, _ in pending:
        if rule.status != "determined" and rule.values.get("lesser_of"):
            decision.candidates.append(Candidate("limited", None, rule.cite.eid, "the rate these words give is the lower"))
            decision.reasons.append(gap_reason(rule, decision))
        elif rule.status != "determined":
            decision.candidates.append(Candidate("unknown", None, rule.cite.eid, "the missing text provides for this case"))
            decision.reasons.append(gap_reason(rule, decision))
        elif exempting(rule):
            decision.candidates.append(Candidate("none", Decimal(0), rule.cite.eid, when(rule)))
        elif rule.allocation in SOURCE_EXCLUSIVE:
            decision.candidates.append(Candidate(ALLOCATION_OUTCOME[rule.allocation][0], None, rule.cite.eid, when(rule)))
        else:
            decision.candidates.append(Candidate("limited", rule.rate, rule.cite.eid, when(rule)))
    if cut_in_rates and rules.truncated is not None:
        decision.trace.append(TraceEntry(rules.truncated, "the article is cut off inside this paragraph"))
        decision.candidates.append(Candidate("unknown", None, rules.truncated.eid, "the cut-off text provides for this case"))
        decision.reasons.append(
            f"{rules.truncated.eid} [{rules.truncated.language}] is cut off by the end of the source text; "
            "it may list further exemptions or rates; source text incomplete"
        )
    _lesser_of_limbs(decision, pending, best)
    depends_on(decision, pending)
