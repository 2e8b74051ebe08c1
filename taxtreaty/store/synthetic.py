"""Synthetic conventions for the store's tests and benchmark: a template varied programmatically.

SYNTHETIC: these texts are invented. They name real States only so that the parties resolve to
ISO codes; their rates and dates are random draws, not any treaty's. `convention(seed)` gives
the same text for the same seed, in a language of `data/synthetic.yaml` (English, Portuguese and
Spanish today: the templates are data, so a language is added there), with its own parties,
signature date, rates, article numbering (an optional extra article shifts the numbers, as real
treaties do), wording variants and optional gazette noise (page numbers, running heads).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

from taxtreaty import vocab

#: the keys of each language's template in data/synthetic.yaml
_TEMPLATE_KEYS = frozenset({"article_word", "number_style", "months", "title", "preamble", "articles", "extra", "closing"})


@cache
def _templates() -> dict[str, dict[str, Any]]:
    """The templates of data/synthetic.yaml by language (each checked for its keys)."""
    raw = vocab.read_data_file("synthetic.yaml", keys={"languages"})
    out: dict[str, dict[str, Any]] = {}
    for code, template in (raw.get("languages") or {}).items():
        if not isinstance(template, dict) or set(template) != _TEMPLATE_KEYS:
            raise vocab.DataFileError(f"synthetic.yaml: language {code!r} takes exactly the keys {sorted(_TEMPLATE_KEYS)}")
        if len(template["months"]) != 12:
            raise vocab.DataFileError(f"synthetic.yaml: language {code!r} lists {len(template['months'])} months, not 12")
        out[str(code)] = template
    return out


def languages() -> tuple[str, ...]:
    """The languages a synthetic convention can be written in: those data/synthetic.yaml has."""
    return tuple(_templates())


_PLACES = ("Lisboa", "Madrid", "London", "Brasília", "Ottawa", "Tokyo", "Pretoria", "Athens")


@dataclass(frozen=True)
class Synthetic:
    text: str
    language: str
    parties: tuple[str, str]
    signed: str
    rates: dict[str, int]
    #: article number of each topic in this text (the numbers shift with the extra article)
    numbers: dict[str, str]


def _party_codes() -> list[str]:
    # (a YAML key like NO can load as a boolean: keep only real two-letter codes)
    return sorted(code for code, names in vocab.countries().items() if isinstance(code, str) and len(code) == 2 and names)


def convention(seed: int, *, language: str | None = None, parties: tuple[str, str] | None = None,
               signed: str | None = None, noise: bool | None = None) -> Synthetic:
    rng = random.Random(seed)
    language = language or rng.choice(languages())
    template = _templates()[language]
    codes = _party_codes()
    a, b = parties or tuple(rng.sample(codes, 2))
    names = {code: vocab.countries()[code][0] for code in (a, b)}
    year, month, day = rng.randint(1975, 2024), rng.randint(1, 12), rng.randint(1, 28)
    if signed:
        year, month, day = (int(x) for x in signed.split("-"))
    noise = rng.random() < 0.3 if noise is None else noise
    rates = {"div_q": rng.choice([0, 5, 10]), "hold": rng.choice([10, 20, 25]), "div_g": rng.choice([10, 15]),
             "int": rng.choice([0, 5, 10, 12]), "roy": rng.choice([5, 10, 15])}
    articles = [(a_["heading"], a_["paragraphs"]) for a_ in template["articles"]]
    if rng.random() < 0.5:
        articles.insert(3, (template["extra"]["heading"], template["extra"]["paragraphs"]))
    lines = [template["title"].format(A=names[a].upper(), B=names[b].upper()), "",
             template["preamble"].format(a=names[a], b=names[b]), ""]
    numbers: dict[str, str] = {}
    for n, (heading, paragraphs) in enumerate(articles, start=1):
        numbers[heading] = str(n)
        lines += [f"{template['article_word']} {n}", heading, ""]
        for i, para in enumerate(paragraphs, start=1):
            body = para.format(**rates)
            prefix = template["number_style"].format(n=i) if len(paragraphs) > 1 else ""
            lines += [prefix + body, ""]
            if noise and rng.random() < 0.2:
                lines += [f"{rng.randint(100, 999)}", ""]
    lines.append(template["closing"].format(place=rng.choice(_PLACES), day=day, month=template["months"][month - 1],
                                            year=year))
    return Synthetic(text="\n".join(lines) + "\n", language=language, parties=(a, b),
                     signed=f"{year:04d}-{month:02d}-{day:02d}", rates=rates, numbers=numbers)
