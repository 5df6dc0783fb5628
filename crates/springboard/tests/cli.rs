//! Drives the `springboard` binary as a user (or a GUI) would.

use std::io::Write;
use std::process::{Command, Stdio};

fn springboard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_springboard"))
}

#[test]
fn perft_command() {
    let out = springboard()
        .args(["perft", "--variant", "chess", "--depth", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Nodes searched: 8902\n"
    );

    let out = springboard()
        .args(["perft", "--depth", "2", "--divide", "--moves", "e2e4 d7d5"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\ne4d5: 28\n"), "{text}");
    assert!(text.ends_with("\n\nNodes searched: 866\n"), "{text}");
}

#[test]
fn perft_command_rejects_bad_input() {
    let out = springboard()
        .args(["perft", "--depth", "2", "--fen", "not a fen"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad --fen"), "{err}");
    assert!(err.contains("expected 6 (or 4) fields"), "{err}");

    let out = springboard()
        .args(["perft", "--depth", "2", "--moves", "e2e5"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("illegal move 'e2e5'"), "{err}");

    let out = springboard()
        .args(["perft", "--variant", "shogi", "--depth", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant 'shogi'"));
}

#[test]
fn uci_session_over_pipes() {
    let mut child = springboard()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Garbage, invalid UTF-8 and an illegal move never stop the session.
    stdin.write_all(b"uci\nhello\n\xff\xfe\n").unwrap();
    stdin
        .write_all(b"position startpos moves e2e4 e7e5 e1e8\nposition startpos moves e2e4\n")
        .unwrap();
    stdin.write_all(b"go perft 1\nisready\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("uciok\n"), "{text}");
    assert!(
        text.contains("info string unknown command: hello\n"),
        "{text}"
    );
    assert!(text.contains("info string input is not UTF-8\n"), "{text}");
    assert!(text.contains("info string illegal move 'e1e8'"), "{text}");
    assert!(text.contains("\nNodes searched: 20\n"), "{text}");
    assert!(text.trim_end().ends_with("readyok"), "{text}");
}

#[test]
fn search_bench_covers_every_game_and_is_deterministic() {
    let run = || {
        let out = springboard()
            .args(["bench", "--depth", "3"])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = run();
    for game in ["chess", "hoplit", "jumpingking", "trampoline", "hopchess"] {
        assert!(
            first.lines().any(|l| l.starts_with(&format!("{game} "))),
            "{game} missing:\n{first}"
        );
    }
    let nodes = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("Nodes searched  : "))
            .map(str::to_string)
            .expect("a node count")
    };
    assert_eq!(nodes(&first), nodes(&run()));
}
