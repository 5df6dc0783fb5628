//! SAN read against positions and played.
//! The first byte picks the start position (`springboard_fuzz::pool`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::san_target(data);
});
