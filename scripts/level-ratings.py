#!/usr/bin/env python3
# The levels' ratings (docs/engine.md, "The levels' ratings"): reads the output
# of `springboard match` runs whose results are headed by lines like
# "=== skill A vs skill B, N games" or "=== skill A vs Fairy-Stockfish UCI_Elo=E, N games",
# prints each result with its 95% interval and the even skills' ratings fitted by
# weighted least squares (odd skills: the mean of their neighbours).
# Usage: python3 scripts/level-ratings.py round1.log round2.log
import re, math, sys
pairs = {}   # (a,b) -> [W,D,L] for engine1=a
anchors = {} # (skill, elo) -> [W,D,L]
for f in sys.argv[1:]:
    cur = None
    for line in open(f):
        m = re.match(r"=== skill (\d+) vs skill (\d+)", line)
        if m: cur = ("p", int(m[1]), int(m[2])); continue
        m = re.match(r"=== skill (\d+) vs Fairy-Stockfish UCI_Elo=(\d+)", line)
        if m: cur = ("a", int(m[1]), int(m[2])); continue
        m = re.match(r"engine1 .*?: (\d+) wins, (\d+) draws, (\d+) losses", line)
        if m and cur:
            d = pairs if cur[0] == "p" else anchors
            k = cur[1:]
            d.setdefault(k, [0, 0, 0])
            for i in range(3): d[k][i] += int(m[i + 1])
def elo(p):
    p = min(max(p, 0.5 / 1000), 1 - 0.5 / 1000)
    return -400 * math.log10(1 / p - 1)
def stats(w, d, l):
    n = w + d + l
    p = (w + 0.5 * d) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
    se = math.sqrt(var / n)
    e = elo(p)
    lo, hi = elo(p - 1.96 * se), elo(p + 1.96 * se)
    # standard error in Elo (delta method)
    se_elo = max((hi - lo) / 3.92, 20)
    return n, p, e, lo, hi, se_elo
skills = list(range(0, 21, 2))
idx = {s: i for i, s in enumerate(skills)}
rows, rhs, w = [], [], []
print("| match | games | W-D-L (first named) | score | Elo difference (95%) |")
print("|---|---|---|---|---|")
for (a, b), (W, D, L) in sorted(pairs.items()):
    n, p, e, lo, hi, se = stats(W, D, L)
    print(f"| skill {a} vs skill {b} | {n} | {W}-{D}-{L} | {100*p:.1f}% | {e:+.0f} ({lo:+.0f} to {hi:+.0f}) |")
    r = [0] * len(skills); r[idx[a]] = 1; r[idx[b]] = -1
    rows.append(r); rhs.append(e); w.append(1 / se)
for (s, fe), (W, D, L) in sorted(anchors.items()):
    n, p, e, lo, hi, se = stats(W, D, L)
    print(f"| skill {s} vs Fairy-Stockfish UCI_Elo={fe} | {n} | {W}-{D}-{L} | {100*p:.1f}% | {e:+.0f} ({lo:+.0f} to {hi:+.0f}) |")
    r = [0] * len(skills); r[idx[s]] = 1
    rows.append(r); rhs.append(fe + e); w.append(1 / se)
k = len(skills)
N = [[0.0] * k for _ in range(k)]; bvec = [0.0] * k
for r, yv, wt in zip(rows, rhs, w):
    for i in range(k):
        bvec[i] += wt * wt * r[i] * yv
        for j in range(k):
            N[i][j] += wt * wt * r[i] * r[j]
def inv(M):
    n = len(M); A = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(M)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(A[r][c])); A[c], A[p] = A[p], A[c]
        pv = A[c][c]; A[c] = [v / pv for v in A[c]]
        for r in range(n):
            if r != c:
                f = A[r][c]; A[r] = [a - f * b for a, b in zip(A[r], A[c])]
    return [row[n:] for row in A]
cov = inv(N)
x = [sum(cov[i][j] * bvec[j] for j in range(k)) for i in range(k)]
rat = {s: x[idx[s]] for s in skills}
print()
print("| level (skill) | rating | +- (1 s.e.) |")
print("|---|---|---|")
full = []
for s in range(21):
    if s in rat:
        r = rat[s]; se = math.sqrt(cov[idx[s]][idx[s]])
    else:
        r = (rat[s - 1] + rat[s + 1]) / 2; se = None
    r = int(round(r / 10) * 10)
    full.append(r)
    print(f"| {s+1} ({s}) | {r} | {'%.0f' % se if se else 'between neighbours'} |")
print("RATINGS", full)
