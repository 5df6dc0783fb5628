//! Game texts in the seeds' old notation (notation::seed), replayed.
//! The first byte picks the start position (`springboard_fuzz::pool`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::seed_target(data);
});
