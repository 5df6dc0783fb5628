//! Request bodies sent to the play server's JSON API (springboard-web's
//! router, in process, over an in-memory SQLite store).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::web::web_target(data);
});
