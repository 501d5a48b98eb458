// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! HTTP mode: the axum router in front of rmcp's Streamable HTTP service.
//! One MCP endpoint per board (`/mcp` is board `default`,
//! `/boards/{name}/mcp` board `{name}`) and the web board ([`crate::transport::web`]),
//! behind access control and limits; `serve` runs it.

pub(crate) mod auth;
pub(crate) mod connections;
pub(crate) mod guard;
pub(crate) mod limits;
pub(crate) mod mcp;
pub(crate) mod open_files;
pub(crate) mod serve;
pub(crate) mod signin;
pub(crate) mod token;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use tokio_util::task::TaskTracker;

use crate::config::ServerSettings;

/// The whole HTTP application: the MCP endpoints and the other routes
/// (the web board), behind one [`gate`].
pub fn router(
    settings: &ServerSettings,
    endpoints: mcp::McpEndpoints,
    other: Option<Router>,
    in_flight: TaskTracker,
) -> Router {
    let access = settings
        .auth_token
        .as_ref()
        .map(|secret| auth::Access::new(secret.expose()));
    let routes = mcp::routes(endpoints);
    let routes = match other {
        Some(other) => routes.merge(other),
        None => routes,
    };
    routes.layer(middleware::from_fn_with_state(
        Arc::new(Gate {
            guard: guard::Guard::new(settings),
            access,
            in_flight,
        }),
        gate,
    ))
}

/// What every request passes before it is routed.
struct Gate {
    guard: guard::Guard,
    access: Option<auth::Access>,
    in_flight: TaskTracker,
}

/// The checks in front of every route, in order: `Host` and `Origin` (403),
/// the token (401), then the limit on requests in flight (503). One layer
/// rather than three: each axum middleware layer copies the routes'
/// service for every request.
async fn gate(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    let refusal = gate.guard.refusal(&request).or_else(|| {
        let access = gate.access.as_ref()?;
        access.refusal(&request)
    });
    if let Some(refusal) = refusal {
        return refusal;
    }
    limits::run_counted(&gate.in_flight, request, next).await
}
