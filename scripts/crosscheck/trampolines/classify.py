#!/usr/bin/env python3
"""Classify `DIFF moves` lines where Springboard lists extra moves: play each
extra move in our model and report how the mover's king is then attacked.
Tag PROMO-THROUGH-ORIGIN = every attacking path is a pawn promoting on a
trampoline and passing back over its own origin square (bug 1 of FINDINGS.md).
Usage: classify.py VARIANT < log"""
import sys
import rules



def through(p):
    """origin, trampoline, final on one file with the origin in between"""
    o, t, f = p
    return o % 8 == t % 8 == f % 8 and min(t, f) < o < max(t, f)


variant = sys.argv[1]
tags = {}
for line in sys.stdin:
    if not line.startswith("DIFF moves"):
        continue
    _, fen, detail = [x.strip() for x in line.split("|")]
    extra = detail.split("only-sb=[")[1].split("]")[0].split()
    extra = [m for m in extra if not m.startswith("...")]
    pos = rules.Pos.from_fen(variant, fen)
    pm = {m.piece_str(): m for m in rules.piece_moves(pos, rules.ep_square(pos))}
    col, opp = pos.turn, rules.other(pos.turn)
    for s in extra:
        m = pm.get(s.split("@")[0])
        if m is None:
            tag = "NOT-PSEUDO-LEGAL"
        else:
            b = rules.apply_piece(pos.board, col, m.orig, m.final, m.promo, m.flag)
            k = b.index("K" if col == "w" else "k")
            tr = pos.tramp_set()
            us = rules.usable_for(pos, opp) & tr
            paths = []
            for sq in range(64):
                if b[sq] and rules.color_of(b[sq]) == opp:
                    for path, final, promo, flag, w in rules.piece_paths(pos, b, sq, us, tr):
                        if final == k:
                            paths.append((sq, path, promo))
            if not paths:
                tag = "NOT-ATTACKED(our bug?)"
            elif all(pr and len(p) == 3 and through(p) for o, p, pr in paths):
                tag = "PROMO-THROUGH-ORIGIN"
            else:
                tag = "OTHER " + str(paths[:2])
        tags[tag] = tags.get(tag, 0) + 1
        if not tag.startswith("PROMO"):
            print(tag, fen, s)
print(tags)
