//! Stamps the binary with the commit it is built from: `SPRINGBOARD_COMMIT`
//! is `git rev-parse --short HEAD`, or `unknown` without git (a source
//! tarball, no git program). `springboard --version` prints it. Cargo runs
//! this again when HEAD moves: a checkout (HEAD) or a commit (the ref
//! HEAD names, loose or packed).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `git args...` run in the crate's directory, its output trimmed, or
/// `None` when git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// A path git printed, relative to the crate's directory when not absolute.
fn git_path(text: String) -> PathBuf {
    let path = PathBuf::from(text);
    if path.is_absolute() {
        path
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }
}

fn main() {
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=SPRINGBOARD_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]).map(git_path) {
        println!("cargo:rerun-if-changed={}", dir.join("HEAD").display());
    }
    if let (Some(common), Some(head_ref)) = (
        git(&["rev-parse", "--git-common-dir"]).map(git_path),
        git(&["symbolic-ref", "-q", "HEAD"]),
    ) {
        for path in [common.join(&head_ref), common.join("packed-refs")] {
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}
