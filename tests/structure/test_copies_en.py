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


_ARTICLES = [("General Scope", "This Convention shall apply only to persons who are residents of one or both of the Contracting States."),
             ("Taxes Covered", "The existing taxes to which this Convention shall apply are the Federal income taxes and the income tax of Ireland."),
             ("General Definitions", "For the purposes of this Convention, the term \"person\" includes an individual, a company and any other body of persons."),
             ("Dividends", "Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.")]
_CONVENTION = ("CONVENTION BETWEEN THE GOVERNMENT OF THE UNITED STATES OF AMERICA AND IRELAND FOR THE AVOIDANCE OF DOUBLE TAXATION\n\n"
               "Have agreed as follows:\n\n"
               + "".join(f"Article {n}\n\n{title}\n\n1. {text}\n\n" for n, (title, text) in enumerate(_ARTICLES, 1))
               + "DONE at Dublin in duplicate, this 28th day of July, 1997.\n")


def _contents(entry: str) -> str:
    return "\n\n".join(entry.format(n=n, title=title) for n, (title, _) in enumerate(_ARTICLES, 1))


def test_tables_of_articles_before_a_united_states_convention() -> None:
    for contents in (
        # without pages or leaders, then the entries for the protocol and the letters
        "TABLE OF ARTICLES\n\n" + _contents("Article {n} {title}") + "\n\nProtocol of 28 July, 1997\n\nLetter of Submittal of 10 September, 1997\n\n",
        # joined by leaders, then "Protocol" alone
        "TABLE OF ARTICLES\n\n" + _contents("Article {n} ----------------{title}") + "\n\nProtocol\n\nUnderstanding\n\n",
    ):
        doc = taxtreaty.parse("UNITED STATES - IRELAND INCOME TAX CONVENTION\n\n" + contents + _CONVENTION)
        [version] = doc.versions
        assert [a.number for a in version.articles] == ["1", "2", "3", "4"]
        assert all(a.paragraphs for a in version.articles)
        assert version.protocols == []


def test_headings_with_their_words_are_no_table_of_contents() -> None:
    # titles on the heading's line, each article with its words: the articles
    text = _CONVENTION.replace("\n\nGeneral Scope\n\n", " General Scope\n\n").replace("\n\nTaxes Covered\n\n", " Taxes Covered\n\n")
    assert [a.number for a in taxtreaty.parse(text).versions[0].articles] == ["1", "2", "3", "4"]
