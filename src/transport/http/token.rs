// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The bearer token: the expected one, kept as a digest, and the one a
//! request carries.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::header;
use sha2::{Digest, Sha256};

/// The expected token, kept only as its SHA-256 digest: comparing digests
/// takes the same time whatever the token given, even its length.
#[derive(Clone)]
pub(crate) struct Token(Arc<[u8; 32]>);

impl Token {
    /// The token to expect.
    pub(crate) fn new(secret: &str) -> Self {
        Self(Arc::new(Sha256::digest(secret.as_bytes()).into()))
    }

    /// Whether `given` is the token, in constant time.
    pub(crate) fn matches(&self, given: &str) -> bool {
        let given: [u8; 32] = Sha256::digest(given.as_bytes()).into();
        let difference = self
            .0
            .iter()
            .zip(given)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        std::hint::black_box(difference) == 0
    }
}

/// The bearer token of a request, if it has one.
pub(crate) fn bearer(request: &Request) -> Option<&str> {
    let value = request
        .headers()
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}
