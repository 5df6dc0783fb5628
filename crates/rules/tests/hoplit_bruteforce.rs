//! An independent brute-force implementation of Hoplit Chess (RULINGS C1,
//! L1-L5), written from the rulings on a plain 64-square array: it makes
//! every pseudo-legal move and keeps those after which the mover's king is
//! not attacked by any enemy capture (Hoplits included). The rules core must
//! agree with it move for move on random playouts and in perft.

use proptest::prelude::*;
use springboard_rules::notation::uci::to_uci;
use springboard_rules::perft::perft;
use springboard_rules::{Color, Position, Role, Square, Variant};
use std::collections::BTreeSet;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Man {
    white: bool,
    role: char, // p n b r q k h
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Normal,
    Double,
    EnPassant,
    Castle,
    Drop,
}

#[derive(Clone, Copy, Debug)]
struct NMove {
    kind: Kind,
    from: usize,
    to: usize,
    promo: Option<char>,
}

fn name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

impl NMove {
    fn uci(&self) -> String {
        match self.kind {
            Kind::Drop => format!("H@{}", name(self.to)),
            _ => {
                let mut s = format!("{}{}", name(self.from), name(self.to));
                if let Some(p) = self.promo {
                    s.push(p);
                }
                s
            }
        }
    }
}

#[derive(Clone)]
struct Naive {
    sq: [Option<Man>; 64],
    white: bool,
    /// K, Q, k, q.
    castle: [bool; 4],
    ep: Option<usize>,
    reserve: [u8; 2],
}

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

impl Naive {
    fn from_position(pos: &Position) -> Naive {
        let mut sq = [None; 64];
        for (i, s) in sq.iter_mut().enumerate() {
            *s = pos.board().piece_at(Square::ALL[i]).map(|p| Man {
                white: p.color == Color::White,
                role: p.role.char(),
            });
        }
        let c = pos.castling();
        Naive {
            sq,
            white: pos.turn() == Color::White,
            castle: [
                c.has(Color::White, true),
                c.has(Color::White, false),
                c.has(Color::Black, true),
                c.has(Color::Black, false),
            ],
            ep: pos.ep_square().map(|s| s.index()),
            reserve: [
                pos.reserve(Color::White, Role::Hoplit),
                pos.reserve(Color::Black, Role::Hoplit),
            ],
        }
    }

    /// Squares a piece on `s` could capture on (attack), pawns diagonally.
    fn targets(&self, s: usize) -> Vec<usize> {
        let man = self.sq[s].expect("a piece");
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut out = Vec::new();
        let free_or_enemy = |t: usize| -> bool { self.sq[t].is_none_or(|m| m.white != man.white) };
        let slide = |dirs: &[(i32, i32)], out: &mut Vec<usize>| {
            for &(df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(t) = at(x, y) {
                    if free_or_enemy(t) {
                        out.push(t);
                    }
                    if self.sq[t].is_some() {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        };
        const ORTHO: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
        match man.role {
            'p' => {
                let dr = if man.white { 1 } else { -1 };
                for df in [-1, 1] {
                    if let Some(t) = at(f + df, r + dr) {
                        out.push(t);
                    }
                }
            }
            'n' => {
                for (df, dr) in [
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ] {
                    if let Some(t) = at(f + df, r + dr) {
                        if free_or_enemy(t) {
                            out.push(t);
                        }
                    }
                }
            }
            'k' => {
                for (df, dr) in ORTHO.iter().chain(DIAG.iter()) {
                    if let Some(t) = at(f + df, r + dr) {
                        if free_or_enemy(t) {
                            out.push(t);
                        }
                    }
                }
            }
            'b' => slide(&DIAG, &mut out),
            'r' => slide(&ORTHO, &mut out),
            'q' => {
                slide(&DIAG, &mut out);
                slide(&ORTHO, &mut out);
            }
            'h' => {
                // L2: diagonal slide over empty squares (at least one),
                // turn outward, slide to a screen, jump it, land beyond.
                for (dx, dy) in DIAG {
                    let (mut x, mut y) = (f + dx, r + dy);
                    while let Some(t) = at(x, y) {
                        if self.sq[t].is_some() {
                            break;
                        }
                        for (ox, oy) in [(dx, 0), (0, dy)] {
                            let (mut a, mut b) = (x + ox, y + oy);
                            let mut screen = None;
                            while let Some(u) = at(a, b) {
                                if self.sq[u].is_some() {
                                    screen = Some(u);
                                    break;
                                }
                                a += ox;
                                b += oy;
                            }
                            let Some(p) = screen else { continue };
                            let pm = self.sq[p].expect("screen");
                            let (mut a, mut b) = (a + ox, b + oy);
                            if pm.role == 'p' && pm.white != man.white {
                                // L3: only the square directly behind.
                                if let Some(u) = at(a, b) {
                                    if free_or_enemy(u) {
                                        out.push(u);
                                    }
                                }
                                continue;
                            }
                            while let Some(u) = at(a, b) {
                                if free_or_enemy(u) {
                                    out.push(u);
                                }
                                if self.sq[u].is_some() {
                                    break;
                                }
                                a += ox;
                                b += oy;
                            }
                        }
                        x += dx;
                        y += dy;
                    }
                }
            }
            other => panic!("unknown role {other}"),
        }
        out
    }

    fn attacked(&self, s: usize, by_white: bool) -> bool {
        (0..64).any(|i| {
            matches!(self.sq[i], Some(m) if m.white == by_white) && self.targets(i).contains(&s)
        })
    }

    fn king(&self, white: bool) -> usize {
        (0..64)
            .find(|&i| self.sq[i] == Some(Man { white, role: 'k' }))
            .expect("a king")
    }

    fn pseudo(&self) -> Vec<NMove> {
        let us = self.white;
        let mut out = Vec::new();
        let up: i32 = if us { 1 } else { -1 };
        let last = if us { 7 } else { 0 };
        let push_pawn = |out: &mut Vec<NMove>, from: usize, to: usize| {
            if (to / 8) as i32 == last {
                for p in ['q', 'r', 'b', 'n', 'h'] {
                    out.push(NMove {
                        kind: Kind::Normal,
                        from,
                        to,
                        promo: Some(p),
                    });
                }
            } else {
                out.push(NMove {
                    kind: Kind::Normal,
                    from,
                    to,
                    promo: None,
                });
            }
        };
        for s in 0..64 {
            let Some(m) = self.sq[s] else { continue };
            if m.white != us {
                continue;
            }
            let (f, r) = ((s % 8) as i32, (s / 8) as i32);
            if m.role == 'p' {
                if let Some(t) = at(f, r + up) {
                    if self.sq[t].is_none() {
                        push_pawn(&mut out, s, t);
                        let start = if us { 1 } else { 6 };
                        if r == start {
                            let t2 = at(f, r + 2 * up).expect("on board");
                            if self.sq[t2].is_none() {
                                out.push(NMove {
                                    kind: Kind::Double,
                                    from: s,
                                    to: t2,
                                    promo: None,
                                });
                            }
                        }
                    }
                }
                for t in self.targets(s) {
                    if matches!(self.sq[t], Some(o) if o.white != us) {
                        push_pawn(&mut out, s, t);
                    } else if Some(t) == self.ep {
                        out.push(NMove {
                            kind: Kind::EnPassant,
                            from: s,
                            to: t,
                            promo: None,
                        });
                    }
                }
            } else {
                for t in self.targets(s) {
                    out.push(NMove {
                        kind: Kind::Normal,
                        from: s,
                        to: t,
                        promo: None,
                    });
                }
            }
        }
        // Castling: rights, empty squares between, not in check, the
        // crossed square not attacked (before the move); the destination is
        // judged by the common end-of-turn test.
        let (base, rights) = if us { (0, [0, 1]) } else { (56, [2, 3]) };
        for (i, king_side) in [(rights[0], true), (rights[1], false)] {
            if !self.castle[i] {
                continue;
            }
            let king = base + 4;
            let between: &[usize] = if king_side {
                &[base + 5, base + 6]
            } else {
                &[base + 1, base + 2, base + 3]
            };
            let crossed = if king_side { base + 5 } else { base + 3 };
            let to = if king_side { base + 6 } else { base + 2 };
            if between.iter().all(|&b| self.sq[b].is_none())
                && !self.attacked(king, !us)
                && !self.attacked(crossed, !us)
            {
                out.push(NMove {
                    kind: Kind::Castle,
                    from: king,
                    to,
                    promo: None,
                });
            }
        }
        // L4 drops.
        if self.reserve[usize::from(!us)] > 0 {
            let rank = if us { 0 } else { 7 };
            for f in 0..8 {
                let x = at(f, rank).expect("on board");
                let p = at(f, rank + up).expect("on board");
                let n = at(f, rank + 2 * up).expect("on board");
                if self.sq[x].is_none()
                    && self.sq[p]
                        == Some(Man {
                            white: us,
                            role: 'p',
                        })
                    && self.sq[n].is_none()
                {
                    out.push(NMove {
                        kind: Kind::Drop,
                        from: p,
                        to: x,
                        promo: None,
                    });
                }
            }
        }
        out
    }

    fn make(&self, m: NMove) -> Naive {
        let mut n = self.clone();
        let us = self.white;
        n.ep = None;
        match m.kind {
            Kind::Drop => {
                let up: i32 = if us { 8 } else { -8 };
                let pawn_to = (m.from as i32 + up) as usize;
                n.sq[pawn_to] = n.sq[m.from].take();
                n.sq[m.to] = Some(Man {
                    white: us,
                    role: 'h',
                });
                n.reserve[usize::from(!us)] -= 1;
            }
            Kind::Castle => {
                let king_side = m.to > m.from;
                let (rf, rt) = if king_side {
                    (m.from + 3, m.from + 1)
                } else {
                    (m.from - 4, m.from - 1)
                };
                n.sq[m.to] = n.sq[m.from].take();
                n.sq[rt] = n.sq[rf].take();
            }
            Kind::EnPassant => {
                let cap = if us { m.to - 8 } else { m.to + 8 };
                n.sq[cap] = None;
                n.sq[m.to] = n.sq[m.from].take();
            }
            Kind::Double => {
                n.sq[m.to] = n.sq[m.from].take();
                n.ep = Some((m.from + m.to) / 2);
            }
            Kind::Normal => {
                let mut man = n.sq[m.from].take().expect("mover");
                if let Some(p) = m.promo {
                    man.role = p;
                }
                n.sq[m.to] = Some(man);
            }
        }
        if m.kind != Kind::Drop {
            for s in [m.from, m.to] {
                match s {
                    4 => {
                        n.castle[0] = false;
                        n.castle[1] = false;
                    }
                    7 => n.castle[0] = false,
                    0 => n.castle[1] = false,
                    60 => {
                        n.castle[2] = false;
                        n.castle[3] = false;
                    }
                    63 => n.castle[2] = false,
                    56 => n.castle[3] = false,
                    _ => {}
                }
            }
        }
        n.white = !us;
        n
    }

    fn legal(&self) -> Vec<NMove> {
        let us = self.white;
        self.pseudo()
            .into_iter()
            .filter(|&m| {
                let n = self.make(m);
                !n.attacked(n.king(us), !us)
            })
            .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.make(m).perft(depth - 1)).sum()
    }
}

/// Checks that the rules core and the brute force agree on `pos`.
fn compare(pos: &Position, naive: &Naive) -> Vec<String> {
    let ours: BTreeSet<String> = pos.legal_moves().iter().map(|&m| to_uci(pos, m)).collect();
    let theirs: BTreeSet<String> = naive.legal().iter().map(|m| m.uci()).collect();
    assert_eq!(
        ours,
        theirs,
        "move sets differ in {}: only ours {:?}, only brute force {:?}",
        pos.to_fen(),
        ours.difference(&theirs).collect::<Vec<_>>(),
        theirs.difference(&ours).collect::<Vec<_>>()
    );
    assert_eq!(pos.hash(), pos.compute_hash(), "hash in {}", pos.to_fen());
    let us = naive.white;
    assert_eq!(
        pos.is_check(),
        naive.attacked(naive.king(us), !us),
        "check state in {}",
        pos.to_fen()
    );
    let fen = pos.to_fen();
    let back = Position::from_fen(Variant::Hoplit, &fen).expect("own FEN reads back");
    assert_eq!(back.to_fen(), fen);
    ours.into_iter().collect()
}

/// Start positions for playouts: the start, and middlegames with Hoplits.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
    "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[Hh] w KQkq - 0 1",
    "r2qk2r/ppp1bppp/2npbn2/4p3/2B1P3/2NP1N1P/PPP2PP1/R1BHK2R[h] b KQkq - 0 1",
    "r1h1k2r/pp2bppp/2n1pn2/q2p4/3P4/2NBPN2/PP1H1PPP/R2QK2R[] w KQkq - 0 1",
    "6k1/1h6/8/3p4/2P1H3/8/1h3H2/4K3[] w - - 0 1",
    "r3k2r/8/2h5/8/8/5H2/8/R3K2R[Hh] w KQkq - 0 1",
    // Two Hoplits a side on the board: one is promoted (L5), so a pawn is gone.
    "r1b1k2r/ppp2pp1/2n2h2/3pp3/1h1PP3/2N2H2/PPP2PP1/R1B1K1HR[] w KQkq - 0 1",
    "r3k2r/1pp2ppp/p1h2h2/3pP3/3P4/2H2H2/PPP2PP1/R3K2R[] b KQkq - 0 1",
    "2k5/3h4/1H6/8/4h3/8/2H5/5K2[Hh] w - - 0 1",
    "4k3/8/8/b7/8/8/2P5/r3K3[H] w - - 0 1",
];

/// A tiny deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn playout(start: &str, seed: u64, plies: usize) {
    let mut rng = Rng(seed | 1);
    let mut pos = Position::from_fen(Variant::Hoplit, start).expect("valid start");
    let mut naive = Naive::from_position(&pos);
    for _ in 0..plies {
        let moves = compare(&pos, &naive);
        if moves.is_empty() {
            return;
        }
        // Prefer drops and Hoplit moves now and then, to get Hoplits busy.
        let drops: Vec<&String> = moves.iter().filter(|m| m.contains('@')).collect();
        let text = if !drops.is_empty() && rng.below(3) == 0 {
            drops[rng.below(drops.len())].clone()
        } else {
            moves[rng.below(moves.len())].clone()
        };
        let m = springboard_rules::notation::uci::parse_uci(&pos, &text).expect("legal");
        let nm = naive
            .legal()
            .into_iter()
            .find(|n| n.uci() == text)
            .expect("the brute force has it");
        pos.play(m);
        naive = naive.make(nm);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Legal moves == brute-force filtered pseudo-legal moves, incremental
    /// hash == recomputed hash, FEN round trip, along random playouts.
    #[test]
    fn playouts_agree_with_brute_force(seed in any::<u64>(), start in 0..STARTS.len()) {
        playout(STARTS[start], seed, 120);
    }
}

/// The `epd`/`perft` entries of the Hoplit perft suite.
fn suite() -> Vec<(String, u32, u64)> {
    let mut fen = String::new();
    let mut out = Vec::new();
    for line in include_str!("perft/hoplit.perft").lines() {
        if let Some(rest) = line.strip_prefix("epd ") {
            fen = rest.to_string();
        } else if let Some(rest) = line
            .strip_prefix("perft ")
            .or_else(|| line.strip_prefix("perft-slow "))
        {
            let (d, n) = rest.split_once(' ').expect("depth and nodes");
            out.push((fen.clone(), d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    out
}

fn check_suite(max_nodes: u64) {
    let mut checked = 0;
    for (fen, depth, nodes) in suite() {
        if nodes > max_nodes {
            continue;
        }
        let pos = Position::from_fen(Variant::Hoplit, &fen).unwrap();
        assert_eq!(
            Naive::from_position(&pos).perft(depth),
            nodes,
            "{fen} depth {depth}"
        );
        checked += 1;
    }
    assert!(checked > 0);
}

/// The counts of tests/perft/hoplit.perft, recomputed by the brute force.
#[test]
fn perft_suite_agrees_with_brute_force() {
    check_suite(150_000);
}

#[test]
#[ignore = "brute-force perft of millions of nodes: minutes"]
fn perft_suite_agrees_with_brute_force_slow() {
    check_suite(8_000_000);
}

#[test]
fn perft_agrees_with_brute_force() {
    for (fen, depth) in [
        (STARTS[5], 2),
        (STARTS[3], 2),
        (STARTS[6], 2),
        (STARTS[7], 3),
        (STARTS[8], 3),
    ] {
        let pos = Position::from_fen(Variant::Hoplit, fen).unwrap();
        let naive = Naive::from_position(&pos);
        assert_eq!(
            perft(&pos, depth),
            naive.perft(depth),
            "{fen} depth {depth}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Mangled position texts are read or refused, never a panic; what is
    /// read writes back to a text that reads back to the same position.
    #[test]
    fn position_text_never_panics(
        start in 0..STARTS.len(),
        cut in 0usize..80,
        insert in "[a-zA-Z0-9\\[\\]/ -]{0,3}",
    ) {
        let fen = STARTS[start];
        let cut = cut.min(fen.len());
        let text = format!("{}{}{}", &fen[..cut], insert, &fen[cut..]);
        if let Ok(pos) = Position::from_fen(Variant::Hoplit, &text) {
            let back = Position::from_fen(Variant::Hoplit, &pos.to_fen()).expect("round trip");
            prop_assert_eq!(back.to_fen(), pos.to_fen());
            prop_assert_eq!(back.hash(), pos.hash());
            let _ = pos.legal_moves();
        }
    }
}
