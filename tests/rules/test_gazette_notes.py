"""The entry into force a gazette prints outside the convention's articles (issue 11, `stated_entry`): the
BOE's note after the text ("El presente Convenio entró en vigor el 15 de enero de 2021, ..., según se establece en
su artículo 26"), a promulgating decree's "entró en vigor internacional el ..." before it; the
Portuguese and English notes the same way.
With it, dates of effect relative to the entry into force become days: a payment between the
signature and the first day of effect is not covered (read before: the convention was assumed to
have effect on any payment after its signature). Sentences of our own in those shapes."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.rules.dates import _first_article_offset, _last_article_end, stated_entry

ARTICLES_ES = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE COSTA RICA PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 10.
Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado contratante en que resida la sociedad que paga los dividendos, pero, si el beneficiario efectivo de los dividendos es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 12 por ciento del importe bruto de los dividendos.

Artículo 26.
Entrada en vigor.
1. El Convenio entrará en vigor a los tres meses de la fecha de recepción de la última notificación y sus disposiciones surtirán efecto respecto de las rentas obtenidas a partir del 1 de enero del año civil siguiente a aquel en que el Convenio entre en vigor.

Hecho en Madrid, el 4 de marzo de 2019, en dos ejemplares en lengua española.
"""
NOTE_AFTER = ("\nEl presente Convenio entró en vigor el 15 de enero de 2021, tres meses después de la fecha de "
              "recepción de la última notificación, según se establece en su artículo 26.\n\n"
              "Madrid, 26 de febrero de 2021.–La Secretaria General Técnica, Nombre Apellido.\n")
DECREE = "Que dicho Convenio fue aprobado y, en consecuencia, entró en vigor internacional el 15 de enero de 2021.\n\n"


@pytest.mark.parametrize(("text", "expected"), [
    (ARTICLES_ES + NOTE_AFTER, "2021-01-15"),
    (DECREE + ARTICLES_ES, "2021-01-15"),
    (ARTICLES_ES, None),  # the final clause's own "entrará en vigor" is no date
])
def test_the_gazettes_note_names_the_entry_into_force(text: str, expected: str | None) -> None:
    doc = taxtreaty.parse(text.encode())
    found = stated_entry(doc.original, _first_article_offset(doc), _last_article_end(doc))
    assert (found.isoformat() if found else None) == expected


def test_a_note_after_the_text_that_names_no_article_is_not_read():
    # "El Convenio entró en vigor el 15 de enero de 2021." with nothing tying it to the final clause: no date
    doc = taxtreaty.parse((ARTICLES_ES + "\nEl Convenio entró en vigor el 15 de enero de 2021.\n").encode())
    assert stated_entry(doc.original, _first_article_offset(doc), _last_article_end(doc)) is None


@pytest.mark.parametrize(("date", "status"), [
    ("2020-06-01", "not_covered"),   # after the signature, before the entry into force
    ("2021-06-01", "not_covered"),   # in force, but with effect from 1 January of the next year only
    ("2022-01-01", "determined"),
])
def test_a_payment_before_the_first_day_of_effect_is_not_covered(date, status):
    doc = taxtreaty.parse((ARTICLES_ES + NOTE_AFTER).encode())
    decision = taxtreaty.decide(doc, {"income": "dividends", "source": "ES", "residence": "CR", "beneficial_owner": True,
                                      "recipient": "individual", "date": date}).to_dict()
    assert decision["status"] == status


def test_without_the_note_the_assumption_is_said():
    doc = taxtreaty.parse(ARTICLES_ES.encode())
    decision = taxtreaty.decide(doc, {"income": "dividends", "source": "ES", "residence": "CR", "beneficial_owner": True,
                                      "recipient": "individual", "date": "2021-06-01"}).to_dict()
    assert decision["status"] == "determined"
    assert [a["fact"] for a in decision["assumptions"]] == ["in_force"]


@pytest.mark.parametrize(("language", "text"), [
    ("pt", "Artigo 1.º\nPessoas visadas\nA presente Convenção aplica-se às pessoas residentes.\n\n"
           "Feito em Lisboa, em 4 de março de 2019.\n\nA Convenção entrou em vigor em 15 de janeiro de 2021, nos termos do seu artigo 28.º\n"),
    ("en", "Article 1\nPersons covered\nThis Convention shall apply to persons who are residents.\n\n"
           "Done at London, this 4th day of March 2019.\n\nThe Convention entered into force on 15 January 2021 in accordance with its Article 28.\n"),
])
def test_notes_in_portuguese_and_english(language, text):
    doc = taxtreaty.parse(text.encode())
    found = stated_entry(doc.original, _first_article_offset(doc), _last_article_end(doc))
    assert found is not None and found.isoformat() == "2021-01-15"
