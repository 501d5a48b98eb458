// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! MCP over stdin/stdout: one session on the configured board.

use rmcp::ServiceExt;
use tokio::time::Instant;

use super::ServeError;
use super::lines::Lines;
use crate::config::Config;
use crate::runtime::{blocking, children};
use crate::server::SessionServer;

/// Serves one session on stdio until the client leaves or `shutdown` resolves.
pub(crate) async fn serve(
    config: &Config,
    config_file: &str,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let name = &config.server.board;
    let endpoint = config.toolsets.open(name)?;
    tracing::info!(
        mode = "stdio",
        board = %name,
        toolsets = %config.toolsets.names(),
        storage = %config.toolsets.storage(),
        config = %config_file,
        "planning-mcp-server {} serving MCP on stdin/stdout",
        env!("CARGO_PKG_VERSION")
    );
    let service = SessionServer::new(endpoint)
        .serve(Lines::new(tokio::io::stdin(), tokio::io::stdout()))
        .await
        .map_err(std::io::Error::other)?;
    let stop = service.cancellation_token();
    tokio::select! {
        quit = service.waiting() => {
            tracing::debug!(?quit, "the client closed the session");
        }
        () = shutdown => {
            tracing::info!("shutting down");
            crate::runtime::stopping::begin();
            stop.cancel();
        }
    }
    // A call in flight may still be saving or running a program (jj, git):
    // let it end, within the grace period; then kill what still runs.
    let grace = config.server.shutdown_grace_period.duration();
    let deadline = Instant::now() + grace;
    if !blocking::settle(grace).await {
        tracing::warn!("work still running after the grace period; exiting anyway");
    }
    children::end_within(deadline.saturating_duration_since(Instant::now())).await;
    Ok(())
}
