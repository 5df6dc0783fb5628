//! Embeds the SQL migrations (`migrations/sqlite/` and
//! `migrations/postgres/`, files `NNNN_description.sql`) in the binary, as
//! sqlx's `migrate!` macro would, without the macro: sqlx's `macros`
//! feature compiles a second copy of sqlx, both database drivers and
//! SQLite's C source for the compiler itself (CONTRIBUTING.md, "CI").
//! `src/store/migrations.rs` turns the list into sqlx migrations; a test
//! there checks them against sqlx's own reading of the directories.

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
}
