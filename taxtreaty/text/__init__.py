"""Stage 1: from bytes to clean text with a map back to the original characters."""

from taxtreaty.text.clean import CleanText, clean
from taxtreaty.text.decode import MAX_INPUT_BYTES, DecodedText, InputError, decode_bytes
from taxtreaty.text.spanmap import SpanMap

__all__ = ["MAX_INPUT_BYTES", "CleanText", "DecodedText", "InputError", "SpanMap", "clean", "decode_bytes"]
