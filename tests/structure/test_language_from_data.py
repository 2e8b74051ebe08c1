"""A language is its data files (issue 13, "a new language is a new data file"): no module under
taxtreaty/ names a language code, and the package without the French files does not read French,
while the same code with them copied in does, structure and caps alike."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

from taxtreaty import vocab

PACKAGE = ROOT / "taxtreaty"
FRENCH = Path(__file__).parent.parent / "fixtures" / "structure" / "fr_convention.txt"
#: every file that makes French: its language file and its provisions words
FRENCH_FILES = ("data/languages/fr.yaml", "data/provisions/fr.yaml")

_READ = """
import json, sys
import taxtreaty
from taxtreaty.provisions import extract_provisions
doc = taxtreaty.parse_file(sys.argv[1])
caps = sorted([p.topic, p.cite.eid, str(p.rate_pct)] for p in extract_provisions(doc).provisions
              if p.kind == "withholding_cap")
print(json.dumps({"where": taxtreaty.__file__, "versions": [[v.language, v.supported] for v in doc.versions],
                  "articles": [[a.number, a.topic] for v in doc.versions for a in v.articles],
                  "prevailing": doc.prevailing_language, "caps": caps}))
"""


def language_codes() -> set[str]:
    codes = set(vocab.languages())
    codes |= {lang.iso639_2 for lang in vocab.languages().values() if lang.iso639_2}
    return codes


def codes_named(source: str, codes: set[str]) -> list[tuple[int, str]]:
    """(line, text) of every string constant of the module that is a language code (docstrings aside)."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and node.value in codes]


def test_no_module_names_a_language() -> None:
    codes = language_codes()
    found = {str(path.relative_to(ROOT)): named for path in sorted(PACKAGE.rglob("*.py"))
             if (named := codes_named(path.read_text(encoding="utf-8"), codes))}
    assert found == {}


def test_the_check_sees_a_language_code() -> None:
    assert codes_named('"""Portuguese ("pt")."""\nWORDS = {"pt": ["artigo"]}\n', {"pt"}) == [(2, "pt")]


def _read_with(package_root: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _READ, str(FRENCH)], capture_output=True, text=True, timeout=300,
                          cwd=package_root, env={"PYTHONPATH": str(package_root), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_language_is_registered_by_its_data_files_alone(tmp_path: Path) -> None:
    copy = tmp_path / "without"
    shutil.copytree(PACKAGE, copy / "taxtreaty", ignore=shutil.ignore_patterns("__pycache__"))
    for name in FRENCH_FILES:
        (copy / "taxtreaty" / name).unlink()
    without = _read_with(copy)
    assert str(without["where"]).startswith(str(copy))
    assert ["fr", True] not in without["versions"] and without["prevailing"] != "fr"
    for name in FRENCH_FILES:  # the same code, the French files added back
        shutil.copy(PACKAGE / name, copy / "taxtreaty" / name)
    added = _read_with(copy)
    assert added["versions"] == [["fr", True]] and added["prevailing"] == "fr"
    assert ["10", "dividends"] in added["articles"] and ["11", "interest"] in added["articles"]
    assert added["caps"] == [["dividends", "art_10__para_2__point_a", "5"], ["dividends", "art_10__para_2__point_b", "15"],
                             ["interest", "art_11__para_2", "10"], ["royalties", "art_12__para_2", "10"]]
    assert added["caps"] != without["caps"]
