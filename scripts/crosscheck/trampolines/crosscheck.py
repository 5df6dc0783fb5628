#!/usr/bin/env python3
"""Compare rules.py's legal move lists with Springboard's (UCI `go perft`).

Usage:
  crosscheck.py VARIANT [--games N] [--plies N] [--seed S] [--chooser mine|sb|mix]
                [--random N] [--perft2 N] [--fen FEN ...] [--engine PATH]

Positions come from random playouts from the start (moves chosen from our
list or Springboard's), from hand-made FENs (stress.py), and from random
set-up positions (--random).  At every position the two move SETS are
compared; after each playout move the FEN Springboard writes is compared with
ours; on a sample, perft 2 totals are compared.
"""

import argparse
import os
import random
import subprocess
import time

import rules

# The release binary of this checkout (build it first: cargo build --release).
DEFAULT_ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "..", "..", "..", "target", "release", "springboard")


class Engine:
    def __init__(self, path, variant):
        self.p = subprocess.Popen([path, "uci"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        self.send("setoption name UCI_Variant value " + variant)
        self.sync()

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, stop):
        lines = []
        while True:
            l = self.p.stdout.readline()
            if not l:
                raise RuntimeError("engine died")
            l = l.rstrip("\n")
            lines.append(l)
            if stop(l):
                return lines

    def sync(self):
        self.send("isready")
        return self.until(lambda l: l == "readyok")

    def set(self, fen, moves=()):
        cmd = "position fen " + fen + (" moves " + " ".join(moves) if moves else "")
        self.send(cmd)
        errs = [l for l in self.sync() if l.startswith("info string")]
        return errs

    def perft(self, depth):
        self.send("go perft %d" % depth)
        lines = self.until(lambda l: l.startswith("Nodes searched"))
        div = {}
        for l in lines:
            if ": " in l and not l.startswith("Nodes") and not l.startswith("info"):
                k, v = l.split(": ")
                div[k.strip()] = int(v)
        return div, int(lines[-1].split(": ")[1])

    def fen(self):
        self.send("d")
        lines = self.until(lambda l: l.startswith("Key:"))
        for l in lines:
            if l.startswith("Fen: "):
                return l[5:]


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def start_fen(variant):
    if variant == "hopchess":
        return START + " -,- first"
    if variant == "trampoline":
        return START + " -,-"
    return START


def norm_fen(f):
    return " ".join(f.split())


class Checker:
    def __init__(self, args):
        self.a = args
        self.eng = Engine(args.engine, args.variant)
        self.positions = 0
        self.perft2 = 0
        self.diffs = []
        self.seen = set()

    def log(self, kind, fen, detail):
        key = (kind, fen, detail)
        if key in self.seen:
            return
        self.seen.add(key)
        self.diffs.append(key)
        print("DIFF %s | %s | %s" % (kind, fen, detail), flush=True)

    def compare(self, fen, pos=None):
        """Compare move sets at fen; return (mine, sb) dicts."""
        if pos is None:
            pos = rules.Pos.from_fen(self.a.variant, fen)
        errs = self.eng.set(fen)
        mine = rules.legal_moves(pos)
        if errs:
            self.log("fen-rejected", fen, errs[0])
            return mine, None
        sb, total = self.eng.perft(1)
        self.positions += 1
        if total != len(sb):          # P9: each move listed once
            self.log("duplicates", fen, "nodes=%d distinct=%d" % (total, len(sb)))
        if set(sb) != set(mine):
            miss = sorted(set(mine) - set(sb))
            extra = sorted(set(sb) - set(mine))
            self.log("moves", fen, "only-mine=%s only-sb=%s" % (
                summarize(miss), summarize(extra)))
        return mine, sb

    def check_perft2(self, fen, pos, rng=None):
        """perft 2: the total (Trampoline Chess), or, in Hop Chess where a
        full perft 2 is too slow in Python, the divide counts of up to
        --sample2 random children (Springboard counts its leaves by a
        different, faster path than it lists moves)."""
        self.eng.set(fen)
        div, total = self.eng.perft(2)
        mine = rules.legal_moves(pos)
        self.perft2 += 1
        if set(div) != set(mine):
            self.log("perft2-keys", fen, "key sets differ")
            return
        keys = sorted(mine)
        if self.a.variant == "hopchess":
            keys = (rng or random).sample(keys, min(self.a.sample2, len(keys)))
            for k in keys:
                n = len(rules.legal_moves(rules.play(pos, mine[k])))
                if n != div[k]:
                    self.log("perft2", fen, "%s: mine=%d sb=%d" % (k, n, div[k]))
        else:
            t = sum(len(rules.legal_moves(rules.play(pos, mine[k]))) for k in keys)
            if t != total:
                bad = [k for k in keys
                       if len(rules.legal_moves(rules.play(pos, mine[k]))) != div[k]]
                self.log("perft2", fen, "mine=%d sb=%d children=%s" % (
                    t, total, summarize(bad)))

    def playout(self, fen, chooser, rng):
        pos = rules.Pos.from_fen(self.a.variant, fen)
        for ply in range(self.a.plies):
            mine, sb = self.compare(fen, pos)
            if sb is None:
                return
            if self.a.perft2 and rng.random() < self.a.perft2:
                self.check_perft2(fen, pos, rng)
            if (self.a.place and pos.state == "-" and mine
                    and rng.random() < self.a.place):
                m = mine[rng.choice(sorted(mine))]
                half = rules.piece_step(pos, m)
                self.compare(half.fen(), half)
            pool = sorted(mine if chooser == "mine" else sb)
            if not pool:
                return
            mv = rng.choice(pool)
            self.eng.set(fen, [mv])
            sbfen = self.eng.fen()
            if mv in mine:
                nxt = rules.play(pos, mine[mv])
                if norm_fen(nxt.fen()) != norm_fen(sbfen):
                    self.log("play", fen, "%s: mine=%s sb=%s" % (mv, nxt.fen(), sbfen))
                    nxt = rules.Pos.from_fen(self.a.variant, sbfen)
            else:
                nxt = rules.Pos.from_fen(self.a.variant, sbfen)
            pos, fen = nxt, sbfen

    def run(self):
        rng = random.Random(self.a.seed)
        t0 = time.time()
        for f in self.a.fen or []:
            self.compare(f)
            if self.a.perft2:
                self.check_perft2(f, rules.Pos.from_fen(self.a.variant, f), rng)
        starts = [start_fen(self.a.variant)] + (self.a.start or [])
        for g in range(self.a.games):
            if self.a.deadline and time.time() > self.a.deadline:
                break
            chooser = self.a.chooser
            if chooser == "mix":
                chooser = "mine" if g % 2 == 0 else "sb"
            self.playout(starts[g % len(starts)], chooser, rng)
        for i in range(self.a.random_playouts):
            if self.a.deadline and time.time() > self.a.deadline:
                break
            f = random_fen(self.a.variant, rng)
            if f is not None:
                self.playout(f, "mine" if i % 2 == 0 else "sb", rng)
        for i in range(self.a.random):
            if self.a.deadline and time.time() > self.a.deadline:
                break
            f = random_fen(self.a.variant, rng)
            if f is None:
                continue
            self.compare(f)
            if self.a.perft2 and rng.random() < self.a.perft2:
                self.check_perft2(f, rules.Pos.from_fen(self.a.variant, f), rng)
        print("variant=%s positions=%d perft2=%d diffs=%d time=%.0fs" % (
            self.a.variant, self.positions, self.perft2, len(self.diffs),
            time.time() - t0), flush=True)


def summarize(ms, n=12):
    return "[" + " ".join(ms[:n]) + (" ...+%d" % (len(ms) - n) if len(ms) > n else "") + "]"


def random_fen(variant, rng):
    """A random set-up position, legal in the sense that the side not to move
    is not attacked (our own P8 test).  Biased towards the subtle rules:
    castling with trampolines near the back ranks (P3, H10), pawns about to
    promote with trampolines on the last ranks (P6, T6, H8), en passant with
    trampolines on the skipped square (P5), trampolines next to kings (P8)."""
    kind = rng.choice(["plain", "castle", "promo", "ep", "king", "crowded", "line", "t6"])
    b = [None] * 64
    castling = ""
    ep = None
    turn = rng.choice("wb")
    hot = []                 # squares where trampolines are likely
    if kind == "castle":
        for c, r in (("w", 0), ("b", 7)):
            K, R = ("K", "R") if c == "w" else ("k", "r")
            b[r * 8 + 4] = K
            for f, right in ((0, "Q"), (7, "K")):
                if rng.random() < 0.8:
                    b[r * 8 + f] = R
                    castling += right if c == "w" else right.lower()
            hot += [r * 8 + f for f in (1, 2, 3, 5, 6)] + [(r + (1 if r == 0 else -1)) * 8 + f for f in range(8)]
        castling = "".join(x for x in "KQkq" if x in castling)
    else:
        ks = rng.sample(range(64), 2)
        b[ks[0]], b[ks[1]] = "K", "k"
        if kind == "king":
            for k in ks:
                for df, dr in rules.KING + rules.KNIGHT:
                    t = rules.step(k, df, dr)
                    if t is not None:
                        hot.append(t)
    forced = {}
    if kind == "t6":
        # an enemy pawn about to promote on its own trampoline (P6, T6, H8),
        # the side to move's king on the pawn's file below it
        e = rules.other(turn)
        f = rng.randrange(8)
        r7, r8, d = (6, 7, -1) if e == "w" else (1, 0, 1)
        k = b.index("k" if turn == "b" else "K")
        ek = b.index("K" if turn == "b" else "k")
        r = rng.randrange(2, 6) if e == "w" else rng.randrange(2, 6)
        if k in (r7 * 8 + f, r8 * 8 + f) or ek in (r7 * 8 + f, r8 * 8 + f):
            return None
        b[k] = None
        if b[r * 8 + f] in ("K", "k"):
            return None
        b[r * 8 + f] = "k" if turn == "b" else "K"
        b[r7 * 8 + f] = "P" if e == "w" else "p"
        b[r8 * 8 + f] = None
        forced[e] = r8 * 8 + f
        between = [x * 8 + f for x in range(min(r, r7) + 1, max(r, r7))]
        if between and rng.random() < 0.8:
            p = rng.choice("PNBRQ")
            b[rng.choice(between)] = p if turn == "w" else p.lower()
    if kind == "line":
        # a trampoline on a line from the king to be moved, with a piece of
        # the king's side in between (pins through trampolines, P8)
        k = b.index("k" if turn == "b" else "K")
        df, dr = rng.choice(rules.KING)
        line = []
        t = rules.step(k, df, dr)
        while t is not None:
            line.append(t)
            t = rules.step(t, df, dr)
        if len(line) >= 2:
            blocker = rng.choice(line[:-1])
            if b[blocker] is None:
                p = rng.choice("PNBRQ")
                b[blocker] = p if turn == "w" else p.lower()
                if p == "P" and blocker // 8 in (0, 7):
                    b[blocker] = None
            rest = [s for s in line if s != blocker and b[s] is None]
            hot += rest * 3
    if kind == "promo":
        for _ in range(rng.randint(1, 4)):
            c = rng.choice("wb")
            r = rng.choice([6, 5] if c == "w" else [1, 2])
            s = r * 8 + rng.randrange(8)
            if b[s] is None:
                b[s] = "P" if c == "w" else "p"
                d = 8 if c == "w" else -8
                hot += [s + d] * 4 + [s + 2 * d] * 2
    if kind == "ep":
        # side to move has a pawn on its 5th rank next to an enemy pawn that
        # just double-stepped
        f = rng.randrange(8)
        if turn == "w":
            mover, vict, r5, skip, frm = "P", "p", 4, 5, 6
        else:
            mover, vict, r5, skip, frm = "p", "P", 3, 2, 1
        fs = [x for x in (f - 1, f + 1) if 0 <= x < 8]
        b[r5 * 8 + f] = vict
        for x in fs:
            if rng.random() < 0.7:
                b[r5 * 8 + x] = mover
        if any(b[s] in ("K", "k") for s in (skip * 8 + f, frm * 8 + f)):
            return None
        b[skip * 8 + f] = b[frm * 8 + f] = None
        ep = skip * 8 + f
        hot += [ep] * 3 + [r5 * 8 + x for x in range(8)]
    n = rng.randint(1, 10) if kind != "crowded" else rng.randint(12, 28)
    for _ in range(n):
        p = rng.choice("PPPNNBBRRQ")
        p = p if rng.random() < 0.5 else p.lower()
        s = rng.randrange(64)
        if b[s] is None and not (p in "Pp" and s // 8 in (0, 7)):
            if ep is not None and s in (ep, ep + 8, ep - 8):
                continue
            b[s] = p
    pos = rules.Pos(variant)
    pos.board = b
    pos.turn = turn
    pos.castling = castling
    pos.ep = ep
    pos.full = 20
    empties = [s for s in range(64) if b[s] is None]
    hot = [s for s in hot if 0 <= s < 64 and b[s] is None]
    def pick():
        if hot and rng.random() < 0.6:
            return rng.choice(hot)
        return rng.choice(empties)
    if variant != "chess":
        w = pick() if rng.random() < 0.9 else None
        bl = pick() if rng.random() < 0.9 else None
        if w is not None and w == bl:
            bl = None
        pos.tramp = {"w": w, "b": bl}
        for c, sq in forced.items():
            if b[sq] is not None:
                return None
            pos.tramp[c] = sq
            if pos.tramp[rules.other(c)] == sq:
                pos.tramp[rules.other(c)] = None
    if variant == "hopchess":
        pos.state = "-"
    if b.count("K") != 1 or b.count("k") != 1:
        return None
    if (sum(1 for x in b if x and x.isupper()) > 16
            or sum(1 for x in b if x and x.islower()) > 16
            or b.count("P") > 8 or b.count("p") > 8):
        return None
    if impossible_material(b):
        return None
    opp = rules.other(pos.turn)
    if rules.attacked(pos, b, pos.king(opp), pos.turn):
        return None
    return pos.fen()


def impossible_material(b):
    """Men no game reaches (docs/rules/chess.md, "Positions Springboard
    refuses"): a side's queens beyond 1, rooks, knights and bishops beyond 2
    are promoted pawns, at most 8 - pawns."""
    for white in (True, False):
        def n(ch):
            return b.count(ch if white else ch.lower())
        promoted = (max(n("Q") - 1, 0) + max(n("R") - 2, 0) + max(n("N") - 2, 0)
                    + max(n("B") - 2, 0))
        if promoted > 8 - n("P"):
            return True
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("--engine", default=DEFAULT_ENGINE)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chooser", default="mix", choices=["mine", "sb", "mix"])
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--random-playouts", type=int, default=0,
                    help="playouts (of --plies) from random set-up positions")
    ap.add_argument("--perft2", type=float, default=0.0,
                    help="probability of a perft-2 check per position")
    ap.add_argument("--sample2", type=int, default=20,
                    help="Hop Chess: children checked per perft-2 position")
    ap.add_argument("--place", type=float, default=0.0,
                    help="Hop Chess: probability of also checking the `place` "
                    "half-step position after a random piece move")
    ap.add_argument("--fen", nargs="*")
    ap.add_argument("--start", nargs="*", help="extra playout start FENs")
    ap.add_argument("--deadline", type=float, default=0, help="unix time to stop")
    a = ap.parse_args()
    Checker(a).run()


if __name__ == "__main__":
    main()
