"""The Multilateral Instrument (MLI) over a covered tax agreement: positions as data, applied by date.

The MLI (OECD, 2016) modifies the conventions both parties list as covered tax agreements, article by
article as their reservations and notifications match. Which of its articles apply to one agreement,
and from when, is a fact of the parties' positions, not of the convention's text, so it is data:
`taxtreaty/data/mli/positions.yaml` (shipped, each entry with its reference), the positions a store keeps
(`ingest --mli FILE`) and a file the user gives (`--mli FILE`), in the same shape. This module reads them
and applies, from the date the MLI has effect in the source State (MLI article 35(1)(a) for taxes
withheld at source; for a gain, 35(1)(b)'s date for other taxes where the positions give it):

- article 7(1), the principal purpose test: a caveat on every benefit (a cap, an exemption, an
  allocation that keeps the source State from taxing), and `main_purpose: true` takes the benefit away,
  as a main-purpose proviso of the convention's own does;
- article 8(1), the 365-day holding period: a condition on every reduced dividend rate that turns on
  the share a company holds ("365 days that include the day of the payment");
- article 9, gains from shares or comparable interests deriving their value from immovable property:
  with option 9(4) both parties chose, a rule of its own before the convention's paragraphs on gains
  (more than 50% of the value at any time during the 365 days before the alienation: the source State may
  tax; the facts `gain_on_shares` and `immovable_value_pct`, never defaulted); with 9(1) alone, a caveat
  on the convention's paragraphs (their own threshold, tested over the 365 days);
- article 6 (the preamble) is recorded and named in the decision's version notes.

The MLI's words a decision quotes are in `taxtreaty/data/mli/articles.yaml`.

An agreement whose positions are not known is said to be so (`status: unknown`): its decisions state
the assumption that the MLI is not applied, and why, never a silent "the MLI does not apply".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from taxtreaty import vocab
from taxtreaty.rules import labels
from taxtreaty.rules.compile import CompiledTreaty, Rule, TopicRules
from taxtreaty.rules.conditions import Condition
from taxtreaty.rules.decision import Candidate, Caveat, Cite, Decision
from taxtreaty.text.decode import InputError

#: the shipped positions, under taxtreaty/data
SHIPPED = ("mli", "positions.yaml")
#: the keys of a positions file, and of each of its agreements
FILE_KEYS = frozenset({"agreements"})
AGREEMENT_KEYS = frozenset({"parties", "status", "reference", "articles", "options", "effect_withheld_at_source",
                            "effect_other_taxes"})
#: optional paragraphs both parties chose (MLI article 9(8): paragraph 4 in place of paragraph 1)
KNOWN_OPTIONS = frozenset({"9(4)"})
#: the MLI articles this module knows (the others in a positions file are recorded, not applied)
KNOWN_ARTICLES = frozenset({6, 7, 8, 9})
#: the words of the MLI that decisions quote, by "article(paragraph)" (data/mli/articles.yaml)
WORDS_FILE = ("mli", "articles.yaml")


@cache
def _words_file() -> dict[str, Any]:
    raw = vocab.read_data_file(*WORDS_FILE, keys={"language", "words"})
    return raw if isinstance(raw, dict) else {}


def words_language() -> str:
    """The language of the MLI's words in the data file."""
    return str(_words_file().get("language") or "")


@cache
def words(key: str) -> str:
    """The MLI's words for "7(1)", "8(1)", "9(1)", "9(4)" (or `unknown`, the note of unknown positions)."""
    found = (_words_file().get("words") or {}).get(key)
    if not isinstance(found, str):
        raise vocab.DataFileError(f"{'/'.join(WORDS_FILE)}: words.{key} is missing")
    return found


#: no payment before this day is touched by the MLI (in force from 1 July 2018: effect from 1 January 2019 at the earliest)
EARLIEST_EFFECT = dt.date(2019, 1, 1)
_SHARE_FACTS = frozenset({"capital_pct", "voting_pct"})
#: MLI article 9(4): more than this share of the value from immovable property, at any time in the 365 days
IMMOVABLE_SHARE = Decimal(50)
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
    #: optional paragraphs both parties apply ("9(4)")
    options: frozenset[str] = frozenset()
    #: per State: article 35(1)(b), other taxes, for taxable periods beginning on or after this day
    effect_other: dict[str, dt.date] = field(default_factory=dict)

    def effect_for(self, source: str, withheld: bool = True) -> dt.date | None:
        """The day the MLI has effect in the source State: for taxes withheld at source, or (`withheld`
        false: a gain) for other taxes where the positions give that date, else the withholding one."""
        if not withheld and source in self.effect_other:
            return self.effect_other[source]
        return self.effect_withholding.get(source)

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "reference": self.reference}
        if self.articles:
            out["articles"] = sorted(self.articles)
        if self.options:
            out["options"] = sorted(self.options)
        if self.effect_withholding:
            out["effect_withheld_at_source"] = {k: v.isoformat() for k, v in sorted(self.effect_withholding.items())}
        if self.effect_other:
            out["effect_other_taxes"] = {k: v.isoformat() for k, v in sorted(self.effect_other.items())}
        return out

    def to_entry(self) -> dict[str, Any]:
        """This agreement in the shape of a positions file's entry (what the store keeps)."""
        out = self.describe()
        out["parties"] = sorted(self.parties)
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
    other = raw.get("effect_other_taxes") or {}
    if not isinstance(other, dict) or not {str(k).upper() for k in other} <= codes:
        raise InputError(f"{where}: effect_other_taxes maps a country code of the parties to a date")
    other_dates = {str(k).upper(): _date(v, f"{where}: effect_other_taxes {k}") for k, v in other.items()}
    options = raw.get("options") or []
    if not isinstance(options, list) or not set(map(str, options)) <= KNOWN_OPTIONS:
        raise InputError(f"{where}: options is a list of the optional paragraphs both parties apply, of {sorted(KNOWN_OPTIONS)}")
    chosen = frozenset(map(str, options))
    if any(int(o.split("(")[0]) not in articles for o in chosen):
        raise InputError(f"{where}: an option of an article not listed in articles ({sorted(chosen)})")
    return Positions(frozenset(codes), status, reference, frozenset(articles), dates, chosen, other_dates)


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


def positions_for(parties: tuple[str, ...], user_file: str | Path | None = None,
                  stored: dict[frozenset[str], Positions] | None = None) -> Positions | None:
    """The positions for an agreement between `parties`: the user's file first, then those the store
    keeps (`ingest --mli FILE`), then the shipped data."""
    if len(parties) != 2:
        return None
    key = frozenset(parties)
    if user_file is not None:
        found = read_positions(user_file).get(key)
        if found is not None:
            return found
    if stored and key in stored:
        return stored[key]
    return shipped().get(key)


def from_entries(entries: list[dict[str, Any]], name: str) -> dict[frozenset[str], Positions]:
    """Positions from entries in a positions file's shape (as the store keeps them), checked alike."""
    return _positions({"agreements": entries}, name)


@dataclass(frozen=True)
class Applied:
    """The MLI over a compiled convention: its positions, the convention as printed and as modified."""

    positions: Positions
    base: CompiledTreaty
    modified: CompiledTreaty

    def boundaries(self) -> set[dt.date]:
        """The days a decision may change on: each State's dates of effect (the first day the note of
        unknown positions appears, for those)."""
        p = self.positions
        return {*p.effect_withholding.values(), *p.effect_other.values()} if p.status == "known" else {EARLIEST_EFFECT}


def attach(treaty: CompiledTreaty, user_file: str | Path | None = None,
           stored: dict[frozenset[str], Positions] | None = None) -> CompiledTreaty:
    """`treaty` with the MLI positions for its parties (itself when none are known or listed)."""
    positions = positions_for(treaty.parties, user_file, stored)
    return treaty if positions is None else with_positions(treaty, positions)


def with_positions(treaty: CompiledTreaty, positions: Positions) -> CompiledTreaty:
    """`treaty` (as printed: any MLI it carried is set aside) with these positions."""
    base = replace(treaty, mli=None)
    if positions.status == "unknown":  # nothing to modify: the decision only states the assumption
        return replace(treaty, mli=Applied(positions, base, base))
    return replace(treaty, mli=Applied(positions, base, _modified(base, positions)))


def _modified(treaty: CompiledTreaty, positions: Positions) -> CompiledTreaty:
    """`treaty` as the MLI modifies it: its rules, and those of every version of an amended
    convention (each consolidated version, and those built on demand with an undated instrument)."""
    topics = {name: _topic(rules, positions) for name, rules in treaty.topics.items()}
    timeline = treaty.timeline
    if timeline is not None:
        builder = timeline._builder
        timeline = replace(timeline, versions=[replace(v, compiled=_modified(v.compiled, positions)) for v in timeline.versions],
                           _shadows={}, _builder=(lambda index: _modified(builder(index), positions)) if builder else None)
    return replace(treaty, topics=topics, timeline=timeline)


# -- the MLI version of a compiled treaty ---------------------------------------------------------


def _ppt(rule: Rule) -> Rule:
    from taxtreaty.rules.conditions import compile_conditions

    if any(c.kind == "main_purpose" and c.eid.startswith("mli_") for c in rule.caveats):
        return rule
    # every benefit, the residual rate of a list too: where the test bites, the source State taxes under its law
    tests, _ = compile_conditions({"caveats": [{"kind": "main_purpose"}]}, ())
    return replace(rule, conditions=(*rule.conditions, *tests),
                   caveats=(*rule.caveats, Caveat("main_purpose", "mli_art_7__para_1", words("7(1)"), "mli")))


def _holding_period(rule: Rule) -> Rule:
    from taxtreaty.rules.conditions import compile_conditions

    if not any(c.fact in _SHARE_FACTS for c in rule.conditions) or any(c.op == "period" for c in rule.conditions):
        return rule  # not a holding's rate, or the convention sets its own period (MLI 8(1) adds to it: kept simple)
    tests, _ = compile_conditions({"min_holding_days": 365}, ())
    return replace(rule, conditions=(*rule.conditions, *tests),
                   caveats=(*rule.caveats, Caveat("mli_holding_period", "mli_art_8__para_1", words("8(1)"), "mli")))


def _immovable_lookback() -> Caveat:
    """MLI article 9(1) over the convention's own paragraphs on gains: its test of shares deriving their
    value from immovable property is met if met at any time in the 365 days before the alienation (the
    convention's threshold is in its own words: a caveat on every decision on a gain, never a rate)."""
    return Caveat("mli_immovable_lookback", "mli_art_9__para_1", words("9(1)"), "mli")


def _shares_rule(rules: TopicRules) -> Rule:
    """MLI article 9(4): gains from shares or comparable interests that derived more than 50 per cent of
    their value from immovable property in the source State at any time during the 365 days before the
    alienation may be taxed there (in place of, or in the absence of, the convention's own paragraph)."""
    quote = words("9(4)")
    share = str(IMMOVABLE_SHARE)
    conditions = (
        Condition("gain_on_shares", "eq", True, labels.label("conditions", "gain_on_shares"),
                  labels.label("conditions", "gain_not_on_shares")),
        Condition("immovable_value_pct", "gt", IMMOVABLE_SHARE, labels.label("conditions", "immovable_value_gt", value=share),
                  labels.label("conditions", "immovable_value_not_gt", value=share)),
    )
    return Rule(id="mli_art_9__para_4", topic=rules.topic, kind="allocation", status="ok", reason=None, rate=None,
                allocation="source_may_tax", conditions=conditions, notes=(), values={}, state=None,
                cite=Cite("mli_art_9__para_4", words_language(), quote, (0, len(quote)), source="MLI"))


def _gains(rules: TopicRules, positions: Positions) -> TopicRules:
    if "9(4)" not in positions.options or any(r.id == "mli_art_9__para_4" for r in rules.allocations):
        return rules  # 9(1) alone: a caveat on the decision (decide_with_mli)
    return replace(rules, allocations=[_shares_rule(rules), *rules.allocations])


def _topic(rules: TopicRules, positions: Positions) -> TopicRules:
    articles = positions.articles
    if 9 in articles and rules.topic == "capital_gains":
        rules = _gains(rules, positions)

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
            decision.assumptions.append({"fact": "mli", "value": "not applied", "why": words("unknown")})
            _note(decision, positions)
        return decision
    from taxtreaty.rules.tables import tables

    # a gain is taxed by assessment, not withheld at source: article 35(1)(b)'s date where the positions give it
    withheld = tables().income_topics.get(scenario.income) != "capital_gains"
    effect = positions.effect_for(scenario.source, withheld)
    taxes = ("taxes withheld at source" if withheld or scenario.source not in positions.effect_other
             else "other taxes (a gain), for taxable periods beginning on or after that day")
    if scenario.date is None:
        before, after = decide_compiled(base, scenario), decide_compiled(modified, scenario)
        if _outcome(before) == _outcome(after):
            after.reasons.append(f"the MLI modifies this convention from {effect} ({taxes} in "
                                 f"{scenario.source}); the answer is the same before and after")
            if not withheld and 9 in positions.articles and "9(4)" not in positions.options:
                after.add_caveats([_immovable_lookback()])
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
        decision.reasons.append(f"decided on the convention as the MLI modifies it (in effect for {taxes} in "
                                f"{scenario.source} from {effect})")
        if not withheld and 9 in positions.articles and "9(4)" not in positions.options:
            decision.add_caveats([_immovable_lookback()])
    else:
        decision = decide_compiled(base, scenario)
        if effect is not None:
            decision.reasons.append(f"the MLI modifies this convention only for payments from {effect}")
    _note(decision, positions)
    return decision


def _note(decision: Decision, positions: Positions) -> None:
    decision.version = {**(decision.version or {}), "mli": positions.describe()}


__all__ = ["Applied", "Positions", "attach", "decide_with_mli", "from_entries", "positions_for", "read_positions",
           "with_positions"]
