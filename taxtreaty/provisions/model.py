"""What a treaty decides, as data: each provision tied to the exact words it comes from.

This module is the contract between the extractor (`taxtreaty.provisions.extract`), the rules
engine, the store and the interfaces. Keep names and values stable; document any addition in
docs/provisions.md.

Rates are `Decimal` percentages (10 per cent -> Decimal("10")). Dates are ISO `date`s.

Condition keys (all optional; a provision applies when *all* of its conditions hold)
- beneficial_owner: bool         the recipient must be the beneficial owner
- recipient: str                 recipient kind: individual | company | partnership_excluded_company |
                                 government | local_authority | central_bank | named_institution |
                                 bank | pension_fund | any
- recipient_kinds: list[str]     the recipient is any of these kinds (exemption lists)
- recipient_names: list[str]     named institutions, as printed ("the People's Bank of China")
- lender_names: list[str]        the institutions a loan must be made, guaranteed or insured by, as printed ("the Export
                                 Development Corporation of Canada"; scenario fact lender_name): lenders, not recipients
- payer_kinds: list[str]         the payer (debtor) is any of these kinds
- min_capital_pct: Decimal       recipient holds at least this share of the payer
- capital_basis: str             what the share is of: capital | voting_power | shares
- holding_direct: bool           the holding must be direct
- min_holding_months: int        uninterrupted holding period before payment
- min_holding_days: int          the same, where the text counts it in days ("365 days")
- paid_after: date               payment date strictly after this day ("paid after 31 December 1996")
- paid_from: date                payment date on or after this day ("a partir del 1 de enero de 1997")
- paid_until: date               payment date on or before this day ("hasta el 31 de diciembre de 1996")
- source_state / residence_state: str   ISO codes when a cap depends on the direction of payment
- income_subtype: str | [str]    e.g. bank_loan, equipment_rental, technical_services, copyright; a list when
                                 the clause names several kinds (any of them)
- income_subtype_excluded: [str] kinds the clause names as left out ("no están incluidas ... las películas")
- institution_in_notes: bool     the loan is made, guaranteed or insured by an institution specified in notes the
                                 competent authorities exchanged (not printed in the text: the user says)
- income_subtype_apart: [str]    kinds the article's definition names apart from the clause's kind (films,
                                 software beside "a copyright of literary ... work"): they are not of it
- income_subtype_not: str        every kind but this one: the rate as it stands for the kinds a protocol point
                                 does not restrict ("con respecto al uso de un derecho de autor ..., sólo procederá si")
- dividends_franked: bool        Australian franked dividends ("en la medida que éstos se encuentren exentos (franked)")
- otherwise: bool                "in all other cases": the residual cap of a list
- guaranteed_by_government: bool interest on loans guaranteed or financed by the other State
- annuity: bool                  true: the rule is for annuities only ("Las anualidades ... no podrá exceder del 15 por
                                 ciento"), not for pensions (pensions 18(3))
- payment_periodic: bool         false: the rule is for payments that are not periodic, lump sums (pensions 18(2))
- social_security: bool          the payment is made under a State's social security system
- employment_in_source: bool     the past employment a pension rewards was exercised in the source State
- arising_in_source: bool        other income arising in the source State ("arising in the other Contracting State")
- pe_connected: bool             the income is effectively connected with a permanent establishment
                                 or fixed base in the source State (article 10(4)/11(4)/12(4) switch,
                                 or the PE part of article 7(1))
- similar_to_pe_activity: bool    business profits of sales or activities like a permanent establishment's (the
                                 limited force of attraction of article 7(1)(b)-(c))
- interest_profit_sharing: bool   interest on profit-sharing bonds (true: a point's switch to the dividend article,
                                 values.reclassified_topic)
- fee_contingent_on_results: bool  a fee for technical services computed on production, sales, performance or
                                 profits (false: the protocol point's allocation of other fees to the profits articles)
- unread_condition: str          the exact words (cleaned text: page furniture out, hyphenation joined)
                                 of a condition the clause that selects this rate or exemption states
                                 but no other key holds ("provided that the shares ... are regularly
                                 traded on a recognised stock exchange"); several are joined by " … ".
                                 Never assumed met: the rules engine answers indeterminate, citing them.
                                 See `taxtreaty.provisions.unread`.

Payer and recipient kinds (`recipient_kinds`, `payer_kinds`): government | local_authority |
central_bank | bank | financial_institution | pension_fund | named_institution (then `recipient_names` / `payer_names`
hold the names as printed, whitespace collapsed). A State named as payer or recipient ("the
State of Estonia", "o Estado Português", "el Estado español") is `government`.

Values (`Provision.values`), by kind
- withholding_cap: {"base": "gross_amount"} or {"base": "adjusted_amount"} when the text says
  what the rate applies to (empty when it does not say)
- allocation: {"refer_to": ["7", "14"]} with conditions {"pe_connected": true} for the PE switch
  ("In such case the provisions of Article 7 or Article 14 shall apply"); {"prevails_over":
  "any_other_provision"} for a bare "notwithstanding any other provision of this Convention"
- threshold: any of {"days", "period_months", "months", "years", "amount", "currency"}; one
  sentence's figures form one threshold ({"days": 30, "period_months": 12}; {"years": 2,
  "amount": 9000, "currency": "USD"}); amounts are whole units of the currency
- exemption (students, teachers; allocation exempt_in_host): the same figure keys as threshold
- relief_method: {"method": "credit", "limit": "ordinary"} | {"method": "exemption"} |
  {"method": "exemption", "progression": true} (an exemption and a paragraph keeping the exempt
  income for the rate) | {"method": "exemption_with_progression", "progression": true,
  "computed_as": "reduction_of_tax"} (the Dutch method: "shall allow a reduction of its tax", a
  part of the tax "which bears the same proportion"); the rules engine names both
  `exemption_with_progression`; `state` is the State that gives the relief
- time_limit: {"years": 3, "event": "mutual_agreement_case"} (or "months"/"days")
- date: {"event": "entry_into_force", "days_after": 30, "after": "last_notification"} or
  {"event": "entry_into_force", "date": "2011-09-27"}; {"event": "effect", "from":
  "january_1_of_year_after_entry_into_force" | "january_1" | "month_1_of_year_after_entry_into_force" (with
  "month": "the first day of April next following the calendar year")};
  termination (final clauses): {"event": "termination_notice"} with any of "months_before_year_end"
  (6: "at least six months before the end of any calendar year"), "by" ("06-30": "até ao dia 30 de
  Junho de qualquer ano civil", "on or before the thirtieth day of June"),
  "years_after_entry_into_force" (5: notice only after that period); {"event": "termination_effect",
  "from": "january_1_of_year_after_notice"} ("for taxable years beginning after the end of the
  calendar year in which the notice is given")
- anti_abuse: {"test": "principal_purpose" | "limitation_on_benefits" | "conduit"}
- prevailing_language: {"language": "pt"}; cite eid "final_clause"

`overrides` lists the eIds of the paragraphs or items this provision prevails over
("Notwithstanding paragraph 1" -> ["art_8__para_1"]; "Notwithstanding subparagraph a) of paragraph
2", "Não obstante o disposto na alínea a) do n.º 2", "No obstante lo dispuesto en el apartado a) del
párrafo 2" -> ["art_10__para_2__point_a"]; an item named without its paragraph is looked up in the
article); ["*"] means any other provision of the convention. Caps and exemptions carry it from their
own sentence or from the introduction of the list they are an item of.
`state` is the one State a one-sided provision speaks of (ISO code), e.g. the source State of a
cap that depends on the direction of payment, or the State giving a relief.

Allocation values (`Provision.allocation`)
- residence_only          only the residence State may tax ("shall be taxable only in that State")
- effective_management_only   only the State of the place of effective management
- source_may_tax          shared: the source State may tax too ("may be taxed in the other State")
- residence_may_tax       the residence State may tax, not exclusively ("pensiones ... pagadas ... a un residente
                          ... pueden someterse a imposición en ese Estado"): the source State keeps its right
- paying_state_only       only the State that pays (government service, public pensions)
- source_only             only the source State
- exempt_in_host          the host State exempts (students, teachers)
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ProvisionKind = Literal[
    "withholding_cap", "exemption", "allocation", "threshold", "relief_method", "time_limit", "date", "anti_abuse",
    "prevailing_language",
]
Status = Literal["determined", "unknown"]
Allocation = Literal[
    "residence_only", "effective_management_only", "source_may_tax", "paying_state_only", "source_only",
    "exempt_in_host", "residence_may_tax",
]


class Citation(BaseModel):
    """Where a fact comes from: the eId, the exact source words and their span in the original file.

    `quote == document.original[span[0]:span[1]]` always holds (the extractor guarantees it), so a
    user can find the words in the file they gave.
    """

    model_config = ConfigDict(extra="forbid")

    language: str
    eid: str
    quote: str
    span: tuple[int, int]


class Provision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    #: stable id within a document: "<language>:<eid>:<kind>:<n>"
    id: str
    topic: str
    kind: ProvisionKind
    status: Status = "determined"
    #: why the value is unknown ("article 10(2) announces the rates but its list items are missing")
    reason: str | None = None
    rate_pct: Decimal | None = None
    allocation: Allocation | None = None
    #: thresholds, periods, amounts: {"days": 183, "period_months": 12}, {"amount": 9000, "currency": "USD"},
    #: {"years": 3}, {"method": "credit"}, {"date": "2011-09-27"}, ...
    values: dict[str, Any] = Field(default_factory=dict)
    conditions: dict[str, Any] = Field(default_factory=dict)
    #: the State the provision speaks of, when it is one-sided ("In Portugal, ..."): ISO code or
    #: "first_state"/"second_state" placeholders when the parties are not known
    state: str | None = None
    #: paragraphs that override this one ("notwithstanding paragraph 2") or that it is subject to
    overrides: list[str] = Field(default_factory=list)
    cite: Citation


class Divergence(BaseModel):
    """A figure that differs between two language versions of the same paragraph."""

    model_config = ConfigDict(extra="forbid")

    eid: str
    what: str  # rate | days | amount | date | reference | ...
    values: dict[str, Any]  # {"pt": "10", "en": "15"}
    cites: list[Citation]
    prevailing_language: str | None
    message: str


class ProvisionSet(BaseModel):
    """`taxtreaty provisions --json` output."""

    model_config = ConfigDict(extra="forbid")

    parties: list[str] = Field(default_factory=list)
    provisions: list[Provision] = Field(default_factory=list)
    divergences: list[Divergence] = Field(default_factory=list)
    warnings: list[dict[str, Any]] = Field(default_factory=list)

    def find(self, topic: str | None = None, kind: str | None = None, language: str | None = None) -> list[Provision]:
        return [
            p for p in self.provisions
            if (topic is None or p.topic == topic)
            and (kind is None or p.kind == kind)
            and (language is None or p.cite.language == language)
        ]


def parse_date(value: Any) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))


__all__ = ["Allocation", "Citation", "Decimal", "Divergence", "Provision", "ProvisionKind", "ProvisionSet", "Status"]
