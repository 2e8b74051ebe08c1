"""Property tests: real conventions, damaged as gazettes and scanners damage them, keep their invariants.

Sources: the seeds, the corpus fragments, windows of the corpus conventions and the synthetic
conventions of tests/cases/treaties. Damage (taxtreaty.checks.damage): lines dropped, page
furniture between and inside paragraphs, words hyphenated across a page, OCR swaps in markers,
truncation, whitespace noise, other encodings.

Invariants
- parse: nothing but InputError escapes; every eId is unique in its version; every span lies in
  the source.
- provisions: every quote equals the source at its span and its eId exists; damage never invents
  a determined rate (a damaged text may lose certainty, never gain a different answer); furniture
  and whitespace never change a determined rate.
- decide: never raises on a valid scenario; every trace quote equals the source at its span.

Budget: TAXTREATY_FUZZ_EXAMPLES (or TAXTREAY_FUZZ_EXAMPLES) examples per test, 25 by default, so
the module runs in well under a minute on 2 cores; a nightly run sets it to thousands. Without the
variable the examples are derandomized (the same every run); with it they are random.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, SEEDS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taxtreaty import InputError, parse
from taxtreaty.checks import damage
from taxtreaty.structure.conventions import SeveralConventionsError
from taxtreaty.structure.model import Document, iter_nodes

_BUDGET = os.environ.get("TAXTREATY_FUZZ_EXAMPLES") or os.environ.get("TAXTREAY_FUZZ_EXAMPLES")
EXAMPLES = int(_BUDGET or 25)
# The default run (CI, developers) draws the same examples every time, so it is reproducible and
# a red run is never luck; a run with an explicit budget (nightly) explores new random examples.
FUZZ = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=not _BUDGET,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SYNTHETIC = Path(__file__).resolve().parent / "cases" / "treaties"


def _corpus_window(text: str, size: int = 14000) -> str:
    """Articles 10-12 of a long convention, cut at line ends: enough law, little time."""
    at = max(0, text.find("Article 10"))
    start = text.rfind("\n", 0, max(0, at - 1500)) + 1
    end = text.find("\n", start + size)
    return text[start: end if end > 0 else len(text)]


def _each_convention(name: str, text: str) -> dict[str, str]:
    """A text of one convention as it is; one holding several (an Act's schedules), each convention's
    lines on their own ("name#2" from its title's line), since the whole is refused."""
    try:
        parse(text)
    except SeveralConventionsError as exc:
        lines = text.split("\n")
        starts = [0] + [c.line - 1 for c in exc.conventions[1:] if c.line]
        ends = [*starts[1:], len(lines)]
        return {f"{name}#{k}": "\n".join(lines[a:b]) for k, (a, b) in enumerate(zip(starts, ends, strict=True), 1)}
    return {name: text}


def _sources() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(SYNTHETIC.glob("*.txt")):
        found.update(_each_convention(path.name, path.read_text(encoding="utf-8")))
    for path in sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []:
        found[path.name] = path.read_text(encoding="utf-8")
    for path in sorted((CORPUS / "fragments").glob("*.txt")) if CORPUS.is_dir() else []:
        found[path.name] = path.read_text(encoding="utf-8")
    for path in sorted((CORPUS / "nl").glob("*_EN.txt"))[:4] if CORPUS.is_dir() else []:
        found[path.name] = _corpus_window(path.read_text(encoding="utf-8"))
    return found


SOURCES = _sources()
NAMES = sorted(SOURCES)


def _parse_or_none(data: bytes | str) -> Document | None:
    try:
        return parse(data)
    except InputError as exc:
        assert "\n" not in str(exc).strip(), "InputError messages are one line"
        return None


def check_document(doc: Document) -> None:
    size = len(doc.original)
    for version in doc.versions:
        eids = [node.eid for node in iter_nodes(version)]
        duplicates = {e for e in eids if eids.count(e) > 1}
        assert not duplicates, f"duplicate eIds in [{version.language}]: {sorted(duplicates)[:5]}"
        for node in [version, *version.articles, *version.chapters, *version.protocols, *iter_nodes(version)]:
            start, end = node.span
            assert 0 <= start <= end <= size, f"{getattr(node, 'eid', version.language)} span {node.span} outside 0..{size}"


@dataclass(frozen=True)
class Damaged:
    """A source damaged from a seed; its repr is what reproduces it, not 100 kB of text."""

    name: str
    seed: int
    rounds: int
    mutations: tuple[str, ...] | None

    def __repr__(self) -> str:
        return f"Damaged({self.name!r}, seed={self.seed}, rounds={self.rounds}, mutations={self.mutations})"

    @property
    def text(self) -> str:
        return damage.damage(SOURCES[self.name], random.Random(self.seed), list(self.mutations or ()) or None,
                             self.rounds)


@st.composite
def damaged_texts(draw: st.DrawFn, mutations: tuple[str, ...] | None = None) -> Damaged:
    return Damaged(draw(st.sampled_from(NAMES)), draw(st.integers(0, 2**32 - 1)), draw(st.integers(1, 4)), mutations)


# -- parse --------------------------------------------------------------------------------------


@FUZZ
@given(damaged_texts(), st.sampled_from(damage.ENCODINGS))
def test_parse_keeps_its_invariants_on_damaged_text(case: Damaged, encoding: str) -> None:
    doc = _parse_or_none(damage.encode(case.text, encoding))
    if doc is not None:
        check_document(doc)


@FUZZ
@given(st.sampled_from(NAMES), st.sampled_from(["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"]))
def test_an_encoding_that_holds_every_character_changes_no_eid(name: str, encoding: str) -> None:
    text = SOURCES[name]
    plain, other = parse(text.encode("utf-8")), parse(text.encode(encoding))
    assert other.original == plain.original
    for a, b in zip(plain.versions, other.versions, strict=True):
        assert [(n.eid, n.span) for n in iter_nodes(a)] == [(n.eid, n.span) for n in iter_nodes(b)]


@FUZZ
@given(st.binary(max_size=2000) | st.text(max_size=2000).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_parse_of_arbitrary_bytes_raises_only_input_error(data: bytes) -> None:
    doc = _parse_or_none(data)
    if doc is not None:
        check_document(doc)


# -- provisions ---------------------------------------------------------------------------------


def _extractor() -> Callable[..., Any]:
    try:
        from taxtreaty.provisions import extract_provisions
    except ImportError as exc:
        pytest.skip(f"the provisions extractor has not landed yet: {exc}")
    return extract_provisions


def _determined_caps(provisions: Any) -> set[tuple[str, str, Decimal]]:
    return {
        (p.cite.language, p.topic, Decimal(p.rate_pct))
        for p in provisions.provisions
        if p.kind == "withholding_cap" and p.status == "determined" and p.rate_pct is not None
    }


def check_provisions(doc: Document, provisions: Any) -> None:
    for p in provisions.provisions:
        start, end = p.cite.span
        assert doc.original[start:end] == p.cite.quote, f"{p.id}: quote is not the source at {p.cite.span}"
        # a final clause (prevailing language, signature) is cited by a pseudo-eId outside the articles
        if p.kind not in {"prevailing_language", "date"}:
            assert doc.find(p.cite.eid, p.cite.language) is not None, f"{p.id}: eId {p.cite.eid} not in the document"
        if p.status == "unknown":
            assert p.reason, f"{p.id}: unknown without a reason"


_clean_provisions: dict[str, Any] = {}


def _provisions_of_source(name: str) -> Any:
    if name not in _clean_provisions:
        _clean_provisions[name] = _extractor()(parse(SOURCES[name]))
    return _clean_provisions[name]


def _caps_of_source(name: str) -> set[tuple[str, str, Decimal]]:
    return _determined_caps(_provisions_of_source(name))


@FUZZ
@given(damaged_texts(), st.sampled_from(damage.ENCODINGS))
def test_damage_never_invents_a_rate(case: Damaged, encoding: str) -> None:
    extract = _extractor()
    name = case.name
    doc = _parse_or_none(damage.encode(case.text, encoding))
    if doc is None:
        return
    provisions = extract(doc)
    check_provisions(doc, provisions)
    invented = _determined_caps(provisions) - _caps_of_source(name)
    # "?" stands for characters an encoding could not hold: "?" is never a digit, so no new rate
    assert not invented, f"damage produced determined rates the clean text does not have: {sorted(invented)}"


@FUZZ
@given(damaged_texts(damage.NEUTRAL_MUTATIONS))
def test_furniture_and_whitespace_never_change_a_determined_rate(case: Damaged) -> None:
    extract = _extractor()
    name = case.name
    provisions = extract(parse(case.text))
    by_eid = {(p.cite.language, p.cite.eid, p.topic): p.rate_pct for p in _provisions_of_source(name).provisions
              if p.kind == "withholding_cap" and p.status == "determined"}
    for p in provisions.provisions:
        if p.kind == "withholding_cap" and p.status == "determined":
            key = (p.cite.language, p.cite.eid, p.topic)
            assert key not in by_eid or by_eid[key] == p.rate_pct or (key[0], key[2], Decimal(p.rate_pct)) in \
                _caps_of_source(name), f"{key}: rate {p.rate_pct} after furniture, {by_eid[key]} before"
    assert _determined_caps(provisions) <= _caps_of_source(name)


def _cut_after(text: str, marker: str) -> str:
    at = text.index(marker) + len(marker)
    return text[:at]


def test_a_list_cut_after_its_announcement_makes_the_rate_unknown_not_different() -> None:
    extract = _extractor()
    text = SOURCES["synthetic_en_pt_is.txt"]
    whole = extract(parse(text)).find(topic="dividends", kind="withholding_cap")
    assert {p.rate_pct for p in whole if p.status == "determined"} == {Decimal("5"), Decimal("15")}
    for cut in (_cut_after(text, "shall not exceed:"), _cut_after(text, "(a) five per cent of the gross amount")):
        caps = extract(parse(cut)).find(topic="dividends", kind="withholding_cap")
        assert caps, "the announced cap is still reported, as unknown"
        assert all(p.status == "unknown" or p.rate_pct in {Decimal("5"), Decimal("15")} for p in caps)
        assert not any(p.status == "determined" and p.rate_pct == Decimal("15") for p in caps), \
            "the residual 15% of (b) is not in the cut text"


def test_list_items_removed_from_the_middle_of_a_file_make_dividends_unknown() -> None:
    extract = _extractor()
    text = SOURCES["synthetic_en_pt_is.txt"]
    lines = [line for line in text.split("\n") if not line.startswith(("(a) five", "(b) fifteen"))]
    caps = extract(parse("\n".join(lines))).find(topic="dividends", kind="withholding_cap")
    assert caps and all(p.status == "unknown" and p.rate_pct is None for p in caps)


# -- decide -------------------------------------------------------------------------------------

INCOMES = ("dividends", "interest", "royalties", "business_profits", "shipping", "employment", "pensions",
           "directors_fees", "entertainers", "government_service", "students", "teachers", "capital_gains",
           "immovable_property", "other_income")
RECIPIENTS = ("individual", "company", "government", "local_authority", "central_bank", "named_institution")
PAYERS = ("individual", "company", "government", "local_authority", "central_bank", "other")


def _decider() -> Callable[..., Any]:
    try:
        from taxtreaty.rules import decide
    except ImportError as exc:
        pytest.skip(f"the rules engine has not landed yet: {exc}")
    return decide


@st.composite
def scenarios(draw: st.DrawFn, parties: tuple[str, str]) -> dict[str, Any]:
    source, residence = draw(st.permutations(parties))
    scenario: dict[str, Any] = {"income": draw(st.sampled_from(INCOMES)), "source": source, "residence": residence}
    optional = {
        "date": st.dates(min_value=__import__("datetime").date(1990, 1, 1),
                         max_value=__import__("datetime").date(2035, 12, 31)).map(lambda d: d.isoformat()),
        "amount": st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False).map(str),
        "beneficial_owner": st.booleans(),
        "recipient": st.sampled_from(RECIPIENTS),
        "capital_pct": st.decimals(min_value=0, max_value=100, places=2, allow_nan=False).map(str),
        "held_months": st.integers(0, 600),
        "pe_connected": st.booleans(),
        "payer": st.sampled_from(PAYERS),
        "days_present": st.integers(0, 366),
    }
    for key in draw(st.lists(st.sampled_from(sorted(optional)), unique=True)):
        scenario[key] = draw(optional[key])
    return scenario


def _decision_dict(decision: Any) -> dict[str, Any]:
    return decision.to_dict() if hasattr(decision, "to_dict") else dict(decision)


@FUZZ
@given(damaged_texts(), st.data())
def test_decide_never_raises_and_its_trace_quotes_the_source(case: Damaged, data: st.DataObject) -> None:
    decide = _decider()
    doc = _parse_or_none(case.text)
    if doc is None:
        return
    parties = tuple(doc.parties) if len(doc.parties) == 2 else ("PT", "CN")
    doc.parties = list(parties)
    scenario = data.draw(scenarios(parties))  # type: ignore[arg-type]
    decision = _decision_dict(decide(doc, scenario))
    assert decision["status"] in {"determined", "indeterminate", "not_covered"}
    for step in decision.get("trace") or []:
        start, end = step["span"]
        assert doc.original[start:end] == step["quote"], f"trace quote of {step['eid']} is not the source"
    if decision["status"] == "determined" and decision.get("max_rate_pct") is not None:
        assert 0 <= Decimal(str(decision["max_rate_pct"])) <= 100
