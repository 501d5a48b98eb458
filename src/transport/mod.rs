// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The transports: MCP over stdio (one board), or Streamable HTTP (every
//! board at its own path, and the routes the enabled toolsets bring; see
//! [`http`]), and shutdown on SIGINT/SIGTERM that lets calls in flight
//! finish. They name no toolset: they know the enabled ones through the
//! toolset interface.

pub(crate) mod http;
pub(crate) mod lines;
pub(crate) mod shutdown;
pub(crate) mod stdio;

use std::net::SocketAddr;
use std::path::Path;

use crate::config::{Config, Mode};
use crate::server::toolset::OpenError;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A toolset could not be opened on the served board (e.g. a corrupt snapshot).
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
    let shutdown = shutdown::signal();
    let config_file = config_file.map_or_else(|| "none".to_owned(), |p| p.display().to_string());
    // Work the toolsets run for as long as the server does.
    let background: Vec<_> = config
        .toolsets
        .iter()
        .filter_map(|toolset| toolset.background())
        .map(tokio::spawn)
        .collect();
    let served = match config.server.mode {
        Mode::Stdio => stdio::serve(config, &config_file, shutdown).await,
        Mode::Http => http::serve::serve(config, &config_file, shutdown).await,
    };
    for task in background {
        task.abort();
    }
    served
}
