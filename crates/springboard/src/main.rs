//! `springboard`: the command-line front end. Every subcommand is a thin
//! layer over the rules core (and, for play, the engine). With no
//! subcommand it starts the web app (crate springboard-web).

#![forbid(unsafe_code)]

mod arena;
mod args;
mod bench;
mod datagen;
mod lab;
mod levels;
mod perft;
mod play;
mod replay;
mod suites;
mod tune;
mod web_engine;

use anyhow::Result;
use clap::{Parser, Subcommand};
use springboard::{logs, searcher, uci, xboard};

#[derive(Parser)]
#[command(
    name = "springboard",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("SPRINGBOARD_COMMIT"), ")"),
    about = "Play, check and analyse Hop Chess, Trampoline Chess, Jumping King, Hoplit Chess and chess"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The log level (error, warn, info, debug, trace, off) or filter
    /// directives (info,sqlx=debug); else SPRINGBOARD_LOG, else RUST_LOG.
    /// Default: info for the server, warn for the rest. Logs go to
    /// standard error.
    #[arg(long, global = true, value_name = "LEVEL")]
    log_level: Option<String>,
    /// How log lines are written.
    #[arg(long, global = true, value_enum, default_value_t = logs::LogFormat::Text)]
    log_format: logs::LogFormat,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generation test).
    Perft(perft::PerftArgs),
    /// Speak the UCI protocol on standard input and output
    /// (`--player material1`: the 1-ply material-only baseline).
    Uci(uci::UciArgs),
    /// Speak the XBoard/WinBoard protocol (CECP) on standard input and output.
    Xboard,
    /// Measure speed: perft nodes per second on fixed positions.
    Bench(bench::BenchArgs),
    /// Replay a game text and print its moves in long notation and the end.
    Replay(replay::ReplayArgs),
    /// Play a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Play games between two UCI engines (Elo, SPRT, PGN).
    Match(Box<arena::MatchArgs>),
    /// Make an opening suite: random openings a fixed search scores near equal.
    Openings(suites::OpeningsArgs),
    /// Self-play data: positions with search scores and game results.
    Datagen(datagen::DatagenArgs),
    /// Tune a game's evaluation weights to datagen records (logistic fit).
    Tune(tune::TuneArgs),
    /// Measured answers to the rule pages' questions (lab/README.md).
    Lab(lab::LabArgs),
    /// Fit the levels' ratings to a ladder's match results (levels/*.txt).
    Levels(levels::LevelsArgs),
    /// Start the web app (the default with no subcommand) and print its URL.
    Serve(ServeArgs),
    /// Manage the web app's accounts.
    User(UserArgs),
}

#[derive(clap::Args)]
struct UserArgs {
    #[command(subcommand)]
    command: UserCommand,
}

#[derive(Subcommand)]
enum UserCommand {
    /// Add an account, its password read from standard input (one line).
    Add(UserAddArgs),
    /// Print a new personal API token of an account (for the
    /// lichess-compatible API: `Authorization: Bearer <token>`).
    Token(UserTokenArgs),
}

#[derive(clap::Args)]
struct UserTokenArgs {
    /// The account's username.
    name: String,
    /// What the token is for (the account page lists it so).
    #[arg(long, default_value = "springboard user token")]
    description: String,
    /// The directory of the database, as for `serve`.
    #[arg(long, value_name = "DIR")]
    data: Option<std::path::PathBuf>,
    /// The database, as for `serve`.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
}

/// Prints a new personal API token (`springboard user token NAME`).
fn user_token(args: &UserTokenArgs) -> Result<()> {
    let description = args.description.trim();
    if description.is_empty() || description.chars().count() > 100 {
        anyhow::bail!("a token's description has 1 to 100 characters");
    }
    let database = database_of(&args.data, &args.database)?;
    let token = springboard_web::add_token(&database, &args.name, description)?;
    println!("{token}");
    Ok(())
}

#[derive(clap::Args)]
struct UserAddArgs {
    /// The username: 3-20 letters, digits, - and _.
    name: String,
    /// Read the password from the first line of standard input (required:
    /// a password is never given on the command line).
    #[arg(long)]
    password_stdin: bool,
    /// The directory of the database, as for `serve`.
    #[arg(long, value_name = "DIR")]
    data: Option<std::path::PathBuf>,
    /// The database, as for `serve`.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
}

/// Adds an account (`springboard user add NAME --password-stdin`).
fn user_add(args: &UserAddArgs) -> Result<()> {
    if !args.password_stdin {
        anyhow::bail!("give the password on standard input with --password-stdin");
    }
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    let password = line.strip_suffix('\n').unwrap_or(&line);
    let password = password.strip_suffix('\r').unwrap_or(password);
    let database = database_of(&args.data, &args.database)?;
    let user = springboard_web::add_user(&database, &args.name, password)?;
    println!("Added the account {}", user.name);
    Ok(())
}

#[derive(clap::Args)]
struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The directory of the games database (created on first run; the
    /// default is the per-user data directory).
    #[arg(long, value_name = "DIR")]
    data: Option<std::path::PathBuf>,
    /// The database: a SQLite file path, sqlite://path or postgres://... (the default is
    /// springboard.sqlite3 in the data directory).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// A reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are
    /// believed: an address or a network (10.0.0.0/8); repeatable or
    /// comma-separated. Without it both headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR", value_delimiter = ',')]
    trusted_proxy: Vec<springboard_web::proxy::Net>,
    /// Send notification emails through this SMTP server (smtp://host:port,
    /// plain SMTP). Without it email is off.
    #[arg(long, value_name = "URL")]
    smtp: Option<String>,
    /// The From address of the emails.
    #[arg(
        long,
        value_name = "ADDR",
        default_value = "Springboard <springboard@localhost>"
    )]
    smtp_from: String,
    /// The site's public URL, for the emails' links and as the passkeys'
    /// relying party (its host is their id; a passkey needs https or
    /// localhost). The default is the address the server listens on, as
    /// http://localhost:PORT for the passkeys.
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// Read the Lab page's results from this directory's <question>.json
    /// files (as `springboard lab --out DIR` writes them), at each
    /// request; the default is the repository's lab/ as built in.
    #[arg(long, value_name = "DIR")]
    lab: Option<std::path::PathBuf>,
}

impl ServeArgs {
    fn default_args() -> ServeArgs {
        ServeArgs {
            host: "127.0.0.1".to_string(),
            port: 8080,
            data: None,
            database: None,
            trusted_proxy: Vec::new(),
            smtp: None,
            smtp_from: "Springboard <springboard@localhost>".to_string(),
            public_url: None,
            lab: None,
        }
    }
}

/// The per-user data directory (e.g. ~/.local/share/springboard).
fn default_data_dir() -> Result<std::path::PathBuf> {
    directories::ProjectDirs::from("", "", "springboard")
        .map(|d| d.data_dir().to_path_buf())
        .ok_or_else(|| anyhow::anyhow!("no home directory: give --data DIR"))
}

/// The database of `--database`, else `springboard.sqlite3` in `--data`
/// (else in the per-user data directory).
fn database_of(
    data: &Option<std::path::PathBuf>,
    database: &Option<String>,
) -> Result<springboard_web::Database> {
    Ok(match database {
        Some(url) => springboard_web::Database::parse(url)?,
        None => {
            let dir = match data {
                Some(d) => d.clone(),
                None => default_data_dir()?,
            };
            springboard_web::Database::Sqlite(dir.join("springboard.sqlite3"))
        }
    })
}

/// Starts the web app with the engine behind it.
fn serve(args: &ServeArgs) -> Result<()> {
    let database = database_of(&args.data, &args.database)?;
    let loopback = matches!(args.host.as_str(), "localhost")
        || args
            .host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        eprintln!(
            "warning: listening on {}: the server is reachable by other machines on your network, \
             and anyone who can reach it can create and watch games",
            args.host
        );
    }
    match &database {
        springboard_web::Database::Sqlite(path) => tracing::info!(
            database = %path.display(),
            data_dir = %path.parent().unwrap_or(std::path::Path::new(".")).display(),
            "the games are kept in SQLite"
        ),
        springboard_web::Database::Postgres(_) => {
            tracing::info!("the games are kept in PostgreSQL")
        }
    }
    if let Some(dir) = &args.lab {
        if !dir.is_dir() {
            anyhow::bail!("--lab {}: not a directory", dir.display());
        }
    }
    let engine = std::sync::Arc::new(web_engine::WebEngine::new(32));
    let trusted = springboard_web::proxy::Trusted::new(args.trusted_proxy.clone());
    let mail = args
        .smtp
        .as_ref()
        .map(|smtp| springboard_web::notify::MailConfig {
            smtp: smtp.clone(),
            from: args.smtp_from.clone(),
            // Empty: the server's own address once it listens.
            public_url: args.public_url.clone().unwrap_or_default(),
        });
    springboard_web::run_with(
        &args.host,
        args.port,
        &database,
        Some(engine),
        springboard_web::ServeOptions {
            trusted_proxies: trusted,
            mail,
            lab: args.lab.clone(),
            public_url: args.public_url.clone(),
        },
    )?;
    Ok(())
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let default_level = match cli.command {
        None | Some(Command::Serve(_)) => "info",
        _ => "warn",
    };
    logs::init(cli.log_level.as_deref(), cli.log_format, default_level)?;
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Uci(args)) => {
            let stdin = std::io::stdin();
            uci::run(stdin.lock(), searcher::out(std::io::stdout()), args.player)
        }
        Some(Command::Xboard) => {
            let stdin = std::io::stdin();
            xboard::run(stdin.lock(), searcher::out(std::io::stdout()))
        }
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Match(args)) => arena::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Openings(args)) => suites::run_openings(&args),
        Some(Command::Datagen(args)) => datagen::run_datagen(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Levels(args)) => levels::run(&args),
        Some(Command::Lab(args)) => lab::run(&args),
        Some(Command::Serve(args)) => serve(&args),
        Some(Command::User(UserArgs {
            command: UserCommand::Add(args),
        })) => user_add(&args),
        Some(Command::User(UserArgs {
            command: UserCommand::Token(args),
        })) => user_token(&args),
        None => serve(&ServeArgs::default_args()),
    }
}
