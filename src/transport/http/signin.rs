// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Browser sign-in: a browser cannot send a bearer header when a person opens
//! a page, so `GET /any/page?token=<token>` with the right token sets a
//! cookie and redirects (303) to the same page without the token; from then
//! on the cookie lets the browser read pages (GET and HEAD), and post a
//! person's writes to the paths under an `actions` segment, which check
//! their own origin and CSRF token before they change anything; it never
//! lets a request call a tool.
//!
//! The cookie holds a value derived from the token, not the token: it cannot
//! be used as a bearer token, and changing the token signs every browser out.

use axum::http::{HeaderValue, Method, Request, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use super::token::Token;

/// The cookie's name.
pub(crate) const COOKIE: &str = "planning_auth";

/// How long a browser stays signed in: 30 days.
pub(crate) const MAX_AGE_SECONDS: u64 = 30 * 24 * 60 * 60;

/// The query parameter that carries the token.
pub(crate) const PARAMETER: &str = "token";

/// The cookie that a token grants, and its check.
#[derive(Clone)]
pub(crate) struct SignIn {
    /// What `Set-Cookie` sends.
    set_cookie: HeaderValue,
    /// The cookie's value, compared in constant time.
    value: Token,
}

impl SignIn {
    /// The sign-in for `secret`, the configured token.
    pub(crate) fn new(secret: &str) -> Self {
        let value = hex::encode(
            Sha256::new()
                .chain_update(b"planning-mcp-server browser cookie v1\0")
                .chain_update(secret.as_bytes())
                .finalize(),
        );
        let set_cookie = format!(
            "{COOKIE}={value}; Path=/; Max-Age={MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict"
        );
        Self {
            // Hex digits and fixed text: always a valid header value.
            set_cookie: HeaderValue::from_str(&set_cookie)
                .unwrap_or_else(|_| HeaderValue::from_static("")),
            value: Token::new(&value),
        }
    }

    /// Whether `request` may be let through on its cookie: a GET or HEAD,
    /// or a POST to a write ([`WRITES`]), with the right cookie.
    pub(crate) fn admits<B>(&self, request: &Request<B>) -> bool {
        let method = request.method();
        let allowed = matches!(*method, Method::GET | Method::HEAD)
            || (*method == Method::POST && is_write(request.uri().path()));
        allowed
            && request
                .headers()
                .get_all(header::COOKIE)
                .iter()
                .filter_map(|value| value.to_str().ok())
                .flat_map(|value| value.split(';'))
                .filter_map(|pair| pair.trim().split_once('='))
                .any(|(name, value)| name == COOKIE && self.value.matches(value))
    }

    /// The answer to a request that brought the right token in its query:
    /// the cookie, and a redirect to the same page without the token.
    pub(crate) fn redirect(&self, uri: &Uri) -> Response {
        let location = without_token(uri);
        let location =
            HeaderValue::from_str(&location).unwrap_or_else(|_| HeaderValue::from_static("./"));
        (
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, location),
                (header::SET_COOKIE, self.set_cookie.clone()),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
                (
                    header::REFERRER_POLICY,
                    HeaderValue::from_static("no-referrer"),
                ),
            ],
        )
            .into_response()
    }
}

/// The path segment under which a route takes a person's writes
/// (`/boards/{name}/actions/{action}`): such a route refuses a request from
/// another origin or without its CSRF token itself, so the cookie may
/// admit a POST to it.
pub(crate) const WRITES: &str = "actions";

/// Whether `path` is a write's: its next-to-last segment is [`WRITES`].
fn is_write(path: &str) -> bool {
    let mut segments = path.rsplit('/');
    segments.next().is_some_and(|last| !last.is_empty()) && segments.next() == Some(WRITES)
}

/// The token a GET or HEAD request brings in its query (percent-decoded), if any.
pub(crate) fn query_token<B>(request: &Request<B>) -> Option<String> {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return None;
    }
    request
        .uri()
        .query()?
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == PARAMETER)
        .map(|(_, value)| percent_decode(value))
}

/// Where to send the browser: the same page (relative to it, so that a path
/// can never name another site, and a reverse proxy's prefix is kept), with
/// the rest of the query but without the token.
pub(crate) fn without_token(uri: &Uri) -> String {
    let page = uri.path().rsplit('/').next().unwrap_or_default();
    let rest: Vec<&str> = uri
        .query()
        .unwrap_or_default()
        .split('&')
        .filter(|pair| {
            !pair.is_empty() && pair.split_once('=').map_or(*pair, |(name, _)| name) != PARAMETER
        })
        .collect();
    if rest.is_empty() {
        format!("./{page}")
    } else {
        format!("./{page}?{}", rest.join("&"))
    }
}

/// Decodes `%XX` escapes; `+` stays `+` (tokens are not form data). A
/// malformed escape is kept as it is; bytes that are not UTF-8 are replaced,
/// so such a token simply does not match.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(uri: &str) -> Request<()> {
        Request::builder().uri(uri).body(()).unwrap()
    }

    #[test]
    fn the_token_is_read_from_the_query() {
        assert_eq!(query_token(&get("/?token=abc")), Some("abc".into()));
        assert_eq!(
            query_token(&get("/boards/x?a=1&token=a%2Bb+c%zz")),
            Some("a+b+c%zz".into())
        );
        assert_eq!(query_token(&get("/?tokens=abc")), None);
        assert_eq!(query_token(&get("/")), None);
        let post = Request::builder()
            .method(Method::POST)
            .uri("/mcp?token=abc")
            .body(())
            .unwrap();
        assert_eq!(query_token(&post), None, "only pages sign in");
    }

    #[test]
    fn the_redirect_drops_the_token_and_stays_on_the_page() {
        let location = |uri: &str| without_token(&uri.parse().unwrap());
        assert_eq!(location("/?token=abc"), "./");
        assert_eq!(location("/boards/crew?token=abc"), "./crew");
        assert_eq!(
            location("/boards/crew.json?a=1&token=x&b"),
            "./crew.json?a=1&b"
        );
        assert_eq!(location("//evil.example/?token=x"), "./");
        assert_eq!(location("/boards/a:b?token=x"), "./a:b");
    }

    #[test]
    fn the_cookie_admits_reads_and_writes_only() {
        let sign_in = SignIn::new("s3cret");
        let set_cookie = sign_in.set_cookie.to_str().unwrap().to_owned();
        assert!(
            !set_cookie.contains("s3cret"),
            "the cookie is not the token"
        );
        for attribute in ["Path=/", "HttpOnly", "SameSite=Strict"] {
            assert!(set_cookie.contains(attribute), "{set_cookie}");
        }
        let value = set_cookie
            .split(';')
            .next()
            .unwrap()
            .strip_prefix("planning_auth=")
            .unwrap();
        let with_cookie = |method: Method, cookie: &str| {
            Request::builder()
                .method(method)
                .header(header::COOKIE, cookie)
                .body(())
                .unwrap()
        };
        let good = format!("theme=dark; {COOKIE}={value}");
        assert!(sign_in.admits(&with_cookie(Method::GET, &good)));
        assert!(sign_in.admits(&with_cookie(Method::HEAD, &good)));
        assert!(!sign_in.admits(&with_cookie(Method::POST, &good)));
        let post = |uri: &str| {
            Request::builder()
                .method(Method::POST)
                .uri(uri)
                .header(header::COOKIE, good.as_str())
                .body(())
                .unwrap()
        };
        assert!(sign_in.admits(&post("/boards/a/actions/add")));
        for not_a_write in ["/boards/a/mcp", "/mcp", "/boards/a/actions/", "/actions"] {
            assert!(!sign_in.admits(&post(not_a_write)), "{not_a_write}");
        }
        assert!(!sign_in.admits(&with_cookie(Method::GET, "planning_auth=s3cret")));
        assert!(!sign_in.admits(&get("/")));
        assert!(!SignIn::new("other").admits(&with_cookie(Method::GET, &good)));
    }
}
