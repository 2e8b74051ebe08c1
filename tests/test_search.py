"""Search: ranked, accent- and OCR-tolerant, cross-language; on SQLite FTS5 and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import test_store_support as support
from conftest import SEEDS

from taxtreaty.store import Store
from taxtreaty.store.search import snippet, words_of
from taxtreaty.store.synthetic import convention
from taxtreaty.text import InputError


@pytest.fixture(scope="module", params=support.BACKENDS)
def corpus(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """The seeds, three synthetic conventions and an OCR-damaged fragment, in one store per backend."""
    folder = tmp_path_factory.mktemp("search")
    texts = folder / "texts"
    texts.mkdir()
    for lang, seed in (("en", 101), ("es", 102), ("pt", 103)):
        (texts / f"synthetic_{lang}.txt").write_text(convention(seed, language=lang).text, encoding="utf-8")
    for url in support._database_url(request.param, folder):
        s = Store.open(url)
        report = s.ingest([str(SEEDS), str(texts), str(support.STORE_FIXTURES / "ocr_damaged_es.txt")])
        assert not report.rejected
        yield s
        s.close()


def _text_hits(hits):  # type: ignore[no-untyped-def]
    return [h for h in hits if h.match == "text"]


def test_beneficial_owner_finds_the_english_paragraphs_first(corpus: Store) -> None:
    hits = corpus.search("beneficial owner", limit=60)
    direct = _text_hits(hits)
    assert len(direct) >= 10
    assert {h.language for h in direct} == {"en"}
    assert hits[: len(direct)] == direct  # the query's own words rank before translations
    eids = {(h.treaty[:3], h.eid) for h in direct}
    assert ("000", "art_10__para_2") in eids and ("PT-", "art_10__para_2") in eids
    assert all("**beneficial** **owner**" in h.snippet.replace("**owners**", "**owner**") for h in direct)
    # the Portuguese paragraphs come too, marked as found through a translation
    assert any(h.language == "pt" and h.match == "translation" for h in hits)


def test_beneficiario_efectivo_finds_the_portuguese_paragraphs(corpus: Store) -> None:
    hits = corpus.search("beneficiário efectivo", limit=80)
    direct = _text_hits(hits)
    assert {h.language for h in direct} <= {"pt", "es"}  # "beneficiario efectivo" is Spanish too
    pt = [h for h in direct if h.language == "pt"]
    assert {("PT-", "art_10__para_2"), ("001", "art_10__para_2")} <= {(h.treaty[:3], h.eid) for h in pt}
    only_pt = corpus.search("beneficiário efectivo", lang="pt", limit=80)
    assert only_pt and {h.language for h in only_pt} == {"pt"}


def test_accents_and_case_do_not_matter(corpus: Store) -> None:
    plain = corpus.search("BENEFICIARIO EFECTIVO", lang="pt", limit=80)
    accented = corpus.search("beneficiário efectivo", lang="pt", limit=80)
    assert [h.eid for h in plain] == [h.eid for h in accented]


def test_ocr_damaged_words_are_found(corpus: Store) -> None:
    hits = corpus.search("cánones", treaty="ocr_damaged_es", limit=10)
    assert {h.eid for h in hits} >= {"art_12__para_1", "art_12__para_2"}
    para1 = next(h for h in hits if h.eid == "art_12__para_1")
    assert "**cánoncs**" in para1.snippet
    damaged = corpus.search("beneficiario efectivo", treaty="ocr_damaged_es")
    assert [h.eid for h in damaged] == ["art_12__para_2"] and "**bcneficiario**" in damaged[0].snippet
    # and the other way round: a damaged query word finds the clean text
    assert corpus.search("dividcnds", treaty="000", lang="en")[0].eid.startswith("art_10__para_")


def test_a_query_in_one_language_finds_the_others(corpus: Store) -> None:
    juros = corpus.search("juros", limit=80)
    english_interest = [h for h in juros if h.language == "en" and h.topic == "interest"]
    assert english_interest and all(h.match in ("translation", "topic") for h in english_interest)
    royalties_es = corpus.search("royalties", lang="es", limit=20)
    assert royalties_es and all(h.language == "es" for h in royalties_es)
    assert any("**cánones**" in h.snippet.lower() or "**regalías**" in h.snippet.lower() for h in royalties_es)
    regalias = corpus.search("regalías", lang="en", limit=20)
    assert regalias and all(h.topic == "royalties" for h in regalias)


def test_a_topic_heading_finds_that_topic_in_every_language(corpus: Store) -> None:
    # "Pessoas visadas" is a Portuguese heading; the English and Spanish articles never say it
    hits = corpus.search("Pessoas visadas", limit=50)
    by_language = {h.language for h in hits if h.topic == "persons_covered"}
    assert by_language >= {"en", "es", "pt"}
    assert all(h.match == "topic" for h in hits if h.language != "pt")


def test_ranking_puts_the_best_paragraph_first(corpus: Store) -> None:
    top = corpus.search("uninterrupted period capital stock")[0]
    assert (top.treaty[:3], top.eid) == ("000", "art_10__para_3")
    assert top.cite.startswith("Art. 10(3)")
    assert top.score > 0


def test_filters(corpus: Store) -> None:
    hits = corpus.search("dividendos", topic="dividends", lang="pt", treaty="PT-TL", limit=50)
    assert hits and all(h.treaty.startswith("PT-TL") and h.topic == "dividends" and h.language == "pt"
                        for h in hits)
    assert corpus.search("zzzqqqxxx") == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"query": "  "}, "no words"),
    ({"query": "juros", "topic": "juros"}, "unknown topic"),
    ({"query": "juros", "lang": "xx"}, "unknown language"),
    ({"query": "juros", "treaty": "nope"}, "no treaty"),
    ({"query": "juros", "limit": 0}, "--limit"),
])
def test_bad_queries_are_refused_clearly(corpus: Store, kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        corpus.search(**kwargs)


def test_query_syntax_cannot_be_injected(corpus: Store) -> None:
    assert isinstance(corpus.search('dividends" OR "x AND NOT ( * ) \' & | !'), list)


def test_words_and_snippets() -> None:
    assert words_of("The Beneficiário  efectivo!") == ["beneficiario", "efectivo"]
    text = "A long preamble " * 20 + "if the beneficial owner is a company"
    cut = snippet(text, {"beneficial", "owner"})
    assert cut.startswith("…") and "**beneficial** **owner**" in cut and len(cut) < 300


def test_equal_scores_rank_by_content_not_by_ingest_order(tmp_path) -> None:
    """Two stores with the same texts, ingested in opposite orders, give the same ranking."""
    from conftest import seed_path

    from taxtreaty.store import Store

    texts = [str(seed_path(p)) for p in ("000", "001", "002", "003", "004")]
    rankings = []
    for n, order in enumerate((texts, list(reversed(texts)))):
        with Store.open(str(tmp_path / f"s{n}.sqlite")) as store:
            for text in order:
                store.ingest([text])
            rankings.append([(h.treaty, h.language, h.eid, h.score) for q in ("dividends", "Estado", "tax")
                             for h in store.search(q, limit=50)])
    assert rankings[0] == rankings[1]
    assert len({r[3] for r in rankings[0]}) < len(rankings[0])  # there are ties to order
