"""Helpers the test files share: the red-team fixture folders, finding provisions by eId and kind,
extracting a text with every quote checked, and the candidates of a decision."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import taxtreaty
from taxtreaty.provisions.model import Provision, ProvisionSet

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def at(ps: ProvisionSet, eid: str, kind: str | None = None, language: str | None = None) -> list[Provision]:
    """The provisions cited at `eid` (of `kind`, in `language`, when given)."""
    return [p for p in ps.provisions if p.cite.eid == eid and (kind is None or p.kind == kind)
            and (language is None or p.cite.language == language)]


def one(ps: ProvisionSet, eid: str, kind: str, language: str | None = None) -> Provision:
    """The one provision of `kind` cited at `eid`."""
    found = at(ps, eid, kind, language)
    assert len(found) == 1, [p.id for p in found]
    return found[0]


def only(ps: ProvisionSet, eid: str, kind: str, **fields: object) -> Provision:
    """The one provision of `kind` at `eid` whose fields have these values."""
    found = [p for p in ps.provisions if p.cite.eid == eid and p.kind == kind
             and all(getattr(p, k) == v for k, v in fields.items())]
    assert len(found) == 1, [(p.cite.eid, p.kind, p.rate_pct) for p in ps.provisions]
    return found[0]


def caps_under(ps: ProvisionSet, eid_prefix: str) -> list[Provision]:
    """The withholding caps cited under an eId prefix, in eId order."""
    return sorted((p for p in ps.provisions if p.kind == "withholding_cap" and p.cite.eid.startswith(eid_prefix)),
                  key=lambda p: p.cite.eid)


def assert_quotes_are_the_original(doc: taxtreaty.Document, ps: ProvisionSet) -> None:
    for p in ps.provisions:
        assert doc.original[p.cite.span[0] : p.cite.span[1]] == p.cite.quote, p.id


def extract_text(text: str) -> ProvisionSet:
    """The provisions of a text of the test's own, every quote checked against the text."""
    doc = taxtreaty.parse(text)
    ps = taxtreaty.provisions(doc)
    assert_quotes_are_the_original(doc, ps)
    return ps


def candidates(decision: dict[str, Any]) -> set[tuple[str | None, str | None]]:
    """(eid, max_rate_pct) of every candidate of an indeterminate decision (as `to_dict` gives it)."""
    return {(c["eid"], c["max_rate_pct"]) for c in decision["candidates"]}


def candidate_rates(decision: Any) -> dict[str, Decimal | None]:
    """eid -> the most the source State may take if that candidate is the one that applies."""
    out = {}
    for c in decision.to_dict().get("candidates", []):
        out[c["eid"]] = None if c["max_rate_pct"] is None else Decimal(c["max_rate_pct"])
    return out


class Redteam:
    """The synthetic conventions of one red-team folder (tests/fixtures/redteam/<folder>/), parsed
    and extracted once each, and decided with the folder's defaults (a date, the parties, the
    dates of effect taken as known or not)."""

    def __init__(self, folder: str, *, scenario: dict[str, Any] | None = None,
                 parties: tuple[str, ...] | None = None, in_force: Any = "text", document_only: bool = False) -> None:
        self.folder = FIXTURES / "redteam" / folder
        self.scenario = scenario or {}
        self.parties = parties
        self.in_force = in_force  # "text": the dates the text gives; (None, None): in force throughout
        self.document_only = document_only  # decide on the Document (the engine extracts and caches)

    @property
    def files(self) -> list[str]:
        return sorted(p.name for p in self.folder.glob("*.txt"))

    @property
    def paths(self) -> list[Path]:
        return sorted(self.folder.glob("*.txt"))

    def parsed(self, name: str) -> tuple[taxtreaty.Document, ProvisionSet]:
        return _parsed(self.folder / name)

    def doc(self, name: str) -> taxtreaty.Document:
        return self.parsed(name)[0]

    def provisions(self, name: str) -> ProvisionSet:
        return self.parsed(name)[1]

    def items(self, name: str) -> list[Provision]:
        return self.parsed(name)[1].provisions

    def at(self, name: str | ProvisionSet, eid: str, kind: str | None = None) -> list[Provision]:
        return at(self._set(name), eid, kind)

    def one(self, name: str | ProvisionSet, eid: str, kind: str) -> Provision:
        return one(self._set(name), eid, kind)

    def at_in(self, name: str, language: str, eid: str, kind: str) -> list[Provision]:
        return at(self.provisions(name), eid, kind, language)

    def one_in(self, name: str, language: str, eid: str, kind: str) -> Provision:
        return one(self.provisions(name), eid, kind, language)

    def ask(self, name: str, **facts: Any) -> Any:
        """The decision (a `Decision`) on this fixture for the scenario, with the folder's defaults."""
        kwargs: dict[str, Any] = {}
        if self.parties is not None:
            kwargs["parties"] = self.parties
        if self.in_force != "text":
            kwargs["in_force"] = self.in_force
        treaty = self.doc(name) if self.document_only else self.parsed(name)
        return taxtreaty.decide(treaty, {**self.scenario, **facts}, **kwargs)

    def decide(self, name: str, **facts: Any) -> dict[str, Any]:
        return self.ask(name, **facts).to_dict()

    def _set(self, name: str | ProvisionSet) -> ProvisionSet:
        return name if isinstance(name, ProvisionSet) else self.provisions(name)


@cache
def _parsed(path: Path) -> tuple[taxtreaty.Document, ProvisionSet]:
    doc = taxtreaty.parse_file(str(path))
    return doc, taxtreaty.provisions(doc)


#: the red-team folders, with the defaults their tests decide with
EN = Redteam("en", scenario={"date": "2024-05-01"}, document_only=True)
PT = Redteam("pt", scenario={"date": "2025-05-01"}, in_force=(None, None))
ES = Redteam("es")
BILINGUAL = Redteam("bilingual")
RULES = Redteam("rules", scenario={"date": "2025-05-01", "source": "NO", "residence": "EE"},
                parties=("NO", "EE"), in_force=(None, None))
#: the bilingual fixtures whose versions split correctly (es_en_alternating.txt is an open finding)
BILINGUAL_SPLIT = [name for name in BILINGUAL.files if name != "es_en_alternating.txt"]
