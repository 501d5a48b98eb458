// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `git` backend: a board is the replay of its log at
//! `refs/planning/boards/{name}`. A save appends the change it is handed
//! as one operation (a commit; the ref moves by compare-and-swap under the
//! board's lock file, shared by every process and worktree of the clone).
//! With `[sync] on_change`, the save also pushes it before the call
//! replies: a push someone beat fetches and merges, takes the operation
//! back and answers [`StoreError::Raced`], so that the shared board makes
//! the change again on the merged board (a claim on a task another clone
//! claimed first is then refused by toolset team's own rule). Offline, the
//! operation stays here (a claim becomes provisional) and the reply says
//! so.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;

use super::fetched;
use super::git::{Git, Pushed};
use super::place::{Place, local_ref};
use super::settings::SyncSettings;
use super::stored::{LogError, Logs, StoredLog};
use super::sync::{
    KeepError, Plan, SyncError, fetch_board, keep_lost, lock, now_micros, remote_log, sync_board,
    writes_under,
};
use crate::runtime::clock::Clock;
use crate::runtime::file_lock::{Access, FileLock, LockError};
use crate::toolsets::planning::domain::action::Done;
use crate::toolsets::planning::domain::replay::{
    CheckpointId, ClaimMode, Op, OpId, Replica, SetAside, State,
};
use crate::toolsets::planning::domain::{Board, Limits};
use crate::toolsets::planning::store::{SnapshotStore, StoreError, WriteLock};

/// How stale a board kept in git grows, at most, behind its remote while
/// anyone reads, watches or waits on it with sync on (`[sync] on_change`
/// or `interval`): each read fetches in the background when the last
/// fetch is older, and while anyone watches or waits a fetch runs this
/// often (docs/sync.md, "Fresh boards").
pub(crate) const FETCH_EVERY: Duration = Duration::from_secs(2);

/// A board kept as a log in git.
#[derive(Debug)]
pub struct GitLogStore {
    board: String,
    logs: Logs,
    place: Place,
    sync: SyncSettings,
    /// Whether the configured remote exists (checked at opening): without
    /// one, the log compacts here.
    has_remote: bool,
    inner: Mutex<Inner>,
    /// What the newest replay set aside, oldest first: apart from `inner`,
    /// so that a digest never waits for a save that pushes.
    set_aside: Mutex<Arc<[SetAside]>>,
    /// `Inner::offline`, apart from it for the same reason.
    unpushed: Mutex<Option<String>>,
    /// When this process last reached the remote (a fetch or a push that
    /// went through), for the web board.
    synced_at: Mutex<Option<SystemTime>>,
    /// The newest stamp the replay applied (microseconds) and when this
    /// clone first read it: the board's clock reads no earlier than it,
    /// plus the time since ([`SnapshotStore::clock`]).
    newest: Mutex<(u64, Instant)>,
}

#[derive(Debug, Default)]
struct Inner {
    /// The log at the ref, as last read or written.
    stored: StoredLog,
    /// Its replay.
    state: Option<State>,
    /// The ref files as last seen.
    seen: Option<Vec<Option<FileId>>>,
    /// Whether the stored board was handed out once.
    loaded: bool,
    /// This clone's replica, once known.
    replica: Option<Replica>,
    /// The problem of the last push, while offline.
    offline: Option<String>,
    /// Set-aside operations and offline notices already told.
    told: HashSet<String>,
    /// Provisional claims made here that no sync confirmed yet.
    provisional: Vec<OpId>,
}

/// A file's identity, to notice a rename over it.
type FileId = (u64, u64, u64, i64, i64);

impl GitLogStore {
    /// Opens board `name` in the repository around `dir`.
    pub fn open(
        dir: &Path,
        name: &str,
        sync: SyncSettings,
        limits: Limits,
        history_enabled: bool,
    ) -> Result<Self, StoreError> {
        let timeout = Duration::from_secs(sync.git_timeout);
        let git =
            Git::open(dir, timeout).map_err(|error| StoreError::NoRepository(error.to_string()))?;
        let place = Place::new(git.common_dir());
        let has_remote = git
            .remotes()
            .map(|remotes| remotes.contains(&sync.remote))
            .map_err(|e| git_error(name, e.to_string()))?;
        Ok(Self {
            board: name.to_owned(),
            logs: Logs::new(git, limits, history_enabled),
            place,
            sync,
            has_remote,
            inner: Mutex::new(Inner::default()),
            set_aside: Mutex::new(Arc::from([])),
            unpushed: Mutex::new(None),
            synced_at: Mutex::new(None),
            newest: Mutex::new((0, Instant::now())),
        })
    }

    /// This store, with `clock` as this machine's: what the replay trusts
    /// stamps by, and what the board's clock reads when the log holds
    /// nothing newer (the server's clock; tests: a clone whose clock runs
    /// ahead or behind).
    pub(crate) fn with_clock(mut self, clock: Clock) -> Self {
        self.logs = self.logs.with_clock(clock);
        self
    }

    /// Keeps `state` as the replay of the stored log, and what it set aside.
    fn keep(&self, inner: &mut Inner, state: State) {
        // A repeat's action stands: its writer is not told (`sync` says it).
        let told: Vec<SetAside> = state
            .set_aside
            .iter()
            .filter(|aside| aside.is_told())
            .cloned()
            .collect();
        *self.set_aside.lock() = Arc::from(told);
        let mut newest = self.newest.lock();
        if newest.0 != state.max_stamp {
            *newest = (state.max_stamp, Instant::now());
        }
        drop(newest);
        inner.state = Some(state);
    }

    /// What the newest replay of the log set aside, oldest first.
    pub(crate) fn set_aside(&self) -> Arc<[SetAside]> {
        self.set_aside.lock().clone()
    }

    /// Whether board `name` has a log in the repository around `dir`.
    pub(crate) fn exists(dir: &Path, name: &str) -> bool {
        Git::open(dir, Duration::from_secs(60))
            .and_then(|git| git.resolve(&local_ref(name)))
            .is_ok_and(|commit| commit.is_some())
    }

    /// The names of the boards with a log in the repository around `dir`.
    pub(crate) fn stored_names(dir: &Path) -> Result<Vec<String>, StoreError> {
        let git = Git::open(dir, Duration::from_secs(60))
            .map_err(|error| StoreError::NoRepository(error.to_string()))?;
        let refs = git
            .refs(super::place::BOARDS)
            .map_err(|e| git_error("*", e.to_string()))?;
        Ok(refs
            .into_iter()
            .filter_map(|(name, _)| name.strip_prefix(super::place::BOARDS).map(str::to_owned))
            .collect())
    }

    /// The identities of the files that move with the ref.
    fn ref_identity(&self) -> Vec<Option<FileId>> {
        use std::os::unix::fs::MetadataExt;
        self.place
            .ref_files(&self.board)
            .iter()
            .map(|path| {
                std::fs::metadata(path)
                    .ok()
                    .map(|m| (m.dev(), m.ino(), m.size(), m.mtime(), m.mtime_nsec()))
            })
            .collect()
    }

    /// Reads the log at the ref if it moved; returns whether it did.
    fn refresh(&self, inner: &mut Inner) -> Result<bool, StoreError> {
        let seen = self.ref_identity();
        let git = self.logs.git();
        let commit = git
            .resolve(&local_ref(&self.board))
            .map_err(|e| self.error(e.to_string()))?;
        inner.seen = Some(seen);
        if commit == inner.stored.commit && inner.state.is_some() {
            return Ok(false);
        }
        let stored = self
            .logs
            .read(commit.as_deref())
            .map_err(|e| self.log_error(e))?;
        self.keep(inner, stored.log.replay(self.logs.empty()));
        inner.stored = stored;
        Ok(true)
    }

    fn error(&self, problem: String) -> StoreError {
        git_error(&self.board, problem)
    }

    fn log_error(&self, error: LogError) -> StoreError {
        match error {
            LogError::Git(_) | LogError::TooLarge(_) => self.error(error.to_string()),
            LogError::Unusable(problem) => StoreError::Invalid {
                path: PathBuf::from(local_ref(&self.board)),
                problem,
            },
        }
    }

    /// This clone's replica, read each time: a sync may have renewed it
    /// (another clone wrote under it).
    fn replica(&self, inner: &mut Inner) -> Result<Replica, StoreError> {
        let replica = self.place.replica().map_err(|source| StoreError::Write {
            path: self.place.lock_path(&self.board),
            source,
        })?;
        inner.replica = Some(replica);
        Ok(replica)
    }

    /// Moves the local ref from `old` to `new` (deletes it for a `new`
    /// without a commit); `false` if it had moved.
    fn move_ref(&self, new: &StoredLog, old: &StoredLog) -> Result<bool, StoreError> {
        let git = self.logs.git();
        let name = local_ref(&self.board);
        let moved = match (new.commit.as_deref(), old.commit.as_deref()) {
            (Some(commit), old) => git.update_ref(&name, commit, old),
            (None, Some(old)) => git.delete_ref(&name, old).map(|()| true),
            (None, None) => Ok(true),
        };
        moved.map_err(|e| self.error(e.to_string()))
    }

    /// Pushes `written` (the log with the new operation, whose ref is
    /// moved) when sync on change is on. A push someone beat takes the
    /// operation back, merges the remote's log and answers `Raced`; a push
    /// that failed or did not end in time keeps it here and says so. Any
    /// other failure takes the operation back before it answers, so that
    /// the log is as it was before the call whenever the reply says
    /// nothing changed.
    fn push(
        &self,
        inner: &mut Inner,
        before: &StoredLog,
        written: &StoredLog,
        op: &Op,
    ) -> Result<(), StoreError> {
        match self.try_push(inner, before, written, op) {
            Err(error @ StoreError::Raced) => Err(error),
            Err(error) => {
                if self.move_ref(before, written)? {
                    inner.stored = before.clone();
                }
                inner.state = None;
                Err(error)
            }
            done => done,
        }
    }

    fn try_push(
        &self,
        inner: &mut Inner,
        before: &StoredLog,
        written: &StoredLog,
        op: &Op,
    ) -> Result<(), StoreError> {
        let git = self.logs.git();
        let (remote, board) = (self.sync.remote.as_str(), self.board.as_str());
        let last = fetched::last(git, &self.place, remote)
            .map_err(|e| self.error(e.to_string()))?
            .get(board);
        let (fetched, lease) =
            remote_log(git, last.as_deref()).map_err(|e| self.error(e.to_string()))?;
        let Some(commit) = written.commit.as_deref() else {
            return Ok(());
        };
        // The lease is the remote's log as this log merged it: a fetch
        // (`sync`, the interval's task) may have moved the tracking ref to
        // operations not merged here yet, and a push over them would drop
        // them from the remote.
        let merged = match (&fetched, before.commit.as_deref()) {
            (None, _) => true,
            (Some(theirs), Some(ours)) => self
                .logs
                .holds_commit(ours, theirs)
                .map_err(|e| self.log_error(e))?,
            (Some(_), None) => false,
        };
        if !merged {
            return self.take_back_and_merge(inner, before, written, fetched.as_deref());
        }
        let expected = lease;
        let pushed = git
            .push(remote, commit, &local_ref(board), expected.as_deref())
            .map_err(|e| self.error(e.to_string()))?;
        match pushed {
            Pushed::Done => {
                let _ = fetched::record(git, &self.place, remote, board, commit);
                inner.offline = None;
                *self.unpushed.lock() = None;
                *self.synced_at.lock() = Some(SystemTime::now());
                Ok(())
            }
            Pushed::Rejected(problem) => {
                // A race if the remote's log moved since our last fetch.
                let value = match fetched::fetch(git, &self.place, remote) {
                    Ok(fetched) => fetched.get(board),
                    Err(error) => return self.kept_here(inner, before, written, op, error.problem),
                };
                let (theirs, now) =
                    remote_log(git, value.as_deref()).map_err(|e| self.error(e.to_string()))?;
                if now == expected {
                    return self.kept_here(inner, before, written, op, problem);
                }
                self.take_back_and_merge(inner, before, written, theirs.as_deref())
            }
            Pushed::Failed(problem) => self.kept_here(inner, before, written, op, problem),
        }
    }

    /// Takes the operation back (it was never acknowledged), merges the
    /// remote's log at `theirs` into the log before it, and answers
    /// `Raced`: the caller decides again on the merged board.
    fn take_back_and_merge(
        &self,
        inner: &mut Inner,
        before: &StoredLog,
        written: &StoredLog,
        theirs: Option<&str>,
    ) -> Result<(), StoreError> {
        if !self.move_ref(before, written)? {
            inner.state = None;
            return Err(StoreError::Raced);
        }
        inner.stored = before.clone();
        inner.state = None;
        let theirs = self.logs.read(theirs).map_err(|e| self.log_error(e))?;
        if let Some(replica) = inner.replica
            && writes_under(replica, before, &theirs)
        {
            self.place
                .renew_replica(replica)
                .map_err(|source| StoreError::Write {
                    path: self.place.lock_path(&self.board),
                    source,
                })?;
        }
        let merged = self
            .logs
            .merge(before, &theirs)
            .map_err(|e| self.log_error(e))?;
        let (merged, _) =
            keep_lost(&self.logs, &self.place, before, merged).map_err(|e| match e {
                KeepError::Log(error) => self.log_error(error),
                KeepError::Replica(source) => StoreError::Write {
                    path: self.place.lock_path(&self.board),
                    source,
                },
            })?;
        if self.move_ref(&merged, before)? {
            inner.stored = merged;
        }
        Err(StoreError::Raced)
    }

    /// The push failed: the operation stays here, synced later. A claim
    /// that the remote never acknowledged becomes provisional.
    fn kept_here(
        &self,
        inner: &mut Inner,
        before: &StoredLog,
        written: &StoredLog,
        op: &Op,
        problem: String,
    ) -> Result<(), StoreError> {
        if op.claim == Some(ClaimMode::Confirmed) {
            let provisional = Op {
                claim: Some(ClaimMode::Provisional),
                ..op.clone()
            };
            let rewritten = self
                .logs
                .append(before, provisional)
                .map_err(|e| self.log_error(e))?;
            if self.move_ref(&rewritten, written)? {
                inner.stored = rewritten;
                inner.state = None;
            }
            inner.provisional.push(op.id);
        }
        tracing::warn!(board = %self.board, remote = %self.sync.remote, %problem, "a change was kept here: the push failed");
        // Whole: the web board shows it, escaped (the agents' notice clips it).
        *self.unpushed.lock() = Some(problem.clone());
        inner.offline = Some(problem);
        Ok(())
    }

    /// A fetch's failure, in the words a person reads on the web board:
    /// git's (the command it ran goes to the log only).
    fn sync_error(&self, error: SyncError) -> StoreError {
        match error {
            SyncError::Git(git) => {
                tracing::debug!(board = %self.board, command = %git.command, "a fetch failed");
                self.error(format!(
                    "cannot sync with {}: {}",
                    self.sync.remote, git.problem
                ))
            }
            other => self.error(other.to_string()),
        }
    }

    /// Forgets the last push's problem once the remote holds all of this
    /// clone's log (pushed by a sync: this process's fetch, `sync`, the
    /// interval's task). Checked under the board's lock, which every
    /// writer holds while it pushes and records a failed push; a writer
    /// holding it now records for itself.
    fn forget_pushed(&self) {
        let Ok(_lock) = lock(&self.place, &self.board, Instant::now()) else {
            return;
        };
        let git = self.logs.git();
        let last = fetched::last(git, &self.place, &self.sync.remote)
            .ok()
            .and_then(|fetched| fetched.get(&self.board));
        let pushed = match (
            git.resolve(&local_ref(&self.board)),
            remote_log(git, last.as_deref()),
        ) {
            (Ok(None), _) => true,
            (Ok(Some(ours)), Ok((Some(theirs), _))) => {
                self.logs.holds_commit(&theirs, &ours).unwrap_or(false)
            }
            _ => false,
        };
        if pushed {
            *self.unpushed.lock() = None;
        }
    }

    /// Compacts the log here when it has grown and no remote is
    /// configured (with a remote, the sync compacts through it).
    fn compact_locally(&self, inner: &mut Inner, replica: Replica) -> Result<(), StoreError> {
        if self.has_remote || inner.stored.log.len() < self.sync.checkpoint_every {
            return Ok(());
        }
        let before = inner.stored.clone();
        let id = CheckpointId {
            stamp: before.log.next_id(replica, now_micros()).stamp,
            replica,
        };
        let compacted = self
            .logs
            .compact(&before, id)
            .map_err(|e| self.log_error(e))?;
        if self.move_ref(&compacted, &before)? {
            inner.stored = compacted;
            inner.state = None;
        }
        Ok(())
    }

    /// What this process has not yet told about the log: operations set
    /// aside (for `agent`'s, or this clone's planning changes), a change
    /// kept here because the push failed, claims still provisional.
    pub(crate) fn notices(&self, agent: Option<&str>) -> Vec<String> {
        // While a save pushes, its own reply tells what it did; what is
        // left is told by the next call.
        let Some(mut inner) = self.inner.try_lock() else {
            return Vec::new();
        };
        let inner = &mut *inner;
        let mut notices = Vec::new();
        if let Some(problem) = &inner.offline {
            let key = format!("offline:{problem}");
            if inner.told.insert(key) {
                notices.push(format!(
                    "Sync: kept on this clone, not pushed ({}); it syncs at the next sync.",
                    crate::runtime::text::clip(problem)
                ));
            }
        }
        let Some(state) = &inner.state else {
            return notices;
        };
        let replica = inner.replica;
        for aside in state.set_aside.iter().filter(|aside| aside.is_told()) {
            let ours = match (&aside.agent, agent) {
                (Some(theirs), Some(agent)) => theirs == agent,
                (None, _) => Some(aside.op.replica) == replica,
                (Some(_), None) => false,
            };
            if ours && inner.told.insert(format!("aside:{}", aside.key())) {
                notices.push(aside.notice());
            }
        }
        for (task, origin) in &state.claims {
            if origin.mode == ClaimMode::Provisional
                && inner.provisional.contains(&origin.op)
                && inner.told.insert(format!("provisional:{}", origin.op))
            {
                notices.push(format!(
                    "Sync: the claim of [{task}] is provisional until the next sync; a claim \
                     confirmed on another clone meanwhile takes it over."
                ));
            }
        }
        notices
    }
}

fn git_error(board: &str, problem: String) -> StoreError {
    StoreError::Git {
        board: board.to_owned(),
        problem,
    }
}

impl SnapshotStore for GitLogStore {
    fn lock(&self, until: Instant) -> Result<WriteLock<'_>, StoreError> {
        let file = self
            .place
            .lock_file(&self.board)
            .map_err(|source| StoreError::Lock {
                path: self.place.lock_path(&self.board),
                source,
            })?;
        match FileLock::wait(file, Access::Exclusive, until) {
            Ok(lock) => Ok(Box::new(lock)),
            Err(LockError::Held) => Err(StoreError::Busy {
                board: self.board.clone(),
                lock: self.place.lock_path(&self.board),
            }),
            Err(LockError::Io(source)) => Err(StoreError::Lock {
                path: self.place.lock_path(&self.board),
                source,
            }),
        }
    }

    fn may_block(&self) -> bool {
        true
    }

    fn persistent(&self) -> bool {
        true
    }

    fn may_have_changed(&self) -> bool {
        // A save of this process holds the state while it pushes (up to
        // `sync.git_timeout`): under the board's lock nobody else changes
        // the log meanwhile, so a read goes on with the board it has.
        let Some(inner) = self.inner.try_lock() else {
            return false;
        };
        inner.state.is_none() || inner.seen.as_ref() != Some(&self.ref_identity())
    }

    fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
        let mut inner = self.inner.lock();
        let first = !inner.loaded;
        let changed = self.refresh(&mut inner)?;
        inner.loaded = true;
        if !(changed || first) || inner.stored.commit.is_none() {
            return Ok(None);
        }
        Ok(inner.state.as_ref().map(|state| state.board.clone()))
    }

    fn save(&self, board: &Board, done: &Done) -> Result<(), StoreError> {
        let mut inner = self.inner.lock();
        let inner = &mut *inner;
        if done.action.is_empty() {
            return Ok(());
        }
        // The ref must be where the board was read from: a writer that
        // went around the lock makes the caller decide again.
        let at_ref = self
            .logs
            .git()
            .resolve(&local_ref(&self.board))
            .map_err(|e| self.error(e.to_string()))?;
        if at_ref != inner.stored.commit || inner.state.is_none() {
            inner.state = None;
            return Err(StoreError::Raced);
        }
        let replica = self.replica(inner)?;
        let now = board
            .clock()
            .now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
        let claims = done.action.claims();
        let claim = claims.then_some(match self.sync.on_change && self.has_remote {
            true => ClaimMode::Confirmed,
            false => ClaimMode::Provisional,
        });
        let op = operation(done, inner.stored.log.next_id(replica, now), claim);
        // Replayed on the stored state, the operation makes the board the
        // change made (the property `replaying_the_change_gives_its_board`
        // in replay_props.rs); the stored state then is that replay.
        let mut next = inner
            .state
            .clone()
            .unwrap_or_else(|| State::new(self.logs.empty()));
        let set_aside = next.set_aside_count;
        next.apply(&op);
        debug_assert_eq!(
            next.set_aside_count, set_aside,
            "a change made here is never set aside"
        );
        let before = inner.stored.clone();
        let written = self
            .logs
            .append(&before, op.clone())
            .map_err(|e| self.log_error(e))?;
        if !self.move_ref(&written, &before)? {
            inner.state = None;
            return Err(StoreError::Raced);
        }
        inner.stored = written.clone();
        self.keep(inner, next);
        inner.seen = Some(self.ref_identity());
        if self.sync.on_change && self.has_remote {
            self.push(inner, &before, &written, &op)?;
        } else if claims {
            inner.provisional.push(op.id);
        }
        self.compact_locally(inner, replica)?;
        if inner.state.is_none() {
            let state = inner.stored.log.replay(self.logs.empty());
            self.keep(inner, state);
            inner.seen = Some(self.ref_identity());
        }
        Ok(())
    }

    /// This machine's clock, or the newest operation's stamp the log
    /// applied while the clock is behind it: one clone's leases and times
    /// never run behind what it read from another (docs/sync.md, "Leases
    /// and clocks"). Only trusted stamps count (at most `MAX_SKEW` past
    /// this machine's clock), so no clone moves another's clock further.
    fn clock(&self) -> Option<Clock> {
        use crate::toolsets::planning::domain::replay::log::{micros, trusted_until};
        let own = self.logs.clock();
        // A checkpoint's own record of its newest stamp is bounded too.
        let (newest, read) = *self.newest.lock();
        let since = u64::try_from(read.elapsed().as_micros()).unwrap_or(u64::MAX);
        let bound = trusted_until(micros(own.now())).saturating_sub(since);
        let newest = UNIX_EPOCH + Duration::from_micros(newest.min(bound));
        Some(own.at_least(newest, read))
    }

    fn races(&self) -> u32 {
        match self.sync.on_change && self.has_remote {
            true => self.sync.retries,
            false => 2,
        }
    }

    fn notices(&self, agent: Option<&str>) -> Vec<String> {
        GitLogStore::notices(self, agent)
    }

    fn set_aside(&self) -> Arc<[SetAside]> {
        GitLogStore::set_aside(self)
    }

    fn unpushed(&self) -> Option<String> {
        self.unpushed.lock().clone()
    }

    fn synced_at(&self) -> Option<SystemTime> {
        *self.synced_at.lock()
    }

    fn fetch_every(&self) -> Option<Duration> {
        let sync_on = self.sync.on_change || self.sync.interval > 0;
        (self.has_remote && sync_on).then_some(FETCH_EVERY)
    }

    fn fetch(&self) -> Result<bool, StoreError> {
        let plan = Plan {
            remote: &self.sync.remote,
            retries: self.sync.retries,
            checkpoint_every: self.sync.checkpoint_every,
            // A writer holding the lock merges on its own push.
            until: Instant::now(),
        };
        let waiting = self.unpushed.lock().is_some();
        let moved = match waiting {
            // Changes wait here since a push failed: this fetch is a whole
            // sync, so that a clone back online pushes them without
            // waiting for its next write.
            true => match sync_board(&self.logs, &self.place, &self.board, plan, None) {
                Ok(_) => true,
                Err(SyncError::Busy(_)) => false,
                Err(error) => return Err(self.sync_error(error)),
            },
            false => fetch_board(&self.logs, &self.place, &self.board, plan)
                .map_err(|error| self.sync_error(error))?,
        };
        *self.synced_at.lock() = Some(SystemTime::now());
        if waiting {
            self.forget_pushed();
        }
        Ok(moved)
    }
}

/// The operation that records `done`, as `id` (`claim`: how a claim in it
/// stands): its time to the microsecond, as the log keeps times.
pub(super) fn operation(done: &Done, id: OpId, claim: Option<ClaimMode>) -> Op {
    let micros = done
        .at
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
    Op {
        id,
        at: UNIX_EPOCH + Duration::from_micros(micros),
        claim,
        action: done.action.clone(),
    }
}
