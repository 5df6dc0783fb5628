#!/usr/bin/env bash
# The regression gate (docs/engine.md, "The regression gate"): builds the
# working tree's release binary and plays it against an earlier binary on
# the opening suites, stopping by SPRT, then prints the result in the form
# a commit message carries.
#
#   scripts/gate.sh [--quick | --verdict] [--variant V]... [--base-rev REV]
#                   [--sprt ELO0,ELO1] [--nodes N] [--tc TC] [--games N]
#                   [--concurrency N] [--no-build] [--no-bench] [BASE_BINARY]
#
# --quick (default): every move searched to a fixed node count (per game,
#   see below; --nodes N for all); --verdict: 10+0.1 clocks (--tc).
# --variant V: the games to test (repeatable; default all five).
# BASE_BINARY: the binary to beat; without it the binary of git revision
#   REV (--base-rev, default main) is built once into the cache directory
#   ($SPRINGBOARD_GATE_CACHE, default ~/.cache/springboard-gate) and kept.
# --sprt ELO0,ELO1: the SPRT's Elo bounds (logistic Elo, alpha = beta =
#   0.05; default 0,10); --games N: the most games per game (default 4000
#   quick, 2000 verdict), a run that reaches it without a decision is
#   "Undecided".
# Exit status: 0 when every game passed (H1), 1 when one failed or was
# undecided, 2 on a usage or build error.
set -euo pipefail
export CARGO_INCREMENTAL=0

mode=quick
variants=()
base_rev=main
sprt_bounds=0,10
nodes=
tc=10+0.1
games=
concurrency=1
build=1
bench=1
base_bin=

usage() {
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
    --quick) mode=quick ;;
    --verdict) mode=verdict ;;
    --variant) variants+=("${2:?--variant needs a game}"); shift ;;
    --base-rev) base_rev=${2:?--base-rev needs a revision}; shift ;;
    --sprt) sprt_bounds=${2:?--sprt needs ELO0,ELO1}; shift ;;
    --nodes) nodes=${2:?--nodes needs a number}; shift ;;
    --tc) tc=${2:?--tc needs a time control}; shift ;;
    --games) games=${2:?--games needs a number}; shift ;;
    --concurrency) concurrency=${2:?--concurrency needs a number}; shift ;;
    --no-build) build=0 ;;
    --no-bench) bench=0 ;;
    -h | --help) usage ;;
    -*) echo "gate: unknown option $1" >&2; usage ;;
    *)
        [ -z "$base_bin" ] || { echo "gate: one BASE_BINARY only" >&2; exit 2; }
        base_bin=$1
        ;;
    esac
    shift
done
[ ${#variants[@]} -gt 0 ] || variants=(chess hopchess trampoline jumpingking hoplit)
if [ -z "$games" ]; then
    if [ $mode = quick ]; then games=4000; else games=2000; fi
fi

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cache=${SPRINGBOARD_GATE_CACHE:-$HOME/.cache/springboard-gate}
mkdir -p "$cache/bin" "$cache/logs"

# The working tree's binary, copied aside so a build during the run does
# not change it.
if [ $build = 1 ]; then
    echo "gate: building the working tree (cargo build --release -p springboard)" >&2
    (cd "$root" && cargo build --release -p springboard >&2) || exit 2
fi
new="$cache/bin/working/springboard"
mkdir -p "$(dirname "$new")"
cp "$root/target/release/springboard" "$new.tmp" && mv "$new.tmp" "$new"
new_desc="working tree of $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . ':!target' || echo '+changes')"

# The base binary: given, or built from a revision into the cache.
if [ -n "$base_bin" ]; then
    [ -x "$base_bin" ] || { echo "gate: $base_bin is not an executable" >&2; exit 2; }
    base=$(realpath "$base_bin")
    base_desc=$base
else
    sha=$(git -C "$root" rev-parse --verify "$base_rev^{commit}") || exit 2
    base="$cache/bin/$sha/springboard"
    base_desc="$base_rev (${sha:0:9})"
    if [ ! -x "$base" ]; then
        echo "gate: building $base_desc into $cache" >&2
        src="$cache/src-$sha"
        rm -rf "$src" && mkdir -p "$src"
        git -C "$root" archive "$sha" | tar -x -C "$src"
        (cd "$src" && CARGO_TARGET_DIR="$cache/target" cargo build --release -p springboard >&2) || exit 2
        mkdir -p "$(dirname "$base")"
        cp "$cache/target/release/springboard" "$base"
        rm -rf "$src"
    fi
fi

# Fixed nodes of the quick gate, per game (Hop Chess searches are slow).
quick_nodes() {
    if [ -n "$nodes" ]; then echo "$nodes"; return; fi
    case "$1" in
    hopchess) echo 5000 ;;
    *) echo 10000 ;;
    esac
}

status=0
results=()
for v in "${variants[@]}"; do
    if [ $mode = quick ]; then
        limit=(--nodes "$(quick_nodes "$v")")
        what="fixed nodes $(quick_nodes "$v")"
    else
        limit=(--tc "$tc")
        what="tc $tc"
    fi
    log="$cache/logs/$(date -u +%Y%m%dT%H%M%S)-$v-$mode.log"
    echo "gate: $v, $what, SPRT [$sprt_bounds], at most $games games; log $log" >&2
    "$new" match --engine1 "$new uci" --engine2 "$base uci" --variant "$v" \
        "${limit[@]}" --games "$games" --concurrency "$concurrency" \
        --sprt "$sprt_bounds,0.05,0.05" >"$log" 2>&1 || {
        echo "gate: the match of $v failed, see $log" >&2
        tail -5 "$log" >&2
        exit 2
    }
    block=$(sed -n '/^SPRT result:/,$p' "$log")
    suite=$(sed -n 's/^Openings: //p' "$log" | head -1)
    results+=("$v, $what, $mode gate against $base_desc
Openings: $suite
$block")
    case "$block" in
    "SPRT result: Passed"*) ;;
    *) status=1 ;;
    esac
done

echo
echo "Engine under test: $new_desc"
for r in "${results[@]}"; do
    echo
    echo "$r"
done
if [ $bench = 1 ]; then
    echo
    "$new" bench 2>/dev/null | sed -n 's/^Nodes searched *: */Bench: /p'
fi
exit $status
