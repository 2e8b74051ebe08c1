"""A readable one-line-per-article summary of a parsed document."""

from __future__ import annotations

from taxtreaty.structure.model import Document


def outline(doc: Document) -> str:
    lines = []
    parties = "–".join(doc.parties) if doc.parties else "parties not named"
    signed = f"signed {doc.signed.date} in {doc.signed.place}" if doc.signed and doc.signed.date else "signature not found"
    lines.append(f"{doc.source.path or '<stdin>'}: {parties}; {signed}; prevailing language: {doc.prevailing_language or '-'}")
    for version in doc.versions:
        note = "" if version.supported else " (not supported: structure only)"
        lines.append(f"[{version.language}] {len(version.articles)} articles{note}")
        for art in version.articles:
            flags = []
            if art.number_inferred:
                flags.append("number inferred")
            if not art.complete:
                flags.append("incomplete")
            numbers = ",".join(p.number or "-" for p in art.paragraphs)
            flag_text = f" [{'; '.join(flags)}]" if flags else ""
            lines.append(
                f"  {art.eid:<8} {art.heading or '(no heading)':<45.45} {art.topic or '?':<28} ¶ {numbers}{flag_text}"
            )
        for protocol in version.protocols:
            lines.append(f"  {protocol.eid:<8} {protocol.heading} ({len(protocol.paragraphs)} paragraphs)")
    for w in doc.warnings:
        lines.append(f"warning: {w.code} {w.eid or ''} [{w.language or '-'}] {w.message}")
    return "\n".join(lines)
