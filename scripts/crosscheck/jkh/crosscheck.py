#!/usr/bin/env python3
"""Compare legal move lists of Springboard with the independent generators.

Random playouts: at each position the set of legal moves (perft 1 divide keys)
is compared, and, every --perft2-every positions, the perft 2 total. After each
move the position reached by our own make-move is compared with Springboard's
`Fen:` (placement, reserve / men to place, side, phase, castling, useful ep).
"""

import argparse
import random
import sys
import time

import hoplit
import jk
import setups
from sb import DEFAULT_BINARY, Springboard

GENERATORS = {
    "chess": hoplit.ChessPosition,
    "hoplit": hoplit.Position,
    "jumpingking": jk.Position,
}
START = {
    "chess": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "hoplit": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
    "jumpingking": "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
}


def features(pos, mine):
    """Tags counting what a compared position exercises (printed at the end)."""
    tags = []
    moves = list(mine)
    if not moves:
        tags.append("no moves")
    if isinstance(pos, jk.Position):
        if moves == ["0000"]:
            tags.append("pass")
        elif pos.jumping[pos.stm]:
            tags.append("jumping")
        if pos.jumping[pos.stm] and len(pos.unplaced[pos.stm]) == 1:
            tags.append("ninth man")
        if any(m[4:] in ("r", "b", "n") and mine[m][0] == "n" for m in moves):
            tags.append("promotion")
        if any(m[2:4] in ("a1", "f8") and mine[m][0] == "n" for m in moves):
            tags.append("weak-square win available")
        if pos.game_won():
            tags.append("game won")
    else:
        if "H" in pos.board or "h" in pos.board:
            tags.append("hoplit on board")
        if any(m.startswith("H@") for m in moves):
            tags.append("drop")
        if pos.in_check(pos.stm):
            tags.append("in check")
        if any(mine[m][0] == "castle" for m in moves):
            tags.append("castling")
        if any(mine[m][0] == "ep" for m in moves):
            tags.append("en passant")
        if any(m.endswith("h") for m in moves):
            tags.append("promotion")
    return tags


class Checker:
    def __init__(self, variant, args, log):
        self.variant = variant
        self.gen = GENERATORS[variant]
        self.args = args
        self.log = log
        self.sb = Springboard(args.binary)
        self.sb.set_variant(variant)
        self.positions = 0
        self.perft2 = 0
        self.perft3 = 0
        self.diffs = 0
        self.rejected = 0
        self.seen_diffs = set()
        self.stats = {}

    def report(self, kind, fen, detail):
        self.diffs += 1
        sig = (kind, detail)
        if sig in self.seen_diffs and not self.args.verbose:
            return
        self.seen_diffs.add(sig)
        self.log("DIFF %s | %s | %s" % (kind, fen, detail))

    def check_position(self, sb_fen, mine_after):
        """Compare one position; return (our legal dict, Springboard's move set)."""
        pos = self.gen.from_fen(sb_fen)
        mine = pos.legal_strs()
        div, total = self.sb.perft(1)
        self.positions += 1
        for tag in features(pos, mine):
            self.stats[tag] = self.stats.get(tag, 0) + 1
        ours, theirs = set(mine), set(div)
        if total != len(ours) and ours == theirs:
            self.report("perft1 total", sb_fen, "Springboard %d (a move counted twice?), ours %d"
                        % (total, len(ours)))
        if ours != theirs:
            self.report("moves", sb_fen, "only Springboard: %s; only ours: %s"
                        % (sorted(theirs - ours), sorted(ours - theirs)))
        if mine_after is not None:
            # our own position (reached by our make-move, or the set-up text as
            # given, before Springboard's reader normalised it) must agree too
            if mine_after.key() != pos.key():
                self.report("state", sb_fen, "our make-move gives %s, Springboard %s"
                            % (mine_after.key(), pos.key()))
            if isinstance(mine_after, jk.Position) and mine_after.jumping[mine_after.stm] \
                    and not mine_after.begin_turn()[0].jumping[mine_after.stm]:
                self.stats["becomes stuck"] = self.stats.get("becomes stuck", 0) + 1
            own = set(mine_after.legal_strs())
            if own != theirs:
                self.report("moves(own position)", sb_fen, "only Springboard: %s; only ours: %s"
                            % (sorted(theirs - own), sorted(own - theirs)))
        if self.args.perft2_every and self.positions % self.args.perft2_every == 0:
            _, t2 = self.sb.perft(2)
            p2 = pos.perft(2)
            self.perft2 += 1
            if p2 != t2:
                self.report("perft2", sb_fen, "Springboard %d, ours %d" % (t2, p2))
        if self.args.perft3_every and self.positions % self.args.perft3_every == 0:
            _, t3 = self.sb.perft(3)
            p3 = pos.perft(3)
            self.perft3 += 1
            if p3 != t3:
                self.report("perft3", sb_fen, "Springboard %d, ours %d" % (t3, p3))
        return pos, mine, theirs

    def playout(self, start, rng, chooser, plies):
        moves = []
        mine_after = self.gen.from_fen(start) if start != "startpos" else None
        for _ in range(plies):
            try:
                sb_fen = self.sb.position(start, moves)
            except ValueError as e:
                if not moves:
                    self.rejected += 1
                    return
                self.report("rejected", start + " moves " + " ".join(moves), str(e))
                return
            pos, mine, theirs = self.check_position(sb_fen, mine_after)
            pool = sorted(mine) if chooser == "mine" else sorted(theirs)
            pool = [m for m in pool if m in mine and m in theirs]  # playable by both
            if not pool:
                return
            m = rng.choice(pool)
            mine_after = pos.play(mine[m])
            moves.append(m)

    def run(self, games, plies, seed, setup_share):
        rng = random.Random(seed)
        deadline = time.time() + self.args.seconds if self.args.seconds else None
        for g in range(games):
            if deadline and time.time() > deadline:
                break
            chooser = ("mine", "sb")[g % 2]
            if rng.random() < setup_share:
                start = setups.random_setup(self.variant, rng)
                n = min(plies, 30)
            else:
                start = START[self.variant]
                n = plies
            self.playout(start, rng, chooser, n)
        for fen in setups.HANDMADE.get(self.variant, []):
            self.playout(fen, rng, "mine", 12)
        self.sb.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("variant", choices=sorted(GENERATORS))
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--setups", type=float, default=0.3,
                    help="share of playouts starting from a random set-up position")
    ap.add_argument("--perft2-every", type=int, default=10)
    ap.add_argument("--perft3-every", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0, help="stop starting games after this")
    ap.add_argument("--binary", default=DEFAULT_BINARY)
    ap.add_argument("--verbose", action="store_true", help="print repeated differences too")
    args = ap.parse_args()

    def log(s):
        print(s, flush=True)

    c = Checker(args.variant, args, log)
    t0 = time.time()
    c.run(args.games, args.plies, args.seed, args.setups)
    print("%s: %d positions compared at depth 1, %d perft-2 totals, %d perft-3 totals, "
          "%d differences (%d distinct), %d random set-ups rejected by Springboard, %.0fs"
          % (args.variant, c.positions, c.perft2, c.perft3, c.diffs, len(c.seen_diffs),
             c.rejected, time.time() - t0))
    print("  exercised: " + ", ".join("%s %d" % kv for kv in sorted(c.stats.items())))
    sys.exit(1 if c.diffs else 0)


if __name__ == "__main__":
    main()
