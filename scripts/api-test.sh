#!/usr/bin/env bash
# The lichess-compatible API through the `berserk` Python client (issue 42,
# item 9; docs/api.md): installs berserk (pinned) into a venv under
# target/, builds springboard if needed, makes two accounts and their
# tokens with `springboard user`, serves a throw-away data directory and
# runs scripts/api_test.py against it.
#   SPRINGBOARD_BIN  a built springboard binary (default: builds the debug one)
set -euo pipefail
cd "$(dirname "$0")/.."

BERSERK_VERSION=0.14.0

if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv
fi
venv=target/api-test-venv
if ! "$venv/bin/python" -c "import berserk, sys; sys.exit(berserk.__version__ != '$BERSERK_VERSION')" >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "berserk==$BERSERK_VERSION"
fi

bin=${SPRINGBOARD_BIN:-}
if [ -z "$bin" ]; then
  # The same build as scripts/test.sh's and scripts/e2e.sh's (no -p: the
  # workspace's features, so nothing is built twice).
  cargo test --workspace --no-run -q
  bin=target/debug/springboard
fi

data=$(mktemp -d)
log=$data/serve.log
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$data"
}
trap cleanup EXIT

printf 'alice-password-1\n' | "$bin" user add alice --password-stdin --data "$data" >/dev/null
printf 'bob-password-22\n' | "$bin" user add bob --password-stdin --data "$data" >/dev/null
alice=$("$bin" user token alice --description "api test" --data "$data")
bob=$("$bin" user token bob --description "api test" --data "$data")

"$bin" serve --port 0 --data "$data" >"$log" 2>&1 &
server=$!
url=
for _ in $(seq 1 100); do
  url=$(grep -o 'http://[0-9.:]*/' "$log" | head -1 || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not start"; cat "$log"; exit 1; }

SPRINGBOARD_URL=${url%/} ALICE_TOKEN=$alice BOB_TOKEN=$bob timeout 120 "$venv/bin/python" scripts/api_test.py
