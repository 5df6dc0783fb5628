//! An independent check of Hop Chess and Trampoline Chess move generation.
//!
//! This file re-implements RULINGS.md P1-P9, H1-H10 and T1-T7 the slow and
//! simple way: pieces walk square by square along direction vectors, every
//! path is enumerated (no bitboards, no attack tables, no deduplication
//! tables), attacks are found by asking whether any enemy path captures on
//! the square, and legality by making the move on a plain array board.
//! On random positions its set of legal moves must equal the library's,
//! each library move must carry the canonical path (N3), every move must
//! keep the incremental hash equal to a recomputed one, and Hop Chess's
//! half-steps must add up to its turns.

use proptest::prelude::*;
use springboard_rules::{Color, MoveKind, Piece, Position, Role, Square, Variant};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone)]
struct Brute {
    hop: bool,
    men: [Option<Piece>; 64],
    tramps: [Option<Square>; 2],
    turn: Color,
    castling: [[bool; 2]; 2], // [color][king side]
    ep: Option<Square>,
}

/// A move as the brute force sees it: identity, then the path.
type Id = (u8, Square, Square, Option<Role>, Option<Square>);

fn kind_code(k: MoveKind) -> u8 {
    match k {
        MoveKind::Normal => 0,
        MoveKind::DoubleStep => 1,
        MoveKind::EnPassant => 2,
        MoveKind::Castle => 3,
        MoveKind::Trampoline => 4,
        _ => 9,
    }
}

fn sq(f: i8, r: i8) -> Option<Square> {
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some(Square::ALL[(r * 8 + f) as usize])
    } else {
        None
    }
}

fn fr(s: Square) -> (i8, i8) {
    (s.file().index() as i8, s.rank().index() as i8)
}

const ORTH: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
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

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Any,
    Orth,
    Diag,
}

struct Path {
    kind: MoveKind,
    to: Square,
    promo: Option<Role>,
    via: Vec<Square>,
}

impl Brute {
    fn from_pos(pos: &Position) -> Brute {
        let mut men = [None; 64];
        for s in Square::ALL {
            men[s.index()] = pos.board().piece_at(s);
        }
        let c = pos.castling();
        Brute {
            hop: pos.variant() == Variant::HopChess,
            men,
            tramps: [pos.trampoline(Color::White), pos.trampoline(Color::Black)],
            turn: pos.turn(),
            castling: [
                [c.has(Color::White, true), c.has(Color::White, false)],
                [c.has(Color::Black, true), c.has(Color::Black, false)],
            ],
            ep: pos.ep_square(),
        }
    }

    fn at(&self, s: Square) -> Option<Piece> {
        self.men[s.index()]
    }

    fn is_tramp(&self, s: Square) -> bool {
        self.tramps.contains(&Some(s))
    }

    fn usable(&self, side: Color, s: Square) -> bool {
        if self.hop {
            self.is_tramp(s)
        } else {
            self.tramps[side.index()] == Some(s)
        }
    }

    /// Every path of the piece on `from` (not a king).
    fn paths(&self, from: Square) -> Vec<Path> {
        let mut out = Vec::new();
        let p = self.at(from).expect("a piece");
        if p.role == Role::Pawn {
            self.pawn(from, from, p.color, &mut Vec::new(), &mut out);
        } else {
            self.leg(
                from,
                from,
                p.color,
                p.role,
                Mode::Any,
                None,
                &mut Vec::new(),
                &mut out,
            );
        }
        out
    }

    /// The piece on a square, with the origin vacated (P7).
    fn occupant(&self, origin: Square, s: Square) -> Option<Piece> {
        if s == origin {
            None
        } else {
            self.at(s)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn leg(
        &self,
        origin: Square,
        cur: Square,
        us: Color,
        role: Role,
        mode: Mode,
        promo: Option<Role>,
        via: &mut Vec<Square>,
        out: &mut Vec<Path>,
    ) {
        let (f, r) = fr(cur);
        let land =
            |s: Square, arrived_orth: bool, via: &mut Vec<Square>, out: &mut Vec<Path>| match self
                .occupant(origin, s)
            {
                Some(q) if q.color != us => out.push(Path {
                    kind: MoveKind::Normal,
                    to: s,
                    promo,
                    via: via.clone(),
                }),
                Some(_) => {}
                None if self.is_tramp(s) => {
                    if self.usable(us, s) && !via.contains(&s) {
                        let next = if role == Role::Queen && self.hop && mode == Mode::Any {
                            if arrived_orth {
                                Mode::Orth
                            } else {
                                Mode::Diag
                            }
                        } else {
                            mode
                        };
                        via.push(s);
                        self.leg(origin, s, us, role, next, promo, via, out);
                        via.pop();
                    }
                }
                None => {
                    let back_ok = promo.is_some() && !self.hop;
                    if s != origin || back_ok {
                        out.push(Path {
                            kind: MoveKind::Normal,
                            to: s,
                            promo,
                            via: via.clone(),
                        });
                    }
                }
            };
        if role == Role::Knight {
            for (df, dr) in KNIGHT {
                if let Some(s) = sq(f + df, r + dr) {
                    land(s, false, via, out);
                }
            }
            return;
        }
        let mut dirs: Vec<((i8, i8), bool)> = Vec::new();
        if matches!(role, Role::Rook) || (role == Role::Queen && mode != Mode::Diag) {
            dirs.extend(ORTH.iter().map(|&d| (d, true)));
        }
        if matches!(role, Role::Bishop) || (role == Role::Queen && mode != Mode::Orth) {
            dirs.extend(DIAG.iter().map(|&d| (d, false)));
        }
        for ((df, dr), orth) in dirs {
            let mut k = 1;
            while let Some(s) = sq(f + df * k, r + dr * k) {
                land(s, orth, via, out);
                if self.occupant(origin, s).is_some() {
                    break;
                }
                k += 1;
            }
        }
    }

    fn pawn_lands(
        &self,
        origin: Square,
        t: Square,
        us: Color,
        via: &mut Vec<Square>,
        out: &mut Vec<Path>,
    ) {
        via.push(t);
        let last = if us == Color::White { 7 } else { 0 };
        if fr(t).1 == last {
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.leg(origin, t, us, role, Mode::Any, Some(role), via, out);
            }
        } else {
            self.pawn(origin, t, us, via, out);
        }
        via.pop();
    }

    fn pawn(
        &self,
        origin: Square,
        cur: Square,
        us: Color,
        via: &mut Vec<Square>,
        out: &mut Vec<Path>,
    ) {
        let dir = if us == Color::White { 1 } else { -1 };
        let last = if us == Color::White { 7 } else { 0 };
        let start = if us == Color::White { 1 } else { 6 };
        let (f, r) = fr(cur);
        let push = |out: &mut Vec<Path>, kind, to: Square, via: &Vec<Square>| {
            if fr(to).1 == last {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    out.push(Path {
                        kind,
                        to,
                        promo: Some(role),
                        via: via.clone(),
                    });
                }
            } else {
                out.push(Path {
                    kind,
                    to,
                    promo: None,
                    via: via.clone(),
                });
            }
        };
        if let Some(one) = sq(f, r + dir) {
            if self.occupant(origin, one).is_none() {
                if !self.is_tramp(one) {
                    push(out, MoveKind::Normal, one, via);
                } else if self.usable(us, one) && !via.contains(&one) {
                    self.pawn_lands(origin, one, us, via, out);
                }
                if via.is_empty() && r == start {
                    let two = sq(f, r + 2 * dir).unwrap();
                    if self.occupant(origin, two).is_none() {
                        if !self.is_tramp(two) {
                            out.push(Path {
                                kind: MoveKind::DoubleStep,
                                to: two,
                                promo: None,
                                via: Vec::new(),
                            });
                        } else if self.hop && self.usable(us, two) {
                            self.pawn_lands(origin, two, us, via, out);
                        }
                    }
                }
            }
        }
        for df in [-1, 1] {
            if let Some(s) = sq(f + df, r + dir) {
                if matches!(self.occupant(origin, s), Some(q) if q.color != us) {
                    push(out, MoveKind::Normal, s, via);
                }
                if via.is_empty() && self.ep == Some(s) && !self.is_tramp(s) {
                    out.push(Path {
                        kind: MoveKind::EnPassant,
                        to: s,
                        promo: None,
                        via: Vec::new(),
                    });
                }
            }
        }
    }

    /// P8: whether `by` could capture on `target`.
    fn attacked(&self, target: Square, by: Color) -> bool {
        let mut b = self.clone();
        b.ep = None;
        if b.at(target).is_none() {
            b.men[target.index()] = Some(Piece::new(!by, Role::Pawn));
        }
        for s in Square::ALL {
            let Some(p) = b.at(s) else { continue };
            if p.color != by {
                continue;
            }
            if p.role == Role::King {
                let (f, r) = fr(s);
                let (tf, tr) = fr(target);
                if (f - tf).abs() <= 1 && (r - tr).abs() <= 1 && s != target {
                    return true;
                }
                continue;
            }
            if b.paths(s).iter().any(|p| p.to == target) {
                return true;
            }
        }
        false
    }

    fn king(&self, c: Color) -> Square {
        Square::ALL
            .into_iter()
            .find(|&s| self.at(s) == Some(Piece::new(c, Role::King)))
            .expect("a king")
    }

    fn make(&self, kind: MoveKind, from: Square, to: Square, promo: Option<Role>) -> Brute {
        let mut b = self.clone();
        let p = b.men[from.index()].take().unwrap();
        match kind {
            MoveKind::Castle => {
                let (rf, rt) = if to.file().index() == 6 {
                    (7, 5)
                } else {
                    (0, 3)
                };
                let r = fr(from).1;
                let rook = b.men[sq(rf, r).unwrap().index()].take();
                b.men[sq(rt, r).unwrap().index()] = rook;
                b.men[to.index()] = Some(p);
            }
            MoveKind::EnPassant => {
                let (f, _) = fr(to);
                let (_, r) = fr(from);
                b.men[sq(f, r).unwrap().index()] = None;
                b.men[to.index()] = Some(p);
            }
            _ => {
                b.men[to.index()] = Some(promo.map_or(p, |r| Piece::new(p.color, r)));
            }
        }
        b
    }

    /// Every pseudo-legal piece move (identity without placement) with the
    /// canonical path of each.
    fn piece_moves(&self) -> BTreeMap<Id, Vec<Square>> {
        let us = self.turn;
        let mut out: BTreeMap<Id, Vec<Square>> = BTreeMap::new();
        let key = |via: &Vec<Square>| -> (usize, Vec<String>) {
            (via.len(), via.iter().map(|s| s.to_string()).collect())
        };
        for from in Square::ALL {
            let Some(p) = self.at(from) else { continue };
            if p.color != us {
                continue;
            }
            if p.role == Role::King {
                let (f, r) = fr(from);
                for df in -1..=1 {
                    for dr in -1..=1 {
                        if let Some(s) = sq(f + df, r + dr) {
                            if s != from
                                && !self.is_tramp(s)
                                && !matches!(self.at(s), Some(q) if q.color == us)
                            {
                                out.insert((0, from, s, None, None), Vec::new());
                            }
                        }
                    }
                }
                // Castling (P3, H10, C1).
                let home = if us == Color::White { 0 } else { 7 };
                if from == sq(4, home).unwrap() {
                    for (side, rook_f, king_f, rook_to, cross) in
                        [(0usize, 7, 6, 5, vec![5]), (1, 0, 2, 3, vec![3])]
                    {
                        if !self.castling[us.index()][side] {
                            continue;
                        }
                        let lo = rook_f.min(4) + 1;
                        let hi = rook_f.max(4);
                        let between: Vec<Square> = (lo..hi).map(|f| sq(f, home).unwrap()).collect();
                        if between.iter().any(|&s| self.at(s).is_some()) {
                            continue;
                        }
                        let mut no_tramp = between.clone();
                        no_tramp.push(sq(king_f, home).unwrap());
                        no_tramp.push(sq(rook_to, home).unwrap());
                        if no_tramp.iter().any(|&s| self.is_tramp(s)) {
                            continue;
                        }
                        if self.attacked(from, !us)
                            || cross
                                .iter()
                                .any(|&f| self.attacked(sq(f, home).unwrap(), !us))
                        {
                            continue;
                        }
                        out.insert((3, from, sq(king_f, home).unwrap(), None, None), Vec::new());
                    }
                }
                continue;
            }
            for path in self.paths(from) {
                let id = (kind_code(path.kind), from, path.to, path.promo, None);
                match out.get(&id) {
                    Some(old) if key(old) <= key(&path.via) => {}
                    _ => {
                        out.insert(id, path.via);
                    }
                }
            }
        }
        out
    }

    /// Every legal move (Hop Chess: whole turns) with its canonical path.
    fn legal(&self, first_turn: bool) -> BTreeMap<Id, Vec<Square>> {
        let us = self.turn;
        let mut out = BTreeMap::new();
        for (id, via) in self.piece_moves() {
            let kind = match id.0 {
                0 => MoveKind::Normal,
                1 => MoveKind::DoubleStep,
                2 => MoveKind::EnPassant,
                _ => MoveKind::Castle,
            };
            let after = self.make(kind, id.1, id.2, id.3);
            if !self.hop || first_turn {
                if !after.attacked(after.king(us), !us) {
                    out.insert(id, via);
                }
                continue;
            }
            for s in Square::ALL {
                if after.at(s).is_some() || after.tramps[(!us).index()] == Some(s) {
                    continue;
                }
                let mut placed = after.clone();
                placed.tramps[us.index()] = Some(s);
                if !placed.attacked(placed.king(us), !us) {
                    out.insert((id.0, id.1, id.2, id.3, Some(s)), via.clone());
                }
            }
        }
        if !self.hop && !self.attacked(self.king(us), !us) {
            for s in Square::ALL {
                if self.at(s).is_none() && !self.is_tramp(s) {
                    out.insert((4, s, s, None, None), Vec::new());
                }
            }
        }
        out
    }
}

fn library_moves(pos: &Position) -> BTreeMap<Id, Vec<Square>> {
    let mut out = BTreeMap::new();
    for m in pos.legal_moves() {
        let id = if m.kind() == MoveKind::Trampoline {
            (4, m.to().unwrap(), m.to().unwrap(), None, None)
        } else {
            (
                kind_code(m.kind()),
                m.from().unwrap(),
                m.to().unwrap(),
                m.role(),
                m.place(),
            )
        };
        let old = out.insert(id, m.via().collect::<Vec<_>>());
        assert!(old.is_none(), "{} lists {m:?} twice", pos.to_fen());
    }
    out
}

/// Compares the library with the brute force at `pos`, and checks hashes
/// and Hop Chess half-steps.
fn check(pos: &Position) {
    let fen = pos.to_fen();
    let back = Position::from_fen(pos.variant(), &fen).unwrap();
    assert_eq!(back.to_fen(), fen);
    assert_eq!(back.hash(), pos.hash(), "{fen}");
    assert_eq!(pos.hash(), pos.compute_hash(), "{fen}");
    let lib = library_moves(pos);
    let brute = Brute::from_pos(pos).legal(pos.is_first_turn());
    if lib != brute {
        let only_lib: Vec<_> = lib
            .iter()
            .filter(|(k, v)| brute.get(k) != Some(v))
            .collect();
        let only_brute: Vec<_> = brute
            .iter()
            .filter(|(k, v)| lib.get(k) != Some(v))
            .collect();
        panic!(
            "{fen}\nonly library ({}): {:?}\nonly brute force ({}): {:?}",
            only_lib.len(),
            &only_lib[..only_lib.len().min(8)],
            only_brute.len(),
            &only_brute[..only_brute.len().min(8)]
        );
    }
    assert_eq!(pos.count_legal_moves(), lib.len() as u64, "{fen}");
    let in_check = {
        let b = Brute::from_pos(pos);
        b.attacked(b.king(pos.turn()), !pos.turn())
    };
    assert_eq!(pos.is_check(), in_check, "{fen}");
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(m);
        assert_eq!(next.hash(), next.compute_hash(), "{fen} {m:?}");
    }
    if pos.variant() == Variant::HopChess && !pos.is_first_turn() {
        // The piece steps are exactly the piece parts of the turns, and two
        // steps make the turn.
        let mut steps = Vec::new();
        pos.legal_steps_into(&mut steps);
        let parts: BTreeSet<Id> = lib.keys().map(|k| (k.0, k.1, k.2, k.3, None)).collect();
        let step_ids: BTreeSet<Id> = steps
            .iter()
            .map(|m| {
                (
                    kind_code(m.kind()),
                    m.from().unwrap(),
                    m.to().unwrap(),
                    m.role(),
                    None,
                )
            })
            .collect();
        assert_eq!(parts, step_ids, "{fen}");
        if let Some(&step) = steps.first() {
            let mut half = pos.clone();
            half.play_step(step);
            assert!(half.placement_pending());
            assert_eq!(half.hash(), half.compute_hash());
            let again = Position::from_fen(Variant::HopChess, &half.to_fen()).unwrap();
            assert_eq!(again.hash(), half.hash(), "{}", half.to_fen());
            let mut places = Vec::new();
            half.legal_steps_into(&mut places);
            for p in places {
                let mut whole = pos.clone();
                whole.play(step.with_place(p.to()));
                let mut two = half.clone();
                two.play_step(p);
                assert_eq!(two.to_fen(), whole.to_fen());
                assert_eq!(two.hash(), whole.hash());
            }
        }
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game from the start, checked at every ply.
fn playout(variant: Variant, seed: u64, plies: usize) {
    let mut rng = Rng(seed | 1);
    let mut pos = Position::startpos(variant);
    for _ in 0..plies {
        check(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer piece moves in Trampoline Chess, so that games develop.
        let m = moves[rng.below(moves.len())];
        let m = if m.kind() == MoveKind::Trampoline && rng.below(3) > 0 {
            moves
                .iter()
                .copied()
                .find(|m| m.kind() != MoveKind::Trampoline)
                .unwrap_or(m)
        } else {
            m
        };
        pos.play(m);
    }
}

/// A random sparse position: kings, a few men (pawns near promotion and
/// on their start ranks), trampolines, maybe castling rights.
fn random_position(variant: Variant, seed: u64) -> Option<Position> {
    let mut rng = Rng(seed | 1);
    let mut men: [Option<char>; 64] = [None; 64];
    let put = |rng: &mut Rng, men: &mut [Option<char>; 64], c: char, ranks: (usize, usize)| {
        for _ in 0..20 {
            let s = rng.below(8) + 8 * (ranks.0 + rng.below(ranks.1 - ranks.0 + 1));
            if men[s].is_none() {
                men[s] = Some(c);
                return;
            }
        }
    };
    let castle = rng.below(2) == 0;
    if castle {
        men[4] = Some('K');
        men[7] = Some('R');
        men[0] = Some('R');
        men[60] = Some('k');
        men[63] = Some('r');
        men[56] = Some('r');
    } else {
        put(&mut rng, &mut men, 'K', (0, 7));
        put(&mut rng, &mut men, 'k', (0, 7));
    }
    let n = 2 + rng.below(7);
    for _ in 0..n {
        let c = ['Q', 'R', 'B', 'N', 'P', 'P', 'q', 'r', 'b', 'n', 'p', 'p'][rng.below(12)];
        let ranks = match c {
            'P' => [(1, 1), (5, 6), (1, 6)][rng.below(3)],
            'p' => [(6, 6), (1, 2), (1, 6)][rng.below(3)],
            _ => (0, 7),
        };
        put(&mut rng, &mut men, c, ranks);
    }
    let mut board = String::new();
    for r in (0..8).rev() {
        let mut empty = 0;
        for f in 0..8 {
            match men[r * 8 + f] {
                Some(c) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if r > 0 {
            board.push('/');
        }
    }
    let mut tramp = || loop {
        let s = rng.below(64);
        if men[s].is_none() {
            return Square::ALL[s];
        }
    };
    let (w, b) = (tramp(), tramp());
    if w == b {
        return None;
    }
    let turn = if seed.is_multiple_of(2) { "w" } else { "b" };
    let castling = if castle { "KQkq" } else { "-" };
    let tail = if variant == Variant::HopChess {
        " -"
    } else {
        ""
    };
    let fen = format!("{board} {turn} {castling} - 0 1 {w},{b}{tail}");
    Position::from_fen(variant, &fen).ok()
}

#[test]
fn hop_playouts_match_brute_force() {
    for seed in 1..=6 * u64::from(cases() / 500).max(1) {
        playout(Variant::HopChess, seed * 7919, 24);
    }
}

#[test]
fn trampoline_playouts_match_brute_force() {
    for seed in 1..=20 {
        playout(Variant::Trampoline, seed * 104729, 60);
    }
}

/// Cases per property: 500, or `TRAMPOLINE_CASES` for a longer hunt.
fn cases() -> u32 {
    std::env::var("TRAMPOLINE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_trampoline_positions_match_brute_force(seed in any::<u64>()) {
        if let Some(pos) = random_position(Variant::Trampoline, seed) {
            check(&pos);
        }
    }

    #[test]
    fn random_hop_positions_match_brute_force(seed in any::<u64>()) {
        if let Some(pos) = random_position(Variant::HopChess, seed) {
            check(&pos);
        }
    }
}

/// Perft with the brute force's move counts (the moves to descend are the
/// library's, checked equal to the brute force's at every inner node).
fn brute_perft(pos: &Position, depth: u32) -> u64 {
    let brute = Brute::from_pos(pos).legal(pos.is_first_turn());
    if depth == 1 {
        return brute.len() as u64;
    }
    let lib = library_moves(pos);
    assert_eq!(
        lib.keys().collect::<Vec<_>>(),
        brute.keys().collect::<Vec<_>>()
    );
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m);
            brute_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn brute_force_perft_agrees_with_known_counts() {
    let hop = Position::startpos(Variant::HopChess);
    assert_eq!(brute_perft(&hop, 2), 12788);
    let tramp = Position::startpos(Variant::Trampoline);
    assert_eq!(brute_perft(&tramp, 2), 2652);
    for (variant, fen, depth, nodes) in [
        (
            Variant::Trampoline,
            "8/P3k3/8/3pP3/8/8/2K3p1/8 w - d6 0 1 a8,g1",
            2,
            9589,
        ),
        (
            Variant::Trampoline,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 c4,d6",
            2,
            5882,
        ),
        (
            Variant::HopChess,
            "8/P3k3/8/3pP3/8/8/2K3p1/8 w - d6 0 1 a8,g1 -",
            1,
            2291,
        ),
        (
            Variant::HopChess,
            "r1bqk2r/ppppbp1p/n4P2/8/3Q4/2N5/PPP2PPP/R3KBNR w KQkq - 1 7 e4,c5 -",
            1,
            2169,
        ),
    ] {
        let pos = Position::from_fen(variant, fen).unwrap();
        assert_eq!(brute_perft(&pos, depth), nodes, "{fen}");
    }
}
