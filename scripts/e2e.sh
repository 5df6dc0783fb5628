#!/usr/bin/env bash
# End-to-end tests of the web app in a real headless Chromium (Debian's
# chromium package driven by playwright-core from npm, pinned in
# e2e/package-lock.json). Installs what is missing, then runs the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Only what is missing: the machine may carry its own Node.js build (with
# npm inside), which Debian's separate npm package conflicts with.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

if [ ! -f e2e/node_modules/playwright-core/package.json ]; then
  echo "== installing the e2e packages (npm ci)"
  (cd e2e && npm ci --no-audit --no-fund)
fi

echo "== linting and type-checking the page's JavaScript"
bash scripts/lint-js.sh

# The binary of the test build (the test profile: optimised, with debug
# assertions) at target/debug/springboard: scripts/test.sh has built it
# already for the Rust tests, so CI builds the workspace once, not twice.
# The page's WebAssembly build first: the binary embeds it (a no-op when
# scripts/test.sh has built it already).
bash scripts/wasm.sh
echo "== building the springboard binary (the test build)"
cargo test --workspace --no-run -q

# The lab's tiny run (issue 43): when the binary has the `lab` subcommand,
# a few games per question at very low nodes, written to a fresh directory
# that e2e/tests/lab.test.js serves (`serve --lab`) and draws instead of its
# fixtures; the binary checks the files' shape as it serves them.
if target/debug/springboard lab --help >/dev/null 2>&1; then
  lab_dir="$(mktemp -d)"
  trap 'rm -rf "$lab_dir"' EXIT
  echo "== the lab's tiny run (springboard lab all --tiny --out $lab_dir)"
  target/debug/springboard lab all --tiny --out "$lab_dir"
  export SPRINGBOARD_E2E_LAB="$lab_dir"
fi

echo "== end-to-end tests (headless Chromium; the WebAssembly build in Node)"
cd e2e
# Two test files at once (each starts its own servers and browser): on the
# 2-core machine 176 s instead of 227 s, and all passed with the machine's
# load at 23 (CONTRIBUTING.md, "CI"). E2E_CONCURRENCY=1 runs them one by one.
SPRINGBOARD_BIN="$PWD/../target/debug/springboard" \
  node --test --test-concurrency="${E2E_CONCURRENCY:-2}" tests/*.test.js wasm/*.test.js
