"""Golden cases: expected answers for a treaty network, checked after every change.

A cases file (YAML or JSON Lines) lists situations and the answers a tax specialist read from the
treaty text; `run_cases` parses each treaty once, asks the rules engine or the provisions
extractor, and compares. Modelled on OpenFisca's YAML tests: a strict loader that names the file
and the case in every error, and one line per failing case with what was expected and what came.

    from taxtreaty.checks import load_cases, run_cases
    report = run_cases(load_cases("tests/cases/seeds.yaml"))
    print(report.summary_line())          # "12 passed, 0 failed"

Shapes and semantics: docs/testing.md.
"""

from taxtreaty.checks.cases import Case, CaseFile, CaseFileError, load_cases
from taxtreaty.checks.run import CaseResult, Report, run_cases

__all__ = ["Case", "CaseFile", "CaseFileError", "CaseResult", "Report", "load_cases", "run_cases"]
