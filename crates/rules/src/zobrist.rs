//! Zobrist keys, made at compile time from a fixed seed.
//!
//! Every part of a position that counts for repetition (ruling C2) has keys:
//! pieces, side to move, castling rights, the en-passant file, trampolines,
//! reserves and phase flags.

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

/// Indexed by `(color * 7 + role) * 64 + square`.
pub(crate) static PIECES: [u64; 2 * 7 * 64] = table(1);
pub(crate) static CASTLING: [u64; 16] = table(2);
pub(crate) static EP_FILE: [u64; 8] = table(3);
/// Indexed by `owner * 64 + square`.
pub(crate) static TRAMPOLINE: [u64; 2 * 64] = table(4);
/// Indexed by `(color * 7 + role) * 16 + count` (counts 0..16).
pub(crate) static RESERVE: [u64; 2 * 7 * 16] = table(5);
/// One key per bit of [`crate::Position`]'s phase byte.
pub(crate) static PHASE: [u64; 8] = table(6);
pub(crate) const SIDE: u64 = table::<1>(7)[0];

#[inline]
pub(crate) fn piece(color: crate::Color, role: crate::Role, sq: crate::Square) -> u64 {
    PIECES[(color.index() * 7 + role.index()) * 64 + sq.index()]
}
