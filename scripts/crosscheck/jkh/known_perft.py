#!/usr/bin/env python3
"""Deeper perft totals: published chess values, and our generator's totals for
jumpingking / hoplit positions, against Springboard's `go perft N`."""

import sys

import hoplit
import jk
from sb import Springboard

# Published FIDE perft values (chessprogramming.org "Perft Results").
CHESS = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674624),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 3894594),
]
OURS = [
    ("jumpingking", jk.Position, "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1", 5),
    ("jumpingking", jk.Position, "8/2p1p3/1p3n2/3k4/8/1K6/8/8[Nr] w Jj 0 1", 4),
    ("jumpingking", jk.Position, "8/4k3/2P5/R7/RR6/R7/1K6/8[] w - 0 1", 3),
    ("jumpingking", jk.Position, "8/r3k3/8/8/8/8/2K5/8[N] w J 0 1", 4),
    ("hoplit", hoplit.Position, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1", 3),
    ("hoplit", hoplit.Position, "r1h1k2r/pp2bppp/2n1pn2/q2p4/3P4/2NBPN2/PP1H1PPP/R2QK2R[] w KQkq - 0 1", 3),
    ("hoplit", hoplit.Position, "4k3/8/8/8/8/2h5/8/4K2R[] w K - 0 1", 4),
    ("hoplit", hoplit.Position, "4k3/8/8/8/8/r6K/2P5/8[H] w - - 0 1", 4),
]


def main():
    sb = Springboard()
    bad = 0
    sb.set_variant("chess")
    for fen, d, n in CHESS:
        sb.position(fen)
        _, t = sb.perft(d)
        print("chess perft %d %s: Springboard %d, published %d %s" % (d, fen, t, n, "" if t == n else "DIFF"))
        bad += t != n
    for v, gen, fen, d in OURS:
        sb.set_variant(v)
        sb.position(fen)
        _, t = sb.perft(d)
        n = gen.from_fen(fen).perft(d)
        print("%s perft %d %s: Springboard %d, ours %d %s" % (v, d, fen, t, n, "" if t == n else "DIFF"))
        bad += t != n
    sb.close()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
