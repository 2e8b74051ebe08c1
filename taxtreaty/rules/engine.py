"""Decide one scenario against a compiled treaty, the way the treaty reads.

The order of application mirrors the text (Catala style: a base rule plus labelled exceptions):

1. the treaty must bind the two States and be in force on the payment date, else `not_covered`;
2. the article for the income type (by topic, not number); when the fragment lacks it, the
   decision is `indeterminate` and says which articles the file holds;
3. the PE exception ("paragraphs 1 and 2 shall not apply if ... effectively connected with a
   permanent establishment ... article 7 or article 14 shall apply") before anything else;
4. exemptions before caps ("notwithstanding paragraph 2 ... shall be exempt");
5. of the caps whose conditions all hold, the most favourable; a cap or exemption that would
   be more favourable but depends on a fact the scenario does not give makes the decision
   `indeterminate`, with the candidates and the missing facts, never a guess;
6. a paragraph whose words are missing (lost list items, unknown values, an article cut off
   inside a list of rates) is a gap: unless the answer is already the most favourable possible
   (an exemption), the decision is `indeterminate` and cites the gap;
7. relief in the residence State from the elimination-of-double-taxation article.
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

from taxtreaty.rules.allocate import allocation, day_threshold, short_stay
from taxtreaty.rules.compile import CompiledTreaty, Rule, TopicRules, paragraph_of
from taxtreaty.rules.decision import Candidate, Decision, TraceEntry
from taxtreaty.rules.rates import pe_exception, withholding
from taxtreaty.rules.reclassify import pending_reclassification, settle
from taxtreaty.rules.scenario import Scenario
from taxtreaty.rules.tables import tables
from taxtreaty.structure import eids


def decide_compiled(treaty: CompiledTreaty, scenario: Scenario) -> Decision:
    if treaty.mli is not None:  # a covered tax agreement: the MLI modifies it from its date of effect
        from taxtreaty.versions.mli import decide_with_mli

        return decide_with_mli(treaty, scenario)
    if treaty.timeline is not None:  # amended: the version in effect on the payment date decides
        from taxtreaty.versions.timeline import decide_in_time

        return decide_in_time(treaty, scenario)
    defaults_used: set[str] = set()
    decision = Decision(status="determined")

    # 1. the States and the dates
    if len(treaty.parties) == 2:
        if {scenario.source, scenario.residence} != set(treaty.parties):
            decision.status = "not_covered"
            decision.reasons.append(
                f"the convention is between {treaty.parties[0]} and {treaty.parties[1]}; "
                f"it does not cover income from {scenario.source} to a resident of {scenario.residence}"
            )
            return decision
    else:
        decision.assumptions.append({
            "fact": "parties", "value": [scenario.source, scenario.residence],
            "why": "the text does not name its Contracting States; taken to be the source and residence States",
        })
    if not _in_force(treaty, scenario, decision):
        return decision
    if treaty.protocol_not_read:
        # a protocol the text names but the copy lost may set this article's rates: said on every answer
        decision.assumptions.append({"fact": "protocol", "value": "not read", "why": treaty.protocol_not_read})
    if treaty.columns_merged:
        # a page of two columns read line by line: its sentences are woven together, any paragraph may be misread
        decision.assumptions.append({"fact": "layout", "value": "two columns merged", "why": treaty.columns_merged})
    if treaty.headings_counted:
        # a copy without article headings: the article cited is counted, its words are the text's
        decision.assumptions.append({"fact": "article numbers", "value": "counted", "why": treaty.headings_counted})

    # 2. the article for this income
    rules = treaty.topic(scenario.topic)
    if rules is None or rules.article_eid is None:
        fallback = treaty.topic("other_income")
        if treaty.complete and fallback is not None and fallback.article_eid and scenario.topic != "other_income":
            decision.reasons.append(f"the convention has no article on {scenario.topic}; the other-income article applies")
            rules = fallback
        elif treaty.articles_known and (rules is None or not rules.gaps) and (fallback is None or fallback.article_eid is None):
            return _no_article(treaty, scenario, decision)
        else:
            return _missing_article(treaty, scenario, rules, decision)
    decision.language = rules.language
    decision.article_applied = rules.article

    # 3. a protocol point that sends this kind of payment to the articles of profits, the PE
    # exception, 4-6. the article's own rules
    moved = pending_reclassification(treaty, rules, scenario, decision, defaults_used)
    if moved is not True and not pe_exception(treaty, rules, scenario, decision, defaults_used):
        if rules.topic != "capital_gains" and (  # a gain's caps are its paragraph's (rules/gains.capped)
                rules.caps or rules.exemptions or any(g.kind in ("withholding_cap", "exemption") for g in rules.gaps)):
            withholding(rules, scenario, decision, defaults_used)
            if decision.eid and decision.eid.startswith("art_"):
                # "ARTICLE 12A FEES FOR TECHNICAL SERVICES" beside article 12: the article of the rate applied
                decision.article_applied = eids.article_number(decision.eid)
        elif day_threshold(rules) is not None and not rules.gaps:
            short_stay(rules, scenario, decision, defaults_used)
        else:
            allocation(treaty, rules, scenario, decision, defaults_used)
    if isinstance(moved, tuple):
        settle(moved, scenario, decision)
    _divergences(rules, decision)

    # 7. relief and amounts
    if decision.status == "determined":
        _relief(treaty, scenario, decision)
        if scenario.amount_minor is not None:
            if decision.source_taxation == "none":
                decision.withholding_minor = 0
            elif decision.source_taxation == "limited" and decision.max_rate_pct is not None:
                decision.withholding_minor = withholding_minor(scenario.amount_minor, decision.max_rate_pct)
    defaults = tables().defaults
    for fact in sorted(defaults_used):
        decision.assumptions.append({"fact": fact, "value": defaults[fact].value, "why": defaults[fact].why})
    return decision


def _divergences(rules: TopicRules, decision: Decision) -> None:
    """A figure that differs between the language versions of a paragraph the decision applied:
    noted when one text prevails (and the decision cites it), indeterminate when none does."""
    applied = {paragraph_of(t.cite.eid) for t in decision.trace}
    for eid, message, prevailing in rules.divergences:
        if paragraph_of(eid) not in applied:
            continue
        if prevailing and prevailing == rules.language:
            decision.reasons.append(f"the language versions differ ({message}); the {prevailing} text prevails and is applied")
        elif decision.status == "determined":
            decision.status = "indeterminate"
            decision.candidates.append(Candidate(decision.source_taxation or "unknown", decision.max_rate_pct, decision.eid,
                                                 f"the {rules.language} text is the one that applies"))
            decision.source_taxation = decision.max_rate_pct = decision.residence_taxation = None
            decision.reasons.append(f"the language versions differ ({message}) and no applied text prevails")
        else:
            decision.reasons.append(f"the language versions differ: {message}")


def withholding_minor(amount_minor: int, rate_pct: Decimal) -> int:
    """The most the source State may withhold, in minor units, rounded down (never above the cap)."""
    return int((Decimal(amount_minor) * rate_pct / 100).to_integral_value(rounding=ROUND_FLOOR))


def _in_force(treaty: CompiledTreaty, scenario: Scenario, decision: Decision) -> bool:
    window = treaty.in_force
    used = window.describe()
    if used:
        decision.version = {"dates": used}
    resolved = window.resolved
    if resolved is not None and resolved.not_before and scenario.date is not None and scenario.date < resolved.not_before \
            and not window.given_by_user:
        decision.status = "not_covered"
        # (no payment date in the words: a ledger gives this outcome to every row of the bucket)
        decision.reasons.append(f"the convention does not apply to payments before {resolved.not_before}: "
                                f"{resolved.not_before_why}")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.cites)
        return False
    if resolved is not None and resolved.pending and scenario.date is not None and not window.given_by_user:
        # the official collection says the convention has not entered into force: it applies to no
        # payment until an entry into force is known (given by the user once it has happened)
        decision.status = "not_covered"
        decision.reasons.append("the collection prints the convention as not yet in force (to enter into force at a "
                                "date still to be set), so it applies to no payment; if it has since entered into "
                                "force, give that date (--in-force DATE, or entry_into_force in the metadata file)")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.cites)
        return False
    if resolved is not None:
        decision.reasons.extend(n for n in resolved.warnings if n not in decision.reasons)
    if not window.known:
        why = (resolved.open_entry if resolved is not None else None) or tables().defaults["in_force"].why
        decision.assumptions.append({"fact": "in_force", "value": True, "why": why})
        return True
    if scenario.date is None:
        decision.status = "indeterminate"
        decision.missing_facts.append("date")
        decision.reasons.append("whether the convention applies depends on the payment date")
        return False
    own = window.effect_from_by_state.get(scenario.source or "")
    if own is None and window.effect_from is None and window.effect_until is None:
        # the clause gives dates of effect for the other State only: this one's are not known
        decision.assumptions.append({"fact": "in_force", "value": True, "why": tables().defaults["in_force"].why})
        return True
    if own is not None and own[0] <= scenario.date < own[1]:
        # one State's taxes start on different days ("taxes withheld at source" and "other taxes")
        decision.status = "indeterminate"
        decision.missing_facts.append("tax")
        decision.reasons.append(f"the convention has effect in {scenario.source} from {own[0]} for some taxes "
                                f"and from {own[1]} for others; which applies to this payment is not decided")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.state_cites[scenario.source or ""])
        return False
    if own is not None and scenario.date < own[0]:
        decision.status = "not_covered"
        decision.reasons.append(f"the convention has effect in {scenario.source} (the source State) only from "
                                f"{own[0]}, after the payment on {scenario.date} (from the final clauses)")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.state_cites[scenario.source or ""])
        return False
    if own is None and window.effect_from is not None and window.effect_from_latest is not None \
            and window.effect_from <= scenario.date < window.effect_from_latest:
        decision.status = "indeterminate"
        decision.reasons.append(f"the language versions give different dates of effect ({window.effect_from} and "
                                f"{window.effect_from_latest}) and none prevails; a payment on {scenario.date} "
                                "falls between them")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.cites)
        return False
    before = own is None and window.effect_from is not None and scenario.date < window.effect_from
    after = window.effect_until is not None and scenario.date > window.effect_until
    if before or after:
        decision.status = "not_covered"
        which = "given by the user" if window.given_by_user else "from the final clauses"
        span = f"{window.effect_from or '…'} to {window.effect_until or '…'}"
        decision.reasons.append(f"the convention does not apply to payments on {scenario.date} (it has effect {span}, {which})")
        decision.trace.extend(TraceEntry(c, "dates of effect") for c in window.cites)
        return False
    return True


def _no_article(treaty: CompiledTreaty, scenario: Scenario, decision: Decision) -> Decision:
    """A whole convention (its articles in sequence to the final clauses) with no article on this
    income and no other-income article: no article limits the source State, which taxes under its
    own law (and the residence State too, with the relief the convention gives)."""
    decision.source_taxation, decision.residence_taxation, decision.max_rate_pct = "unlimited", "shared", None
    numbers = next(iter(treaty.articles_present.values()), []) or ["?"]
    held = f"{numbers[0]} to {numbers[-1]}"
    what = "other income" if scenario.topic == "other_income" else f"{scenario.topic.replace('_', ' ')} and none on other income"
    decision.reasons.append(
        f"the convention has no article on {what} "
        f"(its articles {held} run in sequence to the final clauses): no article limits the source State, "
        "which taxes the income under its own law"
    )
    _relief(treaty, scenario, decision)
    return decision


def _missing_article(treaty: CompiledTreaty, scenario: Scenario, rules: TopicRules | None, decision: Decision) -> Decision:
    decision.status = "indeterminate"
    held = "; ".join(f"[{lang}] articles {', '.join(nums) or 'none'}" for lang, nums in treaty.articles_present.items())
    if rules is not None and rules.gaps:
        decision.trace.extend(TraceEntry(g.cite, f"gap: {g.reason or 'the words are missing'}") for g in rules.gaps)
    decision.reasons.append(
        f"the article on {scenario.topic} is not in the source text (the file holds {held}); "
        "source text incomplete"
    )
    return decision


def _relief(treaty: CompiledTreaty, scenario: Scenario, decision: Decision) -> None:
    if decision.source_taxation == "none":
        decision.relief = {"method": "none_needed", "reason": "the source State may not tax this income"}
        return
    if decision.residence_taxation == "none":
        decision.relief = {"method": "none_needed", "reason": "the residence State may not tax this income"}
        return
    own = [r for r in treaty.relief if r.state == scenario.residence]
    general = [r for r in treaty.relief if r.state is None or r.state not in treaty.parties]
    chosen = own or general
    credit = next((r for r in chosen if _method(r).startswith("credit")), None)
    rule = credit or (chosen[0] if chosen else None)
    if rule is None:
        decision.relief = {
            "method": "unknown",
            "reason": "the article on the elimination of double taxation is not in the source text",
        }
        return
    method = _method(rule)
    decision.relief = {"method": method, "article": eids.article_number(rule.cite.eid), "eid": rule.cite.eid,
                       "language": rule.cite.language, "quote": rule.cite.quote}
    progression = next((r for r in (*own, *general) if "progression" in _method(r)), None)
    if progression is not None and progression is not rule:
        decision.relief["progression_eid"] = progression.cite.eid
    decision.trace.append(TraceEntry(rule.cite, f"relief in {scenario.residence}: {method.replace('_', ' ')}"))


def _method(rule: Rule) -> str:
    """credit | exemption | exemption_with_progression, from the relief provision's values."""
    method = str(rule.values.get("method") or "unknown")
    if method == "exemption" and rule.values.get("progression"):
        return "exemption_with_progression"
    return method
