#!/usr/bin/env python3
"""Hand-made positions for the subtle rules.  For each case: compare the move
sets (ours vs Springboard's) and check the expectations written from the
ruling cited.  `+m` = move m must be legal, `-m` = must not be.
A hop move `x@*` means "with some placement", checked on the piece part."""

import sys

import crosscheck
import rules

CASES = [
    # --- P8 / T6 / P7: a pawn promoting on its trampoline checks through its
    # own origin square; a piece in front of the king on that file is pinned.
    ("trampoline", "8/2P5/2n5/2k5/8/8/8/3K4 b - - 0 1 c8,-", [], "-c6b4 +c5b4",
     "P8+T6+P7: c7-c8(T)=R-c7-c6-c5 would capture the king once the knight leaves"),
    ("trampoline", "8/2P5/8/2k5/8/8/8/3K4 w - - 0 1 c8,-", [], "",
     "Black (not to move) is attacked via c7-c8(T)=R-c5: FEN must be rejected"),
    ("hopchess", "8/2P5/2n5/2k5/8/8/8/3K4 b - - 0 5 c8,a1 -", [], "-c6b4@*",
     "same pin in Hop Chess (P6, P7)"),
    # --- T6 return to the origin; H5 forbids it in Hop Chess
    ("trampoline", "8/4P3/8/8/8/8/k7/7K w - - 0 1 e8,-", [], "+e7e8e7r +e7e8e7q -e7e8e7n",
     "T6: the promoted piece may return to the pawn's square"),
    ("hopchess", "8/4P3/8/8/8/8/k7/7K w - - 0 5 e8,h4 -", [], "-e7e8e7r@* +e7e8e6r@*",
     "H5: never back to the origin, even for promotion"),
    # --- H6: queen keeps her line; promoted queen is a full queen
    ("hopchess", "6k1/8/8/8/8/8/8/Q6K w - - 0 5 a4,h3 -", [], "+a1a4h4@* -a1a4b5@*",
     "H6: arrived orthogonally on a4, continues as a rook"),
    ("hopchess", "8/4P3/8/8/8/8/8/1k5K w - - 0 5 e8,h3 -", [], "+e7e8a4q@* +e7e8e6q@*",
     "H6/P6: a queen promoted on a trampoline moves as a full queen"),
    # --- T3: the enemy trampoline
    ("trampoline", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 -,d3", [],
     "-d2d3 +d2d4", "T3: no stop on the enemy trampoline; double step over it"),
    ("trampoline", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 -,d4", [], "-d2d4 +d2d3",
     "T3: a double step may not end on the enemy trampoline"),
    ("trampoline", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 d4,-", [], "-d2d4 +d2d3",
     "T5: a pawn may not reach its trampoline by a double step"),
    ("trampoline", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 d3,-", [], "+d2d4 +d2d3d4",
     "T5/P9: double step over own trampoline, and the bounce, are two moves"),
    # --- H7: double step onto a trampoline
    ("hopchess", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 5 d4,a8 -", [], "+d2d4d5@* -d2d4@*",
     "H7: double step onto a trampoline, then one step"),
    # --- P5: en passant and a trampoline on the skipped square
    ("hopchess", "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 5 a1,a8 -", ["d2d4@d3"], "-e4d3@*",
     "P5: the double-stepper blocks en passant with his placement"),
    ("hopchess", "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 5 a1,a8 -", ["d2d4@h3"], "+e4d3@*",
     "P5: en passant otherwise possible"),
    ("trampoline", "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1 d3,-", ["d2d4"], "-e4d3",
     "P5: a trampoline on the skipped square makes en passant impossible"),
    ("trampoline", "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1 d3,-", ["d2d3d4"], "-e4d3",
     "P5: a bounce gives no en-passant right"),
    # --- P3 / H10: castling
    ("hopchess", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 5 b1,d6 -", [], "-e1c1@* +e1g1@*",
     "P3: trampoline strictly between king and rook (b1)"),
    ("trampoline", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 -,b1", [], "-e1c1 +e1g1",
     "P3: any trampoline between king and rook forbids castling"),
    ("hopchess", "4k3/8/8/8/7r/8/8/R3K2R w KQ - 0 5 g4,d6 -", [],
     "-e1g1@g4 +e1g1@h3 +e1c1@g4",
     "H10: destination g1 attacked only through the own trampoline g4 "
     "(h4-g4(T)-g1): castling legal with another placement"),
    ("hopchess", "4k3/8/8/8/7r/8/8/R3K2R w KQ - 0 5 f4,d6 -", [], "-e1g1@* +e1c1@*",
     "H10: the crossing square f1 is attacked via the own trampoline f4 "
     "(h4-f4(T)-f1) before the turn"),
    ("hopchess", "4k3/8/8/8/7r/8/8/R3K2R w KQ - 0 5 e4,d6 -", [], "-e1g1@* -e1c1@* +e1d2@h3",
     "H10: king in check only through the own trampoline e4: no castling, "
     "but moves that relocate the trampoline are fine"),
    ("trampoline", "4k3/8/8/8/7r/8/8/R3K2R w KQ - 0 1 f4,-", [], "+e1g1 +e1c1",
     "T3: the enemy does not use White's trampoline, so f1 is not attacked"),
    ("trampoline", "4k3/8/8/8/7r/8/8/R3K2R w KQ - 0 1 -,f4", [], "-e1g1 +e1c1",
     "T3: Black's own trampoline f4 gives h4-f4(T)-f1"),
]


def check(eng_cache, variant, fen, moves, expect, note):
    eng = eng_cache.get(variant) or crosscheck.Engine(crosscheck.DEFAULT_ENGINE, variant)
    eng_cache[variant] = eng
    pos = rules.Pos.from_fen(variant, fen)
    for m in moves:
        ms = rules.legal_moves(pos)
        pos = rules.play(pos, ms[m])
    errs = eng.set(fen, moves)
    mine = rules.legal_moves(pos)
    ok = True
    out = []
    if errs:
        out.append("SB: " + errs[0])
        sb = None
        if expect:
            ok = False
        else:
            # expected rejection: Black attacked while White to move
            if rules.attacked(pos, pos.board, pos.king(rules.other(pos.turn)), pos.turn):
                out.append("(we agree: side not to move is attacked)")
            else:
                ok = False
    else:
        sb, _ = eng.perft(1)
        if set(sb) != set(mine):
            ok = False
            out.append("DIFF only-mine=%s only-sb=%s" % (
                crosscheck.summarize(sorted(set(mine) - set(sb))),
                crosscheck.summarize(sorted(set(sb) - set(mine)))))
    for e in expect.split():
        want, mv = e[0] == "+", e[1:]
        for name, lst in (("mine", mine), ("sb", sb)):
            if lst is None:
                continue
            if mv.endswith("@*"):
                have = any(k.split("@")[0] == mv[:-2] for k in lst)
            else:
                have = mv in lst
            if have != want:
                ok = False
                out.append("%s: expected %s%s" % (name, "" if want else "no ", mv))
    print("%s %-10s %s %s\n    %s%s" % ("ok  " if ok else "FAIL", variant, fen,
                                     " ".join(moves), note,
                                     "".join("\n    " + o for o in out)))
    return ok


def main():
    cache = {}
    bad = sum(not check(cache, *c) for c in CASES)
    print("%d cases, %d failing" % (len(CASES), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
