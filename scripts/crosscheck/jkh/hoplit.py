"""Independent move generator for `chess` and `hoplit` (RULINGS C1, L1-L5, N1, N6).

Written from RULINGS.md and docs/rules/hoplit.md only (position text format and
the castling decision). Squares are 0..63, index = rank * 8 + file (a1 = 0).
Board: list of 64 one-letter strings, '.' empty, upper case White, lower case Black.
"""

FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def sqname(s):
    return FILES[s % 8] + str(s // 8 + 1)


def parse_sq(t):
    return (int(t[1]) - 1) * 8 + FILES.index(t[0])


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def color_of(p):
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


class Position:
    def __init__(self, board, stm, castling, ep, reserve, half=0, full=1):
        self.board = board          # list of 64 chars
        self.stm = stm              # 'w' or 'b'
        self.castling = castling    # str subset of 'KQkq'
        self.ep = ep                # square index or None
        self.reserve = reserve      # str subset of 'Hh'
        self.half = half
        self.full = full

    @classmethod
    def from_fen(cls, fen):
        parts = fen.split()
        placement = parts[0]
        reserve = ""
        if "[" in placement:
            placement, rest = placement.split("[")
            reserve = rest.rstrip("]")
        board = ["."] * 64
        for i, row in enumerate(placement.split("/")):
            r = 7 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    board[r * 8 + f] = ch
                    f += 1
        stm = parts[1]
        castling = "" if parts[2] == "-" else parts[2]
        ep = None if parts[3] == "-" else parse_sq(parts[3])
        half = int(parts[4]) if len(parts) > 4 else 0
        full = int(parts[5]) if len(parts) > 5 else 1
        return cls(board, stm, castling, ep, reserve, half, full)

    def copy(self):
        return type(self)(self.board[:], self.stm, self.castling, self.ep,
                        self.reserve, self.half, self.full)

    def king_sq(self, c):
        k = "K" if c == "w" else "k"
        return self.board.index(k) if k in self.board else None

    # ------------------------------------------------------------ attacks
    def hoplit_targets(self, frm):
        """Squares the Hoplit on `frm` may move to or capture on (L2, L3).
        Includes squares holding friendly pieces? No: only empty or enemy."""
        b = self.board
        me = color_of(b[frm])
        out = set()
        f0, r0 = frm % 8, frm // 8
        for dx, dy in BISHOP_DIRS:
            f, r = f0 + dx, r0 + dy
            while on(f, r) and b[r * 8 + f] == ".":
                # (f, r) is a turning square; legs continuing outward
                for lx, ly in ((dx, 0), (0, dy)):
                    g, s = f + lx, r + ly
                    while on(g, s) and b[s * 8 + g] == ".":
                        g, s = g + lx, s + ly
                    if not on(g, s):
                        continue  # no screen
                    screen = b[s * 8 + g]
                    enemy_pawn = screen in "Pp" and color_of(screen) != me
                    g, s = g + lx, s + ly
                    while on(g, s):
                        t = b[s * 8 + g]
                        if t == ".":
                            out.add(s * 8 + g)
                        else:
                            if color_of(t) != me:
                                out.add(s * 8 + g)
                            break
                        if enemy_pawn:
                            break  # L3: only the square directly behind
                        g, s = g + lx, s + ly
                f, r = f + dx, r + dy
        return out

    def attacked(self, sq, by):
        """Is square `sq` attacked by side `by` (could capture there)."""
        b = self.board
        f0, r0 = sq % 8, sq // 8
        up = by == "w"
        P, N, B, R, Q, K, H = ("PNBRQKH" if up else "pnbrqkh")
        # pawns
        dr = -1 if by == "w" else 1
        for df in (-1, 1):
            f, r = f0 + df, r0 + dr
            if on(f, r) and b[r * 8 + f] == P:
                return True
        for dx, dy in KNIGHT:
            f, r = f0 + dx, r0 + dy
            if on(f, r) and b[r * 8 + f] == N:
                return True
        for dx, dy in KING:
            f, r = f0 + dx, r0 + dy
            if on(f, r) and b[r * 8 + f] == K:
                return True
        for dirs, pieces in ((ROOK_DIRS, (R, Q)), (BISHOP_DIRS, (B, Q))):
            for dx, dy in dirs:
                f, r = f0 + dx, r0 + dy
                while on(f, r):
                    t = b[r * 8 + f]
                    if t != ".":
                        if t in pieces:
                            return True
                        break
                    f, r = f + dx, r + dy
        for s in range(64):
            if b[s] == H and sq in self.hoplit_targets(s):
                return True
        return False

    def in_check(self, c):
        k = self.king_sq(c)
        return k is not None and self.attacked(k, other(c))

    # ------------------------------------------------------------ moves
    # A move is a tuple (kind, frm, to, promo): kind 'n' normal, 'ep', 'castle', 'drop'.
    def pseudo_moves(self):
        b = self.board
        me = self.stm
        moves = []
        promos = "qrbnh" if self.variant_hoplit else "qrbn"
        for s in range(64):
            p = b[s]
            if p == "." or color_of(p) != me:
                continue
            f0, r0 = s % 8, s // 8
            u = p.upper()
            if u == "P":
                dr = 1 if me == "w" else -1
                last = 7 if me == "w" else 0
                start = 1 if me == "w" else 6
                targets = []
                t = s + 8 * dr
                if b[t] == ".":
                    targets.append(t)
                    if r0 == start and b[t + 8 * dr] == ".":
                        moves.append(("n", s, t + 8 * dr, ""))
                for df in (-1, 1):
                    f = f0 + df
                    if 0 <= f < 8:
                        t = (r0 + dr) * 8 + f
                        if b[t] != "." and color_of(b[t]) != me:
                            targets.append(t)
                        elif t == self.ep and b[t] == ".":
                            moves.append(("ep", s, t, ""))
                for t in targets:
                    if t // 8 == last:
                        for pr in promos:
                            moves.append(("n", s, t, pr))
                    else:
                        moves.append(("n", s, t, ""))
            elif u in "NK":
                for dx, dy in (KNIGHT if u == "N" else KING):
                    f, r = f0 + dx, r0 + dy
                    if on(f, r):
                        t = r * 8 + f
                        if b[t] == "." or color_of(b[t]) != me:
                            moves.append(("n", s, t, ""))
            elif u in "BRQ":
                dirs = {"B": BISHOP_DIRS, "R": ROOK_DIRS, "Q": BISHOP_DIRS + ROOK_DIRS}[u]
                for dx, dy in dirs:
                    f, r = f0 + dx, r0 + dy
                    while on(f, r):
                        t = r * 8 + f
                        if b[t] == ".":
                            moves.append(("n", s, t, ""))
                        else:
                            if color_of(b[t]) != me:
                                moves.append(("n", s, t, ""))
                            break
                        f, r = f + dx, r + dy
            elif u == "H":
                for t in sorted(self.hoplit_targets(s)):
                    moves.append(("n", s, t, ""))
        # castling (C1; hoplit.md decision: crossed square judged before the move)
        home = 0 if me == "w" else 56
        kc, qc = ("K", "Q") if me == "w" else ("k", "q")
        ks = home + 4
        kp = "K" if me == "w" else "k"
        rp = "R" if me == "w" else "r"
        if b[ks] == kp:
            opp = other(me)
            if kc in self.castling and b[home + 7] == rp and b[home + 5] == "." and b[home + 6] == ".":
                if not self.attacked(ks, opp) and not self.attacked(home + 5, opp):
                    moves.append(("castle", ks, home + 6, ""))
            if qc in self.castling and b[home] == rp and b[home + 1] == "." and b[home + 2] == "." and b[home + 3] == ".":
                if not self.attacked(ks, opp) and not self.attacked(home + 3, opp):
                    moves.append(("castle", ks, home + 2, ""))
        # Hoplit drop (L4)
        H = "H" if me == "w" else "h"
        if H in self.reserve:
            dr = 1 if me == "w" else -1
            pawn = "P" if me == "w" else "p"
            for f in range(8):
                d = home + f
                if b[d] == "." and b[d + 8 * dr] == pawn and b[d + 16 * dr] == ".":
                    moves.append(("drop", d, d, "h"))
        return moves

    variant_hoplit = True

    def make(self, m):
        kind, frm, to, promo = m
        n = self.copy()
        b = n.board
        me = self.stm
        n.ep = None
        reset = False
        if kind == "drop":
            dr = 8 if me == "w" else -8
            pawn = b[frm + dr]
            b[frm + dr] = "."
            b[frm + 2 * dr] = pawn
            b[frm] = "H" if me == "w" else "h"
            n.reserve = n.reserve.replace(b[frm], "")
            reset = True
        else:
            p = b[frm]
            if b[to] != "." or p in "Pp":
                reset = True
            if kind == "ep":
                b[to + (-8 if me == "w" else 8)] = "."
            if kind == "castle":
                if to % 8 == 6:
                    b[to - 1] = b[to + 1]
                    b[to + 1] = "."
                else:
                    b[to + 1] = b[to - 2]
                    b[to - 2] = "."
            b[to] = p
            b[frm] = "."
            if promo:
                b[to] = promo.upper() if me == "w" else promo
            if p in "Pp" and abs(to - frm) == 16:
                n.ep = (to + frm) // 2
        # castling rights: any move from/to a corner or king square
        rights = n.castling
        for sq, lost in ((4, "KQ"), (60, "kq"), (0, "Q"), (7, "K"), (56, "q"), (63, "k")):
            if (kind != "drop" and (frm == sq or to == sq)):
                for ch in lost:
                    rights = rights.replace(ch, "")
        n.castling = rights
        n.half = 0 if reset else self.half + 1
        if me == "b":
            n.full += 1
        n.stm = other(me)
        return n

    def play(self, m):
        return self.make(m)

    def legal_moves(self):
        out = []
        for m in self.pseudo_moves():
            n = self.make(m)
            if not n.in_check(self.stm):
                out.append(m)
        return out

    @staticmethod
    def move_str(m):
        kind, frm, to, promo = m
        if kind == "drop":
            return "H@" + sqname(frm)
        return sqname(frm) + sqname(to) + promo

    def legal_strs(self):
        return {self.move_str(m): m for m in self.legal_moves()}

    def key(self):
        """Comparable summary: placement, reserve, side, castling, ep if an ep capture is legal."""
        ep = "-"
        if self.ep is not None and any(m[0] == "ep" for m in self.legal_moves()):
            ep = sqname(self.ep)
        rows = []
        for r in range(7, -1, -1):
            rows.append("".join(self.board[r * 8:(r + 1) * 8]))
        return "/".join(rows), "".join(sorted(self.reserve)), self.stm, "".join(sorted(self.castling)) or "-", ep

    def perft(self, depth):
        if depth == 0:
            return 1
        ms = self.legal_moves()
        if depth == 1:
            return len(ms)
        return sum(self.make(m).perft(depth - 1) for m in ms)


class ChessPosition(Position):
    variant_hoplit = False
