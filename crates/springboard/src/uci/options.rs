//! The UCI options: the `uci` handshake that lists them, `setoption` and
//! the strength they set.

use super::{Player, Session};
use springboard_engine::Strength;
use springboard_rules::{Game, Position, Variant};

pub(super) const HASH_DEFAULT: usize = 16;
pub(super) const HASH_MAX: usize = 4096;
const THREADS_MAX: usize = 64;
const MULTIPV_MAX: usize = 64;

impl Session {
    /// The answer to `uci`: the engine's name, its options, `uciok`.
    pub(super) fn handshake(&self) -> std::io::Result<()> {
        let name = match self.player {
            Player::Full => "Springboard",
            Player::Material1 => "Springboard material1",
        };
        self.say(&format!("id name {name} {}", env!("CARGO_PKG_VERSION")))?;
        self.say("id author the Springboard developers")?;
        let vars: Vec<&str> = Variant::implemented().map(|v| v.name()).collect();
        self.say(&format!(
            "option name UCI_Variant type combo default chess{}",
            vars.iter().map(|v| format!(" var {v}")).collect::<String>()
        ))?;
        self.say(&format!(
            "option name Hash type spin default {HASH_DEFAULT} min 1 max {HASH_MAX}"
        ))?;
        self.say("option name Clear Hash type button")?;
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {THREADS_MAX}"
        ))?;
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"
        ))?;
        self.say("option name Ponder type check default false")?;
        self.say("option name Move Overhead type spin default 30 min 0 max 5000")?;
        self.say("option name Skill Level type spin default 20 min 0 max 20")?;
        self.say("option name UCI_LimitStrength type check default false")?;
        self.say(&format!(
            "option name UCI_Elo type spin default 1500 min {} max {}",
            Strength::ELO_MIN,
            Strength::ELO_MAX
        ))?;
        self.say("uciok")?;
        Ok(())
    }

    pub(super) fn setoption(&mut self, args: &str) -> Result<(), String> {
        let (name, value) = parse_setoption(args)?;
        let need = || value.ok_or_else(|| format!("option '{name}' needs a value"));
        let number = |min: i64, max: i64| -> Result<i64, String> {
            let v = need()?;
            match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option '{name}' needs a whole number from {min} to {max}, not '{v}'"
                )),
            }
        };
        let check = || -> Result<bool, String> {
            match need()? {
                v if v.eq_ignore_ascii_case("true") => Ok(true),
                v if v.eq_ignore_ascii_case("false") => Ok(false),
                v => Err(format!("option '{name}' needs true or false, not '{v}'")),
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let variant: Variant = need()?.parse().map_err(|e| format!("{e}"))?;
                if !variant.is_implemented() {
                    return Err(format!("the variant '{variant}' is not implemented yet"));
                }
                self.searcher.stop();
                self.variant = variant;
                self.game = Game::new(Position::startpos(variant));
                self.refused = None;
                // UCI_Elo picks a level by the game's own ratings.
                self.update_strength();
            }
            "hash" => {
                let mb = number(1, HASH_MAX as i64)?;
                self.searcher.engine().set_hash(mb as usize);
            }
            "clear hash" => self.searcher.engine().new_game(),
            "threads" => {
                let n = number(1, THREADS_MAX as i64)?;
                self.searcher.engine().threads = n as usize;
            }
            "multipv" => {
                let n = number(1, MULTIPV_MAX as i64)?;
                self.searcher.engine().multipv = n as usize;
            }
            "move overhead" => {
                let n = number(0, 5000)?;
                self.searcher.engine().move_overhead_ms = n as u64;
            }
            "ponder" => {
                check()?;
            }
            "skill level" => {
                self.skill = number(0, 20)?;
                self.update_strength();
            }
            "uci_limitstrength" => {
                self.limit_strength = check()?;
                self.update_strength();
            }
            "uci_elo" => {
                self.elo = number(Strength::ELO_MIN as i64, Strength::ELO_MAX as i64)? as u32;
                self.update_strength();
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    fn update_strength(&mut self) {
        let strength = if self.limit_strength {
            Strength::from_elo(self.variant, self.elo)
        } else {
            Strength::from_skill(self.skill)
        };
        self.searcher.engine().strength = strength;
    }
}

/// A `setoption` command's arguments (the text after `setoption`) read as
/// the session reads them: the option's name, the text after `name` and
/// before ` value`, trimmed (so `name  UCI_Variant value x`, with two
/// spaces, names `UCI_Variant`), and its value, trimmed, if one is given.
/// The session matches names without regard to case.
pub fn parse_setoption(args: &str) -> Result<(&str, Option<&str>), String> {
    let rest = args
        .strip_prefix("name")
        .ok_or_else(|| format!("setoption needs 'name': setoption {args}"))?
        .trim();
    Ok(match rest.split_once(" value") {
        Some((n, v)) => (n.trim(), Some(v.trim())),
        None => (rest, None),
    })
}
