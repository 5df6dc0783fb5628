#!/usr/bin/env bash
# Perft speed of Springboard beside Stockfish (Debian package `stockfish`),
# one thread each, run side by side: the best of N runs of each.
# Usage: scripts/bench_vs_stockfish.sh [runs]   (build with cargo build --release first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
sf=${STOCKFISH:-/usr/games/stockfish}
sb=target/release/springboard
kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
best() { sort -n | head -1; }
measure() { # name, command...
    local name=$1; shift
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e" -o /tmp/sb_bench_time "$@" >/dev/null 2>&1
        cat /tmp/sb_bench_time
    done | best
}
sf_start=$(measure sf sh -c "printf 'position startpos\ngo perft 6\nquit\n' | $sf")
sb_start=$(measure sb $sb perft --depth 6)
sf_kiwi=$(measure sf sh -c "printf 'position fen $kiwi\ngo perft 5\nquit\n' | $sf")
sb_kiwi=$(measure sb $sb perft --depth 5 --fen "$kiwi")
printf "%-22s %10s %12s %8s\n" position stockfish springboard ratio
awk -v a="$sf_start" -v b="$sb_start" 'BEGIN{printf "%-22s %9.2fs %11.2fs %7.2fx\n","startpos perft 6",a,b,a/b}'
awk -v a="$sf_kiwi" -v b="$sb_kiwi" 'BEGIN{printf "%-22s %9.2fs %11.2fs %7.2fx\n","kiwipete perft 5",a,b,a/b}'
echo "(ratio = Stockfish time / Springboard time, wall clock incl. start-up; > 1 means Springboard is faster)"
