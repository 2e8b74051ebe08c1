"""Dates that are not this convention's, and the official collection's status lines (issue 14).

A final clause ending an OLD convention ("the Convention ... signed at Accra on 3 March 1970, shall
terminate upon the entry into force of this Convention") names the old convention's signature: it
is not this convention's entry into force (NL-RO 31(2), NL-HU 30(2), NL-ZA 31(2), NL-SE 32(2)).
"Treedt in werking op een nader te bepalen tijdstip" (the Dutch collection: to enter into force at
a date still to be set) means not yet in force: a dated payment is not covered until the user
gives the entry into force (NL-KE, NL-MW). The texts are invented, in the collection's shape.
"""

from __future__ import annotations

import datetime as dt

import pytest

from taxtreaty.pipeline import compile_text
from taxtreaty.provisions.model import Citation, Provision
from taxtreaty.rules import scenario_from
from taxtreaty.rules.dates import GivenDates, is_foreign_date
from taxtreaty.rules.load import compile_document
from taxtreaty.rules.questions import explain
from taxtreaty.structure import parse

PENDING = "Treedt in werking op een nader te bepalen tijdstip\n\n"
TEXT = """CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF GHANA FOR THE AVOIDANCE OF DOUBLE TAXATION WITH RESPECT TO TAXES ON INCOME

{head}The Kingdom of the Netherlands and the Republic of Ghana, desiring to conclude a Convention, have agreed as follows:

Article 1
Persons covered

{head}This Convention shall apply to persons who are residents of one or both of the Contracting States.

Article 10
Dividends

{head}1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.

2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the dividends.

Article 28
Entry into force

{head}1. The Contracting States shall notify each other in writing of the completion of the procedures required by their law for the bringing into force of this Convention. The Convention shall enter into force on the thirtieth day after the date of the later of these notifications and shall thereupon have effect in respect of taxes withheld at source, to income derived on or after the first day of January in the calendar year next following the year in which the Convention enters into force.

2. The Convention between the Kingdom of the Netherlands and the Republic of Ghana for the avoidance of double taxation, signed at Accra on 3 March 1970, shall terminate upon the entry into force of this Convention.

Article 29
Termination

This Convention shall remain in force until terminated by a Contracting State.

DONE at The Hague, this 10th day of May 1999, in duplicate, in the English language.
"""
DIVIDENDS = {"income": "dividends", "source": "GH", "residence": "NL", "beneficial_owner": True, "recipient": "individual"}


def _decide(treaty, date: str | None):  # type: ignore[no-untyped-def]
    return explain(treaty, scenario_from({**DIVIDENDS, **({"date": date} if date else {})}))


def test_the_old_conventions_signature_is_not_this_ones_entry_into_force() -> None:
    treaty = compile_text(TEXT.format(head=""))
    resolved = treaty.in_force.resolved
    assert resolved.entry_into_force is None  # not 1970-03-03
    assert resolved.not_before == dt.date(2000, 1, 1)  # after this convention's signature, 10 May 1999
    assert _decide(treaty, "1975-06-01").status == "not_covered"
    assert _decide(treaty, "2024-05-01").max_rate_pct == 10


@pytest.mark.parametrize("quote, date", [
    ("The Convention between the Kingdom of the Netherlands and the Republic of Ghana, signed at Accra on "
     "3 March 1970, shall terminate upon the entry into force of this Convention", "1970-03-03"),
    ("El Convenio entre la República Argentina y el Reino de España, firmado en Madrid el 3 de marzo de 1970, "
     "terminará en la fecha de entrada en vigor del presente Convenio", "1970-03-03"),
    ("A Convenção entre a República Portuguesa e a República de Angola, assinada em Luanda em 3 de Março de 1970, "
     "deixará de vigorar na data da entrada em vigor da presente Convenção", "1970-03-03"),
])
def test_a_clause_that_names_another_instrument_gives_no_entry_into_force(quote: str, date: str) -> None:
    cite = Citation(language="xx", eid="art_28__para_2", quote=quote, span=(0, len(quote)))
    provision = Provision(id="x:art_28__para_2:date:1", topic="entry_into_force", kind="date",
                          values={"event": "entry_into_force", "date": date}, cite=cite)
    assert is_foreign_date(provision)
    own = provision.model_copy(update={"cite": cite.model_copy(update={"quote": "This Convention shall enter into "
                                                                        "force on 3 March 1970"})})
    assert not is_foreign_date(own)


def test_not_yet_in_force_in_the_collection_covers_no_dated_payment() -> None:
    doc = parse(TEXT.format(head=PENDING))
    treaty = compile_document(doc)
    decision = _decide(treaty, "2024-05-01")
    assert decision.status == "not_covered" and decision.max_rate_pct is None
    assert any("not yet in force" in r and "--in-force" in r for r in decision.reasons)
    undated = _decide(treaty, None)  # what the text decides once it applies, with the warning
    assert undated.max_rate_pct == 10 and any("not yet in force" in r for r in undated.reasons)
    given = compile_document(doc, dates=GivenDates(entry_into_force=dt.date(2020, 6, 1)))
    assert _decide(given, "2024-05-01").max_rate_pct == 10
    assert _decide(given, "2020-12-01").status == "not_covered"  # effect from 1 January 2021
