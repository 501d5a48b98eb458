// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The log of the duplicates `add_tasks` skips. A model that adds the same
//! tasks again and again (a retry loop, a load test) must not flood the
//! log: each call's skips are one line at debug level, and the warning the
//! Go server gives comes when the server's total reaches 1, 10, 100, 1,000,
//! ... skipped tasks: by count, never by time, so a test can predict every
//! line.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::server::BoardName;
use crate::toolsets::planning::domain::TaskId;

/// The most IDs one debug line names.
const IDS_LOGGED: usize = 10;

/// The skipped duplicates of one server (all its boards).
#[derive(Debug, Default)]
pub(crate) struct SkippedLog {
    total: AtomicU64,
}

impl SkippedLog {
    /// Logs that an `add_tasks` on `board` skipped `skipped` (nothing when
    /// it skipped none).
    pub(crate) fn record(&self, board: &BoardName, skipped: &[TaskId]) {
        if skipped.is_empty() {
            return;
        }
        let count = u64::try_from(skipped.len()).unwrap_or(u64::MAX);
        let mut ids: Vec<String> = skipped
            .iter()
            .take(IDS_LOGGED)
            .map(TaskId::to_string)
            .collect();
        if skipped.len() > IDS_LOGGED {
            ids.push(format!("and {} more", skipped.len() - IDS_LOGGED));
        }
        tracing::debug!(
            board = %board,
            count,
            ids = %ids.join(" "),
            "add_tasks skipped duplicate tasks: the board already has them"
        );
        let before = self.total.fetch_add(count, Ordering::Relaxed);
        let total = before.saturating_add(count);
        if let Some(next) = warning_due(before, total) {
            tracing::warn!(
                board = %board,
                total,
                "add_tasks skipped duplicate tasks (the board already had them): {total} since the \
                 server started; the next warning comes at {next}, each call's skips are logged at \
                 debug level"
            );
        }
    }
}

/// Whether a total that went from `before` to `after` reached a power of
/// ten (1, 10, 100, ...): then the next power of ten, when the next warning
/// is due.
fn warning_due(before: u64, after: u64) -> Option<u64> {
    let mut power = 1u64;
    while let Some(next) = power.checked_mul(10)
        && next <= after
    {
        power = next;
    }
    (after >= 1 && power > before).then(|| power.saturating_mul(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_come_at_powers_of_ten() {
        let due: Vec<u64> = (0..2000u64)
            .filter(|n| warning_due(*n, n + 1).is_some())
            .map(|n| n + 1)
            .collect();
        assert_eq!(due, [1, 10, 100, 1000]);
        assert_eq!(warning_due(0, 1), Some(10));
        assert_eq!(warning_due(5, 12), Some(100), "a call that jumps over 10");
        assert_eq!(warning_due(5, 9), None);
        assert_eq!(warning_due(0, 0), None);
        assert_eq!(warning_due(99, 5000), Some(10_000), "one warning per call");
        assert_eq!(warning_due(u64::MAX - 1, u64::MAX), None);
    }
}
