// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The one way to run work that blocks (waiting for a file lock, `fsync`,
//! reading a file, a spell writing its files): on Tokio's blocking
//! threads, never on the async workers, where a wait on a lock that
//! another process holds would stall every other request and the shutdown
//! signal with it. The work is tracked, so that shutdown lets it finish
//! (within the grace period) rather than cut it midway; a bare
//! `spawn_blocking` would escape that.

use std::sync::LazyLock;
use std::time::Duration;

use tokio_util::task::TaskTracker;

/// The blocking work under way.
static WORK: LazyLock<TaskTracker> = LazyLock::new(TaskTracker::new);

/// Runs `work` on a blocking thread and returns its result. A panic in
/// `work` goes on here.
pub(crate) async fn run<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    match WORK.spawn_blocking(work).await {
        Ok(value) => value,
        Err(error) => match error.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            // Only a runtime that shuts down cancels blocking work; nothing
            // waits for this answer any more.
            Err(_) => std::future::pending().await,
        },
    }
}

/// Waits until the blocking work under way is done, at most `within`.
/// Returns whether it is done.
pub(crate) async fn settle(within: Duration) -> bool {
    if !WORK.is_empty() {
        tracing::info!(running = WORK.len(), "letting blocking work finish");
    }
    WORK.close();
    let done = tokio::time::timeout(within, WORK.wait()).await.is_ok();
    WORK.reopen();
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_off_the_worker_and_is_waited_for() {
        let worker = std::thread::current().id();
        let ran_on = run(move || std::thread::current().id()).await;
        assert_ne!(ran_on, worker);
        let (started, has_started) = tokio::sync::oneshot::channel::<()>();
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let pending = tokio::spawn(run(move || {
            let _ = started.send(());
            wait.recv().is_ok()
        }));
        has_started.await.unwrap();
        assert!(!settle(Duration::ZERO).await, "still running");
        release.send(()).unwrap();
        assert!(pending.await.unwrap());
        assert!(settle(Duration::from_secs(30)).await);
    }
}
