//! The rulings are documented in the repository, and their examples hold.
//!
//! Code, tests and documents cite ruling ids (C1, P8, H6, T3, J7, L2, N3,
//! ...). Each id is defined by one section of `docs/rules/` whose heading
//! starts with the id, and `docs/rules/README.md` indexes them. This test
//! fails when
//!
//! - a file of the repository cites an id that is not a ruling (`H99`), or a
//!   ruling has no section, two sections, or no entry in the index;
//! - a section of `docs/rules/` is headed by an id that is not a ruling;
//! - a section has no example, or an example does not hold (examples are
//!   the ```` ```example ```` blocks, run here against the rules; the
//!   language is described in `docs/rules/README.md`).
//!
//! What counts as a citation (see [`citations`]): an upper-case family
//! letter C, P, H, T, J, L or N followed by a number of one or two digits
//! (not starting with 0), standing alone as a word; a range such as
//! `N1-N6` or `J4-J7` cites every id in it. Not citations: a Rust path
//! (`Square::H1`, `SprtState::H1`), a token next to a `/` (a rank of a
//! position text, `N7/PPPP`), a token followed by a space and a digit (SVG
//! path data, `L47 57`), a token followed by `=` (an enum variant given its
//! value, `C5 = 34`). This file is not scanned. Square names in prose are written in lower case
//! (`h1`), so an upper-case `H1` in a comment is read as ruling H1.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Game, Position, Variant};

/// The ruling set: each family and its number of rulings (C1-C4, P1-P9,
/// H1-H10, T1-T7, J1-J10, L1-L5, N1-N6), as in the rulings the project
/// implements.
const FAMILIES: [(char, u32); 7] = [
    ('C', 4),
    ('P', 9),
    ('H', 10),
    ('T', 7),
    ('J', 10),
    ('L', 5),
    ('N', 6),
];

/// Where citations are looked for, from the repository's root.
const SCANNED: [&str; 6] = ["crates", "scripts", "e2e", "docs", ".ci", "README.md"];

/// Folders never scanned: builds, dependencies, version control.
const SKIPPED_DIRS: [&str; 4] = ["target", "node_modules", ".git", "__pycache__"];

/// The kinds of file scanned (by extension; files without one, such as
/// `.ci/run`, too). Lock files, JSON and images are left out: their hashes
/// and path data can hold id-shaped words.
const SCANNED_EXTENSIONS: [&str; 11] = [
    "rs", "md", "py", "sh", "js", "mjs", "ts", "perft", "txt", "toml", "html",
];

/// This file: it shows ids that are not rulings on purpose.
const THIS_FILE: &str = "crates/rules/tests/rulings_documented.rs";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ruling_set() -> BTreeSet<String> {
    FAMILIES
        .iter()
        .flat_map(|&(letter, count)| (1..=count).map(move |n| format!("{letter}{n}")))
        .collect()
}

fn is_family(c: char) -> bool {
    FAMILIES.iter().any(|&(letter, _)| letter == c)
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A token `letter number` found at `start..end` of a line, not yet judged.
struct Token {
    letter: char,
    number: u32,
    start: usize,
    end: usize,
}

/// The id-shaped words of a line: a family letter, then 1 or 2 digits not
/// starting with 0, with no word character on either side.
fn tokens(line: &str) -> Vec<Token> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut out = Vec::new();
    for (i, &(start, c)) in chars.iter().enumerate() {
        if !is_family(c) || (i > 0 && is_word(chars[i - 1].1)) {
            continue;
        }
        let digits: String = chars[i + 1..]
            .iter()
            .map(|&(_, d)| d)
            .take_while(char::is_ascii_digit)
            .collect();
        if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
            continue;
        }
        let after = i + 1 + digits.len();
        if after < chars.len() && is_word(chars[after].1) {
            continue;
        }
        let end = chars.get(after).map_or(line.len(), |&(b, _)| b);
        let number = digits.parse().expect("one or two digits");
        out.push(Token {
            letter: c,
            number,
            start,
            end,
        });
    }
    out
}

/// The ruling ids a line cites (see the module's documentation for what
/// counts), ranges expanded.
fn citations(line: &str) -> Vec<String> {
    let toks = tokens(line);
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        let before = &line[..t.start];
        let rest = &line[t.end..];
        if before.ends_with("::") || before.ends_with('/') || rest.starts_with('/') {
            continue;
        }
        let mut rest_chars = rest.chars();
        if rest_chars.next() == Some(' ') && rest_chars.next().is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        if rest.trim_start().starts_with('=') && !rest.trim_start().starts_with("==") {
            continue;
        }
        out.push(format!("{}{}", t.letter, t.number));
        // A range: `N1-N6`, `N1–N6` or `N1..N6`, the same letter on both ends.
        if let Some(next) = toks.get(k + 1) {
            let between = &line[t.end..next.start];
            if next.letter == t.letter
                && matches!(between, "-" | "–" | "..")
                && next.number > t.number
            {
                for n in t.number + 1..next.number {
                    out.push(format!("{}{n}", t.letter));
                }
            }
        }
    }
    out
}

fn collect_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if SKIPPED_DIRS.contains(&name) {
            return;
        }
        let mut entries: Vec<PathBuf> = fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            collect_files(&entry, out);
        }
    } else if path.is_file() {
        let scanned = match path.extension().and_then(|x| x.to_str()) {
            None => true,
            Some(ext) => SCANNED_EXTENSIONS.contains(&ext),
        };
        if scanned {
            out.push(path.to_path_buf());
        }
    }
}

/// Every cited id with the places (`file:line`) citing it.
fn cited_ids() -> BTreeMap<String, Vec<String>> {
    let root = repo_root();
    let mut files = Vec::new();
    for entry in SCANNED {
        collect_files(&root.join(entry), &mut files);
    }
    assert!(
        files.len() > 50,
        "the scan found only {} files under {}",
        files.len(),
        root.display()
    );
    let mut cited: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files {
        // Text files only: anything that is not UTF-8 is skipped.
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        if shown == THIS_FILE {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            for id in citations(line) {
                cited
                    .entry(id)
                    .or_default()
                    .push(format!("{shown}:{}", n + 1));
            }
        }
    }
    cited
}

/// A section of a document of `docs/rules/` headed by a ruling id.
struct Section {
    id: String,
    file: String,
    line: usize,
    heading: String,
    body: Vec<String>,
}

/// The id a heading starts with (`### H6: ...` gives `H6`), if any.
fn heading_id(heading: &str) -> Option<String> {
    let first = heading.split([' ', ':', '.']).next()?;
    let tok = tokens(first);
    (tok.len() == 1 && tok[0].start == 0 && tok[0].end == first.len()).then(|| first.to_string())
}

fn rules_docs() -> Vec<(String, String)> {
    let dir = repo_root().join("docs/rules");
    let mut docs: Vec<(String, String)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read_to_string(&p).expect("a readable document"))
        })
        .collect();
    docs.sort();
    docs
}

/// The sections of `docs/rules/` headed by an id. A section runs to the next
/// heading of the same or a higher level.
fn sections() -> Vec<Section> {
    let mut out = Vec::new();
    for (file, text) in rules_docs() {
        let lines: Vec<&str> = text.lines().collect();
        let mut in_code = false;
        let mut headings = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            if line.starts_with("```") {
                in_code = !in_code;
            }
            if in_code {
                continue;
            }
            let level = line.chars().take_while(|&c| c == '#').count();
            if level > 0 && line[level..].starts_with(' ') {
                headings.push((n, level, line[level + 1..].trim().to_string()));
            }
        }
        for (k, (n, level, heading)) in headings.iter().enumerate() {
            let Some(id) = heading_id(heading) else {
                continue;
            };
            let end = headings[k + 1..]
                .iter()
                .find(|(_, l, _)| l <= level)
                .map_or(lines.len(), |&(m, _, _)| m);
            out.push(Section {
                id,
                file: file.clone(),
                line: n + 1,
                heading: heading.clone(),
                body: lines[n + 1..end].iter().map(|s| s.to_string()).collect(),
            });
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces
/// to hyphens.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

#[test]
fn the_citation_pattern_finds_ids_and_skips_look_alikes() {
    assert_eq!(citations("queen's line (H6), see also H99."), ["H6", "H99"]);
    assert_eq!(
        citations("rulings N1-N6"),
        ["N1", "N2", "N3", "N4", "N5", "N6"]
    );
    assert_eq!(
        citations("J4-J7, C1..C3 and T1–T2"),
        ["J4", "J5", "J6", "J7", "C1", "C2", "C3", "T1", "T2"]
    );
    // Square names, position texts, SVG paths, longer words, id-less text.
    assert!(citations("Square::H1, Square::C5, SprtState::H0").is_empty());
    assert!(citations("\"rnbqkbnr/p1pppppp/1p6/8/8/N7/PPPPPPPP/R1BQKBNR w\"").is_empty());
    assert!(citations("\"M30 74 L47 57 L47 36\"").is_empty());
    assert!(citations("A5 = 32, B5 = 33, C5 = 34, H6=47").is_empty());
    assert!(citations("H0 P01 N1c3 R1a3 XH6 H6x h6 e1g1 A1 B3 K7").is_empty());
}

#[test]
fn every_cited_id_is_a_ruling() {
    let rulings = ruling_set();
    let cited = cited_ids();
    let unknown: Vec<String> = cited
        .iter()
        .filter(|(id, _)| !rulings.contains(*id))
        .map(|(id, places)| format!("{id} cited at {}", places.join(", ")))
        .collect();
    assert!(
        unknown.is_empty(),
        "ids that are not rulings (the rulings are C1-C4, P1-P9, H1-H10, T1-T7, \
         J1-J10, L1-L5, N1-N6, defined in docs/rules/; write square names in \
         lower case):\n{}",
        unknown.join("\n")
    );
    if std::env::var_os("RULINGS_LIST").is_some() {
        for (id, places) in &cited {
            eprintln!("{id} {} {}", places.len(), places.join(" "));
        }
    }
    // The scan does find the citations (a broken scan would pass silently).
    for id in ["C1", "P8", "H6", "T3", "J7", "L2", "N3"] {
        assert!(cited.contains_key(id), "no citation of {id} found");
    }
}

#[test]
fn every_ruling_has_one_section_and_an_index_entry() {
    let rulings = ruling_set();
    let sections = sections();
    let mut by_id: BTreeMap<&str, Vec<&Section>> = BTreeMap::new();
    for s in &sections {
        by_id.entry(&s.id).or_default().push(s);
    }
    let mut problems = Vec::new();
    for (id, list) in &by_id {
        if !rulings.contains(*id) {
            let s = list[0];
            problems.push(format!("{}:{}: {id} is not a ruling", s.file, s.line));
        }
        if list.len() > 1 {
            let places: Vec<String> = list
                .iter()
                .map(|s| format!("{}:{}", s.file, s.line))
                .collect();
            problems.push(format!(
                "{id} has {} sections: {}",
                list.len(),
                places.join(", ")
            ));
        }
    }
    let readme = fs::read_to_string(repo_root().join("docs/rules/README.md")).expect("README");
    for id in &rulings {
        let Some(list) = by_id.get(id.as_str()) else {
            problems.push(format!("{id} has no section in docs/rules/"));
            continue;
        };
        let s = list[0];
        let link = format!("[{id}]({}#{})", s.file, anchor(&s.heading));
        if !readme.contains(&link) {
            problems.push(format!("docs/rules/README.md lacks the index entry {link}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// With `RULINGS_VERBOSE` set, says why each refused move or position text
/// was refused (to check that an example fails for the reason it shows).
fn show(why: &str) {
    if std::env::var_os("RULINGS_VERBOSE").is_some() {
        eprintln!("  refused: {why}");
    }
}

/// Runs one example block; `Err` says which line failed and why.
fn run_example(lines: &[String]) -> Result<usize, String> {
    let mut variant: Option<Variant> = None;
    let mut game: Option<Game> = None;
    let mut checks = 0;
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let fail = |why: String| format!("`{line}`: {why}");
        if word == "variant" {
            variant = Some(rest.parse().map_err(|e| fail(format!("{e:?}")))?);
            game = None;
            continue;
        }
        let v = variant.ok_or_else(|| fail("no `variant` line before".into()))?;
        match word {
            "position" => {
                let pos = if rest == "start" {
                    Position::startpos(v)
                } else {
                    Position::from_fen(v, rest).map_err(|e| fail(e.to_string()))?
                };
                game = Some(Game::new(pos));
            }
            "invalid" => {
                match Position::from_fen(v, rest) {
                    Ok(pos) => return Err(fail(format!("accepted as {}", pos.to_fen()))),
                    Err(e) => show(&format!("{rest}: {e}")),
                }
                checks += 1;
            }
            _ => {
                let g = game
                    .as_mut()
                    .ok_or_else(|| fail("no `position` line before".into()))?;
                match word {
                    "play" => {
                        for text in rest.split_whitespace() {
                            let m = parse_uci(g.position(), text)
                                .map_err(|e| fail(format!("{text}: {e}")))?;
                            g.play(m).map_err(|e| fail(format!("{text}: {e}")))?;
                        }
                    }
                    "legal" => {
                        for text in rest.split_whitespace() {
                            parse_uci(g.position(), text)
                                .map_err(|e| fail(format!("{text} is refused: {e}")))?;
                        }
                    }
                    "illegal" => {
                        for text in rest.split_whitespace() {
                            match parse_uci(g.position(), text) {
                                Ok(_) => return Err(fail(format!("{text} is accepted"))),
                                Err(e) => show(&format!("{text}: {e}")),
                            }
                        }
                    }
                    "moves" => {
                        let n: usize = rest.parse().map_err(|_| fail("not a number".into()))?;
                        let got = g.position().legal_moves().len();
                        if got != n {
                            return Err(fail(format!("{got} legal moves")));
                        }
                    }
                    "fen" => {
                        let got = g.position().to_fen();
                        if got != rest {
                            return Err(fail(format!("the position text is {got}")));
                        }
                    }
                    "writes" => {
                        let (input, output) = rest
                            .split_once(' ')
                            .ok_or_else(|| fail("needs two moves".into()))?;
                        let m = parse_uci(g.position(), input)
                            .map_err(|e| fail(format!("{input}: {e}")))?;
                        let got = to_uci(g.position(), m);
                        if got != output.trim() {
                            return Err(fail(format!("written {got}")));
                        }
                    }
                    "check" => {
                        let want = match rest {
                            "yes" => true,
                            "no" => false,
                            _ => return Err(fail("`check yes` or `check no`".into())),
                        };
                        if g.position().is_check() != want {
                            return Err(fail(format!("is_check() is {}", !want)));
                        }
                    }
                    "outcome" => {
                        let got = g.outcome().map_or("none".to_string(), |o| {
                            format!("{} {}", o.result_str(), o.reason_str())
                        });
                        if got != rest {
                            return Err(fail(format!("the outcome is {got}")));
                        }
                    }
                    _ => return Err(fail("unknown statement".into())),
                }
                if word != "play" {
                    checks += 1;
                }
            }
        }
    }
    Ok(checks)
}

#[test]
fn every_ruling_section_has_an_example_that_holds() {
    let mut problems = Vec::new();
    let mut total = 0;
    for s in sections() {
        let mut blocks: Vec<(usize, Vec<String>)> = Vec::new();
        let mut current: Option<(usize, Vec<String>)> = None;
        for (k, line) in s.body.iter().enumerate() {
            match &mut current {
                None if line.trim() == "```example" => current = Some((s.line + k + 1, Vec::new())),
                None => {}
                Some(_) if line.trim() == "```" => blocks.push(current.take().unwrap()),
                Some((_, lines)) => lines.push(line.clone()),
            }
        }
        if blocks.is_empty() {
            problems.push(format!("{}:{}: {} has no example", s.file, s.line, s.id));
        }
        for (at, lines) in blocks {
            match run_example(&lines) {
                Ok(0) => problems.push(format!("{}:{at}: the example checks nothing", s.file)),
                Ok(n) => total += n,
                Err(why) => problems.push(format!("{}:{at} ({}): {why}", s.file, s.id)),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(total >= ruling_set().len(), "only {total} checks ran");
}
