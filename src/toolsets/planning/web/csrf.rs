// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Cross-site request protection of a person's writes ([`super::writes`]):
//! a write must come from the board's own origin, and carry the CSRF token.
//!
//! - Same origin: a browser's `Sec-Fetch-Site` must be `same-origin`, and its
//!   `Origin` must name the host the request was sent to (`Host`). A client
//!   that sends neither (curl, a script) passes this check.
//! - The token (double submit): the board page sets the cookie
//!   [`COOKIE`] to a random value and writes the same value into the page;
//!   a write sends it back in the header [`HEADER`] (or the form field
//!   [`FIELD`]) and must match the cookie. Another site can neither read
//!   the page nor set the cookie, so it cannot send a matching pair. The
//!   value lives in the browser only, so it survives a server restart and
//!   holds across replicas behind a balancer.
//! - A request with an `Authorization: Bearer` header (a script, the
//!   terminal's `board --url`) needs no token: a browser never adds that
//!   header to another site's request without a CORS preflight, which this
//!   server never grants, and never adds a bearer token by itself. (It does
//!   re-send Basic credentials it cached for a proxy in front of the server
//!   by itself, even on another site's form: so only `Bearer` counts.) With
//!   `[server] auth_token` set, the HTTP layer has checked the token before
//!   this; without, the header proves only that no browser page sent the
//!   request, which is all this check is about.

use axum::http::{HeaderMap, HeaderValue, header};

/// The cookie that holds the page's CSRF token.
pub(crate) const COOKIE: &str = "planning_csrf";

/// The header a script sends the token in.
pub(crate) const HEADER: &str = "x-csrf-token";

/// The form field a page's form sends the token in.
pub(crate) const FIELD: &str = "csrf";

/// Why a write was refused as cross-site (403).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CrossSite {
    /// `Sec-Fetch-Site` says another site (or origin) made the request.
    #[error("refused: the request came from another site (Sec-Fetch-Site: {0})")]
    FetchSite(String),
    /// `Origin` is not this server's.
    #[error("refused: the request came from another origin ({0})")]
    Origin(String),
    /// No token, or not the page's.
    #[error(
        "refused: the CSRF token is missing or wrong; reload the board page and try again \
         (scripts: send the same value in the planning_csrf cookie and the X-CSRF-Token \
         header, or use Authorization: Bearer)"
    )]
    Token,
}

/// Whether the request comes from the board's own origin, as far as its
/// browser tells.
pub(crate) fn same_origin(headers: &HeaderMap) -> Result<(), CrossSite> {
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().unwrap_or("?");
        if site != "same-origin" {
            return Err(CrossSite::FetchSite(site.to_owned()));
        }
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("?");
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default();
    let authority = origin
        .split_once("://")
        .map(|(_, rest)| rest.trim_end_matches('/'));
    match authority {
        Some(authority) if !host.is_empty() && authority.eq_ignore_ascii_case(host) => Ok(()),
        _ => Err(CrossSite::Origin(origin.to_owned())),
    }
}

/// Whether the request carries the token: `given` (the header's or the
/// form field's value) equal to the cookie's, or an `Authorization: Bearer`
/// header (see the module's documentation).
pub(crate) fn token(headers: &HeaderMap, given: Option<&str>) -> Result<(), CrossSite> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.get(..7))
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("bearer "));
    if bearer {
        return Ok(());
    }
    let given = given.or_else(|| headers.get(HEADER).and_then(|v| v.to_str().ok()));
    match (given, cookie(headers)) {
        (Some(given), Some(cookie)) if valid(cookie) && token_eq(given, cookie) => Ok(()),
        _ => Err(CrossSite::Token),
    }
}

/// The token of the request's cookie, if it has a well-formed one.
pub(crate) fn cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == COOKIE && valid(value))
        .map(|(_, value)| value)
}

/// The token a page hands out: the browser's, or a new random one with
/// the `Set-Cookie` header that gives it to the browser.
pub(crate) fn for_page(headers: &HeaderMap) -> (String, Option<HeaderValue>) {
    if let Some(known) = cookie(headers) {
        return (known.to_owned(), None);
    }
    let mut bytes = [0u8; 16];
    // Without randomness there is no token: writes are then refused (403).
    if getrandom::fill(&mut bytes).is_err() {
        return (String::new(), None);
    }
    let value = hex::encode(bytes);
    let set = format!("{COOKIE}={value}; Path=/; HttpOnly; SameSite=Strict");
    (value, HeaderValue::from_str(&set).ok())
}

/// Whether two tokens are equal, in time that does not depend on where
/// they differ.
fn token_eq(given: &str, expected: &str) -> bool {
    let difference = given
        .bytes()
        .zip(expected.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    given.len() == expected.len() && std::hint::black_box(difference) == 0
}

/// Tokens are 32 lower-case hex digits.
fn valid(token: &str) -> bool {
    token.len() == 32
        && token
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    const T: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn only_the_boards_own_origin_passes() {
        let host = ("host", "127.0.0.1:8080");
        assert_eq!(same_origin(&headers(&[host])), Ok(()), "curl");
        let ours = headers(&[
            host,
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin"),
        ]);
        assert_eq!(same_origin(&ours), Ok(()));
        for (origin, site) in [
            ("http://localhost:8080", "same-site"),
            ("http://127.0.0.1:8080", "cross-site"),
            ("http://127.0.0.1:8080", "none"),
        ] {
            let theirs = headers(&[host, ("origin", origin), ("sec-fetch-site", site)]);
            assert_eq!(same_origin(&theirs), Err(CrossSite::FetchSite(site.into())));
        }
        for origin in ["http://localhost:8080", "http://127.0.0.1:9", "null"] {
            let theirs = headers(&[host, ("origin", origin)]);
            assert_eq!(same_origin(&theirs), Err(CrossSite::Origin(origin.into())));
        }
    }

    #[test]
    fn the_token_must_match_the_cookie() {
        let cookie = format!("other=1; {COOKIE}={T}");
        let with_cookie = headers(&[("cookie", &cookie)]);
        assert_eq!(token(&with_cookie, Some(T)), Ok(()));
        let header = headers(&[("cookie", &cookie), (HEADER, T)]);
        assert_eq!(token(&header, None), Ok(()));
        let wrong = "fedcba9876543210fedcba9876543210";
        assert_eq!(token(&with_cookie, Some(wrong)), Err(CrossSite::Token));
        assert_eq!(token(&with_cookie, None), Err(CrossSite::Token));
        assert_eq!(token(&headers(&[]), Some(T)), Err(CrossSite::Token));
        let short = format!("{COOKIE}=abc");
        assert_eq!(
            token(&headers(&[("cookie", &short)]), Some("abc")),
            Err(CrossSite::Token)
        );
        let script = headers(&[("authorization", "Bearer x")]);
        assert_eq!(token(&script, None), Ok(()));
        let script = headers(&[("authorization", "bearer x")]);
        assert_eq!(token(&script, None), Ok(()));
        // Credentials a browser re-sends by itself are no proof.
        for cached in ["Basic YTpi", "Digest username=\"a\"", "Bearer", "x"] {
            let browser = headers(&[("authorization", cached)]);
            assert_eq!(token(&browser, None), Err(CrossSite::Token), "{cached}");
        }
    }

    #[test]
    fn a_page_keeps_the_browsers_token_or_makes_one() {
        let cookie = format!("{COOKIE}={T}");
        assert_eq!(for_page(&headers(&[("cookie", &cookie)])), (T.into(), None));
        let (made, set) = for_page(&headers(&[]));
        assert!(valid(&made), "{made}");
        let set = set.unwrap();
        assert_eq!(
            set.to_str().unwrap(),
            format!("{COOKIE}={made}; Path=/; HttpOnly; SameSite=Strict")
        );
    }
}
