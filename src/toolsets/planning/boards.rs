// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Named boards: one server holds many, each opened on first use with the
//! configured store, up to `[server] max_boards`.

use std::collections::HashMap;
use std::fmt;

use parking_lot::Mutex;

use crate::config::{Backend, Config};
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::planning::store::{self, StoreError};

/// A valid board name: `^[a-z0-9][a-z0-9_-]{0,63}$`. A name is never a path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardName(String);

impl BoardName {
    /// The board served at `/mcp` and by default in stdio mode.
    pub const DEFAULT: &str = "default";

    /// Checks a name; anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let mut bytes = text.bytes();
        let first_ok = bytes
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        let rest_ok =
            bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-');
        (first_ok && rest_ok && text.len() <= 64).then(|| Self(text.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The board served at `/mcp`.
    pub fn default_board() -> Self {
        Self(Self::DEFAULT.to_owned())
    }
}

impl fmt::Display for BoardName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a board could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// `max_boards` boards are open already.
    #[error(
        "this server holds its maximum of {0} boards (server.max_boards); use an existing board"
    )]
    TooMany(usize),
    /// The board's store failed (e.g. a corrupt snapshot).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The boards of one server, opened on first use.
#[derive(Debug)]
pub struct Boards {
    config: Config,
    open: Mutex<HashMap<BoardName, SharedBoard>>,
}

impl Boards {
    /// No board open yet.
    pub fn new(config: Config) -> Self {
        Self {
            config,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The board `name`, opened (and with the file backend, loaded) on first use.
    pub fn get(&self, name: &BoardName) -> Result<SharedBoard, OpenError> {
        let mut open = self.open.lock();
        if let Some(board) = open.get(name) {
            return Ok(board.clone());
        }
        let max = self.config.server.max_boards;
        if open.len() >= max {
            return Err(OpenError::TooMany(max));
        }
        let board = open_board(&self.config, name)?;
        open.insert(name.clone(), board.clone());
        Ok(board)
    }

    /// The configuration the boards are opened with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The boards open now, by name.
    pub fn list(&self) -> Vec<(BoardName, SharedBoard)> {
        let mut boards: Vec<_> = self
            .open
            .lock()
            .iter()
            .map(|(name, board)| (name.clone(), board.clone()))
            .collect();
        boards.sort_by(|a, b| a.0.cmp(&b.0));
        boards
    }

    /// The boards this server knows of, sorted: those open now and, with the
    /// file backend, those stored in `storage.dir` (not opened by this call).
    /// Files whose stem is not a valid name are left out.
    pub fn known_names(&self) -> Result<Vec<BoardName>, StoreError> {
        let mut names: Vec<BoardName> = self.open.lock().keys().cloned().collect();
        if self.config.storage.backend == Backend::File {
            let stored = store::file::stored_names(&self.config.storage.dir)?;
            names.extend(stored.iter().filter_map(|name| BoardName::parse(name)));
        }
        names.sort();
        names.dedup();
        Ok(names)
    }
}

/// Opens board `name` with the configured store, loading what it holds.
pub fn open_board(config: &Config, name: &BoardName) -> Result<SharedBoard, StoreError> {
    let planning = &config.planning;
    let (limits, history) = (planning.limits(), planning.history_enabled);
    let store = store::open(&config.storage, name.as_str(), limits, history)?;
    SharedBoard::open(store, Board::new(limits, history))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_pattern() {
        for good in ["default", "a", "0", "team-1", "a_b", &"x".repeat(64)] {
            assert!(BoardName::parse(good).is_some(), "{good}");
        }
        for bad in [
            "",
            "-a",
            "_a",
            "A",
            "a.b",
            "../etc",
            "a/b",
            "é",
            " a",
            &"x".repeat(65),
        ] {
            assert!(BoardName::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn boards_are_separate_and_capped() {
        let mut config = Config::default();
        config.server.max_boards = 2;
        let boards = Boards::new(config);
        let [a, b, c] = ["a", "b", "c"].map(|n| BoardName::parse(n).unwrap());
        let first = boards.get(&a).unwrap();
        let task = crate::toolsets::planning::domain::NewTask::new("only on a", "");
        first
            .mutate(|board| board.add_tasks(&[task]), |_, _| ())
            .unwrap();
        assert_eq!(
            boards.get(&a).unwrap().read(Board::len).unwrap(),
            1,
            "same board again"
        );
        assert_eq!(boards.get(&b).unwrap().read(Board::len).unwrap(), 0);
        assert!(matches!(boards.get(&c), Err(OpenError::TooMany(2))));
        let names: Vec<String> = boards.list().iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(boards.known_names().unwrap(), [a, b]);
    }

    #[test]
    fn stored_boards_are_known_before_they_are_opened() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::default();
        config.storage.backend = Backend::File;
        config.storage.dir = dir.path().to_path_buf();
        config.storage.fsync = false;
        for file in ["stored.json", "Not-A-Name.json", "notes.txt"] {
            std::fs::write(dir.path().join(file), "{}").unwrap();
        }
        let boards = Boards::new(config);
        let opened = BoardName::parse("opened").unwrap();
        boards.get(&opened).unwrap();
        let names: Vec<String> = boards
            .known_names()
            .unwrap()
            .iter()
            .map(|n| n.to_string())
            .collect();
        assert_eq!(names, ["opened", "stored"]);
        assert_eq!(boards.list().len(), 1, "listing opens nothing");
    }
}
