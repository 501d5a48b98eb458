// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Named boards: one server holds many, each opened on first use with the
//! configured store, up to `[server] max_boards` at once. A board is created
//! by an MCP session ([`Boards::get`]); a read ([`Boards::get_stored`]) only
//! opens a board that exists. When the cap is reached, boards that no one
//! uses and that are stored (or hold nothing) are dropped from memory, so
//! the cap bounds the boards in use, not every name ever asked for.

use std::collections::HashMap;

use parking_lot::Mutex;

use super::config::BoardSettings;
use crate::server::BoardName;
use crate::server::toolset;
use crate::toolsets::planning::domain::Board;
use crate::toolsets::planning::shared_board::SharedBoard;
use crate::toolsets::planning::store::{Storage, StoreError};

/// Why a board could not be opened.
#[derive(Debug, thiserror::Error)]
pub(crate) enum OpenError {
    /// `max_boards` boards are in use already.
    #[error(
        "this server holds its maximum of {0} boards (server.max_boards); use an existing board"
    )]
    TooMany(usize),
    /// The board's store failed (e.g. a corrupt snapshot).
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl OpenError {
    /// The message for answers that leave the server: no directories.
    pub(crate) fn public(&self) -> String {
        match self {
            Self::Store(error) => error.public(),
            other => other.to_string(),
        }
    }
}

/// The boards of one server, opened on first use.
#[derive(Debug)]
pub(crate) struct Boards {
    settings: BoardSettings,
    /// The configured backend, built once.
    storage: Storage,
    open: Mutex<HashMap<BoardName, SharedBoard>>,
}

impl Boards {
    /// No board open yet.
    pub(crate) fn new(settings: BoardSettings) -> Self {
        Self {
            storage: Storage::new(&settings.storage, &settings.sync),
            settings,
            open: Mutex::new(HashMap::new()),
        }
    }

    /// The board `name`, opened (and with the file backend, loaded) on
    /// first use, or created empty. Blocks on file I/O.
    /// Board `name` for a toolset's tools on it: a cap reached is
    /// [`Full`](toolset::OpenError::Full); a store that failed is logged
    /// whole and answered without its directories.
    pub(crate) fn for_tools(&self, name: &BoardName) -> Result<SharedBoard, toolset::OpenError> {
        self.get(name).map_err(|error| match error {
            OpenError::TooMany(_) => toolset::OpenError::Full(error.to_string()),
            OpenError::Store(StoreError::Unusable { .. }) => {
                tracing::error!(board = %name, %error, "cannot open a board");
                toolset::OpenError::Unusable(error.public())
            }
            OpenError::Store(_) => {
                tracing::error!(board = %name, %error, "cannot open a board");
                toolset::OpenError::Failed(error.public())
            }
        })
    }

    pub(crate) fn get(&self, name: &BoardName) -> Result<SharedBoard, OpenError> {
        if let Some(board) = self.open.lock().get(name) {
            return Ok(board.clone());
        }
        self.open_new(name)
    }

    /// The board `name` if it exists: open now, or stored. Never creates a
    /// board (nor any file). Blocks on file I/O.
    pub(crate) fn get_stored(&self, name: &BoardName) -> Result<Option<SharedBoard>, OpenError> {
        if let Some(board) = self.open.lock().get(name) {
            return Ok(Some(board.clone()));
        }
        match self.storage.exists(name.as_str())? {
            true => self.open_new(name).map(Some),
            false => Ok(None),
        }
    }

    /// Opens board `name`, which is not open, within the cap. The file is
    /// read without holding the map's lock, so that a slow disk stalls only
    /// this board; a board that another caller opened meanwhile wins.
    fn open_new(&self, name: &BoardName) -> Result<SharedBoard, OpenError> {
        self.make_room(&mut self.open.lock())?;
        let board = open_board(&self.settings, &self.storage, name)?;
        let mut open = self.open.lock();
        if let Some(theirs) = open.get(name) {
            return Ok(theirs.clone());
        }
        self.make_room(&mut open)?;
        open.insert(name.clone(), board.clone());
        Ok(board)
    }

    /// Makes room for one more board, dropping idle ones, or refuses.
    fn make_room(&self, open: &mut HashMap<BoardName, SharedBoard>) -> Result<(), OpenError> {
        let max = self.settings.max_boards;
        if open.len() >= max {
            open.retain(|_, board| !board.is_idle());
        }
        match open.len() < max {
            true => Ok(()),
            false => Err(OpenError::TooMany(max)),
        }
    }

    /// The boards open now, by name (for team's notifier, which watches them).
    pub(crate) fn list(&self) -> Vec<(BoardName, SharedBoard)> {
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
    /// file backend, those stored in `storage.dir`, with the postgres
    /// backend, those in the database (not opened by this call). Stored
    /// names that are not valid names are left out.
    pub(crate) fn known_names(&self) -> Result<Vec<BoardName>, StoreError> {
        let mut names: Vec<BoardName> = self.open.lock().keys().cloned().collect();
        let stored = self.storage.names()?;
        names.extend(stored.iter().filter_map(|name| BoardName::parse(name)));
        names.sort();
        names.dedup();
        Ok(names)
    }
}

impl Boards {
    /// Whether their store can be used now, within `limit` ([`Storage::reachable`]).
    pub(crate) fn reachable(&self, limit: std::time::Duration) -> Result<(), String> {
        self.storage.reachable(limit)
    }

    /// The settings the boards are opened with (for `sync`, `import` and
    /// `export`).
    pub(crate) fn settings(&self) -> &BoardSettings {
        &self.settings
    }
}

/// Opens board `name` in `storage` (the backend `settings` configure),
/// loading what it holds.
fn open_board(
    settings: &BoardSettings,
    storage: &Storage,
    name: &BoardName,
) -> Result<SharedBoard, StoreError> {
    let planning = &settings.planning;
    let (limits, history) = (planning.limits(), planning.history_enabled);
    let store = storage.open(name.as_str(), limits, history, settings.clock)?;
    SharedBoard::open(
        name.as_str(),
        store,
        Board::new(limits, history).with_clock(settings.clock),
        settings.lock_timeout,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::config::Backend;
    use crate::toolsets::planning::domain::NewTask;

    fn name(text: &str) -> BoardName {
        BoardName::parse(text).unwrap()
    }

    fn add(board: &SharedBoard, title: &str) {
        board
            .mutate(|b| b.add_tasks(&[NewTask::new(title, "")]), |_, _| ())
            .unwrap();
    }

    fn file_settings(dir: &std::path::Path, max_boards: usize) -> BoardSettings {
        let mut settings = BoardSettings {
            max_boards,
            ..BoardSettings::default()
        };
        settings.storage.backend = Backend::File;
        settings.storage.dir = dir.to_path_buf();
        settings.storage.fsync = false;
        settings
    }

    #[test]
    fn boards_are_separate_and_capped_while_in_use() {
        let settings = BoardSettings {
            max_boards: 2,
            ..BoardSettings::default()
        };
        let boards = Boards::new(settings);
        let (a, b, c) = (name("a"), name("b"), name("c"));
        let first = boards.get(&a).unwrap();
        add(&first, "only on a");
        assert_eq!(
            boards.get(&a).unwrap().read(Board::len).unwrap(),
            1,
            "same board again"
        );
        let second = boards.get(&b).unwrap();
        assert_eq!(second.read(Board::len).unwrap(), 0);
        assert!(matches!(boards.get(&c), Err(OpenError::TooMany(2))));
        let names: Vec<String> = boards.list().iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(boards.known_names().unwrap(), [a.clone(), b]);

        // An unused empty memory board makes room; one that holds tasks stays.
        drop((first, second));
        boards.get(&c).unwrap();
        let names: Vec<String> = boards.list().iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(boards.get(&a).unwrap().read(Board::len).unwrap(), 1);
    }

    /// A change wakes the watchers of its own board only (the end-to-end
    /// test can only show that nothing arrived before a later notification).
    #[tokio::test]
    async fn a_change_wakes_only_its_own_boards_watchers() {
        let boards = Boards::new(BoardSettings::default());
        let (a, b) = (
            boards.get(&name("a")).unwrap(),
            boards.get(&name("b")).unwrap(),
        );
        let (on_a, on_b) = (a.watch(), b.watch());
        add(&b, "only on b");
        assert!(!on_a.has_changed().unwrap());
        assert!(on_b.has_changed().unwrap());
    }

    #[test]
    fn reads_open_only_boards_that_exist_and_create_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let boards = Boards::new(file_settings(dir.path(), 4));
        assert!(boards.get_stored(&name("ghost")).unwrap().is_none());
        let made = boards.get(&name("made")).unwrap();
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "opening a board writes nothing"
        );
        add(&made, "saved");
        let files = |dir: &std::path::Path| {
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        assert_eq!(files(dir.path()), ["made.json", "made.json.lock"]);
        let other = Boards::new(file_settings(dir.path(), 4));
        let read = other.get_stored(&name("made")).unwrap().unwrap();
        assert_eq!(read.read(Board::len).unwrap(), 1);
        assert!(other.get_stored(&name("ghost")).unwrap().is_none());
        assert_eq!(files(dir.path()), ["made.json", "made.json.lock"]);
    }

    #[test]
    fn idle_stored_boards_are_dropped_to_make_room() {
        let dir = tempfile::tempdir().unwrap();
        let writer = Boards::new(file_settings(dir.path(), 64));
        for n in 0..5 {
            add(&writer.get(&name(&format!("b{n}"))).unwrap(), "kept");
        }
        let boards = Boards::new(file_settings(dir.path(), 2));
        for n in 0..5 {
            let board = boards.get_stored(&name(&format!("b{n}"))).unwrap().unwrap();
            assert_eq!(board.read(Board::len).unwrap(), 1);
        }
        assert!(boards.list().len() <= 2);
        let held = boards.get(&name("b0")).unwrap();
        let also = boards.get(&name("b1")).unwrap();
        assert!(matches!(
            boards.get_stored(&name("b2")),
            Err(OpenError::TooMany(2))
        ));
        drop((held, also));
        assert!(boards.get_stored(&name("b2")).unwrap().is_some());
    }

    #[test]
    fn stored_boards_are_known_before_they_are_opened() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["stored.json", "Not-A-Name.json", "notes.txt"] {
            std::fs::write(dir.path().join(file), "{}").unwrap();
        }
        let boards = Boards::new(file_settings(dir.path(), 64));
        let opened = name("opened");
        let _held = boards.get(&opened).unwrap();
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
