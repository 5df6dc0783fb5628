#!/usr/bin/env bash
# The rustc wrapper (RUSTC_WRAPPER) of scripts/fuzz.sh's quick build: the
# crates of crates.io (a source file under a `registry/src/` directory) are
# compiled without the sancov coverage pass and its options, the
# project's own crates (the rules, the engine, the sessions, the web
# crate and the targets) with them. libFuzzer is then guided by the
# branches of our code, which is what a smoke pass of a few seconds a
# target looks for, and the dependencies (tokio, axum, sqlx, serde, ...)
# build as plain code. `--cfg fuzzing` and debug assertions stay on
# everywhere. The full build (FUZZ_BUILD=full, for long runs) does not use
# this wrapper and instruments every crate, as cargo-fuzz does.
set -euo pipefail
rustc=$1
shift
registry=0
for a in "$@"; do
  case $a in
    */registry/src/*.rs) registry=1 ;;
  esac
done
if [ "$registry" = 0 ]; then exec "$rustc" "$@"; fi
args=()
for a in "$@"; do
  case $a in
    -Cpasses=sancov-module | -Cllvm-args=-sanitizer-coverage-*) ;;
    *) args+=("$a") ;;
  esac
done
exec "$rustc" "${args[@]}"
