"""Stage 3: what each convention decides, as data with provenance.

    from taxtreaty.provisions import extract_provisions
    facts = extract_provisions(doc)            # ProvisionSet
    facts = taxtreaty.provisions(doc)          # the same: this module is callable

See `taxtreaty.provisions.model` for the data model (condition keys, allocation values) and
docs/provisions.md for what is extracted in which language.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

from taxtreaty.provisions.extract import extract_provisions
from taxtreaty.provisions.model import Citation, Divergence, Provision, ProvisionSet

if TYPE_CHECKING:
    from taxtreaty.structure.model import Document

__all__ = ["Citation", "Divergence", "Provision", "ProvisionSet", "extract_provisions"]


class _CallableModule(types.ModuleType):
    """`taxtreaty.provisions(doc)` calls `extract_provisions(doc)`."""

    def __call__(self, doc: Document, parties: list[str] | None = None) -> ProvisionSet:
        return extract_provisions(doc, parties)


sys.modules[__name__].__class__ = _CallableModule
