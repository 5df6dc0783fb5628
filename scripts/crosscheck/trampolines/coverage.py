#!/usr/bin/env python3
"""Count how often the subtle rules occur in the random set-up positions
(uses only rules.py, no engine): castling, en passant, promotion on a
trampoline, two-bounce moves, T6 returns."""
import random
import sys
import crosscheck
import rules

variant = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 500
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 3)
c = dict(pos=0, castle=0, ep=0, promo_tramp=0, two_bounce=0, t6=0, incheck=0)
for _ in range(n):
    f = crosscheck.random_fen(variant, rng)
    if f is None:
        continue
    p = rules.Pos.from_fen(variant, f)
    c["pos"] += 1
    ms = rules.legal_moves(p)
    feats = set()
    for s, m in ms.items():
        if m.flag == "castle":
            feats.add("castle")
        if m.flag == "ep":
            feats.add("ep")
        if m.promo and min(len(x) for x in m.paths) > 2:
            feats.add("promo_tramp")
        if min((len(x) for x in m.paths), default=0) > 3:
            feats.add("two_bounce")
        if m.promo and m.final == m.orig:
            feats.add("t6")
    if rules.attacked(p, p.board, p.king(p.turn), rules.other(p.turn)):
        feats.add("incheck")
    for k in feats:
        c[k] += 1
print(variant, c)
