//! What the games check of a setup's men and state beyond the board, as
//! strict engines validate a position (each game's document lists them in
//! "Positions Springboard refuses"):
//!
//! - state a game does not have: trampolines outside Hop Chess and
//!   Trampoline Chess, reserves beyond what a side starts with (none
//!   outside Jumping King and Hoplit Chess), phase bits the game does not
//!   use ([`check_state`]);
//! - material no game from the start reaches: more pawns than a side
//!   starts with, and more men of a kind than its missing pawns could have
//!   made by promotion ([`check_army`], [`promoted`]). Bishops count by
//!   kind in the games with FIDE's army (chess.md says why), by the colour
//!   of their squares too in Jumping King (J5).

use super::GameRules;
use crate::bitboard::Bitboard;
use crate::error::{FenError, MaterialError};
use crate::position::Position;
use crate::types::{Color, Role};

/// A side's men at the start of FIDE chess, Hop Chess and Trampoline Chess,
/// by [`Role::index`]: 8 pawns, 2 knights, 2 bishops, 2 rooks, a queen and
/// the king.
pub(crate) const FIDE_ARMY: [u8; 7] = [8, 2, 2, 2, 1, 1, 0];

/// The light squares (h1, a2, ...).
const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

/// Refuses state that game `G` does not have: trampolines without bounce
/// rules, more men of a kind in reserve than `G::RESERVE_START` (none in
/// the games without a reserve), phase bits outside `G::PHASE_BITS`.
pub(crate) fn check_state<G: GameRules>(pos: &Position) -> Result<(), FenError> {
    if G::BOUNCE.is_none() && pos.trampolines.iter().any(Option::is_some) {
        return Err(FenError::NoTrampolines(G::VARIANT.name()));
    }
    for c in Color::ALL {
        for r in Role::ALL {
            let count = u32::from(pos.reserve(c, r));
            let max = u32::from(G::RESERVE_START[r.index()]);
            if count > max {
                return Err(if max == 0 {
                    FenError::ReserveNotInGame {
                        color: c.name(),
                        kind: r.plural(),
                        variant: G::VARIANT.name(),
                    }
                } else {
                    FenError::ReserveTooLarge {
                        color: c.name(),
                        kind: r.plural(),
                        count,
                        max,
                    }
                });
            }
        }
    }
    if pos.phase & !G::PHASE_BITS != 0 {
        return Err(FenError::PhaseNotInGame {
            bits: pos.phase,
            variant: G::VARIANT.name(),
        });
    }
    Ok(())
}

/// The men of `color` that must be promoted pawns, as the number and a
/// text naming them: for each kind, the men on the board and in reserve
/// beyond `army` (the side's men at the start, by [`Role::index`]).
/// With `bishops_by_colour` (Jumping King, J5), a side's two bishops stand
/// on squares of both colours and never change colour, so a second bishop
/// on one colour is promoted too (bishops still in reserve may go either
/// way); otherwise bishops count by kind, like the other men.
pub(crate) fn promoted(
    pos: &Position,
    color: Color,
    army: &[u8; 7],
    bishops_by_colour: bool,
) -> (u32, String) {
    let b = pos.board();
    let mut total = 0;
    let mut parts = Vec::new();
    for r in Role::ALL {
        if matches!(r, Role::Pawn | Role::King) {
            continue;
        }
        let start = u32::from(army[r.index()]);
        let reserve = u32::from(pos.reserve(color, r));
        if r == Role::Bishop && bishops_by_colour {
            let bishops = b.pieces(color, Role::Bishop);
            let light = (bishops & LIGHT).count();
            let dark = bishops.count() - light;
            let originals = start
                .saturating_sub(reserve)
                .min(light.min(1) + dark.min(1));
            let extra = bishops.count() - originals;
            if extra > 0 {
                total += extra;
                if reserve > 0 {
                    // Only possible with more than `start` in all.
                    parts.push(format!(
                        "{} bishops on the board and in reserve (a side starts with {start})",
                        bishops.count() + reserve
                    ));
                } else {
                    for (n, colour) in [(light, "light"), (dark, "dark")] {
                        if n > 1 {
                            parts.push(format!(
                                "{n} bishops on {colour} squares (a side starts with 1)"
                            ));
                        }
                    }
                }
            }
            continue;
        }
        let owned = b.count(color, r) + reserve;
        if owned > start {
            total += owned - start;
            let place = if reserve > 0 {
                " on the board and in reserve"
            } else {
                ""
            };
            parts.push(format!(
                "{owned} {}{place} (a side starts with {start})",
                r.plural()
            ));
        }
    }
    (total, parts.join(", "))
}

/// Refuses more pawns than `army` holds, and more promoted men
/// ([`promoted`]) than `color`'s missing pawns could have made.
pub(crate) fn check_army(pos: &Position, army: &[u8; 7]) -> Result<(), FenError> {
    for c in Color::ALL {
        let pawns = pos.board().count(c, Role::Pawn) + u32::from(pos.reserve(c, Role::Pawn));
        let start = u32::from(army[Role::Pawn.index()]);
        if pawns > start {
            return Err(MaterialError::TooManyPawns {
                color: c.name(),
                pawns,
                max: start,
            }
            .into());
        }
        let (count, men) = promoted(pos, c, army, false);
        if count > start - pawns {
            return Err(MaterialError::TooManyPromoted {
                color: c.name(),
                men,
                promoted: count,
                pawns_gone: start - pawns,
            }
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{chess::Chess, hoplit::Hoplit, jumpingking::JumpingKing};
    use super::super::{hopchess::HopChess, trampoline::Trampoline};
    use super::*;
    use crate::board::Board;
    use crate::position::Setup;
    use crate::types::{Piece, Square};

    /// Kings on e1 and e8 (a1 and f8 for Jumping King), nothing else.
    fn setup(jumping_king: bool) -> Setup {
        let mut b = Board::empty();
        let (w, bl) = if jumping_king {
            (Square::A1, Square::F8)
        } else {
            (Square::E1, Square::E8)
        };
        b.put(w, Piece::new(Color::White, Role::King));
        b.put(bl, Piece::new(Color::Black, Role::King));
        Setup::new(b)
    }

    #[test]
    fn state_a_game_does_not_have_is_refused() {
        let mut s = setup(false);
        s.trampolines = [Some(Square::D4), None];
        assert_eq!(
            Chess::from_setup(s.clone()).unwrap_err(),
            FenError::NoTrampolines("chess")
        );
        assert_eq!(
            Hoplit::from_setup(s).unwrap_err(),
            FenError::NoTrampolines("hoplit")
        );
        let mut s = setup(true);
        s.trampolines = [None, Some(Square::C4)];
        assert_eq!(
            JumpingKing::from_setup(s).unwrap_err(),
            FenError::NoTrampolines("jumpingking")
        );

        let mut s = setup(false);
        s.reserves[Color::Black.index()][Role::Hoplit.index()] = 1;
        for err in [
            Chess::from_setup(s.clone()).unwrap_err(),
            Trampoline::from_setup(s.clone()).unwrap_err(),
            HopChess::from_setup(s.clone()).unwrap_err(),
        ] {
            assert!(matches!(
                err,
                FenError::ReserveNotInGame {
                    color: "Black",
                    kind: "hoplits",
                    ..
                }
            ));
        }
        assert_eq!(
            Chess::from_setup(s.clone()).unwrap_err().to_string(),
            "Black holds hoplits in reserve, but chess has no hoplits in reserve"
        );
        s.reserves[Color::Black.index()][Role::Hoplit.index()] = 2;
        assert_eq!(
            Hoplit::from_setup(s).unwrap_err(),
            FenError::ReserveTooLarge {
                color: "Black",
                kind: "hoplits",
                count: 2,
                max: 1
            }
        );
        let mut s = setup(false);
        s.reserves[Color::White.index()][Role::Queen.index()] = 1;
        assert_eq!(
            Hoplit::from_setup(s).unwrap_err(),
            FenError::ReserveNotInGame {
                color: "White",
                kind: "queens",
                variant: "hoplit"
            }
        );
        let mut s = setup(true);
        s.reserves[Color::White.index()][Role::Knight.index()] = 3;
        assert_eq!(
            JumpingKing::from_setup(s).unwrap_err(),
            FenError::ReserveTooLarge {
                color: "White",
                kind: "knights",
                count: 3,
                max: 2
            }
        );

        // Turn-state bits: none in chess, Trampoline Chess and Hoplit Chess
        // (Trampoline Chess used to clear them silently).
        let mut s = setup(false);
        s.phase = 1;
        assert_eq!(
            Trampoline::from_setup(s.clone()).unwrap_err(),
            FenError::PhaseNotInGame {
                bits: 1,
                variant: "trampoline"
            }
        );
        assert_eq!(
            Trampoline::from_setup(s.clone()).unwrap_err().to_string(),
            "trampoline has no turn state 0b01"
        );
        assert!(matches!(
            Chess::from_setup(s.clone()).unwrap_err(),
            FenError::PhaseNotInGame { bits: 1, .. }
        ));
        assert!(matches!(
            Hoplit::from_setup(s).unwrap_err(),
            FenError::PhaseNotInGame { bits: 1, .. }
        ));
        let mut s = setup(true);
        s.phase = 4;
        assert!(matches!(
            JumpingKing::from_setup(s).unwrap_err(),
            FenError::PhaseNotInGame { bits: 4, .. }
        ));
        let mut s = setup(false);
        s.phase = 4;
        assert!(matches!(
            HopChess::from_setup(s.clone()).unwrap_err(),
            FenError::PhaseNotInGame { bits: 4, .. }
        ));
        // `first` and `place` at once.
        s.phase = 3;
        assert_eq!(
            HopChess::from_setup(s).unwrap_err(),
            FenError::PhaseNotInGame {
                bits: 3,
                variant: "hopchess"
            }
        );
    }
}
