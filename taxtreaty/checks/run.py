"""Running cases: each treaty parsed once, each case compared field by field.

A case passes when every value under `expect` matches (see `compare`). It fails, with the
expected and the actual values, when one does not; and it fails, with the reason, when it
cannot run at all: a treaty not found or not readable, the engine missing or raising. Nothing
is ever skipped, so a green run means every case was really checked.

Decision cases: `status`, `max_rate_pct`, `source_taxation` compare with the decision's fields
of the same name; `article` with the article number of `article_applied`; `eid` with the
decision's `eid` when it has one, else with any eId of its trace; `missing_facts` lists facts
that must all be among the decision's missing facts; `caveats` lists caveat kinds that must all be
among the decision's caveats, `without_caveats` kinds none of which may be.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from taxtreaty.checks.cases import Case, CaseFile
from taxtreaty.checks.compare import article_key, as_plain, same, show, subset_mismatches
from taxtreaty.checks.treaties import TreatyLoader, TreatyNotLoaded
from taxtreaty.structure import Document
from taxtreaty.structure.numbers import article_eid_number


@dataclass
class CaseResult:
    case: Case
    passed: bool
    #: one entry per mismatching field: "max_rate_pct: expected 10, got 15"
    mismatches: list[str] = field(default_factory=list)
    #: why the case could not run (treaty unreadable, engine missing or raising)
    error: str | None = None

    def line(self) -> str:
        head = f"FAIL {self.case.file.name}:{self.case.id}"
        if self.error:
            return f"{head}: cannot run: {self.error}"
        return f"{head}: " + "; ".join(self.mismatches)


@dataclass
class Report:
    results: list[CaseResult] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def failed(self) -> int:
        return len(self.results) - self.passed

    def failures(self) -> list[CaseResult]:
        return [r for r in self.results if not r.passed]

    def summary_line(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"


class EngineMissing(Exception):
    pass


def _decide() -> Callable[[Document, dict[str, Any]], Any]:
    try:
        from taxtreaty.rules import decide
    except ImportError as exc:
        raise EngineMissing(f"the rules engine (taxtreaty.rules.decide) is not available: {exc}") from None
    return decide


def _extract() -> Callable[..., Any]:
    try:
        from taxtreaty.provisions import extract_provisions
    except ImportError as exc:
        raise EngineMissing(f"the provisions extractor is not available: {exc}") from None
    return extract_provisions


# -- decisions ----------------------------------------------------------------------------------


def _missing_fact_names(items: Any) -> list[str]:
    names = []
    for item in items or []:
        item = as_plain(item)
        if isinstance(item, dict):
            item = item.get("fact") or item.get("key") or item.get("name")
        if item is not None:
            names.append(str(item))
    return names


def check_decision(case: Case, decision: Any) -> list[str]:
    actual = as_plain(decision)
    if not isinstance(actual, dict):
        return [f"the engine returned {type(decision).__name__}, not a decision"]
    mismatches = []
    for key in ("status", "max_rate_pct", "source_taxation"):
        if key in case.expect and not same(case.expect[key], actual.get(key)):
            mismatches.append(f"{key}: expected {show(case.expect[key])}, got {show(actual.get(key))}")
    if "article" in case.expect:
        applied = actual.get("article_applied", actual.get("article"))
        if article_key(case.expect["article"]) != article_key(applied):
            mismatches.append(f"article: expected {case.expect['article']}, got {show(applied)}")
    if "eid" in case.expect:
        trace_eids = [as_plain(step).get("eid") for step in actual.get("trace") or []]
        if actual.get("eid"):
            ok, got = actual["eid"] == case.expect["eid"], actual["eid"]
        else:
            ok, got = case.expect["eid"] in trace_eids, f"trace {show(trace_eids)}"
        if not ok:
            mismatches.append(f"eid: expected {case.expect['eid']}, got {got}")
    if "missing_facts" in case.expect:
        missing = _missing_fact_names(actual.get("missing_facts"))
        absent = [f for f in case.expect["missing_facts"] if f not in missing]
        if absent:
            mismatches.append(f"missing_facts: expected {show(case.expect['missing_facts'])}, got {show(missing)}")
    carried = [str(as_plain(c).get("kind")) for c in actual.get("caveats") or [] if isinstance(as_plain(c), dict)]
    if "caveats" in case.expect and any(k not in carried for k in case.expect["caveats"]):
        mismatches.append(f"caveats: expected {show(case.expect['caveats'])}, got {show(carried)}")
    if "without_caveats" in case.expect and any(k in carried for k in case.expect["without_caveats"]):
        mismatches.append(f"without_caveats: expected none of {show(case.expect['without_caveats'])}, got {show(carried)}")
    if mismatches:
        context = [f"status {show(actual.get('status'))}"]
        if "max_rate_pct" not in case.expect and actual.get("max_rate_pct") is not None:
            context.append(f"rate {show(actual.get('max_rate_pct'))}")
        if actual.get("reasons"):
            context.append(f"reasons {show(actual.get('reasons'))}")
        mismatches[-1] += f" ({', '.join(context)})"
    return mismatches


# -- provisions ---------------------------------------------------------------------------------


def _provision_mismatches(expect: dict[str, Any], provision: dict[str, Any]) -> list[str]:
    wrong = []
    for key in ("rate_pct", "status", "allocation"):
        if key in expect and not same(expect[key], provision.get(key)):
            wrong.append(key)
    for key in ("conditions", "values"):
        if key in expect:
            wrong.extend(f"{key}.{k}" for k in subset_mismatches(expect[key], provision.get(key) or {}))
    if "eid" in expect and (provision.get("cite") or {}).get("eid") != expect["eid"]:
        wrong.append("eid")
    return wrong


def _describe_provision(provision: dict[str, Any]) -> str:
    parts = [f"{(provision.get('cite') or {}).get('language')}:{(provision.get('cite') or {}).get('eid')}",
             show(provision.get("status"))]
    if provision.get("rate_pct") is not None:
        parts.append(f"rate_pct {show(provision['rate_pct'])}")
    if provision.get("allocation"):
        parts.append(f"allocation {provision['allocation']}")
    if provision.get("conditions"):
        parts.append(f"conditions {show(provision['conditions'])}")
    if provision.get("values"):
        parts.append(f"values {show(provision['values'])}")
    return " ".join(parts)


def check_provisions(case: Case, provision_set: Any) -> list[str]:
    provisions = [as_plain(p) for p in as_plain(provision_set).get("provisions", [])]
    select = case.provision
    candidates = [
        p for p in provisions
        if p.get("topic") == select["topic"] and p.get("kind") == select["kind"]
        and ("language" not in select or (p.get("cite") or {}).get("language") == select["language"])
    ]
    wanted = show(case.expect)
    what = f"{select['kind']} of {select['topic']}" + (f" [{select['language']}]" if "language" in select else "")
    if not candidates:
        return [f"expected a {what} with {wanted}, got none"]
    if any(not _provision_mismatches(case.expect, p) for p in candidates):
        return []
    closest = sorted(candidates, key=lambda p: len(_provision_mismatches(case.expect, p)))[:4]
    return [f"expected a {what} with {wanted}, got " + " | ".join(_describe_provision(p) for p in closest)]


# -- structure ---------------------------------------------------------------------------------


def check_structure(case: Case, document: Document) -> list[str]:
    """The document tree against a structure case: articles in order with their topics, counts,
    parties, signature date, languages."""
    expect = case.expect
    mismatches: list[str] = []
    language = case.provision.get("language")
    versions = [v for v in document.versions if language is None or v.language == language]
    if not versions:
        return [f"no {language or ''} version in the document (has {show([v.language for v in document.versions])})"]
    version = versions[0]
    if "articles" in expect:
        # an article printed in roman numerals ("ARTICULO XXIX") is listed by its arabic value ("29")
        got = [(article_eid_number(a.number), a.topic) for a in version.articles]
        # "8A" as printed is art_8a; roman numerals are listed by their value, never as printed
        want = [(str(n).lower() if str(n)[:1].isdigit() else n, t) for n, t in expect["articles"]]
        if got != want:
            missing = [f"{n} {t or '-'}" for n, t in want if (n, t) not in got]
            extra = [f"{n} {t or '-'}" for n, t in got if (n, t) not in want]
            detail = []
            if missing:
                detail.append(f"expected but not found: {', '.join(missing[:8])}")
            if extra:
                detail.append(f"found but not expected: {', '.join(extra[:8])}")
            if not detail:
                detail.append("the same articles in another order")
            mismatches.append(f"articles [{version.language}]: {len(want)} expected, {len(got)} found; " + "; ".join(detail))
    if "article_count" in expect and len(version.articles) != expect["article_count"]:
        mismatches.append(f"article_count [{version.language}]: expected {expect['article_count']}, got {len(version.articles)}")
    if "protocols" in expect and len(version.protocols) != expect["protocols"]:
        mismatches.append(f"protocols [{version.language}]: expected {expect['protocols']}, got {len(version.protocols)}")
    if "parties" in expect and sorted(document.parties or []) != sorted(expect["parties"]):
        mismatches.append(f"parties: expected {show(expect['parties'])}, got {show(document.parties)}")
    if "signed" in expect:
        signed = document.signed.date if document.signed is not None else None
        if signed != expect["signed"]:
            mismatches.append(f"signed: expected {expect['signed']}, got {show(signed)}")
    if "languages" in expect:
        got_languages = [v.language for v in document.versions]
        if got_languages != expect["languages"]:
            mismatches.append(f"languages: expected {show(expect['languages'])}, got {show(got_languages)}")
    return mismatches


# -- running ------------------------------------------------------------------------------------


def _key(case: Case) -> tuple[Any, ...]:
    return (case.file.parent, case.treaty, case.convention, tuple(case.parties or ()))


def _provisions(case: Case, document: Document, cache: dict[Any, Any]) -> Any:
    extracted = cache.setdefault("provisions", {})
    if _key(case) not in extracted:
        extracted[_key(case)] = _extract()(document, parties=case.parties)
    return extracted[_key(case)]


def _decider(case: Case, document: Document, cache: dict[Any, Any]) -> Callable[[dict[str, Any]], Any]:
    """`scenario -> decision` for the case's treaty; the real engine compiles a treaty once per run,
    from the provisions already extracted for the extraction cases."""
    decide = _decide()
    try:
        from taxtreaty.rules import decide as engine_decide
        from taxtreaty.rules import load_treaty
    except ImportError:
        return lambda scenario: decide(document, scenario)
    if decide is not engine_decide:  # a stand-in engine (tests): give it the document itself
        return lambda scenario: decide(document, scenario)
    compiled = cache.setdefault("compiled", {})
    if _key(case) not in compiled:
        compiled[_key(case)] = load_treaty((document, _provisions(case, document, cache)), case.parties)
    treaty = compiled[_key(case)]
    return lambda scenario: decide(treaty, scenario)


def run_case(case: Case, loader: TreatyLoader, cache: dict[Any, Any] | None = None) -> CaseResult:
    cache = {} if cache is None else cache
    try:
        document = loader.load(case.treaty, case.file.parent, case.convention)
    except TreatyNotLoaded as exc:
        return CaseResult(case, False, error=str(exc))
    if case.parties and case.kind != "structure":  # a structure case checks the parties read from the text
        document.parties = list(case.parties)
    try:
        if case.kind == "structure":
            mismatches = check_structure(case, document)
        elif case.kind == "decision":
            outcome = _decider(case, document, cache)(dict(case.scenario))
            mismatches = check_decision(case, outcome)
        else:
            mismatches = check_provisions(case, _provisions(case, document, cache))
    except EngineMissing as exc:
        return CaseResult(case, False, error=str(exc))
    except Exception as exc:  # a case that crashes the engine is a failing case, reported, not a crash of check
        what = "decide" if case.kind == "decision" else "extract_provisions"
        message = str(exc).splitlines()[0] if str(exc) else ""
        return CaseResult(case, False, error=f"{what} raised {type(exc).__name__}: {message}")
    return CaseResult(case, not mismatches, mismatches=mismatches)


def run_cases(files: CaseFile | Iterable[CaseFile], treaties: str | None = None) -> Report:
    """Run every case of one or more loaded files; treaties are parsed once for the whole run."""
    loader = TreatyLoader(treaties)
    cache: dict[Any, Any] = {}  # compiled treaties and extracted provisions, once per treaty and parties
    report = Report()
    for case_file in [files] if isinstance(files, CaseFile) else list(files):
        for case in case_file.cases:
            report.results.append(run_case(case, loader, cache))
    return report
