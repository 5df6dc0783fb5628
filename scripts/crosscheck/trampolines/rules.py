"""Independent move generator for Hop Chess and Trampoline Chess.

Written from /work/shared/rules/RULINGS.md only (rulings cited inline).
Standard library only.  Squares are 0..63, a1 = 0, h8 = 63.

A position is a `Pos`; `legal_moves(pos)` returns {canonical_string: Move}.
"""

FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
DIRS = {"B": DIAG, "R": ORTH, "Q": ORTH + DIAG, "QR": ORTH, "QB": DIAG}
PROMOS = "qrbn"


def sqname(s):
    return FILES[s % 8] + str(s // 8 + 1)


def parse_sq(t):
    return FILES.index(t[0]) + 8 * (int(t[1]) - 1)


def color_of(p):
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


def step(s, df, dr):
    f, r = s % 8 + df, s // 8 + dr
    if 0 <= f < 8 and 0 <= r < 8:
        return r * 8 + f
    return None


class Pos:
    def __init__(self, variant):
        self.variant = variant          # 'hopchess' | 'trampoline' | 'chess'
        self.board = [None] * 64
        self.turn = "w"
        self.castling = ""
        self.ep = None
        self.half = 0
        self.full = 1
        self.tramp = {"w": None, "b": None}
        self.state = "-"                # hopchess only: 'first' | '-' | 'place'

    def copy(self):
        p = Pos(self.variant)
        p.board = self.board[:]
        p.turn, p.castling, p.ep = self.turn, self.castling, self.ep
        p.half, p.full = self.half, self.full
        p.tramp = dict(self.tramp)
        p.state = self.state
        return p

    # ---------------------------------------------------------------- FEN
    @classmethod
    def from_fen(cls, variant, fen):
        f = fen.split()
        p = cls(variant)
        rows = f[0].split("/")
        for i, row in enumerate(rows):
            r, c = 7 - i, 0
            for ch in row:
                if ch.isdigit():
                    c += int(ch)
                else:
                    p.board[r * 8 + c] = ch
                    c += 1
        p.turn = f[1]
        p.castling = "" if f[2] == "-" else f[2]
        p.ep = None if f[3] == "-" else parse_sq(f[3])
        p.half, p.full = int(f[4]), int(f[5])
        if variant != "chess":
            w, b = f[6].split(",")
            p.tramp = {"w": None if w == "-" else parse_sq(w),
                       "b": None if b == "-" else parse_sq(b)}
        if variant == "hopchess":
            p.state = f[7]
        return p

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            s, e = "", 0
            for c in range(8):
                x = self.board[r * 8 + c]
                if x is None:
                    e += 1
                else:
                    if e:
                        s += str(e)
                    e = 0
                    s += x
            if e:
                s += str(e)
            rows.append(s)
        out = "/".join(rows) + " %s %s %s %d %d" % (
            self.turn, self.castling or "-",
            sqname(self.ep) if self.ep is not None else "-", self.half, self.full)
        if self.variant != "chess":
            t = self.tramp
            out += " %s,%s" % (sqname(t["w"]) if t["w"] is not None else "-",
                               sqname(t["b"]) if t["b"] is not None else "-")
        if self.variant == "hopchess":
            out += " " + self.state
        return out

    def king(self, c):
        k = "K" if c == "w" else "k"
        return self.board.index(k)

    def tramp_set(self):
        return {s for s in self.tramp.values() if s is not None}


class Move:
    """One move (P9 identity): origin, final, promotion, flag, + placement."""

    def __init__(self, orig, final, promo, flag, paths, place=None):
        self.orig, self.final, self.promo, self.flag = orig, final, promo, flag
        self.paths = paths      # list of square lists (origin, trampolines.., final)
        self.place = place      # hop placement square / trampoline-move square

    def piece_str(self):
        # N3: direct path if any, else fewest squares, then alphabetical.
        strs = []
        for path in self.paths:
            s = "".join(sqname(x) for x in path) + (self.promo or "")
            strs.append((len(path), s))
        return min(strs)[1]


# ------------------------------------------------------------------ paths
def piece_paths(pos, board, origin, usable, tramps, wildcard=False, ep=None):
    """All paths of the piece standing on `origin` (origin treated as vacated).

    usable:   trampoline squares this piece may bounce off (each at most once)
    tramps:   all trampoline squares (never stopped on; see T3 for pawns)
    wildcard: Hop Chess attack test: the defender's own trampoline may be placed
              on any empty, trampoline-free square; paths using it report it.
    ep:       en-passant target square usable by a direct diagonal step (P5)
    Returns list of (path, final, promo, flag, wsq);
    flag in {'', 'double', 'ep'}.
    """
    hop = pos.variant == "hopchess"
    piece = board[origin]
    col = color_of(piece)
    out = []

    def occupied(s):
        return s != origin and board[s] is not None

    def enemy(s):
        return occupied(s) and color_of(board[s]) != col

    def emit(path, final, promo, flag, wsq, t6):
        if final == origin and not t6:      # H5 / T4 origin rule
            return
        out.append((path, final, promo, flag, wsq))

    def bounce_kind(kind, df, dr):
        # H6: a Hop Chess queen keeps the line she arrived on.  T4: turns freely.
        if hop and kind in ("Q", "QR", "QB"):
            return "QR" if (df == 0 or dr == 0) else "QB"
        return kind

    def leg(cur, kind, used, wsq, path, first, promo, t6):
        can_wild = wildcard and wsq is None

        def land(t, k2, df, dr, pr, newt6):
            """Non-capturing arrival on empty square t (pawn/knight/slider)."""
            if t in tramps:
                if t in usable and t not in used:
                    leg(t, bounce_kind(k2, df, dr), used | {t}, wsq, path + [t],
                        False, pr, newt6)
                return
            emit(path + [t], t, pr, "", wsq, newt6)
            if can_wild and t != origin:
                leg(t, bounce_kind(k2, df, dr), used, t, path + [t], False, pr, newt6)

        if kind == "P":
            d = 1 if col == "w" else -1
            last = 7 if col == "w" else 0
            f = step(cur, 0, d)
            if f is not None and not occupied(f):
                if f // 8 == last:
                    for pr in PROMOS:
                        np = pr.upper()
                        if f in tramps:
                            if f in usable and f not in used:
                                # P6/T6: promote on the trampoline, bounce as new piece
                                leg(f, np, used | {f}, wsq, path + [f], False, pr,
                                    not hop)
                        else:
                            emit(path + [f], f, pr, "", wsq, False)
                            if can_wild:
                                leg(f, np, used, f, path + [f], False, pr, False)
                else:
                    if f in tramps:
                        if f in usable and f not in used:
                            leg(f, "P", used | {f}, wsq, path + [f], False, None, False)
                    else:
                        emit(path + [f], f, None, "", wsq, False)
                        if can_wild:
                            leg(f, "P", used, f, path + [f], False, None, False)
                    # double step: only from the start square, never from a trampoline
                    start = 1 if col == "w" else 6
                    if first and cur // 8 == start:
                        f2 = step(cur, 0, 2 * d)
                        if not occupied(f2):
                            if f2 in tramps:
                                # H7: Hop may double-step onto a trampoline; T5: not in Trampoline
                                if hop and f2 in usable and f2 not in used:
                                    leg(f2, "P", used | {f2}, wsq, path + [f2], False,
                                        None, False)
                            else:
                                emit(path + [f2], f2, None, "double", wsq, False)
                                if can_wild and hop:
                                    leg(f2, "P", used, f2, path + [f2], False, None, False)
            for df in (-1, 1):
                t = step(cur, df, d)
                if t is None:
                    continue
                if enemy(t):
                    if t // 8 == last:
                        for pr in PROMOS:
                            emit(path + [t], t, pr, "", wsq, False)
                    else:
                        emit(path + [t], t, None, "", wsq, False)
                elif first and ep is not None and t == ep and t not in tramps:
                    emit(path + [t], t, None, "ep", wsq, False)
            return

        if kind in ("N", "K"):
            for df, dr in (KNIGHT if kind == "N" else KING):
                t = step(cur, df, dr)
                if t is None:
                    continue
                if occupied(t):
                    if enemy(t):
                        emit(path + [t], t, promo, "", wsq, t6)
                    continue
                if kind == "K":
                    if t not in tramps:     # P3: kings never move onto a trampoline
                        emit(path + [t], t, promo, "", wsq, t6)
                    continue
                land(t, kind, df, dr, promo, t6)
            return

        for df, dr in DIRS[kind]:
            t = step(cur, df, dr)
            while t is not None:
                if occupied(t):
                    if enemy(t):
                        emit(path + [t], t, promo, "", wsq, t6)
                    break
                land(t, kind, df, dr, promo, t6)
                t = step(t, df, dr)

    leg(origin, piece.upper(), frozenset(), None, [origin], True, None, False)
    return out


def usable_for(pos, col):
    """Trampolines the side `col` may bounce off (H4: both; T3: own only)."""
    if pos.variant == "hopchess":
        return pos.tramp_set()
    if pos.variant == "trampoline":
        s = pos.tramp[col]
        return {s} if s is not None else set()
    return set()


def attack_info(pos, board, target, by, tramps, usable, wildcard=False):
    """Is `target` attacked by side `by` (P8)?  Returns (attacked, danger_set):
    with wildcard, danger_set = squares where the defender's trampoline would
    let `by` capture on target."""
    danger = set()
    for s in range(64):
        p = board[s]
        if p is None or color_of(p) != by:
            continue
        for path, final, promo, flag, wsq in piece_paths(
                pos, board, s, usable, tramps, wildcard=wildcard):
            if final == target:
                if wsq is None:
                    return True, danger
                danger.add(wsq)
    return False, danger


def attacked(pos, board, target, by, tramps=None):
    if tramps is None:
        tramps = pos.tramp_set()
    usable = usable_for(pos, by) & tramps
    return attack_info(pos, board, target, by, tramps, usable)[0]


# ------------------------------------------------------------------ moves
def apply_piece(board, col, orig, final, promo, flag):
    b = board[:]
    piece = b[orig]
    b[orig] = None
    if flag == "ep":
        b[final - 8 if col == "w" else final + 8] = None
    if flag == "castle":
        r = final // 8
        if final % 8 == 6:
            b[r * 8 + 5], b[r * 8 + 7] = b[r * 8 + 7], None
        else:
            b[r * 8 + 3], b[r * 8] = b[r * 8], None
    b[final] = (promo.upper() if col == "w" else promo) if promo else piece
    return b


def castle_moves(pos):
    """FIDE castling + P3 (trampolines) + H10 (when attacks are judged)."""
    col = pos.turn
    r = 0 if col == "w" else 7
    k = r * 8 + 4
    kp = "K" if col == "w" else "k"
    rp = "R" if col == "w" else "r"
    tr = pos.tramp_set()
    res = []
    if pos.board[k] != kp:
        return res
    opp = other(col)
    for right, rook, between, cross, kdest in (
            ("K", 7, [5, 6], 5, 6), ("Q", 0, [1, 2, 3], 3, 2)):
        if (right if col == "w" else right.lower()) not in pos.castling:
            continue
        if pos.board[r * 8 + rook] != rp:
            continue
        bet = [r * 8 + x for x in between]
        if any(pos.board[s] is not None for s in bet):
            continue
        if any(s in tr for s in bet):  # covers the king's and rook's destinations
            continue
        if attacked(pos, pos.board, k, opp):
            continue
        b2 = pos.board[:]
        b2[k] = None
        b2[r * 8 + cross] = kp
        if attacked(pos, b2, r * 8 + cross, opp):
            continue
        res.append(Move(k, r * 8 + kdest, None, "castle", [[k, r * 8 + kdest]]))
    return res


def piece_moves(pos, ep=None):
    """Pseudo-legal piece moves of the side to move, grouped by P9 identity."""
    col = pos.turn
    tr = pos.tramp_set()
    us = usable_for(pos, col) & tr
    moves = {}
    for s in range(64):
        p = pos.board[s]
        if p is None or color_of(p) != col:
            continue
        for path, final, promo, flag, wsq in piece_paths(
                pos, pos.board, s, us, tr, ep=ep):
            key = (s, final, promo, flag)
            if key in moves:
                moves[key].paths.append(path)
            else:
                moves[key] = Move(s, final, promo, flag, [path])
    for m in castle_moves(pos):
        moves[(m.orig, m.final, None, "castle")] = m
    return list(moves.values())


def ep_square(pos):
    """The en-passant target usable now (P5: no trampoline on it)."""
    if pos.ep is None or pos.ep in pos.tramp_set():
        return None
    return pos.ep


def legal_moves(pos):
    """{canonical long-notation string: Move} of all legal turns."""
    col, opp = pos.turn, other(pos.turn)
    res = {}
    ep = ep_square(pos)
    if pos.variant == "hopchess" and pos.state == "place":
        # Springboard's half-step state (docs/rules/hopchess.md): the piece
        # move is made, only the placement is left.
        ksq = pos.king(col)
        for s in range(64):
            if pos.board[s] is None and s != pos.tramp[opp]:
                p2 = pos.copy()
                p2.tramp[col] = s
                if not attacked(p2, pos.board, ksq, opp):
                    res["@" + sqname(s)] = Move(None, None, None, "place", [], s)
        return res
    if pos.variant == "hopchess" and pos.state != "first":
        enemy_t = pos.tramp[opp]
        for m in piece_moves(pos, ep):
            b = apply_piece(pos.board, col, m.orig, m.final, m.promo, m.flag)
            ksq = b.index("K" if col == "w" else "k")
            base = {enemy_t} if enemy_t is not None else set()
            att, danger = attack_info(pos, b, ksq, opp, base, base, wildcard=True)
            if att:
                continue
            ps = m.piece_str()
            for s in range(64):
                if b[s] is None and s != enemy_t and s not in danger:
                    res[ps + "@" + sqname(s)] = Move(m.orig, m.final, m.promo,
                                                     m.flag, m.paths, s)
        return res
    for m in piece_moves(pos, ep):
        b = apply_piece(pos.board, col, m.orig, m.final, m.promo, m.flag)
        ksq = b.index("K" if col == "w" else "k")
        if not attacked(pos, b, ksq, opp):
            res[m.piece_str()] = m
    if pos.variant == "trampoline":
        own = pos.tramp[col]
        ksq = pos.king(col)
        for s in range(64):
            if pos.board[s] is None and s not in pos.tramp_set():
                p2 = pos.copy()
                p2.tramp[col] = s
                if not attacked(p2, pos.board, ksq, opp):   # T7
                    res["@" + sqname(s)] = Move(None, None, None, "tramp", [], s)
    return res


# ------------------------------------------------------------------ play
def play(pos, m):
    """Position after legal move m (a Move from legal_moves)."""
    col = pos.turn
    p = pos.copy()
    p.ep = None
    if m.flag == "tramp":
        p.tramp[col] = m.place
        p.half += 1
    elif m.flag == "place":
        p.tramp[col] = m.place
        p.ep = pos.ep
        p.state = "-"
    else:
        piece = pos.board[m.orig]
        capture = pos.board[m.final] is not None or m.flag == "ep"
        p.board = apply_piece(pos.board, col, m.orig, m.final, m.promo, m.flag)
        p.half = 0 if (capture or piece.upper() == "P") else p.half + 1
        if m.flag == "double":
            p.ep = (m.orig + m.final) // 2
        # castling rights
        lost = ""
        for sq, rights in ((4, "KQ"), (60, "kq"), (0, "Q"), (7, "K"), (56, "q"), (63, "k")):
            if m.orig == sq or m.final == sq:
                lost += rights
        p.castling = "".join(c for c in p.castling if c not in lost)
        if pos.variant == "hopchess":
            if pos.state == "first":
                p.state = "-"
            else:
                p.tramp[col] = m.place
    p.turn = other(col)
    if col == "b":
        p.full += 1
    # en passant field only when a capture is actually possible (C2, Springboard)
    if p.ep is not None:
        if not any(x.flag == "ep" for x in ep_candidates(p)):
            p.ep = None
    return p


def ep_candidates(pos):
    """Legal en-passant captures of the side to move (cheap check for play())."""
    if ep_square(pos) is None:
        return []
    return legal_moves_subset(pos, lambda mv: mv.flag == "ep")


def legal_moves_subset(pos, pred):
    """Like legal_moves, restricted to piece moves satisfying pred."""
    col, opp = pos.turn, other(pos.turn)
    out = []
    for m in piece_moves(pos, ep_square(pos)):
        if not pred(m):
            continue
        b = apply_piece(pos.board, col, m.orig, m.final, m.promo, m.flag)
        ksq = b.index("K" if col == "w" else "k")
        if pos.variant == "hopchess" and pos.state != "first":
            enemy_t = pos.tramp[opp]
            base = {enemy_t} if enemy_t is not None else set()
            att, danger = attack_info(pos, b, ksq, opp, base, base, wildcard=True)
            if not att and any(b[s] is None and s != enemy_t and s not in danger
                               for s in range(64)):
                out.append(m)
        elif not attacked(pos, b, ksq, opp):
            out.append(m)
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(play(pos, m), depth - 1) for m in ms.values())


def piece_step(pos, m):
    """Hop Chess: the `place` half-step position after the piece part of m."""
    p = play(pos, m)
    p.turn, p.full = pos.turn, pos.full
    p.tramp = dict(pos.tramp)
    p.state = "place"
    p.ep = (m.orig + m.final) // 2 if m.flag == "double" else None
    return p
