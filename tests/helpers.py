"""Helpers the test files share: the red-team fixture folders, finding provisions by eId and kind,
extracting a text with every quote checked, and the candidates of a decision."""

from __future__ import annotations

import sys
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS

import taxtreaty
from taxtreaty.provisions.model import Provision, ProvisionSet

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str,
            columns: int | None = None) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `taxtreaty ARGS` run in this process (a message as the exit is 1)."""
    from taxtreaty.interfaces.cli import main

    monkeypatch.setattr(sys, "argv", ["taxtreaty", *args])
    if columns is not None:
        monkeypatch.setenv("COLUMNS", str(columns))
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


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
#: the bilingual fixtures whose versions split correctly (all of them since es_en_alternating.txt was fixed)
BILINGUAL_SPLIT = list(BILINGUAL.files)


# -- the Dutch collection's texts and the unread-condition texts the provisions tests share ------

NL = CORPUS / "nl"


@cache
def nl_document(code: str) -> taxtreaty.Document:
    """A convention of the Dutch collection, parsed once (skips when ../shared is not beside the repo)."""
    path = NL / f"NL-{code}_convention_EN.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return taxtreaty.parse_file(str(path))


@cache
def corpus(code: str) -> ProvisionSet:
    path = NL / f"NL-{code}_convention_EN.txt"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return taxtreaty.provisions(taxtreaty.parse_file(str(path)))


EN_UNREAD = """CONVENTION BETWEEN THE KINGDOM OF SPAIN AND THE REPUBLIC OF ESTONIA

Article 10
Dividends

1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.

2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed:

a) nil per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly at least 20 per cent of the capital of the company paying the dividends, on condition that the shares of that company are listed on a stock exchange of either State;

b) ten per cent of the gross amount of the dividends in all other cases.

3. Notwithstanding subparagraph a) of paragraph 2, so long as the company paying the dividends is allowed to deduct them from its taxable profits under the laws of Spain, the tax so charged shall not exceed 12 per cent of the gross amount of the dividends.

Article 11
Interest

1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.

2. However, such interest may also be taxed in the Contracting State in which it arises, but if the beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed eight per cent of the gross amount of the interest; provided that where the interest is paid on a loan made for a period of more than ten years the tax so charged shall not exceed 4 per cent of the gross amount of the interest.

3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be exempt from tax in that State if it is paid to the State of Estonia or to a financial institution wholly owned by the Government of Estonia.
"""


PT_UNREAD = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E O REINO DE ESPANHA

Artigo 10.º
Dividendos

1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:

a) 5 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha directamente pelo menos 25 % do capital da sociedade que paga os dividendos, desde que as acções dessa sociedade sejam cotadas numa bolsa de valores reconhecida;

b) 15 % do montante bruto dos dividendos, nos restantes casos.

3 — Não obstante o disposto na alínea a) do n.º 2, os dividendos pagos ao Estado Português ficam isentos de imposto.

Artigo 11.º
Juros

1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá 10 % do montante bruto dos juros.
"""


ES_UNREAD = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA PORTUGUESA

Artículo 10
Dividendos

1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero, si el beneficiario efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:

a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 10 por ciento del capital de la sociedad que paga los dividendos, siempre que dicha sociedad no sea una sociedad de inversión colectiva;

b) 15 por ciento del importe bruto de los dividendos en los demás casos.

3. No obstante lo dispuesto en el apartado a) del párrafo 2, los dividendos pagados al Estado español estarán exentos de imposición.
"""


# -- the provisions fixtures, extracted with every quote checked against the file ------------

PROVISION_FIXTURES = FIXTURES / "provisions"


def extract_fixture(name: str) -> tuple[ProvisionSet, str]:
    path = PROVISION_FIXTURES / name
    doc = taxtreaty.parse_file(str(path))
    result = taxtreaty.provisions(doc)
    text = Path(path).read_text(encoding="utf-8")
    for p in result.provisions:
        assert text[p.cite.span[0] : p.cite.span[1]] == p.cite.quote
    return result, text


# -- interest articles in the Dutch collection's wording (NL-BD, NL-UG), read and decided -------

INTEREST_HEAD = (
    "Convention between the Kingdom of the Netherlands and the People's Republic of Bangladesh\n\n"
    "Article 11\nInterest\n\n"
    "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be "
    "taxed in that other State.\n\n"
    "2. However, such interest may also be taxed in the Contracting State in which it arises and according to "
    "the laws of that State, but if the recipient is the beneficial owner of the interest the tax so charged "
    "shall not exceed 10 per cent of the gross amount of the interest.\n\n"
)

NAMED_BANKS = INTEREST_HEAD + (
    "3. Notwithstanding the provisions of paragraph 2:\n"
    "a) the Bangladesh Bank shall be exempt from Netherlands tax with respect to interest arising in the "
    "Netherlands;\n"
    "b) the Central Bank of the Netherlands shall be exempt from Bangladesh tax with respect to interest "
    "arising in Bangladesh;\n"
    "c) the Government of a Contracting State shall be exempt from tax in the other Contracting State with "
    "respect to interest arising in that other State.\n"
)

LOAN_PROVISO = INTEREST_HEAD.replace("People's Republic of Bangladesh", "Republic of Uganda") + (
    "3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be exempt "
    "from tax in that State if it is paid in respect of a loan of any kind\n"
    "a) granted or guaranteed by the government of the other Contracting State;\n"
    "b)\n"
    "(i)granted by a bank,\n"
    "(ii)granted by a financial institution of a public character,provided that in the case of this "
    "sub-paragraph the loan repayment period is 3 years or more.\n"
)


DIVIDENDS_LIST = (
    "Article 10\nDividends\n\n1. Dividends paid by a company which is a resident of a Contracting State to a "
    "resident of the other Contracting State may be taxed in that other State.\n\n2. However, such dividends may "
    "also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the "
    "beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not "
    "exceed:\n(a) {low} of the gross amount of the dividends if the beneficial owner is a company which holds "
    "{holding} of the capital of the company paying the dividends;\n(b) {high} of the gross amount of the "
    "dividends in all other cases.\n"
)


#: a convention of the fictional States Norvalia (NO) and Estmark (EE): 5% for a company's 25% holding, 15%
#: otherwise, no holding period of its own (the MLI tests add article 8's 365 days from its date of effect)
NORVALIA_ESTMARK_DIVIDENDS = (
    "CONVENTION BETWEEN NORVALIA AND ESTMARK\n\nArticle 10\nDividends\n\n1. Dividends paid by a company which is a "
    "resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.\n\n"
    "2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends "
    "is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the "
    "tax so charged shall not exceed:\n(a) 5 per cent of the gross amount of the dividends if the beneficial owner is "
    "a company which holds directly at least 25 per cent of the capital of the company paying the dividends;\n"
    "(b) 15 per cent of the gross amount of the dividends in all other cases.\n"
)
