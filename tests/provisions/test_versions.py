"""Provisions of texts with two language versions: the divergences between them, named with both
versions and the prevailing one."""

from __future__ import annotations

import pytest
from helpers import BILINGUAL, extract_fixture


@pytest.mark.parametrize(("name", "languages", "prevailing"), [
    ("pt_en_mz_in.txt", ["pt", "en"], "en"),
    ("es_en_boe_india.txt", ["es", "en"], "en"),
    ("pt_es_ocr.txt", ["pt", "es"], None),
    ("pt_es_dates_differ.txt", ["pt", "es"], None),
    ("es_en_dates_differ.txt", ["es", "en"], "en"),
    ("es_en_prevail_over.txt", ["es", "en"], "en"),
    ("pt_en_fara_fe.txt", ["pt", "en"], "en"),
])
def test_versions_and_prevailing_language(name: str, languages: list[str], prevailing: str | None) -> None:
    doc, _ = BILINGUAL.parsed(name)
    assert [v.language for v in doc.versions if v.supported] == languages
    assert doc.prevailing_language == prevailing
    for version in doc.versions:
        assert [a.number for a in version.articles][:2] in (["10", "11"], ["11", "12"])


def test_bilingual_divergences_name_both_versions_and_the_prevailing_one():
    ps, text = extract_fixture("bilingual_divergent.txt")
    by_eid = {(d.eid, d.what): d for d in ps.divergences}
    rate = by_eid[("art_11__para_2", "rate")]
    assert rate.values == {"pt": "10", "en": "15"} and rate.prevailing_language == "pt"
    assert [c.language for c in rate.cites] == ["pt", "en"]
    for c in rate.cites:
        assert text[c.span[0] : c.span[1]] == c.quote
    assert by_eid[("art_13__para_nn_1", "years")].values == {"pt": "5", "en": "4"}
    gap = by_eid[("art_12__para_2", "completeness")]
    assert gap.values == {"pt": "unknown", "en": "10%"}
    assert "come from the en version" in gap.message and "pt text prevails" in gap.message
    assert ("art_11__para_1", "rate") not in by_eid
