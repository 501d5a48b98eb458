// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! HTTP mode's life: bind, open the default board, accept connections
//! within the cap and serve each with hyper until a shutdown signal; then
//! let calls in flight finish for the grace period, end the event streams,
//! and drop whatever is left (and kill the programs calls still run).
//!
//! The connections are driven here rather than by `axum::serve` for the
//! bounds it lacks: a client must send its request line and headers within
//! `header_read_timeout` (which also closes idle keep-alive connections),
//! the open connections stay within `max_connections` and the open-files
//! limit ([`super::connections`]), and a failing `accept` (out of
//! descriptors) pauses instead of spinning.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_service::Service as _;

use super::connections::{Connections, Slot};
use super::mcp::McpEndpoints;
use super::open_files;
use crate::config::{Config, ServerSettings};
use crate::runtime::{blocking, children};
use crate::server::BoardName;
use crate::server::routes::Page;
use crate::server::toolset::OpenError;
use crate::transport::ServeError;

/// Descriptors kept free for everything but connections: the listener, the
/// runtime, logs, and the files of the boards (one lock file per open board).
const RESERVED_DESCRIPTORS: usize = 64;

/// The longest pause after `accept` fails (out of descriptors, say).
const MAX_ACCEPT_PAUSE: Duration = Duration::from_secs(1);

/// Serves HTTP until `signal` resolves and the calls in flight are done.
pub(crate) async fn serve(
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
    // Open the default board now, so that a bad snapshot or an unreachable
    // store stops start-up; but a database row that cannot be used (every
    // replica shares it) must not stop every replica at the next rolling
    // restart: that board is refused, with why, until a person mends it,
    // and the others serve.
    match endpoints.open(&BoardName::default_board()).await {
        Err(OpenError::Unusable(problem)) => tracing::error!(
            board = BoardName::DEFAULT,
            %problem,
            "board default cannot be used; its calls are refused until its row is mended, the other boards serve"
        ),
        opened => opened?,
    }
    let (routes, pages) = super::toolset_routes(&config.toolsets, settings, &sessions_closed);
    let in_flight = TaskTracker::new();
    let app = super::router(settings, endpoints, routes, in_flight.clone());
    let limit = open_files::raise();
    let cap = open_files::connection_cap(
        settings.max_connections,
        limit,
        RESERVED_DESCRIPTORS + settings.max_boards,
    );
    tracing::info!(
        mode = "http",
        url = %format!("{}/mcp", base_url(&settings.host, address)),
        address = %address,
        auth = if settings.auth_token.is_some() { "token" } else { "none" },
        toolsets = %config.toolsets.names(),
        storage = %config.toolsets.storage(),
        config = %config_file,
        max_connections = cap,
        open_files = limit.map_or_else(|| "unlimited".to_owned(), |l| l.to_string()),
        "planning-mcp-server {} listening",
        env!("CARGO_PKG_VERSION")
    );
    for Page { label, path } in pages {
        // The token is never logged: the line only says how to bring it.
        let sign_in = match settings.auth_token {
            Some(_) => " (the first time, add ?token=<your token>)",
            None => "",
        };
        tracing::info!(
            "{label}: {}{path}{sign_in}",
            base_url(&settings.host, address)
        );
    }

    let life = Life::default();
    let connections = TaskTracker::new();
    let accepting = tokio::spawn(accept(
        listener,
        Connections::new(cap),
        Serving {
            app,
            header_read_timeout: settings.header_read_timeout.duration(),
            life: life.clone(),
        },
        connections.clone(),
    ));
    signal.await;
    shut_down(settings, &life, &in_flight, &sessions_closed, &connections).await;
    accepting.abort();
    Ok(())
}

/// The stages of shutdown every connection follows.
#[derive(Debug, Clone, Default)]
struct Life {
    /// Stop accepting; each connection closes once its response is sent.
    stopping: CancellationToken,
    /// Drop every connection still open.
    over: CancellationToken,
}

/// After the signal: stop accepting and close idle connections, let calls
/// in flight finish (up to the grace period), end the event streams, then
/// drop what is still open at the end of the grace period.
async fn shut_down(
    settings: &ServerSettings,
    life: &Life,
    in_flight: &TaskTracker,
    sessions_closed: &CancellationToken,
    connections: &TaskTracker,
) {
    let grace = settings.shutdown_grace_period.duration();
    let deadline = Instant::now() + grace;
    tracing::info!(
        "shutting down: finishing calls in flight (up to {} s)",
        grace.as_secs_f64()
    );
    life.stopping.cancel();
    // Calls that wait on purpose (a long poll) answer now, not at the deadline.
    crate::runtime::stopping::begin();
    in_flight.close();
    if tokio::time::timeout_at(deadline, in_flight.wait())
        .await
        .is_err()
    {
        tracing::warn!("calls still in flight after the grace period; dropping them");
    }
    // Ends the long-lived SSE streams, so that their connections can close.
    sessions_closed.cancel();
    connections.close();
    if tokio::time::timeout_at(deadline, connections.wait())
        .await
        .is_err()
    {
        tracing::warn!("dropping connections still open after the grace period");
    }
    life.over.cancel();
    connections.wait().await;
    // A call whose connection was dropped may still be saving or running a
    // program (jj, git): let it end; then kill what still runs.
    if !blocking::settle(deadline.saturating_duration_since(Instant::now())).await {
        tracing::warn!("work still running after the grace period; exiting anyway");
    }
    children::end_within(deadline.saturating_duration_since(Instant::now())).await;
}

/// Accepts connections until shutdown, each within the cap.
async fn accept(
    listener: TcpListener,
    cap: Arc<Connections>,
    serving: Serving,
    connections: TaskTracker,
) {
    let mut pause = Duration::from_millis(10);
    loop {
        let accepted = tokio::select! {
            () = serving.life.stopping.cancelled() => return,
            accepted = listener.accept() => accepted,
        };
        let tcp = match accepted {
            Ok((tcp, _)) => tcp,
            Err(error) if is_transient(&error) => continue,
            Err(error) => {
                // Out of descriptors or memory: wait for connections to close.
                tracing::warn!(%error, pause = ?pause, "cannot accept a connection; pausing");
                tokio::select! {
                    () = serving.life.stopping.cancelled() => return,
                    () = tokio::time::sleep(pause) => {}
                }
                pause = (pause * 2).min(MAX_ACCEPT_PAUSE);
                continue;
            }
        };
        pause = Duration::from_millis(10);
        // Without TCP_NODELAY every SSE reply waits for the client's delayed ACK (~40 ms).
        let _ = tcp.set_nodelay(true);
        let admitted = tokio::select! {
            () = serving.life.stopping.cancelled() => return,
            admitted = cap.admit() => admitted,
        };
        match admitted {
            Some(slot) => {
                connections.spawn(serving.clone().connection(tcp, slot));
            }
            None => refuse(&tcp, cap.cap()),
        }
    }
}

/// Errors of one connection that is gone before it was accepted.
fn is_transient(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionReset, Interrupted};
    matches!(
        error.kind(),
        ConnectionAborted | ConnectionReset | Interrupted
    )
}

/// Answers 503 on a connection beyond the cap, if the socket takes it at
/// once, and closes it.
fn refuse(tcp: &TcpStream, cap: usize) {
    tracing::warn!(cap, "every connection is in a request; refusing a new one");
    let body = format!(
        "this server has its maximum of {cap} connections in requests \
         (server.max_connections); retry shortly\n"
    );
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\ncontent-type: text/plain; \
         charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tcp.try_write(response.as_bytes());
}

/// What every connection needs.
#[derive(Clone)]
struct Serving {
    app: Router,
    header_read_timeout: Duration,
    life: Life,
}

impl Serving {
    /// Serves one connection until it closes, a newer connection takes its
    /// place, or shutdown drops it.
    async fn connection(self, tcp: TcpStream, slot: Arc<Slot>) {
        let app = self.app;
        let requests = slot.clone();
        let service = hyper::service::service_fn(move |request: Request<Incoming>| {
            let in_request = requests.in_request();
            // A Router is always ready.
            let response = app.clone().call(request.map(Body::new));
            async move {
                let response = response.await.unwrap_or_else(|never| match never {});
                // The connection is in this request until the body is sent.
                Ok::<_, Infallible>(response.map(|body| {
                    Body::new(body.map_frame(move |frame| {
                        let _in_request = &in_request;
                        frame
                    }))
                }))
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_read_timeout);
        let connection = builder.serve_connection(TokioIo::new(tcp), service);
        tokio::pin!(connection);
        tokio::select! {
            _ = connection.as_mut() => return,
            () = slot.evicted() => return,
            () = self.life.stopping.cancelled() => {}
        }
        connection.as_mut().graceful_shutdown();
        tokio::select! {
            _ = connection => {}
            () = self.life.over.cancelled() => {}
        }
    }
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
