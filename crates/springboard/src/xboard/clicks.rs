//! Entering moves by clicks: the answers to XBoard's `lift` and `put`
//! (feature `highlight=1`).
//!
//! Every legal move of the rules core (`Position::legal_moves`) is turned
//! into the squares a user clicks after lifting its piece: the Hop Chess
//! placement square first (see `notation` for its shorthands), then each
//! trampoline of a bounce path, then the final square. Every valid path of
//! a move counts (N3: a bishop may be entered direct or through the
//! trampoline), as long as its clicks read back as that move. After
//! `lift` and each `put` on a continuation square, the next clicks are
//! coloured:
//!
//! - `Y` yellow: the move ends there, quietly;
//! - `R` red: the move ends there with a capture;
//! - `M` magenta: the move ends there with a choice (promotion, J9's
//!   optional promotion, the man a Jumping King leaves behind); `put` there
//!   answers `choice` with the letters allowed;
//! - `C` cyan: the move goes on from there (a trampoline to bounce off, or
//!   the Hop Chess placement square); `put` there answers a new highlight.

use super::board::board_text;
use super::notation::{clicks, paths, readings, Reading};
use springboard_rules::{Move, MoveKind, Piece, Position, Role, Square};

/// What was lifted: a piece on the board or a piece in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Square(Square),
    Hand(Role),
}

/// One way to enter a legal move.
#[derive(Clone, Debug)]
struct Entry {
    clicks: Vec<Square>,
    /// The bounce path it takes.
    via: Vec<Square>,
    mv: Move,
}

impl Entry {
    /// Whether this entry is the reading `(place, path)`.
    fn is(&self, (place, path): &Reading) -> bool {
        self.mv.place() == *place
            && path
                .split_last()
                .is_some_and(|(to, via)| self.mv.to() == Some(*to) && self.via == via)
    }
}

/// A lifted piece and the squares put so far.
#[derive(Clone, Debug)]
pub struct Lifted {
    entries: Vec<Entry>,
    clicks: Vec<Square>,
}

/// What a `put` asks the engine to answer.
#[derive(Debug, PartialEq, Eq)]
pub enum PutAnswer {
    /// The move goes on: new highlights.
    Highlight(String),
    /// A choice of pieces on the final square.
    Choice(String),
    /// Nothing to say (a final square without choice, or no move there).
    Nothing,
}

/// Reads `e2` or a piece in hand `H@` (XBoard's holdings).
pub fn parse_origin(text: &str) -> Option<Origin> {
    if let Some(letter) = text.strip_suffix('@') {
        let mut chars = letter.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        return Role::from_char(c).map(Origin::Hand);
    }
    text.parse().ok().map(Origin::Square)
}

impl Lifted {
    /// Nothing lifted that can move.
    pub fn empty() -> Lifted {
        Lifted {
            entries: Vec::new(),
            clicks: Vec::new(),
        }
    }

    /// Lifts `origin` in `pos`: every legal move it starts.
    pub fn new(pos: &Position, origin: Origin) -> Lifted {
        let legal = pos.legal_moves();
        let mine: Vec<Move> = legal
            .into_iter()
            .filter(|m| match origin {
                Origin::Square(sq) => m.from() == Some(sq),
                Origin::Hand(role) => m.kind() == MoveKind::Drop && m.role() == Some(role),
            })
            .collect();
        // The paths depend on the piece part only (not on the placement).
        let mut by_part: Vec<(Move, Vec<Vec<Square>>)> = Vec::new();
        let mut entries = Vec::new();
        for m in mine {
            if m.kind() == MoveKind::Drop {
                // L4: a drop is one click, on its square.
                entries.extend(m.to().map(|to| Entry {
                    clicks: vec![to],
                    via: vec![],
                    mv: m,
                }));
                continue;
            }
            let part = m.piece_part();
            let known = by_part.iter().position(|(p, _)| *p == part);
            let idx = match known {
                Some(i) => i,
                None => {
                    by_part.push((part, paths(pos, m)));
                    by_part.len() - 1
                }
            };
            for via in &by_part[idx].1 {
                if let Some(clicks) = clicks(m, via) {
                    entries.push(Entry {
                        clicks,
                        via: via.clone(),
                        mv: m,
                    });
                }
            }
        }
        // Keep the clicks that read back as their own move (the first
        // legal reading, as `notation::parse_xboard` reads them).
        let keep: Vec<bool> = match origin {
            Origin::Square(from) => entries
                .iter()
                .map(|e| {
                    readings(pos, from, &e.clicks)
                        .iter()
                        .find(|r| entries.iter().any(|x| x.is(r)))
                        .is_some_and(|r| e.is(r))
                })
                .collect(),
            Origin::Hand(_) => vec![true; entries.len()],
        };
        let entries = entries
            .into_iter()
            .zip(keep)
            .filter_map(|(e, k)| k.then_some(e))
            .collect();
        Lifted {
            entries,
            clicks: Vec::new(),
        }
    }

    /// The entries that go on with the clicks made so far.
    fn live(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| e.clicks.len() > self.clicks.len() && e.clicks.starts_with(&self.clicks))
    }

    /// The colour of each next click.
    fn colour(&self, pos: &Position, sq: Square) -> Option<char> {
        let n = self.clicks.len();
        let mut colour = None;
        for e in self.live().filter(|e| e.clicks[n] == sq) {
            let c = if e.clicks.len() > n + 1 {
                'C'
            } else if e.mv.role().is_some() && e.mv.kind() != MoveKind::Drop {
                'M'
            } else if e.mv.kind() == MoveKind::EnPassant
                || pos
                    .board()
                    .piece_at(sq)
                    .is_some_and(|p| p.color != pos.turn())
            {
                'R'
            } else {
                'Y'
            };
            // A continuation wins (a Hop Chess placement square that is
            // also a final square with the trampoline left behind); then
            // a choice.
            colour = match (colour, c) {
                (None, _) | (Some(_), 'C') => Some(c),
                (Some('C'), _) => Some('C'),
                (Some(_), 'M') => Some('M'),
                (old, _) => old,
            };
        }
        colour
    }

    /// The `highlight` board for the next clicks.
    pub fn highlight(&self, pos: &Position) -> String {
        let v = pos.variant();
        format!("highlight {}", board_text(v, |sq| self.colour(pos, sq)))
    }

    /// Puts the lifted piece on `sq`.
    pub fn put(&mut self, pos: &Position, sq: Square) -> PutAnswer {
        let n = self.clicks.len();
        let here: Vec<&Entry> = self.live().filter(|e| e.clicks[n] == sq).collect();
        if here.is_empty() {
            return PutAnswer::Nothing;
        }
        if here.iter().any(|e| e.clicks.len() > n + 1) {
            self.clicks.push(sq);
            return PutAnswer::Highlight(self.highlight(pos));
        }
        // Drops carry their role but offer no choice.
        let choosing: Vec<&Entry> = here
            .into_iter()
            .filter(|e| e.mv.kind() != MoveKind::Drop)
            .collect();
        if !choosing.iter().any(|e| e.mv.role().is_some()) {
            return PutAnswer::Nothing;
        }
        let mut letters = String::new();
        for e in choosing {
            // J9: a pawn that may stay a pawn is offered as a pawn.
            let role = e.mv.role().unwrap_or(Role::Pawn);
            let c = Piece::new(pos.turn(), role).char();
            if !letters.contains(c) {
                letters.push(c);
            }
        }
        PutAnswer::Choice(format!("choice {letters}"))
    }
}
