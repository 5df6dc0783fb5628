//! How XBoard sees our boards: the board size, the engine-defined variant
//! commands (`setup`, `piece`) and boards in XBoard's FEN format.
//!
//! XBoard knows FIDE chess only; the other four games are engine-defined
//! variants on its `fairy` parent. Trampolines are not XBoard pieces (they
//! hold no piece and block nothing, RULINGS P1): XBoard's board never shows
//! them, the engine's `highlight` answers do (see docs/xboard.md).

use springboard_rules::{Color, File, Piece, Position, Rank, Role, Square, Variant};

/// XBoard's piece table order, one letter per piece type (the white half of
/// `PIECETOCHAR`).
const XBOARD_ORDER: [char; 22] = [
    'P', 'N', 'B', 'R', 'Q', 'F', 'E', 'A', 'C', 'W', 'M', 'O', 'H', 'I', 'J', 'G', 'D', 'V', 'L',
    'S', 'U', 'K',
];

/// The board's width and height in XBoard's view (Jumping King: files a-f,
/// ranks 1-8, RULINGS J1).
pub fn size(v: Variant) -> (u8, u8) {
    match v {
        Variant::JumpingKing => (6, 8),
        _ => (8, 8),
    }
}

/// The roles a game uses, in XBoard's table order.
fn roles(v: Variant) -> &'static [Role] {
    match v {
        Variant::JumpingKing => &[
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::King,
        ],
        Variant::Hoplit => &[
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::Hoplit,
            Role::King,
        ],
        _ => &[
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ],
    }
}

/// The roles a side may hold in hand (XBoard's holdings).
fn hand_roles(v: Variant) -> &'static [Role] {
    match v {
        // J2: the men to place.
        Variant::JumpingKing => &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook],
        // L1: the reserve Hoplit.
        Variant::Hoplit => &[Role::Hoplit],
        _ => &[],
    }
}

/// The `PIECETOCHAR` table: 22 letters a side, '.' for unused types.
pub fn piece_to_char(v: Variant) -> String {
    let used = roles(v);
    let white: String = XBOARD_ORDER
        .iter()
        .map(|&c| {
            let role = Role::from_char(c).filter(|r| used.contains(r));
            if role.is_some() {
                c
            } else {
                '.'
            }
        })
        .collect();
    let black = white.to_ascii_lowercase();
    format!("{white}{black}")
}

/// The number of holding piece types XBoard must show: it numbers the used
/// types in table order, so this is one more than the highest number of a
/// role held in hand.
fn holdings_size(v: Variant) -> usize {
    let used = roles(v);
    hand_roles(v)
        .iter()
        .filter_map(|r| used.iter().position(|u| u == r))
        .map(|i| i + 1)
        .max()
        .unwrap_or(0)
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
        "setup ({}) {w}x{h}+{}_fairy {}",
        piece_to_char(v),
        holdings_size(v),
        xboard_fen(pos)
    ))
}

/// The `piece` commands for the pieces whose moves differ from XBoard's
/// idea of them. `&` asks XBoard to trust the engine's highlights, since
/// Betza notation cannot say what these pieces do.
pub fn piece_lines(v: Variant) -> Vec<&'static str> {
    match v {
        Variant::Chess => vec![],
        // L2: a diagonal slide, then an orthogonal hop over a screen
        // (approximated: Betza cannot say "outward only" nor L3).
        Variant::Hoplit => vec!["piece H& mBapR"],
        // J4/J8: a knight's non-capturing jump in the jumping phase, a
        // king's step after it; J8: pawns never double-step.
        Variant::JumpingKing => vec!["piece K& mNK", "piece P& fmWfcF"],
        // P2-P7, T3: every piece but the king may bounce off a
        // trampoline, so every path comes from the engine's highlights.
        Variant::Trampoline => vec![
            "piece P& fmWfceFifmnD",
            "piece N& N",
            "piece B& B",
            "piece R& R",
            "piece Q& Q",
        ],
        // H2, H4: as in Trampoline Chess, and every turn, the king's too,
        // begins with the placement leg (see `notation`).
        Variant::HopChess => vec![
            "piece P& fmWfceFifmnD",
            "piece N& N",
            "piece B& B",
            "piece R& R",
            "piece Q& Q",
            "piece K& KisO2",
        ],
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

/// The position in XBoard's FEN: the plain board (`*` for squares the game
/// does not have), holdings in brackets, side, castling, en passant,
/// clocks. Trampolines and phase state are not shown (XBoard has no words
/// for them).
pub fn xboard_fen(pos: &Position) -> String {
    let v = pos.variant();
    let mask = v.mask();
    let board = board_text(v, |sq| {
        if !mask.contains(sq) {
            Some('*')
        } else {
            pos.board().piece_at(sq).map(Piece::char)
        }
    });
    let hand = hand_roles(v);
    let holdings = if hand.is_empty() {
        String::new()
    } else {
        let mut text = String::from("[");
        for color in [Color::White, Color::Black] {
            for &role in hand.iter().rev() {
                let c = Piece::new(color, role).char();
                for _ in 0..pos.reserve(color, role) {
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
        Variant::Trampoline => Some(format!("{text} -,-")),
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
            "PNBRQ.......H........Kpnbrq.......h........k"
        );
        assert_eq!(
            piece_to_char(Variant::JumpingKing),
            "PNBR.................Kpnbr.................k"
        );
        assert_eq!(holdings_size(Variant::Hoplit), 6);
        assert_eq!(holdings_size(Variant::JumpingKing), 4);
        assert_eq!(holdings_size(Variant::Trampoline), 0);
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
