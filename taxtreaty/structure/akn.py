"""Akoma Ntoso 3.0 XML for a parsed convention.

One Work (the convention), one Expression per language version (FRBR). Each language version
is printed as its own complete ``<akomaNtoso>`` document holding an ``act``: the schema makes
every eId unique inside a document (``xsd:unique`` on ``.//*``), so the versions cannot share a
``documentCollection`` and still carry the *same* eIds; printed apart, ``art_10__para_2`` is the
same eId in the Portuguese and the English expression, which is what aligns them.

`to_akn(doc)` returns ONE well-formed document: a text with one language version is that
version's ``<akomaNtoso><act>``; a text with several (or several stored files of one treaty) is
an ``<akomaNtoso><documentCollection>`` whose ``collectionBody`` holds each version as a
``component`` (``cmp_en``, ``cmp_pt``). Inside a collection the schema's uniqueness covers
every component, so each version's eIds (and the local references to them) carry their
component's prefix: ``cmp_en__art_10__para_2``; the part after ``__`` is the version's own eId,
the same in every language. `akn_documents(doc)` gives each version alone, with bare eIds
(``--language`` and ``--out-dir``), and `component_documents(xml)` reads a collection back into
them.

Inside an act: ``body`` > ``chapter`` (when the text has chapters) > ``article`` > ``paragraph``
> ``point`` > ``point``, each with ``num`` / ``heading`` and either ``content`` or
``intro`` + children + ``wrapUp``. Protocols are kept apart from the convention's articles, as
``attachments`` > ``attachment`` > ``doc name="protocol"`` with their own eIds (``protocol_1``).
All text is escaped by lxml; characters XML 1.0 cannot hold are dropped.

Each act's ``meta`` carries the expression's life (`akn_history`): a ``lifecycle`` (the
signature, the entry into force, each amending instrument's taking effect) and, for an amended
convention, ``analysis`` > ``passiveModifications`` (a ``textualMod`` per change, pointing at
the eId it changes and at the instrument's ``passiveRef``) with the periods of ``temporalData``.
A consolidated version (`export --as-of`) is its own expression, dated from its first day of
effect.
"""

from __future__ import annotations

import datetime as dt

import regex
from lxml import etree

from taxtreaty import vocab
from taxtreaty.structure import akn_history
from taxtreaty.structure.akn_history import History
from taxtreaty.structure.model import Article, Document, Paragraph, Point, Protocol, Version

AKN_NS = "http://docs.oasis-open.org/legaldocml/ns/akn/3.0"
_E = f"{{{AKN_NS}}}"
#: characters XML 1.0 forbids (C0 controls other than tab/newline/CR, surrogates, U+FFFE/U+FFFF)
_XML_FORBIDDEN = regex.compile(r"[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]")
_URI_UNSAFE = regex.compile(r"[^a-z0-9-]+")
#: the FRBRdate used when the text does not give the signature date (a sentinel, named "unknown")
UNKNOWN_DATE = "0001-01-01"


def _text(value: str | None) -> str:
    return _XML_FORBIDDEN.sub("", value or "")


def _el(parent: etree._Element | None, tag: str, text: str | None = None, **attrs: str) -> etree._Element:
    node = etree.Element(_E + tag, nsmap={None: AKN_NS}) if parent is None else etree.SubElement(parent, _E + tag)
    for key, value in attrs.items():
        node.set(key.rstrip("_"), value)
    if text is not None:
        node.text = _text(text)
    return node


def _p_block(parent: etree._Element, tag: str, text: str | None) -> None:
    block = _el(parent, tag)
    _el(block, "p", text or "")


def language_code3(language: str) -> str:
    """ISO 639-2 code for FRBRlanguage ("pt" -> "por"); "und" when unknown."""
    lang = vocab.languages().get(language)
    return lang.iso639_2 if lang and lang.iso639_2 else "und"


# -- FRBR ---------------------------------------------------------------------------------------


def work_uri(doc: Document) -> str:
    parties = "-".join(p.lower() for p in doc.parties) or "unknown-parties"
    date = doc.signed.date if doc.signed and doc.signed.date else "unknown-date"
    return f"/akn/int/act/treaty/{_URI_UNSAFE.sub('-', date)}/{_URI_UNSAFE.sub('-', parties)}"


def _meta(parent: etree._Element, doc: Document, language: str, *, work: str, name: str,
          references: bool = True, history: History | None = None) -> None:
    meta = _el(parent, "meta")
    ident = _el(meta, "identification", source="#taxtreaty")
    signed = doc.signed.date if doc.signed and doc.signed.date else None
    date, date_name = (signed, "signature") if signed else (UNKNOWN_DATE, "unknown")
    lang3 = language_code3(language)
    original = f"{work}/{lang3}@{signed or ''}"
    expression = original
    expression_date, expression_name = date, date_name
    if history is not None and history.expression_date:  # a consolidated version: dated from its effect
        expression_date, expression_name = history.expression_date
        expression = f"{work}/{lang3}@{expression_date}"
    today = dt.date.today().isoformat()

    w = _el(ident, "FRBRWork")
    _el(w, "FRBRthis", value=f"{work}/!{name}")
    _el(w, "FRBRuri", value=work)
    _el(w, "FRBRdate", date=date, name=date_name)
    _el(w, "FRBRauthor", href="#contracting-states")
    _el(w, "FRBRcountry", value="int")
    _el(w, "FRBRname", value=name)

    e = _el(ident, "FRBRExpression")
    _el(e, "FRBRthis", value=f"{expression}/!{name}")
    _el(e, "FRBRuri", value=expression)
    _el(e, "FRBRdate", date=expression_date, name=expression_name)
    _el(e, "FRBRauthor", href="#contracting-states")
    _el(e, "FRBRlanguage", language=lang3)

    m = _el(ident, "FRBRManifestation")
    _el(m, "FRBRthis", value=f"{expression}/!{name}.xml")
    _el(m, "FRBRuri", value=f"{expression}/.akn")
    _el(m, "FRBRdate", date=today, name="generation")
    _el(m, "FRBRauthor", href="#taxtreaty")

    if not references:  # an attachment shares its act's references (eIds are unique per act)
        return
    life = akn_history.with_signature(history, signed)
    akn_history.write_lifecycle(meta, life, _el)
    akn_history.write_analysis(meta, life, _el)
    refs = _el(meta, "references", source="#taxtreaty")
    akn_history.write_references(refs, life, original, _el)
    _el(refs, "TLCOrganization", eId="taxtreaty", href="/ontology/organization/taxtreaty", showAs="taxtreaty")
    _el(refs, "TLCOrganization", eId="contracting-states",
        href=f"/ontology/organization/{_URI_UNSAFE.sub('-', '-'.join(doc.parties).lower()) or 'unknown'}",
        showAs=" and ".join(doc.parties) or "Contracting States (not named in the text)")


# -- the tree -----------------------------------------------------------------------------------


def _point(parent: etree._Element, point: Point) -> None:
    node = _el(parent, "point", eId=point.eid)
    _el(node, "num", f"{point.label})")
    _children(node, point.text, point.intro, point.wrap_up, point.points)


def _children(node: etree._Element, text: str, intro: str | None, wrap_up: str | None, points: list[Point]) -> None:
    if not points:
        _p_block(node, "content", text)
        return
    if intro:
        _p_block(node, "intro", intro)
    for child in points:
        _point(node, child)
    if wrap_up:
        _p_block(node, "wrapUp", wrap_up)


def _paragraph(parent: etree._Element, para: Paragraph) -> None:
    node = _el(parent, "paragraph", eId=para.eid)
    if para.number is not None:
        _el(node, "num", para.number)
    _children(node, para.text, para.intro, para.wrap_up, para.points)


def _article(parent: etree._Element, article: Article) -> None:
    node = _el(parent, "article", eId=article.eid)
    _el(node, "num", article.number)
    if article.heading:
        _el(node, "heading", article.heading)
    if not article.paragraphs:
        _p_block(node, "content", "")
    for para in article.paragraphs:
        _paragraph(node, para)


def _body(act: etree._Element, version: Version) -> None:
    body = _el(act, "body")
    chapters = {c.eid: c for c in version.chapters}
    open_chapter: tuple[str, etree._Element] | None = None
    for article in version.articles:
        if article.chapter and article.chapter in chapters:
            if open_chapter is None or open_chapter[0] != article.chapter:
                chapter = chapters[article.chapter]
                node = _el(body, "chapter", eId=chapter.eid)
                _el(node, "num", chapter.number)
                if chapter.heading:
                    _el(node, "heading", chapter.heading)
                open_chapter = (article.chapter, node)
            _article(open_chapter[1], article)
        else:
            open_chapter = None
            _article(body, article)
    if not version.articles:  # a version holding only a protocol
        node = _el(body, "hcontainer", eId="hcontainer_1", name="noArticles")
        _p_block(node, "content", "")


def _protocols(act: etree._Element, doc: Document, version: Version, work: str, history: History | None) -> None:
    if not version.protocols:
        return
    attachments = _el(act, "attachments")
    for protocol in version.protocols:
        _protocol(attachments, doc, version, protocol, work, history)


def _protocol(attachments: etree._Element, doc: Document, version: Version, protocol: Protocol, work: str,
              history: History | None) -> None:
    attachment = _el(attachments, "attachment", eId=f"att_{protocol.eid}")
    inner = _el(attachment, "doc", name="protocol")
    _meta(inner, doc, version.language, work=work, name=protocol.eid, references=False, history=history)
    preface = _el(inner, "preface")
    _el(preface, "p", protocol.heading)
    main = _el(inner, "mainBody")
    if not protocol.paragraphs:
        _p_block(_el(main, "hcontainer", eId=f"{protocol.eid}__hcontainer_1", name="empty"), "content", "")
    for para in protocol.paragraphs:
        _paragraph(main, para)


def version_element(doc: Document, version: Version, history: History | None = None) -> etree._Element:
    """The ``<akomaNtoso>`` element of one language version (with its lifecycle and passive
    modifications when `history` gives them)."""
    root = _el(None, "akomaNtoso")
    act = _el(root, "act", name="convention")
    work = work_uri(doc)
    _meta(act, doc, version.language, work=work, name="convention", history=history)
    if version.title:
        preface = _el(act, "preface")
        _el(preface, "p", version.title)
    _body(act, version)
    _protocols(act, doc, version, work, history)
    return root


def akn_documents(doc: Document, history: History | None = None) -> dict[str, str]:
    """One serialised ``<akomaNtoso>`` document per language version, keyed by language."""
    out: dict[str, str] = {}
    for index, version in enumerate(doc.versions):
        key = version.language if version.language not in out else f"{version.language}_{index + 1}"
        root = version_element(doc, version, history)
        out[key] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True).decode("utf-8")
    return out


def _versions(docs: list[Document]) -> list[tuple[str, Document, Version]]:
    """(key, document, version) for every version of every document, keys unique ("en", "en_2")."""
    out: list[tuple[str, Document, Version]] = []
    seen: set[str] = set()
    for doc in docs:
        for version in doc.versions:
            key, n = version.language, 1
            while key in seen:
                n += 1
                key = f"{version.language}_{n}"
            seen.add(key)
            out.append((key, doc, version))
    return out


def _prefix_ids(root: etree._Element, prefix: str) -> None:
    """Give every eId under `root`, and every local reference to one ("#taxtreaty"), the prefix."""
    ids = {node.get("eId") for node in root.iter() if isinstance(node.tag, str) and node.get("eId")}
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        for name, value in node.attrib.items():
            if name == "eId":
                node.set(name, f"{prefix}__{value}")
            elif value.startswith("#") and value[1:] in ids:
                node.set(name, f"#{prefix}__{value[1:]}")


def collection_element(docs: list[Document], history: History | None = None) -> etree._Element:
    """One ``<akomaNtoso>`` holding every version as a component of a ``documentCollection``."""
    first = docs[0]
    root = _el(None, "akomaNtoso")
    collection = _el(root, "documentCollection", name="convention")
    _meta(collection, first, "mul", work=work_uri(first), name="collection")
    body = _el(collection, "collectionBody")
    for key, doc, version in _versions(docs):
        component = _el(body, "component", eId=f"cmp_{key}")
        act = version_element(doc, version, history)[0]
        _prefix_ids(act, f"cmp_{key}")
        component.append(act)
    return root


def _serialise(root: etree._Element) -> str:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True).decode("utf-8").rstrip("\n")


def to_akn(doc: Document | list[Document], language: str | None = None, history: History | None = None) -> str:
    """Akoma Ntoso XML as one document: the version alone, or a collection of the versions; each
    expression with the lifecycle and passive modifications `history` gives."""
    docs = doc if isinstance(doc, list) else [doc]
    versions = _versions(docs)
    if not versions:
        from taxtreaty.text import InputError

        # an amending protocol read alone ("Sustitúyese el apartado 4 del Artículo 23 ..."): its
        # changes apply to the convention it amends, it has no articles of its own to print
        raise InputError("this text holds no convention articles of its own (an amending instrument alone): "
                         "nothing to print as Akoma Ntoso; its modifications are in parse --json, and the "
                         "convention's export carries them: parse CONVENTION --akn --amendment THIS_FILE")
    if language is not None:
        chosen = [(k, d, v) for k, d, v in versions if v.language == language]
        if not chosen:
            from taxtreaty.text import InputError

            raise InputError(f"no {language!r} version in this text (versions: {', '.join(k for k, _, _ in versions)})")
        if len(chosen) == 1:
            return _serialise(version_element(chosen[0][1], chosen[0][2], history))
        return _serialise(collection_element([d for d in docs if any(v.language == language for v in d.versions)],
                                             history))
    if len(versions) == 1:
        return _serialise(version_element(versions[0][1], versions[0][2], history))
    return _serialise(collection_element(docs, history))


def component_documents(xml: str) -> dict[str, str]:
    """A printed collection read back into its versions, each a standalone document with the
    component prefix taken off its eIds (a single act comes back as itself)."""
    root = etree.fromstring(xml.encode("utf-8"))
    components = root.findall(f"{_E}documentCollection/{_E}collectionBody/{_E}component")
    if not components:
        return {"_": xml}
    out: dict[str, str] = {}
    for component in components:
        prefix = component.get("eId", "") + "__"
        act = component[0]
        for node in act.iter():
            if not isinstance(node.tag, str):
                continue
            for name, value in node.attrib.items():
                if name == "eId" and value.startswith(prefix):
                    node.set(name, value[len(prefix):])
                elif value.startswith("#" + prefix):
                    node.set(name, "#" + value[1 + len(prefix):])
        single = _el(None, "akomaNtoso")
        single.append(act)
        out[prefix[len("cmp_"):-2]] = _serialise(single)
    return out


def read_tree(xml: str) -> dict[str, object]:
    """Read back a printed document: its FRBR language and the eIds of its structure, in order."""
    root = etree.fromstring(xml.encode("utf-8"))
    ns = {"a": AKN_NS}
    language = root.find(".//a:act/a:meta/a:identification/a:FRBRExpression/a:FRBRlanguage", ns)
    structural = ("article", "paragraph", "point")
    eids = [
        node.get("eId")
        for node in root.iter()
        if isinstance(node.tag, str) and node.tag.removeprefix(_E) in structural
    ]
    return {"language": language.get("language") if language is not None else None, "eids": eids}
