//! Bad requests: malformed bodies and queries, unknown games and pages,
//! each answered with a JSON reason.

use crate::support::http::{call, new_game, play, send};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use springboard_web::app;
use tower::ServiceExt;

#[tokio::test]
async fn malformed_requests_get_4xx_with_json_reason() {
    let app = app(None).await;
    let game = new_game(&app, json!({})).await;
    let id = game["id"].as_str().unwrap().to_string();
    for (method, uri, body) in [
        ("POST", format!("/api/games/{id}/move"), "{\"move\": "),
        ("POST", format!("/api/games/{id}/move"), "[1, 2]"),
        (
            "POST",
            format!("/api/games/{id}/move"),
            "{\"mv\": \"e2e4\"}",
        ),
        ("POST", "/api/games".to_string(), "not json"),
        ("POST", "/api/games".to_string(), "{\"variant\": 7}"),
    ] {
        let (status, bytes) = send(&app, method, &uri, Some(body)).await;
        assert!(status.is_client_error(), "{uri} {body}: {status}");
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(
            v["error"].as_str().unwrap().starts_with("bad request body"),
            "{v}"
        );
    }
    // A body without its content type.
    let req = Request::builder()
        .method("POST")
        .uri(format!("/api/games/{id}/move"))
        .header("host", crate::support::http::HOST)
        .header("origin", crate::support::http::ORIGIN)
        .body(Body::from("{\"move\": \"e2e4\"}"))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let v: Value =
        serde_json::from_slice(&resp.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("Expected request with `Content-Type: application/json`"));
    // Bad variants, FENs and queries.
    for (body, reason) in [
        (
            json!({"variant": "atomic"}),
            "unknown variant 'atomic' (known: chess, hopchess, trampoline, jumpingking, hoplit)",
        ),
        (
            json!({"fen": "8/8/8 w - - 0 1"}),
            "Chess cannot load this position: the board field needs 8 ranks separated by '/', found 3",
        ),
        (
            json!({"fen": "x", "pgn": "y"}),
            "give a FEN or a PGN, not both",
        ),
        (
            json!({"pgn": "1. e4 e5 2. Ke3"}),
            "Move 2. 'Ke3': illegal move 'Ke3' in this position",
        ),
    ] {
        let (status, err) = call(&app, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(err["error"], reason);
    }
    for v in springboard_rules::Variant::ALL
        .into_iter()
        .filter(|v| !v.is_implemented())
    {
        let (status, err) = call(
            &app,
            "POST",
            "/api/games",
            Some(json!({"variant": v.name()})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(
            err["error"],
            format!("the variant '{}' is not implemented yet", v.name())
        );
    }
    let (status, _) = call(&app, "GET", &format!("/api/games/{id}?ply=x"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, err) = call(&app, "POST", &format!("/api/games/{id}/undo?plies=0"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "plies must be at least 1");
}

#[tokio::test]
async fn unknown_games_and_pages_are_404() {
    let app = app(None).await;
    for (method, uri) in [
        ("GET", "/api/games/99"),
        ("GET", "/api/games/abc"),
        ("GET", "/api/games/99/moves"),
        ("POST", "/api/games/99/undo"),
        ("GET", "/api/games/99/pgn"),
        ("GET", "/api/nothing"),
        ("GET", "/api/rules/atomic"),
    ] {
        let (status, v) = call(&app, method, uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(v["error"].is_string());
    }
    let (status, v) = play(&app, "99", "e2e4").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["error"], "no game with id '99'");
}
