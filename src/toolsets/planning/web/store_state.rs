// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What the page tells of the board's store, so that it never says "Live"
//! while its store is down: whether the store can be reached (a database
//! that answers, a board that reads), and for a git board the sync: a
//! remote that cannot be reached, changes kept on this clone and not
//! pushed yet, and the operations the merge set aside. The JSON's `store`
//! field ([`super::view`]); left out while all is well, so that a board
//! whose store is fine reads as before.

use std::time::Duration;

use serde::Serialize;

use crate::toolsets::planning::named_boards::Boards;
use crate::toolsets::planning::shared_board::SharedBoard;

/// How long a check of the store may take: a database that does not
/// answer within it is reported unreachable.
pub(crate) const CHECK_LIMIT: Duration = Duration::from_secs(2);

/// The state of a board's store.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct StoreView {
    /// `ok`, or `unreachable` when reads or writes fail.
    pub(crate) state: &'static str,
    /// Why the store cannot be used, or `null`.
    pub(crate) problem: Option<String>,
    /// A git board's sync, when it has something to tell, or `null`.
    pub(crate) sync: Option<SyncView>,
}

/// A git board's sync.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct SyncView {
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
        self.offline.is_none() && self.unpushed.is_none() && self.set_aside.is_empty()
    }
}

impl StoreView {
    /// The state of `board`'s store now: `boards`' backend asked whether
    /// it answers (within [`CHECK_LIMIT`]), the board read, and its sync.
    /// Blocks (a database's query).
    pub(crate) fn of(boards: &Boards, board: &SharedBoard) -> Self {
        let problem = match boards.reachable(CHECK_LIMIT) {
            Err(problem) => Some(problem),
            Ok(()) => board.read(|_| ()).err().map(|error| error.to_string()),
        };
        Self::with(problem, board)
    }

    /// The state of `board`'s store, `problem` being why it cannot be used
    /// (as found by the caller), if it cannot.
    pub(crate) fn with(problem: Option<String>, board: &SharedBoard) -> Self {
        let sync = board.sync_state();
        let sync = SyncView {
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

    /// Whether there is nothing to tell: the store answers and nothing
    /// waits or was set aside.
    pub(crate) fn is_fine(&self) -> bool {
        self.problem.is_none() && self.sync.is_none()
    }
}
