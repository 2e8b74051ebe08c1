"""Stage 4: the treaty as executable law.

    decision = decide(treaty, {"income": "dividends", "source": "TL", "residence": "PT",
                               "beneficial_owner": True, "recipient": "company",
                               "capital_pct": 30, "held_months": 26, "date": "1998-05-01"})
    decision.status, decision.max_rate_pct, decision.to_dict()["trace"]

`treaty` is a `CompiledTreaty` (fastest: compile once with `load_treaty`), a parsed `Document`,
a (Document, ProvisionSet) pair or a file path; a stored treaty id, a directory of treaties or a
store for the ledger are read by `taxtreaty.pipeline`, above this package (rules never reads the
store). The modules, in the order a
scenario flows through them: `scenario` (validation) -> `compile` (provisions -> rule sets, once
per treaty) -> `engine` (one decision: `rates`, `allocate`) -> `questions` (what an
indeterminate answer asks) -> `relief`; `ledger` and `dask_engine` evaluate
millions of rows by deciding each distinct combination of relevant facts once.
"""

from __future__ import annotations

from typing import Any

from taxtreaty.rules.compile import CompiledTreaty, compile_treaty
from taxtreaty.rules.decision import Decision
from taxtreaty.rules.engine import decide_compiled, withholding_minor
from taxtreaty.rules.load import InForceWindow, load_treaty
from taxtreaty.rules.scenario import SCENARIO_KEYS, Scenario, ScenarioError, scenario_from


def decide(
    treaty: Any,
    scenario: Scenario | dict[str, Any],
    *,
    parties: list[str] | tuple[str, ...] | None = None,
    in_force: InForceWindow | None = None,
) -> Decision:
    """Who may tax this income, at what rate, with what relief, and the words that say so; an
    indeterminate answer asks its missing facts (`Decision.questions`), each answer with the
    outcome it leads to."""
    from taxtreaty.rules.questions import explain

    facts = scenario_from(scenario)
    return explain(load_treaty(treaty, parties, in_force), facts)


__all__ = [
    "SCENARIO_KEYS", "CompiledTreaty", "Decision", "Scenario", "ScenarioError", "compile_treaty", "decide",
    "decide_compiled", "load_treaty", "scenario_from", "withholding_minor",
]
