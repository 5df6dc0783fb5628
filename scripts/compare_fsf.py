#!/usr/bin/env python3
"""Compares Springboard's `go perft` divide output with Fairy-Stockfish's.

Random positions are made by random playouts (the moves chosen from
Springboard's own `go perft 1` list), then both engines get the same
`position fen ...` (the FEN that Springboard's `d` prints) and their divide
outputs at the given depth are compared move by move.

Usage: scripts/compare_fsf.py [--positions 100] [--depth 3] [--variant chess]
       [--springboard target/release/springboard] [--fsf /usr/games/fairy-stockfish]
Exit status 0 when every position agrees, 1 otherwise.
"""

import argparse
import random
import subprocess
import sys


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, pred):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError("engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if pred(line):
                return lines

    def sync(self):
        self.send("isready")
        self.read_until(lambda l: l == "readyok")

    def divide(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.read_until(lambda l: l.startswith("Nodes searched"))
        moves = {}
        for l in lines:
            if ": " in l and not l.startswith("Nodes") and not l.startswith("info"):
                m, n = l.split(": ", 1)
                moves[m.strip()] = int(n)
        total = int(lines[-1].split(":")[1])
        return moves, total

    def fen(self):
        self.send("d")
        self.send("isready")
        lines = self.read_until(lambda l: l == "readyok")
        fen = [l for l in lines if l.startswith("Fen:")][-1]
        return fen.split(":", 1)[1].strip()

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=80)
    ap.add_argument("--springboard", default="target/release/springboard")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    ours = Engine([args.springboard, "uci"])
    theirs = Engine([args.fsf])
    for e in (ours, theirs):
        e.send("uci")
        e.read_until(lambda l: l == "uciok")
        e.send(f"setoption name UCI_Variant value {args.variant}")
        e.sync()

    differences = 0
    checked = 0
    while checked < args.positions:
        plies = rng.randint(0, args.max_plies)
        moves = []
        ours.send("position startpos")
        for _ in range(plies):
            ours.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
            ours.send("go perft 1")
            lines = ours.read_until(lambda l: l.startswith("Nodes searched"))
            legal = [l.split(":")[0] for l in lines if ": " in l and not l.startswith("Nodes")]
            if not legal:
                break
            moves.append(rng.choice(legal))
        ours.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        fen = ours.fen()
        a, ta = ours.divide(fen, args.depth)
        b, tb = theirs.divide(fen, args.depth)
        checked += 1
        if a != b or ta != tb:
            differences += 1
            print(f"DIFFERENCE at {fen} (depth {args.depth}): springboard {ta}, fairy-stockfish {tb}")
            for m in sorted(set(a) | set(b)):
                if a.get(m) != b.get(m):
                    print(f"  {m}: springboard {a.get(m)}  fairy-stockfish {b.get(m)}")
    ours.close()
    theirs.close()
    print(f"{checked} positions of {args.variant} at depth {args.depth}: {differences} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
