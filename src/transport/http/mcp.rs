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
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use parking_lot::Mutex;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde::de::IgnoredAny;
use tokio_util::sync::CancellationToken;
use tower_service::Service as _;

use crate::config::ServerSettings;
use crate::runtime::blocking;
use crate::server::routes::unavailable;
use crate::server::toolset::OpenError;
use crate::server::{BoardName, Enabled, Endpoint, SessionServer};

use super::sse_events::name_events;

/// The largest request body accepted; larger ones get 413.
pub(crate) const MAX_REQUEST_BODY: usize = 1024 * 1024;

/// The header that names a request's session.
const SESSION_ID: &str = "mcp-session-id";

type McpService = StreamableHttpService<SessionServer, LocalSessionManager>;

/// What a board's service returns for one request.
type ServiceFuture = <McpService as tower_service::Service<Request>>::Future;

/// The boards' MCP services and the session cap.
#[derive(Clone)]
pub(crate) struct McpEndpoints {
    inner: Arc<Endpoints>,
}

/// One board's MCP service.
struct Service {
    service: McpService,
    sessions: Arc<LocalSessionManager>,
    /// Cloned by every request being handed to the service: a service with
    /// no session and no request may be dropped (and its board with it).
    in_use: Arc<()>,
    /// Held by a `DELETE` from its check that the session is live until
    /// rmcp has closed it, so that of two `DELETE`s of one session exactly
    /// one finds it. A tokio lock: it is held across the close.
    deleting: Arc<tokio::sync::Mutex<()>>,
}

struct Endpoints {
    toolsets: Enabled,
    services: Mutex<HashMap<BoardName, Service>>,
    config: StreamableHttpServerConfig,
    session_idle_timeout: Duration,
    body_read_timeout: Duration,
    max_sessions: usize,
    /// Held by the one `initialize` request that is opening a session.
    opening: tokio::sync::Mutex<()>,
}

impl McpEndpoints {
    /// Endpoints of the enabled toolsets on every board, configured by `[server]`.
    pub(crate) fn new(
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
                body_read_timeout: settings.body_read_timeout.duration(),
                max_sessions: settings.max_sessions,
                opening: tokio::sync::Mutex::new(()),
            }),
        }
    }

    /// The enabled toolsets the boards are opened with.
    pub(crate) fn toolsets(&self) -> &Enabled {
        &self.inner.toolsets
    }

    /// Opens the toolsets on board `name` and makes its service, unless
    /// that is done already. The toolsets open on a blocking thread (a board
    /// reads its file), without holding the map of services.
    pub(crate) async fn open(&self, name: &BoardName) -> Result<(), OpenError> {
        if self.inner.services.lock().contains_key(name) {
            return Ok(());
        }
        // Services no one uses hold their boards: let the boards' cap see them go.
        self.inner.prune();
        let toolsets = self.inner.toolsets.clone();
        let endpoint = blocking::run({
            let name = name.clone();
            move || toolsets.open(&name)
        })
        .await?;
        let mut services = self.inner.services.lock();
        if let Entry::Vacant(entry) = services.entry(name.clone()) {
            entry.insert(self.inner.service(endpoint));
        }
        Ok(())
    }

    /// Hands `request` to board `name`'s service, if it is open. The
    /// service copies itself into the future it returns, so the lock is not
    /// held across it; the guard keeps the service from being dropped.
    fn call(&self, name: &BoardName, request: Request) -> Option<(ServiceFuture, Arc<()>)> {
        let mut services = self.inner.services.lock();
        let open = services.get_mut(name)?;
        Some((open.service.call(request), open.in_use.clone()))
    }

    /// Sessions open now, over all boards.
    async fn live_sessions(&self) -> usize {
        let managers: Vec<Arc<LocalSessionManager>> = self
            .inner
            .services
            .lock()
            .values()
            .map(|open| open.sessions.clone())
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

    /// Hands a request to board `name`'s MCP service. A POST is read whole
    /// first (within the body timeout) and must be JSON; one that may open
    /// a session takes a session slot only if it is an `initialize`
    /// request: a client that stalls its body holds a connection, never a
    /// session.
    async fn serve(&self, name: BoardName, request: Request) -> Response {
        if request.method() == Method::DELETE {
            return self.delete(&name, request).await;
        }
        let (request, _slot) = match request.method() == Method::POST {
            false => (request, None),
            true => {
                let may_open = !request.headers().contains_key("mcp-session-id");
                let json = is_json(&request);
                let (parts, body) = request.into_parts();
                if may_open {
                    tracing::debug!(board = %name, "reading a request that may open a session");
                }
                let body = match read_body(body, self.inner.body_read_timeout).await {
                    Ok(body) => body,
                    Err(refusal) => return refusal,
                };
                if json && let Err(error) = serde_json::from_slice::<IgnoredAny>(&body) {
                    return parse_error(&error);
                }
                let slot = match may_open && is_initialize(&body) {
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
        if let Err(error) = self.open(&name).await {
            return not_opened(&name, error);
        }
        let Some((future, _in_use)) = self.call(&name, request) else {
            return unavailable("the board was closed meanwhile; retry");
        };
        match future.await {
            Ok(response) => name_events(response.map(Body::new)),
            Err(never) => match never {},
        }
    }
}

impl McpEndpoints {
    /// `DELETE` of a session: 204 when it was live and is closed now, 404
    /// when it is unknown (never opened, closed already, expired), as MCP
    /// clients expect (rmcp answers 202 to both; the Python SDK reports a
    /// 202 as a failed termination). A `DELETE` never opens a board.
    async fn delete(&self, name: &BoardName, request: Request) -> Response {
        let Some(id) = request
            .headers()
            .get(SESSION_ID)
            .and_then(|value| value.to_str().ok())
        else {
            return (
                StatusCode::BAD_REQUEST,
                "Bad Request: Session ID is required\n",
            )
                .into_response();
        };
        let open = self
            .inner
            .services
            .lock()
            .get(name)
            .map(|open| (open.sessions.clone(), open.deleting.clone()));
        let Some((sessions, deleting)) = open else {
            return session_not_found();
        };
        let _one_at_a_time = deleting.lock().await;
        if !sessions.sessions.read().await.contains_key(id) {
            return session_not_found();
        }
        // rmcp checks the request (its protocol version) and closes the session.
        let Some((future, _in_use)) = self.call(name, request) else {
            return session_not_found();
        };
        let response = match future.await {
            Ok(response) => response,
            Err(never) => match never {},
        };
        match response.status() {
            StatusCode::ACCEPTED => StatusCode::NO_CONTENT.into_response(),
            _ => response.map(Body::new),
        }
    }
}

/// The answer to a request for a session this server does not hold (the
/// words are rmcp's, for its other requests).
fn session_not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found: Session not found\n").into_response()
}

impl Endpoints {
    /// A service for `endpoint`, the toolsets opened on one board.
    fn service(&self, endpoint: Arc<Endpoint>) -> Service {
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(self.session_idle_timeout);
        let sessions = Arc::new(sessions);
        let service = StreamableHttpService::new(
            move || Ok(SessionServer::new(endpoint.clone())),
            sessions.clone(),
            self.config.clone(),
        );
        Service {
            service,
            sessions,
            in_use: Arc::new(()),
            deleting: Arc::new(tokio::sync::Mutex::new(())),
        }
    }

    /// Drops the services that have no session and no request in hand.
    fn prune(&self) {
        self.services.lock().retain(|_, open| {
            let handling = Arc::strong_count(&open.in_use) > 1;
            let has_sessions = open
                .sessions
                .sessions
                .try_read()
                .map_or(true, |sessions| !sessions.is_empty());
            handling || has_sessions
        });
    }
}

/// The answer when board `name` cannot be opened: 503 at a cap, else 500
/// with the reason (the toolset logged it).
fn not_opened(name: &BoardName, error: OpenError) -> Response {
    match error {
        OpenError::Full(error) => unavailable(&error),
        OpenError::Failed(error) | OpenError::Unusable(error) => {
            let message = format!("board {name} cannot be opened: {error}\n");
            (StatusCode::INTERNAL_SERVER_ERROR, message).into_response()
        }
    }
}

/// Whether a request says its body is JSON (rmcp answers 415 otherwise).
fn is_json(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
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

/// Reads a whole request body, within `timeout` and [`MAX_REQUEST_BODY`].
async fn read_body(body: Body, timeout: Duration) -> Result<axum::body::Bytes, Response> {
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_REQUEST_BODY)).await {
        Ok(Ok(body)) => Ok(body),
        Ok(Err(error)) => Err(unread(&error)),
        Err(_) => Err((
            StatusCode::REQUEST_TIMEOUT,
            [(header::CONNECTION, "close")],
            format!(
                "the request body did not arrive within {} s (server.body_read_timeout)\n",
                timeout.as_secs_f64()
            ),
        )
            .into_response()),
    }
}

/// The JSON-RPC answer to a body that is not JSON: 400 with a parse
/// error (-32700) and `id: null`, as JSON-RPC 2.0 asks.
fn parse_error(error: &serde_json::Error) -> Response {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": -32700, "message": format!("Parse error: {error}") },
    });
    (
        StatusCode::BAD_REQUEST,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
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
pub(crate) fn routes(endpoints: McpEndpoints) -> Router {
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
