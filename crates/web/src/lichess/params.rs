//! A request's parameters as lichess's clients send them: a JSON object
//! (berserk's challenges) or a form (`application/x-www-form-urlencoded`,
//! berserk's seek and most other clients), both read into one map of
//! names to values. Unknown names are ignored, as lichess does; a value
//! of the wrong type is a 400.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use serde_json::Value;
use std::collections::HashMap;

/// The parameters of one request.
#[derive(Debug, Default)]
pub struct Params(HashMap<String, Value>);

impl Params {
    /// Reads `body` as its `Content-Type` says: JSON, a form, or (no
    /// type) a form or nothing.
    pub fn read(headers: &HeaderMap, body: &Bytes) -> Result<Params, ApiError> {
        let kind = headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Params::default());
        }
        if kind.starts_with("application/json") {
            let value: Value = serde_json::from_slice(body)
                .map_err(|e| ApiError::BadRequest(format!("the body is not JSON: {e}")))?;
            let Value::Object(map) = value else {
                return Err(ApiError::BadRequest("the body is not a JSON object".into()));
            };
            // A null is as if the parameter were not sent (berserk sends
            // every parameter, unset ones as null).
            return Ok(Params(
                map.into_iter().filter(|(_, v)| !v.is_null()).collect(),
            ));
        }
        if kind.is_empty() || kind.starts_with("application/x-www-form-urlencoded") {
            let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(body)
                .map_err(|e| ApiError::BadRequest(format!("the body is not a form: {e}")))?;
            return Ok(Params(
                pairs
                    .into_iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(k, v)| (k, Value::String(v)))
                    .collect(),
            ));
        }
        Err(ApiError::UnsupportedMediaType(
            "send the parameters as JSON or as a form (application/x-www-form-urlencoded)".into(),
        ))
    }

    fn wrong(name: &str, what: &str) -> ApiError {
        ApiError::BadRequest(format!("'{name}' must be {what}"))
    }

    /// A text parameter (a number is taken as its text).
    pub fn text(&self, name: &str) -> Result<Option<String>, ApiError> {
        match self.0.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(_) => Err(Self::wrong(name, "a text")),
        }
    }

    /// A boolean: `true`/`false`, as JSON or text.
    pub fn flag(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.0.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s == "true" => Ok(Some(true)),
            Some(Value::String(s)) if s == "false" => Ok(Some(false)),
            Some(_) => Err(Self::wrong(name, "true or false")),
        }
    }

    /// A whole number from 0 to `max`, as JSON or text.
    pub fn number(&self, name: &str, max: u64) -> Result<Option<u64>, ApiError> {
        let bad = || Self::wrong(name, &format!("a whole number from 0 to {max}"));
        let n = match self.0.get(name) {
            None => return Ok(None),
            Some(Value::Number(n)) => n.as_u64().ok_or_else(bad)?,
            Some(Value::String(s)) => s.trim().parse::<u64>().map_err(|_| bad())?,
            Some(_) => return Err(bad()),
        };
        if n > max {
            return Err(bad());
        }
        Ok(Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn typed(kind: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
        h
    }

    #[test]
    fn json_and_forms_read_alike() {
        let j = Params::read(
            &typed("application/json"),
            &Bytes::from_static(
                br#"{"rated": true, "clock.limit": 300, "days": null, "color": "white"}"#,
            ),
        )
        .unwrap();
        let f = Params::read(
            &typed("application/x-www-form-urlencoded"),
            &Bytes::from_static(b"rated=true&clock.limit=300&days=&color=white"),
        )
        .unwrap();
        for p in [j, f] {
            assert_eq!(p.flag("rated").unwrap(), Some(true));
            assert_eq!(p.number("clock.limit", 10_800).unwrap(), Some(300));
            assert_eq!(p.text("days").unwrap(), None);
            assert_eq!(p.text("color").unwrap().as_deref(), Some("white"));
            assert!(p.number("clock.limit", 100).is_err());
            assert!(p.flag("color").is_err());
        }
        assert!(Params::read(&typed("application/json"), &Bytes::from_static(b"[1]")).is_err());
        assert!(Params::read(&typed("text/plain"), &Bytes::from_static(b"x")).is_err());
        assert_eq!(
            Params::read(&HeaderMap::new(), &Bytes::new())
                .unwrap()
                .flag("rated")
                .unwrap(),
            None
        );
    }
}
