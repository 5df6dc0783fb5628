#!/usr/bin/env bash
# Runs every test of the project (the README's test command): the Rust
# tests (with a throw-away PostgreSQL), a short pass of every fuzz target,
# the web app's end-to-end tests in headless Chromium, then games in the
# real XBoard under Xvfb (scripts/xboard-test.sh).
# The Rust tests include the bench signature check
# (crates/springboard/tests/bench_signature.rs): `springboard bench` must
# search the node count of the newest `Bench: N` line of
# `git log --first-parent HEAD`, so the checkout needs its git history.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says how long it took (seconds).
step() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "== $name: $((SECONDS - start)) s"
}
# The page's WebAssembly build (the rules core and the engine, crates/wasm)
# before the test build, which embeds it in the server (crates/web/build.rs):
# the e2e tests use it.
step "wasm" bash scripts/wasm.sh
# The test build first, on its own, so that its time is seen apart from
# the tests' (the e2e, XBoard and deploy tests run its binary too).
step "test build" cargo test --workspace --no-run -q
# The Rust tests run with a throw-away PostgreSQL server (the store tests
# and the two-process test run against it too).
step "Rust tests" bash scripts/with-postgres.sh cargo test --workspace
# The lab's tiny run (issue 43: a few games a question at very low nodes)
# is made by scripts/e2e.sh, whose lab.test.js serves and draws its files.
# A short bounded pass of every fuzz target (docs/fuzzing.md), on the
# quicker build.
step "fuzz" env FUZZ_BUILD=quick FUZZ_SECONDS="${FUZZ_SECONDS:-5}" bash scripts/fuzz.sh
step "e2e" bash scripts/e2e.sh
# The lichess-compatible API through the berserk client (docs/api.md).
step "API" bash scripts/api-test.sh
step "XBoard" bash scripts/xboard-test.sh
# Two servers on PostgreSQL behind nginx with TLS, a game through it from
# Chromium, and a 10-second database outage (docs/deploy.md).
step "deploy" bash scripts/deploy-test.sh
