//! The page's files, embedded in the binary. A request names a file of this
//! fixed table or gets a 404: nothing is ever read from the disk, so no path
//! can reach outside the folder.
//!
//! The WebAssembly build of the rules core and the engine (`crates/wasm`,
//! built by `scripts/wasm.sh`) joins the table when it was built: its files
//! under names that carry their content's hash (cached for good), and
//! `wasm.json` naming them. Without it `wasm.json` is a 404 and the page
//! asks the server for everything.

use springboard_rules::Variant;

/// A file of the page: its name under `/static/`, media type and content.
pub struct Asset {
    pub name: &'static str,
    pub mime: &'static str,
    pub body: &'static [u8],
    /// Whether the name changes with the content (a browser keeps it for
    /// good); the others are checked again at every use.
    pub immutable: bool,
}

// WASM_ASSETS and WASM_MANIFEST, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/wasm_assets.rs"));

macro_rules! asset {
    ($name:literal, $mime:expr) => {
        Asset {
            name: $name,
            mime: $mime,
            body: include_bytes!(concat!("../static/", $name)),
            immutable: false,
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
    asset!("analysisworker.js", JS),
    asset!("boardinput.js", JS),
    asset!("boardsize.js", JS),
    asset!("chooser.js", JS),
    asset!("clocks.js", JS),
    asset!("commands.js", JS),
    asset!("games.js", JS),
    asset!("home.js", JS),
    asset!("lobby.js", JS),
    asset!("live.js", JS),
    asset!("localrules.js", JS),
    asset!("localgame.js", JS),
    asset!("engineworker.js", JS),
    asset!("offline.js", JS),
    asset!("notation.js", JS),
    asset!("notices.js", JS),
    asset!("notify.js", JS),
    asset!("email.js", JS),
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
    asset!("chat.js", JS),
    asset!("relation.js", JS),
    asset!("tokens.js", JS),
    asset!("passkey.js", JS),
    asset!("turn.js", JS),
    asset!("conditional.js", JS),
    asset!("lab.js", JS),
    asset!("labchart.js", JS),
    asset!("vendor/uPlot.esm.js", JS),
    asset!("vendor/uPlot.min.css", "text/css; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
];

/// The WebAssembly build's files and its manifest, when it was built.
static WASM: std::sync::LazyLock<Vec<Asset>> = std::sync::LazyLock::new(|| {
    let files = WASM_ASSETS.iter().map(|&(name, body)| Asset {
        name,
        mime: if name.ends_with(".wasm") {
            "application/wasm"
        } else {
            JS
        },
        body,
        immutable: true,
    });
    let manifest = WASM_MANIFEST.map(|json| Asset {
        name: "wasm.json",
        mime: "application/json",
        body: json.as_bytes(),
        immutable: false,
    });
    files.chain(manifest).collect()
});

/// The embedded file called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Asset> {
    all().find(|a| a.name == name)
}

/// Every embedded file: the page's, then the WebAssembly build's.
pub fn all() -> impl Iterator<Item = &'static Asset> + Clone {
    ASSETS.iter().chain(WASM.iter())
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
