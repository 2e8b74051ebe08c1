"""Relief from double taxation: the method each State uses (exemption, with or without
progression, the Dutch reduction of tax, credit with its ordinary limit), and tax sparing, whose
deemed tax is not in the data (`unknown`)."""

from __future__ import annotations

from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.reading import Emitted, Reading, cite_label
from taxtreaty.provisions.states import state_right_after, states_named
from taxtreaty.provisions.vocabulary import Phrases
from taxtreaty.vocab import fold


def _resident_state(unit: Unit, ph: Phrases, parties: list[str]) -> str | None:
    """The State whose resident the paragraph's first sentence speaks of ("En el caso de un residente de la
    República Argentina se excluirá ...", "Cuando un residente de la Argentina obtenga rentas ..."): the State
    that gives the relief, whatever State the item or a later sentence names ("el impuesto pagado en Alemania",
    "Sin embargo ... sometidas a imposición en Alemania")."""
    if "resident_lead" not in ph.patterns:
        return None
    # the paragraph's opening words (its number and a quotation mark of an amending text aside)
    text = compiled(r"^\W*\d+[a-z]?\W*").sub("", fold(unit.paragraph.text[:400]))
    first = compiled(r"[.;:](?:\s|$)").search(text)
    text = text[: first.start()] if first else text
    for m in ph.finditer("resident_lead", text):
        state = state_right_after(text, m.end(), ph)
        if state is not None and (not parties or state in parties):
            return state
    return None


def _credited_state(text: str, ph: Phrases, parties: list[str]) -> str | None:
    """The State of the tax a credit is allowed against ("deberá computarse como crédito contra el impuesto a
    la renta y el impuesto a las sociedades alemán": DE, though the sentence names Argentina's tax first)."""
    if "credit_against" not in ph.patterns:
        return None
    adjectives = {fold(str(k)): str(v) for k, v in (ph.raw.get("state_adjectives") or {}).items()}
    named = compiled(rf"(?<![\p{{L}}])(?:{'|'.join(map(regex.escape, sorted(adjectives, key=len, reverse=True)))})"
                          r"(?![\p{L}])") if adjectives else None
    for m in ph.finditer("credit_against", text):
        window = compiled(r"[,;.:]").split(text[m.end(): m.end() + 120], maxsplit=1)[0]  # the tax credited, not the next clause
        found = [(a.start(), adjectives[a.group()]) for a in named.finditer(window)] if named else []
        for code in states_named(window):
            for name in vocab.countries().get(code, ()):
                at = window.find(fold(name))
                if at >= 0:
                    found.append((at, code))
        found = sorted(f for f in found if not parties or f[1] in parties)
        if found:
            return found[0][1]
    return None


def read_relief(reading: Reading, units: list[Unit], ph: Phrases) -> list[Provision]:
    """One `relief_method` per item or paragraph of the article on the elimination of double taxation."""
    out = Emitted(reading)
    for unit in units:
        if unit.role == "intro":
            continue
        text = unit.folded
        if "relief_deemed_paid" in ph.patterns and ph.has("relief_deemed_paid", text):
            # tax sparing names no method of its own (it is never another State's credit), and the
            # tax it deems paid is not in the data: a credit computed from the tax paid would be short
            out.add(unit, "relief_method", reading.cite(unit, 0, len(unit.text)), status="unknown",
                    values={"deemed_paid": True},
                    reason=f"{cite_label(unit.article, unit.eid)} deems the source State's tax paid at a rate "
                    "set in the text (tax sparing); the credit it gives is not computed from the tax paid")
            continue
        if ph.has("relief_reduction", text):
            # the Dutch method: "shall allow a reduction of its tax ... computed in the proportion"
            # of the exempt income to the whole; the exempt income still sets the rate
            values: dict[str, Any] = {"method": "exemption_with_progression", "progression": True,
                                      "computed_as": "reduction_of_tax"}
        elif ph.has("relief_progression", text):
            values = {"method": "exemption", "progression": True}
        elif ph.has("relief_exemption", text):
            values = {"method": "exemption"}
        elif ph.has("relief_credit", text):
            values = {"method": "credit"}
            if ph.has("relief_limit", text):
                values["limit"] = "ordinary"
        else:
            continue
        sentences = unit.sentences()
        first = unit.folded[sentences[0][0] : sentences[0][1]] if sentences else text
        # the State a relief rule speaks of: for an item of a list, the one its introduction names
        # ("In China, ... as follows:", "..., Greece shall allow:"); the item itself often names the
        # other State ("the tax paid in the Netherlands"). Otherwise the State whose resident the
        # paragraph opens with, or whose tax a credit is allowed against, else its own first sentence
        # ("In Portugal, ...").
        named = []
        for intro in reversed(unit.context):
            intro_sentences = intro.sentences()
            if intro_sentences:
                a, b = intro_sentences[-1]
                named = [c for c in states_named(intro.folded[a:b]) if not reading.parties or c in reading.parties]
            if named:
                break
        if not named:  # a paragraph of its own, or a sentence after its list: whose resident, whose tax credited
            resident = _resident_state(unit, ph, reading.parties) or _credited_state(text, ph, reading.parties)
            named = [resident] if resident else []
        if not named:
            named = [c for c in states_named(first) if not reading.parties or c in reading.parties]
        state = named[0] if named else None
        method_sentence = next(
            ((a, b) for a, b in sentences
             if any(ph.has(k, unit.folded[a:b])
                    for k in ("relief_reduction", "relief_progression", "relief_exemption", "relief_credit"))),
            (0, len(unit.text)),
        )
        start = sentences[0][0] if state and sentences and sentences[0] != method_sentence and \
            states_named(first) else method_sentence[0]
        out.add(unit, "relief_method", reading.cite(unit, start, method_sentence[1]), values=values, state=state)
    return out
