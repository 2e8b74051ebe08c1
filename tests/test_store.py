"""The store: ingest (idempotent, grouped into conventions), show, export, migrations, on both backends."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import test_store_support as support
from conftest import SEEDS, seed_path
from sqlalchemy import create_engine

from taxtreaty.store import Store
from taxtreaty.store.synthetic import convention
from taxtreaty.text import InputError

STORE_FIXTURES = support.STORE_FIXTURES
write_synthetic = support.write_synthetic
#: fixtures: an empty store per test, on each backend
store = support.store
store_url = support.store_url


def test_ingest_twice_duplicates_nothing(store: Store, tmp_path: Path) -> None:
    first = store.ingest([str(SEEDS)])
    assert len(first.added) == 5 and not first.rejected
    counts = store.counts()
    assert counts["documents"] == 5 and counts["passages"] > 100
    # the same bytes under another name are the same document
    copy = tmp_path / "renamed.txt"
    shutil.copy(seed_path("000"), copy)
    second = store.ingest([str(SEEDS), str(copy)])
    assert second.added == [] and len(second.skipped) == 6
    assert all(item.reason == "already in the store" for item in second.skipped)
    assert store.counts() == counts
    assert store.check() == []


def test_bilingual_seed_is_one_convention_with_two_versions(store: Store) -> None:
    report = store.ingest([str(seed_path("002"))])
    [added] = report.added
    detail = store.get_treaty(added.treaty or "")
    assert detail.parties == ["PT", "TL"]
    assert detail.languages == ["pt", "en"]
    assert detail.signed_date == "2011-09-27"
    assert detail.prevailing_language == "pt"
    assert len(store.list_treaties()) == 1
    numbers = {(a.language, a.number) for a in detail.article_list}
    assert ("pt", "10") in numbers and ("en", "10") in numbers


def test_language_versions_in_separate_files_join_by_parties_and_date(store: Store, tmp_path: Path) -> None:
    for lang in ("en", "pt", "es"):
        text = convention(7, language=lang, parties=("PT", "JP"), signed="2019-06-12").text
        (tmp_path / f"pt-jp.{lang}.txt").write_text(text, encoding="utf-8")
    # another convention between the same States, signed on another day, stays apart
    (tmp_path / "pt-jp-old.txt").write_text(convention(8, language="en", parties=("PT", "JP"),
                                                       signed="1980-02-02").text, encoding="utf-8")
    report = store.ingest([str(tmp_path)])
    assert len(report.added) == 4
    treaties = {t.id: t for t in store.list_treaties()}
    assert len(treaties) == 2
    joined = next(t for t in treaties.values() if t.signed_date == "2019-06-12")
    assert joined.parties == ["JP", "PT"] and sorted(joined.languages) == ["en", "es", "pt"]
    assert joined.documents == 3


def test_fragments_of_one_convention_in_several_files_are_joined(store: Store) -> None:
    report = store.ingest([str(STORE_FIXTURES / "fragments")])
    assert len(report.added) == 2
    assert len({item.treaty for item in report.added}) == 1
    detail = store.get_treaty(report.added[0].treaty or "")
    assert [a.number for a in detail.article_list] == ["9", "10", "11", "12", "13"]
    assert "continues the previous fragment" in detail.grouping


def test_fragments_of_different_conventions_stay_apart(store: Store) -> None:
    # 000 (en, arts 8-11) and 001 (pt, arts 8-11) and 003 (es) and 004 (pt, 6-10): overlapping or other languages
    report = store.ingest([str(SEEDS)])
    assert len({item.treaty for item in report.added}) == 5


def test_explicit_treaty_groups_files(store: Store) -> None:
    report = store.ingest([str(seed_path("001")), str(seed_path("004"))], treaty="PT-XX-1995")
    assert {item.treaty for item in report.added} == {"PT-XX-1995"}
    assert store.get_treaty("PT-XX-1995").documents == 2
    with pytest.raises(InputError, match="--treaty"):
        store.ingest([str(seed_path("000"))], treaty="bad id with spaces")


def test_rejections_are_reported_with_reasons(store: Store, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    report = store.ingest([str(STORE_FIXTURES / "not_a_treaty.txt"), str(empty), str(tmp_path / "missing.txt"),
                           str(seed_path("000"))])
    reasons = {Path(item.path or "").name: item.reason for item in report.rejected}
    assert "no articles" in (reasons["not_a_treaty.txt"] or "") or "convention" in (reasons["not_a_treaty.txt"] or "")
    assert reasons["empty.txt"] == "the file is empty"
    assert reasons["missing.txt"] == "no such file or folder"
    assert len(report.added) == 1 and not report.ok
    assert store.counts()["documents"] == 1


def test_glob_and_folder_expansion(store: Store, tmp_path: Path) -> None:
    write_synthetic(tmp_path / "corpus" / "sub", range(3))
    report = store.ingest([str(tmp_path / "corpus" / "**" / "*.txt")])
    assert len(report.added) == 3
    assert store.ingest([str(tmp_path / "corpus")]).skipped[0].reason == "already in the store"


def test_show_article_and_paragraph_with_citations(store: Store) -> None:
    store.ingest([str(seed_path("002"))])
    view = store.article("PT-TL", "10(2)")
    assert [v.language for v in view.versions] == ["pt", "en"]
    pt, en = view.versions
    assert pt.paragraphs[0].eid == en.paragraphs[0].eid == "art_10__para_2"
    assert "beneficiário efectivo" in pt.paragraphs[0].text
    assert en.paragraphs[0].cite.startswith("Art. 10(2), Convention Portugal–Timor-Leste")
    # the span points at the words in the stored source text
    exported = json.loads(store.export("PT-TL", "json"))
    assert exported["documents"][0]["sha256"] == en.paragraphs[0].sha256
    whole = store.article("PT-TL", "10", lang="en")
    assert [p.number for p in whole.versions[0].paragraphs] == ["1", "2", "3", "4", "5"]
    with pytest.raises(InputError, match="not in the stored text"):
        store.article("PT-TL", "99")
    with pytest.raises(InputError, match="cannot read the article reference"):
        store.article("PT-TL", "ten")
    with pytest.raises(InputError, match="has no 'es' text"):
        store.article("PT-TL", "10", lang="es")
    with pytest.raises(InputError, match="no treaty"):
        store.article("XX-YY", "10")


def test_treaty_prefix_must_be_unique(store: Store) -> None:
    store.ingest([str(seed_path("000")), str(seed_path("001"))])
    assert store.get_treaty("000").id.startswith("000")
    with pytest.raises(InputError, match="ambiguous"):
        store.get_treaty("00")


def test_export_formats(store: Store) -> None:
    report = store.ingest([str(seed_path("002"))])
    treaty = report.added[0].treaty or ""
    data = json.loads(store.export(treaty, "json"))
    assert data["treaty"]["parties"] == ["PT", "TL"]
    assert data["documents"][0]["tree"]["versions"][1]["language"] == "en"
    csv_text = store.export(treaty, "csv")
    header, *rows = csv_text.splitlines()
    assert header.startswith("treaty,sha256,language,eid")
    assert any(",pt,art_10__para_2,10,2,dividends," in row for row in rows)
    akn = store.export(treaty, "akn")
    assert akn.count("<akomaNtoso") == 1 and 'eId="cmp_en__art_10__para_2"' in akn  # a collection of the versions
    assert 'eId="art_10__para_2"' in store.export(treaty, "akn", "en")
    with pytest.raises(InputError, match="unknown export format"):
        store.export(treaty, "pdf")


def test_migrations_build_the_schema_the_models_describe(store_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from taxtreaty.store.database import connect, current_revision, head_revision
    from taxtreaty.store.migrations.env_filters import include_object
    from taxtreaty.store.schema import Base

    engine = connect(store_url)
    assert current_revision(engine) == head_revision()
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"include_object": include_object,
                                                               "compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


def test_store_opened_twice_keeps_its_data_and_revision(store_url: str) -> None:
    with Store.open(store_url) as s:
        s.ingest([str(seed_path("000"))])
    with Store.open(store_url) as s:
        assert s.counts()["documents"] == 1


def test_store_location_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from taxtreaty.store.urls import resolve_url

    monkeypatch.setenv("TAXTREATY_DB", str(tmp_path / "env.sqlite"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'env.sqlite'}"
    assert resolve_url(str(tmp_path / "flag.sqlite")) == f"sqlite:///{tmp_path / 'flag.sqlite'}"
    assert resolve_url("postgresql://u@h:5/db") == "postgresql+psycopg://u@h:5/db"
    assert resolve_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    monkeypatch.delenv("TAXTREATY_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'xdg' / 'taxtreaty' / 'taxtreaty.sqlite'}"
    with pytest.raises(InputError, match="unsupported database URL scheme 'mysql'"):
        resolve_url("mysql://x/y")
    with pytest.raises(InputError, match="is a directory"):
        resolve_url(str(tmp_path))


def test_a_file_that_is_not_a_store_is_refused_untouched(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.txt"
    bogus.write_text("my notes\n")
    with pytest.raises(InputError, match="not a taxtreaty store"):
        Store.open(str(bogus))
    assert bogus.read_text() == "my notes\n"
    with pytest.raises(InputError, match="no store at"):
        Store.open(str(tmp_path / "absent.sqlite"), create=False)
    assert not (tmp_path / "absent.sqlite").exists()


def test_sqlite_store_is_a_plain_file_other_tools_can_read(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store.open(str(path)) as s:
        s.ingest([str(seed_path("003"))])
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as c:
        assert c.exec_driver_sql("SELECT count(*) FROM passages WHERE language = 'es'").scalar() > 5
    engine.dispose()


def test_a_store_made_by_the_first_release_is_upgraded_in_place(store_url: str) -> None:
    from sqlalchemy import text

    from taxtreaty.store.database import current_revision, head_revision, make_engine, migrate

    engine = make_engine(store_url)
    migrate(engine, "0001")
    assert current_revision(engine) == "0001"
    with engine.begin() as c:
        c.execute(text("INSERT INTO terms (term) VALUES ('dividens')"))
    engine.dispose()
    with Store.open(store_url) as s:
        assert current_revision(s.engine) == head_revision() != "0001"
        with s.engine.connect() as c:
            assert c.execute(text("SELECT documents FROM terms WHERE term = 'dividens'")).scalar() == 1
        s.ingest([str(seed_path("000"))])
        assert s.search("dividends", lang="en")[0].treaty.startswith("000")
