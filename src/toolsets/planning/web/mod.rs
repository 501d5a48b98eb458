// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The web board, toolset `planning`'s HTTP face (`Toolset::routes`): every
//! board in a browser, live, and a person's writes to it, served in HTTP
//! mode next to the MCP endpoints and behind the same guard and token.
//!
//! - `GET /`: the boards ([`index`]);
//! - `GET /boards/{name}`: a board as a page ([`page`]), `.json` ([`view`])
//!   or `.md` (the `get_tasks` text);
//! - `GET /boards/{name}/events`: live updates as Server-Sent Events ([`events`]);
//! - `POST /boards/{name}/actions/{action}`: a person's write ([`writes`],
//!   guarded against other sites by [`csrf`]);
//! - `GET /assets/web.css`, `/assets/web.js`, `/assets/icon.svg` (also at
//!   `/favicon.ico`): embedded ([`assets`]).
//!
//! Every response carries a strict Content-Security-Policy
//! (`security_headers`): the pages run only the embedded script and never
//! insert user text as markup. Toolset `team`'s digest route
//! (`/boards/{name}/digest`) answers with the same headers and `answers`.

pub(crate) mod answers;
pub(crate) mod assets;
pub(crate) mod csrf;
pub(crate) mod events;
pub(crate) mod html;
pub(crate) mod index;
pub(crate) mod page;
pub(crate) mod routes;
pub(crate) mod store_state;
pub(crate) mod view;
pub(crate) mod writes;

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::toolsets::planning::coordination::person::PersonDesk;
use crate::toolsets::planning::named_boards::Boards;

/// The Content-Security-Policy of every web response: only our own script,
/// stylesheet, event stream and images (the icon); no inline code, no
/// frames; forms post only to this server (a person's writes).
pub(crate) const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
                       connect-src 'self'; img-src 'self'; base-uri 'none'; \
                       form-action 'self'; frame-ancestors 'none'";

/// What the web handlers share.
#[derive(Clone)]
pub(crate) struct Web {
    boards: Arc<Boards>,
    /// Where a person approves, rejects and leaves notes, when toolset team
    /// gave one: the web board's `approve`, `reject` and `note` writes.
    desk: Option<Arc<dyn PersonDesk>>,
    /// One permit per open event stream.
    streams: Arc<Semaphore>,
    /// Cancelled at shutdown: ends the event streams.
    closed: CancellationToken,
}

impl Web {
    /// The web view of `boards`, with at most `max_streams` live pages at
    /// once; `closed` ends their event streams at shutdown.
    pub(crate) fn new(
        boards: Arc<Boards>,
        desk: Option<Arc<dyn PersonDesk>>,
        max_streams: usize,
        closed: CancellationToken,
    ) -> Self {
        Self {
            boards,
            desk,
            streams: Arc::new(Semaphore::new(max_streams)),
            closed,
        }
    }
}

/// The web routes, each response with the security headers.
pub(crate) fn routes(web: Web) -> Router {
    Router::new()
        .route("/", get(routes::list))
        .route("/boards/{name}", get(routes::board))
        .route("/boards/{name}/events", get(routes::board_events))
        .route("/boards/{name}/actions/{action}", post(writes::action))
        .route("/assets/{name}", get(assets::serve))
        .route("/favicon.ico", get(assets::favicon))
        .layer(middleware::from_fn(security_headers))
        .with_state(web)
}

/// Adds the Content-Security-Policy and its companions to a response.
pub(crate) async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    // Boards are private; assets set their own policy.
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}
