//! The page's service worker, `/sw.js` (its code is `static/sw.js`): it
//! keeps the page and every embedded file in the browser's cache, so that
//! after one visit a game against the engine in the browser and the
//! analysis board work with the network cut. The script served is that
//! code with two values filled in: the list of the files to keep (`/`
//! and every file of the asset table, the WebAssembly build's hashed names
//! among them) and a version, a hash of all of them. A new build changes
//! the version, so the browser installs the new worker, which keeps the
//! new files under a new cache and drops the old ones.

use crate::assets::{self, Asset};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use std::sync::LazyLock;

/// The worker's code, with its two placeholders.
const TEMPLATE: &str = include_str!("../static/sw.js");
const VERSION_MARK: &str = "\"__SPRINGBOARD_VERSION__\"";
const FILES_MARK: &str = "\"__SPRINGBOARD_FILES__\"";

/// FNV-1a, 64 bits, over each file's name and content (as build.rs names
/// the WebAssembly files): changes with any file.
fn version<'a>(files: impl Iterator<Item = &'a Asset>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for a in files {
        for &b in a.name.as_bytes().iter().chain([0u8].iter()).chain(a.body) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The script served: the template with the version and the files.
fn script<'a>(files: impl Iterator<Item = &'a Asset> + Clone) -> String {
    let mut urls = vec!["/".to_string()];
    urls.extend(files.clone().map(|a| format!("/static/{}", a.name)));
    let list = serde_json::to_string(&urls).expect("a list of strings is JSON");
    let version = serde_json::to_string(&version(files)).expect("a string is JSON");
    TEMPLATE
        .replacen(VERSION_MARK, &version, 1)
        .replacen(FILES_MARK, &list, 1)
}

static SCRIPT: LazyLock<String> = LazyLock::new(|| script(assets::all()));

/// `GET /sw.js`: checked again at every use (`no-cache`), so a new
/// build's worker is found on the next visit.
pub async fn service_worker() -> Response {
    let mut resp = SCRIPT.as_str().into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("service-worker-allowed", HeaderValue::from_static("/"));
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_has_both_marks_once() {
        assert_eq!(TEMPLATE.matches(VERSION_MARK).count(), 1);
        assert_eq!(TEMPLATE.matches(FILES_MARK).count(), 1);
    }

    #[test]
    fn the_version_follows_the_files() {
        let a = Asset {
            name: "a.js",
            mime: "text/javascript",
            body: b"one",
            immutable: false,
        };
        let b = Asset { body: b"two", ..a };
        assert_ne!(version([&a].into_iter()), version([&b].into_iter()));
        let s = script([&a].into_iter());
        assert!(s.contains(r#"["/","/static/a.js"]"#), "{s}");
        assert!(s.contains(&format!("\"{}\"", version([&a].into_iter()))));
        assert!(!s.contains("__SPRINGBOARD_"));
    }
}
