//! A notification as the page, the API and the emails show it.

use super::store::NotificationRecord;
use super::Kind;
use serde_json::{json, Value};

/// A notification as the page and the API show it: its stored details
/// (a JSON object) with its id, kind, read flag, time and link.
pub fn view(rec: &NotificationRecord) -> Value {
    let mut v: Value = serde_json::from_str(&rec.body).unwrap_or_else(|_| json!({}));
    if !v.is_object() {
        v = json!({});
    }
    let url = match Kind::parse(&rec.kind) {
        Some(Kind::Challenge) => "/".to_string(),
        _ => format!("/g/{}", rec.subject),
    };
    let subject = match Kind::parse(&rec.kind) {
        Some(Kind::Challenge) => "challenge",
        _ => "game",
    };
    v["id"] = json!(rec.id);
    v["kind"] = json!(rec.kind);
    v[subject] = json!(rec.subject);
    v["read"] = json!(rec.read);
    v["created_at"] = json!(rec.created_at);
    v["url"] = json!(url);
    v
}
