// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! HTTP mode: the axum router in front of rmcp's Streamable HTTP service.
//! One MCP endpoint per board (`/mcp` is board `default`,
//! `/boards/{name}/mcp` board `{name}`) and the routes the enabled toolsets
//! bring (`Toolset::routes`, e.g. the web board), behind access control and
//! limits; `serve` runs it.

pub(crate) mod auth;
pub(crate) mod connections;
pub(crate) mod guard;
pub(crate) mod health;
pub(crate) mod limits;
pub(crate) mod mcp;
pub(crate) mod open_files;
pub(crate) mod serve;
pub(crate) mod signin;
pub(crate) mod sse_events;
pub(crate) mod token;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::ServerSettings;
use crate::server::Enabled;
use crate::server::routes::{HttpContext, Page};

/// The whole HTTP application: the MCP endpoints and the toolsets' routes,
/// behind one [`gate`] (which lets the health check, [`health`], through).
pub(crate) fn router(
    settings: &ServerSettings,
    endpoints: mcp::McpEndpoints,
    toolsets: impl IntoIterator<Item = Router>,
    in_flight: TaskTracker,
) -> Router {
    let access = settings
        .auth_token
        .as_ref()
        .map(|secret| auth::Access::new(secret.expose()));
    let routes = toolsets.into_iter().fold(
        mcp::routes(endpoints.clone()).merge(health::routes(endpoints.toolsets().clone())),
        Router::merge,
    );
    routes.layer(middleware::from_fn_with_state(
        Arc::new(Gate {
            guard: guard::Guard::new(settings),
            access,
            in_flight,
        }),
        gate,
    ))
}

/// The routes the enabled toolsets bring, and the pages among them to
/// announce. Their long-lived responses end when `sessions_closed` is
/// cancelled, with the MCP sessions' event streams.
pub(crate) fn toolset_routes(
    toolsets: &Enabled,
    settings: &ServerSettings,
    sessions_closed: &CancellationToken,
) -> (Vec<Router>, Vec<Page>) {
    let mut pages = Vec::new();
    let routers = toolsets
        .iter()
        .filter_map(|toolset| {
            toolset.routes(&HttpContext {
                max_streams: settings.max_sessions,
                closed: sessions_closed.child_token(),
            })
        })
        .map(|routes| {
            let (router, page) = routes.into_parts();
            pages.extend(page);
            router
        })
        .collect();
    (routers, pages)
}

/// What every request passes before it is routed.
struct Gate {
    guard: guard::Guard,
    access: Option<auth::Access>,
    in_flight: TaskTracker,
}

/// The checks in front of every route but the health check, in order:
/// `Host` and `Origin` (403), the token (401), then the limit on requests
/// in flight (503). One layer
/// rather than three: each axum middleware layer copies the routes'
/// service for every request.
async fn gate(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    // A proxy's health check brings neither a token nor our `Host`, and
    // learns nothing but up or down (see health).
    if request.uri().path() == health::PATH {
        return next.run(request).await;
    }
    let refusal = gate.guard.refusal(&request).or_else(|| {
        let access = gate.access.as_ref()?;
        access.refusal(&request)
    });
    if let Some(refusal) = refusal {
        return refusal;
    }
    limits::run_counted(&gate.in_flight, request, next).await
}

#[cfg(test)]
// figment's Jail closures return figment::Error, which is large; fine in tests.
#[allow(clippy::result_large_err)]
mod tests {
    use axum::body::Body;
    use axum::http::{StatusCode, header};
    use figment::Jail;
    use tower_service::Service as _;

    use super::*;
    use crate::config::{ConfigFlags, load};

    /// Every registered toolset enabled: their routes merge with the MCP
    /// endpoints (axum refuses two routes on one path), and each page the
    /// start-up log announces is served through the gate.
    #[test]
    fn the_routes_of_every_toolset_merge_and_their_pages_are_served() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            let all: Vec<&str> = crate::toolsets::names().collect();
            let flags = ConfigFlags::parse(&["--toolsets", &all.join(",")]).unwrap();
            let config = load(&flags).unwrap().config;
            let settings = &config.server;
            let closed = CancellationToken::new();
            let endpoints =
                mcp::McpEndpoints::new(settings, config.toolsets.clone(), closed.clone());
            let (routes, pages) = toolset_routes(&config.toolsets, settings, &closed);
            assert!(!routes.is_empty());
            assert!(!pages.is_empty());
            let mut app = router(settings, endpoints, routes, TaskTracker::new());
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            for page in pages {
                let request = Request::get(page.path)
                    .header(header::HOST, "localhost")
                    .body(Body::empty())
                    .unwrap();
                let response = runtime.block_on(app.call(request)).unwrap();
                assert_eq!(response.status(), StatusCode::OK, "{page:?}");
            }
            Ok(())
        });
    }
}
