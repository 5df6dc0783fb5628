//! XBoard command streams fed to a session of the `springboard xboard`
//! front end (springboard::xboard), its searches bounded by the harness.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::protocol::xboard_target(data);
});
