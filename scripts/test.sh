#!/usr/bin/env bash
# Runs every test of the project (the README's test command): the Rust
# tests, a short pass of every fuzz target, then the web app's end-to-end
# tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
# A short bounded pass of every fuzz target (docs/fuzzing.md).
bash scripts/fuzz.sh
bash scripts/e2e.sh
