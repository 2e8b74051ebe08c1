"""Conditions of a provision, compiled into tests on a scenario's facts.

Each provision condition key (see `taxtreaty/provisions/model.py`) becomes one or more
`Condition`s: a fact of the scenario, an operator and a value. Evaluation is three-valued:
True, False, or None when the scenario does not give the fact. Facts that only matter in rare
exceptions take the documented default from `data/rules/scenario.yaml` instead of None, and the
evaluation records that it used it, so the decision can list the assumption. A fact that chooses
between rates (the share held, the kind of royalty or loan, the recipient's kind, ...) is never
defaulted: the decision asks for it (`missing_fact`).

Words of a condition the extractor could not read (`unread_condition`) are unknown too, but no
fact answers them: the decision names the words (`Decision.unread`), never a fact to give.

Every comparison on a number or date keeps `fact >= bound` / `fact < bound` buckets constant, so
the ledger can bucket a column by the sorted bounds and decide each bucket once (see `ledger.py`).
The labels are the practitioner's words of `data/rules/labels.yaml`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from taxtreaty.rules import gains, labels
from taxtreaty.rules.facts import fact_schema
from taxtreaty.rules.scenario import Scenario
from taxtreaty.rules.tables import tables
from taxtreaty.vocab import countries, fold

#: condition keys that only describe how to read a fact; they become assumptions, not tests
DESCRIPTIVE_KEYS = {"capital_basis", "holding_direct", "income_subtype_excluded", "income_subtype_apart", *gains.LOOKBACK_KEYS}
#: facts that no scenario key carries; a condition on them is unknown unless it has a default
EXTERNAL_FACTS = {"income_subtype", "arising_in_source"}
#: a strict bound ("more than 25 per cent") is kept constant in the ledger's buckets by a second
#: bound just above it (shares and amounts are never given to more places than this)
_JUST_ABOVE = Decimal("1e-9")
#: facts whose values can be given more precisely (a company may be a bank or a pension fund)
_COARSE_FACTS = {"recipient", "payer"}
#: facts with a documented default elsewhere (the payer, for "subject to article 19") that a rate's own
#: condition never takes by default: it chooses between the rates (issue 12)
_ASKED = {"payer"}
_PUBLIC_PAYERS = ("government", "local_authority")  # the payers of a social security benefit
#: the provision keys of a share held, by how they compare
_SHARE_KEYS = {"min_capital_pct": "ge", "over_capital_pct": "gt", "under_capital_pct": "lt", "max_capital_pct": "le"}


@dataclass(frozen=True, slots=True)
class Condition:
    fact: str
    op: str  # eq | eq_where_resident | eq_where_source | in | in_maybe | ge | gt | lt | le | ge_maybe | period | invested | named | lender_named | not_true | eq_source | in_given | in_assumed | unknown
    value: Any
    label: str
    #: how the test reads when it fails ("the recipient holds less than 25% ...")
    label_not: str = ""

    @property
    def failed_label(self) -> str:
        return self.label_not or self.label

    def evaluate(self, scenario: Scenario, defaults_used: set[str]) -> bool | None:
        op = self.op
        if op == "unknown":
            return None
        if op == "period":
            return _period(scenario, *self.value)
        if op == "invested":
            return _invested(scenario, *self.value)
        if op == "named":
            return _named(scenario, self.value)
        if op == "lender_named":
            return _lender_named(scenario, self.value)
        if op == "guaranteed":
            given = guaranteed(scenario)
            return None if given is None else given == self.value
        if op == "eq_where_source":  # a test of payments from one State only
            if scenario.source != self.value[1]:
                return True
            actual = getattr(scenario, self.fact, None)
            return None if actual is None else bool(actual == self.value[0])
        if op == "eq_where_resident":  # a test of the residents of one State only
            if scenario.residence != self.value[1]:
                return True
            actual = getattr(scenario, self.fact, None)
            return None if actual is None else bool(actual == self.value[0])
        actual = getattr(scenario, self.fact, None)
        if op == "not_true":  # a proviso that bites only when the user says it does
            return actual is not True
        if op == "eq_source":  # a State the user gives, compared with the source State
            return None if actual is None else (actual == scenario.source) == self.value
        if actual is None and op == "in_given":  # a fact that chooses the rule: never defaulted
            return None
        if actual is None and self.fact in _ASKED:
            return None
        if actual is None:
            default = tables().defaults.get(self.fact)
            if default is None:
                return None
            defaults_used.add(self.fact)
            actual = default.value
        if op == "eq":
            return bool(actual == self.value)
        if op in ("in", "in_given"):
            return actual in self.value
        if op == "in_maybe":  # (kinds that satisfy it, kinds that may or may not)
            sure, maybe = self.value
            return True if actual in sure else (None if actual in maybe else False)
        if op == "in_refined":  # the same, and kinds a yes/no fact settles ("a bank wholly owned by its government")
            sure, maybe, refined = self.value
            if actual in sure:
                return True
            settled = [getattr(scenario, key, None) for key, kinds in refined if actual in kinds]
            if True in settled:
                return True
            if None in settled or actual in maybe:
                return None
            return False
        if op == "ge_maybe":  # (certainly met from, possibly met from)
            sure, maybe = self.value
            return True if actual >= sure else (None if actual >= maybe else False)
        if op == "ge":
            return bool(actual >= self.value)
        if op == "gt":
            return bool(actual > self.value)
        if op == "lt":
            return bool(actual < self.value)
        if op == "le":
            return bool(actual <= self.value)
        raise AssertionError(f"unknown operator {op}")  # pragma: no cover

    def missing_fact(self, scenario: Scenario) -> str | None:
        """The scenario key whose absence leaves this test unknown (None: no fact answers it)."""
        if self.op == "unknown":
            return None
        if self.op == "period":
            if scenario.held_days is not None and self.value[0] == "days":
                return None
            # asked in the period's own unit; whole months that leave a period of days open ask the days
            return "held_months" if self.value[0] == "months" else "held_days"
        if self.op == "invested":
            return "invested_amount" if scenario.invested_amount is None else None
        if self.op == "guaranteed":  # the kind of loan first (one answer may settle it), then the guarantee
            return None if guaranteed(scenario) is not None else "loan_kind" if scenario.loan_kind is None else "loan_guaranteed"
        if self.op == "lender_named":
            return "lender_name" if _lender_named(scenario, self.value) is None else None
        if self.op == "named":
            if scenario.recipient is None and scenario.recipient_name is None:
                return "recipient"
            return "recipient_name" if scenario.recipient_name is None else None
        if self.fact not in fact_schema():
            return None
        if self.op == "eq_where_resident" and scenario.residence != self.value[1]:
            return None
        actual = getattr(scenario, self.fact, None)
        if actual is None:
            return self.fact
        # a fact given but too coarse to settle the test ("a company" may be a pension fund) is asked
        # again, more precisely; a value no finer answer exists for ("films", where the text may or may
        # not take films in) leaves the words to be read
        if self.op == "in_refined":
            sure, maybe, refined = self.value
            if actual in sure:
                return None
            for key, kinds in refined:
                if actual in kinds and getattr(scenario, key, None) is None:
                    return key
            return self.fact if actual in maybe else None
        if self.op == "ge_maybe" or (self.op == "in_maybe" and self.fact in _COARSE_FACTS):
            return self.fact
        return None

    @property
    def unread(self) -> bool:
        """Words of the text the engine could not read (no fact answers them)."""
        return self.op == "unknown"

    @property
    def bound(self) -> Any | None:
        """The threshold a ledger column is bucketed on (numbers and dates only)."""
        return self.value if self.op in ("ge", "lt") else None

    @property
    def bounds(self) -> tuple[Any, ...]:
        """Every threshold a ledger column must be split at for this test to be constant
        within a bucket (a three-valued range has two; a strict one, its bound and just above)."""
        if self.op == "ge_maybe":
            return tuple(self.value)
        if self.op == "period":
            unit, count = self.value
            return tuple(_months_range(unit, count))
        if self.op in ("gt", "le"):
            return (self.value, self.value + _JUST_ABOVE)
        return () if self.bound is None else (self.bound,)


#: the shortest and longest calendar month, in days
_MONTH_DAYS = (28, 31)


def _months_range(unit: str, count: int) -> tuple[int, int]:
    """(certainly met from, possibly met from), in whole months, for a period of `count` days or
    months: n months are at least 28n days and less than 31(n+1) days."""
    if unit == "months":
        return count, count
    shortest, longest = _MONTH_DAYS
    return -(-count // shortest), count // longest


def _period(scenario: Scenario, unit: str, count: int) -> bool | None:
    """A holding period ("for an uninterrupted period of two years", "365 days that include the day
    of payment"): the days held when given; else the whole months held, which settle a period of
    days only where no calendar could change the answer (else unknown: the decision asks for the
    days)."""
    if scenario.held_days is not None:
        if unit == "days":
            return scenario.held_days >= count
        # n months back from the payment are between 28n and 31n days
        shortest, longest = _MONTH_DAYS
        if scenario.held_days >= count * longest:
            return True
        return None if scenario.held_days >= count * shortest else False
    if scenario.held_months is None:
        return None
    sure, maybe = _months_range(unit, count)
    return True if scenario.held_months >= sure else (None if scenario.held_months >= maybe else False)


def _invested(scenario: Scenario, amount: Decimal, currency: str, strict: bool) -> bool | None:
    if scenario.invested_amount is None:
        return None
    if scenario.invested_currency != currency:
        return None  # no exchange rate is assumed: the reasons say so
    return scenario.invested_amount > amount if strict else scenario.invested_amount >= amount


def guaranteed(scenario: Scenario) -> bool | None:
    """Whether the loan is guaranteed, insured or financed by a government: `loan_guaranteed` when given, else a
    loan given as of kind `government_guaranteed` is, and "another debt-claim" (`other`: none of the kinds the
    choices name) is not; unknown for a bank loan, a sale on credit, bonds or public works, which may be guaranteed
    too (a bank's loan under a government guarantee is both)."""
    if scenario.loan_guaranteed is not None:
        return bool(scenario.loan_guaranteed)
    return {"government_guaranteed": True, "other": False}.get(str(scenario.loan_kind))


def _name_key(name: str) -> str:
    words = [w for w in "".join(c if c.isalnum() else " " for c in fold(name)).split() if w not in ("the", "of")]
    return " ".join(words)


def _named(scenario: Scenario, names: tuple[str, ...]) -> bool | None:
    """The recipient is one of the institutions a list names: by its name when given (the name as the
    user knows it is found in the printed one, or the other way round). A recipient said to be "an
    institution the treaty names" without its name may be another institution than these (the treaty
    may name several, in other articles): unknown, and the decision asks its name; a central bank may be
    one too (asked the same way)."""
    if scenario.recipient_name is not None:
        return _name_in(scenario.recipient_name, names)
    if scenario.recipient == "named_institution" and not names:
        return True  # a list of no name: any institution the treaty names
    if scenario.recipient in ("named_institution", "central_bank", "bank", "financial_institution", "government_owned") \
            or scenario.recipient is None:
        return None
    return False


#: recipients that may be the institution a lender's clause names (an export-credit body: a government's own)
_INSTITUTION_KINDS = (None, "named_institution", "government", "government_owned", "central_bank", "local_authority")


def _lender_named(scenario: Scenario, names: tuple[str, ...]) -> bool | None:
    """The loan is made, guaranteed or insured by an institution a clause names (`lender_names`), by the name
    given (`lender_name`); else a loan no government body guarantees (`guaranteed`) to a recipient that is no
    public body is none of theirs (they are a State's export-credit bodies); else unknown (the name is asked)."""
    if scenario.lender_name is not None:
        return _name_in(scenario.lender_name, names)
    if guaranteed(scenario) is False and scenario.recipient not in _INSTITUTION_KINDS:
        return False
    return None


def _name_in(name: str, names: tuple[str, ...]) -> bool:
    """The name as the user knows it is found in one of the printed ones, or the other way round."""
    given = _name_key(name)
    keys = [_name_key(n) for n in names]
    return any(given and (f" {given} " in f" {k} " or f" {k} " in f" {given} ") for k in keys)


def _next_day(value: Any) -> dt.date:
    return _as_date(value) + dt.timedelta(days=1)


def _as_date(value: Any) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


#: tests whose failure reads as another test's label
_OPPOSITES = {"share_ge": "share_lt", "share_lt": "share_ge", "share_gt": "share_le", "share_le": "share_gt",
              "beneficial_owner": "not_beneficial_owner", "not_beneficial_owner": "beneficial_owner",
              "pe_connected": "not_pe_connected", "not_pe_connected": "pe_connected",
              "guaranteed_by_government": "not_guaranteed_by_government",
              "not_guaranteed_by_government": "guaranteed_by_government",
              "recipient_subject_to_tax": "recipient_not_subject_to_tax",
              "recipient_not_subject_to_tax": "recipient_subject_to_tax",
              "paid_by_property_vehicle": "not_paid_by_property_vehicle",
              "not_paid_by_property_vehicle": "paid_by_property_vehicle",
              "dividends_franked": "dividends_not_franked", "dividends_not_franked": "dividends_franked",
              "institution_in_notes": "institution_not_in_notes", "institution_not_in_notes": "institution_in_notes",
              "payer_deducts_dividends": "not_payer_deducts_dividends", "not_payer_deducts_dividends": "payer_deducts_dividends",
              "paid_by_nro_investment_corporation": "not_paid_by_nro_investment_corporation",
              "not_paid_by_nro_investment_corporation": "paid_by_nro_investment_corporation",
              "payer_listed": "payer_not_listed", "payer_not_listed": "payer_listed", "annuity": "not_annuity",
              "payment_periodic": "payment_not_periodic", "payment_not_periodic": "payment_periodic", "not_annuity": "annuity",
              "fee_contingent_on_results": "fee_not_contingent_on_results",
              "fee_not_contingent_on_results": "fee_contingent_on_results",
              "interest_profit_sharing": "interest_not_profit_sharing", "interest_not_profit_sharing": "interest_profit_sharing",
              "similar_to_pe_activity": "not_similar_to_pe_activity", "not_similar_to_pe_activity": "similar_to_pe_activity"}
#: yes/no facts a provision's condition of the same key tests as they are (its labels: the key and its opposite)
_YES_NO_FACTS = frozenset({"paid_by_property_vehicle", "dividends_franked", "payer_deducts_dividends", "payment_periodic",
                           "annuity", "institution_in_notes", "payer_listed", "fee_contingent_on_results",
                           "interest_profit_sharing", "similar_to_pe_activity"})


def _test(fact: str, op: str, operand: Any, key: str, **words: Any) -> Condition:
    """A test with its label and the label of its failure, from labels.yaml."""
    opposite = _OPPOSITES.get(key, f"{key}_not")
    label_not = labels.label("conditions", opposite, **words) if labels.has("conditions", opposite) else ""
    return Condition(fact, op, operand, labels.label("conditions", key, **words), label_not)


def _kind_test(fact: str, kinds: Iterable[str], label: str, label_not: str = "") -> Condition:
    """A test on the recipient's (payer's) kind. Kinds the scenario vocabulary has are matched
    exactly, with the kinds that certainly are one (a bank is a company); the kinds that may be
    one are *unknown* (a company may or may not be a pension fund), never silently true; where a
    yes/no fact settles it (a bank may be wholly owned by its government), that fact is asked."""
    table = tables()
    vocabulary = set(table.recipient_kinds) | set(table.payer_kinds)
    sure: set[str] = set()
    maybe: set[str] = set()
    refined: dict[str, set[str]] = {}
    for kind in kinds:
        if kind in vocabulary:
            sure.add(kind)
        sure.update(table.recipient_equivalents.get(kind, ()))
        maybe.update(table.recipient_aliases.get(kind, ()))
        if fact == "recipient" and kind in table.recipient_refinements:
            key, which = table.recipient_refinements[kind]
            refined.setdefault(key, set()).update(which)
    maybe -= sure
    if refined:
        settled = tuple((key, frozenset(k - sure)) for key, k in sorted(refined.items()))
        maybe -= {k for _, ks in settled for k in ks}
        return Condition(fact, "in_refined", (frozenset(sure), frozenset(maybe), settled), label, label_not)
    if maybe:
        return Condition(fact, "in_maybe", (frozenset(sure), frozenset(maybe)), label, label_not)
    return Condition(fact, "in", frozenset(sure), label, label_not)


def _kinds(fact: str, kinds: list[str]) -> Condition:
    words = labels.kinds(kinds)
    return _kind_test(fact, kinds, labels.label("conditions", fact, kinds=words), labels.label("conditions", f"{fact}_not", kinds=words))


def _share(key: str, value: Any, basis: str | None) -> Condition:
    op = _SHARE_KEYS[key]
    fact = "voting_pct" if basis == "voting_power" else "capital_pct"
    words = labels.label("bases", basis or "capital")
    number = Decimal(str(value))
    return _test(fact, op, number, f"share_{op}", value=f"{number.normalize():f}", basis=words)


def _not_subtype(excluded: list[str], topic: str | None) -> Condition | None:
    """A rule for an income other than the kinds an article of their own governs ("ARTICLE 12A FEES FOR
    TECHNICAL SERVICES" beside article 12): the scenario fact that tells the kind must be one of the
    others. That fact is never defaulted, so a payment whose kind is not given is asked about. None when
    no fact of this income tells those kinds (the rule stays as it was)."""
    found = [m for k in excluded if (m := labels.subtype_facts().get(k)) is not None and not (m.topics and topic not in m.topics)]
    if not found or len({m.fact for m in found}) > 1:
        return None
    fact = found[0].fact
    out = {v for m in found for v in m.values}
    others = frozenset(v for v in fact_schema().choices(fact) if v not in out)
    words = labels.kinds(sorted(out))
    return Condition(fact, "in", others, labels.label("conditions", f"{fact}_not", kinds=words),
                     labels.label("conditions", fact, kinds=words))


def _apart(kinds: list[str] | None, fact: str, topic: str | None) -> set[str]:
    """The values of `fact` the article's definition names apart from a clause's kind (`income_subtype_apart`)."""
    found = [labels.subtype_facts().get(str(k)) for k in kinds or ()]
    return {v for m in found if m is not None and m.fact == fact and not (m.topics and topic not in m.topics) for v in m.values}


def _subtype(value: str | list[str], topic: str | None, excluded: list[str] | None = None,
             apart: list[str] | None = None) -> Condition:
    """A rule for a special kind of income: the scenario fact that tells it (royalty_kind, loan_kind),
    never defaulted; a kind no fact tells keeps the documented default (the rule does not apply).
    A rule for any of several kinds ("patents, trade marks ... or technical assistance") tests the one
    fact their kinds share for any of their values; a kind of the list no fact of this income tells
    is left out of the test (the user cannot state it). Kinds the words leave out (`excluded`: "but
    not films") satisfy it neither surely nor maybe."""
    kinds = [value] if isinstance(value, str) else [str(v) for v in value]
    facts = labels.subtype_facts()

    def told(names: list[str]) -> list[labels.SubtypeFact]:
        found = [facts.get(k) for k in names]
        return [m for m in found if m is not None and not (m.topics and topic not in m.topics)]

    mapped = told(kinds)
    if not mapped or len({m.fact for m in mapped}) > 1:
        first = kinds[0]
        return _test("income_subtype", "eq", first, "income_subtype", value=first.replace("_", " "))
    fact = mapped[0].fact
    out = {v for m in told(list(excluded or ())) if m.fact == fact for v in m.values}
    values = [v for v in dict.fromkeys(v for m in mapped for v in m.values) if v not in out]
    # a kind the definition names apart ("películas cinematográficas" in an item of its own) is not one the
    # clause's kind may be
    away = _apart(apart, fact, topic)
    maybe = [v for v in dict.fromkeys(v for m in mapped for v in m.maybe)
             if v not in values and v not in out and v not in away]
    words = labels.kinds(values or maybe)
    if maybe:
        return _test(fact, "in_maybe", (frozenset(values), frozenset(maybe)), fact, kinds=words)
    return _test(fact, "in", frozenset(values), fact, kinds=words)


def _subtype_not(value: str, topic: str | None, apart: list[str] | None = None) -> Condition | None:
    """The rate of a paragraph for every kind but one ("all other cases", when a protocol point
    restricts it for copyright royalties only): the kinds its fact surely tells apart hold, the kinds
    that may be that one ("maybe": films may be copyright) stay open. None when no fact tells the kind."""
    found = labels.subtype_facts().get(value)
    if found is None or (found.topics and topic not in found.topics) or found.fact not in fact_schema():
        return None
    choices = list(fact_schema()[found.fact].choices)
    away = _apart(apart, found.fact, topic)  # named apart from that one: surely not of it
    held = [v for v in choices if v not in found.values and (v not in found.maybe or v in away)]
    maybe = [v for v in found.maybe if v in choices and v not in away]
    words = labels.kinds(held)
    if maybe:
        return _test(found.fact, "in_maybe", (frozenset(held), frozenset(maybe)), found.fact, kinds=words)
    return _test(found.fact, "in", frozenset(held), found.fact, kinds=words)


def _bool_test(fact: str, value: Any, yes: str, no: str) -> Condition:
    return _test(fact, "eq", bool(value), yes if value else no)


def compile_conditions(conditions: dict[str, Any], parties: tuple[str, ...],
                       topic: str | None = None) -> tuple[list[Condition], list[str]]:
    """Provision conditions -> (tests, descriptive notes). Unknown keys become unknown tests."""
    tests: list[Condition] = []
    notes: list[str] = []
    words = labels.label
    basis = conditions.get("capital_basis")
    for key, value in conditions.items():
        if key in DESCRIPTIVE_KEYS:
            if key == "holding_direct" and value:
                notes.append("holding_direct")
            elif key == "income_subtype_excluded" and "income_subtype" not in conditions:
                test = _not_subtype([str(v) for v in value], topic)
                if test is not None:
                    tests.append(test)
            continue
        if key == "otherwise":
            if value:
                notes.append("otherwise")  # the residual cap of a list: no test of its own
            continue
        if key == "caveats":
            # the residual rate of a list is what applies when a proviso withdraws the others' benefit
            if not conditions.get("otherwise") and any(c.get("kind") == "main_purpose" for c in value):
                tests.append(_test("main_purpose", "not_true", True, "main_purpose"))
            continue  # the words of a proviso: listed by the decision (compile.Rule.caveats)
        if key == "beneficial_owner":
            tests.append(_bool_test("beneficial_owner", value, "beneficial_owner", "not_beneficial_owner"))
        elif key == "recipient":
            if value != "any":
                tests.append(_kinds("recipient", [value]))
        elif key == "recipient_kinds":
            tests.append(_kinds("recipient", list(value)))
        elif key == "recipient_names":
            names = tuple(str(v) for v in value)
            tests.append(_test("recipient", "named", names, "recipient_names", names="; ".join(names)))
        elif key == "lender_names":
            names = tuple(str(v) for v in value)
            tests.append(_test("lender_name", "lender_named", names, "lender_names", names="; ".join(names)))
        elif key == "payer_kinds":
            tests.append(_kinds("payer", list(value)))
        elif key in _SHARE_KEYS:  # in a capital gains article, the alienator's participation in the company
            tests.append(gains.participation_test(key, value, conditions) if topic == "capital_gains" else _share(key, value, basis))
        elif key in gains.GAIN_KEYS:
            tests.append(gains.gain_test(key, value, conditions))
        elif key == "min_holding_months":
            tests.append(_test("held_months", "period", ("months", int(value)), "held_months", value=int(value)))
        elif key == "min_holding_days":
            tests.append(_test("held_months", "period", ("days", int(value)), "held_days", value=int(value)))
        elif key in ("min_invested", "over_invested"):
            amount, currency = Decimal(str(value["amount"])), str(value["currency"])
            strict = key == "over_invested"
            tests.append(_test("invested_amount", "invested", (amount, currency, strict),
                               "invested_gt" if strict else "invested_ge", value=f"{amount:,f}", currency=currency))
        elif key in ("paid_after", "paid_from", "paid_until"):
            day = _as_date(value)
            op, bound = ("lt", _next_day(value)) if key == "paid_until" else ("ge", _next_day(value) if key == "paid_after" else day)
            tests.append(_test("date", op, bound, key, date=day.isoformat()))
        elif key in ("source_state", "residence_state"):
            fact = key.removesuffix("_state")
            code = _placeholder_state(str(value), parties)
            if code is None:
                tests.append(Condition(fact, "unknown", value, words("conditions", "state_unknown", state=str(value).replace("_", " "))))
            else:
                name = (countries().get(code) or (code,))[0]
                tests.append(_test(fact, "eq", code, key, state=name))
        elif key == "pe_connected":
            tests.append(_bool_test("pe_connected", value, "pe_connected", "not_pe_connected"))
        elif key == "guaranteed_by_government":
            # a loan guaranteed, insured or financed by a government: a kind of loan the user states
            # (`loan_kind`), never assumed either way where the text makes the answer turn on it
            # (`loan_guaranteed`, or `loan_kind: government_guaranteed`): a bank loan or a sale on credit may be
            # guaranteed too, so another kind of loan does not answer it
            yes = bool(value)
            tests.append(_test("loan_guaranteed", "guaranteed", yes,
                               "guaranteed_by_government" if yes else "not_guaranteed_by_government"))
        elif key == "loan_kinds":
            kinds = [str(v) for v in value]
            tests.append(_test("loan_kind", "in", frozenset(kinds), "loan_kind", kinds=labels.kinds(kinds)))
        elif key in ("loan_term_over_years", "loan_term_min_years"):
            strict = key == "loan_term_over_years"
            years = Decimal(str(value))
            tests.append(_test("loan_term_years", "gt" if strict else "ge", years,
                               "loan_term_gt" if strict else "loan_term_ge", value=f"{years.normalize():f}"))
        elif key == "income_subtype_not":
            test = _subtype_not(str(value), topic, conditions.get("income_subtype_apart"))
            if test is not None:
                tests.append(test)
        elif key == "income_subtype":
            tests.append(_subtype(value if isinstance(value, list) else str(value), topic,
                                  conditions.get("income_subtype_excluded"), conditions.get("income_subtype_apart")))
        elif key == "recipient_subject_to_tax":
            test = _bool_test(key, value, "recipient_subject_to_tax", "recipient_not_subject_to_tax")
            where = _placeholder_state(str(conditions.get("recipient_taxed_state") or ""), parties)
            if where is not None:
                # "if the company which is a resident of the Netherlands suffers Netherlands company tax":
                # a test of recipients resident in that State only
                name = (countries().get(where) or (where,))[0]
                test = Condition(key, "eq_where_resident", (bool(value), where), f"{test.label} (a resident of {name})",
                                 f"{test.failed_label} (a resident of {name})")
            tests.append(test)
        elif key in _YES_NO_FACTS:
            tests.append(_bool_test(key, value, key, _OPPOSITES[key]))
        elif key == "paid_by_nro_investment_corporation":
            test = _bool_test(key, value, "paid_by_nro_investment_corporation", "not_paid_by_nro_investment_corporation")
            where = _placeholder_state(str(conditions.get("nro_payer_state") or ""), parties)
            if where is not None:
                # "... a non-resident-owned investment corporation that is a resident of Canada": a test of
                # dividends paid from that State only (a company of the other State is never one)
                name = (countries().get(where) or (where,))[0]
                test = Condition(key, "eq_where_source", (bool(value), where), f"{test.label} (paid from {name})",
                                 f"{test.failed_label} (paid from {name})")
            tests.append(test)
        elif key in ("nro_payer_state", "recipient_taxed_state"):
            continue  # read with paid_by_nro_investment_corporation, recipient_subject_to_tax
        elif key == "social_security" and value:
            # paid under a State's social security system: by a public body of that State
            # (the payer is asked, not defaulted: it chooses between the pension rules)
            tests.append(_test("payer", "in_given", frozenset(_PUBLIC_PAYERS), "social_security"))
        elif key == "employment_in_source" and value:
            tests.append(_test("employment_state", "eq_source", True, "employment_in_source"))
        elif key == "arising_in_source" and value:
            # the source State is where the income arises (a documented default, listed as an assumption)
            tests.append(_test("arising_in_source", "eq", True, "arising_in_source"))
        elif key == "unread_condition":
            # words of a condition the extractor could not turn into data: never assumed met
            tests.append(Condition(key, "unknown", value, words("conditions", "unread", words=value)))
        else:
            tests.append(Condition(key, "unknown", value, words("conditions", "unread", words=f"{key} = {value}")))
    return tests, notes


def _placeholder_state(value: str, parties: tuple[str, ...]) -> str | None:
    if value == "first_state":
        return parties[0] if len(parties) == 2 else None
    if value == "second_state":
        return parties[1] if len(parties) == 2 else None
    return value.upper() if len(value) == 2 else None


def condition_words(conditions: dict[str, Any], parties: tuple[str, ...] = (), topic: str | None = None) -> list[str]:
    """A provision's conditions as a practitioner reads them (labels.yaml), in the order written.

    The one describer of every listing of provisions (CLI table, web reader, comparison), so no
    raw key such as `partnership_excluded_company=True` reaches a reader.
    """
    if len(parties) != 2:
        parties = (labels.label("conditions", "first_state"), labels.label("conditions", "second_state"))
    tests, notes = compile_conditions(conditions, parties, topic)
    return [t.label for t in tests] + [labels.label("conditions", n) for n in notes if labels.has("conditions", n)]
