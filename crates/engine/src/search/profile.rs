//! The search profile of each game: every place where the search treats
//! one game differently from another is a function here, each an
//! exhaustive `match` on [`Variant`] (a new game is a compile error here,
//! never a silent default). The rest of the search asks these questions
//! and never looks at the variant itself.
//!
//! - [`null_move_allowed`]: whether the side to move may pass (null-move
//!   pruning);
//! - [`fide_exchange`]: whether FIDE attacks are every capture onto a
//!   square, so that the static exchange evaluation holds;
//! - [`cheap_checks`]: whether checks come cheap (through bounces), so that
//!   check extensions are capped;
//! - [`quiescence_turns`], [`quiescence_tt`]: how far quiescence goes and
//!   whether it uses the transposition table; [`mate_probe_at_horizon`]:
//!   whether quiescence's first turn looks for a mating turn;
//! - [`half_steps`]: Hop Chess turns searched as a piece step and a
//!   placement step (the search path then holds two keys a turn; which
//!   turns split is the rules core's `Position::splits_turn`), and
//!   [`piece_step_checks`] for the placement step;
//! - [`quiet_futility`]: whether quiet moves far below alpha are pruned
//!   near the leaves;
//! - [`internal_reduction`]: whether a node without a table move is
//!   searched a ply shallower;
//! - [`continuation_history`]: whether quiet steps are ordered by what
//!   did well after the steps one and two plies before;
//! - [`threat_to_end`]: whether the side to move, not in check, faces a
//!   move that ends the game (then pruning that assumes the position
//!   can wait is off, as in check);
//! - [`moves_left`]: how many more moves a game is expected to last, the
//!   share of the clock a move may use.

use springboard_rules::facts::jumping_king::WEAK_SQUARES;
use springboard_rules::{Color, Position, Role, Square, Variant};

/// Whether the side to move, not in check, faces a move of the other side
/// that ends the game, were it the other side's move:
/// - Jumping King: a legal move onto the side to move's weak square (J3),
///   once both jumping phases are over (before, no man moves): the rules
///   core's `Position::weak_square_threat`;
/// - the other games: no (a checkmate threat is the search's to find).
pub(super) fn threat_to_end(pos: &Position) -> bool {
    match pos.variant() {
        Variant::JumpingKing => pos.weak_square_threat(),
        Variant::Chess | Variant::HopChess | Variant::Trampoline | Variant::Hoplit => false,
    }
}

/// How many more moves a game is expected to last, where the clock does
/// not say (UCI `movestogo`): each move may use about this share of the
/// time left (`time.rs`).
/// - Jumping King: 12. Its games are short: from the opening suite's
///   positions (move 5), engine games at 10+0.1 are decided about 25
///   moves later; at 30 a side ended them with 40% of its clock unused,
///   and 12 played better than 18 on the clock (docs/engine.md,
///   "Jumping King: the clock").
/// - the other games: 30.
pub(super) fn moves_left(variant: Variant) -> u64 {
    match variant {
        Variant::JumpingKing => 12,
        Variant::Chess | Variant::HopChess | Variant::Trampoline | Variant::Hoplit => 30,
    }
}

/// Whether a game may use null-move pruning in `pos`: the side to move
/// needs a piece besides king and pawns on the board (zugzwang care: pawn
/// endings are where passing would lie; a Hoplit in reserve does not
/// count), and passing must be a sound idea in the game's current state:
/// - chess, Trampoline Chess, Hoplit Chess: always;
/// - Hop Chess: only where a turn starts (never in the `place` state: the
///   placement belongs to the turn already begun; never on White's first
///   turn, whose phase bit [`Position::play_null`] would hand to Black);
/// - Jumping King: only when both kings' jumping phases are over (J4, J6:
///   the jumps, placements and forced passes are not FIDE turns).
pub fn null_move_allowed(pos: &Position) -> bool {
    let b = pos.board();
    let us = b.by_color(pos.turn());
    let has_piece = (us & !b.by_role(Role::Pawn) & !b.by_role(Role::King)).any();
    has_piece
        && match pos.variant() {
            Variant::Chess | Variant::Trampoline | Variant::Hoplit => true,
            Variant::HopChess => pos.splits_turn(),
            Variant::JumpingKing => !pos.is_jumping(Color::White) && !pos.is_jumping(Color::Black),
        }
}

/// Whether the FIDE attacks of [`Position::attackers_to`] are every
/// capture onto `to` in `pos`, so that the FIDE exchange of
/// [`see_ge`](super::see_ge) holds:
/// - chess: yes;
/// - Hoplit Chess: when no Hoplit stands on the board (a Hoplit captures
///   over a screen, L2, and every capture in the exchange changes the
///   screens; one in reserve never captures);
/// - Jumping King: in the moving phase (a jumping king attacks nothing,
///   J4), and not on a weak square (a1, f8: entering one ends the game, J3). The
///   squares off the 38-square board are always empty and no line through
///   them comes back onto the board, so FIDE lines are the game's lines;
/// - Hop Chess and Trampoline Chess: no. Pieces reach the square through
///   trampolines (P2, P8), and each capture in the exchange opens or
///   closes bounce paths: answering with FIDE attacks would prune good
///   captures.
pub(super) fn fide_exchange(pos: &Position, to: Square) -> bool {
    match pos.variant() {
        Variant::Chess => true,
        Variant::Hoplit => pos.board().by_role(Role::Hoplit).is_empty(),
        Variant::JumpingKing => {
            !pos.is_jumping(Color::White)
                && !pos.is_jumping(Color::Black)
                && !WEAK_SQUARES.contains(to)
        }
        Variant::HopChess | Variant::Trampoline => false,
    }
}

/// Whether checks come cheap in the game: in the trampoline games a
/// placement or a trampoline move checks through a bounce, and two sides
/// checking in turn would extend for ever. There only checks within the
/// iteration's depth (in turns) are extended, and checks at the horizon go
/// to quiescence's evasions.
pub(super) fn cheap_checks(variant: Variant) -> bool {
    match variant {
        Variant::HopChess | Variant::Trampoline => true,
        Variant::Chess | Variant::JumpingKing | Variant::Hoplit => false,
    }
}

/// How many turns past the horizon quiescence may go (at the limit a side
/// in check is judged as it stands unless it is mated):
/// - the trampoline games, [`QS_TURNS`]: captures open and close bounce
///   paths, and a capture chain there can run for dozens of turns, each
///   with its cheap checks;
/// - chess, Jumping King and Hoplit Chess, [`QS_TURNS_FIDE`]: captures
///   make the board quieter, but a side in check answers with every
///   evasion, quiet ones too, and lines of checks and evasions can go on
///   to the ply limit. In a Hoplit Chess game of `springboard datagen`
///   (seed 91, game 426: Hoplits capturing with check over screens,
///   kings stepping out of check) the first iteration, which no node
///   limit or `stop` ends, ran for minutes with quiescence 126 plies deep.
///   The limit is far past where captures settle: it changes 37 of the
///   bench's 1.8 million nodes.
pub(super) fn quiescence_turns(variant: Variant) -> i32 {
    match variant {
        Variant::HopChess | Variant::Trampoline => QS_TURNS,
        Variant::Chess | Variant::JumpingKing | Variant::Hoplit => QS_TURNS_FIDE,
    }
}

/// See [`quiescence_turns`].
const QS_TURNS: i32 = 6;
/// See [`quiescence_turns`].
const QS_TURNS_FIDE: i32 = 16;

/// Whether quiescence uses the transposition table (cuts at non-PV nodes,
/// stores its results at depth 0): Hop Chess, whose quiescence trees are
/// most of its nodes (captures through bounces, a placement tried in each
/// turn) and come back in every iteration. The other games' quiescence
/// stays as their benches measured it.
pub(super) fn quiescence_tt(variant: Variant) -> bool {
    match variant {
        Variant::HopChess => true,
        Variant::Chess | Variant::Trampoline | Variant::JumpingKing | Variant::Hoplit => false,
    }
}

/// Whether quiescence's first turn looks for a mating turn before it
/// stands pat: Hop Chess, where a mate is most often a quiet piece step
/// and a placement that opens a bounce onto the king, which the captures
/// of quiescence never try, and where a turn that allows a mate in one
/// would otherwise look quiet one turn before the horizon.
pub(super) fn mate_probe_at_horizon(variant: Variant) -> bool {
    match variant {
        Variant::HopChess => true,
        Variant::Chess | Variant::Trampoline | Variant::JumpingKing | Variant::Hoplit => false,
    }
}

/// Whether the search splits the game's turns into steps of the same side
/// (Hop Chess: the piece step, then the placement), so that the search path
/// holds up to two keys a turn.
pub(super) fn half_steps(variant: Variant) -> bool {
    match variant {
        Variant::HopChess => true,
        Variant::Chess | Variant::Trampoline | Variant::JumpingKing | Variant::Hoplit => false,
    }
}

/// Hop Chess's `place` state: whether the piece step just made attacks the
/// enemy king with the trampolines where they stand (the placement to come
/// may add paths, never take one away: trampolines block nothing, P1).
pub(super) fn piece_step_checks(pos: &Position) -> bool {
    pos.board()
        .king_of(!pos.turn())
        .is_some_and(|k| pos.is_attacked(k, pos.turn()))
}

/// Whether the main search prunes quiet moves near the leaves whose node's
/// static evaluation is far below alpha (futility pruning; never a move
/// that checks, nor in Hop Chess a piece step whose placement may check):
/// every game.
pub(super) fn quiet_futility(variant: Variant) -> bool {
    match variant {
        Variant::Chess
        | Variant::HopChess
        | Variant::Trampoline
        | Variant::JumpingKing
        | Variant::Hoplit => true,
    }
}

/// Whether a node of `pos` without a table move is searched a ply
/// shallower (internal iterative reduction): every game where a turn
/// starts; never in Hop Chess's `place` state (the placement is searched
/// at its turn's depth, decided at the piece step).
pub(super) fn internal_reduction(pos: &Position) -> bool {
    match pos.variant() {
        Variant::Chess | Variant::Trampoline | Variant::JumpingKing | Variant::Hoplit => true,
        Variant::HopChess => !pos.placement_pending(),
    }
}

/// Whether quiet steps are ordered (and reduced) by continuation history:
/// what did well after the same steps one and two plies before on the
/// path. Every game: the tables are indexed by the steps themselves (mover
/// and destination), so a Hop Chess placement is judged after its own
/// piece step and a piece step after the enemy's turn.
pub(super) fn continuation_history(variant: Variant) -> bool {
    match variant {
        Variant::Chess
        | Variant::HopChess
        | Variant::Trampoline
        | Variant::JumpingKing
        | Variant::Hoplit => true,
    }
}

/// Whether a table move that alone holds its node's score is searched a
/// ply deeper (singular extension, with multi-cut): every game whose turn
/// is one step. Not Hop Chess: its turn is a piece step and a placement,
/// and the table move of a piece step does not say which placement held.
pub(super) fn singular_extensions(variant: Variant) -> bool {
    match variant {
        Variant::Chess | Variant::Trampoline | Variant::JumpingKing | Variant::Hoplit => true,
        Variant::HopChess => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn threat(variant: Variant, fen: &str) -> bool {
        threat_to_end(&Position::from_fen(variant, fen).unwrap())
    }

    #[test]
    fn j3_a_man_that_would_take_the_weak_square_next_move() {
        let jk = Variant::JumpingKing;
        // The white rook f2 sees f8: Black, to move, must answer.
        assert!(threat(jk, "8/2k5/8/8/4K3/8/5R2/8[] b - 0 1"));
        // White is not threatened; a man on f7 closes the file.
        assert!(!threat(jk, "8/2k5/8/8/4K3/8/5R2/8[] w - 0 1"));
        assert!(!threat(jk, "8/2k2n2/8/8/4K3/8/5R2/8[] b - 0 1"));
        // A black pawn on a2 steps onto a1; one on b2 only attacks it.
        assert!(threat(jk, "8/2k5/8/8/4K3/8/p7/8[] w - 0 1"));
        assert!(!threat(jk, "8/2k5/8/8/4K3/8/1p6/8[] w - 0 1"));
        // While a king still jumps, no man moves (J4, J6).
        assert!(!threat(
            jk,
            "8/8/8/3k4/8/4K3/5R2/8[RBBNNPPPrrbbnnppp] b j 0 1"
        ));
        // The other games have no such threat.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(!threat(Variant::Chess, fen));
    }
}
