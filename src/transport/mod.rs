// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The transports: MCP over stdio (one board), or Streamable HTTP (every
//! board at its own path; see [`crate::http`]), and shutdown on
//! SIGINT/SIGTERM that lets calls in flight finish.

pub mod http;
pub mod web;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::{Config, Mode};
use crate::server::PlanningServer;
use crate::toolsets::planning::boards::{BoardName, Boards, OpenError, open_board};
use crate::toolsets::planning::store::StoreError;

/// How long shutdown waits for calls in flight before closing sessions anyway.
const DRAIN_DEADLINE: Duration = Duration::from_secs(10);

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A board's store could not be opened or read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A board could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// A transport failed (e.g. the address is in use).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// HTTP on a non-loopback address without a token.
    #[error(
        "refusing to serve HTTP on {0} without an auth token: anyone who can reach it could \
         read and change the boards. Set server.auth_token (or PLANNING_SERVER_AUTH_TOKEN, or \
         server.auth_token_file), or set server.allow_unauthenticated = true to accept the risk"
    )]
    Unprotected(SocketAddr),
}

/// Runs the server in the configured mode until the client leaves (stdio)
/// or a shutdown signal arrives.
pub async fn run(config: &Config, config_file: Option<&Path>) -> Result<(), ServeError> {
    let shutdown = shutdown_signal();
    let config_file = config_file.map_or_else(|| "none".to_owned(), |p| p.display().to_string());
    match config.server.mode {
        Mode::Stdio => serve_stdio(config, &config_file, shutdown).await,
        Mode::Http => serve_http(config, &config_file, shutdown).await,
    }
}

async fn serve_stdio(
    config: &Config,
    config_file: &str,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    // The configuration was validated: the name is well-formed.
    let name = BoardName::parse(&config.server.board).unwrap_or_else(BoardName::default_board);
    let board = open_board(config, &name)?;
    tracing::info!(
        mode = "stdio",
        board = %name,
        config = %config_file,
        storage = %board.storage(),
        "planning-mcp-server {} serving MCP on stdin/stdout",
        env!("CARGO_PKG_VERSION")
    );
    let toolsets = crate::server::Toolsets::from_config(config);
    let service = PlanningServer::with_toolsets(name, board, toolsets)
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
    config: &Config,
    config_file: &str,
    signal: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let settings = &config.server;
    let listener = TcpListener::bind((settings.host.as_str(), settings.port)).await?;
    let address = listener.local_addr()?;
    if !address.ip().is_loopback()
        && settings.auth_token.is_none()
        && !settings.allow_unauthenticated
    {
        return Err(ServeError::Unprotected(address));
    }
    let boards = Arc::new(Boards::new(config.clone()));
    // Open the default board now, so that a bad snapshot stops start-up.
    let default = boards.get(&BoardName::default_board())?;
    let sessions_closed = CancellationToken::new();
    let in_flight = TaskTracker::new();
    let app = crate::transport::http::router(
        settings,
        boards,
        sessions_closed.child_token(),
        in_flight.clone(),
    );
    tracing::info!(
        mode = "http",
        url = %format!("{}/mcp", base_url(&settings.host, address)),
        address = %address,
        auth = if settings.auth_token.is_some() { "token" } else { "none" },
        config = %config_file,
        storage = %default.storage(),
        "planning-mcp-server {} listening",
        env!("CARGO_PKG_VERSION")
    );
    // The token is never logged: the line only says how to bring it.
    let sign_in = match settings.auth_token {
        Some(_) => " (the first time, add ?token=<your token>)",
        None => "",
    };
    tracing::info!("board: {}/{sign_in}", base_url(&settings.host, address));

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
        .await?;
    Ok(())
}

/// The URL clients use, without a path: the configured host name with the
/// bound port.
fn base_url(host: &str, address: SocketAddr) -> String {
    let host = host.trim_matches(['[', ']']);
    if host.contains(':') {
        format!("http://[{host}]:{}", address.port())
    } else {
        format!("http://{host}:{}", address.port())
    }
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
