//! Analysis: the score for White and the line in SAN, mates, bad
//! requests, and a newer request or a move stopping the old one.

use super::analyse;
use crate::support::engines::{Cheater, FirstMove, Scripted, Waiter};
use crate::support::http::{new_game, play, send};
use axum::http::StatusCode;
use serde_json::{json, Value};
use springboard_web::{app, AnalysisLimit, Evaluation};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

#[tokio::test]
async fn analysis_gives_the_score_for_white_and_the_line_in_san() {
    let engine = Arc::new(FirstMove::default());
    let app = app(Some(engine.clone())).await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(
        a,
        json!({
            "ply": 0,
            "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "pov": "white",
            "score": {"cp": 30},
            "win": null,
            "depth": 7,
            "best": {"uci": "a2a3", "san": "a3", "kind": "normal", "from": "a2", "to": "a3",
                     "via": [], "role": null, "place": null},
            "pv_uci": ["a2a3", "a7a5", "a1a2"],
            "pv_san": ["a3", "a5", "Ra2"],
            "pv_text": "1. a3 a5 2. Ra2",
        })
    );
    // Black to move: the engine's +30 for Black is -30 for White, and the
    // line starts with Black's move number.
    play(&app, &id, "e2e4").await;
    let (status, a) = analyse(&app, &id, json!({"depth": 5})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["ply"], 1);
    assert_eq!(a["score"], json!({"cp": -30}));
    assert_eq!(a["depth"], 5);
    assert_eq!(a["pv_text"], "1... a5 2. a3 a4");
    // An earlier position of the game (stepping back through the moves).
    let (status, a) = analyse(&app, &id, json!({"ply": 0, "movetime": 250})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["ply"], 0);
    assert_eq!(a["pv_san"], json!(["a3", "a5", "Ra2"]));
    // The limits reached the engine: 1 s by default, a depth within the
    // 10 s cap, a movetime as asked.
    assert_eq!(
        *engine.limits.lock().unwrap(),
        vec![
            AnalysisLimit::Time(Duration::from_millis(1000)),
            AnalysisLimit::Depth(5, Duration::from_millis(10_000)),
            AnalysisLimit::Time(Duration::from_millis(250)),
        ]
    );
}

#[tokio::test]
async fn analysis_of_a_variant_numbers_the_line_and_checks_it() {
    let app = app(Some(Arc::new(FirstMove::default()))).await;
    let id = new_game(&app, json!({"variant": "hoplit"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&app, &id, json!({"movetime": 10})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["pv_uci"], json!(["a2a3", "a7a5", "a1a2"]));
    assert_eq!(a["pv_text"], "1. a3 a5 2. Ra2");
}

#[tokio::test]
async fn analysis_scores_mates_for_white_and_cuts_an_illegal_line() {
    let app = app(Some(Arc::new(Cheater))).await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The line e2e3 e2e5: its second move is not legal, so it stops there.
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": 2}));
    assert_eq!(a["pv_uci"], json!(["e2e3"]));
    assert_eq!(a["pv_text"], "1. e3");
    // Black to move: Black's mate in 2 is -2 for White; here the line's
    // first move is not legal, and the answer is refused.
    play(&app, &id, "d2d4").await;
    let (status, err) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "the engine's line starts with an illegal move 'e2e3'"
    );
    let (status, a) = analyse(&app, &id, json!({"ply": 0})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": 2}));
    // Black to move with a legal line: Black's mate in 2 is -2 for White.
    let mater = springboard_web::app(Some(Arc::new(FirstMove::scoring(Evaluation::Mate(2))))).await;
    let id = new_game(&mater, json!({"fen": "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&mater, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": -2}));
    assert_eq!(a["pv_text"], "1... Kd7 2. Kd1 Kc6");
}

#[tokio::test]
async fn analysis_says_how_a_mate_score_wins() {
    // Jumping King: Black wins by the weak square a1 (J3) in two.
    let weak = Scripted {
        line: vec!["e5a5", "f2e3", "a5a1"],
        score: Evaluation::Mate(2),
        depth: 6,
    };
    let app = springboard_web::app(Some(Arc::new(weak))).await;
    let fen = "8/8/3k4/4r3/8/8/5K2/8[] b - 0 30";
    let id = new_game(
        &app,
        json!({"variant": "jumpingking", "fen": fen, "mode": "local"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": -2}));
    assert_eq!(a["win"], "weak square");
    assert_eq!(a["best"]["from"], "e5");
    assert_eq!(a["best"]["to"], "a5");
    // A checkmate at the end of the line.
    let mate = Scripted {
        line: vec!["e7e5", "g2g4", "d8h4"],
        score: Evaluation::Mate(2),
        depth: 4,
    };
    let app = springboard_web::app(Some(Arc::new(mate))).await;
    let id = new_game(&app, json!({"mode": "local"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    play(&app, &id, "f2f3").await;
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": -2}));
    assert_eq!(a["win"], "checkmate");
    // A line that stops before the end says nothing of how.
    let short = Scripted {
        line: vec!["e5a5"],
        score: Evaluation::Mate(2),
        depth: 6,
    };
    let app = springboard_web::app(Some(Arc::new(short))).await;
    let id = new_game(
        &app,
        json!({"variant": "jumpingking", "fen": fen, "mode": "local"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(a["win"], Value::Null);
}

#[tokio::test]
async fn bad_analysis_requests_get_4xx_with_a_reason() {
    let app = app(Some(Arc::new(FirstMove::default()))).await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let cases = [
        (json!({"depth": 0}), "depth 0 is out of range 1-64"),
        (json!({"depth": 65}), "depth 65 is out of range 1-64"),
        (
            json!({"movetime": 0}),
            "movetime 0 is out of range 1-10000 ms",
        ),
        (
            json!({"movetime": 10001}),
            "movetime 10001 is out of range 1-10000 ms",
        ),
        (
            json!({"depth": 3, "movetime": 100}),
            "give a depth or a movetime, not both",
        ),
        (json!({"ply": 1}), "ply 1 is beyond the game's 0 moves"),
    ];
    for (body, reason) in cases {
        let (status, err) = analyse(&app, &id, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(err["error"], reason, "{body}");
    }
    for body in [
        json!({"plies": 1}),
        json!({"depth": -1}),
        json!({"ply": "x"}),
        json!([]),
    ] {
        let (status, err) = analyse(&app, &id, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            err["error"]
                .as_str()
                .unwrap()
                .starts_with("bad request body: "),
            "{err}"
        );
    }
    let uri = format!("/api/games/{id}/analysis");
    let (status, _) = send(&app, "POST", &uri, None).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, err) = analyse(&app, "999", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"], "no game with id '999'");
    // A game that is over has nothing to analyse now, but its earlier
    // positions do.
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        assert_eq!(play(&app, &id, m).await.0, StatusCode::OK);
    }
    let (status, err) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "the game is over (checkmate), there is nothing to analyse"
    );
    assert_eq!(
        analyse(&app, &id, json!({"ply": 3})).await.0,
        StatusCode::OK
    );
    // Without an engine there is no analysis.
    let plain = springboard_web::app(None).await;
    let id = new_game(&plain, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, err) = analyse(&plain, &id, json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"], "this server has no engine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_analysis_or_a_move_stops_the_old_one() {
    let (tx, rx) = mpsc::channel();
    let app = app(Some(Arc::new(Waiter {
        started: Mutex::new(tx),
    })))
    .await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let rx = Arc::new(Mutex::new(rx));
    let started = || {
        let rx = Arc::clone(&rx);
        tokio::task::spawn_blocking(move || rx.lock().unwrap().recv().unwrap())
    };
    let spawn = |body: Value| {
        let app = app.clone();
        let id = id.clone();
        tokio::spawn(async move { analyse(&app, &id, body).await })
    };
    let first = spawn(json!({}));
    started().await.unwrap();
    // A newer analysis (say, of the position stepped back to) stops it:
    // its answer never reaches the page as the newer one.
    let second = spawn(json!({"ply": 0}));
    let (status, err) = first.await.unwrap();
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "a newer analysis of this game replaced this one"
    );
    started().await.unwrap();
    // A move while it thinks stops it too; the server stays responsive.
    assert_eq!(play(&app, &id, "e2e4").await.0, StatusCode::OK);
    let (status, err) = second.await.unwrap();
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "the game changed while the engine was analysing"
    );
}
