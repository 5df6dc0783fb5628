//! What the page draws, read from the rules core only: the position of a
//! game with its legal moves, its Hop Chess half-steps and its board. The
//! shapes (field names and values) are those of the play server's game
//! view: both build them from `springboard-view`, re-exported here, so
//! that a page reads either the same way.

use serde::Serialize;
use springboard_rules::Game;
pub use springboard_view::*;

/// The position of a game as the page draws it: the board fields of the
/// server's game view, for the position after the game's last move.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct PositionView {
    pub variant: &'static str,
    pub fen: String,
    pub start_fen: String,
    pub turn: &'static str,
    pub fullmove: u32,
    pub plies: usize,
    pub squares: Vec<SquareView>,
    pub trampolines: Vec<TrampolineView>,
    pub trampolines_in_play: bool,
    pub reserves: Vec<ReserveView>,
    pub check: Option<String>,
    pub check_lines: Vec<Vec<String>>,
    pub weak_squares: Vec<WeakSquareView>,
    pub stuck: Vec<StuckView>,
    pub jumping: Vec<&'static str>,
    pub last_move: Option<MoveView>,
    pub outcome: Option<OutcomeView>,
    /// Empty when the game is over.
    pub legal: Vec<MoveView>,
    /// Empty when the game is over or the turn does not split.
    pub steps: Vec<StepView>,
}

/// The current position of `game` as the page draws it.
pub fn position_view(game: &Game) -> PositionView {
    let pos = game.position();
    let variant = pos.variant();
    let outcome = game.outcome();
    let legal = if outcome.is_none() {
        legal_views(pos)
    } else {
        Vec::new()
    };
    let steps = if legal.is_empty() {
        Vec::new()
    } else {
        step_views(pos)
    };
    let plies = game.moves().len();
    let (weak_squares, stuck, jumping) = jumping_king_views(pos);
    PositionView {
        variant: variant.name(),
        fen: pos.to_fen(),
        start_fen: game.start().to_fen(),
        turn: color_name(pos.turn()),
        fullmove: pos.fullmove_number(),
        plies,
        squares: square_views(pos),
        trampolines: trampoline_views(pos),
        trampolines_in_play: variant.has_trampolines(),
        reserves: reserve_views(pos),
        check: check_square(pos),
        check_lines: check_line_views(pos),
        weak_squares,
        stuck,
        jumping,
        last_move: plies
            .checked_sub(1)
            .map(|i| move_view(&game.positions()[i], game.moves()[i])),
        outcome: outcome.map(outcome_view),
        legal,
        steps,
    }
}
