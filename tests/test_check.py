"""`taxtreaty check`: the strict loader, the comparison rules, the report, and the command."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from decimal import Decimal
from pathlib import Path

import pytest

from taxtreaty.checks import CaseFileError, load_cases, run_cases
from taxtreaty.checks import run as check_run
from taxtreaty.checks.compare import article_key, same, show
from taxtreaty.checks.treaties import resolve_path

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cases"
TREATY_TEXT = textwrap.dedent("""\
    Article 10
    Dividends

    1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.

    2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but the tax so charged shall not exceed 15 per cent of the gross amount of the dividends.
    """)


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from taxtreaty.interfaces.cli import main; main()", *args],
        capture_output=True, text=True, cwd=cwd, timeout=300,
    )


# -- the loader ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("- {id: a, treaty: t.txt, scenario: {income: dividends, source: PT, residence: CN}, expect: {max_rate: 10}}",
         "case 'a': unknown key 'max_rate' in expect"),
        ("- {id: b, treaty: t.txt, scenario: {income: dividends, source: PT, residence: CN, shares: 3}, expect: {status: determined}}",
         "case 'b': unknown scenario key 'shares'"),
        ("- {id: c, treaty: t.txt, scenario: {income: dividends, source: PT, residence: CN}, expect: {status: determined}, note: x}",
         "case 'c': unknown key 'note'"),
        ("- {id: d, treaty: t.txt, provision: {topic: dividends, kind: cap}, expect: {rate_pct: 10}}",
         "case 'd': unknown provision kind 'cap'"),
        ("- {id: e, treaty: t.txt, provision: {topic: dividends, kind: withholding_cap, article: 10}, expect: {rate_pct: 10}}",
         "case 'e': unknown key 'article' in provision"),
        ("- {id: f, treaty: t.txt, scenario: {income: wages, source: PT, residence: CN}, expect: {status: determined}}",
         "case 'f': unknown income 'wages'"),
        ("- {id: g, treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {status: done}}",
         "case 'g': expect.status must be one of"),
        ("- {id: h, treaty: t.txt, scenario: {income: interest, source: PT}, expect: {status: determined}}",
         "case 'h': scenario needs 'residence'"),
        ("- {id: i, treaty: t.txt, expect: {status: determined}}",
         "case 'i': a case has exactly one of 'scenario'"),
        ("- {id: j, treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {max_rate_pct: ten}}",
         "case 'j': 'max_rate_pct' must be a number"),
        ("- {id: k, scenario: {income: interest, source: PT, residence: CN}, expect: {status: determined}}",
         "case 'k': missing 'treaty'"),
        ("- {id: l, treaty: t.txt, parties: [PT], scenario: {income: interest, source: PT, residence: CN}, expect: {status: determined}}",
         "case 'l': 'parties' must be two ISO 3166 codes"),
        ("- {id: m, treaty: t.txt, provision: {topic: interest, kind: exemption}, expect: {status: exempt}}",
         "case 'm': expect.status must be one of"),
        ("- {id: n, treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {missing_facts: [age]}}",
         "case 'n': expect.missing_facts names 'age'"),
        ("- {id: n2, treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {caveats: [mnf]}}",
         "case 'n2': expect.caveats names 'mnf', which is not a caveat kind"),
        ("- {id: n3, treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {without_caveats: mfn}}",
         "case 'n3': expect.without_caveats must be a non-empty list of caveat kinds"),
        ("- {treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {status: determined}}",
         "case #1: missing 'id'"),
        ("- {id: o, treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {status: determined}}\n"
         "- {id: o, treaty: t.txt, scenario: {income: interest, source: PT, residence: CN}, expect: {status: determined}}",
         "case 'o': duplicate id"),
        ("treaty: t.txt\nkases: []", "unknown top-level key 'kases'"),
        ("- {id: p, treaty: t.txt, scenario: {income: interest", "not valid YAML"),
        ("[]", "no cases"),
    ],
)
def test_loader_rejects_what_it_does_not_know_naming_file_and_case(tmp_path: Path, body: str, message: str) -> None:
    path = write(tmp_path / "bad.yaml", body)
    with pytest.raises(CaseFileError) as info:
        load_cases(path)
    assert str(path) in str(info.value)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_loader_reads_yaml_with_file_defaults_and_dates(tmp_path: Path) -> None:
    path = write(tmp_path / "ok.yaml", """\
        treaty: t.txt
        parties: [pt, cn]
        cases:
          - id: one
            scenario: {income: dividends, source: CN, residence: PT, date: 1998-06-01, capital_pct: 30}
            expect: {status: determined, max_rate_pct: "10 %", article: 10}
          - id: two
            treaty: other.txt
            parties: [ES, MX]
            provision: {topic: interest, kind: withholding_cap, language: es}
            expect: {rate_pct: 4.9, conditions: {paid_from: 1997-01-01}}
        """)
    one, two = load_cases(path).cases
    assert (one.id, one.kind, one.treaty, one.parties) == ("one", "decision", "t.txt", ["PT", "CN"])
    assert one.scenario["date"] == "1998-06-01"
    assert one.expect == {"status": "determined", "max_rate_pct": Decimal("10"), "article": "10"}
    assert (two.kind, two.treaty, two.parties) == ("provision", "other.txt", ["ES", "MX"])
    assert two.provision == {"topic": "interest", "kind": "withholding_cap", "language": "es"}
    assert two.expect["rate_pct"] == Decimal("4.9")


def test_loader_reads_jsonl_and_names_the_bad_line(tmp_path: Path) -> None:
    case = {"id": "x", "treaty": "t.txt", "scenario": {"income": "interest", "source": "PT", "residence": "CN"},
            "expect": {"max_rate_pct": 10}}
    good = write(tmp_path / "ok.jsonl", json.dumps(case) + "\n\n" + json.dumps({**case, "id": "y"}) + "\n")
    assert [c.id for c in load_cases(good).cases] == ["x", "y"]
    bad = write(tmp_path / "bad.jsonl", json.dumps(case) + "\n{not json\n")
    with pytest.raises(CaseFileError, match=r"bad\.jsonl:2: not valid JSON"):
        load_cases(bad)
    with pytest.raises(CaseFileError, match=r"must end in \.yaml, \.yml or \.jsonl"):
        load_cases(write(tmp_path / "cases.txt", "[]"))


def test_every_shipped_cases_file_loads() -> None:
    files = sorted(CASES.glob("*.yaml"))
    main_files = {"seeds.yaml", "synthetic_en.yaml", "synthetic_es.yaml", "synthetic_pt.yaml"}
    assert {f.name for f in files} >= main_files
    for path in files:
        cases = load_cases(path).cases
        assert cases, path
        if path.name in main_files:
            assert len(cases) >= 10
            assert {c.kind for c in cases} == {"decision", "provision"}, path


# -- comparing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual", "result"),
    [
        (Decimal("10"), "10", True), (Decimal("10"), Decimal("10.00"), True), (Decimal("10"), 10.0, True),
        (Decimal("10"), "15", False), (Decimal("10"), None, False), (None, None, True), (None, "10", False),
        (None, [], True), ("1996-12-31", "1996-12-31", True), (__import__("datetime").date(1996, 12, 31), "1996-12-31", True),
        (__import__("datetime").date(1996, 12, 31), __import__("datetime").date(1997, 1, 1), False),
        (["government", "local_authority"], ["local_authority", "government"], True),
        (["government"], ["government", "central_bank"], False), (True, True, True), (True, False, False),
        (True, None, False), (25, Decimal("25"), True), ("USD", "USD", True), ("USD", "EUR", False),
        ({"days": 183}, {"days": 183, "period_months": 12}, True), ({"days": 183}, {"days": 30}, False),
        ("credit", "credit", True), ("9000", 9000, True),
    ],
)
def test_same_compares_as_a_case_writer_means(expected: object, actual: object, result: bool) -> None:
    assert same(expected, actual) is result


@pytest.mark.parametrize(
    ("value", "key"),
    [("10", "10"), ("art_10", "10"), ("art_10__para_3", "10"), ("Article 10(3)", "10"), ("Art. 8 A", "8a"),
     ("Artigo 7.º", "7"), ("10 bis", "10bis"), (None, None), ("7", "7"),
     # an article printed in roman numerals ("ARTICULO XVIII") is the "18" a case writes
     ("XVIII", "18"), ("IV", "4"), ("Xbis", "10bis")],
)
def test_article_key(value: str | None, key: str | None) -> None:
    assert article_key(value) == key


def test_show_prints_values_as_typed() -> None:
    assert show(Decimal("10.0")) == "10"
    assert show(Decimal("2.5")) == "2.5"
    assert show(None) == "null"
    assert show({"days": 30, "list": [Decimal("1")]}) == "{days: 30, list: [1]}"


# -- running, with a stand-in engine so the report format is tested on its own ------------------


class FakeDecision:
    def __init__(self, **fields: object) -> None:
        self.fields = fields

    def to_dict(self) -> dict[str, object]:
        return dict(self.fields)


def test_report_lists_each_mismatch_with_expected_and_actual(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "t.txt", TREATY_TEXT)
    path = write(tmp_path / "cases.yaml", """\
        treaty: t.txt
        parties: [PT, CN]
        cases:
          - id: right
            scenario: {income: dividends, source: CN, residence: PT, beneficial_owner: true}
            expect: {status: determined, max_rate_pct: 15, article: "10", eid: art_10__para_2}
          - id: wrong-rate
            scenario: {income: dividends, source: CN, residence: PT, beneficial_owner: true}
            expect: {max_rate_pct: 10, source_taxation: limited}
          - id: wrong-article
            scenario: {income: dividends, source: CN, residence: PT}
            expect: {article: "7", missing_facts: [capital_pct]}
        """)
    seen: list[tuple[list[str], dict[str, object]]] = []

    def fake_decide(document, scenario):  # type: ignore[no-untyped-def]
        seen.append((list(document.parties), scenario))
        return FakeDecision(status="determined", max_rate_pct="15", source_taxation="limited",
                            article_applied="10", eid="art_10__para_2", trace=[], missing_facts=[])

    monkeypatch.setattr(check_run, "_decide", lambda: fake_decide)
    report = run_cases(load_cases(path))
    assert report.summary_line() == "1 passed, 2 failed"
    assert [r.case.id for r in report.failures()] == ["wrong-rate", "wrong-article"]
    assert report.failures()[0].line() == "FAIL cases.yaml:wrong-rate: max_rate_pct: expected 10, got 15 (status determined)"
    line = report.failures()[1].line()
    assert "article: expected 7, got 10" in line
    assert "missing_facts: expected [capital_pct], got []" in line
    assert seen[0] == (["PT", "CN"], {"income": "dividends", "source": "CN", "residence": "PT", "beneficial_owner": True})


def test_caveat_expectations_check_the_kinds_a_decision_carries_and_must_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "t.txt", TREATY_TEXT)
    path = write(tmp_path / "cases.yaml", """\
        treaty: t.txt
        parties: [PT, CN]
        cases:
          - id: carries
            scenario: {income: interest, source: CN, residence: PT}
            expect: {caveats: [mfn], without_caveats: [main_purpose]}
          - id: lacks
            scenario: {income: interest, source: CN, residence: PT}
            expect: {caveats: [mfn, main_purpose]}
          - id: must-not
            scenario: {income: interest, source: CN, residence: PT}
            expect: {without_caveats: [mfn]}
        """)
    decision = FakeDecision(status="determined", max_rate_pct="10", trace=[], missing_facts=[],
                            caveats=[{"kind": "mfn", "eid": "protocol_1__para_3", "quote": "a lower rate"}])
    monkeypatch.setattr(check_run, "_decide", lambda: lambda document, scenario: decision)
    report = run_cases(load_cases(path))
    assert report.summary_line() == "1 passed, 2 failed"
    lacks, must_not = report.failures()
    assert "caveats: expected [mfn, main_purpose], got [mfn]" in lacks.line()
    assert "without_caveats: expected none of [mfn], got [mfn]" in must_not.line()


def test_provision_case_passes_when_one_provision_meets_every_expectation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from taxtreaty.provisions.model import Citation, Provision, ProvisionSet

    write(tmp_path / "t.txt", TREATY_TEXT)
    cite = Citation(language="en", eid="art_10__para_2", quote="15 per cent", span=(0, 11))
    provisions = ProvisionSet(provisions=[
        Provision(id="1", topic="dividends", kind="withholding_cap", rate_pct=Decimal("15"),
                  conditions={"beneficial_owner": True}, cite=cite),
        Provision(id="2", topic="dividends", kind="withholding_cap", rate_pct=Decimal("5"),
                  conditions={"min_capital_pct": Decimal("25"), "recipient": "company"}, cite=cite),
    ])
    monkeypatch.setattr(check_run, "_extract", lambda: lambda document, parties=None: provisions)
    path = write(tmp_path / "cases.yaml", """\
        treaty: t.txt
        cases:
          - {id: general, provision: {topic: dividends, kind: withholding_cap}, expect: {rate_pct: 15, status: determined}}
          - {id: holding, provision: {topic: dividends, kind: withholding_cap},
             expect: {rate_pct: 5, conditions: {min_capital_pct: 25}, eid: art_10__para_2}}
          - {id: mixed, provision: {topic: dividends, kind: withholding_cap}, expect: {rate_pct: 15, conditions: {min_capital_pct: 25}}}
          - {id: absent, provision: {topic: interest, kind: withholding_cap}, expect: {rate_pct: 10}}
          - {id: other-language, provision: {topic: dividends, kind: withholding_cap, language: pt}, expect: {rate_pct: 15}}
        """)
    report = run_cases(load_cases(path))
    assert [r.case.id for r in report.failures()] == ["mixed", "absent", "other-language"]
    assert "expected a withholding_cap of dividends with {rate_pct: 15, conditions: {min_capital_pct: 25}}, got " \
           "en:art_10__para_2 determined rate_pct 15" in report.failures()[0].line()
    assert report.failures()[1].line().endswith("expected a withholding_cap of interest with {rate_pct: 10}, got none")


def test_an_engine_that_raises_fails_the_case_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "t.txt", TREATY_TEXT)
    path = write(tmp_path / "c.yaml", """\
        - {id: boom, treaty: t.txt, scenario: {income: dividends, source: CN, residence: PT}, expect: {status: determined}}
        """)

    def broken(document, scenario):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(check_run, "_decide", lambda: broken)
    report = run_cases(load_cases(path))
    assert report.summary_line() == "0 passed, 1 failed"
    assert report.failures()[0].line() == "FAIL c.yaml:boom: cannot run: decide raised ZeroDivisionError: division by zero"


def test_treaty_paths_resolve_from_the_cases_file_then_the_treaties_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cases").mkdir()
    (tmp_path / "texts").mkdir()
    write(tmp_path / "cases" / "near.txt", TREATY_TEXT)
    write(tmp_path / "texts" / "far.txt", TREATY_TEXT)
    assert resolve_path("near.txt", tmp_path / "cases", None) == tmp_path / "cases" / "near.txt"
    assert resolve_path("far.txt", tmp_path / "cases", None) is None
    assert resolve_path("far.txt", tmp_path / "cases", str(tmp_path / "texts")) == tmp_path / "texts" / "far.txt"
    assert resolve_path("far", tmp_path / "cases", str(tmp_path / "texts")) == tmp_path / "texts" / "far.txt"
    monkeypatch.setenv("TREATY_HOME", str(tmp_path / "texts"))
    assert resolve_path("$TREATY_HOME/far.txt", tmp_path / "cases", None) == tmp_path / "texts" / "far.txt"


# -- the command --------------------------------------------------------------------------------


def test_check_command_fails_a_case_whose_treaty_cannot_be_read(tmp_path: Path) -> None:
    write(tmp_path / "empty.txt", "   \n")
    write(tmp_path / "binary.txt", "")
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02" * 100)
    path = write(tmp_path / "cases.yaml", """\
        - {id: gone, treaty: no-such-treaty.txt, scenario: {income: dividends, source: CN, residence: PT}, expect: {status: determined}}
        - {id: empty, treaty: empty.txt, provision: {topic: dividends, kind: withholding_cap}, expect: {rate_pct: 10}}
        - {id: binary, treaty: binary.txt, provision: {topic: dividends, kind: withholding_cap}, expect: {rate_pct: 10}}
        """)
    result = run_cli("check", str(path))
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("FAIL cases.yaml:gone: cannot run: treaty not found: no-such-treaty.txt (looked at ")
    assert lines[1] == "FAIL cases.yaml:empty: cannot run: cannot parse treaty " + str(tmp_path / "empty.txt") + ": input is empty"
    assert lines[2].startswith("FAIL cases.yaml:binary: cannot run: cannot parse treaty ")
    assert "binary" in lines[2].split(": ", 3)[-1]
    assert lines[-1] == "0 passed, 3 failed"
    assert result.stderr == ""


def test_check_command_rejects_a_malformed_cases_file_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path / "cases.yaml", """\
        - {id: typo, treaty: t.txt, scenario: {income: dividends, source: CN, residence: PT}, expect: {max_rate: 10}}
        """)
    result = run_cli("check", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"taxtreaty: error: {path}: case 'typo': unknown key 'max_rate' in expect "
        "(allowed: article, caveats, eid, max_rate_pct, missing_facts, source_taxation, status, without_caveats)"
    )


def _engines_available() -> str | None:
    try:
        from taxtreaty.provisions import extract_provisions  # noqa: F401
        from taxtreaty.rules import decide  # noqa: F401
    except ImportError as exc:
        return str(exc)
    return None


def test_shipped_cases_are_green() -> None:
    missing = _engines_available()
    if missing:
        pytest.skip(f"the rules engine or the extractor has not landed yet: {missing}")
    files = sorted(str(p.relative_to(ROOT)) for p in CASES.glob("*.yaml") if not p.name.startswith("pending"))
    result = run_cli("check", *files)
    assert result.stdout.splitlines()[-1].endswith(" 0 failed"), result.stdout
    assert result.returncode == 0


@pytest.mark.parametrize("pending_file", sorted(CASES.glob("pending*.yaml")), ids=lambda p: p.name)
def test_pending_cases_still_fail_and_say_why(pending_file: Path) -> None:
    """Cases read from the text that the engine does not answer yet live in pending*.yaml (none
    at the moment); each must still fail, and move to its treaty's file once it passes."""
    missing = _engines_available()
    if missing:
        pytest.skip(f"the rules engine or the extractor has not landed yet: {missing}")
    pending = load_cases(pending_file)
    report = run_cases(pending)
    now_passing = [r.case.id for r in report.results if r.passed]
    assert not now_passing, f"pending cases now pass: move {now_passing} from {pending_file.name} to their treaty's file"
    assert all(r.error is None for r in report.results), [r.line() for r in report.failures()]


def test_a_wrong_expectation_over_a_real_treaty_fails_with_expected_and_actual(tmp_path: Path) -> None:
    missing = _engines_available()
    if missing:
        pytest.skip(f"the rules engine has not landed yet: {missing}")
    treaty = CASES / "treaties" / "synthetic_en_pt_is.txt"
    path = write(tmp_path / "wrong.yaml", f"""\
        - id: interest-is-not-30
          treaty: {treaty}
          parties: [PT, IS]
          scenario: {{income: interest, source: PT, residence: IS, beneficial_owner: true, recipient: company, payer: company}}
          expect: {{max_rate_pct: 30}}
        """)
    result = run_cli("check", str(path))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "FAIL wrong.yaml:interest-is-not-30: max_rate_pct: expected 30, got 12 (status determined)",
        "0 passed, 1 failed",
    ]


def test_stored_treaty_ids_resolve_through_the_store(tmp_path: Path) -> None:
    missing = _engines_available()
    if missing:
        pytest.skip(f"the rules engine has not landed yet: {missing}")
    from taxtreaty.store import Store

    database = tmp_path / "treaties.sqlite"
    with Store.open(str(database)) as store:
        store.ingest([str(CASES / "treaties" / "synthetic_en_pt_is.txt")])
        (stored_id,) = [t.id for t in store.list_treaties()]
    path = write(tmp_path / "stored.yaml", f"""\
        - id: by-id
          treaty: {stored_id}
          scenario: {{income: interest, source: PT, residence: IS, beneficial_owner: true, recipient: company, payer: company}}
          expect: {{status: determined, max_rate_pct: 12, eid: art_11__para_2}}
        - id: unknown-id
          treaty: XX-YY-1900
          provision: {{topic: interest, kind: withholding_cap}}
          expect: {{rate_pct: 12}}
        """)
    result = run_cli("check", str(path), "--treaties", str(database))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("FAIL stored.yaml:unknown-id: cannot run: treaty 'XX-YY-1900': ")
    assert lines[1] == "1 passed, 1 failed"


def test_quotes_are_checked_against_the_treaty_file(tmp_path):
    treaty = write(tmp_path / "t.txt", "##### Artículo 10\n\nDIVIDENDOS\n\n1\\. Los dividendos **pagados** por una\nsociedad\n")
    good = write(tmp_path / "good.yaml", """\
        treaty: t.txt
        cases:
          - id: ok
            quote: ["Artículo 10 DIVIDENDOS", "1. Los dividendos pagados por una sociedad"]
            structure: {}
            expect: {article_count: 1}
        """)
    assert treaty.exists() and load_cases(good).cases[0].quotes
    bad = write(tmp_path / "bad.yaml", """\
        treaty: t.txt
        cases:
          - id: invented
            quote: "Los dividendos pagados por una sociedad residente"
            structure: {}
            expect: {article_count: 1}
        """)
    with pytest.raises(CaseFileError, match=r"case 'invented': quote not found in t\.txt"):
        load_cases(bad)


def test_structure_cases_compare_articles_in_order(tmp_path):
    write(tmp_path / "t.txt", "Article 1\nPersons covered\n\nThis Convention applies to persons.\n\n"
                              "Article 2\nDividends\n\n1. Dividends paid may be taxed.\n")
    path = write(tmp_path / "cases.yaml", """\
        treaty: t.txt
        cases:
          - id: right
            structure: {}
            expect: {articles: ["1 persons_covered", "2 dividends"], article_count: 2}
          - id: wrong-order
            structure: {}
            expect: {articles: ["2 dividends", "1 persons_covered"]}
          - id: wrong-topic
            structure: {}
            expect: {articles: ["1 persons_covered", "2 interest"]}
        """)
    report = run_cases(load_cases(path))
    assert [r.passed for r in report.results] == [True, False, False]
    assert "another order" in report.results[1].line()
    assert "expected but not found: 2 interest" in report.results[2].line()


def test_structure_cases_list_roman_articles_by_their_arabic_number(tmp_path):
    # AR-BR prints "ARTICULO I" ... "ARTICULO XXIX"; a pack lists them as "1" ... "29" (PACKS.md)
    write(tmp_path / "t.txt", "ARTICLE I\nPersons covered\n\nThis Convention applies to persons.\n\n"
                              "ARTICLE II\nDividends\n\n1. Dividends paid may be taxed.\n")
    path = write(tmp_path / "cases.yaml", """\
        treaty: t.txt
        cases:
          - id: arabic
            structure: {}
            expect: {articles: ["1 persons_covered", "2 dividends"]}
          - id: roman-as-printed
            structure: {}
            expect: {articles: ["I persons_covered", "II dividends"]}
        """)
    report = run_cases(load_cases(path))
    assert [r.passed for r in report.results] == [True, False]
