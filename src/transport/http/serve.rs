// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! HTTP mode's life: bind, open the default board, serve the router until
//! a shutdown signal, then let calls in flight finish.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::mcp::McpEndpoints;
use crate::config::Config;
use crate::server::BoardName;
use crate::toolsets::planning::Planning;
use crate::transport::ServeError;
use crate::transport::web::{self, Web};

/// How long shutdown waits for calls in flight before closing sessions anyway.
const DRAIN_DEADLINE: Duration = Duration::from_secs(10);

/// Serves HTTP until `signal` resolves and the calls in flight are done.
pub async fn serve(
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
    let sessions_closed = CancellationToken::new();
    let endpoints = McpEndpoints::new(settings, config.toolsets.clone(), sessions_closed.clone());
    // Open the default board now, so that a bad snapshot stops start-up.
    endpoints.open(&BoardName::default_board()).await?;
    // The web board shows toolset `planning`'s boards, when it is on.
    let web = config.toolsets.state::<Planning>().map(|planning| {
        let web = Web::new(
            planning.boards().clone(),
            settings.max_sessions,
            sessions_closed.child_token(),
        );
        web::routes(web)
    });
    let in_flight = TaskTracker::new();
    let app = super::router(settings, endpoints, web, in_flight.clone());
    tracing::info!(
        mode = "http",
        url = %format!("{}/mcp", base_url(&settings.host, address)),
        address = %address,
        auth = if settings.auth_token.is_some() { "token" } else { "none" },
        toolsets = %config.toolsets.names(),
        config = %config_file,
        "planning-mcp-server {} listening",
        env!("CARGO_PKG_VERSION")
    );
    if config.toolsets.state::<Planning>().is_some() {
        // The token is never logged: the line only says how to bring it.
        let sign_in = match settings.auth_token {
            Some(_) => " (the first time, add ?token=<your token>)",
            None => "",
        };
        tracing::info!("board: {}/{sign_in}", base_url(&settings.host, address));
    }

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
