//! What a match writes: the PGN of each game, the running score (Elo,
//! SPRT) and the final report.

use super::config::MatchArgs;
use super::game::{Fault, GameResult, Played};
use super::stats::{Penta, Sprt, SprtState, Wdl};
use springboard_rules::notation::pgn::{self, Player, Tags};
use springboard_rules::{Color, Game};

/// The PGN of a played game, written by the rules core's PGN writer: the
/// engines' names, the round, the time control, the result and why.
pub(super) fn pgn(args: &MatchArgs, g: &Played) -> String {
    let mut game = Game::new(g.start.clone());
    for &m in &g.moves {
        // Every move was checked by the rules core when it was played.
        if game.play(m).is_err() {
            break;
        }
    }
    let mut tags = Tags::new();
    tags.set("Event", "springboard match")
        .set("Site", "?")
        .set("Date", pgn::today())
        .set("Round", (g.index + 1).to_string())
        .set("Result", g.result.pgn())
        .set("Termination", g.reason.as_str());
    for (color, name) in [(Color::White, &g.white), (Color::Black, &g.black)] {
        tags.set_player(color, Player::Engine { name, level: None });
    }
    let tc = if args.fixed_search() {
        "-".to_string()
    } else {
        pgn::time_control(args.tc.base_ms, args.tc.inc_ms)
    };
    tags.set("TimeControl", tc);
    let mut text = pgn::write(&game, &tags);
    text.push('\n');
    text
}

/// The first engine's points in a game, in half points (0, 1, 2).
pub(super) fn half_points(g: &Played) -> u32 {
    match g.result {
        GameResult::Draw => 1,
        r if (r == GameResult::WhiteWins) == g.white_is_engine1 => 2,
        _ => 0,
    }
}

/// The running score after a game: W-L-D, Elo, the pairs and the SPRT
/// (on pairs when the games are played in pairs).
pub(super) fn summary(wdl: Wdl, pairs: Option<Penta>, sprt: Option<Sprt>) -> String {
    let mut s = format!(
        "Score of engine1 vs engine2: {} - {} - {}  [{:.3}] {}",
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.score(),
        wdl.games()
    );
    match wdl.elo().map(|(e, l, h)| (e + 0.0, l + 0.0, h + 0.0)) {
        Some((elo, lo, hi)) => s.push_str(&format!(
            "\nElo difference: {elo:.1} (95% interval {lo:.1} to {hi:.1})"
        )),
        None => s.push_str("\nElo difference: no finite estimate yet (score 0% or 100%)"),
    }
    if let Some(p) = pairs {
        s.push_str(&format!("\nPtnml(0-2): {}", ptnml(p)));
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        let (llr, state) = match pairs {
            Some(p) => (sprt.llr_pairs(p), sprt.state_pairs(p)),
            None => (sprt.llr(wdl), sprt.state(wdl)),
        };
        s.push_str(&format!(
            "\nSPRT ({}, {}, alpha {}, beta {}): LLR {llr:.2} (bounds {lower:.2}, {upper:.2})",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta,
        ));
        match state {
            SprtState::H1 => s.push_str(" H1 accepted"),
            SprtState::H0 => s.push_str(" H0 accepted"),
            SprtState::Continue => {}
        }
    }
    s
}

fn ptnml(p: Penta) -> String {
    p.0.map(|c| c.to_string()).join(", ")
}

/// The SPRT's result in the form a commit message carries (as fishtest
/// writes it): the verdict, the LLR with its bounds and the Elo bounds,
/// the games with W/L/D of engine1, the pairs.
pub(super) fn sprt_block(sprt: Sprt, wdl: Wdl, pairs: Option<Penta>) -> String {
    let (lower, upper) = sprt.bounds();
    let (llr, state) = match pairs {
        Some(p) => (sprt.llr_pairs(p), sprt.state_pairs(p)),
        None => (sprt.llr(wdl), sprt.state(wdl)),
    };
    let verdict = match state {
        SprtState::H1 => "Passed (H1 accepted)",
        SprtState::H0 => "Failed (H0 accepted)",
        SprtState::Continue => "Undecided (no bound reached)",
    };
    let mut s = format!(
        "SPRT result: {verdict}\nLLR: {llr:.2} ({lower:.2},{upper:.2}) <{:.2},{:.2}>\nTotal: {} W: {} L: {} D: {}",
        sprt.elo0,
        sprt.elo1,
        wdl.games(),
        wdl.wins,
        wdl.losses,
        wdl.draws
    );
    if let Some(p) = pairs {
        s.push_str(&format!("\nPtnml(0-2): {}", ptnml(p)));
    }
    if let Some((elo, lo, hi)) = wdl.elo() {
        // `+ 0.0` writes an even score's -0.0 as +0.0.
        let (elo, lo, hi) = (elo + 0.0, lo + 0.0, hi + 0.0);
        s.push_str(&format!("\nElo: {elo:+.1} (95%: {lo:+.1} to {hi:+.1})"));
    }
    s
}

/// Everything the final report counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// The first engine's results.
    pub(super) engine1: Wdl,
    /// White's results (White moves first in every game of the five).
    pub(super) white: Wdl,
    /// Faults by engine (0: engine1, 1: engine2): illegal, time, crash.
    pub(super) faults: [[u32; 3]; 2],
    /// Adjudications: resign, draw, max plies.
    pub(super) adjudications: [u32; 3],
    /// Games that could not be started (an engine failed to start).
    pub(super) not_played: u32,
}

impl Tally {
    pub(super) fn add(&mut self, g: &Played) {
        let engine1_color = if g.white_is_engine1 {
            Color::White
        } else {
            Color::Black
        };
        let (wdl1, white) = (&mut self.engine1, &mut self.white);
        match g.result {
            GameResult::Draw => {
                wdl1.draws += 1;
                white.draws += 1;
            }
            r => {
                if r == GameResult::win_for(engine1_color) {
                    wdl1.wins += 1;
                } else {
                    wdl1.losses += 1;
                }
                if r == GameResult::WhiteWins {
                    white.wins += 1;
                } else {
                    white.losses += 1;
                }
            }
        }
        if let Some((color, fault)) = g.fault {
            let who = usize::from(color != engine1_color);
            self.faults[who][fault as usize] += 1;
        }
        if let Some(a) = g.adjudication {
            self.adjudications[a as usize] += 1;
        }
    }

    /// The final report: the counts a reader of a match needs.
    pub(super) fn report(&self, names: [&str; 2]) -> String {
        let games = self.engine1.games();
        let pct = |n: u32| {
            if games == 0 {
                0.0
            } else {
                100.0 * f64::from(n) / f64::from(games)
            }
        };
        let wdl = |w: &Wdl| {
            format!(
                "{} wins, {} draws, {} losses, score {:.1}%",
                w.wins,
                w.draws,
                w.losses,
                100.0 * w.score()
            )
        };
        let fault = |i: usize, what: &str| {
            let [a, b] = [self.faults[0][i], self.faults[1][i]];
            format!("{what}: {} (engine1 {a}, engine2 {b})", a + b)
        };
        let [resign, draw, plies] = self.adjudications;
        let mut s = format!("Games: {games}\n");
        s.push_str(&format!(
            "engine1 ({}) vs engine2 ({}): {}\n",
            names[0],
            names[1],
            wdl(&self.engine1)
        ));
        s.push_str(&format!("White (moves first): {}\n", wdl(&self.white)));
        s.push_str(&format!("Draw rate: {:.1}%\n", pct(self.engine1.draws)));
        s.push_str(&fault(Fault::Illegal as usize, "Illegal moves"));
        s.push('\n');
        s.push_str(&fault(Fault::Crash as usize, "Crashes"));
        s.push('\n');
        s.push_str(&fault(Fault::Time as usize, "Time losses"));
        s.push('\n');
        s.push_str(&format!(
            "Adjudications: {} (resign {resign}, draw {draw}, max plies {plies})",
            resign + draw + plies
        ));
        if self.not_played > 0 {
            s.push_str(&format!("\nGames not played: {}", self.not_played));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::config::TimeControl;
    use crate::arena::game::{outcome_result, Adjudication};
    use crate::arena::openings::openings;
    use springboard_rules::notation::uci::parse_uci;
    use springboard_rules::{Position, Variant};

    #[test]
    fn pgn_of_a_short_game() {
        let args = MatchArgs {
            engine1: "a".into(),
            engine2: "b".into(),
            options1: vec![],
            options2: vec![],
            variant: Variant::Chess,
            tc: TimeControl {
                base_ms: 10_000,
                inc_ms: 100,
            },
            nodes: None,
            movetime1: None,
            movetime2: None,
            depth: None,
            move_timeout: 60,
            games: 2,
            no_swap: false,
            concurrency: 1,
            openings: None,
            random_plies: Some(0),
            seed: 1,
            pgn: None,
            resign_score: 1000,
            resign_moves: 4,
            draw_score: 10,
            draw_moves: 8,
            draw_movenumber: 40,
            max_plies: 600,
            time_margin: 0,
            max_seconds: None,
            sprt: None,
        };
        let start = Position::startpos(Variant::Chess);
        let mut game = Game::new(start.clone());
        for t in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = parse_uci(game.position(), t).unwrap();
            game.play(m).unwrap();
        }
        let (result, reason) = outcome_result(game.outcome().unwrap());
        let g = Played {
            index: 0,
            white_is_engine1: true,
            white: "One".into(),
            black: "Two".into(),
            start,
            moves: game.moves().to_vec(),
            result,
            reason,
            fault: None,
            adjudication: None,
        };
        let text = pgn(&args, &g);
        assert!(text.contains("[Result \"0-1\"]\n"), "{text}");
        assert!(!text.contains("[FEN"));
        assert!(
            text.ends_with("\n1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n\n"),
            "{text}"
        );
        assert!(
            text.contains("[White \"One\"]\n[Black \"Two\"]\n"),
            "{text}"
        );
        assert!(text.contains("[TimeControl \"10+0.1\"]\n"), "{text}");
        assert!(text.contains("[WhiteType \"program\"]\n"), "{text}");
        let (back, tags) = pgn::read(&text, pgn::VariantHint::Any).unwrap();
        assert_eq!(back.moves(), game.moves());
        assert_eq!(tags.get("Round"), Some("1"));
        assert_eq!(openings(&args).unwrap().list.len(), 1);
    }

    /// A finished game for the tally, engine1 White in even games.
    fn played(
        index: usize,
        result: GameResult,
        fault: Option<(Color, Fault)>,
        adjudication: Option<Adjudication>,
    ) -> Played {
        Played {
            index,
            white_is_engine1: index.is_multiple_of(2),
            white: "w".into(),
            black: "b".into(),
            start: Position::startpos(Variant::Chess),
            moves: vec![],
            result,
            reason: String::new(),
            fault,
            adjudication,
        }
    }

    #[test]
    fn tally_counts_what_a_reader_needs() {
        let mut t = Tally::default();
        // engine1 White wins; engine1 Black loses to White; a draw; engine1
        // Black wins when White (engine2) crashes; engine1 White loses on
        // time; engine1 Black plays an illegal move; two adjudications.
        t.add(&played(0, GameResult::WhiteWins, None, None));
        t.add(&played(
            1,
            GameResult::WhiteWins,
            None,
            Some(Adjudication::Resign),
        ));
        t.add(&played(
            2,
            GameResult::Draw,
            None,
            Some(Adjudication::MaxPlies),
        ));
        t.add(&played(
            3,
            GameResult::BlackWins,
            Some((Color::White, Fault::Crash)),
            None,
        ));
        t.add(&played(
            4,
            GameResult::BlackWins,
            Some((Color::White, Fault::Time)),
            None,
        ));
        t.add(&played(
            5,
            GameResult::WhiteWins,
            Some((Color::Black, Fault::Illegal)),
            None,
        ));
        assert_eq!(
            t.engine1,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 3
            }
        );
        assert_eq!(
            t.white,
            Wdl {
                wins: 3,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!(
            t.report(["One", "Two"]),
            "Games: 6\n\
             engine1 (One) vs engine2 (Two): 2 wins, 1 draws, 3 losses, score 41.7%\n\
             White (moves first): 3 wins, 1 draws, 2 losses, score 58.3%\n\
             Draw rate: 16.7%\n\
             Illegal moves: 1 (engine1 1, engine2 0)\n\
             Crashes: 1 (engine1 0, engine2 1)\n\
             Time losses: 1 (engine1 1, engine2 0)\n\
             Adjudications: 2 (resign 1, draw 0, max plies 1)"
        );
        assert_eq!(
            (0..6)
                .map(|i| half_points(&played(
                    i,
                    [
                        GameResult::WhiteWins,
                        GameResult::WhiteWins,
                        GameResult::Draw,
                        GameResult::BlackWins
                    ][i % 4],
                    None,
                    None
                )))
                .collect::<Vec<_>>(),
            [2, 0, 1, 2, 2, 0]
        );
        let sprt: Sprt = "0,5,0.05,0.05".parse().unwrap();
        assert_eq!(
            sprt_block(
                sprt,
                Wdl {
                    wins: 0,
                    draws: 20,
                    losses: 0
                },
                Some(Penta([0, 0, 10, 0, 0]))
            ),
            "SPRT result: Failed (H0 accepted)\n\
             LLR: -4.14 (-2.94,2.94) <0.00,5.00>\n\
             Total: 20 W: 0 L: 0 D: 20\n\
             Ptnml(0-2): 0, 0, 10, 0, 0\n\
             Elo: +0.0 (95%: +0.0 to +0.0)"
        );
        t.not_played = 2;
        assert!(t.report(["One", "Two"]).ends_with("\nGames not played: 2"));
    }
}
