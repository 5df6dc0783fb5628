#!/usr/bin/env bash
# A short bounded pass of every fuzz target (fuzz/, docs/fuzzing.md) over
# its corpus in fuzz/corpus/, on the stable toolchain: the rules core's
# readers, PGN, the UCI and XBoard sessions and the web API.
#
#   bash scripts/fuzz.sh                 # every target, FUZZ_SECONDS each
#   FUZZ_SECONDS=60 bash scripts/fuzz.sh fen_hopchess san
#
# The targets are built the way `cargo fuzz build --sanitizer none
# --debug-assertions` (cargo-fuzz 0.13) builds them: libFuzzer from
# libfuzzer-sys, the sancov LLVM pass and its options, `--cfg fuzzing` and
# debug assertions, all stable rustc flags, so neither a nightly compiler
# nor cargo-fuzz itself is needed (installing cargo-fuzz costs about a
# minute of CI). New inputs go to a temporary directory: the corpora in the
# repository change only when someone minimises them on purpose.
# A failing input is saved as fuzz/artifacts/<target>/crash-* and fails the
# script.
set -euo pipefail
cd "$(dirname "$0")/.."

# 13 targets: about 100 s of fuzzing in all (plus the build).
SECONDS_EACH=${FUZZ_SECONDS:-8}
ALL=(fen_chess fen_hopchess fen_trampoline fen_jumpingking fen_hoplit uci san seed game pgn
     uci_session xboard_session web_api)
if [ "$#" -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL[@]}"); fi

# libfuzzer-sys compiles libFuzzer (C++).
if ! command -v c++ >/dev/null 2>&1; then
    echo "== installing a C++ compiler for libFuzzer"
    apt-get update -qq && apt-get install -y -qq g++ >/dev/null
fi

# The fuzz crate is a workspace of its own, built without CI's clippy
# wrapper of the main workspace's crates (.ci/run).
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS

TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module \
 -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
 -Cllvm-args=-sanitizer-coverage-pc-table \
 -Cllvm-args=-sanitizer-coverage-trace-compares \
 --cfg fuzzing \
 -Cllvm-args=-simplifycfg-branch-fold-threshold=0 \
 -Cllvm-args=-sanitizer-coverage-stack-depth \
 -Cdebug-assertions"
# FUZZ_BUILD=quick (scripts/test.sh's smoke pass) builds the same
# instrumentation at opt-level 1, without debug info and with 16 codegen
# units: about a quarter less CPU to build (616 s -> 472 s of CPU here),
# fewer runs a second, which a few seconds a target do not miss. The
# default (full) is cargo-fuzz's release build, for longer runs.
case ${FUZZ_BUILD:-full} in
    full) RUSTFLAGS="$RUSTFLAGS -Ccodegen-units=1" ;;
    quick) export CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=0 \
               CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 ;;
    *) echo "FUZZ_BUILD is full or quick, not '$FUZZ_BUILD'" >&2; exit 2 ;;
esac
export RUSTFLAGS
echo "== building the fuzz targets ($TRIPLE, ${FUZZ_BUILD:-full} build)"
cargo build --release --locked --manifest-path fuzz/Cargo.toml --target "$TRIPLE" --bins
BIN=fuzz/target/$TRIPLE/release

status=0
for t in "${TARGETS[@]}"; do
    work=$(mktemp -d)
    mkdir -p "fuzz/artifacts/$t"
    echo "== fuzz $t (${SECONDS_EACH}s)"
    if ! "$BIN/$t" -max_total_time="$SECONDS_EACH" -timeout=5 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" \
        "$work" "fuzz/corpus/$t" >"$work.log" 2>&1; then
        cat "$work.log"
        echo "fuzz $t FAILED: the input is in fuzz/artifacts/$t/" >&2
        status=1
    else
        grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|DONE' "$work.log" || true
    fi
    rm -rf "$work" "$work.log"
done
exit $status
