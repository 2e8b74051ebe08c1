"""The kind of income a clause is limited to (`income_subtype`: "loans granted by a bank", "el
alquiler de contenedores"), not a kind named with the article's income or only as included in it; the
kinds named as left out (`income_subtype_excluded`).

The words come from the language's `subtypes`, `incomes`, `inclusion_words` and `exclusion_words`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import regex

from taxtreaty.provisions.vocabulary import Phrases, require_phrases


@cache
def _and_or(language: str) -> regex.Pattern[str]:
    """An income named with a kind of payment as one subject ("royalties or fees for technical services")."""
    ph = require_phrases(language)
    joiners = ph.word_group("and_words", "or_words")
    return regex.compile(rf"\s+{joiners}\s+(?:{ph.word_group('determiners')}\s+)?$")


#: how long (characters) a cross-reference between an income and a kind named with it may run
_REFERENCE_REACH = 90


@cache
def _cited_and_or(language: str) -> regex.Pattern[str]:
    """An income that cites its definition, then a kind of payment, as one subject ("royalties referred to
    in sub-paragraph (a) of paragraph 3 and fees for included services", "royalties within paragraph 3(a)
    of this Article, and fees for technical services"): the clause covers both, the cited part of the
    income stays words of its own (`income_reference` phrases)."""
    ph = require_phrases(language)
    if "income_reference" not in ph.patterns:
        return regex.compile(r"(?!)")
    joiners = ph.word_group("and_words", "or_words")
    # a full stop inside a reference ("alínea a) do n.º 3") is no sentence's end
    span = rf"(?:[^.;:]|\.(?!\s)){{1,{_REFERENCE_REACH}}}?"
    small = rf"(?:{ph.word_group('of_words')}\s+)?(?:{ph.word_group('determiners')}\s+)?"
    return regex.compile(rf"\s*+,?+\s*+{ph.patterns['income_reference'].pattern}{span}\s+{joiners}\s+{small}$")


@cache
def _complement(language: str) -> regex.Pattern[str]:
    """What joins a kind of income to the thing it is about ("venta a crédito **de** equipos")."""
    ph = require_phrases(language)
    return regex.compile(rf"\s+{ph.word_group('of_words')}\s+(?:{ph.word_group('determiners')}\s+)?")


#: how far (characters) before a kind of income an inclusion or exclusion word ("including", "excluidas") may stand
_INCLUSION_REACH = 100
#: a bracket opened and closed in the words
_CLOSED_BRACKET = regex.compile(r"\([^()]*\)")


def _scope_word(folded: str, start: int, ph: Phrases) -> str | None:
    """"included" when the nearest inclusion or exclusion word before a kind of income, in its
    sentence, says the kind is included ("incluido el alquiler de contenedores"), "excluded" when it
    says it is left out ("pero no están incluidas las regalías con respecto a las películas"), else None."""
    window = folded[max(0, start - _INCLUSION_REACH) : start]
    cut = max(window.rfind(";"), window.rfind("."), window.rfind(":"))
    # an aside closed before the kind ("other institutions (including financial institutions) in respect of
    # financing agreed ...") says what its own words include, not the kind after it
    window = _CLOSED_BRACKET.sub(lambda m: " " * len(m.group()), window[cut + 1 :])
    best: tuple[int, str] | None = None
    for key, scope in (("inclusion_words", "included"), ("exclusion_words", "excluded")):
        if key not in ph.patterns:
            continue
        for m in ph.finditer(key, window):
            if best is None or m.end() > best[0] or (m.end() == best[0] and scope == "excluded"):
                best = (m.end(), scope)
    return best[1] if best else None


def subtype_conditions(folded: str, ph: Phrases) -> dict[str, Any]:
    """The kind of income a clause is limited to, if any (`income_subtype`): not one named together
    with the article's income ("royalties and fees for technical services ... shall not exceed ten per
    centum"), which the clause covers as much as the income itself, nor one only named as included in
    it ("incluido el alquiler de contenedores y equipos conexos"). A clause that names several kinds
    ("patentes, marcas de fábrica ... incluidos los pagos por la prestación de servicios de asistencia
    técnica") is limited to any of them: their list, in order. Kinds named as left out ("pero no están
    incluidas las regalías con respecto a las películas cinematográficas") are `income_subtype_excluded`."""
    found = ph.group_hits("subtypes", folded)
    # "la venta a crédito de equipos industriales": a kind right after another, joined by "of", is what
    # the first is about, not a kind of its own
    found = [h for k, h in enumerate(found)
             if not (k and _complement(ph.code).fullmatch(folded, found[k - 1][1], h[0]))]
    hits = [(*h, _scope_word(folded, h[0], ph)) for h in found]
    chosen = [h for h in hits if h[3] != "excluded"]
    if not chosen or all(h[3] == "included" for h in chosen):
        return {}
    incomes = [end for _, end, _ in ph.group_hits("incomes", folded)]
    start, _, kind, _ = chosen[0]
    if any(end <= start and (_and_or(ph.code).fullmatch(folded, end, start)
                             or _cited_and_or(ph.code).fullmatch(folded, end, start)) for end in incomes):
        return {}
    kinds = list(dict.fromkeys(h[2] for h in chosen))
    out: dict[str, Any] = {"income_subtype": kind if len(kinds) == 1 else kinds}
    excluded = [k for k in dict.fromkeys(h[2] for h in hits if h[3] == "excluded") if k not in kinds]
    if excluded:
        out["income_subtype_excluded"] = excluded
    return out
