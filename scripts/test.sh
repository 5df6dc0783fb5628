#!/usr/bin/env bash
# Runs every test of the project (the README's test command): the Rust
# tests, then the web app's end-to-end tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
bash scripts/e2e.sh
bash scripts/xboard-test.sh
