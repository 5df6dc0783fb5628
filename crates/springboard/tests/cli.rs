//! Drives the `springboard` binary as a user (or a GUI) would.

use std::io::Write;
use std::process::{Command, Stdio};

fn springboard() -> Command {
    Command::new(env!("CARGO_BIN_EXE_springboard"))
}

#[test]
fn version_names_the_commit() {
    let out = springboard().arg("--version").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want_version = format!("springboard {} (", env!("CARGO_PKG_VERSION"));
    assert!(text.starts_with(&want_version), "{text}");
    let commit = text[want_version.len()..]
        .strip_suffix(")\n")
        .unwrap_or_else(|| panic!("{text}"));
    // In a git checkout, the commit built (cargo rebuilds when HEAD
    // moves); else "unknown".
    let head = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8(o.stdout).unwrap().trim().to_string());
    match head {
        Some(head) => assert_eq!(commit, head, "{text}"),
        None => assert_eq!(commit, "unknown", "{text}"),
    }
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
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    // Garbage, invalid UTF-8 and an illegal move never stop the session.
    stdin.write_all(b"uci\nhello\n\xff\xfe\n").unwrap();
    stdin
        .write_all(b"position startpos moves e2e4 e7e5 e1e8\nposition startpos moves e2e4\n")
        .unwrap();
    // `go perft` runs in the search thread: wait for its total before
    // `quit` (which would stop it).
    stdin.write_all(b"go perft 1\n").unwrap();
    stdin.flush().unwrap();
    let mut text = String::new();
    while !text.contains("Nodes searched") {
        assert!(std::io::BufRead::read_line(&mut stdout, &mut text).unwrap() > 0);
    }
    stdin.write_all(b"isready\nquit\n").unwrap();
    drop(stdin);
    std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
    assert!(child.wait().unwrap().success());
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

#[test]
fn perft_depth_0_counts_the_position_itself() {
    // Issue 16, item 9: `perft --depth 0` (with or without --divide) and
    // `go perft 0` all count 1.
    for args in [
        &["perft", "--depth", "0"][..],
        &["perft", "--depth", "0", "--divide"][..],
    ] {
        let out = springboard().args(args).output().unwrap();
        assert!(out.status.success());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "Nodes searched: 1\n",
            "{args:?}"
        );
    }
    let out = uci_output("go perft 0\n");
    assert_eq!(out, "\nNodes searched: 1\n\n");
}

/// Everything `springboard uci` writes for `input` (then the end of input).
fn uci_output(input: &str) -> String {
    let mut child = springboard()
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn uci_go_perft_stops_and_quits() {
    // Issue 16, item 2: `go perft` at the deepest depth still answers
    // isready and stop.
    let out = uci_output("position startpos\ngo perft 20\nisready\nstop\nquit\n");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "readyok",
            "info string perft stopped: 0 of 20 first moves counted",
        ]
    );
}

/// The lines of a full `go perft 3` from the start, then its total.
fn startpos_perft_3(out: &str) {
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 23, "{out}");
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert!(out.ends_with("\n\nNodes searched: 8902\n\n"), "{out}");
}

#[test]
fn uci_go_perft_counts_to_its_end_before_quit() {
    // Issue 46, item 3: Stockfish's convention. A piped `go perft N`
    // followed by `quit`, or by the end of the input, prints the full count.
    startpos_perft_3(&uci_output("position startpos\ngo perft 3\nquit\n"));
    startpos_perft_3(&uci_output("position startpos\ngo perft 3\n"));
    // Each `go perft` of a script counts to its end before the next quit.
    let out = uci_output("position startpos\ngo perft 3\nisready\nquit\nisready\n");
    assert!(
        out.starts_with("readyok\n") || out.contains("\nreadyok\n"),
        "{out}"
    );
    assert_eq!(out.matches("readyok").count(), 1, "{out}");
    startpos_perft_3(&out.replacen("readyok\n", "", 1));
}

#[test]
fn uci_refuses_go_after_a_refused_position() {
    // Issue 16, item 3.
    let out = uci_output(
        "position startpos moves e2e4\nposition fen k7/8/8/8/8/8/8/QQQQQQQK w - - 0 1\ngo depth 6\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("info string bad position"), "{out}");
    assert!(lines[1].starts_with("info string error: no position to search"));
    assert_eq!(lines[2], "bestmove 0000");
}

#[test]
fn replay_stops_at_the_end_of_the_game() {
    // Issue 16, item 9: threefold repetition after 8 plies ends the game
    // (C2, C3); a ninth move is refused.
    let dir = std::env::temp_dir().join(format!("springboard-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ended = dir.join("ended.txt");
    std::fs::write(&ended, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8\n").unwrap();
    let out = springboard().arg("replay").arg(&ended).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with("\nResult: 1/2-1/2 (threefold repetition)\n"),
        "{text}"
    );
    let on = dir.join("on.txt");
    std::fs::write(&on, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4\n").unwrap();
    let out = springboard().arg("replay").arg(&on).output().unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "move 5. 'e4': the game ended after ply 8 (1/2-1/2, threefold repetition), \
             but the text goes on"
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `springboard user add NAME --password-stdin --data DIR` adds an account
/// with the checks of sign-up; a name taken in any case, a short password
/// or no `--password-stdin` is refused.
#[test]
fn user_add_makes_an_account() {
    let dir = tempfile::tempdir().unwrap();
    let add = |name: &str, password: &str, flag: bool| {
        let mut cmd = springboard();
        cmd.args(["user", "add", name, "--data"]).arg(dir.path());
        if flag {
            cmd.arg("--password-stdin");
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(format!("{password}\n").as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, text) = add("Alice", "a good password", true);
    assert!(ok, "{text}");
    assert!(text.contains("Added the account Alice"), "{text}");
    assert!(dir.path().join("springboard.sqlite3").exists());
    let (ok, text) = add("ALICE", "another password", true);
    assert!(
        !ok && text.contains("the username 'ALICE' is taken"),
        "{text}"
    );
    let (ok, text) = add("bob", "short", true);
    assert!(!ok && text.contains("at least 8"), "{text}");
    let (ok, text) = add("<b>", "a good password", true);
    assert!(!ok && text.contains("username"), "{text}");
    let (ok, text) = add("carol", "a good password", false);
    assert!(!ok && text.contains("--password-stdin"), "{text}");
    // The password is never printed.
    assert!(!text.contains("a good password"));
}

/// `serve --lab DIR` reads the Lab page's results from a directory: one
/// that is not there is refused at start, before anything listens.
#[test]
fn serve_refuses_a_lab_that_is_not_a_directory() {
    let data = tempfile::tempdir().unwrap();
    let missing = data.path().join("no-such-lab");
    let mut child = springboard()
        .args(["serve", "--port", "0", "--data"])
        .arg(data.path())
        .arg("--lab")
        .arg(&missing)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("serve --lab with no such directory is still running");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success());
    assert!(
        err.contains(&format!("--lab {}: not a directory", missing.display())),
        "{err}"
    );
}
