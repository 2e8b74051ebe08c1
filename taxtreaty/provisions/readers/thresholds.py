"""Thresholds: the periods and sums of money a provision turns on ("183 days in any twelve-month
period", "USD 9,000"), one `threshold` provision per group of figures of a sentence."""

from __future__ import annotations

from typing import Any

from taxtreaty.provisions import figures
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.reading import Emitted, Reading, number
from taxtreaty.provisions.vocabulary import Phrases


def read_thresholds(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """Every group of periods and sums in the sentences of one paragraph's units."""
    out = Emitted(reading)
    for unit in units:
        for s_start, s_end in unit.sentences():
            sentence = unit.folded[s_start:s_end]
            for values in figure_groups(sentence, ph):
                out.add(unit, "threshold", reading.cite(unit, s_start, s_end), values=values)
    return out


def figure_values(sentence: str, ph: Phrases) -> dict[str, Any]:
    groups = figure_groups(sentence, ph)
    return groups[0] if groups else {}


def figure_groups(sentence: str, ph: Phrases) -> list[dict[str, Any]]:
    """The periods and sums of one sentence, as values: a unit seen twice starts a new group;
    "30 days in any 12 months" is one group {"days": 30, "period_months": 12}."""
    groups: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    items: list[tuple[int, str, Any, Any]] = []
    durations = figures.find_durations(sentence, ph)
    for i, d in enumerate(durations):
        items.append((d.start, d.unit, d, durations[i - 1] if i else None))
    for a in figures.find_amounts(sentence, ph):
        items.append((a.start, "amount", a, None))
    items.sort(key=lambda t: t[0])
    for _, unit_name, fig, previous in items:
        if unit_name == "months" and previous is not None and previous.unit == "days" and "days" in current \
                and "period_months" not in current:
            between = sentence[previous.end : fig.start]
            if ph.find("period_words", between) is not None and len(between) < 40:
                current["period_months"] = number(fig.value)
                continue
        key = unit_name if unit_name != "amount" else "amount"
        if key in current:
            groups.append(current)
            current = {}
        if unit_name == "amount":
            current["amount"] = number(fig.value)
            current["currency"] = fig.currency
        else:
            current[unit_name] = number(fig.value)
    if current:
        groups.append(current)
    return groups
