// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `[sync] interval`: a server whose boards are kept in git syncs them
//! with the remote every so many seconds, as `planning-mcp-server sync`
//! would, from the moment it starts. A failed sync (offline, no remote) is
//! logged and tried again at the next tick; the server's calls go on
//! locally meanwhile, and see what a sync brought at their next call (the
//! git store notices that the board's ref moved).

use std::time::Duration;

use tokio::time::MissedTickBehavior;

use super::sync;
use crate::server::toolset::BackgroundTask;
use crate::toolsets::planning::config::{Backend, BoardSettings};

/// The background syncs `settings` ask for: none unless the boards are
/// kept in git and `[sync] interval` is set.
pub(crate) fn background_syncs(settings: &BoardSettings) -> Option<BackgroundTask> {
    if settings.storage.backend != Backend::Git || settings.sync.interval == 0 {
        return None;
    }
    let settings = settings.clone();
    Some(Box::pin(async move {
        let mut ticks = tokio::time::interval(Duration::from_secs(settings.sync.interval));
        // A sync that took longer than the interval is not made up for.
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let run = settings.clone();
            // git runs as child processes: off the async workers.
            let outcome = tokio::task::spawn_blocking(move || sync(&run, None, None)).await;
            match outcome {
                Ok(Ok(boards)) => {
                    for (board, result) in boards {
                        match result {
                            Ok(report) => tracing::debug!(board, ?report, "synced"),
                            Err(error) => tracing::warn!(board, %error, "a background sync failed"),
                        }
                    }
                }
                Ok(Err(problem)) => tracing::warn!(%problem, "a background sync failed"),
                Err(error) => tracing::warn!(%error, "a background sync stopped"),
            }
        }
    }))
}
