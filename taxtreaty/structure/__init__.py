"""Stage 2: the document tree (articles, paragraphs, points) with Akoma Ntoso eIds."""

from taxtreaty.structure.instrument import Instrument, Modification
from taxtreaty.structure.model import Article, Document, Paragraph, Point, Protocol, Version, Warning
from taxtreaty.structure.parse import NoArticlesError
from taxtreaty.structure.reading import parse, parse_file, parse_text

__all__ = [
    "Article", "Document", "Instrument", "Modification", "NoArticlesError", "Paragraph", "Point", "Protocol",
    "Version", "Warning", "parse", "parse_file", "parse_text",
]
