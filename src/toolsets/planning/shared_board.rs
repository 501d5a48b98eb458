// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board that sessions share: a cheap handle around one lock and the
//! board's store. Each call locks, (re)loads if another process changed the
//! board, applies, saves, and unlocks, without awaiting: concurrent callers
//! see one total order of calls, and a reply never claims what is not saved.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, SystemTime};

use parking_lot::{Mutex, RwLock};
use tokio::sync::watch;

use crate::toolsets::planning::domain::{Board, BoardError, Undo};
use crate::toolsets::planning::store::{SnapshotStore, StoreError};

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

/// How often a watched board checks its store for other processes' changes.
const POLL_INTERVAL: Duration = Duration::from_millis(200);

/// A clonable handle to one board and its store.
#[derive(Debug, Clone)]
pub struct SharedBoard {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    board: RwLock<Board>,
    store: Box<dyn SnapshotStore>,
    /// Counts changes; watchers wake on each.
    changes: watch::Sender<u64>,
    /// When the board last changed, as far as this process knows.
    changed_at: Mutex<Option<SystemTime>>,
    /// Whether a task polls the store for changes made by other processes.
    polling: AtomicBool,
}

impl SharedBoard {
    /// Shares the board stored in `store`, or `empty` when none is stored yet.
    pub fn open(store: Box<dyn SnapshotStore>, empty: Board) -> Result<Self, StoreError> {
        let board = store.load_if_changed()?.unwrap_or(empty);
        Ok(Self {
            inner: Arc::new(Inner {
                changed_at: Mutex::new(latest_time(&board)),
                board: RwLock::new(board),
                store,
                changes: watch::Sender::new(0),
                polling: AtomicBool::new(false),
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
        inner
            .reload_if_changed(&mut board)
            .map_err(CallError::NotLoaded)?;
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
        self.mutate_with(change, reply)?.map_err(CallError::Refused)
    }

    /// [`Self::mutate`] for a change refused with the caller's own error
    /// type (another toolset's rules): the outer error is the store's, the
    /// inner one the refusal.
    pub fn mutate_with<T, E, R>(
        &self,
        change: impl FnOnce(&mut Board) -> Result<(T, Undo), E>,
        reply: impl FnOnce(&Board, T) -> R,
    ) -> Result<Result<R, E>, CallError> {
        let inner = &*self.inner;
        let mut board = inner.board.write();
        let _lock = inner.store.lock().map_err(CallError::NotSaved)?;
        inner
            .reload_if_changed(&mut board)
            .map_err(CallError::NotLoaded)?;
        let (outcome, undo) = match change(&mut board) {
            Ok(changed) => changed,
            Err(refused) => return Ok(Err(refused)),
        };
        if let Err(error) = inner.store.save(&board) {
            board.undo(undo);
            tracing::error!(%error, "a change was not saved and was taken back");
            return Err(CallError::NotSaved(error));
        }
        inner.changed();
        Ok(Ok(reply(&board, outcome)))
    }

    /// When the board last changed: the time of the last change this process
    /// made or noticed, or for a board as loaded, its newest task or history
    /// entry. `None` for a board that never held anything.
    pub fn changed_at(&self) -> Option<SystemTime> {
        *self.inner.changed_at.lock()
    }

    /// A receiver that wakes whenever the board changes: through this
    /// process, or (checked every 200 ms while anyone watches) through the
    /// store, by another process. Needs a Tokio runtime.
    pub fn watch(&self) -> watch::Receiver<u64> {
        let receiver = self.inner.changes.subscribe();
        if !self.inner.polling.swap(true, Ordering::SeqCst) {
            tokio::spawn(poll_store(Arc::downgrade(&self.inner)));
        }
        receiver
    }
}

impl Inner {
    /// Replaces the board with the stored one if that changed, and tells watchers.
    fn reload_if_changed(&self, board: &mut Board) -> Result<(), StoreError> {
        if let Some(stored) = self.store.load_if_changed()? {
            *board = stored;
            self.changed();
        }
        Ok(())
    }

    /// Records that the board changed now, and wakes watchers.
    fn changed(&self) {
        *self.changed_at.lock() = Some(SystemTime::now());
        self.changes.send_modify(|n| *n += 1);
    }
}

/// The newest time a board's content records: its newest task or history entry.
fn latest_time(board: &Board) -> Option<SystemTime> {
    let tasks = board.tasks().map(|task| task.created_at);
    let history = board
        .history()
        .into_iter()
        .flat_map(|h| h.entries().map(|e| e.at));
    tasks.chain(history).max()
}

/// Reloads the board whenever its store changed behind this process's back,
/// while anyone watches; stops when the last watcher is gone.
async fn poll_store(inner: Weak<Inner>) {
    let mut tick = tokio::time::interval(POLL_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        if inner.changes.receiver_count() == 0 {
            inner.polling.store(false, Ordering::SeqCst);
            // A watcher that came meanwhile saw `polling` still set: go on for it.
            if inner.changes.receiver_count() == 0 || inner.polling.swap(true, Ordering::SeqCst) {
                return;
            }
        }
        if inner.store.may_have_changed() {
            let reloaded = inner.reload_if_changed(&mut inner.board.write());
            if let Err(error) = reloaded {
                tracing::warn!(%error, "cannot reload a board that another process changed");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Limits, NewTask};
    use crate::toolsets::planning::store::{MemoryStore, WriteLock};

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
        let task = NewTask::new(title, "");
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
