"""A piecewise map from offsets in a cleaned text back to offsets in the original text.

The cleaned text is built left to right from pieces: copies of an original range (exact: each
character maps to one original character) and inserted or replaced strings (each maps to the
whole original range it replaced, possibly empty). `to_original(start, end)` widens a cleaned
range to the smallest original range that produced it, so `original[a:b]` always contains
the source of every character of `cleaned[start:end]`.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field


@dataclass
class SpanMap:
    # Parallel arrays, one entry per piece, in cleaned-text order.
    clean_starts: list[int] = field(default_factory=list)
    clean_ends: list[int] = field(default_factory=list)
    orig_starts: list[int] = field(default_factory=list)
    orig_ends: list[int] = field(default_factory=list)
    exact: list[bool] = field(default_factory=list)

    def add(self, clean_start: int, clean_end: int, orig_start: int, orig_end: int, exact: bool) -> None:
        if clean_end <= clean_start:
            return
        if (
            exact
            and self.exact
            and self.exact[-1]
            and self.clean_ends[-1] == clean_start
            and self.orig_ends[-1] == orig_start
        ):
            self.clean_ends[-1] = clean_end
            self.orig_ends[-1] = orig_end
            return
        self.clean_starts.append(clean_start)
        self.clean_ends.append(clean_end)
        self.orig_starts.append(orig_start)
        self.orig_ends.append(orig_end)
        self.exact.append(exact)

    def _piece(self, offset: int) -> int:
        i = bisect_right(self.clean_starts, offset) - 1
        return max(i, 0)

    def start_to_original(self, offset: int) -> int:
        if not self.clean_starts:
            return offset
        i = self._piece(offset)
        if offset >= self.clean_ends[i] and i + 1 < len(self.clean_starts):
            i += 1
        if self.exact[i]:
            return self.orig_starts[i] + max(0, offset - self.clean_starts[i])
        return self.orig_starts[i]

    def end_to_original(self, offset: int) -> int:
        """Map an exclusive end offset."""
        if not self.clean_starts:
            return offset
        i = self._piece(max(offset - 1, 0))
        if self.exact[i]:
            return self.orig_starts[i] + min(offset, self.clean_ends[i]) - self.clean_starts[i]
        return self.orig_ends[i]

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        if end <= start:
            o = self.start_to_original(start)
            return o, o
        return self.start_to_original(start), self.end_to_original(end)

    def to_clean(self, orig_start: int, orig_end: int) -> tuple[int, int]:
        """The cleaned range made from original[orig_start:orig_end] (the inverse of `to_original` on a
        range `to_original` gave): a piece copied verbatim maps character by character, a replaced one
        (a line repaired of its mojibake) as a whole. The pieces' original ranges never go back."""
        if not self.clean_starts or orig_end <= orig_start:
            return orig_start, orig_start
        first = bisect_right(self.orig_ends, orig_start)
        start = end = None
        for i in range(min(first, len(self.orig_ends) - 1), len(self.orig_starts)):
            if self.orig_starts[i] >= orig_end:
                break
            if self.orig_ends[i] <= orig_start:
                continue
            if start is None:
                start = (self.clean_starts[i] + max(0, orig_start - self.orig_starts[i])
                         if self.exact[i] else self.clean_starts[i])
            end = (self.clean_starts[i] + min(orig_end, self.orig_ends[i]) - self.orig_starts[i]
                   if self.exact[i] else self.clean_ends[i])
        if start is None or end is None:
            return orig_start, orig_start
        return start, end

    def through(self, edits: list[tuple[int, int, str]]) -> SpanMap:
        """This map of a text made from an edited original (each (start, end, word) of `edits`, sorted and
        apart, wrote `word` for original[start:end]), as a map to the original: a character outside the
        edits maps to its own, a piece of a written word to the whole range it replaced."""
        if not edits:
            return self
        # the edited text's ranges of the edits, and the offset a position after each has
        written: list[tuple[int, int, int, int]] = []  # (edited start, edited end, original start, original end)
        shift = 0
        for start, end, word in edits:
            written.append((start + shift, start + shift + len(word), start, end))
            shift += len(word) - (end - start)
        starts = [w[0] for w in written]
        out = SpanMap()

        def plain(offset: int) -> int:
            """The original offset of an edited offset outside every edit (or at an edit's start)."""
            i = bisect_right(starts, offset) - 1
            if i < 0:
                return offset
            e_start, e_end, o_start, o_end = written[i]
            return o_start if offset == e_start else o_end + offset - e_end if offset >= e_end else o_end

        def widened(start: int, end: int) -> tuple[int, int]:
            i = bisect_right(starts, start) - 1
            a = written[i][2] if i >= 0 and written[i][0] <= start < written[i][1] else plain(start)
            j = bisect_right(starts, end - 1) - 1
            b = written[j][3] if j >= 0 and written[j][0] < end <= written[j][1] else plain(end)
            return a, b

        for c_start, c_end, o_start, o_end, exact in zip(self.clean_starts, self.clean_ends, self.orig_starts,
                                                         self.orig_ends, self.exact, strict=True):
            if not exact:
                out.add(c_start, c_end, *widened(o_start, o_end), False)
                continue
            # an exact piece: cut where it meets an edit's written word
            at = o_start
            i = max(bisect_right(starts, o_start) - 1, 0)
            while at < o_end:
                while i < len(written) and written[i][1] <= at:
                    i += 1
                if i < len(written) and written[i][0] <= at:
                    stop = min(o_end, written[i][1])
                    out.add(c_start + at - o_start, c_start + stop - o_start, written[i][2], written[i][3], False)
                else:
                    stop = min(o_end, written[i][0]) if i < len(written) else o_end
                    out.add(c_start + at - o_start, c_start + stop - o_start, plain(at), plain(at) + stop - at, True)
                at = stop
        return out

    def is_exact(self, start: int, end: int) -> bool:
        """True when cleaned[start:end] is a verbatim copy of one original range."""
        if end <= start:
            return True
        i = self._piece(start)
        return self.exact[i] and self.clean_ends[i] >= end


class TextBuilder:
    """Builds a cleaned text and its `SpanMap` in one left-to-right pass."""

    def __init__(self, original: str) -> None:
        self.original = original
        self.parts: list[str] = []
        self.length = 0
        self.map = SpanMap()

    def copy(self, orig_start: int, orig_end: int) -> None:
        if orig_end <= orig_start:
            return
        self.parts.append(self.original[orig_start:orig_end])
        self.map.add(self.length, self.length + orig_end - orig_start, orig_start, orig_end, True)
        self.length += orig_end - orig_start

    def insert(self, text: str, orig_start: int, orig_end: int | None = None) -> None:
        """Append `text` standing for original[orig_start:orig_end] (empty range: pure insertion)."""
        if not text:
            return
        self.parts.append(text)
        self.map.add(self.length, self.length + len(text), orig_start, orig_start if orig_end is None else orig_end, False)
        self.length += len(text)

    def last_char(self) -> str:
        for part in reversed(self.parts):
            if part:
                return part[-1]
        return ""

    def drop_last_char(self) -> None:
        """Remove the final character (used to undo a line-end hyphen)."""
        while self.parts and not self.parts[-1]:
            self.parts.pop()
        if not self.parts:
            return
        self.parts[-1] = self.parts[-1][:-1]
        self.length -= 1
        m = self.map
        m.clean_ends[-1] -= 1
        if m.exact[-1]:
            m.orig_ends[-1] -= 1
        if m.clean_ends[-1] <= m.clean_starts[-1]:
            for arr in (m.clean_starts, m.clean_ends, m.orig_starts, m.orig_ends, m.exact):
                arr.pop()

    def text(self) -> str:
        return "".join(self.parts)
