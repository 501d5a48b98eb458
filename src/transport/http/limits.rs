// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Limits against floods, and the count of calls in flight that graceful
//! shutdown waits for.

use axum::body::Body;
use axum::extract::Request;
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use http_body_util::BodyExt;
use tokio_util::task::TaskTracker;

use crate::server::routes::unavailable;

/// The most requests handled at once (long-lived notification streams
/// aside); beyond it, requests get 503 at once instead of queueing.
pub(crate) const MAX_IN_FLIGHT: usize = 1024;

/// Counts a request as in flight until its response body has been sent, and
/// refuses requests beyond [`MAX_IN_FLIGHT`]. GET (the long-lived
/// notification stream) is not a call and is not counted.
pub(crate) async fn run_counted(in_flight: &TaskTracker, request: Request, next: Next) -> Response {
    if request.method() == Method::GET {
        return next.run(request).await;
    }
    if in_flight.len() >= MAX_IN_FLIGHT {
        return unavailable("too many requests in flight; retry shortly");
    }
    let token = in_flight.token();
    let response = next.run(request).await;
    response.map(|body| {
        Body::new(body.map_frame(move |frame| {
            let _in_flight = &token;
            frame
        }))
    })
}
