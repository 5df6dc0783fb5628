#!/usr/bin/env bash
# The deployment of docs/deploy.md, tested on loopback: a throw-away
# PostgreSQL, two `springboard serve` processes started with the ExecStart
# of deploy/springboard@.service, and nginx with deploy/nginx.conf and a
# self-signed certificate in front (ports and paths substituted). nginx
# listens on 127.0.0.2 and connects to the servers from 127.0.0.3 (the
# trusted proxy); the clients come from other loopback addresses.
# Checks: HTTP/2, the Secure seat cookie, the per-client creation limit
# counting the client's address (not the proxy's, not a forged header), a
# game played from headless Chromium by WebSocket, and PostgreSQL stopped
# for 10 s mid-game (503 JSON, sockets told and reconnected, no restart,
# no acknowledged move lost). Exits non-zero, saying what failed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v curl >/dev/null 2>&1 || missing+=(curl)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing ${missing[*]}"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -f e2e/node_modules/playwright-core/package.json ]; then
    echo "== installing the e2e packages (npm ci)"
    (cd e2e && npm ci --no-audit --no-fund)
fi

echo "== building the springboard binary"
# The test build's binary (scripts/test.sh has built it for the Rust tests).
cargo test --workspace --no-run -q
BIN=$ROOT/target/debug/springboard

PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
if [ "$(id -u)" -eq 0 ]; then PGRUN=(runuser -u postgres --); else PGRUN=(); fi

TMP=$(mktemp -d /tmp/springboard-deploy.XXXXXX)
chmod 755 "$TMP"
PIDS=()
fail() { echo "FAILED: $*" >&2; exit 1; }
cleanup() {
    local rc=$?
    [ -f "$TMP/nginx.pid" ] && kill "$(cat "$TMP/nginx.pid")" 2>/dev/null || true
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    "${PGRUN[@]}" "$PGBIN/pg_ctl" -D "$TMP/pg/data" -m immediate stop >/dev/null 2>&1 || true
    if [ $rc -ne 0 ]; then
        for f in "$TMP"/serve*.log "$TMP"/nginx-error.log; do
            [ -f "$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
        done
    fi
    rm -rf "$TMP"
    exit $rc
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket,sys; s=socket.socket(); s.bind((sys.argv[1],0)); print(s.getsockname()[1])' "$1"
}

echo "== PostgreSQL"
mkdir -p "$TMP/pg"
[ "$(id -u)" -eq 0 ] && chown postgres "$TMP/pg"
PGPORT=$(free_port 127.0.0.1)
"${PGRUN[@]}" "$PGBIN/initdb" -D "$TMP/pg/data" -U springboard --auth=trust -E UTF8 >"$TMP/initdb.log" 2>&1 \
    || { cat "$TMP/initdb.log"; fail "initdb"; }
PG_START="${PGRUN[*]} $PGBIN/pg_ctl -D $TMP/pg/data -l $TMP/pg/server.log -w -o '-h 127.0.0.1 -p $PGPORT -k $TMP/pg -c fsync=off' start >/dev/null"
PG_STOP="${PGRUN[*]} $PGBIN/pg_ctl -D $TMP/pg/data -m fast -w stop >/dev/null"
bash -c "$PG_START" || fail "PostgreSQL does not start"
"${PGRUN[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U springboard springboard
DB="postgres://springboard@127.0.0.1:$PGPORT/springboard"

echo "== two servers (the unit's ExecStart)"
EXEC=$(sed -n 's/^ExecStart=//p' "deploy/springboard@.service")
[ -n "$EXEC" ] || fail "no ExecStart in deploy/springboard@.service"
case "$EXEC" in *"--trusted-proxy 127.0.0.1"*) ;; *) fail "the unit does not trust 127.0.0.1";; esac
PORTS=()
for i in 1 2; do
    port=$(free_port 127.0.0.1)
    mkdir -p "$TMP/data$i"
    cmd=${EXEC//\/usr\/local\/bin\/springboard/$BIN}
    cmd=${cmd//%i/$port}
    cmd=${cmd//\/var\/lib\/springboard/$TMP/data$i}
    cmd=${cmd//\$\{SPRINGBOARD_DATABASE\}/$DB}
    cmd=${cmd//--trusted-proxy 127.0.0.1/--trusted-proxy 127.0.0.3}
    # shellcheck disable=SC2086
    $cmd >"$TMP/serve$i.log" 2>&1 &
    PIDS+=($!)
    PORTS+=("$port")
done
for i in 0 1; do
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:${PORTS[$i]}/api/info" >/dev/null && break
        sleep 0.2
    done
    curl -sf "http://127.0.0.1:${PORTS[$i]}/api/info" >/dev/null || fail "server $((i + 1)) does not answer"
done

echo "== nginx (deploy/nginx.conf) with a self-signed certificate on 127.0.0.2"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.2 \
    -addext subjectAltName=IP:127.0.0.2 -keyout "$TMP/key.pem" -out "$TMP/cert.pem" 2>/dev/null
HTTPS=$(free_port 127.0.0.2)
HTTP=$(free_port 127.0.0.2)
sed -e "s#127.0.0.1:8081#127.0.0.1:${PORTS[0]}#; s#127.0.0.1:8082#127.0.0.1:${PORTS[1]}#" \
    -e "s#listen 443 #listen 127.0.0.2:$HTTPS #; s#listen 80;#listen 127.0.0.2:$HTTP;#" \
    -e "s#/etc/letsencrypt/live/play.example.org/fullchain.pem#$TMP/cert.pem#" \
    -e "s#/etc/letsencrypt/live/play.example.org/privkey.pem#$TMP/key.pem#" \
    -e "s#proxy_bind 127.0.0.1;#proxy_bind 127.0.0.3;#" \
    -e "s#https://\$host\$request_uri#https://\$host:$HTTPS\$request_uri#" \
    deploy/nginx.conf >"$TMP/site.conf"
for want in "127.0.0.1:${PORTS[0]}" "127.0.0.1:${PORTS[1]}" "127.0.0.2:$HTTPS ssl http2" \
    "$TMP/cert.pem" "proxy_bind 127.0.0.3"; do
    grep -qF "$want" "$TMP/site.conf" || fail "deploy/nginx.conf changed: cannot substitute '$want'"
done
cat >"$TMP/nginx.conf" <<CONF
$([ "$(id -u)" -eq 0 ] && echo "user root;")
worker_processes 1;
pid $TMP/nginx.pid;
error_log $TMP/nginx-error.log;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $TMP/nginx-body;
    proxy_temp_path $TMP/nginx-proxy;
    fastcgi_temp_path $TMP/nginx-fastcgi;
    uwsgi_temp_path $TMP/nginx-uwsgi;
    scgi_temp_path $TMP/nginx-scgi;
    include $TMP/site.conf;
}
CONF
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -t -q 2>"$TMP/nginx-test.log" || { cat "$TMP/nginx-test.log"; fail "nginx -t"; }
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" 2>>"$TMP/nginx-error.log" || fail "nginx does not start"
BASE="https://127.0.0.2:$HTTPS"
for _ in $(seq 1 50); do curl -sk "$BASE/api/info" >/dev/null && break; sleep 0.1; done

echo "== HTTP/2, TLS and the Secure cookie"
v=$(curl -sk --interface 127.0.0.4 -o /dev/null -w '%{http_version} %{http_code}' "$BASE/api/info")
[ "$v" = "2 200" ] || fail "GET /api/info through nginx: '$v', expected HTTP/2 200"
curl -sk --interface 127.0.0.4 -D "$TMP/h" -o /dev/null -H 'content-type: application/json' \
    -H "Origin: $BASE" -d '{"mode":"local"}' "$BASE/api/games"
grep -qi '^set-cookie: sb_player=.*; Secure' "$TMP/h" || { cat "$TMP/h"; fail "no Secure seat cookie through https"; }
curl -s --interface 127.0.0.4 -D "$TMP/h" -o /dev/null -H 'content-type: application/json' \
    -H "Origin: http://127.0.0.1:${PORTS[0]}" -H 'X-Forwarded-Proto: https' -d '{"mode":"local"}' "http://127.0.0.1:${PORTS[0]}/api/games"
if grep -qi '^set-cookie:.*Secure' "$TMP/h"; then fail "a forged X-Forwarded-Proto straight to a server made the cookie Secure"; fi

echo "== the per-client limit counts the client's address"
create() { # create FROM URL [HEADER]: prints the status
    curl -sk --interface "$1" -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
        -H "Origin: $2" ${3:+-H "$3"} -d '{"mode":"local"}' "$2/api/games"
}
# Through nginx, 127.0.0.5 until both servers refuse it (two 429 in a row).
n=0; last=""; streak=0
while [ $streak -lt 2 ]; do
    s=$(create 127.0.0.5 "$BASE")
    n=$((n + 1))
    if [ "$s" = 429 ]; then streak=$((streak + 1)); else streak=0; fi
    [ "$s" = 201 ] || [ "$s" = 429 ] || fail "creation $n from 127.0.0.5 answered $s"
    [ $n -le 60 ] || fail "127.0.0.5 was never limited through nginx"
done
for i in 1 2; do
    s=$(create 127.0.0.6 "$BASE")
    [ "$s" = 201 ] || fail "127.0.0.6 is limited ($s) after 127.0.0.5 used its allowance: the proxy's address is counted"
done
# Straight to a server, a forged X-Forwarded-For is ignored: the peer is
# limited whatever the header says.
n=0
while :; do
    n=$((n + 1))
    s=$(create 127.0.0.7 "http://127.0.0.1:${PORTS[0]}" "X-Forwarded-For: 198.51.100.$n")
    [ "$s" = 429 ] && break
    [ "$s" = 201 ] || fail "direct creation $n answered $s"
    [ $n -le 30 ] || fail "a forged X-Forwarded-For straight to a server escaped the limit"
done

echo "== a game from headless Chromium through nginx, PostgreSQL stopped for 10 s mid-game"
BASE="$BASE" PG_STOP="$PG_STOP" PG_START="$PG_START" node e2e/deploy/proxy-game.mjs \
    || fail "the browser game through the proxy"
for i in 0 1; do
    kill -0 "${PIDS[$i]}" 2>/dev/null || fail "server $((i + 1)) died"
done
grep -q ' 500 \|status=500\|"status":500' "$TMP"/serve*.log && fail "a server answered 500"
echo "== deploy test passed"
