#!/usr/bin/env bash
# Install taxtreaty and everything its tests need, from nothing, then run the main job on the
# built-in sample convention. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'

# System packages for the store and browser tests (PostgreSQL server, Chromium). Root only;
# the tests that need them are skipped with a reason when they are missing.
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  need=""
  command -v chromium >/dev/null 2>&1 || need="$need chromium"
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
  if [ -n "$need" ]; then
    echo "installing Debian packages:$need"
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null 2>&1 || echo "warning: could not install$need"
  fi
fi

echo "== taxtreaty on the built-in sample convention =="
.venv/bin/taxtreaty sample
