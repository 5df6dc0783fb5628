//! Entering moves by clicks: the answers to XBoard's `lift` and `put`
//! (feature `highlight=1`).
//!
//! Every legal move of the rules core (`Position::legal_moves`) is turned
//! into the squares a user clicks after lifting its piece (see
//! `notation::clicks`: the Hop Chess placement square if any, then the
//! final square; a bounce is entered by its final square, P9). After
//! `lift` and each `put` on a continuation square, the next clicks are
//! coloured:
//!
//! - `Y` yellow: the move ends there, quietly;
//! - `R` red: the move ends there with a capture;
//! - `M` magenta: the move ends there with a choice (promotion, J9's
//!   optional promotion, the man a Jumping King leaves behind); `put` there
//!   answers `choice` with the letters allowed;
//! - `C` cyan: the move goes on from there (the Hop Chess placement
//!   square); `put` there answers a new highlight, in which that square
//!   is a final square again when the move may leave the trampoline on
//!   the square the piece left (XBoard sends the one leg when the same
//!   square is clicked twice).

use super::board::board_text;
use super::notation::{self, readable_clicks};
use springboard_rules::{Move, MoveKind, Piece, Position, Role, Square};

/// What was lifted: a piece on the board or a piece in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Square(Square),
    /// A piece in XBoard's holdings; `Role::King` stands for a Trampoline
    /// Chess trampoline in hand (XBoard's `T`).
    Hand(Role),
}

/// One way to enter a legal move.
#[derive(Clone, Debug)]
struct Entry {
    clicks: Vec<Square>,
    mv: Move,
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
        let own_trampoline = pos.trampoline(pos.turn());
        let mut entries = Vec::new();
        for m in pos.legal_moves() {
            let clicks = match (origin, m.kind()) {
                // L4: a drop is one click, on its square.
                (Origin::Hand(role), MoveKind::Drop) if m.role() == Some(role) => {
                    m.to().map(|t| vec![t])
                }
                // T2: the trampoline piece, from the holdings or its square.
                (Origin::Hand(Role::King), MoveKind::Trampoline) if own_trampoline.is_none() => {
                    m.to().map(|t| vec![t])
                }
                (Origin::Square(sq), MoveKind::Trampoline)
                    if pos.variant() == springboard_rules::Variant::Trampoline
                        && own_trampoline == Some(sq) =>
                {
                    m.to().map(|t| vec![t])
                }
                (Origin::Square(sq), kind)
                    if m.from() == Some(sq)
                        && !matches!(kind, MoveKind::Trampoline | MoveKind::Drop) =>
                {
                    readable_clicks(pos, m)
                }
                _ => None,
            };
            // Hop Chess: a one-leg move (the trampoline on the vacated
            // square) ends on a square that is also a placement square,
            // so its click is cyan; clicking that square again ends the
            // move there (XBoard then sends the one leg).
            if let Some([to]) = clicks.as_deref() {
                if notation::needs_placement(pos) && m.place() == m.from() {
                    entries.push(Entry {
                        clicks: vec![*to, *to],
                        mv: m,
                    });
                }
            }
            entries.extend(clicks.map(|clicks| Entry { clicks, mv: m }));
        }
        Lifted {
            entries,
            clicks: Vec::new(),
        }
    }

    /// The last square put on that the move goes on from.
    pub fn last_click(&self) -> Option<Square> {
        self.clicks.last().copied()
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
            } else if e.mv.role().is_some() && !matches!(e.mv.kind(), MoveKind::Drop) {
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
            .filter(|e| !matches!(e.mv.kind(), MoveKind::Drop | MoveKind::Trampoline))
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
