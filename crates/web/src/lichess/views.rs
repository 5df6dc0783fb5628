//! Challenges, games and game states in lichess's JSON shapes, as its
//! clients parse them: `variant.key` is our game's name, moves are in our
//! long notation, times in milliseconds (a game without a clock shows
//! lichess's "unlimited": 2147483647 ms).

use super::LichessState;
use crate::error::ApiError;
use crate::games::{Live, Status};
use crate::lobby::view::Listed;
use crate::outage::api_error;
use crate::store::GameRecord;
use serde_json::{json, Value};
use springboard_rules::{Color, Variant};

/// The time lichess shows for a side without a clock.
pub const UNLIMITED_MS: i64 = 2_147_483_647;

/// `{"key", "name", "short"}` of the game `name`.
pub fn variant(name: &str) -> Value {
    let title = name.parse::<Variant>().map_or(name, |v| v.title());
    json!({"key": name, "name": title, "short": title})
}

/// lichess's speed of a clock (initial and increment, seconds): its
/// estimated length, initial + 40 × increment.
pub fn speed(clock: Option<(i64, i64)>) -> &'static str {
    let Some((initial, increment)) = clock else {
        return "unlimited";
    };
    let total = initial.saturating_add(increment.saturating_mul(40));
    match total {
        t if t < 30 => "ultraBullet",
        t if t < 180 => "bullet",
        t if t < 480 => "blitz",
        t if t < 1500 => "rapid",
        _ => "classical",
    }
}

/// A player as lichess's challenges and games show one.
pub fn player(id: &str, name: &str, rating: i64, provisional: bool) -> Value {
    json!({"id": id, "name": name, "title": null, "rating": rating, "provisional": provisional})
}

/// A challenge of the lobby, in lichess's shape, as `viewer` (an account
/// id) sees it: `direction` is `out` for its author, `in` for another.
pub fn challenge(c: &Listed, viewer: &str, origin: &str) -> Value {
    let v = &c.view;
    let clock = v.clock.as_ref().map(|k| (k.initial, k.increment));
    let challenger = match (&c.author_user, &v.author) {
        (Some(id), Some(a)) => player(id, &a.name, a.rating, a.provisional),
        (Some(id), None) => json!({"id": id, "name": id}),
        _ => Value::Null,
    };
    let dest = match (&c.target_user, &v.to) {
        (Some(id), Some(name)) => json!({"id": id, "name": name, "title": null}),
        _ => Value::Null,
    };
    let time_control = match (&v.correspondence, clock) {
        (Some(c), _) => json!({"type": "correspondence", "daysPerTurn": c.days_per_move}),
        (None, Some((limit, increment))) => json!({
            "type": "clock",
            "limit": limit,
            "increment": increment,
            "show": format!("{}+{}", limit / 60, increment),
        }),
        (None, None) => json!({"type": "unlimited"}),
    };
    let speed = match &v.correspondence {
        Some(_) => "correspondence",
        None => speed(clock),
    };
    let direction = if c.author_user.as_deref() == Some(viewer) {
        "out"
    } else {
        "in"
    };
    json!({
        "id": v.id,
        "url": format!("{origin}/"),
        "status": "created",
        "challenger": challenger,
        "destUser": dest,
        "variant": variant(&v.variant),
        "rated": v.rated,
        "speed": speed,
        "timeControl": time_control,
        "color": v.color,
        "perf": {"name": variant(&v.variant)["name"]},
        "direction": direction,
        "initialFen": v.fen.as_deref().unwrap_or("startpos"),
    })
}

/// lichess's status of a game: its name and number.
pub fn status(rec: &GameRecord) -> (&'static str, u32) {
    match rec.status {
        Status::Waiting => ("created", 10),
        Status::Playing => ("started", 20),
        Status::Ended => match rec.reason.as_deref().unwrap_or_default() {
            "aborted" => ("aborted", 25),
            "checkmate" => ("mate", 30),
            "resignation" => ("resign", 31),
            "stalemate" => ("stalemate", 32),
            "time" | "time vs insufficient material" => ("outoftime", 35),
            "draw agreed" | "threefold repetition" | "fifty moves" | "insufficient material" => {
                ("draw", 34)
            }
            "weak square" => ("variantEnd", 60),
            _ => ("unknownFinish", 38),
        },
    }
}

/// The winner's colour, if the game has one.
pub fn winner(rec: &GameRecord) -> Option<&'static str> {
    match rec.result.as_deref() {
        Some("1-0") => Some("white"),
        Some("0-1") => Some("black"),
        _ => None,
    }
}

fn clock_s(rec: &GameRecord) -> Option<(i64, i64)> {
    rec.clock_initial_ms
        .map(|i| (i / 1000, rec.clock_increment_ms.unwrap_or(0) / 1000))
}

/// lichess's speed of game `rec`: `correspondence` for a correspondence
/// time control (kept in the clock's columns), else its clock's.
pub fn game_speed(rec: &GameRecord) -> &'static str {
    if rec.correspondence.is_some() {
        "correspondence"
    } else {
        speed(clock_s(rec))
    }
}

/// lichess's `daysPerTurn` of a correspondence game (a bank's days per
/// move), else null.
fn days_per_turn(rec: &GameRecord) -> Value {
    match rec.correspondence {
        Some(c) => json!(crate::games::corr::CorrView::of(c).days_per_move),
        None => Value::Null,
    }
}

/// Who sits on each side of a game: an account (with its rating in the
/// game), the engine, or nobody's account.
pub(crate) async fn players(app: &LichessState, rec: &GameRecord) -> Result<[Value; 2], ApiError> {
    let mut out = [Value::Null, Value::Null];
    for (i, c) in Color::ALL.into_iter().enumerate() {
        if rec.engine_color == Some(c) {
            out[i] = json!({"aiLevel": rec.engine_level.unwrap_or(1)});
            continue;
        }
        let seat = match c {
            Color::White => rec.white_seat.as_deref(),
            Color::Black => rec.black_seat.as_deref(),
        };
        let account = match (seat, &app.games.rated) {
            (Some(s), Some(r)) => r.account_of_seat(s).await?,
            _ => None,
        };
        out[i] = match account {
            Some(a) => {
                let (rating, provisional) = rating(app, &a.id, &rec.variant).await?;
                player(&a.id, &a.name, rating, provisional)
            }
            None if seat.is_some() => json!({"id": null, "name": "Anonymous", "title": null}),
            None => Value::Null,
        };
    }
    Ok(out)
}

/// Account `user`'s rating (rounded) in game `variant`, and whether it is
/// provisional.
pub(crate) async fn rating(
    app: &LichessState,
    user: &str,
    variant: &str,
) -> Result<(i64, bool), ApiError> {
    let Some(store) = &app.ratings.ratings else {
        let r = crate::ratings::Rating::START;
        return Ok((r.rounded(), r.provisional()));
    };
    let r = store
        .perfs(user)
        .await
        .map_err(api_error)?
        .into_iter()
        .find(|p| p.variant == variant)
        .map(|p| p.rating)
        .unwrap_or(crate::ratings::Rating::START);
    Ok((r.rounded(), r.provisional()))
}

/// A game's state (`gameState`): the moves so far, the clocks at `now`,
/// the status and the offers.
pub fn state(live: &Live, now: i64) -> Value {
    let rec = &live.rec;
    let moves: Vec<&str> = rec.moves.iter().map(|m| m.uci.as_str()).collect();
    let time = |c: Color| live.remaining(c, now).unwrap_or(UNLIMITED_MS).max(0);
    let inc = rec.clock_increment_ms.unwrap_or(0);
    let mut v = json!({
        "type": "gameState",
        "moves": moves.join(" "),
        "wtime": time(Color::White),
        "btime": time(Color::Black),
        "winc": inc,
        "binc": inc,
        "status": status(rec).0,
        "wdraw": rec.draw_offer == Some(Color::White),
        "bdraw": rec.draw_offer == Some(Color::Black),
        "wtakeback": rec.takeback_offer == Some(Color::White),
        "btakeback": rec.takeback_offer == Some(Color::Black),
    });
    if let Some(w) = winner(rec) {
        v["winner"] = json!(w);
    }
    v
}

/// The first message of a game's stream (`gameFull`).
pub(crate) async fn full(app: &LichessState, live: &Live, now: i64) -> Result<Value, ApiError> {
    let rec = &live.rec;
    let [white, black] = players(app, rec).await?;
    let variant_start = rec
        .variant
        .parse::<Variant>()
        .map(|v| springboard_rules::Position::startpos(v).to_fen())
        .ok();
    let initial_fen = if variant_start.as_deref() == Some(rec.start_fen.as_str()) {
        "startpos".to_string()
    } else {
        rec.start_fen.clone()
    };
    let clock = match rec.correspondence {
        Some(_) => Value::Null,
        None => json!(rec.clock_initial_ms.map(|i| json!({
            "initial": i,
            "increment": rec.clock_increment_ms.unwrap_or(0),
        }))),
    };
    Ok(json!({
        "type": "gameFull",
        "id": rec.id,
        "variant": variant(&rec.variant),
        "speed": game_speed(rec),
        "perf": {"name": variant(&rec.variant)["name"]},
        "rated": rec.rated,
        "createdAt": rec.created_at,
        "white": white,
        "black": black,
        "initialFen": initial_fen,
        "clock": clock,
        "daysPerTurn": days_per_turn(rec),
        "state": state(live, now),
    }))
}

/// A game as the event stream's `gameStart` and `gameFinish` tell it to
/// the player of `color`.
pub(crate) async fn event_game(
    app: &LichessState,
    live: &Live,
    color: Color,
    now: i64,
) -> Result<Value, ApiError> {
    let rec = &live.rec;
    let [white, black] = players(app, rec).await?;
    let opponent = match color {
        Color::White => black,
        Color::Black => white,
    };
    let opponent = json!({
        "id": opponent.get("id").cloned().unwrap_or(Value::Null),
        "username": opponent.get("name").cloned().unwrap_or(json!("engine")),
        "rating": opponent.get("rating").cloned().unwrap_or(Value::Null),
    });
    let (name, id) = status(rec);
    let turn = live.game.position().turn();
    let mut v = json!({
        "gameId": rec.id,
        "fullId": rec.id,
        "id": rec.id,
        "color": crate::store::kinds::color_name(color),
        "fen": live.game.position().to_fen(),
        "hasMoved": live.plies() > usize::from(color == Color::Black),
        "isMyTurn": rec.status == Status::Playing && turn == color,
        "lastMove": rec.moves.last().map_or("", |m| m.uci.as_str()),
        "opponent": opponent,
        "perf": variant(&rec.variant)["name"],
        "rated": rec.rated,
        "secondsLeft": live.remaining(color, now).map(|ms| ms.max(0) / 1000),
        "source": "friend",
        "status": {"id": id, "name": name},
        "speed": game_speed(rec),
        "variant": variant(&rec.variant),
        "compat": {"bot": false, "board": true},
    });
    if let Some(w) = winner(rec) {
        v["winner"] = json!(w);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_and_statuses_are_lichess_s() {
        assert_eq!(speed(None), "unlimited");
        assert_eq!(speed(Some((60, 0))), "bullet");
        assert_eq!(speed(Some((180, 2))), "blitz");
        assert_eq!(speed(Some((600, 5))), "rapid");
        assert_eq!(speed(Some((1800, 0))), "classical");
        let mut rec = GameRecord::new(
            "abcdefgh".into(),
            "hopchess",
            String::new(),
            crate::games::Mode::Friend,
            0,
        );
        assert_eq!(status(&rec), ("started", 20));
        rec.status = Status::Ended;
        rec.reason = Some("resignation".into());
        rec.result = Some("0-1".into());
        assert_eq!(status(&rec), ("resign", 31));
        assert_eq!(winner(&rec), Some("black"));
        assert_eq!(variant("hopchess")["name"], "Hop Chess");
    }
}
