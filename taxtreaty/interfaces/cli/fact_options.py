"""The CLI options of a scenario, generated from the fact schema (`taxtreaty/data/rules/facts.yaml`).

Every fact of the schema is an option of `taxtreaty ask` (`royalty_kind` -> `--royalty-kind`; a
yes/no fact `main_purpose` -> `--main-purpose/--not-main-purpose`), with the schema's help line and,
for a choice, its values. Adding a fact to the data file adds the option: no CLI code changes.

    @with_fact_options
    def ask_command(treaty: str = typer.Option(...), **facts: Any) -> None: ...
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import typer

from taxtreaty.rules.facts import Fact, FactSchema, fact_schema


def flag(key: str) -> str:
    """'royalty_kind' -> '--royalty-kind'."""
    return "--" + key.replace("_", "-")


def fact_help(fact: Fact) -> str:
    """The option's help: the schema's line, and the values of a choice."""
    text = fact.help[:1].upper() + fact.help[1:]
    text += "" if text.endswith(".") else "."
    if fact.choices:
        text += f" One of: {', '.join(fact.choices)}."
    return text


def fact_parameters(schema: FactSchema | None = None) -> list[inspect.Parameter]:
    """One keyword parameter (a typer option defaulting to None: not given) per fact."""
    params = []
    for fact in (schema or fact_schema()).facts.values():
        if fact.type == "bool":
            option = typer.Option(None, f"{flag(fact.key)}/--not-{flag(fact.key)[2:]}", help=fact_help(fact))
            annotation: Any = bool | None
        else:
            option = typer.Option(None, flag(fact.key), help=fact_help(fact))
            annotation = str | None
        params.append(inspect.Parameter(fact.key, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=annotation))
    return params


def with_fact_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func`'s `**facts` replaced, in what typer reads, by one option per fact of the schema
    (placed before `func`'s options that follow `scenario_file`); typer then passes the facts
    given as keywords, None for those not given."""
    signature = inspect.signature(func, eval_str=True)
    own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    facts = fact_parameters()
    clash = {p.name for p in own} & {p.name for p in facts}
    if clash:
        raise RuntimeError(f"the fact schema's {sorted(clash)[0]!r} clashes with an option of {func.__name__}")
    at = next((i + 1 for i, p in enumerate(own) if p.name == "scenario_file"), len(own))
    ordered = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in [*own[:at], *facts, *own[at:]]]
    func.__signature__ = signature.replace(parameters=ordered)  # type: ignore[attr-defined]
    return func


def schema_keys_help() -> str:
    """The help of `--fact`: every key of the schema."""
    return ("Any fact of the schema as KEY=VALUE (repeatable; each also has its own option): "
            + ", ".join(fact_schema().keys) + ".")
