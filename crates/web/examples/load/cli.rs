//! The command line: the servers, their pids, the database and the mode.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(about = "Load and soak runs against Springboard play servers")]
pub(crate) struct Cli {
    /// A server's base URL (repeat it: clients are spread over the servers,
    /// the creator and the joiner of a game on different ones).
    #[arg(long, required = true)]
    pub(crate) url: Vec<String>,
    /// A server process to sample (RSS and open files); repeatable.
    #[arg(long)]
    pub(crate) pid: Vec<u32>,
    /// The servers' database (a SQLite file or postgres://...), read after
    /// the run to check every game's moves.
    #[arg(long)]
    pub(crate) database: Option<String>,
    #[command(subcommand)]
    pub(crate) mode: Mode,
}

#[derive(Subcommand)]
pub(crate) enum Mode {
    /// Many games at once, as fast as the server answers.
    Load {
        /// Games played at once (two WebSocket clients each).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Plies after which the side to move resigns.
        #[arg(long, default_value_t = 60)]
        plies: usize,
        /// Watchers (each its own identity), spread over the games.
        #[arg(long, default_value_t = 20)]
        watchers: usize,
        /// A player's thinking time before each move, in ms.
        #[arg(long, default_value_t = 0)]
        think_ms: u64,
    },
    /// Mixed, paced load for a long time with memory sampled.
    Soak {
        #[arg(long, default_value_t = 3600)]
        seconds: u64,
        /// Seconds between samples.
        #[arg(long, default_value_t = 10)]
        sample: u64,
        /// The CSV of the samples.
        #[arg(long, default_value = "soak.csv")]
        csv: String,
        /// Games between people at once.
        #[arg(long, default_value_t = 8)]
        games: usize,
        /// Engine games (level 1) at once.
        #[arg(long, default_value_t = 2)]
        engine_games: usize,
    },
}
