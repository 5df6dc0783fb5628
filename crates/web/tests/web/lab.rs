//! The lab's API through the router (no network): the list and each
//! question read from a `--lab` directory (the fixtures of
//! `tests/fixtures/lab/`, in the shape `springboard lab` writes), a bad
//! file and an unknown question answered with clear JSON errors, an empty
//! or missing directory an empty list, and the results embedded at build
//! time served whole.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::Options;
use std::path::{Path, PathBuf};
use support::apps::memory_app;
use support::http::call;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lab")
}

async fn lab_app(dir: Option<PathBuf>) -> Router {
    let mut options = Options::new(None);
    options.lab = dir;
    memory_app(options).await
}

fn fixture(name: &str) -> Value {
    let text = std::fs::read_to_string(fixtures().join(name)).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `v` with every number as a float (the server writes `0` as `0.0`).
fn floats(v: Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().unwrap()),
        Value::Array(a) => Value::Array(a.into_iter().map(floats).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, floats(v))).collect()),
        other => other,
    }
}

#[tokio::test]
async fn the_list_and_each_question_come_from_the_lab_directory() {
    let app = lab_app(Some(fixtures())).await;
    let (status, list) = call(&app, "GET", "/api/lab", None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["errors"], json!([]));
    // `every` first, then by name.
    let names: Vec<&str> = list["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["question"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["every", "hopchess", "hoplit"]);
    let hoplit = fixture("hoplit.json");
    assert_eq!(
        list["questions"][2],
        json!({
            "question": "hoplit",
            "title": hoplit["title"],
            "games": ["hoplit", "chess"],
            "answer": hoplit["answer"],
            "date": "2026-11-29",
            "games_played": 400,
        })
    );
    // A question is its whole file, as written.
    for name in names {
        let (status, q) = call(&app, "GET", &format!("/api/lab/{name}"), None).await;
        assert_eq!(status, StatusCode::OK, "{q}");
        assert_eq!(
            floats(q),
            floats(fixture(&format!("{name}.json"))),
            "{name}"
        );
    }
}

#[tokio::test]
async fn an_unknown_question_is_a_404() {
    let app = lab_app(Some(fixtures())).await;
    for uri in [
        "/api/lab/trampoline",
        "/api/lab/..%2Fsecret",
        "/api/lab/HOPLIT",
        "/api/lab/hoplit.json",
    ] {
        let (status, body) = call(&app, "GET", uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("there is no lab question"),
            "{uri}: {body}"
        );
    }
}

#[tokio::test]
async fn a_bad_file_is_a_clear_error_and_the_others_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        fixtures().join("hoplit.json"),
        dir.path().join("hoplit.json"),
    )
    .unwrap();
    // Not JSON; a missing field; an unknown chart kind; a file of another
    // question's name; a chart id of another file.
    std::fs::write(dir.path().join("broken.json"), "{\"schema\": 1,").unwrap();
    let mut missing = fixture("hopchess.json");
    missing.as_object_mut().unwrap().remove("answer");
    std::fs::write(dir.path().join("hopchess.json"), missing.to_string()).unwrap();
    let mut kind = fixture("every.json");
    kind["charts"][0]["kind"] = json!("pie");
    std::fs::write(dir.path().join("every.json"), kind.to_string()).unwrap();
    let mut renamed = fixture("hoplit.json");
    renamed["question"] = json!("hoplit");
    std::fs::write(dir.path().join("trampoline.json"), renamed.to_string()).unwrap();
    let mut twice = fixture("hoplit.json");
    twice["question"] = json!("values");
    std::fs::write(dir.path().join("values.json"), twice.to_string()).unwrap();
    // Not a result: left alone.
    std::fs::write(dir.path().join("README.md"), "# results").unwrap();

    let app = lab_app(Some(dir.path().to_path_buf())).await;
    let (status, list) = call(&app, "GET", "/api/lab", None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["questions"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["questions"][0]["question"], "hoplit");
    let errors: Vec<(String, String)> = list["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["file"].as_str().unwrap().to_string(),
                e["error"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // In the list's order: `every` first, then by name.
    let expected = [
        ("every.json", "unknown variant `pie`"),
        ("broken.json", "EOF while parsing"),
        ("hopchess.json", "missing field `answer`"),
        ("trampoline.json", "a question's file is <question>.json"),
        (
            "values.json",
            "the chart id 'hoplit-values' is hoplit.json's too",
        ),
    ];
    assert_eq!(errors.len(), expected.len(), "{errors:?}");
    for ((file, error), (want_file, want)) in errors.iter().zip(expected) {
        assert_eq!(file, want_file);
        assert!(
            error.starts_with(&format!("the lab file {file} is not valid: "))
                && error.contains(want),
            "{file}: {error}"
        );
    }
    // The question's own route: a 500 that names the file and the fault.
    for (name, want) in [
        ("broken", "EOF while parsing"),
        ("hopchess", "missing field `answer`"),
        ("trampoline", "a question's file is <question>.json"),
    ] {
        let (status, body) = call(&app, "GET", &format!("/api/lab/{name}"), None).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{name}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(
            error.starts_with(&format!("the lab file {name}.json is not valid: "))
                && error.contains(want),
            "{name}: {error}"
        );
    }
    let (status, _) = call(&app, "GET", "/api/lab/hoplit", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_file_too_large_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let mut big = fixture("hoplit.json");
    big["notes"] = json!(["x".repeat(1024 * 1024)]);
    std::fs::write(dir.path().join("hoplit.json"), big.to_string()).unwrap();
    let app = lab_app(Some(dir.path().to_path_buf())).await;
    let (status, body) = call(&app, "GET", "/api/lab/hoplit", None).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("at most 1048576"),
        "{body}"
    );
}

#[tokio::test]
async fn no_results_is_an_empty_list() {
    let empty = tempfile::tempdir().unwrap();
    let app = lab_app(Some(empty.path().to_path_buf())).await;
    let (status, list) = call(&app, "GET", "/api/lab", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list, json!({"questions": [], "errors": []}));
    let (status, _) = call(&app, "GET", "/api/lab/hoplit", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A directory gone since the server started: a clear error, no panic.
    let gone = empty.path().join("gone");
    let app = lab_app(Some(gone.clone())).await;
    let (status, body) = call(&app, "GET", "/api/lab", None).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with(&format!("cannot read the lab directory {}", gone.display())),
        "{body}"
    );
}

/// Without `--lab`, the repository's `lab/*.json` as built in: each
/// listed question is served whole and valid (none when the repository has
/// no `lab/` yet: then the list is empty).
#[tokio::test]
async fn the_built_in_results_are_served() {
    let app = lab_app(None).await;
    let (status, list) = call(&app, "GET", "/api/lab", None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["errors"], json!([]), "a lab/ file breaks the contract");
    let on_disk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lab");
    let files = std::fs::read_dir(&on_disk)
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .count()
        })
        .unwrap_or(0);
    assert_eq!(list["questions"].as_array().unwrap().len(), files, "{list}");
    for q in list["questions"].as_array().unwrap() {
        let name = q["question"].as_str().unwrap();
        let (status, body) = call(&app, "GET", &format!("/api/lab/{name}"), None).await;
        assert_eq!(status, StatusCode::OK, "{name}: {body}");
        assert_eq!(body["question"], name);
    }
}
