// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The MCP endpoints: one rmcp Streamable HTTP service per board, created on
//! first use, and the cap on concurrent sessions across all of them.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use parking_lot::Mutex;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;
use tower_service::Service as _;

use crate::config::ServerSettings;
use crate::server::toolset::OpenError;
use crate::server::{BoardName, Enabled, SessionServer};
use crate::transport::unavailable::unavailable;

/// The largest request body accepted; larger ones get 413.
pub const MAX_REQUEST_BODY: usize = 1024 * 1024;

type McpService = StreamableHttpService<SessionServer, LocalSessionManager>;

/// What a board's service returns for one request.
type ServiceFuture = <McpService as tower_service::Service<Request>>::Future;

/// The boards' MCP services and the session cap.
#[derive(Clone)]
pub struct McpEndpoints {
    inner: Arc<Endpoints>,
}

struct Endpoints {
    toolsets: Enabled,
    services: Mutex<HashMap<BoardName, (McpService, Arc<LocalSessionManager>)>>,
    config: StreamableHttpServerConfig,
    session_idle_timeout: Duration,
    max_sessions: usize,
    /// Held by the one `initialize` request that is opening a session.
    opening: tokio::sync::Mutex<()>,
}

impl McpEndpoints {
    /// Endpoints of the enabled toolsets on every board, configured by `[server]`.
    pub fn new(
        settings: &ServerSettings,
        toolsets: Enabled,
        sessions_closed: CancellationToken,
    ) -> Self {
        // Host and Origin are checked by `guard` in front of every route.
        let config = StreamableHttpServerConfig::default()
            .with_cancellation_token(sessions_closed)
            .with_max_request_body_bytes(MAX_REQUEST_BODY)
            .disable_allowed_hosts();
        Self {
            inner: Arc::new(Endpoints {
                toolsets,
                services: Mutex::new(HashMap::new()),
                config,
                session_idle_timeout: Duration::from_secs(settings.session_idle_timeout),
                max_sessions: settings.max_sessions,
                opening: tokio::sync::Mutex::new(()),
            }),
        }
    }

    /// Opens the toolsets on board `name` and makes its service, unless
    /// that is done already.
    pub fn open(&self, name: &BoardName) -> Result<(), OpenError> {
        let mut services = self.inner.services.lock();
        self.inner.service(&mut services, name).map(|_| ())
    }

    /// Hands `request` to board `name`'s service, created (and the
    /// toolsets opened on the board) on first use. The service copies
    /// itself into the future it returns, so no copy is made here and the
    /// lock is not held across it.
    fn call(&self, name: &BoardName, request: Request) -> Result<ServiceFuture, OpenError> {
        let mut services = self.inner.services.lock();
        let service = self.inner.service(&mut services, name)?;
        Ok(service.call(request))
    }

    /// Sessions open now, over all boards.
    async fn live_sessions(&self) -> usize {
        let managers: Vec<Arc<LocalSessionManager>> = self
            .inner
            .services
            .lock()
            .values()
            .map(|(_, m)| m.clone())
            .collect();
        let mut live = 0;
        for manager in managers {
            live += manager.sessions.read().await.len();
        }
        live
    }

    /// Reserves room for a new session, or `None` at the cap. One
    /// `initialize` at a time holds the slot, from the count of live
    /// sessions until it is answered (by then its session is live), so the
    /// count is exact: concurrent requests can neither overshoot the cap nor
    /// be refused below it.
    async fn reserve_session(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        let slot = self.inner.opening.lock().await;
        (self.live_sessions().await < self.inner.max_sessions).then_some(slot)
    }

    /// Hands a request to board `name`'s MCP service. A request that may
    /// open a session is read whole first, and takes a session slot only if
    /// it is an `initialize` request: a client that stalls its body holds a
    /// connection, never a session.
    async fn serve(&self, name: BoardName, request: Request) -> Response {
        let may_open =
            request.method() == Method::POST && !request.headers().contains_key("mcp-session-id");
        let (request, _slot) = match may_open {
            false => (request, None),
            true => {
                let (parts, body) = request.into_parts();
                tracing::debug!(board = %name, "reading a request that may open a session");
                let body = match axum::body::to_bytes(body, MAX_REQUEST_BODY).await {
                    Ok(body) => body,
                    Err(error) => return unread(&error),
                };
                let slot = match is_initialize(&body) {
                    true => match self.reserve_session().await {
                        Some(slot) => Some(slot),
                        None => {
                            return unavailable(&format!(
                                "this server has its maximum of {} sessions \
                                 (server.max_sessions); close idle sessions or retry later",
                                self.inner.max_sessions
                            ));
                        }
                    },
                    false => None,
                };
                (Request::from_parts(parts, Body::from(body)), slot)
            }
        };
        let future = match self.call(&name, request) {
            Ok(future) => future,
            Err(OpenError::Full(error)) => return unavailable(&error),
            Err(OpenError::Failed(error)) => {
                tracing::error!(board = %name, %error, "cannot open a board");
                let message = format!("board {name} cannot be opened: {error}\n");
                return (StatusCode::INTERNAL_SERVER_ERROR, message).into_response();
            }
        };
        match future.await {
            Ok(response) => response.map(Body::new),
            Err(never) => match never {},
        }
    }
}

impl Endpoints {
    /// Board `name`'s service in `services`, made on first use.
    fn service<'s>(
        &self,
        services: &'s mut HashMap<BoardName, (McpService, Arc<LocalSessionManager>)>,
        name: &BoardName,
    ) -> Result<&'s mut McpService, OpenError> {
        let entry = match services.entry(name.clone()) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => {
                let endpoint = self.toolsets.open(name)?;
                let mut sessions = LocalSessionManager::default();
                sessions.session_config.keep_alive = Some(self.session_idle_timeout);
                let sessions = Arc::new(sessions);
                let service = StreamableHttpService::new(
                    move || Ok(SessionServer::new(endpoint.clone())),
                    sessions.clone(),
                    self.config.clone(),
                );
                entry.insert((service, sessions))
            }
        };
        Ok(&mut entry.0)
    }
}

/// Whether `body` is a JSON-RPC `initialize` request, the only request
/// that opens a session.
fn is_initialize(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Method<'a> {
        #[serde(borrow)]
        method: Option<std::borrow::Cow<'a, str>>,
    }
    serde_json::from_slice::<Method<'_>>(body)
        .is_ok_and(|request| request.method.as_deref() == Some("initialize"))
}

/// The answer to a body that could not be read: 413 when it is too
/// large, 400 when the client stopped sending it.
fn unread(error: &axum::Error) -> Response {
    let too_large = std::error::Error::source(error)
        .is_some_and(|cause| cause.is::<http_body_util::LengthLimitError>());
    match too_large {
        true => (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request bodies are limited to {MAX_REQUEST_BODY} bytes\n"),
        )
            .into_response(),
        false => (
            StatusCode::BAD_REQUEST,
            "the request body could not be read\n",
        )
            .into_response(),
    }
}

/// `/mcp` (board `default`) and `/boards/{name}/mcp`; any other name is 404.
pub fn routes(endpoints: McpEndpoints) -> Router {
    Router::new()
        .route("/mcp", any(default_board))
        .route("/boards/{name}/mcp", any(named_board))
        .with_state(endpoints)
}

async fn default_board(State(endpoints): State<McpEndpoints>, request: Request) -> Response {
    endpoints.serve(BoardName::default_board(), request).await
}

async fn named_board(
    State(endpoints): State<McpEndpoints>,
    Path(name): Path<String>,
    request: Request,
) -> Response {
    match BoardName::parse(&name) {
        Some(name) => endpoints.serve(name, request).await,
        None => (
            StatusCode::NOT_FOUND,
            "no such board: names match ^[a-z0-9][a-z0-9_-]{0,63}$\n",
        )
            .into_response(),
    }
}
