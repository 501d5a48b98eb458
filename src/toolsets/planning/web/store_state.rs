// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What the page tells of the board's store, so that it never says "Live"
//! while its store is down: whether the store can be reached (a database
//! that answers, a board that reads), and for a git board the sync: when
//! this server last reached the remote, a remote that cannot be reached,
//! changes kept on this clone and not pushed yet, and the operations the
//! merge set aside. The JSON's `store` field ([`super::view`]); left out
//! while there is nothing to tell, so that a board whose store is fine
//! reads as before. While the store cannot be used, the board is shown as
//! this server last held it ([`shown`]), with the problem: a page that
//! reloads gets the page and the truth, not an error.

use std::time::Duration;

use serde::Serialize;

use super::view::timestamp;
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::named_boards::Boards;
use crate::toolsets::planning::shared_board::{CallError, SharedBoard};

/// How long a check of the store may take: a database that does not
/// answer within it is reported unreachable.
pub(crate) const CHECK_LIMIT: Duration = Duration::from_secs(2);

/// The state of a board's store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct StoreView {
    /// `ok`, or `unreachable` when reads or writes fail.
    pub(crate) state: &'static str,
    /// What a person is told when the store cannot be used ("The store
    /// cannot be reached: ..." or "The board cannot be read: ..."), or `null`.
    pub(crate) problem: Option<String>,
    /// A git board's sync, when it has something to tell, or `null`.
    pub(crate) sync: Option<SyncView>,
}

/// A git board's sync.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct SyncView {
    /// Whether the board syncs with a remote (`[sync] on_change` or
    /// `interval`, and a remote).
    pub(crate) on: bool,
    /// When this server last reached the remote (RFC 3339), or `null`: not
    /// since it started.
    pub(crate) last_sync: Option<String>,
    /// Why the remote cannot be reached, or `null`.
    pub(crate) offline: Option<String>,
    /// Why changes made here are not pushed yet (the last push's problem), or `null`.
    pub(crate) unpushed: Option<String>,
    /// The operations the replay set aside, in words, oldest first.
    pub(crate) set_aside: Vec<String>,
}

impl Default for StoreView {
    /// A store that answers, with nothing to tell.
    fn default() -> Self {
        Self {
            state: "ok",
            problem: None,
            sync: None,
        }
    }
}

impl SyncView {
    fn is_empty(&self) -> bool {
        !self.on && self.offline.is_none() && self.unpushed.is_none() && self.set_aside.is_empty()
    }
}

/// Runs `show` on `board` as read, with its store's state: `boards`'
/// backend asked first whether it answers (within [`CHECK_LIMIT`]), so
/// that a database that is down is not waited for; then the board read
/// (reloaded from the store when it changed). When the store does not
/// answer or the board cannot be read, `show` runs on the board as this
/// process last held it, with the problem. Returns what `show` made and
/// the store's state. Blocks (a database's query).
pub(crate) fn shown<T>(
    boards: &Boards,
    board: &SharedBoard,
    show: impl Fn(&Board, &StoreView) -> T,
) -> Result<(T, StoreView), CallError> {
    if let Err(problem) = boards.reachable(CHECK_LIMIT) {
        let store = StoreView::with(
            Some(format!("The store cannot be reached: {problem}")),
            board,
        );
        return board.read_held(|b| show(b, &store)).map(|t| (t, store));
    }
    read_or_held(board, show)
}

/// [`shown`] without asking the backend first: for a board that just
/// changed, whose store has answered.
pub(crate) fn read_or_held<T>(
    board: &SharedBoard,
    show: impl Fn(&Board, &StoreView) -> T,
) -> Result<(T, StoreView), CallError> {
    let store = StoreView::with(None, board);
    match board.read(|b| show(b, &store)) {
        Ok(shown) => Ok((shown, store)),
        Err(error) => {
            let store = StoreView::with(Some(format!("The board cannot be read: {error}")), board);
            board.read_held(|b| show(b, &store)).map(|t| (t, store))
        }
    }
}

impl StoreView {
    /// The state of `board`'s store, `problem` being what a person is told
    /// when it cannot be used (as found by the caller), if it cannot.
    pub(crate) fn with(problem: Option<String>, board: &SharedBoard) -> Self {
        let sync = board.sync_state();
        let sync = SyncView {
            on: sync.on,
            last_sync: sync.last_sync.map(timestamp),
            offline: sync.offline,
            unpushed: sync.unpushed,
            set_aside: board.set_aside().iter().map(ToString::to_string).collect(),
        };
        Self {
            state: match problem {
                Some(_) => "unreachable",
                None => "ok",
            },
            problem,
            sync: (!sync.is_empty()).then_some(sync),
        }
    }

    /// `ok` or `unreachable`.
    pub(crate) fn state(&self) -> &'static str {
        self.state
    }

    /// Whether there is nothing to tell: the store answers, and the board
    /// does not sync and nothing of it was set aside.
    pub(crate) fn is_fine(&self) -> bool {
        self.problem.is_none() && self.sync.is_none()
    }

    /// Whether a page showing `told` shows this state too: the same but
    /// for the last sync within the same minute (the page shows minutes),
    /// so that an open page is not sent the board at every fetch.
    pub(crate) fn shows_as(&self, told: &Self) -> bool {
        let minute = |view: &Self| {
            let mut view = view.clone();
            if let Some(sync) = &mut view.sync {
                sync.last_sync = sync
                    .last_sync
                    .as_ref()
                    .map(|t| t.chars().take(16).collect());
            }
            view
        };
        minute(self) == minute(told)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn synced(at: &str) -> StoreView {
        StoreView {
            sync: Some(SyncView {
                on: true,
                last_sync: Some(at.to_owned()),
                ..SyncView::default()
            }),
            ..StoreView::default()
        }
    }

    #[test]
    fn a_later_sync_in_the_same_minute_is_no_news_but_anything_else_is() {
        let told = synced("2026-12-04T01:23:05.120Z");
        assert!(synced("2026-12-04T01:23:59.999Z").shows_as(&told));
        assert!(!synced("2026-12-04T01:24:00.000Z").shows_as(&told));
        let mut offline = synced("2026-12-04T01:23:06.000Z");
        if let Some(sync) = &mut offline.sync {
            sync.offline = Some("cannot sync with origin: fatal: gone".into());
        }
        assert!(!offline.shows_as(&told));
        let down = StoreView {
            state: "unreachable",
            problem: Some("The store cannot be reached: refused".into()),
            sync: None,
        };
        assert!(!down.shows_as(&StoreView::default()));
        assert!(StoreView::default().shows_as(&StoreView::default()));
        assert!(StoreView::default().is_fine() && !told.is_fine() && !down.is_fine());
    }
}
