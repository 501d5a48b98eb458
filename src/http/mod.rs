// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! HTTP mode: the axum router in front of rmcp's Streamable HTTP service.
//! One MCP endpoint per board (`/mcp` is board `default`,
//! `/boards/{name}/mcp` board `{name}`) and the web board ([`crate::web`]),
//! behind access control and limits.

pub mod auth;
pub mod guard;
pub mod limits;
pub mod mcp;
pub mod signin;

use std::sync::Arc;

use axum::Router;
use axum::middleware;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::boards::Boards;
use crate::config::ServerSettings;

/// The whole HTTP application: routes, then limits, then the token check,
/// then (outermost) the Host and Origin checks.
pub fn router(
    settings: &ServerSettings,
    boards: Arc<Boards>,
    sessions_closed: CancellationToken,
    in_flight: TaskTracker,
) -> Router {
    let access = settings
        .auth_token
        .as_ref()
        .map(|secret| auth::Access::new(secret.expose()));
    let web = crate::web::Web::new(
        boards.clone(),
        settings.max_sessions,
        sessions_closed.clone(),
    );
    mcp::routes(mcp::McpEndpoints::new(settings, boards, sessions_closed))
        .merge(crate::web::routes(web))
        .layer(middleware::from_fn_with_state(
            in_flight,
            limits::limit_in_flight,
        ))
        .layer(middleware::from_fn_with_state(access, auth::require_token))
        .layer(middleware::from_fn_with_state(
            guard::Guard::new(settings),
            guard::check_host_and_origin,
        ))
}
