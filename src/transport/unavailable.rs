// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The answer of an HTTP route that is too busy, or full: 503 with
//! `Retry-After`.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The reply to a request that the server is too busy for.
pub fn unavailable(message: &str) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "1")],
        format!("{message}\n"),
    )
        .into_response()
}
