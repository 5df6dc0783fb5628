//! Embeds the SQL migrations (`migrations/sqlite/` and
//! `migrations/postgres/`, files `NNNN_description.sql`) in the binary, as
//! sqlx's `migrate!` macro would, without the macro: sqlx's `macros`
//! feature compiles a second copy of sqlx, both database drivers and
//! SQLite's C source for the compiler itself (CONTRIBUTING.md, "CI").
//! `src/store/migrations.rs` turns the list into sqlx migrations; a test
//! there checks them against sqlx's own reading of the directories.
//!
//! Also lists the page's WebAssembly build (`scripts/wasm.sh` writes it to
//! `wasm/`, which git ignores) for `src/assets.rs`: each file under a name
//! with its content's hash, so a browser may keep it for good, and
//! `wasm.json` naming them for the page. Without that build the list is
//! empty and the page plays through the server alone.
//!
//! And lists the lab's results (`lab/*.json` at the repository's root,
//! written by `springboard lab`) for `src/lab/source.rs`, each embedded
//! whole; without a `lab/` directory the list is empty.

use std::fmt::Write;
use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut code = String::new();
    for backend in ["sqlite", "postgres"] {
        let dir = Path::new(&manifest).join("migrations").join(backend);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<_> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
            .collect();
        files.sort();
        writeln!(
            code,
            "/// The migrations of `migrations/{backend}/`: version, description, SQL.\n\
             pub(super) const {}: &[(i64, &str, &str)] = &[",
            backend.to_uppercase()
        )
        .expect("writing to a String");
        for path in files {
            println!("cargo:rerun-if-changed={}", path.display());
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a UTF-8 file name");
            let stem = name.strip_suffix(".sql").expect("a .sql file");
            let (version, description) = stem
                .split_once('_')
                .unwrap_or_else(|| panic!("{name}: a migration is named NNNN_description.sql"));
            assert!(
                !description.ends_with(".up") && !description.ends_with(".down"),
                "{name}: reversible migrations are not used here"
            );
            let version: i64 = version
                .parse()
                .unwrap_or_else(|_| panic!("{name}: the version before '_' is a number"));
            let description = description.replace('_', " ");
            writeln!(
                code,
                "    ({version}, {description:?}, include_str!({:?})),",
                path.display().to_string()
            )
            .expect("writing to a String");
        }
        code.push_str("];\n");
    }
    fs::write(Path::new(&out).join("migrations.rs"), code).expect("writing OUT_DIR/migrations.rs");
    fs::write(
        Path::new(&out).join("wasm_assets.rs"),
        wasm_assets(&manifest),
    )
    .expect("writing OUT_DIR/wasm_assets.rs");
    fs::write(Path::new(&out).join("lab_files.rs"), lab_files(&manifest))
        .expect("writing OUT_DIR/lab_files.rs");
}

/// `LAB_FILES`: each `lab/<question>.json` of the repository as (file
/// name, its bytes), sorted by name; empty without a `lab/` directory.
/// The files are embedded as the lab wrote them and checked when served
/// (`src/lab/schema.rs`), so a bad one is an answer's error, not a
/// failed build.
fn lab_files(manifest: &str) -> String {
    let dir = Path::new(manifest).join("../../lab");
    // A directory that does not exist makes cargo run this script at every
    // build: correct (the files appear when `springboard lab` first
    // writes them), and only until the repository has its `lab/`.
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = match fs::read_dir(&dir) {
        Ok(entries) => entries
            .map(|entry| entry.expect("a directory entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    let mut code = String::from(
        "/// The lab's results embedded at build time: (file name, bytes).\n\
         pub(super) const LAB_FILES: &[(&str, &[u8])] = &[\n",
    );
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        // A name that is not UTF-8 is no question's (`<question>.json`).
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    code.push_str("];\n");
    code
}

/// The files `scripts/wasm.sh` writes (the bindings' ES module and the
/// WebAssembly it loads).
const WASM_FILES: [(&str, &str); 2] = [("springboard.js", "js"), ("springboard_bg.wasm", "wasm")];

/// FNV-1a, 64 bits: a name that changes with the content (not a checksum
/// against tampering; the files come from this build).
fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `WASM_ASSETS` (name, path to embed) and `WASM_MANIFEST` (the JSON the
/// page reads, or `None` when the WebAssembly build is absent).
fn wasm_assets(manifest: &str) -> String {
    // The folder is in git (its .gitignore): a path that does not exist
    // would make cargo run this script again at every build. A file added
    // or removed changes the folder; scripts/wasm.sh renames files into it.
    let dir = Path::new(manifest).join("wasm");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut entries = Vec::new();
    let mut names = Vec::new();
    for (file, key) in WASM_FILES {
        let path = dir.join(file);
        let Ok(bytes) = fs::read(&path) else {
            return "pub(crate) const WASM_ASSETS: &[(&str, &[u8])] = &[];\n\
                    pub(crate) const WASM_MANIFEST: Option<&str> = None;\n"
                .to_string();
        };
        println!("cargo:rerun-if-changed={}", path.display());
        let (stem, ext) = file.rsplit_once('.').expect("a file with an extension");
        let name = format!("{stem}-{:016x}.{ext}", content_hash(&bytes));
        entries.push(format!(
            "({name:?}, include_bytes!({:?}))",
            path.display().to_string()
        ));
        names.push(format!("\"{key}\": \"/static/{name}\""));
    }
    let json = format!("{{{}}}", names.join(", "));
    format!(
        "pub(crate) const WASM_ASSETS: &[(&str, &[u8])] = &[{}];\n\
         pub(crate) const WASM_MANIFEST: Option<&str> = Some({json:?});\n",
        entries.join(", ")
    )
}
