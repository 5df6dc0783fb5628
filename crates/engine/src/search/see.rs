//! Static exchange evaluation and the material of captures: piece values,
//! what a move captures, whether an exchange wins, and quiescence's guess at
//! losing captures where the exchange cannot judge.

use super::profile::fide_exchange;
use springboard_rules::attacks::{bishop_attacks, rook_attacks};
use springboard_rules::{Color, Move, MoveKind, Position, Role};

/// Piece values for exchange evaluation and capture ordering, by
/// [`Role::index`]: pawn, knight, bishop, rook, queen, king, Hoplit (about
/// a bishop, L2).
const SEE_VALUE: [i32; 7] = [100, 320, 330, 500, 900, 20_000, 300];

pub(super) fn value(role: Role) -> i32 {
    SEE_VALUE[role.index()]
}

/// Whether `m` captures: its destination holds an enemy piece, or it takes
/// en passant.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    captured_role(pos, m).is_some()
}

/// The role `m` captures: the enemy piece on its destination, or a pawn
/// en passant.
#[inline]
pub(super) fn captured_role(pos: &Position, m: Move) -> Option<Role> {
    if m.kind() == MoveKind::EnPassant {
        return Some(Role::Pawn);
    }
    let board = pos.board();
    m.to()
        .filter(|&t| board.by_color(!pos.turn()).contains(t))
        .and_then(|t| board.role_at(t))
}

/// For quiescence where [`see_ge`] cannot judge (bounces, Hoplit
/// screens): whether `m` takes a piece worth less than the capturer on a
/// square the enemy attacks (P8 attacks, trampolines and screens
/// included). A guess, not an exchange: the capture may still win (the
/// recapture may be illegal, or lose more), but quiescence in the bounce
/// games has far more captures than chess and needs some filter.
pub(super) fn likely_losing(pos: &Position, m: Move) -> bool {
    let (Some(from), Some(to)) = (m.from(), m.to()) else {
        return false;
    };
    if m.promotion_role().is_some() || fide_exchange(pos, to) {
        return false;
    }
    let victim = captured_role(pos, m).map_or(0, value);
    let attacker = pos.board().role_at(from).map_or(0, value);
    victim < attacker && pos.is_attacked(to, !pos.turn())
}

/// Static exchange evaluation: whether the exchange `m` starts on its
/// destination wins at least `threshold` centipawns. Exact for FIDE
/// captures (pins aside) where the search profile (`fide_exchange`) says
/// FIDE attacks hold; elsewhere it answers `threshold <= 0` (no pruning, no
/// reordering).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.kind() != MoveKind::Normal || m.role().is_some() {
        return threshold <= 0;
    }
    let (Some(from), Some(to)) = (m.from(), m.to()) else {
        return threshold <= 0;
    };
    if !fide_exchange(pos, to) {
        return threshold <= 0;
    }
    let b = pos.board();
    let mut swap = captured_role(pos, m).map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = b.role_at(from).map_or(0, value) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = b.occupied().without(from).without(to);
    let mut stm = pos.turn();
    let mut attackers =
        pos.attackers_to(to, Color::White, occ) | pos.attackers_to(to, Color::Black, occ);
    let bishops = b.bishop_likes();
    let rooks = b.rook_likes();
    let mut res = 1;
    loop {
        stm = !stm;
        attackers &= occ;
        let ours = attackers & b.by_color(stm);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let Some(role) = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .find(|&r| (ours & b.by_role(r)).any()) else {
            break;
        };
        if role == Role::King {
            return if (attackers & !b.by_color(stm)).any() {
                res ^ 1 == 1
            } else {
                res == 1
            };
        }
        swap = value(role) - swap;
        if swap < res {
            break;
        }
        if let Some(sq) = (ours & b.by_role(role)).first() {
            occ = occ.without(sq);
        }
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occ) & bishops;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occ) & rooks;
        }
    }
    res == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::notation::uci::parse_uci;
    use springboard_rules::Variant;

    #[test]
    fn exchange_evaluation() {
        let pos = Position::from_fen(
            Variant::Chess,
            "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        )
        .unwrap();
        let rxe5 = parse_uci(&pos, "e1e5").unwrap();
        assert!(see_ge(&pos, rxe5, 0));
        assert!(see_ge(&pos, rxe5, 100));
        assert!(!see_ge(&pos, rxe5, 101));
        let pos = Position::from_fen(
            Variant::Chess,
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        )
        .unwrap();
        let nxe5 = parse_uci(&pos, "d3e5").unwrap();
        assert!(!see_ge(&pos, nxe5, 0));
        assert!(see_ge(&pos, nxe5, -220));
    }
}
