//! The page's files, embedded in the binary. A request names a file of this
//! fixed table or gets a 404: nothing is ever read from the disk, so no path
//! can reach outside the folder.

use springboard_rules::Variant;

/// A file of the page: its name under `/static/`, media type and content.
pub struct Asset {
    pub name: &'static str,
    pub mime: &'static str,
    pub body: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $mime:expr) => {
        Asset {
            name: $name,
            mime: $mime,
            body: include_bytes!(concat!("../static/", $name)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

pub static ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("app.js", JS),
    asset!("account.js", JS),
    asset!("analysis.js", JS),
    asset!("boardinput.js", JS),
    asset!("boardsize.js", JS),
    asset!("chooser.js", JS),
    asset!("clocks.js", JS),
    asset!("commands.js", JS),
    asset!("games.js", JS),
    asset!("home.js", JS),
    asset!("live.js", JS),
    asset!("notation.js", JS),
    asset!("notices.js", JS),
    asset!("panel.js", JS),
    asset!("picker.js", JS),
    asset!("render.js", JS),
    asset!("result.js", JS),
    asset!("router.js", JS),
    asset!("rules.js", JS),
    asset!("state.js", JS),
    asset!("textio.js", JS),
    asset!("typed.js", JS),
    asset!("api.js", JS),
    asset!("board.js", JS),
    asset!("pieces.js", JS),
    asset!("input.js", JS),
    asset!("markdown.js", JS),
    asset!("chart.js", JS),
    asset!("leaders.js", JS),
    asset!("player.js", JS),
    asset!("vendor/uPlot.esm.js", JS),
    asset!("vendor/uPlot.min.css", "text/css; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
];

/// The embedded file called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// The players' rules of a game (Markdown), with the rulings.
pub fn rules_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => include_str!("../static/rules/chess.md"),
        Variant::HopChess => include_str!("../static/rules/hopchess.md"),
        Variant::Trampoline => include_str!("../static/rules/trampoline.md"),
        Variant::JumpingKing => include_str!("../static/rules/jumpingking.md"),
        Variant::Hoplit => include_str!("../static/rules/hoplit.md"),
    }
}
