//! `lift` and `put`: XBoard's clicks answered with highlights.

use super::clicks::{self, Lifted, PutAnswer};
use super::{board, lock, Session};
use springboard_rules::{Role, Square, Variant};

/// The square of a `lift`: a board square, or a piece in XBoard's holdings
/// (White's to the right of the board, file `a` + width + 1, rank = its
/// number + 1; Black's in file `_`, counted from the top), or `H@`.
fn parse_origin(v: Variant, text: &str) -> Option<clicks::Origin> {
    if let Some(letter) = text.strip_suffix('@') {
        let mut chars = letter.chars();
        let role = match (chars.next()?, chars.next()) {
            ('T' | 't', None) if v == Variant::Trampoline => Role::King,
            (c, None) => Role::from_char(c)?,
            _ => return None,
        };
        return Some(clicks::Origin::Hand(role));
    }
    if let Ok(sq) = text.parse::<Square>() {
        return Some(clicks::Origin::Square(sq));
    }
    let mut chars = text.chars();
    let file = chars.next()?;
    let rank: usize = chars.as_str().parse().ok()?;
    let (w, h) = board::size(v);
    let number = if file == char::from(b'a' + w + 1) {
        rank.checked_sub(1)?
    } else if file == '_' {
        usize::from(h).checked_sub(rank)?
    } else {
        return None;
    };
    board::hand_role(v, number).map(clicks::Origin::Hand)
}
impl Session {
    /// `lift SQ`: the squares the lifted piece can go to.
    pub(super) fn lift(&mut self, line: &str, rest: &str) -> std::io::Result<()> {
        let Some(origin) = parse_origin(self.variant, rest) else {
            self.lifted = None;
            return self.error(line, "lift needs a square");
        };
        let (pos, over) = {
            let shared = lock(&self.shared);
            (
                shared.game.position().clone(),
                shared.game.outcome().is_some(),
            )
        };
        // XBoard 4.9.1 follows a `put` on a cyan square with `lift` of that
        // same square: the move goes on from there, so the lifted piece
        // stays and its next squares are shown again.
        if let (Some(lifted), clicks::Origin::Square(sq)) = (&self.lifted, origin) {
            if lifted.last_click() == Some(sq) {
                return self.say(&lifted.highlight(&pos));
            }
        }
        let lifted = match origin {
            clicks::Origin::Square(sq) if !board::on_board(self.variant, sq) => {
                self.lifted = None;
                return self.error(line, "no such square");
            }
            // A finished game has no moves to show.
            _ if over => Lifted::empty(),
            _ => Lifted::new(&pos, origin),
        };
        self.say(&lifted.highlight(&pos))?;
        self.lifted = Some(lifted);
        Ok(())
    }

    /// `put SQ`: the lifted piece goes to SQ; a continuation gets new
    /// highlights, a final square with a choice gets `choice`.
    pub(super) fn put(&mut self, line: &str, rest: &str) -> std::io::Result<()> {
        let Ok(sq) = rest.parse::<Square>() else {
            return self.error(line, "put needs a square");
        };
        let pos = self.position();
        let answer = match self.lifted.as_mut() {
            Some(lifted) => lifted.put(&pos, sq),
            None => return self.error(line, "nothing lifted"),
        };
        match answer {
            PutAnswer::Highlight(text) | PutAnswer::Choice(text) => self.say(&text),
            PutAnswer::Nothing => Ok(()),
        }
    }
}
