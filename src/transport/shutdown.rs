// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Shutdown on SIGINT or SIGTERM.

/// Listens for SIGINT and SIGTERM from now on (so that a signal that comes
/// early is not missed) and resolves when one arrives.
pub(crate) fn signal() -> impl Future<Output = ()> + Send + 'static {
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
