//! # springboard-view
//!
//! What the play server's page draws of a position, read from the rules
//! core only: the board (squares, trampolines, reserves, check, the
//! Jumping King's facts), the legal moves with their display data and the
//! Hop Chess half-steps. The play server's game view
//! (`crates/web/src/games/view.rs`) and the WebAssembly build
//! (`crates/wasm`) both build theirs from here, so that the page reads
//! either the same way. The rules core knows nothing of it.

#![forbid(unsafe_code)]

use serde::Serialize;
use springboard_rules::notation::{san::to_san, uci::to_uci};
use springboard_rules::{Color, Move, MoveKind, MoveList, Outcome, Position, Role, Square};

/// A legal move as the page sees it (the server's `MoveView`).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MoveView {
    /// Long notation (RULINGS N1-N6): what the page sends back to play it.
    pub uci: String,
    pub san: String,
    pub kind: &'static str,
    pub from: Option<String>,
    pub to: Option<String>,
    /// The trampolines the piece bounces off, in order.
    pub via: Vec<String>,
    /// Promotion piece, dropped piece, or the man a Jumping King places.
    pub role: Option<char>,
    /// Hop Chess: the mover's trampoline square after the turn.
    pub place: Option<String>,
    /// A drop (Hoplit Chess, L4): every square it changes, read from the
    /// rules core by playing it (the pushed pawn), so the page can show it
    /// before it is played. Absent for other moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<ChangeView>>,
}

/// A square a move changes, with the piece standing there after it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ChangeView {
    pub name: String,
    pub piece: Option<String>,
}

/// Hop Chess: a piece move without its placement and the squares it
/// changes (the server's `StepView`).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct StepView {
    pub kind: &'static str,
    pub from: Option<String>,
    pub to: Option<String>,
    pub via: Vec<String>,
    pub role: Option<char>,
    pub changes: Vec<ChangeView>,
}

/// One of the 64 squares.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SquareView {
    pub name: String,
    /// False for squares outside the game's board (Jumping King's holes).
    pub exists: bool,
    /// The piece as its FEN letter.
    pub piece: Option<String>,
    /// The owner of a trampoline on this square.
    pub trampoline: Option<&'static str>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TrampolineView {
    pub owner: &'static str,
    pub square: Option<String>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ReserveView {
    pub color: &'static str,
    pub role: char,
    pub count: u8,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct WeakSquareView {
    pub square: String,
    pub owner: &'static str,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct StuckView {
    pub color: &'static str,
    pub men: Vec<ReserveView>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    pub winner: Option<&'static str>,
    pub reason: String,
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub fn kind_name(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Normal => "normal",
        MoveKind::DoubleStep => "double_step",
        MoveKind::EnPassant => "en_passant",
        MoveKind::Castle => "castle",
        MoveKind::Drop => "drop",
        MoveKind::Trampoline => "trampoline",
        MoveKind::Jump => "jump",
        MoveKind::Pass => "pass",
    }
}

pub fn outcome_view(o: Outcome) -> OutcomeView {
    OutcomeView {
        result: o.result_str(),
        winner: match o {
            Outcome::Win { winner, .. } => Some(color_name(winner)),
            Outcome::Draw(_) => None,
        },
        reason: o.reason_str().to_string(),
    }
}

/// A legal move of `pos` as the page sees it.
pub fn move_view(pos: &Position, m: Move) -> MoveView {
    MoveView {
        uci: to_uci(pos, m),
        san: to_san(pos, m),
        kind: kind_name(m.kind()),
        from: m.from().map(|s| s.to_string()),
        to: m.to().map(|s| s.to_string()),
        via: m.via().map(|s| s.to_string()).collect(),
        role: m.role().map(Role::char),
        place: m.place().map(|s| s.to_string()),
        changes: (m.kind() == MoveKind::Drop).then(|| {
            let mut after = pos.clone();
            after.play(m);
            changed_squares(pos, &after)
        }),
    }
}

/// The squares whose piece differs between `before` and `after`.
fn changed_squares(before: &Position, after: &Position) -> Vec<ChangeView> {
    Square::ALL
        .iter()
        .filter(|&&sq| before.board().piece_at(sq) != after.board().piece_at(sq))
        .map(|&sq| ChangeView {
            name: sq.to_string(),
            piece: after.board().piece_at(sq).map(|p| p.char().to_string()),
        })
        .collect()
}

/// The legal moves of `pos`.
pub fn legal_views(pos: &Position) -> Vec<MoveView> {
    pos.legal_moves()
        .into_iter()
        .map(|m| move_view(pos, m))
        .collect()
}

/// Hop Chess: every legal piece move of a turn that splits, with the
/// squares it changes (empty in the other games).
pub fn step_views(pos: &Position) -> Vec<StepView> {
    if !pos.splits_turn() {
        return Vec::new();
    }
    let mut steps = MoveList::new();
    pos.legal_steps_into(&mut steps);
    steps
        .into_iter()
        .map(|m| {
            let mut after = pos.clone();
            after.play_step(m);
            StepView {
                kind: kind_name(m.kind()),
                from: m.from().map(|s| s.to_string()),
                to: m.to().map(|s| s.to_string()),
                via: m.via().map(|s| s.to_string()).collect(),
                role: m.role().map(Role::char),
                changes: changed_squares(pos, &after),
            }
        })
        .collect()
}

fn reserve_view(pos: &Position, c: Color, r: Role) -> ReserveView {
    ReserveView {
        color: color_name(c),
        role: r.char(),
        count: pos.reserve(c, r),
    }
}

/// The 64 squares of `pos`.
pub fn square_views(pos: &Position) -> Vec<SquareView> {
    let mask = pos.variant().mask();
    Square::ALL
        .iter()
        .map(|&sq| SquareView {
            name: sq.to_string(),
            exists: mask.contains(sq),
            piece: pos.board().piece_at(sq).map(|p| p.char().to_string()),
            trampoline: Color::ALL
                .into_iter()
                .find(|&c| pos.trampoline(c) == Some(sq))
                .map(color_name),
        })
        .collect()
}

/// Both trampolines of `pos`, White's first.
pub fn trampoline_views(pos: &Position) -> Vec<TrampolineView> {
    Color::ALL
        .into_iter()
        .map(|c| TrampolineView {
            owner: color_name(c),
            square: pos.trampoline(c).map(|s| s.to_string()),
        })
        .collect()
}

/// The men in reserve of `pos` (those with a count).
pub fn reserve_views(pos: &Position) -> Vec<ReserveView> {
    Color::ALL
        .into_iter()
        .flat_map(|c| Role::ALL.into_iter().map(move |r| (c, r)))
        .filter(|&(c, r)| pos.reserve(c, r) > 0)
        .map(|(c, r)| reserve_view(pos, c, r))
        .collect()
}

/// The square of the king in check, if the side to move is in check.
pub fn check_square(pos: &Position) -> Option<String> {
    if pos.is_check() {
        pos.our_king().map(|k| k.to_string())
    } else {
        None
    }
}

/// The lines of the checks (through trampolines), square by square.
pub fn check_line_views(pos: &Position) -> Vec<Vec<String>> {
    pos.check_lines()
        .into_iter()
        .map(|line| line.into_iter().map(|s| s.to_string()).collect())
        .collect()
}

/// The Jumping King facts of `pos` (empty in other games): weak squares,
/// stuck kings with their men, jumping kings.
pub fn jumping_king_views(
    pos: &Position,
) -> (Vec<WeakSquareView>, Vec<StuckView>, Vec<&'static str>) {
    let weak = Color::ALL
        .into_iter()
        .filter_map(|c| {
            pos.weak_square(c).map(|sq| WeakSquareView {
                square: sq.to_string(),
                owner: color_name(c),
            })
        })
        .collect();
    let stuck = Color::ALL
        .into_iter()
        .filter(|&c| pos.is_stuck(c))
        .map(|c| StuckView {
            color: color_name(c),
            men: pos
                .variant()
                .reserve_roles()
                .iter()
                .copied()
                .filter(|&r| pos.reserve(c, r) > 0)
                .map(|r| reserve_view(pos, c, r))
                .collect(),
        })
        .collect();
    let jumping = Color::ALL
        .into_iter()
        .filter(|&c| pos.is_jumping(c))
        .map(color_name)
        .collect();
    (weak, stuck, jumping)
}
