// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The notice that shutdown has begun, for calls that wait on purpose (toolset
//! `team`'s `wait_for`, a long poll): a transport gives it when the signal
//! arrives, before it waits for the calls in flight, so that a waiting call
//! answers at once instead of holding shutdown for the whole grace period.
//! Process-wide, like the blocking work that shutdown lets finish.

use std::sync::LazyLock;

use tokio_util::sync::CancellationToken;

/// Cancelled once shutdown has begun.
static STOPPING: LazyLock<CancellationToken> = LazyLock::new(CancellationToken::new);

/// Tells every waiting call that shutdown has begun.
pub(crate) fn begin() {
    STOPPING.cancel();
}

/// Resolves once shutdown has begun (at once if it has).
pub(crate) async fn begun() {
    STOPPING.cancelled().await;
}
