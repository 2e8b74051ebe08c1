"""Champion lists: exact BM25 top-k for very common words without ranking every match (SQLite).

FTS5 finds the passages of a word quickly, but `bm25()` costs about a microsecond per match
(it reads each passage's length), so a query made only of common words ("Residente", in 40% of
a large corpus) spends most of its time ranking thousands of passages to keep twenty. Search
engines answer such queries from *champion lists* (Manning, Raghavan & Schütze, *Introduction
to Information Retrieval*, §7.1.3): for each common word, its best passages kept in advance.

Here a word is common when it occurs in at least `COMMON_WORD_PASSAGES` passages. For each
language of the index it has a list of its `CHAMPIONS` best passages in that language for the
one-word query, in the full query's order (score, then passage id); the last one is the list's
*floor*, and a list holding all the word's passages in that language is *complete*. BM25 adds
up per query word, so a passage outside every list that contains no other query word scores at
most the sum of its language's floors. The query ranks only the candidates (the lists of its
common words, plus every passage of its other words) with FTS5's own `bm25()`, and keeps the
answer only if, in every language it covers, its k-th hit provably ranks before every passage
left out (or no passage left out can match at all); otherwise it returns None and the caller
ranks the full match. The results are the full query's, not an approximation
(`tests/test_search_champions.py` checks them against it), unless two different BM25 scores
lie within a billionth of each other.

The lists describe one state of the index: every passage write empties the terms table in the
same transaction (so stale lists are never used), and `refresh` rebuilds it after an ingest.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from sqlalchemy import Connection, Engine, text

#: a word is common (worth lists) from this many passages: below it, ranking every match costs
#: about a millisecond
COMMON_WORD_PASSAGES = 1000
#: passages kept per common word and language: enough for the default 20 hits under a filter
CHAMPIONS = 200
#: at most this many passages of the query's other (rare) words are added to the candidates
RARE_CANDIDATES = 4000

#: created by migration 0004 on SQLite; the names start with "passages_fts", which the schema
#: comparison leaves to the backend (see `fts.py`)
TERMS_TABLE = "passages_fts_champion_terms"
LISTS_TABLE = "passages_fts_champions"
#: relative margin on a sum of floors: float sums in another order may differ in the last bits
_SUM_MARGIN = 1e-9

Alternatives = Sequence[Sequence[Sequence[str]]]


@dataclass(frozen=True)
class Floor:
    score: float
    passage_id: int
    #: the list holds every passage of the word in its language
    complete: bool


def invalidate(connection: Connection) -> None:
    """Forget the lists (inside the transaction that changes the index)."""
    if connection.dialect.name == "sqlite":
        connection.execute(text(f"DELETE FROM {TERMS_TABLE}"))


def refresh_if_stale(engine: Engine) -> None:
    """After an ingest: rebuild the lists if a write (here or in an interrupted run) dropped them."""
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as connection:
        stale = is_stale(connection)
    if stale:
        with engine.begin() as connection:
            refresh(connection)


def is_stale(connection: Connection) -> bool:
    """The lists are not built for the index as it is (after a write, or an interrupted ingest)."""
    return connection.execute(text(f"SELECT 1 FROM {TERMS_TABLE} LIMIT 1")).first() is None


def refresh(connection: Connection, *, min_passages: int = COMMON_WORD_PASSAGES, keep: int = CHAMPIONS) -> int:
    """Rebuild every common word's lists from the current index; return how many words have them.

    Call inside a transaction; the first statement writes, so SQLite takes the write lock before
    anything is read and no other writer can change the index while the lists are computed.
    """
    connection.execute(text(f"DELETE FROM {TERMS_TABLE}"))
    connection.execute(text(f"DELETE FROM {LISTS_TABLE}"))
    connection.execute(text("CREATE VIRTUAL TABLE IF NOT EXISTS temp.passages_fts_words "
                            "USING fts5vocab(main, passages_fts, row)"))
    common = [row[0] for row in connection.execute(
        text("SELECT term FROM temp.passages_fts_words WHERE doc >= :n"), {"n": min_passages})]
    language_of = dict(connection.execute(text("SELECT id, language FROM passages")).all()) if common else {}
    languages = sorted(set(language_of.values()))
    for term in common:
        # one pass of bm25() over the word's passages, split by language here (a join per match
        # and a window function in SQL cost three times as much)
        by_language: dict[str, list[tuple[float, int]]] = {language: [] for language in languages}
        for pid, score in connection.execute(
                text("SELECT rowid, -bm25(passages_fts) FROM passages_fts WHERE passages_fts MATCH :q"),
                {"q": _quoted(term)}):
            by_language[language_of[pid]].append((-score, pid))
        for language, hits in by_language.items():
            best = heapq.nsmallest(keep, hits)  # (-score, id): the full query's order
            complete = len(best) == len(hits)
            if best:
                connection.execute(
                    text(f"INSERT INTO {LISTS_TABLE} (term, language, passage_id, score) VALUES (:t, :l, :id, :s)"),
                    [{"t": term, "l": language, "id": pid, "s": -negative} for negative, pid in best],
                )
            floor_score, floor_id = (0.0, 0) if complete else (-best[-1][0], best[-1][1])
            connection.execute(
                text(f"INSERT INTO {TERMS_TABLE} (term, language, passages, complete, floor_score, floor_id) "
                     "VALUES (:t, :l, :n, :c, :s, :id)"),
                {"t": term, "l": language, "n": len(hits), "c": complete, "s": floor_score, "id": floor_id},
            )
    # the empty word, never a real one, marks the lists as built (a small index may have none)
    connection.execute(text(f"INSERT INTO {TERMS_TABLE} (term, language, passages, complete, floor_score, floor_id) "
                            "VALUES ('', '', 0, 1, 0, 0)"))
    return len(common)


def top(
    connection: Connection, alternatives: Alternatives, expression: str, filters: str, params: dict, limit: int,
    language: str | None = None,
) -> list[tuple[int, float]] | None:
    """The full query's top `limit` (passage id, score), or None when the lists cannot prove it.

    `alternatives` is the query as an OR of AND-groups of OR-ed words (what `expression`, the
    FTS5 MATCH string, says); `filters` is an SQL fragment over the `p` (passages) alias, and
    `language` the language it keeps, if it keeps one.
    """
    occurrences = [w for alternative in alternatives for group in alternative for w in group]
    floors = _floors(connection, set(occurrences) - {""}, language)
    common = sorted({term for term, _ in floors})
    if not common or not any(all(any(w in common for w in group) for group in alt) for alt in alternatives):
        return None  # some word of every alternative is rare: ranking the full match is cheap
    rare = sorted({w for w in occurrences if w not in common})
    # a plain OR of words (translations, spellings) is bounded word by word once the passages
    # holding two of its common words are candidates too; an AND of common words needs the sum
    plain_or = all(len(alternative) == 1 for alternative in alternatives)
    candidates = {row[0] for row in connection.execute(
        text(f"SELECT passage_id FROM {LISTS_TABLE} WHERE term IN (SELECT value FROM json_each(:terms)) "
             "AND (:language IS NULL OR language = :language)"),
        {"terms": json.dumps(common), "language": language},
    )}
    others = [_quoted(w) for w in rare]
    if plain_or:
        others += [f"({_quoted(a)} AND {_quoted(b)})" for a, b in combinations(common, 2)]
    if others:
        found = [row[0] for row in connection.execute(
            text("SELECT rowid FROM passages_fts WHERE passages_fts MATCH :q LIMIT :n"),
            {"q": " OR ".join(others), "n": RARE_CANDIDATES + 1},
        )]
        if len(found) > RARE_CANDIDATES:
            return None
        candidates.update(found)
    if filters:
        candidates = {row[0] for row in connection.execute(
            text(f"SELECT p.id FROM passages p WHERE p.id IN (SELECT value FROM json_each(:ids)) {filters}"),
            {**params, "ids": json.dumps(sorted(candidates))},
        )}
    ranked = rank_among(connection, expression, candidates, limit)
    for scope in sorted({lang for _, lang in floors}):
        if not _proven(ranked, limit, alternatives, occurrences, plain_or,
                       {w: f for (w, lang), f in floors.items() if lang == scope}):
            return None
    return ranked


def rank_among(connection: Connection, expression: str, ids: Iterable[int], limit: int) -> list[tuple[int, float]]:
    """The full query's ranking restricted to the passages `ids` (bm25() is run for those only)."""
    # "+rowid": a filter on the rows FTS5 yields; a plain rowid constraint would make FTS5
    # re-run the whole query once per listed id
    return [(int(pid), float(score)) for pid, score in connection.execute(
        text("SELECT rowid, -bm25(passages_fts) AS score FROM passages_fts WHERE passages_fts MATCH :q "
             "AND +rowid IN (SELECT value FROM json_each(:ids)) ORDER BY score DESC, rowid LIMIT :limit"),
        {"q": expression, "ids": json.dumps(sorted(ids)), "limit": limit},
    )]


def _proven(ranked: list[tuple[int, float]], limit: int, alternatives: Alternatives, occurrences: list[str],
            plain_or: bool, floors: dict[str, Floor]) -> bool:
    """Is `ranked` the full query's answer within one language, whose lists are `floors`?"""
    open_words = {w for w, f in floors.items() if not f.complete}
    # every alternative needs a word of each group; if one group has only words whose passages
    # are all candidates (rare words, complete lists), no passage left out can match at all
    if not any(all(any(w in open_words for w in group) for group in alt) for alt in alternatives):
        return True
    if len(ranked) < limit:
        return False
    # a word written twice in the query counts twice in bm25()
    bounds = [(occurrences.count(w) * floors[w].score, floors[w].passage_id) for w in sorted(open_words)]
    if plain_or:
        return all(_ranks_before(ranked[-1], [bound]) for bound in bounds)
    return _ranks_before(ranked[-1], bounds)


def _ranks_before(last: tuple[int, float], bounds: list[tuple[float, int]]) -> bool:
    """Does the k-th hit rank before every passage (of one language) outside the candidates?

    Such a passage contains no rare query word, and (for a plain OR) only one common word, so it
    scores at most the sum of the `bounds`' scores (each a common word's floor score), and reaches
    that sum only by sitting exactly at every floor, where the list order (score, then id) put it
    after each floor passage: its id is larger than every floor id. So the k-th hit ranks first
    when it scores above the sum, or equals it with an id no larger than the largest floor id.
    "Equals" allows for the last bits of a float sum added in another order.
    """
    pid, score = last
    bound = sum(s for s, _ in bounds)
    margin = abs(bound) * _SUM_MARGIN
    return score > bound + margin or (score >= bound - margin and pid <= max(i for _, i in bounds))


def _floors(connection: Connection, words: set[str], language: str | None) -> dict[tuple[str, str], Floor]:
    rows = connection.execute(
        text(f"SELECT term, language, floor_score, floor_id, complete FROM {TERMS_TABLE} "
             "WHERE term IN (SELECT value FROM json_each(:w)) AND (:language IS NULL OR language = :language)"),
        {"w": json.dumps(sorted(words)), "language": language},
    )
    return {(term, lang): Floor(float(score), int(pid), bool(complete)) for term, lang, score, pid, complete in rows}


def _quoted(word: str) -> str:
    return '"' + word.replace('"', "") + '"'
