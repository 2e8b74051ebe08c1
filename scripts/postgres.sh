#!/usr/bin/env bash
# A throw-away PostgreSQL server for the store tests, on 127.0.0.1 and a free port.
#
#   eval "$(bash scripts/postgres.sh start)"   # exports TAXTREATY_TEST_PG_URL and TAXTREATY_PG_DIR
#   bash scripts/postgres.sh stop "$TAXTREATY_PG_DIR"
#
# `start` installs Debian's postgresql package when the server binaries are missing (root only),
# initialises a cluster in a new temporary folder (as the `postgres` user when run as root:
# initdb refuses root), starts it with trust authentication on loopback only, creates the
# database and prints the export lines on stdout. Messages go to stderr; exit status 1 when no
# server could be started (the PostgreSQL tests are then skipped with a reason).
set -euo pipefail

log() { echo "postgres.sh: $*" >&2; }

find_bindir() {
  local candidate
  for candidate in "$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || echo /nonexistent)")" 2>/dev/null)" \
                   /usr/lib/postgresql/*/bin /usr/local/bin; do
    if [ -x "$candidate/pg_ctl" ] && [ -x "$candidate/initdb" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

as_owner() {
  # run a command as the cluster owner: `postgres` when we are root, else ourselves
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start() {
  local bindir
  if ! bindir=$(find_bindir); then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      log "installing postgresql from Debian's packages"
      apt-get update -qq >/dev/null 2>&1 || true
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1 || true
    fi
    bindir=$(find_bindir) || { log "PostgreSQL server binaries not found"; exit 1; }
  fi
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres 2>/dev/null || true
  fi
  local dir port
  dir=$(mktemp -d "${TMPDIR:-/tmp}/taxtreaty-pg.XXXXXX")
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if ! as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
    as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { log "initdb failed: $(tail -3 "$dir/initdb.log")"; rm -rf "$dir"; exit 1; }
  fi
  if ! as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null 2>&1; then
    log "the server did not start: $(tail -3 "$dir/server.log" 2>/dev/null)"
    rm -rf "$dir"
    exit 1
  fi
  if ! as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres taxtreaty_test >/dev/null 2>&1; then
    log "createdb failed"
    stop "$dir"
    exit 1
  fi
  log "PostgreSQL running on 127.0.0.1:$port (cluster in $dir)"
  echo "export TAXTREATY_TEST_PG_URL=postgresql://postgres@127.0.0.1:$port/taxtreaty_test"
  echo "export TAXTREATY_PG_DIR=$dir"
}

stop() {
  local dir="${1:-}" bindir
  [ -n "$dir" ] && [ -d "$dir/data" ] || { log "no cluster at '$dir'"; return 0; }
  bindir=$(find_bindir) || return 0
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-${TAXTREATY_PG_DIR:-}}" ;;
  *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac
