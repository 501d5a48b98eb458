// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Access control: when `[server] auth_token` is set, every request needs
//! `Authorization: Bearer <token>`, compared in constant time, or (a browser
//! reading pages) the cookie that [`super::signin`] grants.

use super::signin::{self, SignIn};
use super::token::{Token, bearer};
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// What a request may show to be let in: the token, or the cookie it grants.
#[derive(Clone)]
pub(crate) struct Access {
    token: Token,
    sign_in: SignIn,
}

impl Access {
    /// Access with the configured token `secret`.
    pub(crate) fn new(secret: &str) -> Self {
        Self {
            token: Token::new(secret),
            sign_in: SignIn::new(secret),
        }
    }
}

impl Access {
    /// The answer to a request that may not pass, or `None` to let it
    /// through: it needs the right token or, for reading pages, the sign-in
    /// cookie; otherwise 401. A page opened with the right `?token=` signs
    /// the browser in (the redirect is the answer).
    pub(crate) fn refusal(&self, request: &Request) -> Option<Response> {
        if let Some(given) = bearer(request) {
            return match self.token.matches(given) {
                true => None,
                false => Some(unauthorized(INVALID)),
            };
        }
        if let Some(given) = signin::query_token(request) {
            return Some(match self.token.matches(&given) {
                true => self.sign_in.redirect(request.uri()),
                false => unauthorized(INVALID),
            });
        }
        match self.sign_in.admits(request) {
            true => None,
            false => Some(unauthorized(MISSING)),
        }
    }
}

const MISSING: &str = r#"Bearer realm="planning-mcp-server""#;
const INVALID: &str = r#"Bearer realm="planning-mcp-server", error="invalid_token""#;

fn unauthorized(challenge: &'static str) -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, challenge)],
        "a valid 'Authorization: Bearer <token>' header is required \
         (in a browser: open the page once with ?token=<token>)\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_token_matches() {
        let token = Token::new("s3cret");
        assert!(token.matches("s3cret"));
        for wrong in ["", "s3cre", "s3cret ", "S3CRET", "s3cret-and-more"] {
            assert!(!token.matches(wrong), "{wrong}");
        }
    }

    #[test]
    fn bearer_is_read_case_insensitively() {
        let request = |value: &str| {
            Request::builder()
                .header(header::AUTHORIZATION, value)
                .body(axum::body::Body::empty())
                .unwrap()
        };
        assert_eq!(bearer(&request("Bearer abc")), Some("abc"));
        assert_eq!(bearer(&request("bearer  abc ")), Some("abc"));
        assert_eq!(bearer(&request("Basic abc")), None);
        assert_eq!(bearer(&request("Bearer")), None);
    }
}
