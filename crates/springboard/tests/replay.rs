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

#[test]
fn replays_pgn_of_every_form_the_writer_uses() {
    // Issue 11, items 1 and 2: a Hop Chess bounce with its placement and a
    // Hoplit drop, in PGN; the game comes from the Variant tag.
    let dir = std::env::temp_dir().join(format!("springboard-replay-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text, moves, result) in [
        (
            "hop.pgn",
            "[Event \"?\"]\n[Variant \"hopchess\"]\n\n1. e4 Nf6 d5 2. Nc3 c4 e5 d5 \
             3. Bf1-c4:f7 c4+ {check} 1-0\n",
            "e2e4 g8f6@d5 b1c3@c4 e7e5@d5 f1c4f7@c4",
            "Result: 1-0 (as the text states)",
        ),
        (
            "hoplit.pgn",
            "[Variant \"Hoplit Chess\"]\n\n1. Nf3 Nf6 2. H@g1 *\n",
            "g1f3 g8f6 H@g1",
            "Result: * (the game text ends before the game does)",
        ),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_springboard"))
            .arg("replay")
            .arg(&file)
            .output()
            .expect("the springboard binary runs");
        let stdout = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(out.status.success(), "{name}: {stdout}");
        assert_eq!(stdout.lines().next(), Some(moves), "{name}");
        assert!(
            stdout.ends_with(&format!("\n{result}\n")),
            "{name}: {stdout}"
        );
    }
    // A Hop Chess game asked for as chess is refused, naming its game.
    let out = Command::new(env!("CARGO_BIN_EXE_springboard"))
        .args(["replay", "--variant", "chess"])
        .arg(dir.join("hop.pgn"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("this is a game of Hop Chess (its Variant tag says so), not of Chess"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
