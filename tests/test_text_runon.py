"""Texts printed without their line breaks (a docplayer or 1library copy of the Diário da República that
runs a convention onto one line or a few long ones): headings and paragraphs are cut where the gazette's
lines started, the page furniture inside the line goes, and a convention re-laid so gets the answers it
gets as printed (taxtreaty/text/runon.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from taxtreaty.checks import Report, load_cases, run_cases
from taxtreaty.checks.relay import differences, run_cases_on
from taxtreaty.structure import parse_text
from taxtreaty.text import clean

CASES = Path(__file__).resolve().parent / "cases"

# our own words, in the Diário da República's shape, its line breaks lost
RUN_ON = (
    "A República Portuguesa e a República de Cabo Verde, desejando concluir uma Convenção, acordaram o seguinte: "
    "CAPÍTULO I Âmbito de aplicação Artigo 1.º Pessoas visadas A presente Convenção aplica-se às pessoas "
    "residentes de um ou de ambos os Estados Contratantes. Artigo 2.º Impostos visados 1 — A presente Convenção "
    "aplica-se aos impostos sobre o rendimento. 2 — Os impostos atuais a que a Convenção se aplica são: "
    "a) Relativamente a Portugal: o IRS; b) Relativamente a Cabo Verde: o IUR. CAPÍTULO II Tributação dos "
    "rendimentos Artigo 3.º Dividendos 1 — Os dividendos pagos por uma sociedade residente de um Estado "
    "Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado. 2 — Esses "
    "dividendos podem, no entanto, ser igualmente tributados no Estado de que é residente a sociedade que paga "
    "os dividendos, mas o imposto assim estabelecido não excederá 10 % do montante bruto dos dividendos. "
    "3 de março de 2020 Diário da República, 1.ª série — N.º 44 1205 3 — O disposto nos n.os 1 e 2 não é "
    "aplicável nos termos do Artigo 7.º da presente Convenção. Artigo 4.º Entrada em vigor A presente Convenção "
    "entrará em vigor no trigésimo dia após a última notificação."
)


def test_run_on_text_is_cut_into_its_lines() -> None:
    lines = clean(RUN_ON).text.split("\n")
    assert "CAPÍTULO I Âmbito de aplicação" in lines
    assert "Artigo 1.º Pessoas visadas" in lines  # a title the topic table knows, then the text
    assert "A presente Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes." in lines
    assert "CAPÍTULO II Tributação dos rendimentos" in lines  # a chapter's title ends where its article starts
    assert "Artigo 4.º Entrada em vigor" in lines  # a sentence in lower case opens after the title
    assert any(line.startswith("2 — Esses dividendos") for line in lines)
    # the running line between two paragraphs is furniture, and a reference inside a sentence stays text
    assert not any("Diário da República" in line for line in lines)
    assert any(line.startswith("3 — O disposto") and "do Artigo 7.º da presente" in line for line in lines)
    document = parse_text(RUN_ON)
    version = document.versions[0]
    assert [a.number for a in version.articles] == ["1", "2", "3", "4"]
    assert [p.number for p in version.article("3").paragraphs] == ["1", "2", "3"]


def test_a_reference_after_a_sentence_end_is_no_heading_without_a_title() -> None:
    text = ("1 — Os lucros de uma empresa só podem ser tributados nesse Estado. " * 6
            + "Artigo 7.º não prejudica a aplicação do disposto no presente artigo. 2 — Nesse caso, o imposto.")
    assert not any(line.startswith("Artigo 7.º") for line in clean(text).text.split("\n"))


def _run_on(text: str, width: int | None) -> str:
    one = re.sub(r"\s*\n\s*", " ", text)
    return one if width is None else re.sub(rf"(.{{{width},{width + 400}}}?) ", lambda m: m.group(1) + "\n", one)


@pytest.mark.parametrize(("pack", "width"), [("gazette_pt_dre.yaml", None), ("gazette_pt_dre.yaml", 2500),
                                             ("gazette_pt_dou.yaml", None),
                                             ("gazette_es_impo.yaml", None), ("gazette_es_impo.yaml", 700),
                                             ("gazette_es_impo1996.yaml", None), ("gazette_es_impo1996.yaml", 2000),
                                             ("gazette_es_docl.yaml", None), ("gazette_es_dof.yaml", None),
                                             ("gazette_es_dof.yaml", 1500)],
                         ids=["dre-one-line", "dre-long-lines", "dou-one-line", "impo-one-line", "impo-long-lines",
                              "impo1996-one-line", "impo1996-long-lines", "docl-one-line", "dof-one-line",
                              "dof-long-lines"])
def test_a_convention_run_on_gets_the_answers_it_gets_as_printed(pack: str, width: int | None) -> None:
    # the Diário da República pack of our own: its page furniture inside the run-on line too; the Diário Oficial
    # da União's: its protocol's heading in capitals right after the signature block ("... Ministro das Finanças
    # PROTOCOLO No momento ..."), no sentence end before it (lost, the protocol's points were not read: BNDES
    # interest taxed at 15%, technical services sent to article 7); IMPO's compilations: the source note and the
    # block over every article inside the line (lost, the article after it), the protocol numbered as an article
    # ("Artículo 244-T2 Protocolo.-"), a heading the long lines break ("Artículo" / "232-T2 Pensiones.-"); the
    # Chilean and Mexican running lines (lost, the article after them)
    changed = _changed_when_relaid(pack, lambda text: _run_on(text, width), "run-on")
    assert not changed, "\n".join(changed)


def _changed_when_relaid(pack: str, relay: Callable[[str], str], shape: str) -> list[str]:
    """The cases of `pack` whose answer on its treaties' texts re-laid by `relay` is not the printed texts'."""
    case_file = load_cases(CASES / pack)
    original = {r.case.id: r for r in run_cases(case_file).results}
    treaties: dict[str, list] = {}
    for case in case_file.cases:
        treaties.setdefault(case.treaty, []).append(case)
    changed = []
    for treaty, cases in treaties.items():
        text = (case_file.path.parent / treaty).read_text(encoding="utf-8")
        relaid_text = relay(text)
        assert relaid_text != text, f"{treaty}: the {shape} shape changes nothing"
        relaid = run_cases_on(case_file, relaid_text, cases)
        changed += [d.line(shape) for d in differences(Report([original[c.id] for c in cases]), relaid)]
    return changed


def _folded(text: str) -> str:
    """`text` as a copy that printed every accented letter without its accent ("imposicion", "tributacao",
    "Artigo 10.º" kept)."""
    import unicodedata

    return "".join(unicodedata.normalize("NFD", c)[0] if c.isalpha() and not c.isascii()
                   and unicodedata.normalize("NFD", c)[0].isascii() else c for c in text)


@pytest.mark.parametrize("pack", ["gazette_pt_dre", "gazette_pt_dou", "gazette_es_boe", "gazette_es_docl"])
def test_a_copy_without_accents_gets_the_answers_it_gets_as_printed(pack: str) -> None:
    # every comparison of headings, phrases and names folds accents: pt and es copies that lost them read the same
    changed = _changed_when_relaid(f"{pack}.yaml", _folded, "folded")
    assert not changed, "\n".join(changed)


def test_the_heading_gaps_are_found_as_the_whole_pattern_finds_them() -> None:
    # `runon` looks for heading gaps from their words (fast); the same gaps, in order, as `_heading_start`
    # finds trying every blank: lines built of every heading word, cased three ways, between blanks of every kind
    import random

    from taxtreaty import vocab
    from taxtreaty.text.runon import _heading_gaps, _heading_start

    words = [w for key in ("article_words", "chapter_words", "protocol_words", "testimonium", "signature_lead",
                           "convention_words") for w in vocab.all_words(key)]
    tokens = [*words, *(w.upper() for w in words), *(w.lower() for w in words),
              "5", "IV", "l", "O", "10.º", "Additional", "entre", "the", "x.", ";", "Estado."]
    blanks = [" ", "  ", "", "\n", "\t", " \n ", "\u00a0", "\u2003 "]
    rng = random.Random(11)

    def spans(matches) -> list:
        return [(m.span(), m.lastgroup, sorted(k for k, v in m.groupdict().items() if v is not None)) for m in matches]

    for _ in range(3000):
        line = rng.choice(["", " ", "\n"]) + "".join(rng.choice(tokens) + rng.choice(blanks)
                                                     for _ in range(rng.randint(1, 20)))
        assert spans(_heading_gaps(line)) == spans(_heading_start().finditer(line)), repr(line)
    assert spans(_heading_gaps(RUN_ON)) == spans(_heading_start().finditer(RUN_ON))
    assert len(spans(_heading_gaps(RUN_ON))) >= 8


def test_every_inline_furniture_example_holds_one_of_its_rules_literals() -> None:
    # a rule with `literals` is only tried on a line holding one: each example its doc quotes that the rule matches
    # whole must hold one, or the cheap test would hide it
    import regex

    from taxtreaty import vocab

    for rule in vocab.inline_furniture_patterns():
        pattern = regex.compile(rule["regex"])
        examples = [e for e in re.findall(r'"([^"]{4,})"', rule["doc"]) if pattern.fullmatch(e)]
        assert examples, f"{rule['name']}: no example of its doc is matched by its pattern"
        for example in examples:
            assert not rule.get("literals") or any(w in example for w in rule["literals"]), (rule["name"], example)
