#!/usr/bin/env python3
"""Time to depth, side by side (docs/engine.md, "Time to depth").

    scripts/ttd.py OLD NEW [--variant hopchess] [--depth 4]
                   [--positions scripts/ttd-hopchess.txt] [--hash 16]

For each position of the file (one position text a line, `#` comments),
each binary is started afresh (`uci`, one thread, `--hash` MB, the game's
`UCI_Variant`) and told `go depth D`; the time and nodes are those of its
report of the finished iteration D (`info depth D ...` without a bound;
the engine's own clock, not the process start). The two binaries take turns
on each position (old first on odd lines, new first on even ones) so that a
change of the machine's load hits both alike. Prints a row per position and
the geometric means of the ratios old/new of time and of nodes.
"""

import argparse
import math
import subprocess
import sys


def run(binary, variant, fen, depth, hash_mb):
    """Returns (ms, nodes) of the finished iteration `depth`."""
    proc = subprocess.Popen(
        [binary, "uci"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait_for(token):
        for line in proc.stdout:
            if line.startswith(token):
                return line
        raise RuntimeError(f"{binary}: no '{token}'")

    send("uci")
    wait_for("uciok")
    send("setoption name Threads value 1")
    send(f"setoption name Hash value {hash_mb}")
    send(f"setoption name UCI_Variant value {variant}")
    send("ucinewgame")
    send("isready")
    wait_for("readyok")
    send(f"position fen {fen}")
    send(f"go depth {depth}")
    found = None
    for line in proc.stdout:
        words = line.split()
        if line.startswith("bestmove"):
            break
        if not words or words[0] != "info" or "depth" not in words:
            continue
        if "lowerbound" in words or "upperbound" in words:
            continue
        d = int(words[words.index("depth") + 1])
        if d == depth and "time" in words and "nodes" in words:
            found = (
                int(words[words.index("time") + 1]),
                int(words[words.index("nodes") + 1]),
            )
    send("quit")
    proc.wait(timeout=30)
    if found is None:
        raise RuntimeError(f"{binary}: no finished depth {depth} for {fen}")
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--variant", default="hopchess")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--positions", default="scripts/ttd-hopchess.txt")
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()
    with open(args.positions, encoding="utf-8") as f:
        fens = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    if not fens:
        sys.exit(f"ttd: no position in {args.positions}")
    print(f"ttd: {args.variant}, depth {args.depth}, {len(fens)} positions")
    print(f"old: {args.old}\nnew: {args.new}")
    print(f"{'#':>2} {'old ms':>8} {'old nodes':>10} {'new ms':>8} {'new nodes':>10} {'time x':>7} {'nodes x':>7}")
    time_logs, node_logs = [], []
    for i, fen in enumerate(fens, 1):
        order = [("old", args.old), ("new", args.new)]
        if i % 2 == 0:
            order.reverse()
        res = {}
        for name, binary in order:
            res[name] = run(binary, args.variant, fen, args.depth, args.hash)
        (om, on), (nm, nn) = res["old"], res["new"]
        tr = max(om, 1) / max(nm, 1)
        nr = on / max(nn, 1)
        time_logs.append(math.log(tr))
        node_logs.append(math.log(nr))
        print(f"{i:>2} {om:>8} {on:>10} {nm:>8} {nn:>10} {tr:>7.2f} {nr:>7.2f}", flush=True)
    gt = math.exp(sum(time_logs) / len(time_logs))
    gn = math.exp(sum(node_logs) / len(node_logs))
    print(f"geometric mean old/new: time {gt:.2f}x, nodes {gn:.2f}x")


if __name__ == "__main__":
    main()
