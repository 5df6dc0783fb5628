#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL server:
#   bash scripts/with-postgres.sh cargo test -p springboard-web
# Installs Debian's postgresql package when missing, starts a cluster in a
# temporary directory on a free loopback port (as the `postgres` user when
# run as root), creates a database, exports SPRINGBOARD_TEST_POSTGRES (its
# URL) for the command, and stops and deletes the cluster at exit.
set -euo pipefail

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "== installing postgresql"
    export DEBIAN_FRONTEND=noninteractive
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq postgresql >/dev/null
fi
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

# PostgreSQL refuses to run as root: the cluster belongs to `postgres`.
if [ "$(id -u)" -eq 0 ]; then
    RUN=(runuser -u postgres --)
else
    RUN=()
fi

DIR=$(mktemp -d /tmp/springboard-pg.XXXXXX)
chmod 755 "$DIR"
[ "$(id -u)" -eq 0 ] && chown postgres "$DIR"
if command -v python3 >/dev/null; then
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
else
    PORT=$((20000 + RANDOM % 30000))
fi

stop() {
    "${RUN[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
}
trap stop EXIT

"${RUN[@]}" "$BIN/initdb" -D "$DIR/data" -U springboard --auth=trust -E UTF8 >"$DIR/initdb.log" 2>&1 \
    || { cat "$DIR/initdb.log"; exit 1; }
"${RUN[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
    -o "-h 127.0.0.1 -p $PORT -k $DIR -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$DIR/server.log"; exit 1; }
"${RUN[@]}" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U springboard springboard

export SPRINGBOARD_TEST_POSTGRES="postgres://springboard@127.0.0.1:$PORT/springboard"
echo "== PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') at $SPRINGBOARD_TEST_POSTGRES"
"$@"
