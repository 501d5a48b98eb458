// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The transports: MCP over stdio, or Streamable HTTP at `/mcp` (axum), and
//! shutdown on SIGINT/SIGTERM that lets calls in flight finish.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::Response;
use http_body_util::BodyExt;
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::board::Board;
use crate::config::{Config, Mode, ServerSettings};
use crate::server::PlanningServer;
use crate::shared::SharedBoard;
use crate::store;

/// The largest request body accepted over HTTP; larger ones get 413.
pub const MAX_REQUEST_BODY: usize = 1024 * 1024;

/// How long shutdown waits for calls in flight before closing sessions anyway.
const DRAIN_DEADLINE: Duration = Duration::from_secs(10);

/// Browser origins that may call the server: loopback only (DNS-rebinding
/// defence). Requests without an `Origin` header (non-browser clients) pass.
const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "https://localhost:*",
    "http://127.0.0.1:*",
    "https://127.0.0.1:*",
    "http://[::1]:*",
    "https://[::1]:*",
];

/// Host names that are always accepted in the `Host` header.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The name of the board served at `/mcp` and in stdio mode.
pub const DEFAULT_BOARD: &str = "default";

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The board's store could not be opened or read.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// A transport failed (e.g. the address is in use).
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Runs the server in the configured mode until the client leaves (stdio)
/// or a shutdown signal arrives.
pub async fn run(config: &Config, config_file: Option<&Path>) -> Result<(), ServeError> {
    let shutdown = shutdown_signal();
    let board = open_board(config, DEFAULT_BOARD)?;
    let config_file = config_file.map_or_else(|| "none".to_owned(), |p| p.display().to_string());
    match config.server.mode {
        Mode::Stdio => serve_stdio(board, &config_file, shutdown).await?,
        Mode::Http => serve_http(board, &config.server, &config_file, shutdown).await?,
    }
    Ok(())
}

/// Opens board `name` with the configured store, loading what it holds.
pub fn open_board(config: &Config, name: &str) -> Result<SharedBoard, store::StoreError> {
    let planning = &config.planning;
    let (limits, history) = (planning.limits(), planning.history_enabled);
    let store = store::open(&config.storage, name, limits, history)?;
    SharedBoard::open(store, Board::new(limits, history))
}

async fn serve_stdio(
    board: SharedBoard,
    config_file: &str,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    tracing::info!(
        mode = "stdio",
        config = %config_file,
        storage = %board.storage(),
        "planning-mcp-server {} serving MCP on stdin/stdout",
        env!("CARGO_PKG_VERSION")
    );
    let service = PlanningServer::new(board)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    let stop = service.cancellation_token();
    tokio::select! {
        quit = service.waiting() => {
            tracing::debug!(?quit, "the client closed the session");
        }
        () = shutdown => {
            tracing::info!("shutting down");
            stop.cancel();
        }
    }
    Ok(())
}

async fn serve_http(
    board: SharedBoard,
    settings: &ServerSettings,
    config_file: &str,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let storage = board.storage();
    let sessions_closed = CancellationToken::new();
    let in_flight = TaskTracker::new();
    let mut allowed_hosts: Vec<String> = LOOPBACK_HOSTS.map(String::from).to_vec();
    allowed_hosts.push(settings.host.trim_matches(['[', ']']).to_owned());
    let mcp = StreamableHttpService::new(
        move || Ok(PlanningServer::new(board.clone())),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default()
            .with_cancellation_token(sessions_closed.child_token())
            .with_max_request_body_bytes(MAX_REQUEST_BODY)
            .with_allowed_hosts(allowed_hosts)
            .with_allowed_origins(LOOPBACK_ORIGINS)
            .enforce_origin_validation(),
    );
    let app = Router::new()
        .nest_service("/mcp", mcp)
        .layer(middleware::from_fn_with_state(
            in_flight.clone(),
            track_in_flight,
        ));

    let listener = TcpListener::bind((settings.host.as_str(), settings.port)).await?;
    let address = listener.local_addr()?;
    tracing::info!(
        mode = "http",
        url = %mcp_url(&settings.host, address),
        address = %address,
        config = %config_file,
        storage = %storage,
        "planning-mcp-server {} listening",
        env!("CARGO_PKG_VERSION")
    );

    let shutdown = CancellationToken::new();
    tokio::spawn({
        let shutdown = shutdown.clone();
        async move {
            signal.await;
            tracing::info!("shutting down: finishing calls in flight");
            shutdown.cancel();
            in_flight.close();
            if tokio::time::timeout(DRAIN_DEADLINE, in_flight.wait())
                .await
                .is_err()
            {
                tracing::warn!("calls still in flight after {DRAIN_DEADLINE:?}; closing anyway");
            }
            // Ends the long-lived SSE streams, so that the server can stop.
            sessions_closed.cancel();
        }
    });
    // Without TCP_NODELAY every SSE reply waits for the client's delayed ACK (~40 ms).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

/// The URL clients use: the configured host name with the bound port.
fn mcp_url(host: &str, address: SocketAddr) -> String {
    let host = host.trim_matches(['[', ']']);
    if host.contains(':') {
        format!("http://[{host}]:{}/mcp", address.port())
    } else {
        format!("http://{host}:{}/mcp", address.port())
    }
}

/// Counts a request as in flight until its response body has been sent.
/// GET (the long-lived notification stream) is not a call and is not counted.
async fn track_in_flight(
    State(in_flight): State<TaskTracker>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::GET {
        return next.run(request).await;
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

/// Listens for SIGINT and SIGTERM from now on (so that a signal that comes
/// early is not missed) and resolves when one arrives.
fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let listen = |kind: SignalKind| {
            signal(kind)
                .inspect_err(|error| tracing::warn!(%error, "cannot listen for a shutdown signal"))
                .ok()
        };
        let (mut interrupt, mut terminate) = (
            listen(SignalKind::interrupt()),
            listen(SignalKind::terminate()),
        );
        async move {
            let received = |signal: Option<tokio::signal::unix::Signal>| async move {
                match signal {
                    Some(mut signal) => signal.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = received(interrupt.take()) => {}
                _ = received(terminate.take()) => {}
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
