//! PGN texts (notation::pgn: read, read_all, read_fen, write), read as the
//! game the first byte asks for, written back and read again.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::pgn_target(data);
});
