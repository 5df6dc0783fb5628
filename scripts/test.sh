#!/usr/bin/env bash
# Runs every test of the project (the README's test command): the Rust
# tests (with a throw-away PostgreSQL), then the web app's end-to-end tests
# in headless Chromium.
# The Rust tests include the bench signature check
# (crates/springboard/tests/bench_signature.rs): `springboard bench` must
# search the node count of the newest `Bench: N` line of
# `git log --first-parent HEAD`, so the checkout needs its git history.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Rust tests run with a throw-away PostgreSQL server (the store tests
# run against SQLite and PostgreSQL).
bash scripts/with-postgres.sh cargo test --workspace
bash scripts/e2e.sh
