"""Provisions written by hand, as YAML next to a treaty file, resolved against its text.

A specialist can state what a paragraph says when the extractor cannot read it (or before it
exists), and the engine uses it exactly like extracted provisions. Every entry names the eId
and the exact words it rests on; the loader finds those words inside that node of the parsed
document and records their span, so the decision's trace still quotes the source file.

    parties: [PT, CZ]                       # optional: the Contracting States
    in_force: {from: 1997-01-01}            # optional: dates of effect (from / until)
    provisions:
      - topic: dividends
        kind: withholding_cap
        rate_pct: "15"
        eid: art_10__para_2
        language: en                        # optional when the document has one version
        quote: "shall not exceed 15 per cent of the gross amount of the dividends"
        conditions: {beneficial_owner: true}

Allowed entry keys: the fields of `Provision` (topic, kind, status, reason, rate_pct,
allocation, values, conditions, state, overrides) plus eid, language and quote.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import regex
import yaml
from pydantic import ValidationError

from taxtreaty.patterns import compiled
from taxtreaty.provisions.model import Citation, Provision, ProvisionSet
from taxtreaty.structure.model import Document
from taxtreaty.text import InputError

_ENTRY_KEYS = {
    "topic", "kind", "status", "reason", "rate_pct", "allocation", "values", "conditions", "state", "overrides",
    "eid", "language", "quote",
}
_TOP_KEYS = {"parties", "in_force", "provisions"}


def _locate(doc: Document, eid: str, language: str, quote: str, where: str) -> Citation:
    node = doc.find(eid, language)
    if node is None:
        raise InputError(f"{where}: no node {eid} in the [{language}] text")
    start, end = node.span
    text = doc.original[start:end]
    at = text.find(quote)
    if at >= 0:
        return Citation(language=language, eid=eid, quote=quote, span=(start + at, start + at + len(quote)))
    # the same words with other spacing (a line break inside the quote in the source)
    words = [regex.escape(w) for w in quote.split()]
    match = compiled(r"\s+".join(words)).search(text) if words else None
    if match is None:
        raise InputError(f"{where}: the words {quote[:60]!r} are not in {eid} [{language}]")
    return Citation(language=language, eid=eid, quote=match.group(0), span=(start + match.start(), start + match.end()))


def date_field(value: Any, where: str) -> dt.date | None:
    """An optional ISO date from a YAML file, or an InputError naming where it was."""
    if value is None:
        return None
    try:
        return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
    except ValueError:
        raise InputError(f"{where}: {value!r} is not a date (YYYY-MM-DD)") from None


def load_handwritten(
    path: str | Path, doc: Document,
) -> tuple[ProvisionSet, tuple[dt.date | None, dt.date | None] | None]:
    """(ProvisionSet, in_force window or None) from a YAML file, resolved against `doc`."""
    name = str(path)
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{name}: not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("provisions", []), list):
        raise InputError(f"{name}: expected a mapping with a 'provisions' list")
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise InputError(f"{name}: unknown key {sorted(unknown)[0]!r}")
    default_language = doc.versions[0].language if len(doc.versions) == 1 else doc.prevailing_language
    provisions: list[Provision] = []
    for n, entry in enumerate(raw.get("provisions") or [], start=1):
        where = f"{name}: provision {n}"
        if not isinstance(entry, dict):
            raise InputError(f"{where}: expected a mapping")
        bad = set(entry) - _ENTRY_KEYS
        if bad:
            raise InputError(f"{where}: unknown key {sorted(bad)[0]!r}")
        for key in ("topic", "kind", "eid", "quote"):
            if key not in entry:
                raise InputError(f"{where}: missing {key!r}")
        language = entry.get("language") or default_language
        if language is None:
            raise InputError(f"{where}: say which language version ('language')")
        cite = _locate(doc, str(entry["eid"]), str(language), str(entry["quote"]), where)
        fields = {k: v for k, v in entry.items() if k not in ("eid", "language", "quote")}
        if "rate_pct" in fields and fields["rate_pct"] is not None:
            fields["rate_pct"] = str(fields["rate_pct"])
        try:
            provisions.append(Provision(id=f"{language}:{cite.eid}:{entry['kind']}:{n}", cite=cite, **fields))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise InputError(f"{where}: {'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    parties = [str(p).upper() for p in raw.get("parties") or []]
    window = raw.get("in_force")
    in_force = None
    if window is not None:
        if not isinstance(window, dict) or set(window) - {"from", "until"}:
            raise InputError(f"{name}: in_force takes 'from' and 'until' dates")
        in_force = (date_field(window.get("from"), name), date_field(window.get("until"), name))
    return ProvisionSet(parties=parties, provisions=provisions), in_force
