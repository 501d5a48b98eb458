// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board that sessions share: a cheap handle around one lock and the
//! board's store. Each call locks, (re)loads if another process changed the
//! board, applies, saves, and unlocks, without awaiting: concurrent callers
//! see one total order of calls, and a reply never claims what is not saved.
//!
//! Every wait is bounded by the lock timeout: a writer waits for this
//! process's other writer and then for the store's lock (another process's
//! save), and gives up with [`CallError::Busy`]; readers wait only for a
//! save in progress. Async callers go through [`SharedBoard::run`], which
//! keeps file I/O and lock waits off the async workers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime};

use parking_lot::{Mutex, RwLock};
use tokio::sync::watch;

use crate::runtime::clock::Clock;
use crate::toolsets::planning::domain::replay::SetAside;
use crate::toolsets::planning::domain::{Board, BoardError, Undo};
use crate::toolsets::planning::store::{SnapshotStore, StoreError};

/// Why a tool call on the shared board failed. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The board refused the request.
    #[error(transparent)]
    Refused(#[from] BoardError),
    /// The change could not be saved, so it was taken back.
    #[error("Nothing changed: the board could not be saved ({}).", .0.public())]
    NotSaved(StoreError),
    /// The stored board could not be read.
    #[error("The board could not be loaded ({}).", .0.public())]
    NotLoaded(StoreError),
    /// Another process held the board's lock for longer than the lock timeout.
    #[error(
        "Nothing was done: another process holds the lock of board {board} and did not release it within {} s (server.lock_timeout); retry later.",
        .timeout.as_secs_f64()
    )]
    Busy {
        /// The board.
        board: String,
        /// The lock timeout the call waited for.
        timeout: Duration,
    },
}

/// How often a watched board checks its store for other processes' changes.
const POLL_INTERVAL: Duration = Duration::from_millis(200);

/// How often it checks all the same when its store announces other
/// processes' changes ([`SnapshotStore::changed_elsewhere`]): a safety net,
/// and the pace at which the check stops once no one watches.
const ANNOUNCED_POLL_INTERVAL: Duration = Duration::from_secs(5);

/// A clonable handle to one board and its store.
#[derive(Debug, Clone)]
pub struct SharedBoard {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// The board's name, for messages.
    name: String,
    board: RwLock<Board>,
    /// Held by the one writer of this process that is changing the board.
    writer: Mutex<()>,
    store: Box<dyn SnapshotStore>,
    /// The longest any call waits for a lock.
    lock_timeout: Duration,
    /// Counts changes; watchers wake on each.
    changes: watch::Sender<u64>,
    /// When the board last changed, as far as this process knows.
    changed_at: Mutex<Option<SystemTime>>,
    /// The clock of `empty` as opened: every board loaded from the store
    /// times its changes by it too.
    clock: Clock,
    /// Whether a task polls the store for changes made by other processes.
    polling: AtomicBool,
    /// The board as it was when the writer of a store that may block (a
    /// push to a git remote, a database) took it: what reads see while the
    /// writer holds `board`, so that they never wait behind the network.
    before_write: Mutex<Option<Arc<Board>>>,
    /// When the store last fetched what other machines wrote, and whether
    /// a fetch runs now ([`SnapshotStore::fetch_every`]).
    pace: FetchPace,
    /// Whether the last fetch failed (so that an offline spell is logged
    /// once, not at every fetch).
    fetch_failing: AtomicBool,
    /// Why the last fetch failed, while it does (for the web board).
    fetch_problem: Mutex<Option<String>>,
}

/// A board's sync with other machines, as last seen
/// ([`SharedBoard::sync_state`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct SyncState {
    /// Whether the board syncs with a remote (a git board with a remote and
    /// `[sync] on_change` or `interval`).
    pub(crate) on: bool,
    /// When this process last reached the remote (a fetch or a push that
    /// went through), if it did ([`SnapshotStore::synced_at`]).
    pub(crate) last_sync: Option<SystemTime>,
    /// Why the last fetch from the remote failed, while it does.
    pub(crate) offline: Option<String>,
    /// Why changes made here are not pushed yet ([`SnapshotStore::unpushed`]).
    pub(crate) unpushed: Option<String>,
}

/// The pace of a store's fetches: one at a time, each at least the
/// store's `fetch_every` after the one before (counted from their starts,
/// so that the staleness bound holds however long a fetch takes).
#[derive(Debug, Default)]
struct FetchPace(Mutex<PaceState>);

#[derive(Debug, Default)]
struct PaceState {
    running: bool,
    last: Option<Instant>,
}

impl FetchPace {
    /// Whether a fetch starts at `now`: none runs, and none started within
    /// `every` before. When it does, it is recorded as running.
    fn start(&self, now: Instant, every: Duration) -> bool {
        let mut state = self.0.lock();
        let due = state
            .last
            .is_none_or(|last| now.saturating_duration_since(last) >= every);
        if state.running || !due {
            return false;
        }
        *state = PaceState {
            running: true,
            last: Some(now),
        };
        true
    }

    /// The running fetch ended.
    fn done(&self) {
        self.0.lock().running = false;
    }
}

/// Ends the fetch it was made for when dropped, even by a panic.
struct Fetching<'a>(&'a FetchPace);

impl Drop for Fetching<'_> {
    fn drop(&mut self) {
        self.0.done();
    }
}

impl SharedBoard {
    /// Shares board `name` as stored in `store`, or `empty` when none is
    /// stored yet, timed by `empty`'s clock; no call waits longer than
    /// `lock_timeout` for a lock.
    pub fn open(
        name: &str,
        store: Box<dyn SnapshotStore>,
        empty: Board,
        lock_timeout: Duration,
    ) -> Result<Self, StoreError> {
        let clock = empty.clock();
        let stored = store.load_if_changed()?;
        let mut board = stored.map_or(empty, |board| board.with_clock(clock));
        // A store with one clock for the board times it from the start.
        if let Some(clock) = store.clock() {
            board.set_clock(clock);
        }
        Ok(Self {
            inner: Arc::new(Inner {
                clock,
                name: name.to_owned(),
                changed_at: Mutex::new(latest_time(&board)),
                board: RwLock::new(board),
                writer: Mutex::new(()),
                store,
                lock_timeout,
                changes: watch::Sender::new(0),
                polling: AtomicBool::new(false),
                before_write: Mutex::new(None),
                pace: FetchPace::default(),
                fetch_failing: AtomicBool::new(false),
                fetch_problem: Mutex::new(None),
            }),
        })
    }

    /// Runs `work` on this board where it cannot stall the async workers:
    /// on a blocking thread when the store does I/O, right here otherwise.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&SharedBoard) -> T + Send + 'static,
    ) -> T {
        if !self.inner.store.may_block() {
            return work(self);
        }
        let board = self.clone();
        crate::runtime::blocking::run(move || work(&board)).await
    }

    /// Whether dropping this handle loses nothing: no one else holds the
    /// board, and it is stored, or holds nothing.
    pub(crate) fn is_idle(&self) -> bool {
        Arc::strong_count(&self.inner) == 1
            && (self.inner.store.persistent()
                || self
                    .inner
                    .board
                    .try_read()
                    .is_some_and(|board| is_blank(&board)))
    }

    fn busy(&self) -> CallError {
        CallError::Busy {
            board: self.inner.name.clone(),
            timeout: self.inner.lock_timeout,
        }
    }

    /// Runs `read` on the current board (reloaded first if another process changed it).
    /// A read whose store lags behind other machines (a git board with
    /// sync on) also starts a fetch in the background when the last one is
    /// older than the store's bound: the read does not wait for it, and
    /// what it brings reaches the next read and wakes the watchers.
    pub(crate) fn read<T>(&self, read: impl FnOnce(&Board) -> T) -> Result<T, CallError> {
        self.fetch_if_due();
        let inner = &*self.inner;
        if !inner.store.may_have_changed() {
            let board = match inner.board.try_read() {
                Some(board) => board,
                None => match self.before_write() {
                    Some(board) => return Ok(read(&board)),
                    None => inner
                        .board
                        .try_read_for(inner.lock_timeout)
                        .ok_or_else(|| self.busy())?,
                },
            };
            return Ok(read(&board));
        }
        let mut board = match inner.board.try_write() {
            Some(board) => board,
            None => match self.before_write() {
                Some(board) => return Ok(read(&board)),
                None => inner
                    .board
                    .try_write_for(inner.lock_timeout)
                    .ok_or_else(|| self.busy())?,
            },
        };
        inner
            .reload_if_changed(&mut board)
            .map_err(CallError::NotLoaded)?;
        Ok(read(&board))
    }

    /// Starts one fetch of what other machines wrote (as tracked blocking
    /// work), when the store lags behind them, no fetch runs and the last
    /// began at least [`SnapshotStore::fetch_every`] ago. Outside a Tokio
    /// runtime (a one-shot CLI read) nothing is fetched.
    fn fetch_if_due(&self) {
        let Some(every) = self.inner.store.fetch_every() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if !self.inner.pace.start(Instant::now(), every) {
            return;
        }
        let board = self.clone();
        runtime.spawn(async move { board.run(SharedBoard::fetch_now).await });
    }

    /// Fetches what other machines wrote; if that moved the stored board,
    /// reloads it and wakes the watchers. A failure (offline) is logged
    /// once per spell: the board goes on as this clone has it.
    fn fetch_now(&self) {
        let inner = &*self.inner;
        let fetched = {
            let _fetching = Fetching(&inner.pace);
            inner.store.fetch()
        };
        *inner.fetch_problem.lock() = fetched.as_ref().err().map(|error| error.public());
        match fetched {
            Ok(changed) => {
                if inner.fetch_failing.swap(false, Ordering::SeqCst) {
                    tracing::info!(board = %inner.name, "the board's remote answers again");
                }
                if changed {
                    reload_for_watchers(self);
                }
            }
            Err(error) if !inner.fetch_failing.swap(true, Ordering::SeqCst) => {
                tracing::warn!(board = %inner.name, %error, "cannot fetch the board from its remote; it reads as this clone has it");
            }
            Err(error) => {
                tracing::debug!(board = %inner.name, %error, "cannot fetch the board from its remote");
            }
        }
    }

    /// Runs `read` on the board as this process last held it, without
    /// asking the store: what the web board shows, with the store's
    /// problem, while the store cannot be reached or the board read.
    pub(crate) fn read_held<T>(&self, read: impl FnOnce(&Board) -> T) -> Result<T, CallError> {
        if let Some(board) = self.before_write() {
            return Ok(read(&board));
        }
        let board = self
            .inner
            .board
            .try_read_for(self.inner.lock_timeout)
            .ok_or_else(|| self.busy())?;
        Ok(read(&board))
    }

    /// The board as the current writer took it, while one writes.
    fn before_write(&self) -> Option<Arc<Board>> {
        self.inner.before_write.lock().clone()
    }

    /// Runs `change` on the current board under the exclusive lock (across
    /// processes too), saves the result, then runs `reply` on the changed
    /// board before anyone else can change it. If the save fails, the change
    /// is taken back and the call fails. A store whose save races (the git
    /// log, whose remote took another clone's push first) has the change
    /// taken back and made again on the board as now stored, so `change`
    /// may run more than once and decides each time anew.
    pub fn mutate<T, R>(
        &self,
        change: impl FnMut(&mut Board) -> Result<(T, Undo), BoardError>,
        reply: impl FnOnce(&Board, T) -> R,
    ) -> Result<R, CallError> {
        self.mutate_with(change, reply)?.map_err(CallError::Refused)
    }

    /// [`Self::mutate`] for a change refused with the caller's own error
    /// type (another toolset's rules): the outer error is the store's, the
    /// inner one the refusal.
    pub fn mutate_with<T, E, R>(
        &self,
        mut change: impl FnMut(&mut Board) -> Result<(T, Undo), E>,
        reply: impl FnOnce(&Board, T) -> R,
    ) -> Result<Result<R, E>, CallError> {
        let inner = &*self.inner;
        let until = Instant::now() + inner.lock_timeout;
        let _writer = inner
            .writer
            .try_lock_until(until)
            .ok_or_else(|| self.busy())?;
        let _lock = inner.store.lock(until).map_err(|error| match error {
            StoreError::Busy { .. } => self.busy(),
            other => CallError::NotSaved(other),
        })?;
        let mut board = inner
            .board
            .try_write_until(until)
            .ok_or_else(|| self.busy())?;
        let mut races = 0;
        // Whether the board changed (reloaded or saved): the watchers are
        // told only once the new board is what reads see, after the lock
        // and the board published for reads are let go. Told earlier, a
        // watcher could wake, read the board as it was before the change
        // (`before_write`) and never hear of the change again.
        let mut changed = false;
        let published = Published(&inner.before_write);
        let outcome = loop {
            match inner.reload(&mut board) {
                Ok(reloaded) => changed |= reloaded,
                Err(error) => break Err(CallError::NotLoaded(error)),
            }
            if inner.store.may_block() {
                *inner.before_write.lock() = Some(Arc::new(board.clone()));
            }
            let (outcome, undo) = match change(&mut board) {
                Ok(made) => made,
                Err(refused) => break Ok(Err(refused)),
            };
            match inner.store.save(&board, undo.change()) {
                Ok(()) => {
                    changed = true;
                    break Ok(Ok(reply(&board, outcome)));
                }
                Err(StoreError::Raced) if races < inner.store.races() => {
                    board.undo(undo);
                    races += 1;
                }
                Err(error) => {
                    board.undo(undo);
                    tracing::error!(board = %inner.name, %error, "a change was not saved and was taken back");
                    break Err(CallError::NotSaved(error));
                }
            }
        };
        drop(published);
        drop(board);
        if changed {
            inner.changed();
        }
        outcome
    }

    /// The time now as the board tells it: its store's clock when the store
    /// keeps one for every process (the database's, read with the call's
    /// load: inside [`Self::mutate`]'s change, under the lock), else `local`.
    /// Leases are decided by it, so that replicas whose own clocks differ
    /// agree on when one ends.
    pub(crate) fn now(&self, local: Clock) -> SystemTime {
        self.inner
            .store
            .clock()
            .map_or_else(|| local.now(), |clock| clock.now())
    }

    /// What the board's store has to tell `agent` (or, with `None`, a
    /// caller that names no agent) and has not told yet: e.g. operations
    /// of this clone that a merge of the git log set aside. Told once each.
    pub(crate) fn notices(&self, agent: Option<&str>) -> Vec<String> {
        self.inner.store.notices(agent)
    }

    /// What the replay of the board's stored log set aside, oldest first
    /// (a git board's; for the digest): as of the last load or save.
    pub(crate) fn set_aside(&self) -> Arc<[SetAside]> {
        self.inner.store.set_aside()
    }

    /// The board's sync with other machines: whether the remote answers
    /// the fetches, and whether changes wait here to be pushed.
    pub(crate) fn sync_state(&self) -> SyncState {
        let store = &self.inner.store;
        SyncState {
            on: store.fetch_every().is_some(),
            offline: self.inner.fetch_problem.lock().clone(),
            unpushed: store.unpushed(),
            last_sync: store.synced_at(),
        }
    }

    /// When the board last changed: the time of the last change this process
    /// made or noticed, or for a board as loaded, its newest task or history
    /// entry. `None` for a board that never held anything.
    pub(crate) fn changed_at(&self) -> Option<SystemTime> {
        *self.inner.changed_at.lock()
    }

    /// The board's revision: how many changes this process has seen (the
    /// number [`Self::watch`] sends, and `wait_for` takes).
    pub(crate) fn revision(&self) -> u64 {
        *self.inner.changes.borrow()
    }

    /// A receiver that wakes whenever the board changes: through this
    /// process, or through the store, by another process (checked every
    /// 200 ms while anyone watches, or as soon as a store that announces
    /// changes announces one; a board only this process holds, in memory,
    /// is not checked at all), or by another machine (a store that lags
    /// behind others fetches every [`SnapshotStore::fetch_every`] while
    /// anyone watches). Needs a Tokio runtime.
    pub fn watch(&self) -> watch::Receiver<u64> {
        let receiver = self.inner.changes.subscribe();
        let elsewhere = self.inner.store.persistent();
        if elsewhere && !self.inner.polling.swap(true, Ordering::SeqCst) {
            tokio::spawn(poll_store(Arc::downgrade(&self.inner)));
        }
        receiver
    }
}

/// Whether a board holds nothing at all: no goal, no task, no history.
/// Clears the board published for reads when the writer is done.
struct Published<'a>(&'a Mutex<Option<Arc<Board>>>);

impl Drop for Published<'_> {
    fn drop(&mut self) {
        *self.0.lock() = None;
    }
}

fn is_blank(board: &Board) -> bool {
    board.goal().is_none()
        && board.is_empty()
        && board
            .history()
            .is_none_or(|history| history.entries().next().is_none())
}

impl Inner {
    /// Replaces the board with the stored one if that changed, and tells
    /// watchers (the caller holds the board's write lock, and publishes no
    /// older board for reads: a watcher that wakes waits for the lock).
    fn reload_if_changed(&self, board: &mut Board) -> Result<(), StoreError> {
        if self.reload(board)? {
            self.changed();
        }
        Ok(())
    }

    /// Replaces the board with the stored one if that changed, and answers
    /// whether it did; the caller tells the watchers.
    fn reload(&self, board: &mut Board) -> Result<bool, StoreError> {
        let reloaded = match self.store.load_if_changed()? {
            Some(stored) => {
                *board = stored.with_clock(self.clock);
                true
            }
            None => false,
        };
        // A store with one clock for every process times the board's
        // changes too (as read just now, with the load).
        if let Some(clock) = self.store.clock() {
            board.set_clock(clock);
        }
        Ok(reloaded)
    }

    /// Records that the board changed now, and wakes watchers.
    fn changed(&self) {
        *self.changed_at.lock() = Some(self.clock.now());
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
/// while anyone watches; stops when the last watcher is gone. A store that
/// announces changes is checked when it does (and every 5 s all the same),
/// others every 200 ms.
async fn poll_store(inner: Weak<Inner>) {
    let mut announced = inner
        .upgrade()
        .and_then(|inner| inner.store.changed_elsewhere());
    let every = match announced {
        Some(_) => ANNOUNCED_POLL_INTERVAL,
        None => POLL_INTERVAL,
    };
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        match announced.as_mut() {
            Some(changes) => tokio::select! {
                _ = tick.tick() => {}
                changed = changes.changed() => {
                    if changed.is_err() {
                        announced = None;
                    }
                }
            },
            None => {
                tick.tick().await;
            }
        }
        let Some(inner) = inner.upgrade() else { return };
        if inner.changes.receiver_count() == 0 {
            inner.polling.store(false, Ordering::SeqCst);
            // A watcher that came meanwhile saw `polling` still set: go on for it.
            if inner.changes.receiver_count() == 0 || inner.polling.swap(true, Ordering::SeqCst) {
                return;
            }
        }
        let board = SharedBoard { inner };
        // While anyone watches or waits, what other machines wrote arrives
        // within the store's bound, without anyone reading.
        board.fetch_if_due();
        board.run(reload_for_watchers).await;
    }
}

/// Reloads the board if another process changed it; a failure is logged
/// (the watchers see the board as it was).
fn reload_for_watchers(board: &SharedBoard) {
    let inner = &*board.inner;
    if !inner.store.may_have_changed() {
        return;
    }
    let Some(mut current) = inner.board.try_write_for(inner.lock_timeout) else {
        return;
    };
    if let Err(error) = inner.reload_if_changed(&mut current) {
        tracing::warn!(board = %inner.name, %error, "cannot reload a board that another process changed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::action::Done;
    use crate::toolsets::planning::domain::{Limits, NewTask};
    use crate::toolsets::planning::store::{MemoryStore, WriteLock};

    /// A store whose saves fail while `failing` is set.
    #[derive(Debug, Default)]
    struct FlakyStore {
        failing: std::sync::atomic::AtomicBool,
        saves: std::sync::atomic::AtomicUsize,
    }

    impl SnapshotStore for Arc<FlakyStore> {
        fn lock(&self, _until: Instant) -> Result<WriteLock<'_>, StoreError> {
            Ok(Box::new(()))
        }
        fn may_block(&self) -> bool {
            false
        }
        fn persistent(&self) -> bool {
            true
        }
        fn may_have_changed(&self) -> bool {
            false
        }
        fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
            Ok(None)
        }
        fn save(&self, _board: &Board, _change: &Done) -> Result<(), StoreError> {
            if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
                return Err(StoreError::Write {
                    path: "/full/default.json".into(),
                    source: std::io::Error::other("No space left on device"),
                });
            }
            self.saves.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(())
        }
    }

    fn open(store: Box<dyn SnapshotStore>) -> Result<SharedBoard, StoreError> {
        let empty = Board::new(Limits::default(), true);
        SharedBoard::open("default", store, empty, Duration::from_secs(30))
    }

    fn add(board: &SharedBoard, title: &str) -> Result<usize, CallError> {
        let task = NewTask::new(title, "");
        board.mutate(|b| b.add_tasks(std::slice::from_ref(&task)), |b, _| b.len())
    }

    #[test]
    fn a_failed_save_takes_the_change_back() {
        let store = Arc::new(FlakyStore::default());
        let board = open(Box::new(store.clone())).unwrap();
        assert_eq!(add(&board, "kept").unwrap(), 1);
        store
            .failing
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let error = add(&board, "lost").unwrap_err();
        assert_eq!(
            error.to_string(),
            "Nothing changed: the board could not be saved (cannot save default.json: No space left on device)."
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
        let board = open(Box::new(store.clone())).unwrap();
        assert!(matches!(add(&board, " "), Err(CallError::Refused(_))));
        assert_eq!(store.saves.load(std::sync::atomic::Ordering::SeqCst), 0);
    }

    /// Exactly what wakes a subscriber: an end-to-end test can only show
    /// that nothing arrived before a later notification; here the receiver
    /// says whether it was woken at all.
    /// A store whose calls may block (as the file backend's do): reads
    /// during a write see the board as it was before it.
    #[derive(Debug, Default)]
    struct SlowStore;

    impl SnapshotStore for SlowStore {
        fn lock(&self, _until: Instant) -> Result<WriteLock<'_>, StoreError> {
            Ok(Box::new(()))
        }
        fn may_block(&self) -> bool {
            true
        }
        fn persistent(&self) -> bool {
            false
        }
        fn may_have_changed(&self) -> bool {
            false
        }
        fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
            Ok(None)
        }
        fn save(&self, _board: &Board, _change: &Done) -> Result<(), StoreError> {
            Ok(())
        }
    }

    /// A watcher is told of a change only once a read shows it: while the
    /// writer still holds the board (here: in its reply), reads see the
    /// board as before, so a watcher woken then would read the old board
    /// and miss the change for good (the web page that said "Live" and
    /// never showed a task added after a restart).
    #[tokio::test]
    async fn a_watcher_is_told_of_a_change_only_once_reads_show_it() {
        let board = open(Box::new(SlowStore)).unwrap();
        let mut watcher = board.watch();
        let (in_reply, replying) = std::sync::mpsc::channel();
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let writer = {
            let board = board.clone();
            std::thread::spawn(move || {
                let task = NewTask::new("Told once shown", "");
                board.mutate(
                    |b| b.add_tasks(std::slice::from_ref(&task)),
                    |b, _| {
                        in_reply.send(()).unwrap();
                        wait.recv().unwrap();
                        b.len()
                    },
                )
            })
        };
        replying.recv().unwrap();
        assert_eq!(
            board.read(Board::len).unwrap(),
            0,
            "the board before the change"
        );
        assert!(
            !watcher.has_changed().unwrap(),
            "not told while reads show the old board"
        );
        go.send(()).unwrap();
        assert_eq!(writer.join().unwrap().unwrap(), 1);
        watcher.changed().await.unwrap();
        assert_eq!(
            board.read(Board::len).unwrap(),
            1,
            "told: the read shows it"
        );
    }

    #[tokio::test]
    async fn only_a_saved_change_wakes_watchers() {
        use std::sync::atomic::Ordering::SeqCst;
        let store = Arc::new(FlakyStore::default());
        let board = open(Box::new(store.clone())).unwrap();
        let watcher = board.watch();
        assert!(matches!(add(&board, " "), Err(CallError::Refused(_))));
        assert!(!watcher.has_changed().unwrap(), "a refused change");
        store.failing.store(true, SeqCst);
        assert!(matches!(add(&board, "lost"), Err(CallError::NotSaved(_))));
        assert!(!watcher.has_changed().unwrap(), "a change taken back");
        store.failing.store(false, SeqCst);
        assert_eq!(board.read(Board::len).unwrap(), 0);
        assert!(!watcher.has_changed().unwrap(), "a read");
        assert_eq!(add(&board, "kept").unwrap(), 1);
        assert!(watcher.has_changed().unwrap(), "a saved change");
    }

    #[tokio::test]
    async fn a_board_only_in_memory_is_watched_without_polling_a_store() {
        let board = open(Box::new(MemoryStore)).unwrap();
        let watcher = board.watch();
        assert!(!board.inner.polling.load(Ordering::SeqCst));
        assert_eq!(add(&board, "seen").unwrap(), 1);
        assert!(watcher.has_changed().unwrap());
        // A stored board is checked for other processes' changes.
        let dir = tempfile::tempdir().unwrap();
        let store = crate::toolsets::planning::store::FileStore::open(
            dir.path(),
            "default",
            false,
            Limits::default(),
            true,
        );
        let stored = open(Box::new(store.unwrap())).unwrap();
        let _watcher = stored.watch();
        assert!(stored.inner.polling.load(Ordering::SeqCst));
    }

    #[test]
    fn boards_loaded_from_the_store_keep_the_clock_they_were_opened_with() {
        use crate::toolsets::planning::store::FileStore;
        let dir = tempfile::tempdir().unwrap();
        let store = || {
            let store = FileStore::open(dir.path(), "default", false, Limits::default(), true);
            Box::new(store.unwrap())
        };
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000);
        let empty = Board::new(Limits::default(), true).with_clock(Clock::fixed(at));
        let ours = SharedBoard::open("default", store(), empty, Duration::from_secs(30)).unwrap();
        // Another process (a board on the system clock) saves first: ours
        // reloads its board and still times its own change by its clock.
        let theirs = open(store()).unwrap();
        add(&theirs, "theirs").unwrap();
        add(&ours, "ours").unwrap();
        let created: Vec<(String, bool)> = ours
            .read(|b| {
                b.tasks()
                    .map(|t| (t.title.clone(), t.created_at == at))
                    .collect()
            })
            .unwrap();
        assert_eq!(created, [("theirs".into(), false), ("ours".into(), true)]);
        assert_eq!(ours.changed_at(), Some(at));
        let reopened = Board::new(Limits::default(), true).with_clock(Clock::fixed(at));
        let again = SharedBoard::open("default", store(), reopened, Duration::from_secs(30));
        assert_eq!(again.unwrap().read(Board::clock).unwrap(), Clock::fixed(at));
    }

    /// A store that lags behind other machines: it counts its fetches.
    #[derive(Debug)]
    struct LaggingStore {
        every: Duration,
        fetches: watch::Sender<usize>,
    }

    impl LaggingStore {
        fn new(every: Duration) -> Arc<Self> {
            Arc::new(Self {
                every,
                fetches: watch::Sender::new(0),
            })
        }

        fn fetches(&self) -> usize {
            *self.fetches.borrow()
        }
    }

    impl SnapshotStore for Arc<LaggingStore> {
        fn lock(&self, _until: Instant) -> Result<WriteLock<'_>, StoreError> {
            Ok(Box::new(()))
        }
        fn may_block(&self) -> bool {
            false
        }
        fn persistent(&self) -> bool {
            true
        }
        fn may_have_changed(&self) -> bool {
            false
        }
        fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
            Ok(None)
        }
        fn save(&self, _board: &Board, _change: &Done) -> Result<(), StoreError> {
            Ok(())
        }
        fn fetch_every(&self) -> Option<Duration> {
            Some(self.every)
        }
        fn fetch(&self) -> Result<bool, StoreError> {
            self.fetches.send_modify(|n| *n += 1);
            Ok(false)
        }
    }

    /// Lets every task that can run, run.
    async fn settle_tasks() {
        for _ in 0..100 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_board_nobody_reads_fetches_nothing_and_reads_fetch_at_the_stores_pace() {
        let store = LaggingStore::new(Duration::from_secs(3600));
        let board = open(Box::new(store.clone())).unwrap();
        settle_tasks().await;
        assert_eq!(store.fetches(), 0, "opened, read by nobody");
        board.read(Board::len).unwrap();
        let mut fetches = store.fetches.subscribe();
        fetches.wait_for(|n| *n == 1).await.unwrap();
        // Within the store's bound, reads answer without fetching again.
        for _ in 0..100 {
            board.read(Board::len).unwrap();
        }
        settle_tasks().await;
        assert_eq!(store.fetches(), 1);
        // Outside a runtime (a one-shot CLI read), nothing fetches.
        let idle = LaggingStore::new(Duration::ZERO);
        let other = open(Box::new(idle.clone())).unwrap();
        std::thread::spawn(move || other.read(Board::len).unwrap())
            .join()
            .unwrap();
        settle_tasks().await;
        assert_eq!(idle.fetches(), 0);
    }

    #[tokio::test]
    async fn a_watcher_keeps_the_board_fetching_until_it_goes() {
        let store = LaggingStore::new(Duration::ZERO);
        let board = open(Box::new(store.clone())).unwrap();
        let watcher = board.watch();
        // Nobody reads: the watch alone fetches, again and again.
        let mut fetches = store.fetches.subscribe();
        fetches.wait_for(|n| *n >= 3).await.unwrap();
        drop(watcher);
        while board.inner.polling.load(Ordering::SeqCst) || board.inner.pace.0.lock().running {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let after = store.fetches();
        settle_tasks().await;
        assert_eq!(store.fetches(), after, "no one looks: nothing fetches");
    }

    #[test]
    fn fetches_run_one_at_a_time_at_the_stores_pace() {
        let pace = FetchPace::default();
        let (t0, every) = (Instant::now(), Duration::from_secs(2));
        assert!(pace.start(t0, every));
        assert!(!pace.start(t0 + every * 3, every), "one runs");
        pace.done();
        assert!(
            !pace.start(t0 + every / 2, every),
            "too soon after it began"
        );
        assert!(pace.start(t0 + every, every));
        drop(Fetching(&pace));
        assert!(pace.start(t0 + every * 2, every));
    }

    #[test]
    fn memory_boards_start_empty() {
        let board = open(Box::new(MemoryStore)).unwrap();
        assert_eq!(board.read(Board::len).unwrap(), 0);
    }
}
