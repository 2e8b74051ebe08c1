"""The Multilateral Instrument (MLI) over a covered tax agreement: positions as data, applied by date.

The MLI (OECD, 2016) modifies the conventions both parties list as covered tax agreements, article by
article as their reservations and notifications match. Which of its articles apply to one agreement,
and from when, is a fact of the parties' positions, not of the convention's text, so it is data:
`taxtreaty/data/mli/positions.yaml` (shipped, each entry with its reference) and a file the user gives
(`ask --mli FILE`), in the same shape. This module reads them and applies, from the date the MLI has
effect for taxes withheld at source in the source State (MLI article 35(1)(a)):

- article 7(1), the principal purpose test: a caveat on every benefit (a cap, an exemption, an
  allocation that keeps the source State from taxing), and `main_purpose: true` takes the benefit away,
  as a main-purpose proviso of the convention's own does;
- article 8(1), the 365-day holding period: a condition on every reduced dividend rate that turns on
  the share a company holds ("365 days that include the day of the payment");
- article 6 (the preamble) and article 9 (gains from shares deriving value from immovable property) are
  recorded and named in the decision's version notes; they change no withholding answer here.

An agreement whose positions are not known is said to be so (`status: unknown`): its decisions state
the assumption that the MLI is not applied, and why, never a silent "the MLI does not apply".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from taxtreaty import vocab
from taxtreaty.rules.compile import CompiledTreaty, Rule, TopicRules
from taxtreaty.rules.decision import Candidate, Caveat, Decision
from taxtreaty.text.decode import InputError

#: the shipped positions, under taxtreaty/data
SHIPPED = ("mli", "positions.yaml")
#: the keys of a positions file, and of each of its agreements
FILE_KEYS = frozenset({"agreements"})
AGREEMENT_KEYS = frozenset({"parties", "status", "reference", "articles", "effect_withheld_at_source"})
#: the MLI articles this module knows (the others in a positions file are recorded, not applied)
KNOWN_ARTICLES = frozenset({6, 7, 8, 9})
#: MLI article 7(1), the principal purpose test (the words every decision quotes)
PPT_WORDS = ("Notwithstanding any provisions of a Covered Tax Agreement, a benefit under the Covered Tax Agreement "
             "shall not be granted in respect of an item of income or capital if it is reasonable to conclude, "
             "having regard to all relevant facts and circumstances, that obtaining that benefit was one of the "
             "principal purposes of any arrangement or transaction that resulted directly or indirectly in that "
             "benefit, unless it is established that granting that benefit in these circumstances would be in "
             "accordance with the object and purpose of the relevant provisions of the Covered Tax Agreement.")
#: MLI article 8(1), the holding period of reduced dividend rates
HOLDING_WORDS = ("Provisions of a Covered Tax Agreement that exempt dividends paid by a company which is a resident "
                 "of a Contracting Jurisdiction from tax or that limit the rate at which such dividends may be taxed, "
                 "provided that the beneficial owner or the recipient is a company which owns, holds or controls "
                 "more than a certain amount of the capital, shares, stock, voting power, voting rights or similar "
                 "ownership interests of the company paying the dividends, shall apply only if the ownership "
                 "conditions described in those provisions are met throughout a 365 day period that includes the "
                 "day of the payment of the dividends")
UNKNOWN_WORDS = ("The Multilateral Instrument may modify this convention (for instance the principal purpose test of "
                 "its article 7); the positions of the two States for it are not in taxtreaty's data: give them "
                 "with --mli FILE")
#: no payment before this day is touched by the MLI (in force from 1 July 2018: effect from 1 January 2019 at the earliest)
EARLIEST_EFFECT = dt.date(2019, 1, 1)
_SHARE_FACTS = frozenset({"capital_pct", "voting_pct"})
_BENEFIT_ALLOCATIONS = frozenset({"residence_only", "effective_management_only", "exempt_in_host", "none"})


@dataclass(frozen=True)
class Positions:
    """The MLI over one covered tax agreement."""

    parties: frozenset[str]
    status: str  # "known" | "unknown"
    reference: str
    articles: frozenset[int] = frozenset()
    #: per State: the MLI has effect for taxes withheld at source on amounts paid on or after this day
    effect_withholding: dict[str, dt.date] = field(default_factory=dict)

    def effect_for(self, source: str) -> dt.date | None:
        return self.effect_withholding.get(source)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "reference": self.reference}
        if self.articles:
            out["articles"] = sorted(self.articles)
        if self.effect_withholding:
            out["effect_withheld_at_source"] = {k: v.isoformat() for k, v in sorted(self.effect_withholding.items())}
        return out


def _date(value: Any, where: str) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise InputError(f"{where}: {value!r} is not a date (YYYY-MM-DD)") from None


def _entry(raw: Any, where: str) -> Positions:
    if not isinstance(raw, dict):
        raise InputError(f"{where}: each agreement is a mapping with parties, status, reference")
    unknown = set(raw) - AGREEMENT_KEYS
    if unknown:
        raise InputError(f"{where}: unknown keys {sorted(unknown)} (an agreement takes {sorted(AGREEMENT_KEYS)})")
    parties = raw.get("parties")
    if not (isinstance(parties, list) and len(parties) == 2 and all(isinstance(p, str) and len(p) == 2 for p in parties)):
        raise InputError(f"{where}: parties must be two ISO country codes, e.g. [NL, HU]")
    status = str(raw.get("status") or "known")
    if status not in ("known", "unknown"):
        raise InputError(f"{where}: status must be known or unknown (got {status!r})")
    reference = str(raw.get("reference") or "").strip()
    if not reference:
        raise InputError(f"{where}: every position needs a reference (where it was read)")
    listed = raw.get("articles") or []
    if not isinstance(listed, list) or not all(str(a).isdigit() and 1 <= int(a) <= 39 for a in listed):
        raise InputError(f"{where}: articles must be a list of MLI article numbers (1-39)")
    articles = [int(a) for a in listed]
    if status == "known" and 7 not in articles:
        raise InputError(f"{where}: article 7 (the principal purpose test, a minimum standard) applies to every covered agreement")
    effect = raw.get("effect_withheld_at_source") or {}
    if not isinstance(effect, dict):
        raise InputError(f"{where}: effect_withheld_at_source maps a country code to a date")
    codes = {p.upper() for p in parties}
    dates = {str(k).upper(): _date(v, f"{where}: effect_withheld_at_source {k}") for k, v in effect.items()}
    if status == "known" and set(dates) != codes:
        raise InputError(f"{where}: give the date of effect for taxes withheld at source for both States {sorted(codes)}")
    return Positions(frozenset(codes), status, reference, frozenset(articles), dates)


def read_positions(path: str | Path) -> dict[frozenset[str], Positions]:
    """The agreements of a positions file (`ask --mli FILE`), by their two parties."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot read the MLI positions ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a YAML file of MLI positions (not UTF-8 text)") from None
    try:
        # every scalar as a string: "NO" is Norway, not YAML 1.1's false; dates and numbers are checked below
        raw = vocab.read_yaml_text(text, str(path), text_scalars=True, keys=FILE_KEYS)
    except vocab.DataFileError as exc:
        raise InputError(str(exc)) from None
    return _positions(raw, path.name)


def _positions(raw: Any, name: str) -> dict[frozenset[str], Positions]:
    if not isinstance(raw, dict) or not isinstance(raw.get("agreements"), list):
        raise InputError(f"{name}: an MLI positions file holds `agreements:`, a list")
    out: dict[frozenset[str], Positions] = {}
    for i, entry in enumerate(raw["agreements"], 1):
        positions = _entry(entry, f"{name}: agreement {i}")
        if positions.parties in out:
            raise InputError(f"{name}: agreement {i}: {'-'.join(sorted(positions.parties))} is listed twice")
        out[positions.parties] = positions
    return out


@cache
def shipped() -> dict[frozenset[str], Positions]:
    """The positions shipped in taxtreaty/data/mli/positions.yaml (read by the one data loader)."""
    return _positions(vocab.read_data_file(*SHIPPED, text_scalars=True, keys=FILE_KEYS), "/".join(SHIPPED))


def positions_for(parties: tuple[str, ...], user_file: str | Path | None = None) -> Positions | None:
    """The positions for an agreement between `parties`: the user's file first, then the shipped data."""
    if len(parties) != 2:
        return None
    key = frozenset(parties)
    if user_file is not None:
        found = read_positions(user_file).get(key)
        if found is not None:
            return found
    return shipped().get(key)


@dataclass(frozen=True)
class Applied:
    """The MLI over a compiled convention: its positions, the convention as printed and as modified."""

    positions: Positions
    base: CompiledTreaty
    modified: CompiledTreaty


def attach(treaty: CompiledTreaty, user_file: str | Path | None = None) -> CompiledTreaty:
    """`treaty` with the MLI positions for its parties (itself when none are known or listed)."""
    positions = positions_for(treaty.parties, user_file)
    if positions is None:
        return treaty
    base = replace(treaty, mli=None)
    if positions.status == "unknown":  # nothing to modify: the decision only states the assumption
        return replace(treaty, mli=Applied(positions, base, base))
    return replace(treaty, mli=Applied(positions, base, _modified(base, positions.articles)))


def _modified(treaty: CompiledTreaty, articles: frozenset[int]) -> CompiledTreaty:
    """`treaty` as the MLI modifies it: its rules, and those of every version of an amended
    convention (each consolidated version, and those built on demand with an undated instrument)."""
    topics = {name: _topic(rules, articles) for name, rules in treaty.topics.items()}
    timeline = treaty.timeline
    if timeline is not None:
        builder = timeline._builder
        timeline = replace(timeline, versions=[replace(v, compiled=_modified(v.compiled, articles)) for v in timeline.versions],
                           _shadows={}, _builder=(lambda index: _modified(builder(index), articles)) if builder else None)
    return replace(treaty, topics=topics, timeline=timeline)


# -- the MLI version of a compiled treaty ---------------------------------------------------------


def _ppt(rule: Rule) -> Rule:
    from taxtreaty.rules.conditions import compile_conditions

    if any(c.kind == "main_purpose" and c.eid.startswith("mli_") for c in rule.caveats):
        return rule
    # every benefit, the residual rate of a list too: where the test bites, the source State taxes under its law
    tests, _ = compile_conditions({"caveats": [{"kind": "main_purpose"}]}, ())
    return replace(rule, conditions=(*rule.conditions, *tests),
                   caveats=(*rule.caveats, Caveat("main_purpose", "mli_art_7__para_1", PPT_WORDS)))


def _holding_period(rule: Rule) -> Rule:
    from taxtreaty.rules.conditions import compile_conditions

    if not any(c.fact in _SHARE_FACTS for c in rule.conditions) or any(c.op == "period" for c in rule.conditions):
        return rule  # not a holding's rate, or the convention sets its own period (MLI 8(1) adds to it: kept simple)
    tests, _ = compile_conditions({"min_holding_days": 365}, ())
    return replace(rule, conditions=(*rule.conditions, *tests),
                   caveats=(*rule.caveats, Caveat("mli_holding_period", "mli_art_8__para_1", HOLDING_WORDS)))


def _topic(rules: TopicRules, articles: frozenset[int]) -> TopicRules:
    def benefit(rule: Rule) -> Rule:
        if 8 in articles and rules.topic == "dividends" and rule.kind in ("withholding_cap", "exemption"):
            rule = _holding_period(rule)
        if 7 in articles and (rule.kind in ("withholding_cap", "exemption")
                              or (rule.kind == "allocation" and rule.allocation in _BENEFIT_ALLOCATIONS)):
            rule = _ppt(rule)
        return rule

    return replace(rules, caps=[benefit(r) for r in rules.caps], exemptions=[benefit(r) for r in rules.exemptions],
                   allocations=[benefit(r) for r in rules.allocations])


def _outcome(d: Decision) -> tuple[Any, ...]:
    return (d.status, d.source_taxation, d.max_rate_pct, d.eid)


def decide_with_mli(treaty: CompiledTreaty, scenario: Any) -> Decision:
    """Decide on the convention as the MLI modifies it on the payment date (MLI article 35(1)(a))."""
    from taxtreaty.rules.engine import decide_compiled

    applied: Applied = treaty.mli
    positions, base, modified = applied.positions, applied.base, applied.modified
    if positions.status == "unknown":
        decision = decide_compiled(base, scenario)
        if decision.status != "not_covered" and (scenario.date is None or scenario.date >= EARLIEST_EFFECT):
            # an assumption the decision rests on, said plainly (not a proviso of the convention's words)
            decision.assumptions.append({"fact": "mli", "value": "not applied", "why": UNKNOWN_WORDS})
            _note(decision, positions)
        return decision
    effect = positions.effect_for(scenario.source)
    if scenario.date is None:
        before, after = decide_compiled(base, scenario), decide_compiled(modified, scenario)
        if _outcome(before) == _outcome(after):
            after.reasons.append(f"the MLI modifies this convention from {effect} (taxes withheld at source in "
                                 f"{scenario.source}); the answer is the same before and after")
            _note(after, positions)
            return after
        decision = Decision(status="indeterminate", missing_facts=["date"])
        decision.reasons.append(f"the MLI modifies this convention for payments from {effect}: the answer depends on "
                                "the payment date")
        decision.candidates.append(Candidate(before.source_taxation or before.status, before.max_rate_pct, before.eid,
                                             f"the payment is before {effect}"))
        decision.candidates.append(Candidate(after.source_taxation or after.status, after.max_rate_pct, after.eid,
                                             f"the payment is on or after {effect}"))
        _note(decision, positions)
        return decision
    if effect is not None and scenario.date >= effect:
        decision = decide_compiled(modified, scenario)
        decision.reasons.append(f"decided on the convention as the MLI modifies it (in effect for taxes withheld at "
                                f"source in {scenario.source} from {effect})")
    else:
        decision = decide_compiled(base, scenario)
        if effect is not None:
            decision.reasons.append(f"the MLI modifies this convention only for payments from {effect}")
    _note(decision, positions)
    return decision


def _note(decision: Decision, positions: Positions) -> None:
    decision.version = {**(decision.version or {}), "mli": positions.describe()}


__all__ = ["Applied", "Positions", "attach", "decide_with_mli", "positions_for", "read_positions"]
