#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: a cluster in a temporary directory, on a free port of
# 127.0.0.1, with one database; exports RAGE_TEST_POSTGRES_URL (each test makes its own database
# there) and registers the server's stop and the directory's removal with `on_exit`.
#
# Sourced by .ci/run (after Debian's `postgresql` package is installed). Run it directly to start
# a server, run a command against it, and tear it down:
#   .ci/services/postgres.sh .venv/bin/python -m pytest tests/referee/league/test_store.py     (or `make test-postgres`)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  cleanups=()
  on_exit() { cleanups+=("$1"); }
  finish() { for c in "${cleanups[@]}"; do eval "$c" || true; done; }
  trap finish EXIT
fi

pg_bin=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ]; then
  echo "postgres.sh: no PostgreSQL under /usr/lib/postgresql: apt-get install postgresql" >&2
  return 1 2>/dev/null || exit 1
fi
# initdb refuses to run as root: the cluster belongs to the `postgres` user then.
as_owner=()
if [ "$(id -u)" = 0 ]; then as_owner=(runuser -u postgres --); fi

pg_dir=$(mktemp -d /tmp/rage-postgres.XXXXXX)
if [ "$(id -u)" = 0 ]; then chown postgres: "$pg_dir"; fi
pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${as_owner[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth=trust --encoding=UTF8 --no-sync >/dev/null
# A test server: speed over durability, still a real server behind a real socket.
"${as_owner[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -s \
  -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir -c fsync=off -c synchronous_commit=off -c max_connections=200" \
  start
on_exit "${as_owner[*]} $pg_bin/pg_ctl -D $pg_dir/data -m immediate -s stop; rm -rf $pg_dir"
"$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres rage_test
export RAGE_TEST_POSTGRES_URL="postgresql+psycopg://postgres@127.0.0.1:$pg_port/rage_test"
echo "postgres.sh: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') at $RAGE_TEST_POSTGRES_URL"

if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "$#" -gt 0 ]; then
  "$@"
fi
