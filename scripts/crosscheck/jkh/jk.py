"""Independent move generator for `jumpingking` (RULINGS C, J1-J10, N6).

Written from RULINGS.md and docs/rules/jumpingking.md (position text and the
documented decisions where RULINGS.md is silent). Squares are indices of the
8x8 grid, index = rank * 8 + file (a1 = 0); only the 38 squares of J1 exist.
Board: list of 64 chars, '.' empty, upper case White, lower case Black.
"""

FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]

A1, F8 = 0, 61
WEAK = {"w": A1, "b": F8}                      # J3: a side's own weak square
AREA = {"w": (1, 2, 3), "b": (4, 5, 6)}        # J4: rank indices (ranks 2-4 / 5-7)
LAST_RANK = {"w": 6, "b": 1}                   # J9: rank 7 for White, 2 for Black
START_MEN = "RRBBNNPPP"


def valid(f, r):
    """J1: a2-f7 plus a1 and f8."""
    if 0 <= f <= 5 and 1 <= r <= 6:
        return True
    return (f, r) in ((0, 0), (5, 7))


SQUARES = [r * 8 + f for r in range(8) for f in range(8) if valid(f, r)]


def sqname(s):
    return FILES[s % 8] + str(s // 8 + 1)


def color_of(p):
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


class Position:
    def __init__(self, board, stm, unplaced, jumping, half=0, full=1):
        self.board = board
        self.stm = stm
        self.unplaced = unplaced    # {'w': 'RRB..' (upper), 'b': 'rr..' (lower)}
        self.jumping = jumping      # {'w': bool, 'b': bool}
        self.half = half
        self.full = full

    @classmethod
    def from_fen(cls, fen):
        parts = fen.split()
        placement, rest = parts[0].split("[")
        men = rest.rstrip("]")
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
        unplaced = {"w": "".join(c for c in men if c.isupper()),
                    "b": "".join(c for c in men if c.islower())}
        phase = parts[2] if len(parts) > 2 else "-"
        jumping = {"w": "J" in phase, "b": "j" in phase}
        half = int(parts[3]) if len(parts) > 3 else 0
        full = int(parts[4]) if len(parts) > 4 else 1
        return cls(board, parts[1], unplaced, jumping, half, full)

    def copy(self):
        return Position(self.board[:], self.stm, dict(self.unplaced),
                        dict(self.jumping), self.half, self.full)

    def king_sq(self, c):
        return self.board.index("K" if c == "w" else "k")

    def game_won(self):
        """J3: a man stands on its opponent's weak square: the game is over."""
        a, f = self.board[A1], self.board[F8]
        return (a != "." and color_of(a) == "b") or (f != "." and color_of(f) == "w")

    # ------------------------------------------------------------ attacks
    def attacked(self, sq, by):
        """Is `sq` attacked by side `by`? A jumping king attacks nothing (J4)."""
        b = self.board
        f0, r0 = sq % 8, sq // 8
        P, N, B, R, K = ("PNBRK" if by == "w" else "pnbrk")
        dr = -1 if by == "w" else 1
        for df in (-1, 1):
            f, r = f0 + df, r0 + dr
            if valid(f, r) and b[r * 8 + f] == P:
                return True
        for dx, dy in KNIGHT:
            f, r = f0 + dx, r0 + dy
            if valid(f, r) and b[r * 8 + f] == N:
                return True
        if not self.jumping[by]:
            for dx, dy in KING:
                f, r = f0 + dx, r0 + dy
                if valid(f, r) and b[r * 8 + f] == K:
                    return True
        for dirs, piece in ((ROOK_DIRS, R), (BISHOP_DIRS, B)):
            for dx, dy in dirs:
                f, r = f0 + dx, r0 + dy
                while valid(f, r):
                    t = b[r * 8 + f]
                    if t != ".":
                        if t == piece:
                            return True
                        break
                    f, r = f + dx, r + dy
        return False

    def king_attacked(self, c):
        return self.attacked(self.king_sq(c), other(c))

    # ------------------------------------------------------------ moves
    # Moves: ('jump', frm, to, man) man '' or letter in the side's case;
    #        ('pass',), ('n', frm, to, promo) promo '' or 'r'/'b'/'n'.
    def jumps(self):
        me = self.stm
        b = self.board
        k = self.king_sq(me)
        first = k == WEAK[me]              # decision: the first jump places nothing
        men = sorted(set(self.unplaced[me]))
        out = []
        f0, r0 = k % 8, k // 8
        for dx, dy in KNIGHT:
            f, r = f0 + dx, r0 + dy
            if not valid(f, r) or r not in AREA[me] or b[r * 8 + f] != ".":
                continue
            to = r * 8 + f
            if first:
                out.append(("jump", k, to, ""))
                continue
            for man in men:
                if man.upper() == "B":
                    col = (f0 + r0) % 2        # J5: bishops on different colours
                    bis = "B" if me == "w" else "b"
                    if any(b[s] == bis and (s % 8 + s // 8) % 2 == col for s in SQUARES):
                        continue
                m = ("jump", k, to, man)
                if len(self.unplaced[me]) == 1:
                    # J7: the jump that places the ninth (last) man must leave it safe
                    if self.make(m).king_attacked(me):
                        continue
                out.append(m)
        return out

    def begin_turn(self):
        """J6: a jumping king with no legal jump at the start of its turn is stuck.
        Returns (position with the stuck rule applied, its jumps)."""
        if self.jumping[self.stm]:
            js = self.jumps()
            if js:
                return self, js
            n = self.copy()
            n.jumping[self.stm] = False
            return n, None
        return self, None

    def legal_moves(self):
        if self.game_won():
            return []
        pos, js = self.begin_turn()
        if js is not None:
            return js
        me = pos.stm
        if pos.jumping[other(me)]:
            # J6 / decision: a side whose phase is over waits (passes) while the other jumps
            return [] if pos.king_attacked(me) else [("pass",)]
        out = []
        for m in pos.pseudo_moves():
            if not pos.make(m).king_attacked(me):
                out.append(m)
        return out

    def pseudo_moves(self):
        b = self.board
        me = self.stm
        moves = []
        for s in SQUARES:
            p = b[s]
            if p == "." or color_of(p) != me:
                continue
            f0, r0 = s % 8, s // 8
            u = p.upper()
            cands = []
            if u == "P":
                dr = 1 if me == "w" else -1
                if valid(f0, r0 + dr) and b[(r0 + dr) * 8 + f0] == ".":
                    cands.append((r0 + dr) * 8 + f0)
                for df in (-1, 1):
                    f, r = f0 + df, r0 + dr
                    if valid(f, r):
                        t = b[r * 8 + f]
                        if t != "." and color_of(t) != me:
                            cands.append(r * 8 + f)
            elif u in "NK":
                for dx, dy in (KNIGHT if u == "N" else KING):
                    f, r = f0 + dx, r0 + dy
                    if valid(f, r):
                        t = b[r * 8 + f]
                        if t == "." or color_of(t) != me:
                            cands.append(r * 8 + f)
            else:
                for dx, dy in (ROOK_DIRS if u == "R" else BISHOP_DIRS):
                    f, r = f0 + dx, r0 + dy
                    while valid(f, r):
                        t = b[r * 8 + f]
                        if t == "." or color_of(t) != me:
                            cands.append(r * 8 + f)
                        if t != ".":
                            break
                        f, r = f + dx, r + dy
            for to in cands:
                if to == WEAK[me]:
                    continue                    # J3: never enter one's own weak square
                if b[to] in "Kk":
                    continue                    # decision: kings are never captured
                moves.append(("n", s, to, ""))
                if u == "P" and to // 8 == LAST_RANK[me]:
                    # J9: optional promotion, pool = 4 - men of that kind on the board
                    captured = b[to].upper()
                    for kind in "RBN":
                        on_board = sum(1 for q in SQUARES if b[q].upper() == kind)
                        if captured == kind:
                            on_board -= 1
                        if on_board < 4:
                            moves.append(("n", s, to, kind.lower()))
        return moves

    def make(self, m):
        n = self.copy()
        me = self.stm
        b = n.board
        if m[0] == "jump":
            _, frm, to, man = m
            b[to] = b[frm]
            b[frm] = man if man else "."
            if man:
                n.unplaced[me] = n.unplaced[me].replace(man, "", 1)
                if not n.unplaced[me]:
                    n.jumping[me] = False     # J6: all men placed
            n.half += 1
        elif m[0] == "pass":
            n.jumping[me] = False
            n.half += 1
        else:
            _, frm, to, promo = m
            p = b[frm]
            n.half = 0 if (b[to] != "." or p in "Pp") else n.half + 1
            b[to] = p
            b[frm] = "."
            if promo:
                b[to] = promo.upper() if me == "w" else promo
        if me == "b":
            n.full += 1
        n.stm = other(me)
        return n

    def play(self, m):
        """Play a move of legal_moves() (the stuck rule applied first)."""
        return self.begin_turn()[0].make(m)

    @staticmethod
    def move_str(m):
        if m[0] == "pass":
            return "0000"
        if m[0] == "jump":
            return sqname(m[1]) + sqname(m[2]) + m[3].lower()
        return sqname(m[1]) + sqname(m[2]) + m[3]

    def legal_strs(self):
        return {self.move_str(m): m for m in self.legal_moves()}

    def key(self):
        """Comparable summary (stuck rule applied, as Springboard writes texts)."""
        pos = self if self.game_won() else self.begin_turn()[0]
        rows = ["".join(pos.board[r * 8:(r + 1) * 8]) for r in range(7, -1, -1)]
        phase = ("J" if pos.jumping["w"] else "") + ("j" if pos.jumping["b"] else "")
        return ("/".join(rows), "".join(sorted(pos.unplaced["w"])),
                "".join(sorted(pos.unplaced["b"])), pos.stm, phase or "-")

    def perft(self, depth):
        if depth == 0:
            return 1
        ms = self.legal_moves()
        if depth == 1:
            return len(ms)
        return sum(self.play(m).perft(depth - 1) for m in ms)
