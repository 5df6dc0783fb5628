//! The client behind a reverse proxy: its address and scheme.
//!
//! `X-Forwarded-For` and `X-Forwarded-Proto` are believed only when the
//! TCP peer is a configured trusted proxy (`serve --trusted-proxy`);
//! from anyone else they are ignored, so a client cannot pick the
//! address its per-client limits count. The client's address is then
//! the right-most entry of `X-Forwarded-For` that is not itself a
//! trusted proxy. The seat cookie gets `Secure` when the request came
//! over https (as the trusted proxy says).

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, Request};
use axum::middleware::Next;
use axum::response::Response;

use crate::seat::COOKIE_NAME;

/// An address or a network (`10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Net {
    addr: IpAddr,
    prefix: u8,
}

/// A `--trusted-proxy` value that is not an address or a network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad trusted proxy '{0}': expected an IP address or a network such as 10.0.0.0/8")]
pub struct BadNet(pub String);

impl std::str::FromStr for Net {
    type Err = BadNet;

    fn from_str(text: &str) -> Result<Net, BadNet> {
        let bad = || BadNet(text.to_string());
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text.trim(), None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| bad())?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(bad)?,
        };
        Ok(Net { addr, prefix })
    }
}

impl Net {
    /// Whether `ip` is in the network (an IPv4-mapped IPv6 address counts
    /// as its IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// The trusted proxies; empty (the default) trusts no one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trusted(Vec<Net>);

impl Trusted {
    pub fn new(nets: Vec<Net>) -> Trusted {
        Trusted(nets)
    }

    /// Reads comma-separated addresses and networks (several values are
    /// joined).
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<Trusted, BadNet> {
        let mut nets = Vec::new();
        for value in values {
            for part in value.as_ref().split(',').filter(|p| !p.trim().is_empty()) {
                nets.push(part.parse()?);
            }
        }
        Ok(Trusted(nets))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client of a request from the TCP peer `peer` with `headers`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> Client {
        if !self.trusts(peer) {
            return Client {
                ip: peer,
                https: false,
            };
        }
        // Every X-Forwarded-For line, in order, as one list; the
        // right-most untrusted entry is the client. An unreadable entry
        // stops the walk: what is left of it was written by the client.
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .collect();
        let mut ip = peer;
        for hop in hops.iter().rev() {
            match parse_hop(hop) {
                Some(hop) => {
                    ip = hop;
                    if !self.trusts(hop) {
                        break;
                    }
                }
                None => break,
            }
        }
        // The scheme the trusted proxy saw (its last value, if it
        // appended to a client's).
        let https = headers
            .get_all("x-forwarded-proto")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .next_back()
            .is_some_and(|p| p.eq_ignore_ascii_case("https"));
        Client { ip, https }
    }
}

/// An `X-Forwarded-For` entry: an address, maybe with a port
/// (`1.2.3.4:5`, `[::1]:5`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|s| s.ip()))
}

/// The client of a request, as the trusted proxies tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// The address the per-client limits count.
    pub ip: IpAddr,
    /// Whether the client's request came over https.
    pub https: bool,
}

/// The host the client asked for, as a trusted proxy tells it
/// (`X-Forwarded-Host`, the proxy's own last value); absent from anyone
/// else, so that the `Host` header counts (the CSRF check of
/// `csrf.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForwardedHost(pub String);

fn forwarded_host(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all("x-forwarded-host")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .next_back()
        .filter(|h| !h.is_empty())
        .map(str::to_string)
}

/// Middleware: puts the request's [`Client`] in its extensions, and adds
/// `Secure` to the seat cookie of an https request.
pub async fn resolve(
    trusted: std::sync::Arc<Trusted>,
    mut req: Request<axum::body::Body>,
    next: Next,
) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    let client = trusted.client(peer, req.headers());
    if trusted.trusts(peer) {
        if let Some(host) = forwarded_host(req.headers()) {
            req.extensions_mut().insert(ForwardedHost(host));
        }
    }
    req.extensions_mut().insert(client);
    let mut resp = next.run(req).await;
    if client.https {
        secure_cookies(resp.headers_mut());
    }
    resp
}

/// Adds `; Secure` to the seat cookies of `headers` that lack it.
fn secure_cookies(headers: &mut HeaderMap) {
    let cookies: Vec<HeaderValue> = headers.get_all(SET_COOKIE).iter().cloned().collect();
    if cookies.is_empty() {
        return;
    }
    headers.remove(SET_COOKIE);
    for c in cookies {
        let text = c.to_str().unwrap_or("");
        let ours = text.starts_with(&format!("{COOKIE_NAME}="));
        let secure = text
            .split(';')
            .any(|a| a.trim().eq_ignore_ascii_case("secure"));
        let value = if ours && !secure {
            HeaderValue::from_str(&format!("{text}; Secure")).unwrap_or(c)
        } else {
            c
        };
        headers.append(SET_COOKIE, value);
    }
}

/// This server's origin as the client reached it, `scheme://host[:port]`
/// lower-cased without the scheme's default port: `https` when the request
/// came over https (as a trusted proxy says), the host a trusted proxy
/// names in `X-Forwarded-Host`, else the `Host` header. None when the
/// request names no host, or one that is not a host (a space, a `/`).
/// An export's Site and the CSRF check (`csrf.rs`) both ask it.
pub fn origin(headers: &HeaderMap, ext: &axum::http::Extensions) -> Option<String> {
    let https = ext.get::<Client>().is_some_and(|c| c.https);
    let host = match ext.get::<ForwardedHost>() {
        Some(h) => h.0.clone(),
        None => headers
            .get(axum::http::header::HOST)?
            .to_str()
            .ok()?
            .to_string(),
    };
    let host = host.trim().to_ascii_lowercase();
    if host.is_empty() || !host.bytes().all(|b| b.is_ascii_graphic() && b != b'/') {
        return None;
    }
    let (scheme, default) = if https {
        ("https", ":443")
    } else {
        ("http", ":80")
    };
    let host = host.strip_suffix(default).unwrap_or(&host);
    Some(format!("{scheme}://{host}"))
}

/// The client address of a request: the [`Client`] the middleware found,
/// else the TCP peer.
pub fn client_ip(ext: &axum::http::Extensions) -> IpAddr {
    ext.get::<Client>().map(|c| c.ip).unwrap_or_else(|| {
        ext.get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
            .unwrap_or(IpAddr::from([0, 0, 0, 0]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_is_the_scheme_and_host_the_client_used() {
        let mut ext = axum::http::Extensions::new();
        let host = |h: &str| {
            let mut m = HeaderMap::new();
            m.insert(axum::http::header::HOST, HeaderValue::from_str(h).unwrap());
            m
        };
        assert_eq!(origin(&HeaderMap::new(), &ext), None);
        assert_eq!(
            origin(&host("Example.org:80"), &ext).as_deref(),
            Some("http://example.org")
        );
        assert_eq!(origin(&host("a/b"), &ext), None);
        ext.insert(Client {
            ip: [127, 0, 0, 1].into(),
            https: true,
        });
        ext.insert(ForwardedHost("play.example.org:443".into()));
        assert_eq!(
            origin(&host("127.0.0.1:8080"), &ext).as_deref(),
            Some("https://play.example.org")
        );
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    fn trusted(list: &[&str]) -> Trusted {
        Trusted::parse(list).unwrap()
    }

    #[test]
    fn networks_are_read_and_matched() {
        let n: Net = "10.1.0.0/16".parse().unwrap();
        assert!(n.contains(ip("10.1.2.3")));
        assert!(!n.contains(ip("10.2.0.1")));
        assert!(n.contains(ip("::ffff:10.1.9.9")));
        assert!(!n.contains(ip("::1")));
        let one: Net = "127.0.0.3".parse().unwrap();
        assert!(one.contains(ip("127.0.0.3")));
        assert!(!one.contains(ip("127.0.0.4")));
        let all: Net = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("8.8.8.8")));
        let v6: Net = "fd00::/8".parse().unwrap();
        assert!(v6.contains(ip("fd12::1")));
        assert!(!v6.contains(ip("fe80::1")));
        for bad in ["", "10.0.0.0/33", "::/129", "nope", "10.0.0.0/x"] {
            assert!(bad.parse::<Net>().is_err(), "{bad}");
        }
        assert_eq!(
            Trusted::parse(&["127.0.0.3, 10.0.0.0/8", "::1"])
                .unwrap()
                .0
                .len(),
            3
        );
        assert!(Trusted::parse(&["127.0.0.3,bad"]).is_err());
    }

    #[test]
    fn forged_headers_from_an_untrusted_peer_are_ignored() {
        let t = trusted(&["127.0.0.3"]);
        let h = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-proto", "https"),
        ]);
        let c = t.client(ip("127.0.0.1"), &h);
        assert_eq!(
            c,
            Client {
                ip: ip("127.0.0.1"),
                https: false
            }
        );
        // Nobody trusted: nobody's headers count.
        let c = Trusted::default().client(ip("127.0.0.3"), &h);
        assert_eq!(
            c,
            Client {
                ip: ip("127.0.0.3"),
                https: false
            }
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client_and_scheme() {
        let t = trusted(&["127.0.0.3"]);
        let h = headers(&[
            ("x-forwarded-for", "203.0.113.7"),
            ("x-forwarded-proto", "https"),
        ]);
        let c = t.client(ip("127.0.0.3"), &h);
        assert_eq!(
            c,
            Client {
                ip: ip("203.0.113.7"),
                https: true
            }
        );
        let h = headers(&[
            ("x-forwarded-for", "203.0.113.7"),
            ("x-forwarded-proto", "http"),
        ]);
        assert!(!t.client(ip("127.0.0.3"), &h).https);
        // No header: the proxy itself.
        let c = t.client(ip("127.0.0.3"), &HeaderMap::new());
        assert_eq!(
            c,
            Client {
                ip: ip("127.0.0.3"),
                https: false
            }
        );
    }

    #[test]
    fn chains_give_the_right_most_untrusted_entry() {
        let t = trusted(&["10.0.0.0/8", "127.0.0.3"]);
        // The client forged the first entry; the proxies appended theirs.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 198.51.100.9, 10.0.0.5")]);
        assert_eq!(t.client(ip("127.0.0.3"), &h).ip, ip("198.51.100.9"));
        // Several header lines are one list.
        let h = headers(&[
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "198.51.100.9, 10.0.0.5"),
        ]);
        assert_eq!(t.client(ip("127.0.0.3"), &h).ip, ip("198.51.100.9"));
        // All trusted: the left-most.
        let h = headers(&[("x-forwarded-for", "10.0.0.7, 10.0.0.5")]);
        assert_eq!(t.client(ip("127.0.0.3"), &h).ip, ip("10.0.0.7"));
        // Garbage stops the walk at the last good untrusted-or-trusted hop.
        let h = headers(&[("x-forwarded-for", "198.51.100.9, garbage, 10.0.0.5")]);
        assert_eq!(t.client(ip("127.0.0.3"), &h).ip, ip("10.0.0.5"));
        // Ports are allowed.
        let h = headers(&[("x-forwarded-for", "198.51.100.9:4711")]);
        assert_eq!(t.client(ip("127.0.0.3"), &h).ip, ip("198.51.100.9"));
        let h = headers(&[("x-forwarded-for", "[2001:db8::1]:4711")]);
        assert_eq!(t.client(ip("127.0.0.3"), &h).ip, ip("2001:db8::1"));
        // The proxy's own (last) proto counts.
        let h = headers(&[("x-forwarded-proto", "https, http")]);
        assert!(!t.client(ip("127.0.0.3"), &h).https);
    }

    #[test]
    fn https_seat_cookies_get_secure() {
        let mut h = headers(&[
            (
                "set-cookie",
                "sb_player=abc; HttpOnly; SameSite=Lax; Path=/",
            ),
            ("set-cookie", "other=1"),
        ]);
        secure_cookies(&mut h);
        let all: Vec<_> = h
            .get_all(SET_COOKIE)
            .iter()
            .map(|v| v.to_str().unwrap())
            .collect();
        assert_eq!(
            all,
            [
                "sb_player=abc; HttpOnly; SameSite=Lax; Path=/; Secure",
                "other=1"
            ]
        );
        secure_cookies(&mut h);
        let first = h.get(SET_COOKIE).unwrap().to_str().unwrap();
        assert_eq!(first.matches("Secure").count(), 1);
    }
}
