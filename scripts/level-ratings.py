#!/usr/bin/env python3
# The levels' ratings (docs/engine.md, "The levels' ratings"): reads the output
# of `springboard match` runs (or the summaries in levels/) whose results are
# headed by lines like
#   "=== skill A vs skill B, ..."
#   "=== skill A vs Fairy-Stockfish UCI_Elo=E, ..."
#   "=== material1 vs skill A, ..."   (the 1-ply material player)
# (scripts/level-ladder.sh writes them), prints each result with its 95%
# interval and the ratings of the players fitted by weighted least squares;
# skills that played no match get the rating on the straight line between
# their nearest measured neighbours. A level the fit puts below a weaker one
# shares their weighted mean (the ratings never fall as the skill rises).
#
# The scale is set by anchors: every Fairy-Stockfish match (its UCI_Elo) and
# each `--anchor "PLAYER=R"` (e.g. "skill 0=1000": the variants, where no
# outside engine plays, are anchored that way). A match won or lost without
# exception (0% or 100%) has no finite Elo difference: it is counted with one
# more draw (a 20-0 as 20-1-0), a rough lower bound of the gap.
#
# Usage: python3 scripts/level-ratings.py [--anchor "PLAYER=R"]... FILE...
import math
import re
import sys

args = sys.argv[1:]
anchors = {}
while args[:1] == ["--anchor"]:
    name, _, value = args[1].rpartition("=")
    anchors[name] = float(value)
    args = args[2:]
if not args:
    sys.exit('usage: level-ratings.py [--anchor "PLAYER=R"]... FILE...')

PLAYER = r"(skill \d+|material1|Fairy-Stockfish UCI_Elo=\d+)"
results = {}  # (a, b) -> [W, D, L] for a = engine1
for f in args:
    cur = None
    for line in open(f):
        m = re.match(rf"=== {PLAYER} vs {PLAYER}", line)
        if m:
            cur = (m[1], m[2])
            continue
        m = re.match(r"engine1 .*?: (\d+) wins, (\d+) draws, (\d+) losses", line)
        if m and cur:
            results.setdefault(cur, [0, 0, 0])
            for i in range(3):
                results[cur][i] += int(m[i + 1])
            cur = None


def elo(p):
    p = min(max(p, 0.5 / 1000), 1 - 0.5 / 1000)
    return -400 * math.log10(1 / p - 1)


def stats(w, d, l):
    if w + d == 0 or d + l == 0:
        d += 1
    n = w + d + l
    p = (w + 0.5 * d) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p**2) / n
    se = math.sqrt(var / n)
    e = elo(p)
    lo, hi = elo(p - 1.96 * se), elo(p + 1.96 * se)
    # Standard error in Elo (delta method), at least 20.
    return n, p, e, lo, hi, max((hi - lo) / 3.92, 20)


def fsf(name):
    m = re.match(r"Fairy-Stockfish UCI_Elo=(\d+)", name)
    return int(m[1]) if m else None


players = sorted(
    {p for pair in results for p in pair if fsf(p) is None},
    key=lambda p: -1 if p == "material1" else int(p.split()[1]),
)
idx = {p: i for i, p in enumerate(players)}
k = len(players)
rows, rhs, w = [], [], []
print("| match | games | W-D-L (first named) | score | Elo difference (95%) |")
print("|---|---|---|---|---|")
for (a, b), (W, D, L) in sorted(results.items()):
    n, p, e, lo, hi, se = stats(W, D, L)
    n = W + D + L
    print(f"| {a} vs {b} | {n} | {W}-{D}-{L} | {100*p:.1f}% | {e:+.0f} ({lo:+.0f} to {hi:+.0f}) |")
    r = [0] * k
    r[idx[a]] = 1
    if fsf(b) is None:
        r[idx[b]] = -1
        rhs.append(e)
    else:
        rhs.append(fsf(b) + e)
    rows.append(r)
    w.append(1 / se)
for name, value in anchors.items():
    if name not in idx:
        sys.exit(f"the anchor {name} played no match")
    r = [0] * k
    r[idx[name]] = 1
    rows.append(r)
    rhs.append(value)
    w.append(1 / 1.0)  # all but exact: the anchor fixes the scale
if not any(fsf(b) is not None for (_, b) in results) and not anchors:
    sys.exit('no anchor: the ratings need a Fairy-Stockfish match or --anchor "PLAYER=R"')

N = [[0.0] * k for _ in range(k)]
bvec = [0.0] * k
for r, yv, wt in zip(rows, rhs, w):
    for i in range(k):
        bvec[i] += wt * wt * r[i] * yv
        for j in range(k):
            N[i][j] += wt * wt * r[i] * r[j]


def inv(M):
    n = len(M)
    A = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(M)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(A[r][c]))
        A[c], A[p] = A[p], A[c]
        pv = A[c][c]
        if abs(pv) < 1e-12:
            sys.exit("the matches do not link every player to an anchor")
        A[c] = [v / pv for v in A[c]]
        for r in range(n):
            if r != c:
                f = A[r][c]
                A[r] = [a - f * b for a, b in zip(A[r], A[c])]
    return [row[n:] for row in A]


cov = inv(N)
x = [sum(cov[i][j] * bvec[j] for j in range(k)) for i in range(k)]
rat = {p: x[idx[p]] for p in players}
se = {p: math.sqrt(max(cov[idx[p]][idx[p]], 0.0)) for p in players}
print()
print("| player | rating | +- (1 s.e.) |")
print("|---|---|---|")
for p in players:
    print(f"| {p} | {round(rat[p] / 10) * 10:.0f} | {se[p]:.0f} |")
measured = sorted(int(p.split()[1]) for p in players if p != "material1")
# A higher skill searches deeper with less randomness: where the fit has a
# level below a weaker one, the two are as strong as the matches can tell,
# and share their weighted mean (pool-adjacent-violators, weights 1/se^2).
blocks = []  # [weighted sum, weight, skills]
for m in measured:
    wt = 1 / max(se[f"skill {m}"], 1.0) ** 2
    blocks.append([rat[f"skill {m}"] * wt, wt, [m]])
    while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
        a = blocks.pop()
        blocks[-1] = [blocks[-1][0] + a[0], blocks[-1][1] + a[1], blocks[-1][2] + a[2]]
mono = {}
for total, weight, members in blocks:
    for m in members:
        mono[f"skill {m}"] = total / weight
pooled = [b[2] for b in blocks if len(b[2]) > 1]
if pooled:
    print()
    print("pooled (not told apart by the matches):", "; ".join(", ".join(f"skill {m}" for m in g) for g in pooled))
rat.update(mono)
full = []
for s in range(21):
    if f"skill {s}" in rat:
        r = rat[f"skill {s}"]
    else:
        lo = max((m for m in measured if m < s), default=None)
        hi = min((m for m in measured if m > s), default=None)
        if lo is None or hi is None:
            sys.exit(f"skill {s} lies outside the measured skills {measured}")
        r = rat[f"skill {lo}"] + (rat[f"skill {hi}"] - rat[f"skill {lo}"]) * (s - lo) / (hi - lo)
    full.append(int(round(r / 10) * 10))
print()
print("RATINGS", full)
