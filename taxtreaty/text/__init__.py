"""Stage 1: from bytes to clean text with a map back to the original characters."""

from taxtreaty.text.clean import CleanText, clean
from taxtreaty.text.decode import (
    MAX_INPUT_BYTES,
    MAX_INPUT_LINES,
    DecodedText,
    InputError,
    check_lines,
    decode_bytes,
)
from taxtreaty.text.spanmap import SpanMap

__all__ = ["MAX_INPUT_BYTES", "MAX_INPUT_LINES", "CleanText", "DecodedText", "InputError", "SpanMap", "check_lines", "clean", "decode_bytes"]
