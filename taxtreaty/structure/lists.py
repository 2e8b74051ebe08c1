"""The labels of lists as the gazettes print them: which list level a label opens or continues
(a) i) 1) A) ...), a numbered item that looks like a paragraph number, a label printed twice. (A label
that a cross-reference wrapped onto the start of a line, "... del inciso" then "a) o del inciso b)", is
joined to its line by the cleaner: `text.join.label_wrapped`.) A mixin of the tree builder
(`builder.VersionBuilder`): it reads and extends the builder's open paragraph and points.
"""

from __future__ import annotations

from taxtreaty.structure import eids
from taxtreaty.structure.lines import Line
from taxtreaty.structure.nodes import Node
from taxtreaty.structure.numbers import clean_label, label_for, label_kinds, label_value, ocr_candidates

#: deepest nesting of points accepted (a) i) 1) A) ...); deeper labels stay text
MAX_POINT_DEPTH = 6


class ListLabels:
    """Where a label goes in the open lists of the builder (see the module's docstring)."""

    # -- numbered list items ("1.is a national ...") that look like paragraph numbers
    def _accept_numbered_item(self, line: Line) -> bool:
        """A "N." line inside a paragraph is an item of a numbered list, not paragraph N, when
        it opens a list an open point announces ("... who:" then "1. is a national"), or
        continues such a list ("2." after "1. ...; or"). A "2." after an item that ends its
        sentence, where paragraph 2 fits, is paragraph 2."""
        m = line.match
        number = m.group("num")  # type: ignore[union-attr]
        if self.para is None or number is None or line.text[len(number):len(number) + 1] != ".":
            return False
        value = int(number)
        placed: tuple[int, str, str, bool] | None = None
        # the next item of an open numbered list, innermost first
        for depth in range(len(self.stack) - 1, -1, -1):
            item = self.stack[depth]
            if item.kind == "number":
                if value == int(item.label) + 1:
                    ends_sentence = self.ct.text[item.start:item.end].rstrip().endswith(".")
                    if not ends_sentence or not self._paragraph_fits(value):
                        placed = (depth, number, "number", False)
                break
        # a new list that the open point announces ("b) ... who:" then "1.is a national"); under a
        # paragraph itself, "1." stays ambiguous with the paragraph numbering and is left as it was
        if placed is None and value == 1 and self.stack and self._announces_list(self.stack[-1]) and (
            self.stack[-1].kind != "number" and len(self.stack) < MAX_POINT_DEPTH
        ):
            placed = (len(self.stack), number, "number", False)
        if placed is None:
            return False
        self._open_point(line, line.start + m.end(), placed, number)  # type: ignore[union-attr]
        return True

    def _paragraph_fits(self, value: int) -> bool:
        container = self._container_paragraphs() or []
        last = next((p for p in reversed(container) if p.number is not None), None)
        return last is not None and last.number is not None and value == int(last.number) + 1

    def _place_label(self, raw: str) -> tuple[int, str, str, bool] | None:
        """(depth, label, kind, repaired) for a point label, or None when it is not a point here."""

        def expected_at(depth: int) -> list[tuple[str, str]]:
            siblings = (self.stack[depth - 1].children if depth > 0 else self.para.children)  # type: ignore[union-attr]
            if siblings:
                last = siblings[-1]
                value = label_value(last.label, last.kind)
                return [(label_for(last.kind, value + 1), last.kind)] if value else []
            return [("a", "letter"), ("i", "roman"), ("A", "upper"), ("1", "number"), ("aa", "double")]

        candidates = [(raw, False)] + [(c, True) for c in ocr_candidates(raw)]
        # 1. the label expected next at some open level, innermost first, or a new nested list
        for depth in range(len(self.stack), -1, -1):
            for label, repaired in candidates:
                for exp_label, exp_kind in expected_at(depth):
                    if label != exp_label:
                        continue
                    # opening a nested list needs a kind different from its parent's, and the
                    # nesting is bounded (treaties go four deep; a thousand is damage, not law)
                    if depth == len(self.stack) and depth > 0 and (
                        exp_kind == self.stack[-1].kind or depth >= MAX_POINT_DEPTH
                    ):
                        continue
                    # "i)" after "h) ...;" continues the letters; it opens a roman list only
                    # after an item that announces one ("...means:")
                    if depth == len(self.stack) and depth > 0 and not self._announces_list(self.stack[-1]) and any(
                        label == other for d in range(depth) for other, _ in expected_at(d)
                    ):
                        continue
                    return depth, label, exp_kind, repaired
        # 2. the label of the item before printed again ("d) a factory;", "d) a workshop;", then
        # "f) a mine"): the next item's label shows this one is the item between them, misprinted
        if self.stack and raw == self.stack[-1].label:
            last = self.stack[-1]
            value = label_value(last.label, last.kind)
            if value and self._next_point_label() == label_for(last.kind, value + 2):
                return len(self.stack) - 1, label_for(last.kind, value + 1), last.kind, True
        # 3. a valid label that skips ahead within the innermost list (lost items)
        if self.stack:
            depth = len(self.stack) - 1
            siblings = self.stack[-2].children if depth > 0 else self.para.children  # type: ignore[union-attr]
            last = siblings[-1]
            if last.kind in label_kinds(raw):
                value, last_value = label_value(raw, last.kind), label_value(last.label, last.kind)
                if value and last_value and last_value + 1 < value <= last_value + 3:
                    self.warn("list_items_missing", self._owner_eid(),
                              f"point {raw}) follows point {last.label}): items are missing")
                    return depth, raw, last.kind, False
        # 4. a list that starts mid-way (its first items lost), only at the paragraph level
        if not self.stack and not self.para.children:  # type: ignore[union-attr]
            kinds = label_kinds(raw)
            if kinds and raw not in ("a", "i", "A", "1"):
                kind = "roman" if "roman" in kinds and len(raw) > 1 else kinds[0]
                value = label_value(raw, kind)
                if value and value <= 4:
                    return 0, raw, kind, False
        # 5. the same list restarting: earlier items or a parent list were lost
        if not self.stack or len(self.stack) == 1:
            siblings = self.para.children  # type: ignore[union-attr]
            if siblings and raw in self.para.child_labels:  # type: ignore[union-attr]
                kind = siblings[-1].kind
                if kind in label_kinds(raw):
                    self.warn("list_items_missing", self._point_eid_hint(),
                              f"point {raw}) appears again in the same list: the items of an enclosing list are missing")
                    return 0, raw, kind, False
        return None

    def _next_point_label(self) -> str | None:
        """The label of the next point marker after the line being read, None when a paragraph or
        an article comes first (or nothing within a page of lines)."""
        for line in self.lines[self.index + 1:self.index + 60]:
            if line.kind == "point":
                return clean_label(line.match.group("label"))  # type: ignore[union-attr]
            if line.kind in ("paragraph", "article", "protocol", "chapter"):
                return None
        return None

    def _announces_list(self, node: Node) -> bool:
        return self.ct.text[node.start:node.end].rstrip().endswith((":", "—", "-", "–"))

    def _point_eid_hint(self) -> str | None:
        """The eId the current paragraph will get (numbered, or the n-th unnumbered one)."""
        owner = self._owner_eid() if self.protocol is None else eids.protocol(len(self.protocols))
        container = self._container_paragraphs()
        if owner is None or self.para is None or container is None:
            return owner
        if self.para.number is not None:
            return eids.paragraph(owner, self.para.number)
        if self.para.eid_hint is None:  # computed once per paragraph
            position = next(i for i in range(len(container) - 1, -1, -1) if container[i] is self.para)
            unnumbered = sum(1 for p in container[: position + 1] if p.number is None)
            self.para.eid_hint = eids.paragraph(owner, None, unnumbered)
        return self.para.eid_hint
