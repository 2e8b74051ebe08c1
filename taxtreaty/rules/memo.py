"""A decision memo: the answer, the words it rests on, the facts given, the assumptions, the
caveats and the open questions, for a reader who never saw taxtreaty.

`memo_sections(decision, scenario, treaty_name)` gives the memo as data (title, then sections of
paragraphs, quotes and items), which `memo_markdown` writes as Markdown (`taxtreaty ask ... --memo
out.md`) and the web renders as a printable page. Every word a reader sees comes from the labels
(`data/rules/labels.yaml`) and the fact schema (`data/rules/facts.yaml`), never a raw key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taxtreaty.rules import labels
from taxtreaty.rules.facts import fact_schema


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    #: (words, where) pairs: a quotation of the treaty and its citation
    quotes: list[tuple[str, str]] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


def _income(value: str) -> str:
    return value.replace("_", " ")


def answer_words(data: dict[str, Any]) -> str:
    """The answer in one sentence."""
    status = data.get("status")
    if status == "not_covered":
        return labels.label("statuses", "not_covered") + "."
    if status == "indeterminate":
        return labels.label("statuses", "indeterminate") + "."
    source = data.get("source_taxation")
    rate = data.get("max_rate_pct")
    if source is None:
        words = f"the source State may tax at most {rate}% of the gross amount" if rate is not None else "determined"
    else:
        words = labels.label("source_taxation", source)
        if source == "limited" and rate is not None:
            words += f": at most {rate}% of the gross amount"
    if data.get("max_withholding") is not None:
        words += f" (at most {data['max_withholding']} withheld)"
    where = f"article {data['article_applied']}" if data.get("article_applied") else ""
    if data.get("eid"):
        where += f" ({data['eid']})"
    return f"{words[0].upper()}{words[1:]}" + (f", under {where}." if where else ".")


def memo_sections(data: dict[str, Any], scenario: dict[str, Any], treaty_name: str) -> tuple[str, list[Section]]:
    """The memo of one decision (`Decision.to_dict()`) on one scenario (`Scenario.to_dict()`)."""
    schema = fact_schema()
    title = (f"{_income(str(scenario.get('income', 'income'))).capitalize()} paid from {scenario.get('source')} "
             f"to a resident of {scenario.get('residence')}")
    sections: list[Section] = []
    answer = Section("Answer", [answer_words(data), f"Convention: {treaty_name}."])
    if data.get("residence_taxation"):
        words = labels.label("residence_taxation", data["residence_taxation"])
        answer.paragraphs.append(words[0].upper() + words[1:] + ".")
    sections.append(answer)

    words = Section("The words of the convention")
    for step in data.get("trace") or []:
        words.quotes.append((step["quote"], f"{step['eid']} [{step['language']}]: {step['effect']}"))
    if words.quotes:
        sections.append(words)

    given = Section("Facts given", items=[schema.describe(key, value) for key, value in scenario.items()])
    sections.append(given)

    assumed = Section("Assumptions", items=[a["why"] for a in data.get("assumptions") or []])
    if assumed.items:
        sections.append(assumed)

    caveats = Section("Caveats: the answer holds unless")
    for caveat in data.get("caveats") or []:
        caveats.quotes.append((caveat["quote"], f"{caveat['eid']}: {caveat.get('label') or labels.label('caveat_kinds', caveat['kind'])}"))
    if caveats.quotes:
        sections.append(caveats)

    questions = Section("Open questions")
    for q in data.get("questions") or []:
        answers = "; ".join(f"{a['label']} → {a['leads_to']['summary']}" for a in q["answers"])
        questions.items.append(f"{q['question']} ({answers})")
    for fact in data.get("missing_facts") or []:
        if not any(q["fact"] == fact for q in data.get("questions") or []) and fact in schema:
            questions.items.append(schema[fact].question)
    if questions.items:
        sections.append(questions)

    unread = Section("Words the engine could not read")
    for entry in data.get("unread") or []:
        unread.quotes.append((entry["quote"], entry["eid"]))
    if unread.quotes:
        sections.append(unread)

    candidates = Section("Possible answers")
    for c in data.get("candidates") or []:
        rate = f" at most {c['max_rate_pct']}%" if c.get("max_rate_pct") is not None else ""
        where = f" ({c['eid']})" if c.get("eid") else ""
        candidates.items.append(f"{labels.label('source_taxation', c['source_taxation']) if labels.has('source_taxation', c['source_taxation']) else 'not known'}{rate}{where}, if {c['if']}")
    if candidates.items:
        sections.append(candidates)

    notes = Section("Notes", items=list(data.get("reasons") or []))
    relief = data.get("relief") or {}
    if relief.get("method"):
        method = labels.label("relief_methods", relief["method"]) if labels.has("relief_methods", relief["method"]) else relief["method"]
        notes.items.append(f"Relief in the residence State: {method}" + (f" ({relief['eid']})" if relief.get("eid") else ""))
    if notes.items:
        sections.append(notes)
    return title, sections


def memo_markdown(data: dict[str, Any], scenario: dict[str, Any], treaty_name: str) -> str:
    title, sections = memo_sections(data, scenario, treaty_name)
    lines = [f"# {title}", ""]
    for section in sections:
        lines += [f"## {section.title}", ""]
        for paragraph in section.paragraphs:
            lines += [paragraph, ""]
        for quote, where in section.quotes:
            lines += ["> " + " ".join(quote.split()), ">", f"> — {where}", ""]
        for item in section.items:
            lines.append(f"- {item}")
        if section.items:
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["Section", "answer_words", "memo_markdown", "memo_sections"]
