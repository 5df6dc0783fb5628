//! Long notation (UCI, rulings N1-N6) read against positions and played.
//! The first byte picks the start position (`springboard_fuzz::pool`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::uci_target(data);
});
