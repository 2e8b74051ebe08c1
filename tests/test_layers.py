"""The rules stage sits below the pipeline and the interfaces: no module under taxtreaty/rules
imports them, nor the store or the checks, not even in a function-level import (module sizes,
import cycles and the store are checked in test_architecture.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

RULES = ROOT / "taxtreaty" / "rules"
#: the stages and surfaces above rules
ABOVE = ("taxtreaty.pipeline", "taxtreaty.store", "taxtreaty.interfaces", "taxtreaty.checks")


def imported(path: Path) -> set[str]:
    """Every absolute module name an import in the file names, at any level."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: p.name)
def test_rules_never_import_what_is_above_them(path: Path) -> None:
    assert sorted(n for n in imported(path) if n == "taxtreaty" or n.startswith(ABOVE)) == []


def test_the_check_sees_a_function_level_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from taxtreaty.pipeline import load_treaty\n", encoding="utf-8")
    assert imported(module) == {"taxtreaty.pipeline"}
