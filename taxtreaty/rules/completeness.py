"""Whether a source text is a whole convention, so that an article it lacks is an article the
convention does not have (not one a fragment lost).

A text is complete when one of its language versions prints its articles in sequence from the
first (persons covered) to the final clauses (entry into force, then termination where the text has
one), and no part of the text is cut off. That an article is *absent* from it (no other-income article:
domestic law applies) is claimed only when, besides, every article is recognised by its topic (an
article of unknown subject might be the one looked for). "8, 8A, 9" is in sequence; "11, 12" (a fragment),
"1, 2, 4" (an article lost) or a text ending before its final clauses are not.
"""

from __future__ import annotations

from taxtreaty.structure.model import Article, Document
from taxtreaty.structure.numbers import article_number_value

#: the topics an article of the final clauses has; the last article must be one of them
FINAL_CLAUSES = ("entry_into_force", "termination")
#: parser warnings that mean words of the text are lost
_LOST = {"text_truncated"}


def complete_convention(doc: Document, *, every_topic: bool = False) -> bool:
    """The text is a whole convention (and, with `every_topic`, every article's subject is known)."""
    if any(w.code in _LOST for w in doc.warnings):
        return False
    return any(_in_sequence(version.articles, every_topic) for version in doc.versions)


def _in_sequence(articles: list[Article], every_topic: bool) -> bool:
    if not articles or articles[0].topic != "persons_covered":
        return False
    if articles[-1].topic not in FINAL_CLAUSES or not any(a.topic == "entry_into_force" for a in articles):
        return False
    if any(not a.complete or (every_topic and not a.topic) for a in articles):
        return False
    expected, previous = 1, ""
    for article in articles:
        value = article_number_value(article.number)
        if value == expected:
            expected += 1
        elif value is None or value != expected - 1 or article.number.lower() == previous.lower():
            return False  # "8A" after "8" is in sequence; a number skipped or printed twice is not
        previous = article.number
    return True
