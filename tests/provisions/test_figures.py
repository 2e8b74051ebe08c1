"""Figures (`provisions/figures.py`): rates, durations and amounts, in digits and in words."""

from __future__ import annotations

import pytest

from taxtreaty.provisions import figures
from taxtreaty.provisions.vocabulary import fold_same_length, phrases


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "shall not exceed ten per cent of", ["10"]),
        ("en", "twenty-five per cent and 7.5 per cent and 12,5% and 5 percent", ["25", "7.5", "12.5", "5"]),
        ("en", "ten per cent (10%) of the gross amount", ["10"]),
        ("en", "zero per cent", ["0"]),
        ("pt", "não excederá quinze por cento nem 10 % nem vinte e cinco por cento", ["15", "10", "25"]),
        ("es", "no podrá exceder del diez por ciento ni del veinticinco por ciento", ["10", "25"]),
        ("es", "no podrá exceder del 5 por 100 del importe bruto", ["5"]),
        ("en", "the l5 per cent rate", []),
        # the figure and its words in brackets, either way round (Indian and Philippine texts)
        ("en", "shall not exceed 10 (ten) per cent of the gross amount", ["10"]),
        ("en", "shall not exceed fifteen (15) percent of the gross amount", ["15"]),
        ("en", "shall not exceed 10 (fifteen) per cent of the gross amount", []),
        ("pt", "não excederá 10 (dez) por cento do montante bruto", ["10"]),
        ("es", "no podrá exceder del 15 (quince) por ciento del importe bruto", ["15"]),
        # a fraction in words after its whole number and "and": never the half alone (0.5) nor 1 + 0.5
        ("en", "shall not exceed twelve and a half per cent of the gross amount", ["12.5"]),
        ("en", "shall not exceed two and one-half percent of the gross amount", ["2.5"]),
        ("en", "shall not exceed thirty and three quarters per centum", ["30.75"]),
        ("en", "shall not exceed one-half per cent of the gross amount", ["0.5"]),
        ("en", "shall not exceed one half per cent of the gross amount", ["0.5"]),
        ("en", "shall not exceed seven and a half per cent (7.5%) of the gross amount", ["7.5"]),
        ("en", "shall not exceed twelve and a half (12 1/2) per cent of the gross amount", ["12.5"]),
        ("es", "no podrá exceder del doce y medio por ciento del importe bruto", ["12.5"]),
        ("pt", "não excederá sete e meio por cento do montante bruto", ["7.5"]),
        # a whole number and a fraction in digits, with a blank or a hyphen (US texts) before it
        ("en", "shall not exceed 7-1/2 percent and 12 1/2 per cent and 2½ per cent", ["7.5", "12.5", "2.5"]),
    ],
)
def test_rates_in_digits_and_words(language, text, expected):
    ph = phrases(language)
    assert ph is not None
    found = figures.find_rates(fold_same_length(text), ph)
    assert [str(f.value.normalize()) if f.value != f.value.to_integral() else str(int(f.value)) for f in found] == expected


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "a period of one hundred and eighty-three days", [("183", "days")]),
        ("pt", "durante um período de dois anos e 6 meses", [("2", "years"), ("6", "months")]),
        ("es", "treinta días en cualquier período de doce meses", [("30", "days"), ("12", "months")]),
    ],
)
def test_durations(language, text, expected):
    ph = phrases(language)
    assert ph is not None
    found = figures.find_durations(fold_same_length(text), ph)
    assert [(str(int(d.value)), d.unit) for d in found] == expected


def test_amounts_written_once_in_words_and_figures():
    ph = phrases("pt")
    assert ph is not None
    found = figures.find_amounts(fold_same_length("não exceda nove mil dólares americanos (USD 9000) por ano"), ph)
    assert [(int(a.value), a.currency) for a in found] == [(9000, "USD")]
    en = phrases("en")
    assert en is not None
    assert [(int(a.value), a.currency) for a in figures.find_amounts("up to usd 12,500 a year", en)] == [(12500, "USD")]


@pytest.mark.parametrize(("language", "text", "expected"), [
    # NL-GH 18(2)(c): the sum in words with its figure in brackets before the currency
    ("en", "in any calendar year exceeds the sum of twenty thousand (20,000) Euro.", [(20000, "EUR")]),
    ("en", "does not exceed fifteen thousand (15,000) US dollars", [(15000, "USD")]),
    ("es", "exceda de la suma de veinte mil (20.000) euros en un año civil", [(20000, "EUR")]),
    ("pt", "exceder o montante de vinte mil (20 000) euros", [(20000, "EUR")]),
    # the figure first, the words in brackets
    ("es", "exceda de 20.000 (veinte mil) euros", [(20000, "EUR")]),
    # words and figures that disagree give no sum: neither is guessed
    ("en", "exceeds the sum of twenty thousand (25,000) Euro", []),
])
def test_a_sum_in_words_and_bracketed_figures_is_one_sum(language, text, expected):
    ph = phrases(language)
    assert ph is not None
    assert [(int(a.value), a.currency) for a in figures.find_amounts(fold_same_length(text), ph)] == expected
