"""Find natural-language word alternations ("and|or|e|ou") in the string literals of Python code:
the words of a language belong in taxtreaty/data, not in .py files."""

from __future__ import annotations

import ast
import re
from pathlib import Path

#: regex syntax around the alternatives of a pattern, removed before looking at what is left
_SYNTAX = re.compile(r"\[[^\]]*\]|\{\{?[\d,]*\}\}?|\(\?(?:[:!=]|<[!=]|i:|P<\w+>)|\\[bsSdDwW][+*]?|[()?^$*+]")
#: what is left of an alternative that is a word (or words) of a language, two letters or more
_WORD = re.compile(r"[^\W\d_]{2,}(?:\s[^\W\d_]+)*")


def alternated_words(literal: str) -> list[str]:
    """The alternatives of `literal` (split at "|") that are plain words once the regex syntax is gone."""
    return [bare for piece in literal.split("|") if _WORD.fullmatch(bare := _SYNTAX.sub("", piece).strip())]


def word_alternations(source: str) -> list[tuple[int, list[str]]]:
    """(line, words) of every string literal, docstrings aside, that alternates two words or more."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words = alternated_words(node.value)
            if len(words) >= 2:
                found.append((node.lineno, words))
    return found


def files_with_word_alternations(folder: Path) -> dict[str, list[tuple[int, list[str]]]]:
    return {str(path): hits for path in sorted(folder.rglob("*.py"))
            if (hits := word_alternations(path.read_text(encoding="utf-8")))}
