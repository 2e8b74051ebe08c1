"""Law over time (issue 14): amending instruments recognised and parsed, versions consolidated,
decisions on the version in effect on the payment date."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import taxtreaty
from taxtreaty.pipeline import compile_document, with_amendments
from taxtreaty.rules import scenario_from
from taxtreaty.rules.engine import decide_compiled
from taxtreaty.structure import NoArticlesError
from taxtreaty.text import InputError
from taxtreaty.versions.timeline import amendment, build

HERE = Path(__file__).parent
FIX = HERE / "fixtures" / "time"
SHARED = HERE.parent.parent / "shared"
AR_DE_PROTOCOL = SHARED / "corpus" / "es" / "AR-DE_protocolo_ES.txt"


def _mods(path: Path) -> list[tuple[str, str, str | None]]:
    doc = taxtreaty.parse_file(path)
    assert doc.instrument is not None
    return [(m.type, m.target_eid, m.new_eid) for m in doc.instrument.modifications]


@pytest.mark.parametrize(("name", "expected"), [
    ("en_protocol.txt", [("substitution", "art_10__para_2", None), ("insertion", "art_10a", None),
                         ("repeal", "art_11__para_3", None), ("renumbering", "art_29", "art_30")]),
    ("pt_protocol.txt", [("substitution", "art_10__para_2", None), ("insertion", "art_10a", None),
                         ("repeal", "art_11__para_3", None), ("renumbering", "art_29", "art_30")]),
    ("es_protocol.txt", [("substitution", "art_11__para_2", None), ("insertion", "art_12__para_3", None),
                         ("repeal", "art_10__para_3", None), ("renumbering", "art_28", "art_29")]),
])
def test_modifications_in_three_languages(name: str, expected: list[tuple[str, str, str | None]]) -> None:
    assert _mods(FIX / name) == expected


@pytest.mark.parametrize("name", ["en_protocol.txt", "pt_protocol.txt", "es_protocol.txt"])
def test_new_text_and_instruction_are_quotes_of_the_original(name: str) -> None:
    doc = taxtreaty.parse_file(FIX / name)
    assert doc.instrument is not None and doc.instrument.kind == "amending_protocol"
    for m in doc.instrument.modifications:
        assert doc.original[m.cite.span[0]:m.cite.span[1]] == m.cite.quote
        if m.type in ("substitution", "insertion"):
            assert m.span is not None and m.text
            new = doc.original[m.span[0]:m.span[1]]
            assert new[0] not in "\"«“" and new[-1] not in "\"»”"  # the quotes are the instruction's
            assert new.split()[0] == m.text.split()[0]


def test_the_base_convention_date_and_the_protocols_own_signature() -> None:
    doc = taxtreaty.parse_file(FIX / "en_protocol.txt")
    inst = doc.instrument
    assert inst is not None and inst.base is not None
    assert (inst.base.date, inst.signed) == ("2001-03-12", "2010-05-03")
    assert set(inst.base.parties) == {"GH", "CL"}
    assert inst.dates is not None and inst.dates.effect_rule == "january_1_of_year_after_entry_into_force"


def test_real_argentina_germany_protocol_is_an_amending_protocol() -> None:
    doc = taxtreaty.parse_file(AR_DE_PROTOCOL)
    inst = doc.instrument
    assert inst is not None and inst.kind == "amending_protocol"
    assert [(m.type, m.target_eid) for m in inst.modifications] == [
        ("substitution", "art_4__para_1"), ("substitution", "art_23__para_4")]
    assert inst.base is not None and inst.base.date == "1978-07-13" and set(inst.base.parties) == {"AR", "DE"}
    assert inst.signed == "1996-09-16"
    assert inst.dates is not None and inst.dates.effect_from == "1996-01-01"
    credit = inst.modifications[1]
    assert credit.text is not None and credit.text.startswith("4. Cuando un residente de la Argentina")
    assert credit.text.endswith("imposición en Alemania")


def test_conventions_are_never_amending_instruments() -> None:
    paths = sorted((SHARED / "corpus").glob("*/*.txt")) + sorted((SHARED / "seeds").glob("*.txt"))
    paths = [p for p in paths if p != AR_DE_PROTOCOL and "fragments" not in p.parts]
    assert len(paths) > 20
    for path in paths:
        try:
            inst = taxtreaty.parse_file(path).instrument
        except NoArticlesError:  # refused as before: not read as an amendment either
            continue
        assert inst is not None and not inst.amending, path.name


def test_an_amending_text_without_articles_is_not_refused() -> None:
    text = ("Protocol amending the Convention between the Republic of Ghana and the Republic of Chile signed at "
            "Accra on 12 March 2001.\n\nParagraph 3 of Article 11 of the Convention shall be deleted.\n")
    doc = taxtreaty.parse(text)
    assert doc.instrument is not None and doc.instrument.kind == "amending_protocol"
    assert [m.target_eid for m in doc.instrument.modifications] == ["art_11__para_3"]
    assert doc.to_json_dict()["instrument"]["kind"] == "amending_protocol"


def test_an_amending_protocol_is_not_decided_as_a_convention() -> None:
    with pytest.raises(InputError, match="amending protocol"):
        compile_document(taxtreaty.parse_file(FIX / "en_protocol.txt"))


# -- decisions before and after ------------------------------------------------------------------


def _treaty(base: str, *protocols: str, eif: dt.date | None = None):  # type: ignore[no-untyped-def]
    doc = taxtreaty.parse_file(FIX / base)
    return with_amendments(compile_document(doc), doc, [str(FIX / p) for p in protocols], eif)


def _decide(treaty, **facts):  # type: ignore[no-untyped-def]
    return decide_compiled(treaty, scenario_from(facts)).to_dict()


def test_rate_lowered_from_january_after_the_protocols_entry_into_force() -> None:
    treaty = _treaty("en_base.txt", "en_protocol.txt", eif=dt.date(2011, 6, 1))
    facts = {"income": "dividends", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "individual"}
    before = _decide(treaty, **facts, date="2011-12-31")
    after = _decide(treaty, **facts, date="2012-01-01")
    assert (before["status"], before["max_rate_pct"]) == ("determined", "15")
    assert (after["status"], after["max_rate_pct"]) == ("determined", "10")
    assert before["version"]["label"] == "original text" and before["version"]["until"] == "2011-12-31"
    assert after["version"]["from"] == "2012-01-01" and after["version"]["instruments"][0]["source"] == "en_protocol.txt"
    # the cap's words are the protocol's, quoted from its own text
    protocol = taxtreaty.parse_file(FIX / "en_protocol.txt").original
    cited = [t for t in after["trace"] if t.get("source") == "en_protocol.txt"]
    assert cited and all(protocol[t["span"][0]:t["span"][1]] == t["quote"] for t in cited)
    assert "10 per cent" in " ".join(t["quote"] for t in cited)


def test_repeal_removes_an_exemption_from_its_date() -> None:
    treaty = _treaty("en_base.txt", "en_protocol.txt", eif=dt.date(2011, 6, 1))
    facts = {"income": "interest", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "government"}
    assert _decide(treaty, **facts, date="2011-05-01")["source_taxation"] == "none"
    after = _decide(treaty, **facts, date="2013-05-01")
    assert (after["source_taxation"], after["max_rate_pct"]) == ("limited", "12")


def test_inserted_article_10a_and_renumbered_article_in_the_consolidated_text() -> None:
    treaty = _treaty("en_base.txt", "en_protocol.txt", eif=dt.date(2011, 6, 1))
    version = treaty.timeline.versions[-1]
    numbers = [a.number for a in version.doc.versions[0].articles]
    assert "10a" in numbers and numbers.index("10a") == numbers.index("10") + 1
    assert "30" in numbers and "29" not in numbers
    assert [a.number for a in treaty.timeline.versions[0].doc.versions[0].articles][-1] == "29"


def test_portuguese_protocol_with_a_printed_date_of_effect() -> None:
    treaty = _treaty("pt_base.txt", "pt_protocol.txt")
    facts = {"income": "dividends", "source": "AO", "residence": "PT", "beneficial_owner": True}
    assert _decide(treaty, **facts, date="2014-12-31")["max_rate_pct"] == "15"
    assert _decide(treaty, **facts, date="2015-01-01")["max_rate_pct"] == "8"
    gov = {"income": "interest", "source": "AO", "residence": "PT", "beneficial_owner": True, "recipient": "government"}
    assert _decide(treaty, **gov, date="2014-06-01")["source_taxation"] == "none"
    assert _decide(treaty, **gov, date="2015-06-01")["max_rate_pct"] == "10"


def test_spanish_protocol_substitution_insertion_and_repeal() -> None:
    treaty = _treaty("es_base.txt", "es_protocol.txt")
    interest = {"income": "interest", "source": "PE", "residence": "ES", "beneficial_owner": True}
    assert _decide(treaty, **interest, date="2011-06-01")["max_rate_pct"] == "15"
    assert _decide(treaty, **interest, date="2012-06-01")["max_rate_pct"] == "10"
    royalties = {"income": "royalties", "source": "PE", "residence": "ES", "beneficial_owner": True, "recipient": "government"}
    assert _decide(treaty, **royalties, date="2011-06-01")["max_rate_pct"] == "10"
    assert _decide(treaty, **royalties, date="2012-06-01")["source_taxation"] == "none"
    dividends = {"income": "dividends", "source": "PE", "residence": "ES", "beneficial_owner": True, "recipient": "government"}
    assert _decide(treaty, **dividends, date="2011-06-01")["source_taxation"] == "none"
    assert _decide(treaty, **dividends, date="2012-06-01")["max_rate_pct"] == "15"


def test_without_a_payment_date_the_versions_are_candidates() -> None:
    treaty = _treaty("es_base.txt", "es_protocol.txt")
    d = _decide(treaty, income="interest", source="PE", residence="ES", beneficial_owner=True)
    assert d["status"] == "indeterminate" and "date" in d["missing_facts"]
    assert {c["max_rate_pct"] for c in d["candidates"]} == {"15", "10"}
    # an income the protocol does not touch is answered as the convention's own dates say
    same = _decide(treaty, income="other_income", source="PE", residence="ES")
    assert not any("amended" in r for r in same["reasons"])
    assert same["version"]["note"] == "every version of the convention gives this answer"


def test_protocol_whose_date_of_effect_is_unknown_makes_the_changed_answer_indeterminate() -> None:
    treaty = _treaty("en_base.txt", "en_protocol.txt")  # no entry into force given
    facts = {"income": "dividends", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "individual"}
    early = _decide(treaty, **facts, date="2010-06-01")  # before 1 January after its signature
    assert (early["status"], early["max_rate_pct"]) == ("determined", "15")
    late = _decide(treaty, **facts, date="2015-06-01")
    assert late["status"] == "indeterminate"
    assert {c["max_rate_pct"] for c in late["candidates"]} == {"15", "10"}
    assert any("not known" in r for r in late["reasons"])


def test_two_protocols_changing_one_paragraph_from_the_same_date_are_a_clash() -> None:
    base = taxtreaty.parse_file(FIX / "en_base.txt")
    one = amendment("en_protocol.txt", taxtreaty.parse_file(FIX / "en_protocol.txt"), entry_into_force=dt.date(2011, 3, 1))
    two = amendment("en_protocol_clash.txt", taxtreaty.parse_file(FIX / "en_protocol_clash.txt"))
    assert one.effect_from == two.effect_from == dt.date(2012, 1, 1)
    treaty = build(compile_document(base), base, [one, two])
    assert [c.eid for c in treaty.timeline.clashes] == ["art_10__para_2"]
    facts = {"income": "dividends", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "individual"}
    d = _decide(treaty, **facts, date="2012-06-01")
    assert d["status"] == "indeterminate"
    assert {t.get("source") for t in d["trace"] if t["effect"] == "clash"} == {"en_protocol.txt", "en_protocol_clash.txt"}
    assert _decide(treaty, **facts, date="2011-06-01")["max_rate_pct"] == "15"
    # interest is not touched by the clash
    assert _decide(treaty, income="interest", source="GH", residence="CL", beneficial_owner=True,
                   recipient="individual", date="2012-06-01")["status"] == "determined"


# -- protocols in the US and UK shape ("is omitted and the following paragraph is substituted") ------


def test_omitted_and_substituted_added_and_changed_words() -> None:
    """en_protocol_substituted.txt (entry into force given: 10 March 2015; effect from the first day
    of the second month after it, 1 May 2015): 12(2) substituted (10% -> 6%), 11(4) added (a
    pension-fund exemption), and 10(2)(b) changed by words inside it, which no consolidation can
    place: the dividend rate it held is a gap from that date, never the old 15% answered as current."""
    treaty = _treaty("en_base.txt", "en_protocol_substituted.txt", eif=dt.date(2015, 3, 10))
    royalties = {"income": "royalties", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "company"}
    before = _decide(treaty, **royalties, date="2015-04-30")
    after = _decide(treaty, **royalties, date="2015-05-01")
    assert (before["status"], before["max_rate_pct"]) == ("determined", "10")
    assert (after["status"], after["max_rate_pct"]) == ("determined", "6")
    assert after["version"]["from"] == "2015-05-01"
    fund = {"income": "interest", "source": "CL", "residence": "GH", "beneficial_owner": True, "recipient": "pension_fund",
            "payer": "company", "loan_kind": "other"}
    assert _decide(treaty, **fund, date="2015-04-30")["max_rate_pct"] == "12"
    added = _decide(treaty, **fund, date="2015-05-01")
    assert (added["status"], added["source_taxation"]) == ("determined", "none")
    portfolio = {"income": "dividends", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "individual"}
    assert _decide(treaty, **portfolio, date="2015-04-30")["max_rate_pct"] == "15"
    changed = _decide(treaty, **portfolio, date="2015-05-01")
    assert changed["status"] == "indeterminate" and changed["max_rate_pct"] is None
    assert "could not be applied" in " ".join(changed["reasons"])
    assert "source text incomplete" not in " ".join(changed["reasons"])  # the words are there, not read
    assert "art_10__para_2__point_b" in {u["eid"] for u in changed["unread"]}


def test_effect_from_the_first_day_of_the_nth_month_after_entry_into_force() -> None:
    doc = taxtreaty.parse_file(FIX / "en_protocol_substituted.txt")
    assert doc.instrument is not None and doc.instrument.dates is not None
    assert doc.instrument.dates.effect_rule == "month_2_after_entry_into_force"
    found = amendment("p", doc, entry_into_force=dt.date(2015, 11, 20))
    assert found.effect_from == dt.date(2016, 1, 1)  # November + 2 months: January of the next year


@pytest.mark.parametrize(("line", "kind", "target"), [
    ("Paragraph 2 of Article 12 (Royalties) of the Convention is omitted and the following paragraph is substituted:",
     "substitution", "art_12__para_2"),
    ("Article 11 of the Convention shall be deleted and the following Article substituted:", "substitution", "art_11"),
    ("Article 4 (Resident) of the Convention is amended by omitting the last sentence of paragraph 1 and "
     "substituting the following sentence:", "substitution", "art_4__para_1"),
])
def test_instruction_lines_in_the_us_and_uk_shape(line: str, kind: str, target: str) -> None:
    text = ("Protocol amending the Convention between the Republic of Ghana and the Republic of Chile signed at "
            "Accra on 12 March 2001\n\nArticle I\n\n" + line + "\n\n\"2. New words of the provision.\"\n")
    doc = taxtreaty.parse(text)
    assert doc.instrument is not None
    (mod,) = doc.instrument.modifications
    assert (mod.type, mod.target_eid) == (kind, target)
    # a change of words inside the provision carries no new text to put in its place
    assert (mod.text is None) == ("sentence" in line)


@pytest.mark.parametrize(("text", "kind", "target"), [
    ("Protocolo que modifica el Convenio entre el Reino de España y la República de Chile, firmado en Santiago "
     "el 7 de julio de 2003\n\nArtículo I\n\nEl texto del artículo 26 del Convenio queda sustituido por el siguiente:\n\n"
     "\"Artículo 26. Intercambio de información.\"\n", "substitution", "art_26"),
    ("Protocolo que modifica el Convenio entre el Reino de España y la República de Chile, firmado en Santiago "
     "el 7 de julio de 2003\n\nArtículo I\n\nSe añade al artículo 12 del Convenio el siguiente apartado 4:\n\n"
     "\"4. No obstante lo dispuesto en el apartado 2, ...\"\n", "insertion", "art_12__para_4"),
    ("Protocolo que altera a Convenção entre a República Portuguesa e a República de Angola, assinada em Luanda "
     "em 18 de setembro de 2018\n\nArtigo 1.º\n\nO n.º 2 do artigo 10.º da Convenção passa a ter a redação seguinte:\n\n"
     "\"2 — Esses dividendos podem, no entanto, ser igualmente tributados ...\"\n", "substitution", "art_10__para_2"),
])
def test_instruction_lines_in_spanish_and_portuguese_wordings(text: str, kind: str, target: str) -> None:
    doc = taxtreaty.parse(text)
    assert doc.instrument is not None and doc.instrument.kind == "amending_protocol"
    assert [(m.type, m.target_eid) for m in doc.instrument.modifications] == [(kind, target)]


PT_PROTOCOL_HEAD = ("Protocolo que altera a Convenção entre a República Portuguesa e a República de Cabo Verde, assinada "
                    "na Praia em 22 de março de 1999\n\nArtigo 1.º\n\n")


def test_a_portuguese_paragraph_added_with_its_number_before_a_dash_is_that_paragraph() -> None:
    text = (PT_PROTOCOL_HEAD + "É aditado ao artigo 11.º da Convenção o seguinte número:\n\n"
            "«5 — Não obstante o disposto no n.º 2, os juros pagos a um banco só podem ser tributados no Estado "
            "de que o beneficiário é residente.»\n")
    doc = taxtreaty.parse(text)
    assert doc.instrument is not None
    assert [(m.type, m.target_eid) for m in doc.instrument.modifications] == [("insertion", "art_11__para_5")]


@pytest.mark.parametrize(("clause", "rule"), [
    ("This Protocol shall enter into force on the thirtieth day after the date of the later of the notifications.",
     {"days_after": 30}),
    ("This Protocol shall enter into force 30 days after the date of receipt of the later notification.",
     {"days_after": 30}),
    ("El presente Protocolo entrará en vigor a los tres meses de la fecha de recepción de la última notificación.",
     {"months_after": 3}),
    ("El presente Protocolo entrará en vigor el trigésimo día siguiente a la fecha de la última notificación.",
     {"days_after": 30}),
    ("O presente Protocolo entrará em vigor no 30.º dia após a data da recepção da última notificação.",
     {"days_after": 30}),
    ("O presente Protocolo entrará em vigor sessenta dias após a data da última notificação.", {"days_after": 60}),
])
def test_the_entry_into_force_counted_from_the_notifications(clause: str, rule: dict[str, int]) -> None:
    heads = {"T": "Protocol amending the Convention between the Republic of Ghana and the Republic of Chile signed at "
                  "Accra on 12 March 2001\n\nArticle I\n\nArticle 11 of the Convention shall be deleted.\n\nArticle II\n\n",
             "E": "Protocolo que modifica el Convenio entre el Reino de España y la República de Chile, firmado en Santiago "
                  "el 7 de julio de 2003\n\nArtículo I\n\nSe suprime el apartado 3 del artículo 12 del Convenio.\n\n"
                  "Artículo II\n\n",
             "O": PT_PROTOCOL_HEAD + "O n.º 3 do artigo 12.º da Convenção é revogado.\n\nArtigo 2.º\n\n"}
    doc = taxtreaty.parse(heads[clause[0]] + clause + "\n")
    assert doc.instrument is not None and doc.instrument.dates is not None
    assert doc.instrument.dates.entry_rule == rule
