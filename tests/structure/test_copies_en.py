"""Structure of English conventions as other collections copy them (fixtures of our own in their shapes):
an amending Act's schedule that lost its capitals ("chapter iii" / "taxation of income", ato.gov.au's print
view of the International Tax Agreements Act), a PDF transcript with its header on every page (slidepdf)."""

from __future__ import annotations

import taxtreaty

SCHEDULE = """International Tax Agreements Amendment Act (No. 1) 2030

Schedule 1   Amendments

18   Schedule 4

Repeal the Schedule, substitute:

Schedule 4 - Convention between Australia and the Kingdom of Norway for the avoidance of double taxation

Note: See section 3.

Have agreed as follows:

chapter i

scope of the convention

Article 1

Persons Covered

1. This Convention shall apply to persons who are residents of one or both of the Contracting States.

chapter iii

taxation of income

Article 10

Dividends

1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.

2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but the tax so charged shall not exceed 15 per cent of the gross amount of the dividends.

chapter vii

final provisions

Article 29

Entry into Force

This Convention shall enter into force on the date of the last notification.
"""


def test_chapter_headings_in_lower_case_are_headings_not_text() -> None:
    doc = taxtreaty.parse(SCHEDULE)
    [version] = doc.versions
    assert [a.number for a in version.articles] == ["1", "10", "29"]
    paragraphs = [p.text for a in version.articles for p in a.paragraphs]
    assert not any("chapter" in text or "taxation of income" in text for text in paragraphs)


def test_a_sentence_that_names_a_chapter_stays_text() -> None:
    text = SCHEDULE.replace("1. This Convention shall apply to persons",
                            "1. Subject to the provisions of\nchapter iii of this Convention, it shall apply to persons")
    doc = taxtreaty.parse(text)
    assert "chapter iii of this Convention" in " ".join(doc.versions[0].articles[0].paragraphs[0].text.split())
