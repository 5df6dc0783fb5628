//! PGN: one reader and one writer for the five games.
//!
//! Writing: the Seven Tag Roster (`Event`, `Site`, `Date`, `Round`,
//! `White`, `Black`, `Result`), then `Variant` (the game's `UCI_Variant`
//! name, as XBoard names the games; no tag for chess, as the PGN standard
//! has it), `TimeControl`, `SetUp` and `FEN` when the game does not start
//! from the start position, `Termination` when known, then the caller's
//! other tags; the moves in SAN ([`to_san`]) with move numbers, a closing
//! comment saying how the game ended, and the result.
//!
//! Reading accepts what the writer writes and what players type: tags in
//! any order, move numbers (`12.`, `12...`, `12.e4`) or none, `{}` and `;`
//! comments, `%` escape lines, NAGs (`$1`) and `!`/`?` marks, variations
//! `( ... )` (skipped: only the main line is read), every notation the
//! game-text reader knows (SAN, the seeds' old notation, long notation),
//! a Hop Chess turn as two words (`Nf6 d5`) or one (`Nf6@d5`), and the
//! seeds' `resign`. The game comes from the `Variant` tag (or, without
//! one, from the `FEN` tag's shape; with neither, it is the game asked
//! for, else chess). It refuses, saying why: a tag it cannot read, a game
//! that contradicts the game asked for, a bad `FEN`, a move that is
//! illegal, ambiguous or unreadable (naming the move number), moves after
//! the result or after the game ended by the rules, and a result that
//! contradicts the moves.

use super::shape;
use super::uci::UciMove;
use crate::error::{FenError, MoveError};
use crate::game::Game;
use crate::notation::san::to_san;
use crate::notation::seed::read_move;
use crate::position::Position;
use crate::types::Color;
use crate::variant::Variant;
use std::fmt::Write;

/// Which game a text may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantHint {
    /// Whichever game the text says (chess if it says none).
    Any,
    /// This game: a text of another game is refused.
    Game(Variant),
}

/// The tags of a game, in order. Names are case-sensitive, as in PGN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    tags: Vec<(String, String)>,
}

/// Who played a side, for the `White` and `Black` tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player<'a> {
    /// A person, by name.
    Human(&'a str),
    /// An engine: its name and, if it has one, the level it played at.
    Engine { name: &'a str, level: Option<u32> },
}

impl Tags {
    pub fn new() -> Tags {
        Tags::default()
    }

    /// The value of the tag `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the tag `name` (in its place if it is there, else at the end).
    pub fn set(&mut self, name: &str, value: impl Into<String>) -> &mut Tags {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_string(), value)),
        }
        self
    }

    /// Removes the tag `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let i = self.tags.iter().position(|(n, _)| n == name)?;
        Some(self.tags.remove(i).1)
    }

    /// Every tag, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Sets `White` or `Black` to the player, and `WhiteType`/`BlackType`
    /// (`human` or `program`, PGN standard 9.3). An engine is written with
    /// its level: `Springboard (level 12)`.
    pub fn set_player(&mut self, color: Color, player: Player<'_>) -> &mut Tags {
        let (name_tag, type_tag) = match color {
            Color::White => ("White", "WhiteType"),
            Color::Black => ("Black", "BlackType"),
        };
        match player {
            Player::Human(name) => {
                self.set(name_tag, name);
                self.set(type_tag, "human");
            }
            Player::Engine { name, level } => {
                let text = match level {
                    Some(l) => format!("{name} (level {l})"),
                    None => name.to_string(),
                };
                self.set(name_tag, text);
                self.set(type_tag, "program");
            }
        }
        self
    }
}

/// The `TimeControl` value for a clock of `base_ms` plus `inc_ms` a move,
/// in seconds as PGN writes them: `300+2`, `10+0.1`.
pub fn time_control(base_ms: u64, inc_ms: u64) -> String {
    fn seconds(ms: u64) -> String {
        if ms.is_multiple_of(1000) {
            (ms / 1000).to_string()
        } else {
            let text = format!("{}.{:03}", ms / 1000, ms % 1000);
            text.trim_end_matches('0').to_string()
        }
    }
    format!("{}+{}", seconds(base_ms), seconds(inc_ms))
}

/// The date `days` days after 1970-01-01 as PGN writes dates, `YYYY.MM.DD`.
pub fn date_from_days(days: i64) -> String {
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
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

/// Today's date (UTC) as PGN writes dates, `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_from_days((secs / 86_400) as i64)
}

/// The `Variant` tag value of a game (none for chess).
pub fn variant_tag(variant: Variant) -> Option<&'static str> {
    // Every game by name: a new game is a compile error here.
    match variant {
        Variant::Chess => None,
        Variant::HopChess | Variant::Trampoline | Variant::JumpingKing | Variant::Hoplit => {
            Some(variant.name())
        }
    }
}

/// The game a `Variant` tag names: its `UCI_Variant` name, its title, or a
/// usual short name (`Hop Chess`, `hop-chess`, `Jumping King`, `Standard`),
/// in any case.
pub fn variant_from_tag(value: &str) -> Option<Variant> {
    let key: String = value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let found = match key.as_str() {
        "" | "standard" | "chess" | "fide" | "normal" | "chess960no" => Variant::Chess,
        "hopchess" | "hop" => Variant::HopChess,
        "trampoline" | "trampolinechess" => Variant::Trampoline,
        "jumpingking" | "theweaksquareofthejumpingking" | "weaksquareofthejumpingking" => {
            Variant::JumpingKing
        }
        "hoplit" | "hoplitchess" => Variant::Hoplit,
        _ => return None,
    };
    Some(found)
}

const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Tags the writer computes from the game itself.
const COMPUTED: [&str; 6] = [
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "TimeControl",
    "Termination",
];

fn escape(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// The result the game's text ends with: the rules' end if the moves reach
/// one, else the caller's `Result` tag, else `*`.
fn result_of(game: &Game, tags: &Tags) -> String {
    match game.outcome() {
        Some(o) => o.result_str().to_string(),
        None => match tags.get("Result") {
            Some(r @ ("1-0" | "0-1" | "1/2-1/2" | "*")) => r.to_string(),
            _ => "*".to_string(),
        },
    }
}

/// Writes `game` as PGN (see the module documentation), ending with a
/// newline. Several games are joined with a blank line between them.
pub fn write(game: &Game, tags: &Tags) -> String {
    let start = game.start();
    let variant = start.variant();
    let result = result_of(game, tags);
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        // A tag name is letters, digits and `_` (PGN 8.1.1).
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
        }
    };
    for (name, default) in ROSTER {
        tag(name, tags.get(name).unwrap_or(default));
    }
    tag("Result", &result);
    if let Some(v) = variant_tag(variant) {
        tag("Variant", v);
    }
    tag("TimeControl", tags.get("TimeControl").unwrap_or("-"));
    let fen = start.to_fen();
    if fen != Position::startpos(variant).to_fen() {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    let termination = match (tags.get("Termination"), game.outcome()) {
        (Some(t), _) => Some(t.to_string()),
        (None, Some(_)) => Some("normal".to_string()),
        (None, None) => None,
    };
    if let Some(t) = &termination {
        tag("Termination", t);
    }
    for (name, value) in tags.iter() {
        if !ROSTER.iter().any(|(n, _)| *n == name) && !COMPUTED.contains(&name) {
            tag(name, value);
        }
    }
    out.push('\n');
    let mut words = Vec::new();
    for (i, (pos, &m)) in game.positions().iter().zip(game.moves()).enumerate() {
        let number = pos.fullmove_number();
        let san = to_san(pos, m);
        // A move number and its move stay on one line.
        words.push(if pos.turn().is_white() {
            format!("{number}. {san}")
        } else if i == 0 {
            format!("{number}... {san}")
        } else {
            san
        });
    }
    let closing = match (game.outcome(), &termination) {
        (Some(o), _) => Some(o.reason_str().to_string()),
        (None, Some(t)) if !t.eq_ignore_ascii_case("normal") => Some(t.clone()),
        _ => None,
    };
    if let Some(c) = closing {
        // A comment ends at `}`; line breaks become spaces, as in tags.
        words.push(format!(
            "{{{}}}",
            c.replace('}', ")").replace(['\n', '\r'], " ")
        ));
    }
    words.push(result);
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

/// Why a PGN text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("the text holds no game: no tags and no moves")]
    Empty,
    #[error("line {line}: bad tag '{text}': expected [Name \"value\"]")]
    BadTag { line: usize, text: String },
    #[error("the tag {0} is given twice")]
    DuplicateTag(String),
    #[error(
        "unknown game '{0}' in the Variant tag (Springboard plays {known})",
        known = Variant::names()
    )]
    UnknownVariant(String),
    #[error("this is a game of {found} (its {by} says so), not of {asked}: load it as {found}")]
    OtherGame {
        found: &'static str,
        asked: &'static str,
        by: &'static str,
    },
    #[error("this position is from {found}, not {asked}: load it as {found}")]
    PositionOfOtherGame {
        found: &'static str,
        asked: &'static str,
    },
    #[error("this position is from {found}, not {asked}, and {found} refuses it: {reason}")]
    RefusedOfOtherGame {
        found: &'static str,
        asked: &'static str,
        reason: FenError,
    },
    #[error("bad FEN tag: {0}")]
    Fen(FenError),
    /// A position text (FEN) of the game asked for, refused: which field
    /// is wrong and why, or what the position breaks.
    #[error("{game} cannot load this position: {reason}")]
    Position {
        game: &'static str,
        reason: FenError,
    },
    /// A text that is neither a position nor a game: what a position text
    /// looks like (the game's start position as the example).
    #[error(
        "this is not a FEN or a PGN: a FEN (a position of {game}) has {fields} fields \
         separated by spaces, starting with the ranks of the board from the 8th, like \
         {example}; a PGN (a game) has tag lines like [White \"Anna\"] and numbered \
         moves like 1. e4 e5"
    )]
    NotNotation {
        game: &'static str,
        fields: usize,
        example: &'static str,
    },
    /// An empty text.
    #[error("the text is empty: paste a position (FEN) or a game (PGN)")]
    Blank,
    /// A game text given as a position.
    #[error("this is a game text (PGN), not a position (FEN): load it as a game")]
    IsPgn,
    #[error("a {0} is not closed")]
    Unclosed(&'static str),
    #[error("a ')' closes no variation")]
    UnopenedVariation,
    #[error("move {number}{dots} '{text}': {reason}")]
    Move {
        number: u32,
        dots: &'static str,
        text: String,
        reason: MoveError,
    },
    #[error(
        "move {number}{dots} '{text}': the game ended after ply {ply} ({result}, {reason}), \
         but the text goes on"
    )]
    AfterEnd {
        number: u32,
        dots: &'static str,
        text: String,
        ply: usize,
        reason: &'static str,
        result: &'static str,
    },
    #[error("'{text}' comes after the result '{result}': the result ends the moves")]
    AfterResult { result: String, text: String },
    #[error("the result '{token}' after the moves contradicts the Result tag '{tag}'")]
    ResultTag { token: String, tag: String },
    #[error("the moves end in {reason} ({rules}), but the result says {text}")]
    ResultRules {
        reason: &'static str,
        rules: &'static str,
        text: String,
    },
    #[error("the text has a FEN tag, and a start position was given too")]
    StartTwice,
    #[error("this is a position text (FEN) of {0}, not a game: load it as a position")]
    IsFen(&'static str),
    #[error("the text holds {0} games; load one at a time")]
    SeveralGames(usize),
}

/// A word of the move text.
#[derive(Debug, PartialEq, Eq)]
enum Word {
    Move(String),
    /// `1-0`, `0-1`, `1/2-1/2`, `*`, or the seeds' `resign`.
    Result(String),
}

/// One game's text: its tag lines and its move text.
struct Section<'a> {
    tags: Vec<(usize, &'a str)>,
    moves: String,
}

/// Splits a text into games: a game is its tag lines, then its move text
/// up to the next tag line that follows move text.
fn sections(text: &str) -> Vec<Section<'_>> {
    let mut out: Vec<Section> = Vec::new();
    let mut in_moves = false;
    let mut in_comment = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        let is_tag = !in_comment && trimmed.starts_with('[');
        if is_tag && (in_moves || out.is_empty()) {
            out.push(Section {
                tags: Vec::new(),
                moves: String::new(),
            });
            in_moves = false;
        }
        if out.is_empty() {
            out.push(Section {
                tags: Vec::new(),
                moves: String::new(),
            });
        }
        let section = out.last_mut().expect("a section");
        if is_tag && !in_moves {
            section.tags.push((i + 1, trimmed));
            continue;
        }
        if !trimmed.is_empty() && !trimmed.starts_with('%') && !trimmed.starts_with(';') {
            in_moves = true;
        }
        // Track `{` comments spanning lines, so a `[` inside one is text.
        let code = if in_comment {
            line
        } else {
            line.split(';').next().unwrap_or("")
        };
        for c in code.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                _ => {}
            }
        }
        section.moves.push_str(line);
        section.moves.push('\n');
    }
    out.retain(|s| !s.tags.is_empty() || !s.moves.trim().is_empty());
    out
}

/// Reads a tag line's name and value.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

fn is_result(word: &str) -> bool {
    matches!(
        word,
        "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" | "resign" | "resigns"
    )
}

/// The words of a move text: comments, variations, NAGs, marks, escape
/// lines and move numbers removed.
fn words(text: &str) -> Result<Vec<Word>, PgnError> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut current = String::new();
    let flush = |current: &mut String, depth: usize, out: &mut Vec<Word>| {
        let word = std::mem::take(current);
        if depth > 0 {
            return;
        }
        // "12." and "12..." are move numbers; "12.e4" carries a move.
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let word = if digits > 0 && word[digits..].starts_with('.') {
            word[digits..].trim_start_matches('.')
        } else {
            word.as_str()
        };
        if word.is_empty() || word.starts_with('$') || word.chars().all(|c| "!?".contains(c)) {
            return;
        }
        if is_result(word) {
            let result = if word == "½-½" { "1/2-1/2" } else { word };
            out.push(Word::Result(result.to_string()));
        } else {
            out.push(Word::Move(word.to_string()));
        }
    };
    for line in text.lines() {
        if !in_comment && line.starts_with('%') {
            continue;
        }
        for c in line.chars() {
            if in_comment {
                if c == '}' {
                    in_comment = false;
                }
                continue;
            }
            match c {
                ';' => break,
                '{' => {
                    flush(&mut current, depth, &mut out);
                    in_comment = true;
                }
                '(' => {
                    flush(&mut current, depth, &mut out);
                    depth += 1;
                }
                ')' => {
                    flush(&mut current, depth, &mut out);
                    depth = depth.checked_sub(1).ok_or(PgnError::UnopenedVariation)?;
                }
                c if c.is_whitespace() => flush(&mut current, depth, &mut out),
                c => current.push(c),
            }
        }
        flush(&mut current, depth, &mut out);
    }
    flush(&mut current, depth, &mut out);
    if in_comment {
        return Err(PgnError::Unclosed("comment '{'"));
    }
    if depth > 0 {
        return Err(PgnError::Unclosed("variation '('"));
    }
    Ok(out)
}

/// The games whose position text `fen` is.
fn games_of_fen(fen: &str) -> Vec<Variant> {
    Variant::implemented()
        .filter(|&v| Position::from_fen(v, fen).is_ok())
        .collect()
}

/// The start position and its game, from the tags and the hint.
fn start_of(tags: &Tags, hint: VariantHint) -> Result<Position, PgnError> {
    let tagged = match tags.get("Variant") {
        Some(v) => Some(variant_from_tag(v).ok_or_else(|| PgnError::UnknownVariant(v.into()))?),
        None => None,
    };
    let other = |found: Variant, asked: Variant, by| PgnError::OtherGame {
        found: found.title(),
        asked: asked.title(),
        by,
    };
    if let (Some(t), VariantHint::Game(asked)) = (tagged, hint) {
        if t != asked {
            return Err(other(t, asked, "Variant tag"));
        }
    }
    let fen = tags.get("FEN").filter(|f| !f.trim().is_empty());
    let variant = match (tagged, hint) {
        (Some(t), _) => t,
        (None, VariantHint::Game(v)) => v,
        (None, VariantHint::Any) => match fen.map(games_of_fen).as_deref() {
            Some([only]) => *only,
            _ => Variant::Chess,
        },
    };
    match fen {
        None => Ok(Position::startpos(variant)),
        Some(f) => Position::from_fen(variant, f).map_err(|e| {
            // A FEN of another game (or shaped as one): say which, when no
            // Variant tag named the game.
            match shape::games_by_shape(f).as_slice() {
                [(found, Ok(_))] if tagged.is_none() => other(*found, variant, "FEN tag"),
                [(found, Err(reason))] if tagged.is_none() && *found != variant => {
                    PgnError::RefusedOfOtherGame {
                        found: found.title(),
                        asked: variant.title(),
                        reason: reason.clone(),
                    }
                }
                _ => PgnError::Fen(e),
            }
        }),
    }
}

/// The tags of a section, read.
fn read_tags(section: &Section<'_>) -> Result<Tags, PgnError> {
    let mut tags = Tags::new();
    for &(line, text) in &section.tags {
        let (name, value) = parse_tag(text).ok_or_else(|| PgnError::BadTag {
            line,
            text: text.to_string(),
        })?;
        if tags.get(&name).is_some() {
            return Err(PgnError::DuplicateTag(name));
        }
        tags.set(&name, value);
    }
    Ok(tags)
}

/// Plays the move words of a game from `start`; returns the game and the
/// result word, if any.
fn play_words(start: Position, words: &[Word]) -> Result<(Game, Option<String>), PgnError> {
    let mut game = Game::new(start);
    let texts: Vec<String> = words
        .iter()
        .take_while(|w| matches!(w, Word::Move(_)))
        .map(|w| match w {
            Word::Move(t) => t.clone(),
            Word::Result(_) => unreachable!("taken while moves"),
        })
        .collect();
    let mut iter = texts.iter().peekable();
    while let Some(first) = iter.peek().map(|t| t.to_string()) {
        let pos = game.position();
        let number = pos.fullmove_number();
        let dots = if pos.turn().is_white() { "." } else { "..." };
        if let Some(o) = game.outcome() {
            return Err(PgnError::AfterEnd {
                number,
                dots,
                text: first,
                ply: game.moves().len(),
                reason: o.reason_str(),
                result: o.result_str(),
            });
        }
        let before = iter.len();
        let read = read_move(pos, &mut iter);
        let used = before - iter.len();
        let text = texts[texts.len() - before..texts.len() - before + used.max(1)].join(" ");
        let m = read.map_err(|reason| PgnError::Move {
            number,
            dots,
            text: text.clone(),
            reason,
        })?;
        game.play(m).map_err(|reason| PgnError::Move {
            number,
            dots,
            text,
            reason,
        })?;
    }
    let rest = &words[texts.len()..];
    let result = match rest {
        [] => None,
        [Word::Result(r), more @ ..] => {
            if let Some(Word::Move(t) | Word::Result(t)) = more.first() {
                return Err(PgnError::AfterResult {
                    result: r.clone(),
                    text: t.clone(),
                });
            }
            Some(r.clone())
        }
        [Word::Move(_), ..] => unreachable!("every move word was read"),
    };
    Ok((game, result))
}

/// The result a word stands for, in PGN's terms (`resign`: the side to
/// move resigns).
fn result_text(word: &str, pos: &Position) -> String {
    match word {
        "resign" | "resigns" => match pos.turn() {
            Color::White => "0-1",
            Color::Black => "1-0",
        }
        .to_string(),
        other => other.to_string(),
    }
}

/// Reads one game's section.
fn read_section(
    section: &Section<'_>,
    hint: VariantHint,
    start: Option<Position>,
) -> Result<(Game, Tags), PgnError> {
    let mut tags = read_tags(section)?;
    let start = match start {
        Some(p) => {
            if tags.get("FEN").is_some() {
                return Err(PgnError::StartTwice);
            }
            if let Some(v) = tags.get("Variant") {
                let t = variant_from_tag(v).ok_or_else(|| PgnError::UnknownVariant(v.into()))?;
                if t != p.variant() {
                    return Err(PgnError::OtherGame {
                        found: t.title(),
                        asked: p.variant().title(),
                        by: "Variant tag",
                    });
                }
            }
            p
        }
        None => start_of(&tags, hint)?,
    };
    let words = words(&section.moves)?;
    let (game, word) = play_words(start, &words)?;
    if let Some("resign" | "resigns") = word.as_deref() {
        if tags.get("Termination").is_none() {
            let loser = game.position().turn().name();
            tags.set("Termination", format!("{loser} resigns"));
        }
    }
    let token = word.map(|w| result_text(&w, game.position()));
    let tag = tags.get("Result").map(str::to_string);
    let decisive = |r: &str| r != "*";
    if let (Some(t), Some(k)) = (&tag, &token) {
        if decisive(t) && decisive(k) && t != k {
            return Err(PgnError::ResultTag {
                token: k.clone(),
                tag: t.clone(),
            });
        }
    }
    if let Some(o) = game.outcome() {
        for text in [&token, &tag].into_iter().flatten() {
            if decisive(text) && text != o.result_str() {
                return Err(PgnError::ResultRules {
                    reason: o.reason_str(),
                    rules: o.result_str(),
                    text: text.clone(),
                });
            }
        }
    }
    let result = match (game.outcome(), token, tag) {
        (Some(o), _, _) => o.result_str().to_string(),
        (None, Some(k), _) if decisive(&k) => k,
        (None, _, Some(t)) => t,
        (None, Some(k), None) => k,
        (None, None, None) => "*".to_string(),
    };
    tags.set("Result", result);
    Ok((game, tags))
}

/// Reads one game (see the module documentation). `hint` is the game the
/// caller expects; a text of another game is refused, naming its game.
pub fn read(text: &str, hint: VariantHint) -> Result<(Game, Tags), PgnError> {
    // A game text never starts with a board: this is a position text, of
    // some game, or refused (say why).
    if text
        .split_whitespace()
        .next()
        .is_some_and(shape::looks_like_board)
    {
        let read = read_fen(text, VariantHint::Any).or_else(|_| read_fen(text, hint));
        return Err(match read {
            Ok(pos) => PgnError::IsFen(pos.variant().title()),
            Err(e) => e,
        });
    }
    if !text.trim().is_empty() && !shape::looks_like_game(text) {
        let asked = match hint {
            VariantHint::Game(v) => v,
            VariantHint::Any => Variant::Chess,
        };
        return Err(PgnError::NotNotation {
            game: asked.title(),
            fields: shape::field_count(asked),
            example: asked.start_fen(),
        });
    }
    read_game_text(text, hint)
}

/// Reads a text as one game (no check that it is a position text).
fn read_game_text(text: &str, hint: VariantHint) -> Result<(Game, Tags), PgnError> {
    match sections(text).as_slice() {
        [] => Err(PgnError::Empty),
        [one] => read_section(one, hint, None),
        many => Err(PgnError::SeveralGames(many.len())),
    }
}

/// Reads one game played from `start` (its text has no `FEN` tag of its
/// own; a `Variant` tag, if any, must name `start`'s game).
pub fn read_from(text: &str, start: Position) -> Result<(Game, Tags), PgnError> {
    match sections(text).as_slice() {
        [] => Err(PgnError::Empty),
        [one] => read_section(one, VariantHint::Game(start.variant()), Some(start)),
        many => Err(PgnError::SeveralGames(many.len())),
    }
}

/// Reads every game of a text (a PGN file): for each, its game and tags,
/// or why it could not be read.
pub fn read_all(text: &str, hint: VariantHint) -> Vec<Result<(Game, Tags), PgnError>> {
    sections(text)
        .iter()
        .map(|s| read_section(s, hint, None))
        .collect()
}

/// Reads a position text of the game `hint` names, or of whichever game it
/// is (with [`VariantHint::Any`]). A text of another game than the one
/// asked for is refused, naming its game.
///
/// A refused text is explained in the terms of the game whose position
/// text it has the shape of; a text whose first word is no board is a game
/// text (then the game reader's error, if any) or neither.
pub fn read_fen(text: &str, hint: VariantHint) -> Result<Position, PgnError> {
    let text = text.trim();
    let first = text.split_whitespace().next().ok_or(PgnError::Blank)?;
    // The game the text is read as: the one asked for, else the one whose
    // shape it has, else chess.
    let asked = match hint {
        VariantHint::Game(v) => v,
        VariantHint::Any => match shape::games_by_shape(text).as_slice() {
            [(found, _)] => *found,
            _ => Variant::Chess,
        },
    };
    if !shape::looks_like_board(first) {
        if shape::looks_like_game(text) {
            return Err(match read_game_text(text, hint) {
                Ok(_) => PgnError::IsPgn,
                Err(e) => e,
            });
        }
        return Err(PgnError::NotNotation {
            game: asked.title(),
            fields: shape::field_count(asked),
            example: asked.start_fen(),
        });
    }
    let mut tags = Tags::new();
    tags.set("FEN", text);
    start_of(&tags, VariantHint::Game(asked)).map_err(|e| match e {
        PgnError::OtherGame { found, asked, .. } => PgnError::PositionOfOtherGame { found, asked },
        PgnError::Fen(reason) => PgnError::Position {
            game: asked.title(),
            reason,
        },
        e => e,
    })
}

/// What kind of text a player gave: a position or a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A position text (FEN) of one of the games.
    Position,
    /// A game text (PGN), or a text that is neither.
    Game,
}

/// Which games read a text: the games whose position reader accepts it
/// (then it is a [`TextKind::Position`]), else the games whose PGN reader
/// reads it whole ([`read`] with [`VariantHint::Game`]), in
/// [`Variant::implemented`] order. An empty list: no game reads it (then
/// [`read`] or [`read_fen`] say why).
pub fn detect(text: &str) -> (TextKind, Vec<Variant>) {
    let fen = games_of_fen(text.trim());
    if !fen.is_empty() {
        return (TextKind::Position, fen);
    }
    let games = Variant::implemented()
        .filter(|&v| read(text, VariantHint::Game(v)).is_ok())
        .collect();
    (TextKind::Game, games)
}

/// The long notation of every move of a game, as the UCI `position`
/// command and `springboard replay` write them.
pub fn long_moves(game: &Game) -> Vec<String> {
    game.moves()
        .iter()
        .map(|&m| UciMove::from_move(m).to_string())
        .collect()
}

/// The end a game's text gives that the rules do not: its result and the
/// reason (the `Termination` tag, or the seeds' `resign`: `Black
/// resigns`), or `None` when the rules ended the game or the text gives no
/// result.
pub fn stated_end(game: &Game, tags: &Tags) -> Option<(String, String)> {
    if game.outcome().is_some() {
        return None;
    }
    let result = tags.get("Result").filter(|r| *r != "*")?;
    let reason = match tags.get("Termination") {
        Some(t) if !t.eq_ignore_ascii_case("normal") => t.to_string(),
        _ => "as the text states".to_string(),
    };
    Some((result.to_string(), reason))
}
