#!/usr/bin/env bash
# Runs every test of the project (the README's test command): the Rust
# tests (with PostgreSQL), then the web app's end-to-end tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# The Rust tests run with a throw-away PostgreSQL server (the store tests
# run against SQLite and PostgreSQL).
bash scripts/with-postgres.sh cargo test --workspace
bash scripts/e2e.sh
