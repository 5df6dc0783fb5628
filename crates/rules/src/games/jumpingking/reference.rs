//! A slow, independent implementation of rulings J1-J10 for the tests: a
//! mailbox, squares tested one by one, rays walked step by step, every
//! candidate move made and the king tested. It shares no code with the
//! generator it checks (only the square, piece and move types).

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};

const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
const MEN: [Role; 4] = [Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// J1: a2-f7, a1 and f8.
fn exists(sq: Square) -> bool {
    let (f, r) = (sq.file().index(), sq.rank().index());
    (f < 6 && (1..=6).contains(&r)) || sq == Square::A1 || sq == Square::F8
}

fn step(sq: Square, d: (i8, i8)) -> Option<Square> {
    sq.offset(d.0, d.1).filter(|&t| exists(t))
}

fn weak(c: Color) -> Square {
    if c == Color::White {
        Square::A1
    } else {
        Square::F8
    }
}

fn in_area(c: Color, sq: Square) -> bool {
    let r = sq.rank().index();
    exists(sq)
        && if c == Color::White {
            (1..=3).contains(&r)
        } else {
            (4..=6).contains(&r)
        }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Ref {
    pub sq: [Option<Piece>; 64],
    pub turn: Color,
    pub jumping: [bool; 2],
    pub res: [[u8; 7]; 2],
}

impl Ref {
    pub fn from_position(pos: &Position) -> Ref {
        let mut sq = [None; 64];
        for s in Square::ALL {
            sq[s.index()] = pos.board().piece_at(s);
        }
        let mut res = [[0; 7]; 2];
        for c in Color::ALL {
            for r in MEN {
                res[c.index()][r.index()] = pos.reserve(c, r);
            }
        }
        Ref {
            sq,
            turn: pos.turn(),
            jumping: [pos.is_jumping(Color::White), pos.is_jumping(Color::Black)],
            res,
        }
    }

    fn at(&self, s: Square) -> Option<Piece> {
        self.sq[s.index()]
    }

    fn king(&self, c: Color) -> Square {
        Square::ALL
            .into_iter()
            .find(|&s| self.at(s) == Some(Piece::new(c, Role::King)))
            .expect("a king")
    }

    fn total(&self, c: Color) -> u8 {
        self.res[c.index()].iter().sum()
    }

    fn slides(&self, from: Square, to: Square, dirs: &[(i8, i8)]) -> bool {
        for &d in dirs {
            let mut cur = from;
            while let Some(t) = step(cur, d) {
                if t == to {
                    return true;
                }
                if self.at(t).is_some() {
                    break;
                }
                cur = t;
            }
        }
        false
    }

    /// Whether the piece on `from` attacks `to`.
    fn attacks(&self, from: Square, to: Square) -> bool {
        let Some(p) = self.at(from) else {
            return false;
        };
        match p.role {
            Role::Pawn => [(-1, 1), (1, 1)].iter().any(|&(df, dr)| {
                step(from, (df, if p.color == Color::White { dr } else { -dr })) == Some(to)
            }),
            Role::Knight => KNIGHT.iter().any(|&d| step(from, d) == Some(to)),
            Role::King => {
                !self.jumping[p.color.index()] && KING.iter().any(|&d| step(from, d) == Some(to))
            }
            Role::Bishop => self.slides(from, to, &BISHOP),
            Role::Rook => self.slides(from, to, &ROOK),
            Role::Queen => self.slides(from, to, &BISHOP) || self.slides(from, to, &ROOK),
            Role::Hoplit => false,
        }
    }

    fn attacked(&self, sq: Square, by: Color) -> bool {
        Square::ALL
            .into_iter()
            .any(|s| self.at(s).is_some_and(|p| p.color == by) && self.attacks(s, sq))
    }

    fn jumps(&self) -> Vec<Move> {
        let us = self.turn;
        let k = self.king(us);
        let mut out = Vec::new();
        for d in KNIGHT {
            let Some(t) = step(k, d) else { continue };
            if !in_area(us, t) || self.at(t).is_some() {
                continue;
            }
            if k == weak(us) {
                out.push(Move::jump(k, t, None));
                continue;
            }
            for role in MEN {
                if self.res[us.index()][role.index()] == 0 {
                    continue;
                }
                if role == Role::Bishop
                    && Square::ALL.into_iter().any(|s| {
                        self.at(s) == Some(Piece::new(us, Role::Bishop))
                            && s.is_light() == k.is_light()
                    })
                {
                    continue;
                }
                let m = Move::jump(k, t, Some(role));
                if self.total(us) == 1 {
                    let after = self.raw(m);
                    if after.attacked(t, !us) {
                        continue;
                    }
                }
                out.push(m);
            }
        }
        out
    }

    fn fide(&self) -> Vec<Move> {
        let us = self.turn;
        let mut pseudo = Vec::new();
        for from in Square::ALL {
            let Some(p) = self.at(from) else { continue };
            if p.color != us {
                continue;
            }
            let free = |t: Square| self.at(t).is_none_or(|q| q.color != us);
            let mut tos = Vec::new();
            match p.role {
                Role::Pawn => {
                    let dr = if us == Color::White { 1 } else { -1 };
                    if let Some(t) = step(from, (0, dr)) {
                        if self.at(t).is_none() {
                            tos.push(t);
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = step(from, (df, dr)) {
                            if self.at(t).is_some_and(|q| q.color != us) {
                                tos.push(t);
                            }
                        }
                    }
                }
                Role::Knight | Role::King => {
                    let dirs = if p.role == Role::Knight { KNIGHT } else { KING };
                    tos.extend(
                        dirs.iter()
                            .filter_map(|&d| step(from, d))
                            .filter(|&t| free(t)),
                    );
                }
                _ => {
                    let mut dirs = Vec::new();
                    if matches!(p.role, Role::Rook | Role::Queen) {
                        dirs.extend(ROOK);
                    }
                    if matches!(p.role, Role::Bishop | Role::Queen) {
                        dirs.extend(BISHOP);
                    }
                    for d in dirs {
                        let mut cur = from;
                        while let Some(t) = step(cur, d) {
                            if free(t) {
                                tos.push(t);
                            }
                            if self.at(t).is_some() {
                                break;
                            }
                            cur = t;
                        }
                    }
                }
            }
            for to in tos {
                // Kings are never captured.
                if to == weak(us) || self.at(to) == Some(Piece::new(!us, Role::King)) {
                    continue;
                }
                pseudo.push(Move::normal(from, to));
                let last = if us == Color::White { 6 } else { 1 };
                if p.role == Role::Pawn && to.rank().index() == last {
                    for role in [Role::Rook, Role::Bishop, Role::Knight] {
                        let on_board = Square::ALL
                            .into_iter()
                            .filter(|&s| s != to && self.at(s).is_some_and(|q| q.role == role))
                            .count();
                        if on_board < 4 {
                            pseudo.push(Move::promotion(from, to, role));
                        }
                    }
                }
            }
        }
        pseudo
            .into_iter()
            .filter(|&m| {
                let after = self.raw(m);
                !after.attacked(after.king(us), !us)
            })
            .collect()
    }

    /// The legal moves.
    pub fn moves(&self) -> Vec<Move> {
        let us = self.turn;
        if self.at(weak(us)).is_some_and(|p| p.color != us) {
            return Vec::new();
        }
        if self.jumping[us.index()] {
            let j = self.jumps();
            if !j.is_empty() {
                return j;
            }
        }
        if self.jumping[!us as usize] {
            let mut me = self.clone();
            me.jumping[us.index()] = false;
            return if me.attacked(me.king(us), !us) {
                Vec::new()
            } else {
                vec![Move::pass()]
            };
        }
        let mut me = self.clone();
        me.jumping[us.index()] = false;
        me.fide()
    }

    /// The board after the move, same side to move.
    fn raw(&self, m: Move) -> Ref {
        let mut n = self.clone();
        let us = self.turn;
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Jump => {
                let (from, to) = (m.from().unwrap(), m.to().unwrap());
                n.sq[to.index()] = n.sq[from.index()].take();
                if let Some(r) = m.role() {
                    n.sq[from.index()] = Some(Piece::new(us, r));
                    n.res[us.index()][r.index()] -= 1;
                    if n.total(us) == 0 {
                        n.jumping[us.index()] = false;
                    }
                }
            }
            _ => {
                let (from, to) = (m.from().unwrap(), m.to().unwrap());
                let p = n.sq[from.index()].take().unwrap();
                n.sq[to.index()] = Some(match m.role() {
                    Some(r) => Piece::new(us, r),
                    None => p,
                });
            }
        }
        n
    }

    pub fn play(&self, m: Move) -> Ref {
        let mut n = self.raw(m);
        n.turn = !n.turn;
        let us = n.turn;
        if n.jumping[us.index()] && n.jumps().is_empty() {
            n.jumping[us.index()] = false;
        }
        n
    }

    pub fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }
}
