"""The package's shape: small modules, stages that import one way, no words of a language in code.

Each test has an explicit allow-list of today's known offenders, named with the helper who is
removing them: a file added to a list later fails, and so does an entry that is no longer needed
(the lead empties the lists as the work lands).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import regex

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "taxtreaty"
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# -- (a) module size -----------------------------------------------------------------------------

#: modules over the limit today, and who is splitting them
OVERSIZE_ALLOWED: dict[str, str] = {}


def test_no_module_over_the_line_limit() -> None:
    sizes = {_rel(path): len(path.read_text(encoding="utf-8").splitlines()) for path in MODULES.values()}
    over = sorted(name for name, n in sizes.items() if n > MAX_LINES and name not in OVERSIZE_ALLOWED)
    assert not over, f"modules over {MAX_LINES} lines: " + ", ".join(f"{n} ({sizes[n]})" for n in over)
    stale = sorted(name for name in OVERSIZE_ALLOWED if sizes.get(name, 0) <= MAX_LINES)
    assert not stale, f"no longer over {MAX_LINES} lines (remove from OVERSIZE_ALLOWED): {stale}"


# -- imports -------------------------------------------------------------------------------------


def _target(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The package modules an import statement loads (a name imported from a package that is a
    submodule counts as that submodule)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in MODULES]
    if node.level:  # relative import: from the module's package, one level up per extra dot
        package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        base = package[: len(package) - (node.level - 1)]
        name = ".".join(base + ([node.module] if node.module else []))
    else:
        name = node.module or ""
    if name not in MODULES:
        return []
    out = []
    for alias in node.names:
        sub = f"{name}.{alias.name}"
        out.append(sub if sub in MODULES else name)
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module is loaded: top level, and inside top-level `if` / `try` blocks,
    except `if TYPE_CHECKING:`."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            pending += node.body + node.orelse
        elif isinstance(node, ast.Try):
            pending += node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]
    return found


def _import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {t for node in _module_level_imports(tree) for t in _target(module, node) if t != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# -- (b) no import cycles ------------------------------------------------------------------------


def test_no_import_cycles_among_the_package_modules() -> None:
    cycles = _cycles(_import_graph())
    assert not cycles, "import cycles (module-level imports): " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


# -- (c) rules never import the store ------------------------------------------------------------

#: modules under taxtreaty/rules that import taxtreaty.store today, and who is removing the import
#: (none since taxtreaty/pipeline.py reads the store for rules)
RULES_IMPORT_STORE_ALLOWED: dict[str, str] = {}


def _imports_store(path: Path) -> bool:
    """Any import of taxtreaty.store in the file, at any level (a function's import counts too)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
        if any(n == "taxtreaty.store" or n.startswith("taxtreaty.store.") for n in names):
            return True
    return False


def test_rules_do_not_import_the_store() -> None:
    offenders = {_rel(p) for p in (PACKAGE / "rules").rglob("*.py") if _imports_store(p)}
    new = sorted(offenders - set(RULES_IMPORT_STORE_ALLOWED))
    assert not new, f"taxtreaty/rules imports taxtreaty.store (stages run one way): {new}"
    stale = sorted(set(RULES_IMPORT_STORE_ALLOWED) - offenders)
    assert not stale, f"no longer import the store (remove from RULES_IMPORT_STORE_ALLOWED): {stale}"


# -- (d) no alternation of natural-language words in code ----------------------------------------

_SPACE = r"(?:\\s[+*]?|[ ])"
#: a word or phrase of an alternation: "day", "del?", "day\s+of\s+"
_TOKEN = rf"[^\W\d_]+\??(?:{_SPACE}[^\W\d_]+\??)*{_SPACE}?"
#: three or more words joined by "|" ("convention|agreement|acordo", "de\s+|day\s+of\s+|del\s+")
WORD_ALTERNATION = regex.compile(rf"(?<![\w\\]){_TOKEN}(?:\|{_TOKEN}){{2,}}(?![\w])")
_SPACES_AND_MARKS = regex.compile(r"\\s[+*]?|[ ?]")


def word_alternations(source: str) -> list[tuple[int, str]]:
    """(line, text) of each alternation of words inside a string literal (docstrings excepted):
    three words or more joined by "|", at least two of them of two letters or more."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            for m in WORD_ALTERNATION.finditer(node.value):
                words = [_SPACES_AND_MARKS.sub("", w) for w in m.group().split("|")]
                if sum(len(w) >= 2 for w in words) >= 2:
                    found.append((node.lineno, m.group()))
    return found


#: where words of a language must come from the data files (the directories already cleaned)
WORDLESS = [PACKAGE / "structure", PACKAGE / "text", PACKAGE / "patterns.py"]


@pytest.mark.parametrize(
    ("source", "hits"),
    [
        ('X = r"(?:convention|agreement|acordo)"', 1),
        ('X = r"(?:de\\s+|day\\s+of\\s+|del?\\s+mes\\s+de\\s+)?"', 1),
        ('X = rf"(?:{words})\\s+(?:de |da |do )?"', 1),
        ('X = r"[a-z]{1,2}|[ivx]{1,5}|Hi"', 0),  # label shapes, not words
        ('X = r"(?P<open>\\()?(?P<label>a|b)"', 0),  # two letters are not a word list
        ('def f():\n    """convention|agreement|acordo in a docstring"""\n', 0),
    ],
)
def test_the_word_alternation_finder(source: str, hits: int) -> None:
    assert len(word_alternations(source)) == hits


def test_no_word_alternations_in_the_cleaned_stages() -> None:
    files = [p for target in WORDLESS for p in ([target] if target.is_file() else sorted(target.rglob("*.py")))]
    found = [f"{_rel(p)}:{line}: {text[:60]}" for p in files for line, text in word_alternations(p.read_text(encoding="utf-8"))]
    assert not found, "natural-language words in code (move them to taxtreaty/data): " + "; ".join(found)
