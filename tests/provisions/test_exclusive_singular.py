"""The exclusive allocation verb in the singular ("sólo puede someterse a imposición", "só poderá ser tributado"; the
English words are the same in both numbers): a gain given to one State only, never read as the shared "puede someterse a imposición"
(AR-GB 13(5), ships and aircraft: before, the source State "may tax"). Sentences of our own in that shape."""

from __future__ import annotations

import pytest
from helpers import extract_text

HEAD = {
    "en": "CONVENTION BETWEEN NORVALIA AND ESTMARK\n\nArticle 13\nCapital gains\n\n",
    "es": "CONVENIO ENTRE NORVALIA Y ESTMARK\n\nARTICULO 13\nGanancias de capital\n\n",
    "pt": "CONVENÇÃO ENTRE A NORVÁLIA E A ESTMÁRQUIA\n\nARTIGO 13\nMais-valias\n\n",
}


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        (
            "es",
            "1. La ganancia que una empresa de un Estado Contratante obtenga de la enajenación de buques explotados "
            "en tráfico internacional sólo puede someterse a imposición en ese Estado.",
        ),
        (
            "es",
            "1. La ganancia que una empresa de un Estado Contratante obtenga de la enajenación de aeronaves explotadas "
            "en tráfico internacional solamente podrá someterse a imposición en ese Estado.",
        ),
        (
            "pt",
            "1. O ganho que uma empresa de um Estado Contratante aufira da alienação de navios explorados no tráfego "
            "internacional só poderá ser tributado nesse Estado.",
        ),
        (
            "pt",
            "1. O ganho que uma empresa de um Estado Contratante aufira da alienação de aeronaves exploradas no tráfego "
            "internacional somente pode ser tributado nesse Estado.",
        ),
    ],
)
def test_the_singular_exclusive_verb_gives_the_gain_to_one_state(language: str, sentence: str) -> None:
    found = [
        p
        for p in extract_text(HEAD[language] + sentence + "\n").provisions
        if p.topic == "capital_gains" and p.kind == "allocation"
    ]
    assert [(p.allocation, p.conditions.get("gain_property")) for p in found] == [
        ("residence_only", ["ships_aircraft"])
    ]
