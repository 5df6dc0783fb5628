#!/usr/bin/env bash
# Runs every test of the project (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
