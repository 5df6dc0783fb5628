//! A challenge as the page sees it ([`ChallengeView`]) and the lobby
//! socket's messages ([`LobbyMessage`]).

use super::store::ChallengeRecord;
use serde::Serialize;

/// A clock in seconds, as the games take it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    pub initial: i64,
    pub increment: i64,
}

/// A challenge's author: an account's name and rating in the game, or
/// nobody's (an anonymous author).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuthorView {
    pub name: String,
    pub rating: i64,
    pub provisional: bool,
}

/// A challenge as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengeView {
    pub id: String,
    /// The game's name (`GET /api/info`).
    pub variant: String,
    pub clock: Option<ClockView>,
    /// A correspondence challenge's time control (its `clock` is in
    /// seconds too); absent for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<Box<crate::games::corr::CorrView>>,
    /// The author's colour: `white`, `black` or `random`.
    pub color: String,
    pub rated: bool,
    /// The rating range the acceptor must be in (rated challenges).
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// None: an anonymous author.
    pub author: Option<AuthorView>,
    /// A personal challenge: the challenged account's name.
    pub to: Option<String>,
    /// Whether the viewer posted it (the page offers Cancel, not Join).
    pub mine: bool,
    pub created_at: i64,
    /// A game from a position: its position text; absent for the usual
    /// start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
}

/// A challenge in the hub's list: its view (without `mine`) and who may
/// see it and who it is.
#[derive(Clone, Debug)]
pub struct Listed {
    pub view: ChallengeView,
    pub author_seat: String,
    pub author_user: Option<String>,
    pub target_user: Option<String>,
}

impl Listed {
    pub fn new(rec: &ChallengeRecord, author: Option<AuthorView>) -> Listed {
        Listed {
            view: ChallengeView {
                id: rec.id.clone(),
                variant: rec.variant.clone(),
                clock: match (rec.clock_initial_ms, rec.clock_increment_ms) {
                    (Some(i), Some(n)) => Some(ClockView {
                        initial: i / 1000,
                        increment: n / 1000,
                    }),
                    _ => None,
                },
                correspondence: rec
                    .correspondence
                    .map(|c| Box::new(crate::games::corr::CorrView::of(c))),
                color: rec.color.clone(),
                rated: rec.rated,
                min_rating: rec.min_rating,
                max_rating: rec.max_rating,
                author,
                to: rec.target_name.clone(),
                mine: false,
                created_at: rec.created_at,
                fen: rec.start_fen.clone(),
            },
            author_seat: rec.author_seat.clone(),
            author_user: rec.author_user.clone(),
            target_user: rec.target_user.clone(),
        }
    }
}

/// Who looks at the lobby: the seats the request holds and its account.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    pub held: Vec<String>,
    pub user: Option<String>,
}

impl Viewer {
    /// Whether the viewer is the author of `c`.
    pub fn wrote(&self, c: &Listed) -> bool {
        self.held.contains(&c.author_seat)
            || (self.user.is_some() && c.author_user.as_ref() == self.user.as_ref())
    }

    /// Whether the viewer sees `c`: an open challenge, or a personal one
    /// the viewer wrote or is challenged by.
    pub fn sees(&self, c: &Listed) -> bool {
        c.target_user.is_none()
            || self.wrote(c)
            || (self.user.is_some() && c.target_user.as_ref() == self.user.as_ref())
    }

    /// The view of `c` for this viewer (None: not shown to it).
    pub fn view(&self, c: &Listed) -> Option<ChallengeView> {
        self.sees(c).then(|| ChallengeView {
            mine: self.wrote(c),
            ..c.view.clone()
        })
    }
}

/// Who is online: signed-in players with a socket open (the lobby's, a
/// game's, the notifications').
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OnlineView {
    pub count: usize,
    /// Their names, sorted (at most [`MAX_ONLINE_NAMES`]).
    pub names: Vec<String>,
}

/// The most names the online list carries.
pub const MAX_ONLINE_NAMES: usize = 100;

/// A message of the lobby socket, server to page (`{"t": ...}`).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum LobbyMessage {
    /// The whole list, at connect.
    List {
        challenges: Vec<ChallengeView>,
        online: OnlineView,
    },
    /// A new challenge.
    Add { challenge: ChallengeView },
    /// A challenge gone (accepted, cancelled, declined, withdrawn).
    Remove { id: String },
    /// A challenge of the viewer's was accepted, or the viewer accepted
    /// it: the game to go to.
    Start { challenge: String, game: String },
    /// A personal challenge of the viewer's was declined.
    Declined { challenge: String, by: String },
    /// Who is online changed.
    Online { online: OnlineView },
    /// The answer to `{"t":"ping"}`.
    Pong,
}

impl LobbyMessage {
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"t":"error"}"#.to_string())
    }
}
