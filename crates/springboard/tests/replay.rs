//! `springboard replay` on the seed games, through the built binary.

use std::process::Command;

#[test]
fn replays_the_jumping_king_seed_game() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rules/tests/games/jumping-king.txt"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_springboard"))
        .args(["replay", "--variant", "jumpingking", file])
        .output()
        .expect("the springboard binary runs");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(out.status.success(), "{stdout}");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some(
            "a1c2 f8d7 c2e3b d7f6b e3c4r f6d5b c4d2p d5c7p d2e4b c7a6n e4c3p a6c5r \
             c3a2n c5b7p a2b4r b7d6r b4d3p d6b5n d3b2n b5a7p a2a6 a7a6 c4b5 c7b5 \
             b4c5 b5c3 b2a3 d6b5 a3b2 b5d4 b2a3 d4c2"
        )
    );
    assert!(stdout.contains("\nFen: 8/1r1b4/k4b2/2Pp4/4P3/K1nNR3/2nB4/8[] w - 0 17\n"));
    assert!(stdout.ends_with("\nResult: 0-1 (checkmate)\n"), "{stdout}");
}
