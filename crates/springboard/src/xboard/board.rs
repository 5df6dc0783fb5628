//! How XBoard sees our boards: the board size, the engine-defined variant
//! commands (`setup`, `piece`) and boards in XBoard's FEN format.
//!
//! XBoard knows FIDE chess only; the other four games are engine-defined
//! variants on its `fairy` parent. Trampolines are not XBoard pieces (they
//! hold no piece and block nothing, RULINGS P1): XBoard's board never shows
//! them, the engine's `highlight` answers do (see docs/xboard.md).

use springboard_rules::{Color, File, Piece, Position, Rank, Role, Square, Variant};

/// A kind of piece XBoard shows: its slot in XBoard 4.9.1's piece table
/// (the slot decides the picture: 36 is the "Copper" hoplite helmet, 39
/// the "Flag") and its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Role(Role),
    /// A Trampoline Chess trampoline (T2), XBoard's piece `T`.
    Trampoline,
}

impl Kind {
    fn slot(self) -> usize {
        match self {
            Kind::Role(Role::Pawn) => 0,
            Kind::Role(Role::Knight) => 1,
            Kind::Role(Role::Bishop) => 2,
            Kind::Role(Role::Rook) => 3,
            Kind::Role(Role::Queen) => 4,
            Kind::Role(Role::Hoplit) => 36,
            Kind::Trampoline => 39,
            // The king is always the table's last letter.
            Kind::Role(Role::King) => usize::MAX,
        }
    }

    fn letter(self) -> char {
        match self {
            Kind::Role(r) => r.char().to_ascii_uppercase(),
            Kind::Trampoline => 'T',
        }
    }
}

/// The board's width and height in XBoard's view (Jumping King: files a-f,
/// ranks 1-8, RULINGS J1).
pub fn size(v: Variant) -> (u8, u8) {
    match v {
        Variant::JumpingKing => (6, 8),
        _ => (8, 8),
    }
}

/// The kinds a game shows, in XBoard's table order (the king last).
fn kinds(v: Variant) -> Vec<Kind> {
    let mut roles = vec![Role::Pawn, Role::Knight, Role::Bishop, Role::Rook];
    if v != Variant::JumpingKing {
        roles.push(Role::Queen);
    }
    if v == Variant::Hoplit {
        roles.push(Role::Hoplit);
    }
    let mut out: Vec<Kind> = roles.into_iter().map(Kind::Role).collect();
    if v == Variant::Trampoline {
        out.push(Kind::Trampoline);
    }
    out.push(Kind::Role(Role::King));
    out
}

/// The kinds a side may hold in hand (XBoard's holdings).
fn hand_kinds(v: Variant) -> Vec<Kind> {
    match v {
        // J2: the men to place.
        Variant::JumpingKing => [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook]
            .into_iter()
            .map(Kind::Role)
            .collect(),
        // L1: the reserve Hoplit.
        Variant::Hoplit => vec![Kind::Role(Role::Hoplit)],
        // T1: the trampoline off the board.
        Variant::Trampoline => vec![Kind::Trampoline],
        _ => vec![],
    }
}

/// The role of XBoard's holdings piece number `n` (XBoard numbers the used
/// types in table order); `Role::King` stands for the trampoline.
pub fn hand_role(v: Variant, n: usize) -> Option<Role> {
    let kind = *kinds(v).get(n)?;
    hand_kinds(v).contains(&kind).then_some(match kind {
        Kind::Role(r) => r,
        Kind::Trampoline => Role::King,
    })
}

/// The `PIECETOCHAR` table: one letter per slot, '.' for unused ones, the
/// king last.
pub fn piece_to_char(v: Variant) -> String {
    let used = kinds(v);
    let len = used
        .iter()
        .map(|k| k.slot())
        .filter(|&s| s != usize::MAX)
        .max()
        .map_or(0, |m| m + 1)
        .max(21);
    let mut white: Vec<char> = vec!['.'; len];
    for k in &used {
        if let Some(c) = white.get_mut(k.slot()) {
            *c = k.letter();
        }
    }
    white.push('K');
    let white: String = white.into_iter().collect();
    let black = white.to_ascii_lowercase();
    format!("{white}{black}")
}

/// The number of holding piece types XBoard must show: one more than the
/// highest number of a kind held in hand.
fn holdings_size(v: Variant) -> usize {
    let used = kinds(v);
    hand_kinds(v)
        .iter()
        .filter_map(|k| used.iter().position(|u| u == k))
        .map(|i| i + 1)
        .max()
        .unwrap_or(0)
}

/// XBoard's parent variant of a game (the rules XBoard applies around the
/// engine's): `bughouse` keeps captured men out of the holdings (Hoplit
/// and Trampoline Chess), `seirawan` shows a Jumping King's placed man
/// (S-Chess gating) and does not count its men in hand as no material.
fn parent(v: Variant) -> &'static str {
    match v {
        Variant::Hoplit | Variant::Trampoline => "bughouse",
        Variant::JumpingKing => "seirawan",
        _ => "fairy",
    }
}

/// The `setup` command of an engine-defined variant; `None` for chess,
/// which XBoard knows.
pub fn setup_line(pos: &Position) -> Option<String> {
    let v = pos.variant();
    if v == Variant::Chess {
        return None;
    }
    let (w, h) = size(v);
    Some(format!(
        "setup ({}) {w}x{h}+{}_{} {}",
        piece_to_char(v),
        holdings_size(v),
        parent(v),
        xboard_fen(pos)
    ))
}

/// The `piece` commands: the moves XBoard's own markers would show for the
/// pieces whose moves differ from its idea of them (`&`: both colours).
/// With legality testing off (docs/xboard.md) they decide nothing; the
/// engine's highlights do.
pub fn piece_lines(v: Variant) -> Vec<&'static str> {
    match v {
        // L2: a diagonal slide, then an orthogonal hop over a screen
        // (approximated: Betza cannot say "outward only" nor L3).
        Variant::Hoplit => vec!["piece H& mBapR"],
        // J4/J8: a knight's non-capturing jump in the jumping phase, a
        // king's step after it; J8: pawns never double-step.
        Variant::JumpingKing => vec!["piece K& mNK", "piece P& fmWfcF"],
        _ => vec![],
    }
}

/// Whether `sq` is on XBoard's board of this game.
pub fn on_board(v: Variant, sq: Square) -> bool {
    let (w, h) = size(v);
    sq.file().index() < w && sq.rank().index() < h
}

/// The square at XBoard's file `f`, rank `r` (from 0).
fn square(f: u8, r: u8) -> Square {
    Square::from_coords(
        File::new(f).expect("a file of the board"),
        Rank::new(r).expect("a rank of the board"),
    )
}

/// A board picture in FEN order (rank 8 first): `cell` gives a square's
/// letter, `None` for an empty square (counted in digits).
pub fn board_text(v: Variant, mut cell: impl FnMut(Square) -> Option<char>) -> String {
    let (w, h) = size(v);
    let mut rows = Vec::with_capacity(usize::from(h));
    for r in (0..h).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..w {
            match cell(square(f, r)) {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// The position in XBoard's FEN: the board (`*` for squares the game does
/// not have, `T`/`t` for Trampoline Chess trampolines), holdings in
/// brackets, side, castling, en passant, clocks. Hop Chess trampolines and
/// phase state are not shown (XBoard has no words for them).
pub fn xboard_fen(pos: &Position) -> String {
    let v = pos.variant();
    let mask = v.mask();
    let shown = |color| {
        (v == Variant::Trampoline)
            .then(|| pos.trampoline(color))
            .flatten()
    };
    let (white_t, black_t) = (shown(Color::White), shown(Color::Black));
    let board = board_text(v, |sq| {
        if !mask.contains(sq) {
            Some('*')
        } else if white_t == Some(sq) {
            Some('T')
        } else if black_t == Some(sq) {
            Some('t')
        } else {
            pos.board().piece_at(sq).map(Piece::char)
        }
    });
    let hand = hand_kinds(v);
    let holdings = if hand.is_empty() {
        String::new()
    } else {
        let mut text = String::from("[");
        for color in [Color::White, Color::Black] {
            for &kind in hand.iter().rev() {
                let (count, c) = match kind {
                    Kind::Role(role) => (pos.reserve(color, role), Piece::new(color, role).char()),
                    Kind::Trampoline => (
                        u8::from(pos.trampoline(color).is_none()),
                        color.fold('T', 't'),
                    ),
                };
                for _ in 0..count {
                    text.push(c);
                }
            }
        }
        text.push(']');
        text
    };
    let castling = if v == Variant::JumpingKing {
        "-".to_string()
    } else {
        // The castling field of our position text (the third field).
        pos.to_fen()
            .split_whitespace()
            .nth(2)
            .unwrap_or("-")
            .to_string()
    };
    let ep = pos.ep_square().map_or("-".to_string(), |s| s.to_string());
    format!(
        "{board}{holdings} {} {castling} {ep} {} {}",
        pos.turn().char(),
        pos.halfmove_clock(),
        pos.fullmove_number()
    )
}

/// Trampoline Chess: XBoard's FEN (trampolines as `T`/`t` on the board or
/// in the holdings) as our position text (trampolines in the last field).
fn trampoline_text(text: &str) -> Option<String> {
    let mut fields = text.split_whitespace();
    let placement = fields.next()?;
    let rest: Vec<&str> = fields.collect();
    let board = placement.split_once('[').map_or(placement, |(b, _)| b);
    let mut squares: [Option<Square>; 2] = [None, None];
    let mut rows = Vec::with_capacity(8);
    for (i, row) in board.split('/').enumerate() {
        let rank = Rank::new(u8::try_from(7usize.checked_sub(i)?).ok()?)?;
        let mut out = String::new();
        let (mut file, mut empty) = (0u8, 0u8);
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                let d = u8::try_from(d).ok()?;
                file = file.checked_add(d)?;
                empty = empty.checked_add(d)?;
                continue;
            }
            if c == 'T' || c == 't' {
                let slot = usize::from(c == 't');
                squares[slot] = Some(Square::from_coords(File::new(file)?, rank));
                file = file.checked_add(1)?;
                empty = empty.checked_add(1)?;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(c);
            file = file.checked_add(1)?;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        rows.push(out);
    }
    let field = |s: Option<Square>| s.map_or("-".to_string(), |s| s.to_string());
    Some(format!(
        "{} {} {},{}",
        rows.join("/"),
        rest.join(" "),
        field(squares[0]),
        field(squares[1])
    ))
}

/// The board field of the FIDE start position.
const START_BOARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

/// Reads a `setboard` position: our position text, or XBoard's FEN of the
/// game (what XBoard sends after `setup`). XBoard's FEN has no trampolines
/// and no phase state, so: Hop and Trampoline Chess start with both
/// trampolines off the board (Hop Chess's `first` state when the board is
/// the start position with White to move, H3); in Jumping King a side with
/// men in hand is taken to be in its jumping phase (J4, J6: a stuck side is
/// found stuck as its turn begins).
pub fn read_setboard(v: Variant, text: &str) -> Result<Position, String> {
    let ours = Position::from_fen(v, text);
    let err = match ours {
        Ok(pos) => return Ok(pos),
        Err(e) => e.to_string(),
    };
    let converted = match v {
        Variant::HopChess => {
            let fields: Vec<&str> = text.split_whitespace().collect();
            let first = fields.get(..2) == Some(&[START_BOARD, "w"][..]);
            Some(format!("{text} -,- {}", if first { "first" } else { "-" }))
        }
        Variant::Trampoline => trampoline_text(text),
        Variant::JumpingKing => jumping_king_text(text),
        Variant::Chess | Variant::Hoplit => None,
    };
    converted
        .and_then(|t| Position::from_fen(v, &t).ok())
        .ok_or(err)
}

/// Our Jumping King text of XBoard's 6x8 FEN
/// (`board[hand] side castling ep half full`).
fn jumping_king_text(text: &str) -> Option<String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (placement, side) = (fields.first()?, fields.get(1)?);
    let (board, hand) = match placement.split_once('[') {
        Some((b, h)) => (b, h.strip_suffix(']')?),
        None => (*placement, ""),
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 8 {
        return None;
    }
    let mut ours = Vec::with_capacity(8);
    for row in rows {
        // Expand to cells (None: empty or missing), then write 8 wide.
        let mut cells: Vec<Option<char>> = Vec::with_capacity(8);
        for c in row.chars() {
            match c {
                '*' => cells.push(None),
                d if d.is_ascii_digit() => {
                    cells.extend(std::iter::repeat_n(None, d.to_digit(10)? as usize))
                }
                p => cells.push(Some(p)),
            }
        }
        if cells.len() != 6 {
            return None;
        }
        cells.extend([None, None]);
        let mut out = String::new();
        let mut empty = 0;
        for cell in cells {
            match cell {
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(p);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        ours.push(out);
    }
    let mut phase = String::new();
    if hand.chars().any(|c| c.is_ascii_uppercase()) {
        phase.push('J');
    }
    if hand.chars().any(|c| c.is_ascii_lowercase()) {
        phase.push('j');
    }
    if phase.is_empty() {
        phase.push('-');
    }
    let clocks = match (fields.get(4), fields.get(5)) {
        (Some(h), Some(f)) => format!(" {h} {f}"),
        _ => String::new(),
    };
    Some(format!("{}[{hand}] {side} {phase}{clocks}", ours.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_tables() {
        assert_eq!(
            piece_to_char(Variant::HopChess),
            "PNBRQ................Kpnbrq................k"
        );
        assert_eq!(
            piece_to_char(Variant::Hoplit),
            "PNBRQ...............................HKpnbrq...............................hk"
        );
        assert_eq!(
            piece_to_char(Variant::JumpingKing),
            "PNBR.................Kpnbr.................k"
        );
        assert_eq!(holdings_size(Variant::Hoplit), 6);
        assert_eq!(holdings_size(Variant::JumpingKing), 4);
        assert_eq!(holdings_size(Variant::Trampoline), 6);
        assert_eq!(holdings_size(Variant::HopChess), 0);
        assert_eq!(hand_role(Variant::Hoplit, 5), Some(Role::Hoplit));
        assert_eq!(hand_role(Variant::Trampoline, 5), Some(Role::King));
        assert_eq!(hand_role(Variant::JumpingKing, 2), Some(Role::Bishop));
        assert_eq!(hand_role(Variant::Hoplit, 2), None);
    }

    #[test]
    fn setboard_reads_xboard_fens() {
        for v in Variant::implemented() {
            let start = Position::startpos(v);
            let back = read_setboard(v, &xboard_fen(&start)).unwrap();
            assert_eq!(back.to_fen(), start.to_fen(), "{v}");
        }
        // After 1.Kc2 Kd7 2.Ke3<B (docs/rules/jumpingking.md).
        let jk = read_setboard(
            Variant::JumpingKing,
            "*****1/3k2/6/6/6/4K1/2B3/1*****[RRBNNPPPrrbbnnppp] b - - 3 2",
        )
        .unwrap();
        assert_eq!(
            jk.to_fen(),
            "8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2"
        );
        let t = read_setboard(Variant::Trampoline, "4k3/8/8/8/8/8/8/4K3 b - - 0 9").unwrap();
        assert_eq!(t.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 9 -,-");
        assert!(read_setboard(Variant::JumpingKing, "******/6/6 w - - 0 1").is_err());
        assert!(read_setboard(Variant::HopChess, "8/8/8 w - - 0 1").is_err());
    }
}
