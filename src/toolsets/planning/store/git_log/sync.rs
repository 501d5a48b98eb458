// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One sync of one board with one remote: fetch the remote's log, merge it
//! into the local one, compact when the log has grown, push. The push
//! names the remote ref's value at the fetch (`--force-with-lease`), so
//! the remote's ref update is the compare-and-swap: a push someone beat
//! fetches, merges and tries again, up to `retries` times. A sync with
//! nothing new costs one fetch and no push.
//!
//! A remote whose log no longer holds what this clone fetched before (it
//! was rewritten by force, or deleted) is rebuilt from the union: the
//! merge keeps every operation of both, and the push puts back what the
//! remote lost; the report says so. What was fetched before is
//! `fetched.rs`'s; whether one log holds another is read from their
//! operations (`stored::holds`), not from their commits' ancestry. A push
//! is therefore seldom a fast-forward: its lease (the exact value the
//! remote had at the fetch) is what makes it safe.

use std::collections::HashSet;
use std::time::Instant;

use super::fetched;
use super::git::{Git, GitError, Pushed};
use super::place::{Place, local_ref};
use super::stored::{LogError, Logs, StoredLog};
use crate::runtime::file_lock::{Access, FileLock, LockError};
use crate::toolsets::planning::domain::replay::{CheckpointId, Op, OpId, Replica, SetAside};

/// Why a sync failed. The local log is always left whole.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SyncError {
    /// A git command failed (the fetch, when offline).
    #[error(transparent)]
    Git(#[from] GitError),
    /// The log could not be read or merged.
    #[error(transparent)]
    Log(#[from] LogError),
    /// Another process held the board's lock until the deadline.
    #[error("another process holds the lock of board {0}; retry later")]
    Busy(String),
    /// The lock file could not be used.
    #[error("cannot lock board {board}: {error}")]
    Lock {
        /// The board.
        board: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// Every push was beaten by another clone's.
    #[error(
        "the remote's log of board {board} changed under each of {tries} pushes (sync.retries); \
         the board is merged here, retry the sync"
    )]
    Raced {
        /// The board.
        board: String,
        /// How many pushes were tried.
        tries: u32,
    },
    /// The remote refused the push (a hook, permissions).
    #[error("the push of board {board} to {remote} failed: {problem}")]
    Push {
        /// The board.
        board: String,
        /// The remote.
        remote: String,
        /// What git said.
        problem: String,
    },
}

/// What one sync of one board did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Report {
    /// The board.
    pub(crate) board: String,
    /// Operations that came from the remote.
    pub(crate) fetched: usize,
    /// Operations the remote got from here.
    pub(crate) pushed: usize,
    /// Whether anything was pushed.
    pub(crate) push: bool,
    /// Whether the log was compacted into a checkpoint.
    pub(crate) compacted: bool,
    /// Whether the remote no longer held what it had given before (and
    /// was rebuilt from the union).
    pub(crate) rewritten: bool,
    /// How many pushes it took (0: none was needed).
    pub(crate) attempts: u32,
    /// Tasks on the board after the sync.
    pub(crate) tasks: usize,
    /// Operations set aside, the newest the board keeps.
    pub(crate) set_aside: Vec<SetAside>,
    /// Unreadable entries of the log (kept, skipped).
    pub(crate) corrupt: Vec<String>,
    /// Unreadable entries of the remote's log in the place of an operation
    /// this clone holds (a blob renamed over it): set aside, the operation
    /// stays in its place.
    pub(crate) displaced: Vec<String>,
    /// This clone's replica, when the remote's log showed another clone
    /// writing under it: this clone takes a new one from then on.
    pub(crate) renewed: Option<Replica>,
    /// Operations this clone held that another version under the same
    /// name pushed out of the log, made again under its replica (see
    /// [`keep_lost`]).
    pub(crate) reissued: usize,
}

/// How one sync runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan<'a> {
    /// The remote's name.
    pub(crate) remote: &'a str,
    /// How many raced pushes are retried.
    pub(crate) retries: u32,
    /// Compact when the log holds this many operations beyond its
    /// checkpoint.
    pub(crate) checkpoint_every: usize,
    /// The deadline for the board's lock.
    pub(crate) until: Instant,
}

/// Takes the exclusive lock of `board`'s log.
pub(crate) fn lock(place: &Place, board: &str, until: Instant) -> Result<FileLock, SyncError> {
    let file = place.lock_file(board).map_err(|error| SyncError::Lock {
        board: board.to_owned(),
        error,
    })?;
    FileLock::wait(file, Access::Exclusive, until).map_err(|error| match error {
        LockError::Held => SyncError::Busy(board.to_owned()),
        LockError::Io(error) => SyncError::Lock {
            board: board.to_owned(),
            error,
        },
    })
}

/// The remote's ref of one board at two fetches: the one before (to tell
/// a remote rewritten since) and the one just made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Prefetched {
    /// What the fetch before this one found.
    pub(crate) before: Option<String>,
    /// What this fetch found.
    pub(crate) now: Option<String>,
}

/// Syncs `board` with `plan.remote`. `prefetched` is `Some` when the
/// remote's boards were just fetched (one fetch serves every board of a
/// sync); `None`: this sync fetches.
pub(crate) fn sync_board(
    logs: &Logs,
    place: &Place,
    board: &str,
    plan: Plan<'_>,
    prefetched: Option<Prefetched>,
) -> Result<Report, SyncError> {
    let git = logs.git();
    let local_name = local_ref(board);
    let _lock = lock(place, board, plan.until)?;
    let replica = place.replica().map_err(|error| SyncError::Lock {
        board: board.to_owned(),
        error,
    })?;
    let mut report = Report {
        board: board.to_owned(),
        ..Report::default()
    };
    let (mut known, mut pending) = match prefetched {
        Some(Prefetched { before, now }) => (remote_log(git, before.as_deref())?.0, Some(now)),
        None => {
            let before = fetched::last(git, place, plan.remote)?.get(board);
            (remote_log(git, before.as_deref())?.0, None)
        }
    };
    for attempt in 1..=plan.retries {
        let value = match pending.take() {
            Some(value) => value,
            None => fetched::fetch(git, place, plan.remote)?.get(board),
        };
        let (remote_commit, lease) = remote_log(git, value.as_deref())?;
        let remote = logs.read(remote_commit.as_deref())?;
        if let Some(before) = &known {
            // A fetch before that git gc left unreadable counts as none.
            report.rewritten |= match logs.read(Some(before)) {
                Ok(before) => remote_commit.is_none() || !reaches(&remote, &before),
                Err(_) => false,
            };
        }
        known.clone_from(&remote_commit);
        let local_commit = git.resolve(&local_name)?;
        let local = logs.read(local_commit.as_deref())?;
        let shared = writes_under(replica, &local, &remote);
        let lock_error = |error| SyncError::Lock {
            board: board.to_owned(),
            error,
        };
        if shared {
            place.renew_replica(replica).map_err(lock_error)?;
            report.renewed = Some(replica);
        }
        let merged = logs.merge(&local, &remote)?;
        let (merged, remade) = keep_lost(logs, place, &local, merged).map_err(|e| match e {
            KeepError::Log(error) => SyncError::Log(error),
            KeepError::Replica(error) => lock_error(error),
        })?;
        report.reissued += remade;
        report.displaced = remote
            .log
            .corrupt()
            .filter(|c| c.name.is_some_and(|(r, n)| merged.log.op(r, n).is_some()))
            .map(|c| format!("{}: {}", c.label, c.problem))
            .collect();
        report.fetched += new_ops(&local, &merged);
        if merged.commit != local_commit
            && let Some(commit) = &merged.commit
            && !git.update_ref(&local_name, commit, local_commit.as_deref())?
        {
            // Only a writer that ignores the lock moves the ref meanwhile.
            continue;
        }
        let candidate = match merged.log.len() >= plan.checkpoint_every {
            true => {
                let id = CheckpointId {
                    stamp: merged.log.next_id(replica, now_micros()).stamp,
                    replica,
                };
                logs.compact(&merged, id)?
            }
            false => merged.clone(),
        };
        finish(logs, &mut report, &candidate);
        if lease != remote_commit {
            report.corrupt.push(format!(
                "the remote's ref of board {board} holds no log (not a commit): set aside, and \
                 replaced by this clone's log"
            ));
        }
        if candidate.commit == lease {
            return Ok(report);
        }
        let Some(commit) = candidate.commit.clone() else {
            return Ok(report);
        };
        report.attempts = attempt;
        match git.push(plan.remote, &commit, &local_name, lease.as_deref())? {
            Pushed::Done => {
                report.push = true;
                report.pushed = new_ops(&remote, &merged);
                report.compacted = candidate.commit != merged.commit;
                if report.compacted
                    && let Some(merged_commit) = merged.commit.as_deref()
                {
                    git.update_ref(&local_name, &commit, Some(merged_commit))?;
                }
                // Not recorded (the fetch lock held past the deadline):
                // the next push's lease fails, and that sync fetches.
                let _ = fetched::record(git, place, plan.remote, board, &commit);
                return Ok(report);
            }
            Pushed::Rejected(problem) => {
                // A race if the remote's log moved meanwhile; a refusal
                // (a hook, a rule) if it did not.
                let now = fetched::fetch(git, place, plan.remote)?.get(board);
                if now == lease {
                    return Err(SyncError::Push {
                        board: board.to_owned(),
                        remote: plan.remote.to_owned(),
                        problem,
                    });
                }
                pending = Some(now);
            }
            Pushed::Failed(problem) => {
                return Err(SyncError::Push {
                    board: board.to_owned(),
                    remote: plan.remote.to_owned(),
                    problem,
                });
            }
        }
    }
    Err(SyncError::Raced {
        board: board.to_owned(),
        tries: plan.retries,
    })
}

/// Fetches `plan.remote`'s boards and, when board `board`'s log there
/// holds what this clone's does not, merges it here (and pushes, as a sync
/// does, what the remote lacks). Does not wait for the board's lock
/// (`plan.until` is for the lock): a writer that holds it pushes, and so
/// merges, on its own. Returns whether the local log may have moved. A
/// fetch that brings nothing new costs one `git fetch` and one
/// `rev-parse` per ref.
pub(crate) fn fetch_board(
    logs: &Logs,
    place: &Place,
    board: &str,
    plan: Plan<'_>,
) -> Result<bool, SyncError> {
    let git = logs.git();
    let before = fetched::last(git, place, plan.remote)?.get(board);
    let now = fetched::fetch(git, place, plan.remote)?.get(board);
    let Some(theirs) = remote_log(git, now.as_deref())?.0 else {
        return Ok(false);
    };
    if let Some(ours) = git.resolve(&local_ref(board))?
        && logs.holds_commit(&ours, &theirs)?
    {
        return Ok(false);
    }
    match sync_board(logs, place, board, plan, Some(Prefetched { before, now })) {
        Ok(_) => Ok(true),
        Err(SyncError::Busy(_)) => Ok(false),
        Err(error) => Err(error),
    }
}

/// The remote's log as a fetch found its ref at `value`: its commit
/// (`None`: no log), and the value, which a push's lease names. A value
/// that is no commit (a blob a hostile clone pushed) is no log: it reads
/// as an empty one, and the next push replaces it. A value whose object
/// this repository no longer has (`git gc` pruned what no ref kept) reads
/// as nothing fetched: the next push's lease fails and fetches again.
pub(crate) fn remote_log(
    git: &Git,
    value: Option<&str>,
) -> Result<(Option<String>, Option<String>), GitError> {
    let Some(value) = value else {
        return Ok((None, None));
    };
    if let Ok(Some(commit)) = git.resolve(value) {
        return Ok((Some(commit), Some(value.to_owned())));
    }
    match git.has_object(value)? {
        true => Ok((None, Some(value.to_owned()))),
        false => Ok((None, None)),
    }
}

/// Whether `theirs` holds an operation under `replica` (this clone's) that
/// `ours` neither holds nor covers, or holds otherwise: another clone
/// writes under this clone's name. A clone's own log always keeps what it
/// wrote.
pub(crate) fn writes_under(replica: Replica, ours: &StoredLog, theirs: &StoredLog) -> bool {
    theirs.log.ops().any(|op| {
        op.id.replica == replica
            && !ours.log.covered(replica, op.id.counter)
            && ours.log.op(replica, op.id.counter) != Some(op)
    })
}

/// Whether log `a` reaches every operation `b` reaches (by their vectors:
/// what a remote that lost nothing still has, compacted or not).
fn reaches(a: &StoredLog, b: &StoredLog) -> bool {
    let reach = a.log.vector();
    b.log
        .vector()
        .iter()
        .all(|(replica, n)| reach.get(replica).is_some_and(|m| m >= n))
}

/// Why [`keep_lost`] failed.
#[derive(Debug)]
pub(crate) enum KeepError {
    /// Writing the log.
    Log(LogError),
    /// Reading this clone's replica file.
    Replica(std::io::Error),
}

/// `merged` (the merge of `ours` with another log) with each operation
/// of `ours` that another version under the same name pushed out of it
/// made again under this clone's replica, with its own stamp, time and
/// action: in its place in the order, so that what it did stands. Two
/// versions of one name come from two clones that share a replica (a
/// copied repository) or from a hostile push; a log has one place per
/// name, and every clone keeps the same version there (the first in the
/// order), so the other is kept by each clone that held it (its copies
/// are applied once: [`crate::toolsets::planning::domain::replay::Reason::Repeat`]).
/// Returns the log and how many it made again.
pub(crate) fn keep_lost(
    logs: &Logs,
    place: &Place,
    ours: &StoredLog,
    merged: StoredLog,
) -> Result<(StoredLog, usize), KeepError> {
    let lost: Vec<Op> = ours
        .log
        .ops()
        .filter(|op| {
            let (replica, counter) = (op.id.replica, op.id.counter);
            !merged.log.covered(replica, counter)
                && merged.log.op(replica, counter) != Some(*op)
                && merged.log.same_as(op).is_none()
        })
        .cloned()
        .collect();
    if lost.is_empty() {
        return Ok((merged, 0));
    }
    // Read after a renewal: a clone that lost its own operations to
    // another writing under its replica writes under a new one.
    let fresh = place.replica().map_err(KeepError::Replica)?;
    let mut merged = merged;
    for op in &lost {
        let id = OpId {
            stamp: op.id.stamp,
            ..merged.log.next_id(fresh, op.id.stamp)
        };
        merged = logs
            .append(&merged, Op { id, ..op.clone() })
            .map_err(KeepError::Log)?;
    }
    Ok((merged, lost.len()))
}

/// Records in `report` what the board holds after the sync.
fn finish(logs: &Logs, report: &mut Report, stored: &StoredLog) {
    let state = stored.log.replay(logs.empty());
    report.tasks = state.board.len();
    // The entries that are not operations are listed by their names
    // below, all of them (the replay keeps only the newest set aside).
    report.set_aside = state
        .set_aside
        .into_iter()
        .filter(|aside| !aside.is_entry())
        .collect();
    report.corrupt = stored
        .log
        .corrupt()
        .map(|c| format!("{}: {}", c.label, c.problem))
        .collect();
}

/// How many operations `after` holds that `before` did not (counting
/// those a checkpoint covers by their numbers).
fn new_ops(before: &StoredLog, after: &StoredLog) -> usize {
    let had = |replica: Replica, counter: u64| {
        before.log.op(replica, counter).is_some() || before.log.covered(replica, counter)
    };
    let ours: HashSet<OpId> = after.log.ops().map(|op| op.id).collect();
    let mut count = ours
        .iter()
        .filter(|id| !had(id.replica, id.counter))
        .count();
    if let Some(checkpoint) = after.log.checkpoint() {
        for (replica, reach) in &checkpoint.covers {
            let from = before.log.vector().get(replica).copied().unwrap_or(0);
            count += usize::try_from(reach.saturating_sub(from)).unwrap_or(0);
        }
    }
    count
}

/// Microseconds since the Unix epoch, now.
pub(crate) fn now_micros() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}
