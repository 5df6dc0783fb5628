//! The position text (FEN) of `hopchess`: no panic; an accepted text
//! round-trips and its position passes [`springboard_fuzz::check_position`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::fen_target(springboard_rules::Variant::HopChess, data);
});
