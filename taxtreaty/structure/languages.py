"""Which language a stretch of treaty text is in, from its own words (stop-word counts)."""

from __future__ import annotations

from collections import Counter

import regex

from taxtreaty import vocab

_WORD = regex.compile(r"\p{L}+")


def language_scores(text: str, sample_chars: int = 8000) -> dict[str, float]:
    """Share of the words of `text` that are stop words of each known language."""
    words = _WORD.findall(vocab.fold(text[:sample_chars]))
    if not words:
        return {}
    counts = Counter(words)
    total = len(words)
    return {
        code: sum(n for w, n in counts.items() if w in lang.stopwords) / total
        for code, lang in vocab.languages().items()
    }


def detect_language(text: str) -> tuple[str | None, float]:
    """(language code, margin over the runner-up), or (None, 0) when the text has too few words."""
    scores = language_scores(text)
    if not scores:
        return None, 0.0
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    best, best_score = ranked[0]
    runner = ranked[1][1] if len(ranked) > 1 else 0.0
    if best_score < 0.08:
        return None, 0.0
    return best, best_score - runner
