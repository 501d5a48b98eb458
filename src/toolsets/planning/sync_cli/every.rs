// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `[sync] interval`: a server whose boards are kept in git syncs them
//! with the remote every so many seconds, as `planning-mcp-server sync`
//! would, from the moment it starts. A failed sync (offline, no remote) is
//! logged and tried again at the next tick; the server's calls go on
//! locally meanwhile, and see what a sync brought at their next call (the
//! git store notices that the board's ref moved).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::MissedTickBehavior;

use super::sync;
use crate::runtime::blocking;
use crate::server::toolset::BackgroundTask;
use crate::toolsets::planning::config::{Backend, BoardSettings};

/// The background syncs `settings` ask for: none unless the boards are
/// kept in git and `[sync] interval` is set.
pub(crate) fn background_syncs(settings: &BoardSettings) -> Option<BackgroundTask> {
    if settings.storage.backend != Backend::Git || settings.sync.interval == 0 {
        return None;
    }
    let interval = Duration::from_secs(settings.sync.interval);
    let settings = settings.clone();
    Some(every(interval, move || match sync(&settings, None, None) {
        Ok(boards) => {
            for (board, result) in boards {
                match result {
                    Ok(report) => tracing::debug!(board, ?report, "synced"),
                    Err(error) => tracing::warn!(board, %error, "a background sync failed"),
                }
            }
        }
        Err(problem) => tracing::warn!(%problem, "a background sync failed"),
    }))
}

/// Runs `work` now and then every `interval`, each run as tracked blocking
/// work (git runs as child processes: off the async workers), so that
/// shutdown, which drops the task, still waits for a run in flight.
fn every(interval: Duration, work: impl Fn() + Send + Sync + 'static) -> BackgroundTask {
    let work = Arc::new(work);
    Box::pin(async move {
        let mut ticks = tokio::time::interval(interval);
        // A sync that took longer than the interval is not made up for.
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let work = work.clone();
            let ran =
                blocking::run(move || std::panic::catch_unwind(AssertUnwindSafe(|| work()))).await;
            if ran.is_err() {
                tracing::warn!("a background sync stopped");
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, mpsc};

    use super::*;

    #[tokio::test]
    async fn shutdown_waits_for_a_sync_in_flight() {
        let (started, has_started) = tokio::sync::mpsc::unbounded_channel::<()>();
        let (release, released) = mpsc::channel::<()>();
        let released = Mutex::new(released);
        let finished = Arc::new(AtomicBool::new(false));
        let done = finished.clone();
        let task = every(Duration::from_secs(3600), move || {
            let _ = started.send(());
            let _ = released.lock().unwrap().recv();
            done.store(true, Ordering::SeqCst);
        });
        let running = tokio::spawn(task);
        let mut has_started = has_started;
        has_started.recv().await.unwrap();
        // Shutdown drops the background task; its sync goes on.
        running.abort();
        assert!(running.await.unwrap_err().is_cancelled());
        assert!(!blocking::settle(Duration::ZERO).await, "the sync runs");
        assert!(!finished.load(Ordering::SeqCst));
        release.send(()).unwrap();
        assert!(blocking::settle(Duration::from_secs(60)).await);
        assert!(finished.load(Ordering::SeqCst), "shutdown waited for it");
    }
}
