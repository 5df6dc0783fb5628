//! UCI command streams fed to a session of the `springboard uci` front end
//! (springboard::uci), its searches bounded by the harness.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    springboard_fuzz::protocol::uci_target(data);
});
