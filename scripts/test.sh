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
# The Rust tests run with a throw-away PostgreSQL server (the store tests
# and the two-process test run against it too).
bash scripts/with-postgres.sh cargo test --workspace
# A short bounded pass of every fuzz target (docs/fuzzing.md).
bash scripts/fuzz.sh
bash scripts/e2e.sh
bash scripts/xboard-test.sh
# Two servers on PostgreSQL behind nginx with TLS, a game through it from
# Chromium, and a 10-second database outage (docs/deploy.md).
bash scripts/deploy-test.sh
