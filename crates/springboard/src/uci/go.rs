//! `go`: its parameters and the search (or count) it starts.

use super::output::{baseline_info, info_line};
use super::perft::{perft_job, PERFT_MAX};
use super::{Player, Session, ECHO_MAX};
use crate::searcher::{clip, history_keys, say};
use springboard_engine::{baseline, Limits};
use springboard_rules::notation::uci::to_uci;
use springboard_rules::Move;
use std::num::IntErrorKind;

/// What follows `go`.
pub(super) enum Go {
    Perft(u32),
    Search { limits: Limits, ponder: bool },
}

/// A count (`depth`, `nodes`, `movetime`, ...): a whole number from 0; one
/// too large for `T` counts as `T`'s largest (no limit in practice).
fn parse_count<T: TryFrom<u64>>(name: &str, value: Option<&&str>, max: T) -> Result<T, String> {
    let text = value.ok_or_else(|| format!("go {name} needs a value"))?;
    let n = match text.parse::<u64>() {
        Ok(n) => n,
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => u64::MAX,
        Err(_) => {
            return Err(format!(
                "bad value for go {name}: '{}' (a whole number from 0)",
                clip(text, ECHO_MAX)
            ))
        }
    };
    Ok(T::try_from(n).unwrap_or(max))
}

pub(super) fn parse_go(args: &str) -> Result<Go, String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    if tokens.first() == Some(&"perft") {
        return match tokens.as_slice() {
            [_, depth] => match depth.parse::<u32>() {
                Ok(d) if d <= PERFT_MAX => Ok(Go::Perft(d)),
                _ => Err(format!(
                    "bad perft depth '{}' (a whole number from 0 to {PERFT_MAX})",
                    clip(depth, ECHO_MAX)
                )),
            },
            _ => Err("go perft needs one depth".to_string()),
        };
    }
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut i = 0;
    while i < tokens.len() {
        let name = tokens[i];
        let value = tokens.get(i + 1);
        match name {
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            "wtime" => limits.wtime = Some(parse_time(name, value)?),
            "btime" => limits.btime = Some(parse_time(name, value)?),
            "winc" => limits.winc = Some(parse_time(name, value)?),
            "binc" => limits.binc = Some(parse_time(name, value)?),
            "movetime" => limits.movetime = Some(parse_count(name, value, u64::MAX)?),
            "movestogo" => limits.movestogo = Some(parse_count(name, value, u32::MAX)?),
            "depth" => limits.depth = Some(parse_count(name, value, u32::MAX)?),
            "nodes" => limits.nodes = Some(parse_count(name, value, u64::MAX)?),
            "mate" => limits.mate = Some(parse_count(name, value, u32::MAX)?),
            _ => return Err(format!("unknown go parameter '{}'", clip(name, ECHO_MAX))),
        }
        i += if matches!(name, "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    Ok(Go::Search { limits, ponder })
}

/// Clock values may be negative (a GUI's late clock): they count as 0;
/// values too large for a u64 count as its largest.
fn parse_time(name: &str, value: Option<&&str>) -> Result<u64, String> {
    let text = value.ok_or_else(|| format!("go {name} needs a value"))?;
    match text.parse::<i64>() {
        Ok(t) => Ok(u64::try_from(t).unwrap_or(0)),
        Err(e) if *e.kind() == IntErrorKind::NegOverflow => Ok(0),
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => {
            Ok(text.parse::<u64>().unwrap_or(u64::MAX))
        }
        Err(_) => Err(format!(
            "bad value for go {name}: '{}' (a whole number of milliseconds)",
            clip(text, ECHO_MAX)
        )),
    }
}

impl Session {
    pub(super) fn go(&mut self, go: Go) -> std::io::Result<()> {
        self.release_held()?;
        match go {
            Go::Perft(depth) => {
                let pos = self.position().clone();
                let (out, out_failed) = (self.out.clone(), self.out.clone());
                self.searcher.run(
                    move |signals| {
                        // A closed output ends the session anyway.
                        let _ = perft_job(&pos, depth, &out, signals);
                    },
                    move |e| {
                        let _ = say(
                            &out_failed,
                            &format!("info string error: perft failed: {e}"),
                        );
                    },
                );
            }
            Go::Search { limits, ponder } if self.player == Player::Material1 => {
                self.searcher.stop();
                let pos = self.position();
                let line = match baseline::material_move(pos) {
                    Some(choice) => {
                        self.say(&baseline_info(pos, &choice))?;
                        format!("bestmove {}", to_uci(pos, choice.best))
                    }
                    None => "bestmove (none)".to_string(),
                };
                if limits.infinite || ponder {
                    self.held = Some(line);
                } else {
                    self.say(&line)?;
                }
            }
            Go::Search { limits, ponder } => {
                let root = self.position().clone();
                let history = history_keys(&self.game);
                let (out_info, out_done) = (self.out.clone(), self.out.clone());
                let out_failed = self.out.clone();
                let info_root = root.clone();
                let done_root = root.clone();
                self.searcher.start_guarded(
                    root,
                    history,
                    limits,
                    ponder,
                    move |info| {
                        // A closed output ends the session anyway.
                        let _ = say(&out_info, &info_line(&info_root, info));
                    },
                    move |result| {
                        let text = |m: Move| to_uci(&done_root, m);
                        let line = match (result.best, result.ponder) {
                            (Some(b), Some(p)) => {
                                format!("bestmove {} ponder {}", text(b), text(p))
                            }
                            (Some(b), None) => format!("bestmove {}", text(b)),
                            (None, _) => "bestmove (none)".to_string(),
                        };
                        let _ = say(&out_done, &line);
                    },
                    move |e| {
                        // The search died: say so, and still answer (a GUI
                        // waits for `bestmove`), with the null move, as no
                        // search chose one.
                        let _ = say(
                            &out_failed,
                            &format!("info string error: the search failed: {e}"),
                        );
                        let _ = say(&out_failed, "bestmove 0000");
                    },
                );
            }
        }
        Ok(())
    }
}
