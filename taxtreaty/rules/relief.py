"""Relief in the residence State, in exact integer arithmetic (minor units of money).

- Ordinary credit: the residence State deducts the tax paid in the source State, but not more
  than the part of its own tax, computed before the deduction, that is attributable to that
  income. DOMAIN.md: income 1,000 taxed 100 at source, residence tax on it 280 -> credit 100;
  residence tax 60 -> credit 60.
- Exemption with progression: the exempt income is left out of the tax base but still counts
  to find the rate applied to the rest of the income.

Every result carries the article it rests on, taken from the decision that chose the method.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from taxtreaty.text import InputError


@dataclass(frozen=True, slots=True)
class CreditRelief:
    foreign_tax_minor: int
    residence_tax_on_income_minor: int
    credit_minor: int
    capped: bool
    cite: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": "credit", "foreign_tax": self.foreign_tax_minor,
            "residence_tax_before_credit": self.residence_tax_on_income_minor,
            "credit": self.credit_minor, "capped": self.capped, **self.cite,
        }


def _check_money(**amounts: int) -> None:
    for name, value in amounts.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InputError(f"relief: {name} must be a non-negative whole number of minor units (got {value!r})")


def attributable_tax(total_tax_minor: int, income_minor: int, total_income_minor: int) -> int:
    """The part of the residence tax (before credit) attributable to one item of income: the
    tax in proportion to that income's share of the total, rounded down."""
    _check_money(total_tax_minor=total_tax_minor, income_minor=income_minor, total_income_minor=total_income_minor)
    if total_income_minor == 0 or income_minor > total_income_minor:
        raise InputError("relief: the income must be part of a positive total income")
    return total_tax_minor * income_minor // total_income_minor


def ordinary_credit(foreign_tax_minor: int, residence_tax_on_income_minor: int, cite: dict[str, Any] | None = None) -> CreditRelief:
    """Credit = min(foreign tax, residence tax before credit attributable to that income)."""
    _check_money(foreign_tax_minor=foreign_tax_minor, residence_tax_on_income_minor=residence_tax_on_income_minor)
    credit = min(foreign_tax_minor, residence_tax_on_income_minor)
    return CreditRelief(foreign_tax_minor, residence_tax_on_income_minor, credit, credit < foreign_tax_minor, dict(cite or {}))


def exemption_with_progression(
    other_income_minor: int, exempt_income_minor: int, tax_on: Callable[[int], int], cite: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Tax on the non-exempt income at the average rate that the whole income would bear.

    `tax_on(income_minor) -> tax_minor` is the residence State's own schedule.
    """
    _check_money(other_income_minor=other_income_minor, exempt_income_minor=exempt_income_minor)
    total = other_income_minor + exempt_income_minor
    if total == 0:
        return {"method": "exemption_with_progression", "tax": 0, "rate_pct": "0", **(cite or {})}
    tax_total = tax_on(total)
    rate = Decimal(tax_total) / Decimal(total)
    tax = int((rate * other_income_minor).to_integral_value(rounding=ROUND_FLOOR))
    return {
        "method": "exemption_with_progression", "tax": tax,
        "rate_pct": str((rate * 100).quantize(Decimal("0.0001"))), "without_progression": tax_on(other_income_minor),
        **(cite or {}),
    }


def credit_for_decision(decision: Any, foreign_tax_minor: int, residence_tax_on_income_minor: int) -> dict[str, Any]:
    """Compute the credit a decision's relief article gives (its method must be a credit)."""
    relief = getattr(decision, "relief", None) or {}
    method = str(relief.get("method", ""))
    if not method.startswith("credit"):
        raise InputError(f"relief: the decision's relief method is {method or 'unknown'!r}, not a credit")
    cite = {k: relief[k] for k in ("article", "eid", "language", "quote") if k in relief}
    return ordinary_credit(foreign_tax_minor, residence_tax_on_income_minor, cite).to_dict()
