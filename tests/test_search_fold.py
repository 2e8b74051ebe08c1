"""`fold_same_length` (the snippet's folding) keeps offsets and agrees with folding one character at a time."""

from hypothesis import given
from hypothesis import strategies as st

from taxtreaty.store.search import _fold_char, fold_same_length, snippet


def test_fold_same_length_folds_case_and_accents_in_place() -> None:
    assert fold_same_length("Beneficiário Efectivo") == "beneficiario efectivo"
    assert fold_same_length("RÉGALÍAS") == "regalias"
    # a character whose fold is longer ("ß" -> "ss") stays one character, so offsets still line up
    assert len(fold_same_length("Straße")) == len("Straße")


@given(st.text(max_size=300))
def test_fold_same_length_is_per_character_fold(text: str) -> None:
    folded = fold_same_length(text)
    assert len(folded) == len(text)
    assert folded == "".join(_fold_char(c) for c in text)


def test_snippet_marks_accented_words_at_their_original_offsets() -> None:
    body = "2. Os JUROS pagos ao beneficiário efectivo residente são tributáveis."
    assert snippet(body, {"beneficiario", "juros"}) == (
        "2. Os **JUROS** pagos ao **beneficiário** efectivo residente são tributáveis."
    )
