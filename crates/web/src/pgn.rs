//! PGN export and import. A game of any variant is written with a
//! `Variant` tag (the variant's `UCI_Variant` name) and, when it does not
//! start from the variant's start position, `SetUp "1"` and `FEN` tags. The
//! moves are in SAN. Reading resolves each move against the legal moves with
//! the game-text reader of the rules core (`notation::seed`), which reads SAN
//! and the seeds' notations, so import follows every variant's notation.

use springboard_rules::notation::seed::{read_move, tokens};
use springboard_rules::{FenError, Game, Position, Variant};
use std::fmt::Write;

/// Why a PGN text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("bad tag line '{0}': expected [Name \"value\"]")]
    BadTag(String),
    #[error("unknown variant '{0}' in the Variant tag")]
    UnknownVariant(String),
    #[error("the variant '{0}' is not implemented yet")]
    NotImplemented(&'static str),
    #[error("bad FEN tag: {0}")]
    Fen(#[from] FenError),
    #[error("unclosed comment or variation in the moves")]
    Unclosed,
    #[error("move {number}{dots} '{text}': {reason}")]
    Move {
        number: u32,
        dots: &'static str,
        text: String,
        reason: String,
    },
}

/// Writes `game` as PGN.
pub fn export(game: &Game) -> String {
    export_with(
        game,
        &Headers {
            white: "?",
            black: "?",
            result: None,
            site: "Springboard",
            date_ms: -1,
            reason: None,
        },
    )
}

/// The tags of a stored game.
pub struct Headers<'a> {
    pub white: &'a str,
    pub black: &'a str,
    /// The stored result (a resignation, a flag...), else the rules core's.
    pub result: Option<&'a str>,
    pub site: &'a str,
    /// The start, ms since the Unix epoch (negative: unknown).
    pub date_ms: i64,
    /// Why the game ended (a `Termination` tag).
    pub reason: Option<&'a str>,
}

/// `YYYY.MM.DD` of a time in ms since the Unix epoch (civil from days).
fn pgn_date(ms: i64) -> String {
    if ms < 0 {
        return "????.??.??".into();
    }
    let z = ms / 86_400_000 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Writes `game` as PGN with the given tags.
pub fn export_with(game: &Game, h: &Headers) -> String {
    let start = game.start();
    let variant = start.variant();
    let result = h
        .result
        .unwrap_or_else(|| game.outcome().map_or("*", |o| o.result_str()));
    let date = pgn_date(h.date_ms);
    let mut out = String::new();
    for (name, value) in [
        ("Event", "Springboard game"),
        ("Site", h.site),
        ("Date", date.as_str()),
        ("Round", "-"),
        ("White", h.white),
        ("Black", h.black),
        ("Result", result),
        ("Variant", variant.name()),
    ] {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    if let Some(reason) = h.reason {
        let _ = writeln!(out, "[Termination \"{}\"]", escape(reason));
    }
    if *start != Position::startpos(variant) {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{}\"]", escape(&start.to_fen()));
    }
    out.push('\n');
    let mut words = Vec::new();
    for (i, (pos, &m)) in game.positions().iter().zip(game.moves()).enumerate() {
        let number = pos.fullmove_number();
        if pos.turn().is_white() {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(springboard_rules::notation::san::to_san(pos, m));
    }
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Reads a tag line's name and value.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next()?);
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// The variant a `Variant` tag names: its `UCI_Variant` name, its title,
/// or the usual names of standard chess.
fn variant_from_tag(value: &str) -> Result<Variant, PgnError> {
    let v = value.trim();
    if ["standard", "chess", "fide"]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(v))
    {
        return Ok(Variant::Chess);
    }
    Variant::from_name(v)
        .or_else(|| {
            Variant::ALL
                .into_iter()
                .find(|x| x.title().eq_ignore_ascii_case(v))
        })
        .ok_or_else(|| PgnError::UnknownVariant(v.to_string()))
}

/// Removes `{...}` and `;` comments, `(...)` variations, `$n` glyphs and
/// `%` escape lines from the move text.
fn strip_movetext(text: &str) -> Result<String, PgnError> {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut in_comment = false;
    for line in text.lines() {
        if !in_comment && depth == 0 && line.starts_with('%') {
            continue;
        }
        for c in line.chars() {
            if !in_comment && depth == 0 && c == ';' {
                break;
            }
            match (in_comment, c) {
                (true, '}') => {
                    in_comment = false;
                    out.push(' ');
                }
                (true, _) => {}
                (false, '{') => in_comment = true,
                (false, '(') => depth += 1,
                (false, ')') => {
                    depth = depth.checked_sub(1).ok_or(PgnError::Unclosed)?;
                    out.push(' ');
                }
                (false, _) if depth > 0 => {}
                (false, c) => out.push(c),
            }
        }
        out.push('\n');
    }
    if in_comment || depth > 0 {
        return Err(PgnError::Unclosed);
    }
    let words: Vec<&str> = out
        .split_whitespace()
        .filter(|w| !w.starts_with('$'))
        .collect();
    Ok(words.join(" "))
}

/// Reads a PGN game. `default` is the variant when there is no `Variant`
/// tag.
pub fn import(text: &str, default: Variant) -> Result<Game, PgnError> {
    let mut variant = default;
    let mut fen = None;
    let mut movetext = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && movetext.trim().is_empty() {
            let (name, value) =
                parse_tag(trimmed).ok_or_else(|| PgnError::BadTag(trimmed.to_string()))?;
            match name.as_str() {
                "Variant" => variant = variant_from_tag(&value)?,
                "FEN" => fen = Some(value),
                _ => {}
            }
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if !variant.is_implemented() {
        return Err(PgnError::NotImplemented(variant.name()));
    }
    let start = match fen {
        Some(f) => Position::from_fen(variant, &f)?,
        None => Position::startpos(variant),
    };
    let moves = strip_movetext(&movetext)?;
    let tokens = tokens(&moves);
    let mut iter = tokens.iter().peekable();
    let mut game = Game::new(start);
    while let Some(next) = iter.peek().map(|t| t.to_string()) {
        let pos = game.position();
        let (number, dots) = (
            pos.fullmove_number(),
            if pos.turn().is_white() { "." } else { "..." },
        );
        let fail = |reason: String| PgnError::Move {
            number,
            dots,
            text: next.clone(),
            reason,
        };
        if let Some(o) = game.outcome() {
            return Err(fail(format!(
                "the game is already over ({})",
                o.reason_str()
            )));
        }
        let m = read_move(pos, &mut iter).map_err(|e| fail(e.to_string()))?;
        game.play(m).map_err(|e| fail(e.to_string()))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_dates_are_civil_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(1_795_000_000_000), "2026.11.18");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(-1), "????.??.??");
    }
    use springboard_rules::notation::uci::parse_uci;

    fn game(moves: &str, fen: Option<&str>) -> Game {
        let start = match fen {
            Some(f) => Position::from_fen(Variant::Chess, f).unwrap(),
            None => Position::startpos(Variant::Chess),
        };
        let mut g = Game::new(start);
        for t in moves.split_whitespace() {
            let m = parse_uci(g.position(), t).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    #[test]
    fn exports_fools_mate() {
        let g = game("f2f3 e7e5 g2g4 d8h4", None);
        assert_eq!(
            export(&g),
            "[Event \"Springboard game\"]\n[Site \"Springboard\"]\n[Date \"????.??.??\"]\n\
             [Round \"-\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"0-1\"]\n\
             [Variant \"chess\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
        );
    }

    #[test]
    fn exports_setup_and_black_first() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
        let g = game("e8d7 e2e4", Some(fen));
        let text = export(&g);
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 7\"]\n"));
        assert!(text.ends_with("\n7... Kd7 8. e4 *\n"), "{text}");
    }

    #[test]
    fn round_trip() {
        let g = game("e2e4 c7c5 g1f3 d7d6 f1b5 c8d7 b5d7 d8d7 e1g1", None);
        let back = import(&export(&g), Variant::Chess).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.position(), g.position());
        let g = game("e8d7 e2e4", Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7"));
        let back = import(&export(&g), Variant::Chess).unwrap();
        assert_eq!(back.start(), g.start());
        assert_eq!(back.moves(), g.moves());
    }

    #[test]
    fn reads_comments_variations_and_glyphs() {
        let text = "[Event \"x \\\"quoted\\\"\"]\n[Variant \"Standard\"]\n\n\
                    1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 $1 Nc6 ; rest\n% escape\n3. Bb5 *";
        let g = import(text, Variant::Chess).unwrap();
        assert_eq!(g.moves().len(), 5);
    }

    #[test]
    fn reports_bad_input() {
        assert_eq!(
            import("1. e4 e5 2. Ke3", Variant::Chess).unwrap_err(),
            PgnError::Move {
                number: 2,
                dots: ".",
                text: "Ke3".into(),
                reason: "illegal move 'Ke3' in this position".into()
            }
        );
        assert!(matches!(
            import("[Variant \"atomic\"]\n1. e4", Variant::Chess),
            Err(PgnError::UnknownVariant(_))
        ));
        assert!(matches!(
            import("[FEN \"8/8/8 w - - 0 1\"]\n", Variant::Chess),
            Err(PgnError::Fen(_))
        ));
        assert!(matches!(
            import("1. e4 {open", Variant::Chess),
            Err(PgnError::Unclosed)
        ));
        assert!(matches!(
            import("[Event open\n1. e4", Variant::Chess),
            Err(PgnError::BadTag(_))
        ));
        assert!(matches!(
            import("1. f3 e5 2. g4 Qh4# 3. a3", Variant::Chess),
            Err(PgnError::Move { number: 3, .. })
        ));
    }
}
