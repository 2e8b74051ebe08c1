#!/usr/bin/env bash
# Lint and run the whole test suite (what CI runs). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check .

# A throw-away PostgreSQL server for the store tests (skipped with a reason when none can be
# started); stopped again however pytest ends.
if [ -z "${TAXTREATY_TEST_PG_URL:-}" ]; then
  if pg_env=$(bash scripts/postgres.sh start); then
    eval "$pg_env"
    trap 'bash scripts/postgres.sh stop "$TAXTREATY_PG_DIR"' EXIT
  else
    echo "note: no PostgreSQL server; the store tests run on SQLite only" >&2
  fi
fi

.venv/bin/python -m pytest -q -n 2 --dist loadfile "$@"
