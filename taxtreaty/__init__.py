"""taxtreaty: double taxation conventions as structured, citable, executable law.

    import taxtreaty
    doc = taxtreaty.parse(open("convention.txt", "rb").read())
    doc.versions[0].article("10").paragraphs[1].points[0].eid   # 'art_10__para_2__point_a'
    facts = taxtreaty.provisions(doc)                             # ProvisionSet
    decision = taxtreaty.decide(doc, {"income": "dividends", "source": "TL", "residence": "PT"})

The stages are sub-packages, each depending only on the ones before it:
text (cleanup) -> structure -> provisions -> rules; the store keeps what the first three made;
`taxtreaty.pipeline` runs them in sequence, over texts and stored treaties, for the interfaces.
See docs/architecture.md.
"""

from typing import Any

from taxtreaty.structure import Document, parse, parse_file
from taxtreaty.text import InputError

__version__ = "0.1.0"
__all__ = ["Document", "InputError", "__version__", "decide", "parse", "parse_file", "provisions"]


def __getattr__(name: str) -> Any:
    # Later stages are imported on first use, so `import taxtreaty` stays light.
    if name == "decide":
        from taxtreaty.pipeline import decide

        return decide
    if name == "provisions":
        import importlib

        return importlib.import_module("taxtreaty.provisions")
    raise AttributeError(f"module 'taxtreaty' has no attribute {name!r}")
