#!/usr/bin/env bash
# The history store's tests on a real PostgreSQL server: a throwaway one, made with initdb in a temporary folder
# and listening only on a unix socket there, run as an unprivileged user where this runs as root (the server
# refuses root). Skipped (77), saying why, where the server's programs are not installed (Debian: postgresql).
#
#   tests/unit/history_postgresql_test.sh PATH/TO/history_unit_tests
set -uo pipefail
tests=${1:?usage: history_postgresql_test.sh PATH/TO/history_unit_tests}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || bin=$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")
if [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ]; then
  echo "SKIPPED: no PostgreSQL server programs (initdb, pg_ctl): apt-get install postgresql"
  exit 77
fi

as_user=()
if [ "$(id -u)" = 0 ]; then
  command -v runuser >/dev/null 2>&1 ||
    { echo "SKIPPED: running as root without runuser (util-linux) to start the server as nobody"; exit 77; }
  as_user=(runuser -u nobody --)
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-pg.XXXXXX")
if [ ${#as_user[@]} -gt 0 ]; then
  # The server runs as nobody, which must own its folder and reach it: where TMPDIR is a private folder of root's,
  # /tmp instead.
  chmod 755 "$root"
  chown nobody "$root"
  if ! "${as_user[@]}" test -w "$root"; then
    rm -rf "$root"
    root=$(mktemp -d /tmp/bankgate-pg.XXXXXX) && chmod 755 "$root" && chown nobody "$root"
  fi
fi
stop() {
  "${as_user[@]}" "$bin/pg_ctl" -D "$root/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$root"
}
trap stop EXIT

"${as_user[@]}" "$bin/initdb" -D "$root/data" -U bankgate --auth=trust >"$root/initdb.log" 2>&1 ||
  { cat "$root/initdb.log"; echo "initdb failed"; exit 1; }
# No TCP port: only the socket in our folder, so that parallel runs and other servers never meet.
"${as_user[@]}" "$bin/pg_ctl" -D "$root/data" -l "$root/server.log" -w -t 60 \
  -o "-c listen_addresses='' -k $root -c fsync=off" start >/dev/null ||
  { cat "$root/server.log"; echo "the server did not start"; exit 1; }

export BANKGATE_TEST_POSTGRESQL_URL="postgresql://bankgate@/postgres?host=$root"
"$tests" --gtest_filter='*PostgreSQL*:HistoryStoreServer.*'
