//! The lab's sets of games: the two strengths, the self-play set of each
//! game and strength (shared by every question that reads it), and the
//! exchange sets (one side without a piece against the other without k
//! pawns, the sides swapped game by game).

use super::runner::{GameRecord, RunOptions, SetSpec};
use anyhow::{bail, Context, Result};
use springboard_rules::{Color, Position, Role, Variant};

/// The run's settings every question shares.
#[derive(Clone, Debug)]
pub struct Lab {
    /// Where the JSON files go.
    pub out: std::path::PathBuf,
    pub run: RunOptions,
    /// `--games`, `--nodes`: the question's defaults when `None`.
    pub games: Option<usize>,
    pub nodes: Option<u64>,
    pub seed: u64,
    /// A few games per set at very low nodes (CI).
    pub tiny: bool,
    /// The command line, the engine's commit and today's date.
    pub command: String,
    pub commit: String,
    pub date: String,
}

/// The nodes of the strong level when `--nodes` is not given.
pub const DEFAULT_NODES: u64 = 2000;
/// The nodes of the strong level of a `--tiny` run.
const TINY_NODES: u64 = 200;
/// Games per set of a `--tiny` run.
const TINY_GAMES: usize = 4;

impl Lab {
    /// Games per set: `--games`, else the question's default (a few with `--tiny`).
    pub fn games(&self, default: usize) -> usize {
        if self.tiny {
            self.games.unwrap_or(TINY_GAMES).min(TINY_GAMES)
        } else {
            self.games.unwrap_or(default)
        }
    }

    fn nodes(&self) -> u64 {
        if self.tiny {
            TINY_NODES
        } else {
            self.nodes.unwrap_or(DEFAULT_NODES)
        }
    }

    fn max_plies(&self) -> usize {
        if self.tiny {
            120
        } else {
            300
        }
    }

    /// The two strengths: a weak level (skill 6 at a quarter of the nodes)
    /// and a strong one (skill 16 at the full nodes).
    pub fn levels(&self) -> [Level; 2] {
        let nodes = self.nodes();
        [
            Level {
                name: "weak",
                skill: 6,
                nodes: (nodes / 4).max(50),
            },
            Level {
                name: "strong",
                skill: 16,
                nodes,
            },
        ]
    }

    pub fn strong(&self) -> Level {
        self.levels()[1]
    }

    /// The self-play set of `variant` at `level`, from the start position.
    pub fn selfplay(&self, variant: Variant, level: Level) -> SetSpec {
        SetSpec {
            key: format!(
                "selfplay-{variant}-s{}-n{}-seed{}",
                level.skill, level.nodes, self.seed
            ),
            variant,
            starts: vec![variant.start_fen().to_string()],
            skill: level.skill,
            nodes: level.nodes,
            seed: self.seed,
            max_plies: self.max_plies(),
        }
    }

    /// Plays (what is missing of) and reads a set.
    pub fn games_of(&self, spec: &SetSpec, games: usize) -> Result<Vec<GameRecord>> {
        super::runner::run_set(spec, games, &self.run)
    }

    /// The exchange set of `variant` at `level`: the side without `ex`'s
    /// piece against the side without its base (if any) and `k` pawns
    /// ([`pawns`]); odd games the side without the piece is White
    /// ([`giver`]), even games Black.
    pub fn exchange(&self, variant: Variant, level: Level, ex: &Plan, k: usize) -> Result<SetSpec> {
        let start = variant.start_fen();
        let mut other: Vec<Odds> = ex.base.into_iter().collect();
        other.extend(pawns(variant, k)?);
        let side = |giver: Color| -> Result<String> {
            let mut fen = without(variant, start, ex.piece, giver)?;
            for &o in &other {
                fen = without(variant, &fen, o, !giver)?;
            }
            Ok(fen)
        };
        let base = ex.base.map_or(String::new(), |b| format!("{}-", b.name()));
        Ok(SetSpec {
            key: format!(
                "exchange-{variant}-{}-vs-{base}p{k}-s{}-n{}-seed{}",
                ex.piece.name(),
                level.skill,
                level.nodes,
                self.seed
            ),
            variant,
            starts: vec![side(Color::White)?, side(Color::Black)?],
            skill: level.skill,
            nodes: level.nodes,
            seed: self.seed,
            max_plies: self.max_plies(),
        })
    }
}

/// A strength: a limited level's random choice (skill) at fixed nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: &'static str,
    pub skill: u8,
    pub nodes: u64,
}

impl Level {
    pub fn label(self) -> String {
        format!("{} (skill {}, {} nodes)", self.name, self.skill, self.nodes)
    }
}

/// The colour of the side without the measured piece in game `number` of
/// an exchange set.
pub fn giver(number: usize) -> Color {
    if number % 2 == 1 {
        Color::White
    } else {
        Color::Black
    }
}

/// A piece given as odds: one on the board (its square on White's side,
/// mirrored for Black) or one from the reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Odds {
    Board(Role, &'static str),
    Reserve(Role),
}

impl Odds {
    pub fn role(self) -> Role {
        match self {
            Odds::Board(r, _) | Odds::Reserve(r) => r,
        }
    }

    pub fn name(self) -> &'static str {
        match self.role() {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Hoplit => "hoplit",
        }
    }
}

/// The pawns taken in the exchange matches, in order (White's squares;
/// Black's are mirrored): the queen's side first from the edge in (a, b,
/// c), then the king's side from the edge in (h, g, f), the centre last.
/// Edge pawns before inner ones, the king's side's shelter kept as long as
/// possible, the d- and e-pawns that open the bishops and the queen kept
/// last (see lab/README.md).
pub const PAWN_ORDER: [&str; 8] = ["a2", "b2", "c2", "h2", "g2", "f2", "d2", "e2"];

/// `k` pawns of one side, as [`Odds`]: from the board in [`PAWN_ORDER`],
/// or from the reserve in The Weak Square of the Jumping King (whose
/// pawns start there, three a side).
pub fn pawns(variant: Variant, k: usize) -> Result<Vec<Odds>> {
    if variant == Variant::JumpingKing {
        if k > 3 {
            bail!("{variant} has three pawns a side");
        }
        return Ok(vec![Odds::Reserve(Role::Pawn); k]);
    }
    if k > PAWN_ORDER.len() {
        bail!("a side has eight pawns");
    }
    Ok(PAWN_ORDER[..k]
        .iter()
        .map(|&sq| Odds::Board(Role::Pawn, sq))
        .collect())
}

/// How a piece's worth is measured: the side without `piece` against the
/// side without `base` (a piece measured against another, whose own worth
/// is then added) and k pawns, for each k of `ks` (around the expected
/// worth, so that each match is near 50%).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub piece: Odds,
    pub base: Option<Odds>,
    pub ks: Vec<usize>,
}

impl Plan {
    /// The plans of a game's value questions, a piece after its base:
    /// knight and bishop against 2, 3 and 4 pawns, the rook against 4, 5
    /// and 6, the queen against a rook and 3, 4 or 5 pawns (a side has
    /// only eight), the Hoplit (from its reserve) against 2, 3 and 4. In
    /// The Weak Square of the Jumping King (three pawns a side, men in the
    /// reserve): knight and bishop against 1, 2 and 3 pawns, the rook
    /// against a knight and 1, 2 or 3 pawns. Not Hop Chess (see
    /// [`without`]).
    pub fn of(variant: Variant) -> Vec<Plan> {
        let plan = |piece, base, ks: [usize; 3]| Plan {
            piece,
            base,
            ks: ks.to_vec(),
        };
        match variant {
            Variant::HopChess => Vec::new(),
            Variant::JumpingKing => {
                let r = Odds::Reserve;
                vec![
                    plan(r(Role::Knight), None, [1, 2, 3]),
                    plan(r(Role::Bishop), None, [1, 2, 3]),
                    plan(r(Role::Rook), Some(r(Role::Knight)), [1, 2, 3]),
                ]
            }
            _ => {
                let rook = Odds::Board(Role::Rook, "a1");
                let mut v = vec![
                    plan(Odds::Board(Role::Knight, "b1"), None, [2, 3, 4]),
                    plan(Odds::Board(Role::Bishop, "c1"), None, [2, 3, 4]),
                    plan(rook, None, [4, 5, 6]),
                    plan(Odds::Board(Role::Queen, "d1"), Some(rook), [3, 4, 5]),
                ];
                if variant == Variant::Hoplit {
                    v.push(plan(Odds::Reserve(Role::Hoplit), None, [2, 3, 4]));
                }
                v
            }
        }
    }
}

/// The position text `fen` of `variant` without `color`'s `piece`.
/// Not Hop Chess: its start state (`first`, White's first turn a piece
/// move only, H3) holds in its start position alone.
pub fn without(variant: Variant, fen: &str, piece: Odds, color: Color) -> Result<String> {
    if variant == Variant::HopChess {
        bail!("Hop Chess has no odds positions: its first-turn state holds in the start position alone");
    }
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let (board, reserve) = match fields[0].split_once('[') {
        Some((b, r)) => (b.to_string(), Some(r.trim_end_matches(']').to_string())),
        None => (fields[0].clone(), None),
    };
    let letter = |role: Role| match color {
        Color::White => role.upper_char(),
        Color::Black => role.char(),
    };
    let (board, reserve) = match piece {
        Odds::Reserve(role) => {
            let Some(mut r) = reserve else {
                bail!("{variant} has no reserve");
            };
            let Some(i) = r.find(letter(role)) else {
                bail!("no {} in the reserve of {fen}", role.plural());
            };
            r.remove(i);
            (board, Some(r))
        }
        Odds::Board(role, square) => {
            let bytes = square.as_bytes();
            let file = usize::from(bytes[0] - b'a');
            let rank = usize::from(bytes[1] - b'1');
            let rank = if color == Color::White {
                rank
            } else {
                7 - rank
            };
            let mut rows: Vec<Vec<char>> = board
                .split('/')
                .map(|row| {
                    row.chars()
                        .flat_map(|c| match c.to_digit(10) {
                            Some(n) => vec!['1'; n as usize],
                            None => vec![c],
                        })
                        .collect()
                })
                .collect();
            let row = rows
                .get_mut(7 - rank)
                .context("the board has eight ranks")?;
            if row.get(file) != Some(&letter(role)) {
                bail!("no {} on the square in {fen}", role.plural());
            }
            row[file] = '1';
            if role == Role::Rook {
                // The rook of the queen's side: its castling right goes.
                let right = if color == Color::White { 'Q' } else { 'q' };
                let castling: String = fields[2].chars().filter(|&c| c != right).collect();
                fields[2] = if castling.is_empty() {
                    "-".to_string()
                } else {
                    castling
                };
            }
            let board = rows
                .iter()
                .map(|row| {
                    let mut out = String::new();
                    let mut empty = 0;
                    for &c in row {
                        if c == '1' {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push(c);
                        }
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    out
                })
                .collect::<Vec<_>>()
                .join("/");
            (board, reserve)
        }
    };
    fields[0] = match reserve {
        Some(r) => format!("{board}[{r}]"),
        None => board,
    };
    let text = fields.join(" ");
    Position::from_fen(variant, &text).with_context(|| format!("odds position '{text}'"))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Lab {
        Lab {
            out: "lab".into(),
            run: RunOptions {
                work: "lab/runs".into(),
                concurrency: 1,
            },
            games: None,
            nodes: None,
            seed: 1,
            tiny: false,
            command: String::new(),
            commit: String::new(),
            date: String::new(),
        }
    }

    #[test]
    fn odds_positions() {
        let knight = without(
            Variant::Chess,
            Variant::Chess.start_fen(),
            Odds::Board(Role::Knight, "b1"),
            Color::White,
        )
        .unwrap();
        assert_eq!(
            knight,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1"
        );
        let rook = without(
            Variant::Trampoline,
            Variant::Trampoline.start_fen(),
            Odds::Board(Role::Rook, "a1"),
            Color::Black,
        )
        .unwrap();
        assert_eq!(
            rook,
            "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1 -,-"
        );
        let hoplit = without(
            Variant::Hoplit,
            Variant::Hoplit.start_fen(),
            Odds::Reserve(Role::Hoplit),
            Color::Black,
        )
        .unwrap();
        assert!(hoplit.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[H] w"));
        for v in Variant::ALL {
            if v == Variant::HopChess {
                let o = Odds::Board(Role::Pawn, "f2");
                assert!(without(v, v.start_fen(), o, Color::White).is_err());
                continue;
            }
            for p in Plan::of(v) {
                for &k in &p.ks {
                    lab().exchange(v, lab().strong(), &p, k).unwrap();
                }
            }
        }
        // The queen against a rook and three pawns, the sides swapped.
        let queen = &Plan::of(Variant::Chess)[3];
        let spec = lab()
            .exchange(Variant::Chess, lab().strong(), queen, 3)
            .unwrap();
        assert_eq!(spec.key, "exchange-chess-queen-vs-rook-p3-s16-n2000-seed1");
        assert_eq!(
            spec.starts,
            vec![
                "1nbqkbnr/3ppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQk - 0 1".to_string(),
                "rnb1kbnr/pppppppp/8/8/8/8/3PPPPP/1NBQKBNR w Kkq - 0 1".to_string(),
            ]
        );
        assert!(without(
            Variant::Chess,
            Variant::Chess.start_fen(),
            Odds::Reserve(Role::Pawn),
            Color::White
        )
        .is_err());
    }
}
