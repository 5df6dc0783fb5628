//! Move sequences played on a Game.
//! The first byte picks the start position (`springboard_fuzz::pool`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::game_target(data);
});
