"""taxtreaty: double taxation conventions as structured, citable, executable law.

    import taxtreaty
    doc = taxtreaty.parse(open("convention.txt", "rb").read())
    doc.versions[0].article("10").paragraphs[1].points[0].eid  # 'art_10__para_2__point_a'
"""

from taxtreaty.structure import Document, parse, parse_file
from taxtreaty.text import InputError

__version__ = "0.1.0"
__all__ = ["Document", "InputError", "__version__", "parse", "parse_file"]
