"""Structure of a convention scheduled to an instrument of a State (a UK Order in Council as
legislation.gov.uk prints it): the instrument's own numbered articles, "SCHEDULE" with the
instrument's article that gives it effect ("Article 2") right above the convention's title, and
the footnotes of the instrument after the signatures. Texts written for these tests."""

from __future__ import annotations

import pytest

import taxtreaty

ORDER = """STATUTORY INSTRUMENTS
2021 No. 402
TAXES
The Double Taxation Relief (Freedonia) Order 2021
Citation
1. This Order may be cited as the Double Taxation Relief (Freedonia) Order 2021.
Arrangements to have effect
2. It is declared that—
(a) the arrangements specified in the Convention set out in the Schedule to this Order have been made with the Government of Ghana; and
(b) it is expedient that those arrangements should have effect.
Clerk of the Privy Council
SCHEDULE
{reference}
CONVENTION BETWEEN THE UNITED KINGDOM AND THE REPUBLIC OF GHANA FOR THE AVOIDANCE OF DOUBLE TAXATION
Have agreed as follows:
ARTICLE 1
Persons Covered
(1) This Convention shall apply to persons who are residents of one or both of the Contracting States.
ARTICLE 2
Taxes Covered
(1) This Convention shall apply to taxes on income.
ARTICLE 3
Dividends
(1) Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
In witness whereof the undersigned have signed this Convention.
Done in duplicate at Accra this 3rd day of May 2020.
PROTOCOL
At the signing of the Convention the undersigned have agreed as follows:
1. With reference to Article 3, the term "dividends" includes distributions of a trust.
2. With reference to Article 2, the taxes covered include the national levy.
Done in duplicate at Accra this 3rd day of May 2020.
EXPLANATORY NOTE
(This note is not part of the Order)
Article 3 allows the State of residence to tax dividends.
(1)
2010 c. 8.
(2)
2006 c. 25.
(3)
S.I. 1993/1800.
"""


@pytest.mark.parametrize("reference", ["Article 2", "ARTICLE 2", "Article 3"])
def test_the_schedules_reference_to_the_instruments_article_is_no_article_of_the_convention(reference):
    doc = taxtreaty.parse(ORDER.format(reference=reference))
    assert len(doc.versions) == 1
    version = doc.versions[0]
    assert [(a.number, a.heading) for a in version.articles] == [
        ("1", "Persons Covered"), ("2", "Taxes Covered"), ("3", "Dividends")]
    assert not [w for w in doc.warnings if w.code in ("article_incomplete", "text_truncated")]
    # the Order's "1. This Order may be cited ..." is in no article of the convention
    assert all("This Order" not in p.text for a in version.articles for p in a.paragraphs)


def test_a_heading_with_its_own_title_before_a_protocol_title_stays_an_article():
    text = ORDER.format(reference="").replace("ARTICLE 3\nDividends\n", "ARTICLE 3 Dividends\n")
    doc = taxtreaty.parse(text)
    assert [a.number for a in doc.versions[0].articles] == ["1", "2", "3"]


def test_footnotes_after_the_protocols_signature_are_no_paragraphs_of_the_protocol():
    doc = taxtreaty.parse(ORDER.format(reference="Article 2"))
    protocol = doc.versions[0].protocols[0]
    assert [p.number for p in protocol.paragraphs] == [None, "1", "2"]
    assert "S.I. 1993" not in protocol.paragraphs[-1].text
