"""Cases files: the strict loader.

A cases file is YAML (`.yaml`, `.yml`) or JSON Lines (`.jsonl`). YAML holds a list of cases, or a
mapping `{treaty, parties, cases: [...]}` whose `treaty` and `parties` are defaults for its cases.
JSON Lines holds one case per line (blank lines are skipped).

Two shapes of case (issue 7):

- decision: `{id, treaty, parties?, scenario: {...}, expect: {status, max_rate_pct,
  source_taxation, article, eid, missing_facts, caveats}}` -- `scenario` uses the keys of `taxtreaty ask`;
  `expect` is any subset; `caveats` lists caveat kinds (`mfn`, `main_purpose`, ...) the decision must carry,
  `without_caveats` kinds it must not (a clause on other incomes or kinds).
- extraction: `{id, treaty, parties?, provision: {topic, kind, language?}, expect: {rate_pct,
  status, conditions, allocation, values, eid}}` -- passes when one provision of that topic and
  kind (and language) meets every expectation.
- structure: `{id, treaty, structure: {language?}, expect: {articles, article_count, parties,
  signed, languages, protocols}}` -- `articles` lists every article in order as "10 dividends"
  (number, then topic or `-` for none).

`quote` (text, or a list of texts) is the words of the treaty the expectation rests on. When the
treaty is a file, the loader checks that every quote is in it (whitespace, line breaks and
markdown escapes aside), so a pack cannot rest on words the text does not have.

`convention` (a number from 1, in a case or as a default of the file) names the convention a case
is about in a file holding several (an Act's schedules): such a file is refused unless one is chosen.

`description` is free text for the reader. Any other key, anywhere, is an error that names the
file and the case (as OpenFisca's loader does): a misspelt `max_rate` must not silently check
nothing.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from taxtreaty.checks.quotes import QuoteChecker
from taxtreaty.rules import labels
from taxtreaty.rules.facts import fact_schema
from taxtreaty.text import InputError

#: the scenario keys of `taxtreaty ask`, `POST /ask` and the ledger columns: the fact schema's
SCENARIO_KEYS = frozenset(fact_schema().keys)
INCOME_TYPES = frozenset(fact_schema().choices("income"))
DECISION_EXPECT_KEYS = frozenset({
    "status", "max_rate_pct", "source_taxation", "article", "eid", "missing_facts", "caveats", "without_caveats",
})
DECISION_STATUSES = frozenset({"determined", "indeterminate", "not_covered"})
SOURCE_TAXATION = frozenset({"none", "limited", "unlimited"})

PROVISION_SELECT_KEYS = frozenset({"topic", "kind", "language"})
PROVISION_EXPECT_KEYS = frozenset({"rate_pct", "status", "conditions", "allocation", "values", "eid"})
PROVISION_STATUSES = frozenset({"determined", "unknown"})
PROVISION_KINDS = frozenset({
    "withholding_cap", "exemption", "allocation", "threshold", "relief_method", "time_limit", "date",
    "anti_abuse", "prevailing_language",
})

STRUCTURE_SELECT_KEYS = frozenset({"language"})
STRUCTURE_EXPECT_KEYS = frozenset({"articles", "article_count", "parties", "signed", "languages", "protocols"})

CASE_KEYS = frozenset({"id", "description", "treaty", "convention", "parties", "scenario", "provision", "structure",
                       "expect", "quote"})
FILE_KEYS = frozenset({"treaty", "convention", "parties", "cases", "description"})
SUFFIXES = (".yaml", ".yml", ".jsonl")


class CaseFileError(InputError):
    """A cases file that cannot be loaded; the message names the file and, where known, the case."""


@dataclass
class Case:
    id: str
    treaty: str
    #: "decision" (scenario -> decide) or "provision" (provision selector -> extract_provisions)
    kind: str
    expect: dict[str, Any]
    parties: list[str] | None = None
    #: of a file holding several conventions (an Act's schedules), the one the case is about (1-based)
    convention: int | None = None
    scenario: dict[str, Any] = field(default_factory=dict)
    provision: dict[str, str] = field(default_factory=dict)
    description: str | None = None
    #: the treaty's words the expectation rests on (checked against the source file on loading)
    quotes: list[str] = field(default_factory=list)
    #: the file the case came from (treaty paths are relative to its folder) and its position
    file: Path = Path(".")
    index: int = 0

    @property
    def where(self) -> str:
        return f"{self.file}: case {self.id!r}"


@dataclass
class CaseFile:
    path: Path
    cases: list[Case]


def load_cases(path: str | Path) -> CaseFile:
    """Read and validate a cases file, or raise `CaseFileError` with a one-line reason."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise CaseFileError(f"{path}: a cases file must end in .yaml, .yml or .jsonl")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CaseFileError(f"{path}: no such cases file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(f"{path}: cannot read cases file: {exc}") from None
    raw_cases, defaults = _read_jsonl(path, text) if path.suffix.lower() == ".jsonl" else _read_yaml(path, text)
    cases: list[Case] = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_cases, start=1):
        case = _case(path, index, raw, defaults)
        if case.id in seen:
            raise CaseFileError(f"{path}: case {case.id!r}: duplicate id")
        seen.add(case.id)
        cases.append(case)
    if not cases:
        raise CaseFileError(f"{path}: no cases")
    return CaseFile(path=path, cases=cases)


# -- reading ------------------------------------------------------------------------------------


def _read_jsonl(path: Path, text: str) -> tuple[list[Any], dict[str, Any]]:
    cases = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            cases.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise CaseFileError(f"{path}:{number}: not valid JSON: {exc.msg}") from None
    return cases, {}


def _read_yaml(path: Path, text: str) -> tuple[list[Any], dict[str, Any]]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise CaseFileError(f"{path}{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if isinstance(data, list):
        return data, {}
    if isinstance(data, dict):
        unknown = sorted(set(data) - FILE_KEYS)
        if unknown:
            raise CaseFileError(f"{path}: unknown top-level key {unknown[0]!r} (allowed: {_names(FILE_KEYS)})")
        if not isinstance(data.get("cases"), list):
            raise CaseFileError(f"{path}: 'cases' must be a list of cases")
        defaults = {k: data[k] for k in ("treaty", "convention", "parties") if k in data}
        return data["cases"], defaults
    raise CaseFileError(f"{path}: expected a list of cases or a mapping with 'cases'")


# -- validating ---------------------------------------------------------------------------------


def _names(keys: frozenset[str]) -> str:
    return ", ".join(sorted(keys))


def _case(path: Path, index: int, raw: Any, defaults: dict[str, Any]) -> Case:
    if not isinstance(raw, dict):
        raise CaseFileError(f"{path}: case #{index}: expected a mapping, got {type(raw).__name__}")
    case_id = raw.get("id")
    if not isinstance(case_id, str | int) or isinstance(case_id, bool) or str(case_id).strip() == "":
        raise CaseFileError(f"{path}: case #{index}: missing 'id'")
    case_id = str(case_id)
    where = f"{path}: case {case_id!r}"

    def err(message: str) -> CaseFileError:
        return CaseFileError(f"{where}: {message}")

    unknown = sorted(set(raw) - CASE_KEYS)
    if unknown:
        raise err(f"unknown key {unknown[0]!r} (allowed: {_names(CASE_KEYS)})")
    merged = {**defaults, **raw}
    treaty = merged.get("treaty")
    if not isinstance(treaty, str) or not treaty.strip():
        raise err("missing 'treaty' (a path relative to the cases file, or a stored id)")
    parties = _parties(merged.get("parties"), err)
    convention = merged.get("convention")
    if convention is not None and (not isinstance(convention, int) or isinstance(convention, bool) or convention < 1):
        raise err(f"'convention' must be a number from 1, the convention of the file the case is about (got {convention!r})")
    description = raw.get("description")
    if description is not None and not isinstance(description, str):
        raise err("'description' must be text")
    expect = raw.get("expect")
    if not isinstance(expect, dict) or not expect:
        raise err("missing 'expect' (a mapping of the values to check)")
    shapes = [key for key in ("scenario", "provision", "structure") if key in raw]
    if len(shapes) != 1:
        raise err("a case has exactly one of 'scenario' (a decision), 'provision' (an extraction) "
                  "or 'structure' (the document tree)")
    quotes = _quotes(raw.get("quote"), err)
    if quotes:
        _quote_checker().check(path.parent, treaty.strip(), quotes, err)
    common = {"id": case_id, "treaty": treaty.strip(), "convention": convention, "parties": parties,
              "description": description,
              "file": path, "index": index, "quotes": quotes}
    if "structure" in raw:
        return Case(kind="structure", provision=_structure_select(raw["structure"], err),
                    expect=_structure_expect(expect, err), **common)
    if "scenario" in raw:
        return Case(kind="decision", scenario=_scenario(raw["scenario"], err),
                    expect=_decision_expect(expect, err), **common)
    return Case(kind="provision", provision=_provision_select(raw["provision"], err),
                expect=_provision_expect(expect, err), **common)


def _parties(value: Any, err: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, str) and len(v.strip()) == 2 and v.strip().isalpha() for v in value)):
        raise err(f"'parties' must be two ISO 3166 codes such as [PT, CN] (got {value!r})")
    return [v.strip().upper() for v in value]


def _scenario(value: Any, err: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise err("'scenario' must be a mapping")
    unknown = sorted(set(value) - SCENARIO_KEYS)
    if unknown:
        raise err(f"unknown scenario key {unknown[0]!r} (allowed: {_names(SCENARIO_KEYS)})")
    for needed in ("income", "source", "residence"):
        if needed not in value:
            raise err(f"scenario needs {needed!r}")
    if value["income"] not in INCOME_TYPES:
        raise err(f"unknown income {value['income']!r} (allowed: {_names(INCOME_TYPES)})")
    scenario = {}
    for key, item in value.items():
        # YAML reads 1998-06-01 as a date; the engine takes ISO strings as JSON does
        scenario[key] = item.isoformat() if isinstance(item, dt.date) else item
    return scenario


def _check_keys(value: Any, allowed: frozenset[str], what: str, err: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise err(f"{what!r} must be a mapping")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise err(f"unknown key {unknown[0]!r} in {what} (allowed: {_names(allowed)})")
    return value


def _rate(value: Any, key: str, err: Any) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise err(f"{key!r} must be a number or null")
    try:
        rate = Decimal(str(value).strip().rstrip("%").strip())
    except InvalidOperation:
        raise err(f"{key!r} must be a number or null (got {value!r})") from None
    if not rate.is_finite() or not 0 <= rate <= 100:
        raise err(f"{key!r} must be a percentage between 0 and 100 (got {value!r})")
    return rate


def _decision_expect(value: dict[str, Any], err: Any) -> dict[str, Any]:
    _check_keys(value, DECISION_EXPECT_KEYS, "expect", err)
    expect = dict(value)
    if "status" in expect and expect["status"] not in DECISION_STATUSES:
        raise err(f"expect.status must be one of {_names(DECISION_STATUSES)} (got {expect['status']!r})")
    if "source_taxation" in expect and expect["source_taxation"] not in SOURCE_TAXATION:
        raise err(f"expect.source_taxation must be one of {_names(SOURCE_TAXATION)}")
    if "max_rate_pct" in expect:
        expect["max_rate_pct"] = _rate(expect["max_rate_pct"], "max_rate_pct", err)
    if "article" in expect:
        expect["article"] = str(expect["article"])
    if "missing_facts" in expect:
        facts = expect["missing_facts"]
        if not isinstance(facts, list) or not all(isinstance(f, str) for f in facts):
            raise err("expect.missing_facts must be a list of scenario keys")
        unknown = sorted(set(facts) - SCENARIO_KEYS)
        if unknown:
            raise err(f"expect.missing_facts names {unknown[0]!r}, which is not a scenario key")
    for key in ("caveats", "without_caveats"):
        if key in expect:
            _caveat_kinds(expect[key], key, err)
    return expect


def _caveat_kinds(kinds: Any, key: str, err: Any) -> None:
    if not isinstance(kinds, list) or not kinds or not all(isinstance(k, str) for k in kinds):
        raise err(f"expect.{key} must be a non-empty list of caveat kinds")
    unknown = [k for k in kinds if not labels.has("caveat_kinds", k)]
    if unknown:
        known = _names(frozenset(labels.section("caveat_kinds")))
        raise err(f"expect.{key} names {unknown[0]!r}, which is not a caveat kind (one of {known})")


def _provision_select(value: Any, err: Any) -> dict[str, str]:
    select = _check_keys(value, PROVISION_SELECT_KEYS, "provision", err)
    if "topic" not in select or "kind" not in select:
        raise err("'provision' needs 'topic' and 'kind'")
    if select["kind"] not in PROVISION_KINDS:
        raise err(f"unknown provision kind {select['kind']!r} (allowed: {_names(PROVISION_KINDS)})")
    return {k: str(v) for k, v in select.items()}


def _provision_expect(value: dict[str, Any], err: Any) -> dict[str, Any]:
    _check_keys(value, PROVISION_EXPECT_KEYS, "expect", err)
    expect = dict(value)
    if "status" in expect and expect["status"] not in PROVISION_STATUSES:
        raise err(f"expect.status must be one of {_names(PROVISION_STATUSES)} (got {expect['status']!r})")
    if "rate_pct" in expect:
        expect["rate_pct"] = _rate(expect["rate_pct"], "rate_pct", err)
    for key in ("conditions", "values"):
        if key in expect and not isinstance(expect[key], dict):
            raise err(f"expect.{key} must be a mapping")
    return expect


# -- quotes and structure cases -----------------------------------------------------------------


@cache
def _quote_checker() -> QuoteChecker:
    return QuoteChecker()


def _quotes(value: Any, err: Any) -> list[str]:
    if value is None:
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(q, str) and q.strip() for q in items):
        raise err("'quote' must be the treaty's words: a text or a list of texts")
    return [q.strip() for q in items]


def _structure_select(value: Any, err: Any) -> dict[str, str]:
    if value is None:
        return {}
    select = _check_keys(value, STRUCTURE_SELECT_KEYS, "structure", err)
    return {k: str(v) for k, v in select.items()}


def _structure_expect(value: dict[str, Any], err: Any) -> dict[str, Any]:
    _check_keys(value, STRUCTURE_EXPECT_KEYS, "expect", err)
    expect = dict(value)
    if "articles" in expect:
        articles = expect["articles"]
        if not isinstance(articles, list) or not articles:
            raise err("expect.articles must be a list such as ['1 persons_covered', '10 dividends']")
        pairs = []
        for item in articles:
            parts = str(item).split()
            if len(parts) != 2:
                raise err(f"expect.articles: {item!r} must be 'NUMBER TOPIC' (TOPIC '-' for none)")
            pairs.append((parts[0], None if parts[1] == "-" else parts[1]))
        expect["articles"] = pairs
    if "article_count" in expect and (not isinstance(expect["article_count"], int) or expect["article_count"] < 0):
        raise err("expect.article_count must be a whole number")
    if "parties" in expect:
        expect["parties"] = _parties(expect["parties"], err)
    if "signed" in expect:
        signed = expect["signed"]
        expect["signed"] = signed.isoformat() if isinstance(signed, dt.date) else str(signed)
    for key in ("languages",):
        if key in expect and (not isinstance(expect[key], list) or not all(isinstance(v, str) for v in expect[key])):
            raise err(f"expect.{key} must be a list of language codes")
    if "protocols" in expect and (not isinstance(expect["protocols"], int) or expect["protocols"] < 0):
        raise err("expect.protocols must be a whole number (how many protocols the text holds)")
    return expect
