// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A toolset's HTTP face: the routes it serves next to the MCP endpoints in
//! HTTP mode (toolset `planning`'s web board, toolset `team`'s digest), what
//! it is given to build them, and the answer of a route that is too busy.
//!
//! The transport merges the routes of every enabled toolset with the MCP
//! endpoints (`/mcp`, `/boards/{name}/mcp`) and puts them all behind one
//! gate: the `Host`/`Origin` check, the token, the cap on requests in flight.
//! A path must be no other toolset's and no MCP endpoint's (axum refuses a
//! router with two routes on one path): a test over the registry merges
//! the routes of every toolset.

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio_util::sync::CancellationToken;

/// What a toolset's routes are built with.
#[derive(Debug, Clone)]
pub(crate) struct HttpContext {
    /// The most long-lived responses (event streams) one toolset keeps
    /// open at once (`server.max_sessions`); beyond it, answer
    /// [`unavailable`].
    pub(crate) max_streams: usize,
    /// Cancelled at shutdown, once the calls in flight are done: a
    /// long-lived response ends then, so that its connection can close.
    pub(crate) closed: CancellationToken,
}

/// The routes a toolset serves over HTTP, and the page for people among
/// them that the start-up log announces.
#[derive(Debug)]
pub(crate) struct Routes {
    router: Router,
    page: Option<Page>,
}

/// A page for people, announced in the start-up log as `<label>: <url>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Page {
    /// What the page is, e.g. `board`.
    pub(crate) label: &'static str,
    /// Its path, e.g. `/`.
    pub(crate) path: &'static str,
}

impl Routes {
    /// Serves `router`: its routes and the layers over them, with their
    /// state given (a `Router<()>`).
    pub(crate) fn new(router: Router) -> Self {
        Self { router, page: None }
    }

    /// Announces the page at `path` in the start-up log, as
    /// `<label>: <base URL><path>` (e.g. `board: http://localhost:8080/`).
    pub(crate) fn with_page(self, label: &'static str, path: &'static str) -> Self {
        Self {
            page: Some(Page { label, path }),
            ..self
        }
    }

    /// The router and the page to announce, for the transport.
    pub(crate) fn into_parts(self) -> (Router, Option<Page>) {
        (self.router, self.page)
    }
}

/// The reply to a request that the server is too busy for, or that a cap
/// refuses: 503 with `Retry-After`.
pub(crate) fn unavailable(message: &str) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "1")],
        format!("{message}\n"),
    )
        .into_response()
}
