// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team`'s subcommands. `planning-mcp-server summary [--board
//! NAME] [--url URL]` prints the digest of a board (at most 1,500
//! characters), for client hooks that re-inject it at session start and
//! before a context compaction; `check-touches` reports staged files inside
//! another agent's reservation, for a git pre-commit hook. Both read the
//! stored board (file backend; nothing is locked or created) or ask a
//! running HTTP server (`GET /boards/{name}/digest`, `.../reservations`).
//! Each subcommand, its arguments and its run, is in `command` and
//! `check_command`.

mod board_command;
mod board_tasks;
mod board_write;
mod check_command;
pub(crate) mod check_touches;
mod command;
mod fetch;
mod statusline_command;

pub(crate) use board_command::BOARD;
pub(crate) use check_command::CHECK_TOUCHES;
pub(crate) use command::SUMMARY;
pub(crate) use statusline_command::STATUSLINE;

use std::sync::Arc;

use crate::runtime::text::escaped;
use crate::server::{BoardName, Enabled};
use crate::toolsets::planning::Planning;
use crate::toolsets::planning::config::Backend;
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::domain::replay::SetAside;
use crate::toolsets::planning::store;

use super::domain::{View, digest};
use crate::runtime::clock::Clock;

/// What `summary` and `check-touches` read of the configuration, and so
/// their only flags (besides `--config`): the board's name and where boards
/// are stored. The transport, the port, the toolsets offered and the other
/// toolsets' tables mean nothing to them.
pub(crate) const BOARD_KEYS: &[&str] = &["server.board", "storage."];

/// Where the digest comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source<'a> {
    /// The board as stored by the configured file backend.
    Stored,
    /// A running server in HTTP mode at `url` (its base or its `/mcp`).
    Server {
        /// E.g. `http://localhost:8080`.
        url: &'a str,
        /// The bearer token, if the server wants one.
        token: Option<&'a str>,
    },
}

/// The digest of board `name`, from `source`, or why it cannot be had. A
/// stored board that is missing or empty is named by where it would be.
pub(crate) fn summary(
    toolsets: &Enabled,
    name: &BoardName,
    source: Source<'_>,
) -> Result<String, String> {
    match source {
        Source::Server { url, token } => fetch::digest(url, name, token),
        Source::Stored => {
            let stored = stored_board(toolsets, name, "summary")?;
            let clock = Clock::from_env()?;
            let view = View::new(&stored.board, clock.now()).with_set_aside(&stored.set_aside);
            let digest = digest(name.as_str(), view);
            Ok(match stored.note() {
                Some(note) => format!("{digest}\n{note}"),
                None => digest,
            })
        }
    }
}

/// A board as its store holds it, and where that is.
#[derive(Debug)]
pub(crate) struct Stored {
    /// The board (an empty one when none is stored).
    pub(crate) board: Board,
    /// What the replay of its git log set aside, oldest first.
    pub(crate) set_aside: Arc<[SetAside]>,
    /// Its name.
    pub(crate) name: BoardName,
    /// Where it is kept: its file, git ref or database.
    pub(crate) location: String,
    /// Whether the store holds it at all.
    pub(crate) exists: bool,
}

impl Stored {
    /// The line that names the board when it is missing or empty, so that
    /// a reader of a wrong place (another worktree's board, a mistyped
    /// directory) sees which one it read.
    pub(crate) fn note(&self) -> Option<String> {
        let (name, location) = (&self.name, escaped(&self.location));
        match (self.exists, self.board.tasks().len()) {
            (false, _) => Some(format!("Board {name}: none is stored at {location}.")),
            (true, 0) => Some(format!("Board {name} at {location} holds no task.")),
            _ => None,
        }
    }
}

/// Board `name` as the configured store keeps it, or why `command` cannot
/// read it. The team's commands read the board its server uses: an unset
/// `storage.share_worktrees` shares the repository's board, as a server
/// with toolset team does (the hooks run them without `--toolsets`).
pub(crate) fn stored_board(
    toolsets: &Enabled,
    name: &BoardName,
    command: &str,
) -> Result<Stored, String> {
    let Some(planning) = toolsets.state::<Planning>() else {
        return Err(format!(
            "{command} reads toolset planning's boards: enable it (server.toolsets), or pass \
             --url of a server"
        ));
    };
    let settings = planning.boards().settings();
    let mut storage = settings.storage.clone();
    storage.share_by_default = true;
    if storage.backend == Backend::Memory {
        // A fresh clone without the settings file that said 'git' still
        // has its boards in git (here, or on the remote): say so.
        let timeout = std::time::Duration::from_secs(settings.sync.git_timeout.min(10));
        let found = store::repository_dir(&storage).ok().and_then(|dir| {
            store::git_log::detect::boards_in_git(&dir, Some(&settings.sync.remote), timeout)
        });
        if let Some(found) = found {
            return Err(format!(
                "board {name} is not read: {}",
                store::git_log::detect::advice(&found)
            ));
        }
        return Err(format!(
            "board {name} lives in the memory of the server that holds it \
             (storage.backend = memory): pass --url of that server"
        ));
    }
    let location = store::location(&storage, name.as_str());
    let stored = store::Storage::new(&storage, &settings.sync)
        .read(
            name.as_str(),
            settings.planning.limits(),
            settings.planning.history_enabled,
        )
        .map_err(|e| e.to_string())?;
    let (board, set_aside) = match stored {
        Some(read) => (Some(read.board), read.set_aside),
        None => (None, Arc::from([])),
    };
    Ok(Stored {
        exists: board.is_some(),
        board: board.unwrap_or_else(|| Board::new(Default::default(), false)),
        set_aside,
        name: name.clone(),
        location,
    })
}
