//! The bench signature check: the node count of `springboard bench` must be
//! the one the commit log declares. Every commit that changes the search or
//! the evaluation ends its message with `Bench: N`; the newest such line on
//! the first-parent history of `HEAD` (merge commits into main carry it) is
//! the expected signature. The binary is this test build's (the test profile
//! is optimised), and the bench is deterministic: one thread, fixed depths.

use std::path::Path;
use std::process::Command;

/// The newest `Bench: N` of a `git log --format=%H%n%B%x00` text (commits
/// newest first, each its hash line then its message, ended by a NUL):
/// the commit that declares it and N. A message with several such lines
/// counts its last; `Bench:` followed by anything but a number is prose.
fn newest_bench(log: &str) -> Option<(&str, u64)> {
    log.split('\0').find_map(|entry| {
        let entry = entry.trim_start_matches('\n');
        let (hash, message) = entry.split_once('\n')?;
        let n = message
            .match_indices("Bench: ")
            .filter(|&(i, _)| {
                message[..i]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric())
            })
            .filter_map(|(i, tag)| {
                let digits: String = message[i + tag.len()..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                digits.parse::<u64>().ok()
            })
            .last()?;
        Some((hash, n))
    })
}

/// The node count `springboard bench` prints (`Nodes searched  : N`).
fn bench_nodes(stdout: &str) -> Option<u64> {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched"))
        .and_then(|rest| rest.trim_start().strip_prefix(':'))
        .and_then(|n| n.trim().parse().ok())
}

#[test]
fn newest_bench_line_of_a_log() {
    let log = "c3\nweb: a fix\n\nNo functional change\n\0\
               c2\neval: one helper (No functional change, Bench: 6735662)\n\0\
               c1\nsearch: LMR\n\nBench: 2847406 (unchanged)\nBench: 2900000\n\0";
    assert_eq!(newest_bench(log), Some(("c2", 6_735_662)));
    let log = "c2\nbench: Bench: Jumping King positions\n\0c1\nx\n\nBench: 17\n\0";
    assert_eq!(newest_bench(log), Some(("c1", 17)));
    let log = "c2\nx\n\nBench: 9 and Bench: 10\n\0c1\ny\n\0";
    assert_eq!(newest_bench(log), Some(("c2", 10)));
    assert_eq!(newest_bench("c1\nTestBench: 5\n\0"), None);
    assert_eq!(newest_bench(""), None);
    assert_eq!(
        bench_nodes("x\n===\nNodes searched  : 6735662\nNodes/second    : 1\n"),
        Some(6_735_662)
    );
    assert_eq!(bench_nodes("Nodes searched: many\n"), None);
}

#[test]
fn bench_signature_matches_the_commit_log() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let log = Command::new("git")
        .current_dir(&root)
        .args(["log", "--first-parent", "--format=%H%n%B%x00", "HEAD"])
        .output()
        .unwrap_or_else(|e| panic!("bench signature check: cannot run git ({e})"));
    assert!(
        log.status.success(),
        "bench signature check: `git log` failed in {} (the check needs the \
         repository's history): {}",
        root.display(),
        String::from_utf8_lossy(&log.stderr)
    );
    let log = String::from_utf8_lossy(&log.stdout);
    let Some((commit, expected)) = newest_bench(&log) else {
        panic!(
            "bench signature check: no `Bench: N` line in the first-parent \
             history of HEAD (a shallow clone? fetch the history)"
        );
    };
    let out = Command::new(env!("CARGO_BIN_EXE_springboard"))
        .arg("bench")
        .output()
        .expect("bench signature check: cannot run springboard");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "bench signature check: `springboard bench` failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let Some(nodes) = bench_nodes(&stdout) else {
        panic!("bench signature check: no `Nodes searched` line in:\n{stdout}");
    };
    assert!(
        nodes == expected,
        "bench signature mismatch: `springboard bench` searched {nodes} nodes, \
         but the newest `Bench:` line of the commit log (commit {commit}) says \
         {expected}. A commit that changes the search or the evaluation must end \
         its message with `Bench: {nodes}`; a commit that means no functional \
         change must keep {expected}."
    );
}
