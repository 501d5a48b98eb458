// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Named boards: one server holds many, each opened on first use with the
//! configured store, up to `[server] max_boards`.

use std::collections::HashMap;

use parking_lot::Mutex;

use super::config::{Backend, BoardSettings};
use crate::server::BoardName;
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::planning::store::{self, StoreError};

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
    settings: BoardSettings,
    open: Mutex<HashMap<BoardName, SharedBoard>>,
}

impl Boards {
    /// No board open yet.
    pub fn new(settings: BoardSettings) -> Self {
        Self {
            settings,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The board `name`, opened (and with the file backend, loaded) on first use.
    pub fn get(&self, name: &BoardName) -> Result<SharedBoard, OpenError> {
        let mut open = self.open.lock();
        if let Some(board) = open.get(name) {
            return Ok(board.clone());
        }
        let max = self.settings.max_boards;
        if open.len() >= max {
            return Err(OpenError::TooMany(max));
        }
        let board = open_board(&self.settings, name)?;
        open.insert(name.clone(), board.clone());
        Ok(board)
    }

    /// The boards open now, by name.
    #[cfg(test)]
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
        let storage = &self.settings.storage;
        if storage.backend == Backend::File {
            let stored = store::file::stored_names(&store::dir(storage)?)?;
            names.extend(stored.iter().filter_map(|name| BoardName::parse(name)));
        }
        names.sort();
        names.dedup();
        Ok(names)
    }
}

impl Boards {
    /// Board `name` as stored, read without opening it (no lock, nothing
    /// created): `None` when nothing is stored, or when boards live in memory.
    pub fn stored(&self, name: &BoardName) -> Result<Option<Board>, StoreError> {
        let storage = &self.settings.storage;
        if storage.backend == Backend::Memory {
            return Ok(None);
        }
        let planning = &self.settings.planning;
        store::file::read(
            &store::dir(storage)?,
            name.as_str(),
            planning.limits(),
            planning.history_enabled,
        )
    }

    /// Where boards are kept.
    pub fn backend(&self) -> Backend {
        self.settings.storage.backend
    }
}

/// Opens board `name` with the configured store, loading what it holds.
pub fn open_board(settings: &BoardSettings, name: &BoardName) -> Result<SharedBoard, StoreError> {
    let planning = &settings.planning;
    let (limits, history) = (planning.limits(), planning.history_enabled);
    let store = store::open(&settings.storage, name.as_str(), limits, history)?;
    SharedBoard::open(store, Board::new(limits, history))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_separate_and_capped() {
        let settings = BoardSettings {
            max_boards: 2,
            ..BoardSettings::default()
        };
        let boards = Boards::new(settings);
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
        let mut settings = BoardSettings {
            max_boards: 64,
            ..BoardSettings::default()
        };
        settings.storage.backend = Backend::File;
        settings.storage.dir = dir.path().to_path_buf();
        settings.storage.fsync = false;
        for file in ["stored.json", "Not-A-Name.json", "notes.txt"] {
            std::fs::write(dir.path().join(file), "{}").unwrap();
        }
        let boards = Boards::new(settings);
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
