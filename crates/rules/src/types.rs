//! Squares, colours, piece kinds and pieces.

use std::fmt;

/// A side. White moves first in every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `true` for White.
    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// Chooses between two values by colour.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `"White"` or `"Black"`, as messages name the sides.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A kind of piece. `Hoplit` exists only in Hoplit Chess (ruling L1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
    Hoplit = 6,
}

impl Role {
    /// The kind's plural name in messages: "pawns", "knights", ...
    pub const fn plural(self) -> &'static str {
        match self {
            Role::Pawn => "pawns",
            Role::Knight => "knights",
            Role::Bishop => "bishops",
            Role::Rook => "rooks",
            Role::Queen => "queens",
            Role::King => "kings",
            Role::Hoplit => "hoplits",
        }
    }

    pub const ALL: [Role; 7] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Hoplit,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter of long notation and FEN (black pieces).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
            Role::Hoplit => 'h',
        }
    }

    /// The uppercase letter of SAN and of white pieces in FEN.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Reads a piece letter in either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            'h' => Role::Hoplit,
            _ => return None,
        })
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: uppercase for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A file, a..h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    pub fn from_char(c: char) -> Option<File> {
        ('a'..='h').contains(&c).then(|| File(c as u8 - b'a'))
    }
}

/// A rank, 1..8 (index 0..7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index))
        } else {
            None
        }
    }
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
    pub fn from_char(c: char) -> Option<Rank> {
        ('1'..='8').contains(&c).then(|| Rank(c as u8 - b'1'))
    }
    /// The rank as seen from `color`'s side: rank 1 for White is rank 8 for Black.
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

macro_rules! squares {
    ($($name:ident = $i:expr),* $(,)?) => {
        /// A square of the 8x8 grid. Boards with holes (Jumping King) use a
        /// mask over the same grid. `Option<Square>` is one byte.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Square { $($name = $i),* }
        impl Square {
            /// All 64 squares, a1, b1, ..., h8.
            pub const ALL: [Square; 64] = [$(Square::$name),*];
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with index `i` (a1 = 0, h8 = 63). Panics if `i >= 64`;
    /// use [`Square::try_from_index`] for untrusted input.
    #[inline]
    pub const fn from_index(i: u32) -> Square {
        Square::ALL[i as usize]
    }

    pub const fn try_from_index(i: u32) -> Option<Square> {
        if i < 64 {
            Some(Square::ALL[i as usize])
        } else {
            None
        }
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::ALL[(rank.0 * 8 + file.0) as usize]
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File(self as u8 & 7)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self as u8 >> 3)
    }

    /// The square `df` files and `dr` ranks away, if it is on the 8x8 grid.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = (self as u8 & 7) as i8 + df;
        let r = (self as u8 >> 3) as i8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::ALL[(r * 8 + f) as usize])
        } else {
            None
        }
    }

    /// The same square seen from Black's side (a1 <-> a8).
    pub const fn flip_vertical(self) -> Square {
        Square::ALL[(self as usize) ^ 56]
    }

    /// Light or dark: `true` for light squares (h1, a8 ...).
    pub const fn is_light(self) -> bool {
        ((self as u8 & 7) + (self as u8 >> 3)) % 2 == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl std::str::FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => Ok(Square::from_coords(
                File::from_char(f).ok_or(())?,
                Rank::from_char(r).ok_or(())?,
            )),
            _ => Err(()),
        }
    }
}

const _: () = assert!(std::mem::size_of::<Option<Square>>() == 1);
const _: () = assert!(std::mem::size_of::<Option<Role>>() == 1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates() {
        assert_eq!(Square::E4.file().char(), 'e');
        assert_eq!(Square::E4.rank().char(), '4');
        assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
        assert_eq!("i4".parse::<Square>(), Err(()));
        assert_eq!("e9".parse::<Square>(), Err(()));
        assert_eq!(Square::E4.to_string(), "e4");
        assert_eq!(Square::A1.offset(-1, 0), None);
        assert_eq!(Square::A1.offset(1, 2), Some(Square::B3));
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
    }
}
