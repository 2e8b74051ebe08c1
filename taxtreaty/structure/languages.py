"""Which language a stretch of treaty text is in, from its own words (stop-word counts)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import regex

from taxtreaty import vocab

_WORD = regex.compile(r"\p{L}+")


#: how much of a text its language is told from
_SAMPLE_CHARS = 8000


def language_scores(text: str, sample_chars: int = _SAMPLE_CHARS) -> dict[str, float]:
    """Share of the words of `text` that are stop words of each known language."""
    words = _WORD.findall(vocab.fold(text[:sample_chars]))
    if not words:
        return {}
    counts = Counter(words)
    total = len(words)
    distinct = counts.keys()
    return {
        code: sum(counts[w] for w in distinct & lang.stopwords) / total
        for code, lang in vocab.languages().items()
    }


def detect_language(text: str) -> tuple[str | None, float]:
    """(language code, margin over the runner-up), or (None, 0) when the text has too few words."""
    return detect_sample(text[:_SAMPLE_CHARS])


@lru_cache(maxsize=512)  # the version splitter asks twice of the same block under each heading
def detect_sample(text: str) -> tuple[str | None, float]:
    """`detect_language` of a text at most `_SAMPLE_CHARS` long (the cache keeps short keys only)."""
    scores = language_scores(text)
    if not scores:
        return None, 0.0
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    best, best_score = ranked[0]
    runner = ranked[1][1] if len(ranked) > 1 else 0.0
    if best_score < 0.08:
        return None, 0.0
    return best, best_score - runner
