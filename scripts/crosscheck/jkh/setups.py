"""Random and hand-made set-up positions that stress the subtle rules.

Random set-ups are not guaranteed legal: Springboard's reader rejects the bad
ones and the checker counts the rejections (they are not differences).
"""

import hoplit
import jk

HANDMADE = {
    "hoplit": [
        "7k/8/8/8/1P6/4n3/8/H6K[] w - - 0 1",            # hoplit.md example
        "7k/8/8/8/1p6/4n3/8/H6K[] w - - 0 1",            # L3: enemy pawn screen
        "4k3/8/8/8/8/2h5/8/4K2R[] w K - 0 1",            # castling into a Hoplit check
        "4k3/8/8/8/8/8/1P6/r3K3[H] w - - 0 1",           # drop blocks the check (Hoplit)
        "4k3/8/8/8/8/r6K/2P5/8[H] w - - 0 1",            # drop's pawn step blocks the check
        "4k3/8/8/8/8/8/3P4/2h1K3[H] w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R[Hh] w KQkq - 0 1",
        "4k3/8/8/h7/8/8/3P4/4K3[] w - - 0 1",            # pawn becomes a screen
        "4k3/8/8/3pP3/8/8/8/4K3[h] w - d6 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3[] w - - 0 1",           # promotion to a Hoplit
    ],
    "jumpingking": [
        "8/4k3/8/8/4B3/8/2K5/8[Br] w Jj 0 1",            # stuck by J5
        "8/r3k3/8/8/8/8/2K5/8[N] w J 0 1",               # J7: the ninth man's jump
        "8/4kP2/8/8/8/8/1K6/8[] w - 0 1",                # f7-f8 wins (J9 unpromoted)
        "8/4k3/8/8/8/8/p7/2K5[] b - 0 1",                # a2-a1 wins
        "8/4k3/3P4/8/8/8/1K6/8[] w - 0 1",               # promotion pool
        "8/4k3/2P5/R7/RR6/R7/1K6/8[] w - 0 1",           # empty rook pool
        "8/2p1p3/1p3n2/3k4/8/1K6/8/8[Nr] w Jj 0 1",      # stuck beside the enemy king
        "8/3k4/8/8/4K3/8/8/8[Rr] b Jj 0 1",
        "8/4k3/8/8/3P4/1K6/3P4/8[Rr] w j 0 1",
        "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
    ],
}


def _fen_rows(board):
    rows = []
    for r in range(7, -1, -1):
        s, e = "", 0
        for f in range(8):
            p = board[r * 8 + f]
            if p == ".":
                e += 1
            else:
                if e:
                    s += str(e)
                    e = 0
                s += p
        if e:
            s += str(e)
        rows.append(s)
    return "/".join(rows)


def random_hoplit(rng, hoplits=True):
    while True:
        board = ["."] * 64
        empty = list(range(64))
        rng.shuffle(empty)

        def put(p, ok=lambda s: True):
            for i, s in enumerate(empty):
                if ok(s):
                    board[s] = p
                    del empty[i]
                    return s
            return None

        castling = ""
        if rng.random() < 0.4:
            board[4] = "K"
            empty.remove(4)
            for c, sq in (("K", 7), ("Q", 0)):
                if rng.random() < 0.6:
                    board[sq] = "R"
                    empty.remove(sq)
                    castling += c
        else:
            put("K")
        if rng.random() < 0.4 and board[60] == "." and board[63] == "." and board[56] == ".":
            board[60] = "k"
            empty.remove(60)
            for c, sq in (("k", 63), ("q", 56)):
                if rng.random() < 0.6:
                    board[sq] = "r"
                    empty.remove(sq)
                    castling += c
        else:
            put("k")
        reserve = ""
        for side in "wb":
            nh = rng.choice([0, 1, 1, 2, 3]) if hoplits else 0
            for i in range(nh):
                put("H" if side == "w" else "h")
            if hoplits and rng.random() < 0.5:
                reserve += "H" if side == "w" else "h"
            pawn = "P" if side == "w" else "p"
            for i in range(rng.randint(0, 8)):
                put(pawn, lambda s: 8 <= s < 56)
            for i in range(rng.randint(0, 2)):
                # a pawn on its second rank: drop candidates
                put(pawn, lambda s: 8 <= s < 16 if side == "w" else 48 <= s < 56)
            for i in range(rng.randint(0, 5)):
                p = rng.choice("NBRQ")
                put(p if side == "w" else p.lower())
        stm = rng.choice("wb")
        ep = "-"
        if rng.random() < 0.2:
            # a double step just played by the side not to move
            if stm == "b":
                cands = [s for s in range(24, 32) if board[s] == "P" and board[s - 8] == "." and board[s - 16] == "."]
            else:
                cands = [s for s in range(32, 40) if board[s] == "p" and board[s + 8] == "." and board[s + 16] == "."]
            if cands:
                s = rng.choice(cands)
                ep = hoplit.sqname(s - 8 if stm == "b" else s + 8)
        fen = "%s[%s] %s %s %s 0 1" % (_fen_rows(board), reserve, stm, castling or "-", ep)
        pos = hoplit.Position.from_fen(fen)
        if not pos.in_check("b" if stm == "w" else "w"):
            return fen


def random_jk(rng):
    board = ["."] * 64
    squares = [s for s in jk.SQUARES]
    phase = rng.choice(["Jj", "Jj", "J", "j", "-", "-"])
    unplaced = {}
    for side in "wb":
        jumping = ("J" if side == "w" else "j") in phase
        men = list(jk.START_MEN)
        rng.shuffle(men)
        if jumping:
            k = rng.randint(0, 8)
            on_board, rest = men[:k], men[k:]
        else:
            k = rng.randint(0, 9) if rng.random() < 0.5 else 9
            on_board, rest = men[:k], men[k:]
            if "J" not in phase and "j" not in phase:
                # moving phase: some pawns may have promoted
                on_board = [m if m != "P" or rng.random() < 0.6 else rng.choice("RBN") for m in on_board]
        if side == "b":
            on_board = [m.lower() for m in on_board]
            rest = [m.lower() for m in rest]
        unplaced[side] = "".join(rest)
        kc = "K" if side == "w" else "k"
        if jumping:
            area = jk.AREA[side]
            cands = [s for s in squares if s // 8 in area and board[s] == "."]
            if not on_board and rng.random() < 0.5:
                cands = [jk.WEAK[side]] if board[jk.WEAK[side]] == "." else cands
        else:
            cands = [s for s in squares if board[s] == "." and s != jk.WEAK["b" if side == "w" else "w"]]
        board[rng.choice(cands)] = kc
        for m in on_board:
            own = jk.WEAK[side]
            cands = [s for s in squares if board[s] == "." and s != own
                     and s not in (jk.A1, jk.F8)]
            board[rng.choice(cands)] = m
    men = "".join(sorted(unplaced["w"])) + "".join(sorted(unplaced["b"]))
    return "%s[%s] %s %s 0 1" % (_fen_rows(board), men, rng.choice("wb"), phase)


def random_setup(variant, rng):
    if variant == "jumpingking":
        return random_jk(rng)
    if variant == "hoplit":
        return random_hoplit(rng)
    # chess: a hoplit set-up without Hoplits
    fen = random_hoplit(rng, hoplits=False)
    return fen.split("[")[0] + " " + fen.split("] ")[1]
