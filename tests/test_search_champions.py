"""Champion lists (SQLite): the fast path for common words gives exactly the full query's ranking.

The store here is small, so the lists are rebuilt with small thresholds (a word is "common" from
8 passages, 5 kept per word): lists run out quickly, and both outcomes of the fast path (a
proven answer, or None and the full query) are exercised. The oracle is FTS5's own
`ORDER BY bm25(), id` over every match.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
import test_store_support as support
from conftest import SEEDS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection, text

from taxtreaty.store import Store, champions, fts
from taxtreaty.store.synthetic import convention

MIN_PASSAGES, KEEP = 8, 5


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    folder = tmp_path_factory.mktemp("champions")
    texts = folder / "texts"
    texts.mkdir()
    for seed in range(9):
        language = ("en", "es", "pt")[seed % 3]
        (texts / f"synthetic_{seed}.txt").write_text(convention(200 + seed, language=language).text, encoding="utf-8")
    store = Store.open(f"sqlite:///{folder / 'store.sqlite'}")
    report = store.ingest([str(SEEDS), str(texts), str(support.STORE_FIXTURES / "ocr_damaged_es.txt")])
    assert not report.rejected
    with store.engine.begin() as connection:
        assert champions.refresh(connection, min_passages=MIN_PASSAGES, keep=KEEP) > 20
    yield store
    store.close()


def _words(store: Store) -> tuple[list[str], list[str]]:
    """(common words, rare words) of the index."""
    with store.engine.connect() as c:
        common = [r[0] for r in c.execute(text(f"SELECT DISTINCT term FROM {champions.TERMS_TABLE} WHERE term != '' ORDER BY term"))]
        c.execute(text("CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, passages_fts, row)"))
        rare = [r[0] for r in c.execute(text("SELECT term FROM temp.v WHERE doc < 8 AND length(term) > 3 "
                                             "ORDER BY term LIMIT 200"))]
    return common, rare


def _oracle(c: Connection, expression: str, filters: str, params: dict, limit: int) -> list[tuple[int, float]]:
    rows = c.execute(text(
        "SELECT p.id, -bm25(passages_fts) FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid "
        f"WHERE passages_fts MATCH :q {filters} ORDER BY bm25(passages_fts), p.id LIMIT :limit"),
        {**params, "q": expression, "limit": limit})
    return [(int(i), float(s)) for i, s in rows]


def _check(store: Store, alternatives: list, filters: str = "", params: dict | None = None,
           limit: int = 5) -> list[tuple[int, float]] | None:
    params = params or {}
    expression = fts.any_expression(alternatives, "sqlite")
    with store.engine.connect() as c:
        fast = champions.top(c, alternatives, expression, filters, params, limit, params.get("language"))
        expected = _oracle(c, expression, filters, params, limit)
    if fast is not None:
        assert [pid for pid, _ in fast] == [pid for pid, _ in expected], alternatives
        assert [s for _, s in fast] == pytest.approx([s for _, s in expected], rel=1e-12)
    return fast


def test_every_common_word_alone_is_answered_from_its_lists(corpus: Store) -> None:
    common, _ = _words(corpus)
    # one word, limit = list length: the lists *are* the answer, ties included
    assert [w for w in common if _check(corpus, [[[w]]], limit=KEEP) is not None] == common
    for language in ("en", "es", "pt"):
        kept = _LANGUAGE_FILTER, {"language": language}
        assert [w for w in common if _check(corpus, [[[w]]], *kept, limit=KEEP) is not None] == common


_LANGUAGE_FILTER = "AND p.language = :language"


def test_a_limit_beyond_a_list_falls_back_unless_the_list_is_complete(corpus: Store) -> None:
    with corpus.engine.connect() as c:
        lists = c.execute(text(f"SELECT term, language, complete FROM {champions.TERMS_TABLE} WHERE term != ''")).all()
    assert {complete for _, _, complete in lists} == {0, 1}
    for term, language, complete in lists:
        fast = _check(corpus, [[[term]]], _LANGUAGE_FILTER, {"language": language}, limit=KEEP + 1)
        assert (fast is not None) == bool(complete), (term, language)


def test_and_of_common_words_and_or_of_translations(corpus: Store) -> None:
    common, rare = _words(corpus)
    outcomes = []
    for a, b in pairwise(common):
        outcomes.append(_check(corpus, [[[a], [b]]], limit=2))       # a AND b
        outcomes.append(_check(corpus, [[[a]], [[b]]], limit=3))     # a OR b
        outcomes.append(_check(corpus, [[[a, rare[0]]]], limit=3))   # a or a rare spelling
    assert sum(o is not None for o in outcomes) > len(outcomes) // 3, "the fast path is hardly ever taken"


def test_rare_words_only_go_to_the_full_query(corpus: Store) -> None:
    _, rare = _words(corpus)
    assert _check(corpus, [[[rare[0]], [rare[1]]]]) is None


@pytest.mark.parametrize(("filters", "params"), [
    ("AND p.language = :language", {"language": "pt"}),
    ("AND p.topic = :topic", {"topic": "dividends"}),
    ("AND p.language = :language AND p.topic = :topic", {"language": "en", "topic": "residence"}),
])
def test_filters_are_exact_or_fall_back(corpus: Store, filters: str, params: dict) -> None:
    common, _ = _words(corpus)
    for word in common:
        _check(corpus, [[[word]]], filters, params, limit=2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_query_of_index_words_matches_the_full_ranking(corpus: Store, data: st.DataObject) -> None:
    common, rare = _words(corpus)
    word = st.one_of(st.sampled_from(common), st.sampled_from(common), st.sampled_from(rare))
    group = st.lists(word, min_size=1, max_size=2, unique=True)
    alternative = st.lists(group, min_size=1, max_size=3)
    alternatives = data.draw(st.lists(alternative, min_size=1, max_size=3))
    language = data.draw(st.sampled_from([None, "en", "es", "pt"]))
    filters, params = ("AND p.language = :language", {"language": language}) if language else ("", {})
    _check(corpus, alternatives, filters, params, limit=data.draw(st.integers(1, 8)))


def test_search_results_are_the_same_with_and_without_lists(corpus: Store) -> None:
    queries = [("Residente", {}), ("estado contratante", {}), ("dividends", {"lang": "en"}), ("regalías", {}),
               ("beneficial owner", {}), ("juros", {"topic": "interest"}), ("dividcnds", {}), ("the", {})]
    with_lists = [corpus.search(q, limit=4, **kw) for q, kw in queries]
    with corpus.engine.begin() as c:
        champions.invalidate(c)
        assert champions.is_stale(c)
    try:
        assert [corpus.search(q, limit=4, **kw) for q, kw in queries] == with_lists
    finally:
        with corpus.engine.begin() as c:
            champions.refresh(c, min_passages=MIN_PASSAGES, keep=KEEP)


def test_a_write_drops_the_lists_and_the_ingest_rebuilds_them(tmp_path: Path) -> None:
    with Store.open(f"sqlite:///{tmp_path / 's.sqlite'}") as store:
        store.ingest([str(SEEDS)])
        with store.engine.connect() as c:
            assert not champions.is_stale(c)
            before = c.execute(text(f"SELECT count(*) FROM {champions.TERMS_TABLE}")).scalar()
        report = store.ingest_bytes(convention(7, language="en").text.encode())
        assert report.added
        with store.engine.connect() as c:
            assert not champions.is_stale(c)
            # the lists describe the index as it is now: recomputing changes nothing
            lists = c.execute(text(f"SELECT * FROM {champions.LISTS_TABLE} ORDER BY term, passage_id")).all()
        with store.engine.begin() as c:
            champions.refresh(c)
            assert c.execute(text(f"SELECT * FROM {champions.LISTS_TABLE} ORDER BY term, passage_id")).all() == lists
        assert before is not None


def test_the_kth_hit_must_rank_before_every_passage_left_out() -> None:
    beats = champions._ranks_before
    assert beats((10, 2.0), [(1.5, 7)])            # scores above the floor
    assert not beats((10, 1.0), [(1.5, 7)])        # below it: a left-out passage may win
    assert beats((5, 1.5), [(1.5, 7)])             # a tie, and its id comes first
    assert not beats((9, 1.5), [(1.5, 7)])         # a tie, but a left-out id 8 would come first
    assert beats((9, 3.0), [(1.5, 7), (1.5, 12)])  # at the sum, before the largest floor id
    assert not beats((13, 3.0), [(1.5, 7), (1.5, 12)])


def test_lists_are_json_safe_for_any_word(corpus: Store) -> None:
    # words reach SQL only as bound JSON or quoted FTS5 strings
    hostile = ['"', "a\" OR \"b", "x'); DROP TABLE passages; --"]
    with corpus.engine.connect() as c:
        for word in hostile:
            champions.top(c, [[[word]]], fts.match_expression([[word]], "sqlite"), "", {}, 5)
        assert c.execute(text("SELECT count(*) FROM passages")).scalar() > 0


def test_one_treaty_is_ranked_among_its_own_passages(corpus: Store) -> None:
    common, rare = _words(corpus)
    filters = "AND p.treaty_id = :treaty"
    with corpus.engine.connect() as c:
        for treaty in [t.id for t in corpus.list_treaties()][:6]:
            for groups in [[[w]] for w in common[:40]] + [[[common[0]], [common[1], rare[0]]]]:
                expected = _oracle(c, fts.match_expression(groups, "sqlite"), filters, {"treaty": treaty}, 3)
                found = fts.search_rows(c, groups, filters=filters, params={"treaty": treaty}, limit=3)
                assert [i for i, _ in found] == [i for i, _ in expected]
                assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-12)
