//! Load and soak runs against running play servers (issue 15's load run,
//! issue 16's soak run). Not a test: see docs/play-server.md, "Load and
//! soak runs", and `scripts/load.sh`, which starts a server and runs this.
//!
//! `load`: every game has two browser identities (each its own cookie jar
//! and its own loopback source address, so the per-address creation limit
//! sees distinct clients): one creates a friend game, the other joins by
//! the link, both connect by WebSocket and play legal moves chosen with
//! the rules core until the game ends or reaches `--plies` (then the side
//! to move resigns); a few watchers follow games too. All games start
//! moving at once. It reports moves per second, the move latency (from
//! sending the move to the `ack` event) and the servers' memory (RSS from
//! `/proc/PID/status`) and open files (`/proc/PID/fd`), then reads every
//! game's stored moves from the database and compares them with the
//! moves each player saw acknowledged, in order: any lost or duplicated
//! move fails the run.
//!
//! `soak`: mixed web load for `--seconds` (page and API GETs, game
//! creations, PGN imports, analyses, games between people over
//! WebSocket, engine games at level 1), paced to stay light, with the
//! servers' RSS and open files sampled every `--sample` seconds into a CSV;
//! prints a summary (start, end and max RSS and fds, the RSS slope) and
//! checks the people's games against the database like `load`.

mod check;
mod cli;
mod client;
mod load;
mod soak;

use anyhow::{bail, Result};
use clap::Parser;
use cli::{Cli, Mode};
use client::Target;
use load::load;
use std::sync::Arc;

fn main() -> Result<()> {
    let cli = Cli::parse();
    let targets: Vec<Arc<Target>> = cli
        .url
        .iter()
        .map(|u| Target::parse(u).map(Arc::new))
        .collect::<Result<_>>()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let ok = runtime.block_on(async {
        match &cli.mode {
            Mode::Load {
                games,
                plies,
                watchers,
                think_ms,
            } => {
                if *games == 0 {
                    bail!("--games must be at least 1");
                }
                load(&cli, &targets, *games, *plies, *watchers, *think_ms).await
            }
            Mode::Soak {
                seconds,
                sample,
                csv,
                games,
                engine_games,
            } => {
                soak::run(
                    &cli,
                    &targets,
                    *seconds,
                    *sample,
                    csv,
                    *games,
                    *engine_games,
                )
                .await
            }
        }
    })?;
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
