// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board that sessions share: a cheap handle around one lock and the
//! board's store. Each call locks, (re)loads if another process changed the
//! board, applies, saves, and unlocks, without awaiting: concurrent callers
//! see one total order of calls, and a reply never claims what is not saved.

use std::sync::Arc;

use parking_lot::RwLock;

use crate::board::{Board, BoardError, Undo};
use crate::store::{SnapshotStore, StoreError};

/// Why a tool call on the shared board failed. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The board refused the request.
    #[error(transparent)]
    Refused(#[from] BoardError),
    /// The change could not be saved, so it was taken back.
    #[error("Nothing changed: the board could not be saved ({0}).")]
    NotSaved(StoreError),
    /// The stored board could not be read.
    #[error("The board could not be loaded ({0}).")]
    NotLoaded(StoreError),
}

/// A clonable handle to one board and its store.
#[derive(Debug, Clone)]
pub struct SharedBoard {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    board: RwLock<Board>,
    store: Box<dyn SnapshotStore>,
}

impl SharedBoard {
    /// Shares the board stored in `store`, or `empty` when none is stored yet.
    pub fn open(store: Box<dyn SnapshotStore>, empty: Board) -> Result<Self, StoreError> {
        let board = store.load_if_changed()?.unwrap_or(empty);
        Ok(Self {
            inner: Arc::new(Inner {
                board: RwLock::new(board),
                store,
            }),
        })
    }

    /// Describes where the board is kept, for logs.
    pub fn storage(&self) -> String {
        self.inner.store.describe()
    }

    /// Runs `read` on the current board (reloaded first if another process changed it).
    pub fn read<T>(&self, read: impl FnOnce(&Board) -> T) -> Result<T, CallError> {
        let inner = &*self.inner;
        if !inner.store.may_have_changed() {
            return Ok(read(&inner.board.read()));
        }
        let mut board = inner.board.write();
        if let Some(stored) = inner
            .store
            .load_if_changed()
            .map_err(CallError::NotLoaded)?
        {
            *board = stored;
        }
        Ok(read(&board))
    }

    /// Runs `change` on the current board under the exclusive lock (across
    /// processes too), saves the result, then runs `reply` on the changed
    /// board before anyone else can change it. If the save fails, the change
    /// is taken back and the call fails.
    pub fn mutate<T, R>(
        &self,
        change: impl FnOnce(&mut Board) -> Result<(T, Undo), BoardError>,
        reply: impl FnOnce(&Board, T) -> R,
    ) -> Result<R, CallError> {
        let inner = &*self.inner;
        let mut board = inner.board.write();
        let _lock = inner.store.lock().map_err(CallError::NotSaved)?;
        if let Some(stored) = inner
            .store
            .load_if_changed()
            .map_err(CallError::NotLoaded)?
        {
            *board = stored;
        }
        let (outcome, undo) = change(&mut board)?;
        if let Err(error) = inner.store.save(&board) {
            board.undo(undo);
            tracing::error!(%error, "a change was not saved and was taken back");
            return Err(CallError::NotSaved(error));
        }
        Ok(reply(&board, outcome))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Limits, NewTask};
    use crate::store::{MemoryStore, WriteLock};

    /// A store whose saves fail while `failing` is set.
    #[derive(Debug, Default)]
    struct FlakyStore {
        failing: std::sync::atomic::AtomicBool,
        saves: std::sync::atomic::AtomicUsize,
    }

    impl SnapshotStore for Arc<FlakyStore> {
        fn lock(&self) -> Result<WriteLock<'_>, StoreError> {
            Ok(Box::new(()))
        }
        fn may_have_changed(&self) -> bool {
            false
        }
        fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
            Ok(None)
        }
        fn save(&self, _board: &Board) -> Result<(), StoreError> {
            if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
                return Err(StoreError::Write {
                    path: "/full/default.json".into(),
                    source: std::io::Error::other("No space left on device"),
                });
            }
            self.saves.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(())
        }
        fn describe(&self) -> String {
            "flaky".into()
        }
    }

    fn add(board: &SharedBoard, title: &str) -> Result<usize, CallError> {
        let task = NewTask {
            title: title.into(),
            description: String::new(),
        };
        board.mutate(|b| b.add_tasks(&[task]), |b, _| b.len())
    }

    #[test]
    fn a_failed_save_takes_the_change_back() {
        let store = Arc::new(FlakyStore::default());
        let board = SharedBoard::open(Box::new(store.clone()), Board::new(Limits::default(), true))
            .unwrap();
        assert_eq!(add(&board, "kept").unwrap(), 1);
        store
            .failing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let error = add(&board, "lost").unwrap_err();
        assert_eq!(
            error.to_string(),
            "Nothing changed: the board could not be saved (cannot save /full/default.json: No space left on device)."
        );
        let titles = board
            .read(|b| b.tasks().map(|t| t.title.clone()).collect::<Vec<_>>())
            .unwrap();
        assert_eq!(titles, ["kept"]);
        store
            .failing
            .store(false, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(add(&board, "later").unwrap(), 2);
        assert_eq!(store.saves.load(std::sync::atomic::Ordering::SeqCst), 2);
    }

    #[test]
    fn a_refused_change_is_not_saved() {
        let store = Arc::new(FlakyStore::default());
        let board = SharedBoard::open(Box::new(store.clone()), Board::new(Limits::default(), true))
            .unwrap();
        assert!(matches!(add(&board, " "), Err(CallError::Refused(_))));
        assert_eq!(store.saves.load(std::sync::atomic::Ordering::SeqCst), 0);
    }

    #[test]
    fn memory_boards_start_empty() {
        let board =
            SharedBoard::open(Box::new(MemoryStore), Board::new(Limits::default(), true)).unwrap();
        assert_eq!(board.read(Board::len).unwrap(), 0);
        assert_eq!(board.storage(), "memory");
    }
}
