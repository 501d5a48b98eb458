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

mod check_command;
pub(crate) mod check_touches;
mod command;
mod fetch;

pub(crate) use check_command::CHECK_TOUCHES;
pub(crate) use command::SUMMARY;

use crate::config::KeysRead;
use crate::server::settings::Flag;
use crate::server::{BoardName, Enabled};
use crate::toolsets::planning::Planning;
use crate::toolsets::planning::config::Backend;
use crate::toolsets::planning::domain::Board;

use super::domain::{View, digest};
use crate::runtime::clock::Clock;

/// What `summary` reads of the configuration, and so its only flags
/// (besides `--config`): the board's name and where boards are stored.
/// The transport, the port, the toolsets offered and the other toolsets'
/// tables mean nothing to it.
#[derive(Debug)]
pub(crate) struct SummaryKeys;

impl KeysRead for SummaryKeys {
    const KEYS: &'static [&'static str] = &["server.board", "storage."];

    fn help(flag: &Flag) -> &str {
        match flag.key {
            "server.board" => "Board to summarize",
            _ => flag.help,
        }
    }
}

/// What `check-touches` reads of the configuration: as `summary`, the
/// board's name and where boards are stored.
#[derive(Debug)]
pub(crate) struct BoardKeys;

impl KeysRead for BoardKeys {
    const KEYS: &'static [&'static str] = &["server.board", "storage."];

    fn help(flag: &Flag) -> &str {
        match flag.key {
            "server.board" => "Board whose reservations to check",
            _ => flag.help,
        }
    }
}

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

/// The digest of board `name`, from `source`, or why it cannot be had.
pub(crate) fn summary(
    toolsets: &Enabled,
    name: &BoardName,
    source: Source<'_>,
) -> Result<String, String> {
    match source {
        Source::Server { url, token } => fetch::digest(url, name, token),
        Source::Stored => {
            let board = stored_board(toolsets, name, "summary")?;
            let clock = Clock::from_env()?;
            Ok(digest(name.as_str(), View::new(&board, clock.now())))
        }
    }
}

/// Board `name` as the configured file backend stores it (an empty board
/// if none is stored yet), or why `command` cannot read it.
pub(crate) fn stored_board(
    toolsets: &Enabled,
    name: &BoardName,
    command: &str,
) -> Result<Board, String> {
    let Some(planning) = toolsets.state::<Planning>() else {
        return Err(format!(
            "{command} reads toolset planning's boards: enable it (server.toolsets), or pass \
             --url of a server"
        ));
    };
    let boards = planning.boards();
    if boards.backend() == Backend::Memory {
        return Err(format!(
            "board {name} lives in the memory of the server that holds it \
             (storage.backend = memory): pass --url of that server, or use the file \
             backend (--storage file)"
        ));
    }
    let stored = boards.stored(name).map_err(|e| e.to_string())?;
    Ok(stored.unwrap_or_else(|| Board::new(Default::default(), false)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::CommandFlags;

    #[test]
    fn summary_takes_a_flag_for_every_key_it_reads() {
        let taken = CommandFlags::<SummaryKeys>::taken();
        for key in SummaryKeys::KEYS {
            let table = key.strip_suffix('.');
            let covered = taken.iter().any(|flag| match table {
                Some(table) => flag.key.starts_with(&format!("{table}.")),
                None => flag.key == *key,
            });
            assert!(covered, "no flag sets {key}");
        }
        let longs: Vec<&str> = taken.iter().map(|flag| flag.long).collect();
        assert_eq!(longs, ["board", "storage", "storage-dir", "storage-url"]);
    }
}
