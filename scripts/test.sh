#!/usr/bin/env bash
# Lint and run the whole test suite (what CI runs). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check .
.venv/bin/python -m pytest -q -n 2 --dist loadfile "$@"
