"""`taxtreaty ask --interactive`: the missing facts asked one by one until the answer is determined.

Each question is the fact schema's (`data/rules/facts.yaml`), with the answers it can have and
what each leads to; the reply is a number from the list (for a choice or yes/no) or the value
itself (a share, a number of days, a name, a date), read with the scenario's own readers, so a
bad reply is asked again with the reason, never a traceback. The end of input stops the asking
and the answer stands as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taxtreaty.rules.facts import fact_schema
from taxtreaty.rules.scenario import read_fact, scenario_from
from taxtreaty.text import InputError

#: the most questions asked in one session (each answer removes a missing fact; a guard only)
MAX_QUESTIONS = 40


def _reply(question: dict[str, Any], raw: str) -> Any:
    """The value a reply gives: an answer's number, or the value in words the fact's reader takes."""
    fact = fact_schema()[question["fact"]]
    text = raw.strip()
    listed = question["answers"]
    if fact.type in ("choice", "bool") and text.isdigit() and 1 <= int(text) <= len(listed):
        return listed[int(text) - 1]["values"][0]
    if fact.type == "choice":
        by_label = {label.casefold(): value for value, label in fact.choices.items()}
        text = by_label.get(text.casefold(), text)
    return read_fact(fact, text)


def ask_until_determined(decide: Callable[[dict[str, Any]], Any], raw: dict[str, Any],
                         read: Callable[[str], str | None], write: Callable[[str], None]) -> tuple[dict[str, Any], Any]:
    """Decide, ask the first open question, add the reply, decide again, until the answer is
    determined, no question is left, or the input ends. Returns the facts and the last decision."""
    facts = dict(raw)
    decision = decide(facts)
    for _ in range(MAX_QUESTIONS):
        if decision.status != "indeterminate" or not decision.questions:
            break
        question = decision.questions[0]
        write(f"\n{question['question']}")
        for n, answer in enumerate(question["answers"], start=1):
            write(f"  {n}) {answer['label']} → {answer['leads_to']['summary']}")
        reply = read("> ")
        if reply is None:
            write("(no more input: the answer stays open)")
            break
        try:
            value = _reply(question, reply)
        except InputError as exc:
            write(f"  {exc}; try again")
            continue
        if value is None:
            write("  (not known: the answer stays open on this point)")
            break
        facts[question["fact"]] = value
        scenario_from(facts)  # a combination the schema refuses is said at once
        decision = decide(facts)
    return facts, decision


__all__ = ["MAX_QUESTIONS", "ask_until_determined"]
