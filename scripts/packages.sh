#!/usr/bin/env bash
# Installs, in one go, every outside program the tests use (Debian's
# packages and the e2e tests' npm packages), only what is missing. Each test
# script still installs what it needs when run alone; `.ci/run` runs this one
# in the background at its start, so that the downloads overlap the first
# build instead of adding to the run (CONTRIBUTING.md, "CI").
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
# scripts/fuzz.sh: a C++ compiler for libFuzzer.
command -v c++ >/dev/null 2>&1 || missing+=(g++)
# scripts/with-postgres.sh and scripts/deploy-test.sh.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
# scripts/e2e.sh: Chromium, and Node.js only when the machine has none of
# its own (its npm would conflict with Debian's).
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# scripts/api-test.sh: a venv for berserk.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
# scripts/deploy-test.sh.
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v curl >/dev/null 2>&1 || missing+=(curl)
# The webauthn-rs crates (passkeys): the system OpenSSL, found by pkg-config.
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
[ -f /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
# crates/web/tests/notify.rs: a real SMTP server.
python3 -c 'import aiosmtpd' >/dev/null 2>&1 || missing+=(python3-aiosmtpd)
# scripts/wasm.sh: wasm-opt.
command -v wasm-opt >/dev/null 2>&1 || missing+=(binaryen)
# scripts/xboard-test.sh.
[ -x /usr/games/xboard ] || missing+=(xboard)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v xdotool >/dev/null 2>&1 || missing+=(xdotool)
command -v xclip >/dev/null 2>&1 || missing+=(xclip)
command -v import >/dev/null 2>&1 || missing+=(imagemagick)

if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
if [ ! -f e2e/node_modules/playwright-core/package.json ]; then
  echo "== installing the e2e packages (npm ci)"
  (cd e2e && npm ci --no-audit --no-fund)
fi
echo "== packages: all there"
