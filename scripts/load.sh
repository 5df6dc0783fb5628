#!/usr/bin/env bash
# The play server's load run (issue 15) and soak run (issue 16), on loopback:
#   bash scripts/load.sh [load|soak] [options of the tool...]
#   bash scripts/load.sh load --games 100 --plies 60 --watchers 20
#   bash scripts/load.sh soak --seconds 3600 --csv /tmp/soak.csv
# Starts release `springboard serve` processes on a throw-away data
# directory (SQLite), or on PostgreSQL when SPRINGBOARD_LOAD_POSTGRES is a
# URL (scripts/with-postgres.sh exports SPRINGBOARD_TEST_POSTGRES: use
#   bash scripts/with-postgres.sh env SPRINGBOARD_LOAD_POSTGRES=... or
#   SPRINGBOARD_LOAD_POSTGRES=auto, which takes that URL), with
# SPRINGBOARD_LOAD_SERVERS=2 for two processes on one PostgreSQL database.
# SPRINGBOARD_LOAD_PROFILE=dev runs the debug builds (opt-level 1) instead
# of the release ones: no release build on a busy machine, slower figures.
# Runs crates/web/examples/load/ against them with their pids (memory and
# open files) and the database (every game's moves checked), prints the
# report, and stops the servers.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0
# The servers log warnings and errors only (every request at info would
# fill the log and cost time).
export SPRINGBOARD_LOG=${SPRINGBOARD_LOG:-warn}

MODE=${1:-load}
shift || true
SERVERS=${SPRINGBOARD_LOAD_SERVERS:-1}
PG=${SPRINGBOARD_LOAD_POSTGRES:-}
if [ "$PG" = auto ]; then
    PG=${SPRINGBOARD_TEST_POSTGRES:?run under scripts/with-postgres.sh}
fi
if [ "$SERVERS" -gt 1 ] && [ -z "$PG" ]; then
    echo "several server processes need a shared PostgreSQL database (SPRINGBOARD_LOAD_POSTGRES)" >&2
    exit 2
fi

if [ "${SPRINGBOARD_LOAD_PROFILE:-release}" = dev ]; then
    cargo build -q --workspace --bin springboard --example load
    BIN=target/debug
else
    cargo build -q --release -p springboard
    cargo build -q --release -p springboard-web --example load
    BIN=target/release
fi

DIR=$(mktemp -d /tmp/springboard-load.XXXXXX)
PIDS=()
stop() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$DIR"
}
trap stop EXIT

# The servers may hold many sockets.
ulimit -n 65536 2>/dev/null || ulimit -n 4096 2>/dev/null || true

if [ -n "$PG" ]; then DB=$PG; else DB="$DIR/springboard.sqlite3"; fi
ARGS=()
for i in $(seq 1 "$SERVERS"); do
    "$BIN/springboard" serve --port 0 --database "$DB" >"$DIR/server$i.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 100); do
        grep -q "running at http://" "$DIR/server$i.log" && break
        sleep 0.1
    done
    URL=$(grep -o "running at http://[0-9.:]*" "$DIR/server$i.log" | sed 's/running at //') \
        || { cat "$DIR/server$i.log"; exit 1; }
    echo "== server $i: pid ${PIDS[-1]} at $URL, $(grep -o 'kept in the .*' "$DIR/server$i.log")"
    ARGS+=(--url "$URL" --pid "${PIDS[-1]}")
done

STATUS=0
"$BIN/examples/load" "${ARGS[@]}" --database "$DB" "$MODE" "$@" || STATUS=$?
for i in $(seq 1 "$SERVERS"); do
    if grep -qiE "panic|error" "$DIR/server$i.log"; then
        echo "== server $i log:"; grep -iE "panic|error" "$DIR/server$i.log" | head -20
    fi
done
exit $STATUS
