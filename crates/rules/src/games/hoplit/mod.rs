//! Hoplit Chess with the external Hoplit (rulings L1-L5): FIDE chess, plus
//! one Hoplit a side in reserve, dropped behind a second-rank pawn that steps
//! forward in the same turn.
//!
//! The Hoplit (L2) slides one or more empty squares diagonally, turns on the
//! last of them into one of the two orthogonal directions that continue the
//! diagonal outward, slides over empty squares to the first piece (the
//! screen), jumps it, and stops on an empty square beyond or captures the
//! first piece beyond if it is an enemy. An enemy pawn as screen lets it
//! reach only the square directly behind that pawn (L3).
//!
//! Files: `geometry.rs` the Hoplit's paths (L2, L3) and their tables,
//! `movegen.rs` the legal moves, this file the game's type, attacks,
//! playing moves and the checks of a setup; `tests.rs` the rulings.
//!
//! Legal move generation is exact. FIDE attackers are handled as in chess
//! (pins and check masks). For the enemy Hoplits, the squares of every
//! geometric Hoplit path to our king (diagonal leg, turning square and
//! orthogonal leg) that one move could open form a *zone*: a move that
//! changes no square of the zone and captures no Hoplit cannot make or break
//! a Hoplit attack on the king, so it keeps the Hoplit check state it had.
//! A move that touches the zone is tested exactly on its resulting occupancy
//! (screens appear, vanish, become enemy pawns); so are king moves,
//! castling, en passant and drops. Paths are precomputed: for
//! a Hoplit square `h` and a target `k`, the turning squares that can link
//! them ([`TURNS`]), so testing an attack is a few table lookups per path.

mod geometry;
mod movegen;
#[cfg(test)]
mod tests;

pub(crate) use geometry::{hoplit_attackers, hoplit_targets, hoplit_turn};
use movegen::{ep_capture_possible, legal_moves, legal_moves_kept};

use crate::error::FenError;
use crate::games::chess;
use crate::moves::{Move, MoveKind, MoveList};

use super::{material, GameRules};
use crate::position::{Position, Setup};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;

/// Hoplit Chess.
pub(crate) struct Hoplit;

impl GameRules for Hoplit {
    const VARIANT: Variant = Variant::Hoplit;
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Hoplit,
    ];
    const RESERVE_ROLES: &'static [Role] = &[Role::Hoplit];
    const RESERVE_START: [u8; 7] = [0, 0, 0, 0, 0, 0, 1];

    #[inline]
    fn legal_moves(pos: &Position, list: &mut MoveList) {
        legal_moves(pos, list)
    }

    #[inline]
    fn legal_steps_filtered(pos: &Position, list: &mut MoveList, keep: impl FnMut(Move) -> bool) {
        legal_moves_kept(pos, list, keep)
    }

    #[inline]
    fn play(pos: &mut Position, m: Move) {
        play(pos, m)
    }

    #[inline]
    fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
        is_attacked(pos, sq, by)
    }

    /// FIDE chess's checks, with at most one Hoplit a side in reserve (L1)
    /// and the Hoplits' checks (L2).
    fn from_setup(setup: Setup) -> Result<Position, FenError> {
        let (mut pos, ep_claim) = setup.into_position(Variant::Hoplit);
        material::check_state::<Hoplit>(&pos)?;
        validate(&pos)?;
        if let Some(ep) = ep_claim {
            chess::validate_ep_claim(&pos, ep)?;
            if ep_capture_possible(&pos, ep) {
                pos.ep_square = Some(ep);
            }
        }
        update_checkers(&mut pos);
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    #[inline]
    fn is_insufficient_material(pos: &Position) -> bool {
        chess::insufficient_material(pos)
    }

    fn can_mate(pos: &Position, side: Color) -> bool {
        chess::has_mating_material(pos, side)
    }

    #[inline]
    fn reserve_in_play(_pos: &Position, _color: Color) -> bool {
        true
    }
}

/// Whether `sq` is attacked by `by`: FIDE attackers and Hoplits.
pub(crate) fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let b = pos.board();
    let occ = b.occupied();
    pos.attackers_to(sq, by, occ).any()
        || hoplit_attackers(
            sq,
            b.pieces(by, Role::Hoplit),
            occ,
            b.pieces(!by, Role::Pawn),
        )
        .any()
}

/// Recomputes the checkers of the side to move, Hoplits included.
pub(crate) fn update_checkers(pos: &mut Position) {
    pos.update_checkers_fide();
    add_hoplit_checkers(pos);
}

/// Adds the Hoplits that check the side to move to its checkers.
#[inline]
fn add_hoplit_checkers(pos: &mut Position) {
    let b = pos.board();
    let us = pos.turn();
    if let Some(k) = b.king_of(us) {
        let hoplits = b.pieces(!us, Role::Hoplit);
        if hoplits.any() {
            let h = hoplit_attackers(k, hoplits, b.occupied(), b.pieces(us, Role::Pawn));
            pos.checkers |= h;
        }
    }
}

/// Plays a legal Hoplit Chess move.
pub(crate) fn play(pos: &mut Position, m: Move) {
    if m.kind() == MoveKind::Drop {
        let us = pos.turn();
        let role = m.role().expect("a dropped piece");
        let to = m.to().expect("a drop square");
        let up = us.fold(1, -1);
        let pawn_from = to.offset(0, up).expect("on the board");
        let pawn_to = pawn_from.offset(0, up).expect("on the board");
        pos.set_ep(None);
        let pawn = pos.take_piece(pawn_from).expect("the pawn in front");
        pos.put_piece(pawn_to, pawn);
        pos.put_piece(to, Piece::new(us, role));
        let left = pos.reserve(us, role) - 1;
        pos.set_reserve(us, role, left);
        // C4, L5: the pawn step is a pawn move.
        pos.halfmove = 0;
        pos.switch_turn();
        update_checkers(pos);
        return;
    }
    // chess::play finds the FIDE checkers.
    chess::play(pos, m);
    add_hoplit_checkers(pos);
    // chess::play keeps the en-passant square when a capture is legal
    // against FIDE pieces; the Hoplits may forbid it too (C2).
    if let Some(ep) = pos.ep_square() {
        if !ep_capture_possible(pos, ep) {
            pos.set_ep(None);
        }
    }
}

// ---- Checking a setup ----

/// A side's men at the start (L1): FIDE chess's and the Hoplit, by
/// [`Role::index`].
const ARMY: [u8; 7] = [8, 2, 2, 2, 1, 1, 1];

/// One king a side, at most 17 men a side counting the reserve (16 and the
/// Hoplit), no more pawns or promoted men (L5: Hoplits too, on the board
/// and in reserve together) than the army allows, no pawn on a back rank,
/// the side not to move not in check.
fn validate(pos: &Position) -> Result<(), FenError> {
    let b = pos.board();
    for c in Color::ALL {
        let kings = b.count(c, Role::King);
        if kings != 1 {
            return Err(FenError::KingCount(c.name(), kings));
        }
        let n = b.by_color(c).count() + u32::from(pos.reserve(c, Role::Hoplit));
        if n > 17 {
            return Err(FenError::TooManyPieces(c.name(), n));
        }
    }
    material::check_army(pos, &ARMY)?;
    chess::validate_pawn_ranks(pos)?;
    let them = !pos.turn();
    let their_king = b.king_of(them).expect("one king");
    if is_attacked(pos, their_king, pos.turn()) {
        return Err(FenError::OppositeCheck(them.name()));
    }
    Ok(())
}

// ---- Why a drop is refused ----

/// Why the side to move cannot drop its Hoplit on a square (L4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DropRefusal {
    /// No Hoplit left in reserve.
    NoneInReserve,
    /// Not the side's own first rank.
    NotFirstRank,
    /// A man stands on the square.
    Occupied,
    /// No own pawn stands right in front of the square to be pushed.
    NoPawn,
    /// The pawn in front cannot step: the square ahead of it is taken.
    PawnBlocked,
    /// Every condition holds but the push would leave the king in check.
    KingInCheck,
}

/// Why a drop on `to` is not among the legal moves of `pos`, in the order
/// the conditions of L4 read; `None` when the drop is legal.
pub(crate) fn drop_refusal(pos: &Position, to: Square) -> Option<DropRefusal> {
    let us = pos.turn();
    let legal = pos
        .legal_moves()
        .into_iter()
        .any(|m| m.kind() == MoveKind::Drop && m.to() == Some(to));
    if legal {
        return None;
    }
    let up = us.fold(1, -1);
    let first = us.fold(0, 7);
    let refusal = if pos.reserve(us, Role::Hoplit) == 0 {
        DropRefusal::NoneInReserve
    } else if to.rank().index() != first {
        DropRefusal::NotFirstRank
    } else if pos.board().piece_at(to).is_some() {
        DropRefusal::Occupied
    } else {
        let pawn_from = to.offset(0, up).expect("the second rank");
        let pawn_to = pawn_from.offset(0, up).expect("the third rank");
        if pos.board().piece_at(pawn_from) != Some(Piece::new(us, Role::Pawn)) {
            DropRefusal::NoPawn
        } else if pos.board().piece_at(pawn_to).is_some() {
            DropRefusal::PawnBlocked
        } else {
            DropRefusal::KingInCheck
        }
    };
    Some(refusal)
}
