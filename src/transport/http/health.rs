// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `GET /healthz`: whether this replica can serve, for a proxy's health
//! checks (HAProxy's `option httpchk GET /healthz`, docs/deploy.md).
//! 200 `ok` when every enabled toolset's store answers (for `postgres`, a
//! `SELECT 1` through the boards' pool within [`PROBE_LIMIT`]), else 503
//! with a fixed reason.
//!
//! The gate lets it through unchecked: no token and no `Host` check, since
//! a proxy's check sends neither (HAProxy's sends `HTTP/1.0` without `Host`).
//! That is safe because it tells nothing but "up" or "down": no address,
//! no database URL, no driver message (those go to the log, once per
//! change). It is cheap whoever calls it: one probe at a time, and an
//! answer younger than [`FRESH`] is given again without a probe, so a
//! flood of checks costs the database at most a few queries a second.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::sync::Mutex;
use tokio::time::Instant;

use crate::runtime::blocking;
use crate::server::Enabled;

/// The path of the health check.
pub(crate) const PATH: &str = "/healthz";

/// How long the store has to answer: under HAProxy's `timeout check` of
/// docs/deploy.md (2 s), so that a slow database reads as down here, with
/// the reason logged, rather than as a timed-out check.
pub(crate) const PROBE_LIMIT: Duration = Duration::from_secs(1);

/// How long an answer is reused: shorter than any sensible check interval
/// (HAProxy's `inter 1s`), long enough that floods cost nothing.
const FRESH: Duration = Duration::from_millis(250);

/// The reason a down replica gives: fixed words, nothing from the driver.
const DOWN: &str = "unavailable: this replica cannot reach its board store\n";

/// The enabled toolsets and the last answer.
#[derive(Clone)]
struct Health {
    toolsets: Enabled,
    last: Arc<Mutex<Option<(Instant, bool)>>>,
}

/// The route of `/healthz` (the gate lets it through unchecked).
pub(crate) fn routes(toolsets: Enabled) -> Router {
    Router::new().route(PATH, get(healthz)).with_state(Health {
        toolsets,
        last: Arc::default(),
    })
}

async fn healthz(State(health): State<Health>) -> Response {
    let up = health.up().await;
    let (status, body) = match up {
        true => (StatusCode::OK, "ok\n"),
        false => (StatusCode::SERVICE_UNAVAILABLE, DOWN),
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

impl Health {
    /// Whether the stores answer: the last answer if fresh, else a probe
    /// (one at a time: the others wait for it and take its answer).
    async fn up(&self) -> bool {
        let mut last = self.last.lock().await;
        if let Some((at, up)) = *last
            && at.elapsed() < FRESH
        {
            return up;
        }
        let toolsets = self.toolsets.clone();
        let probe = blocking::run(move || toolsets.reachable(PROBE_LIMIT));
        // The store's own bound is PROBE_LIMIT; this one also covers a
        // database not opened yet (connecting, within storage.connect_timeout).
        let outcome = match tokio::time::timeout(PROBE_LIMIT * 2, probe).await {
            Ok(outcome) => outcome,
            Err(_) => Err(("store", format!("no answer within {PROBE_LIMIT:?}"))),
        };
        let up = outcome.is_ok();
        let was = last.map(|(_, up)| up);
        match &outcome {
            Err((toolset, why)) if was != Some(false) => tracing::warn!(
                toolset,
                problem = %why,
                "health check: the board store cannot be reached; /healthz answers 503"
            ),
            Ok(()) if was == Some(false) => {
                tracing::info!("health check: the board store answers again; /healthz answers 200");
            }
            _ => {}
        }
        *last = Some((Instant::now(), up));
        up
    }
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::extract::Request;
    use tower_service::Service as _;

    use super::*;

    /// Without a store to ask (no toolset), the replica is up; the answer
    /// needs no `Host`, and `HEAD` is answered too.
    #[tokio::test]
    async fn a_replica_without_a_store_is_up_for_get_and_head() {
        let mut app = routes(Enabled::default());
        for method in ["GET", "HEAD"] {
            let request = Request::builder()
                .method(method)
                .uri(PATH)
                .body(Body::empty())
                .unwrap();
            let response = app.call(request).await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{method}");
            assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
        }
    }
}
