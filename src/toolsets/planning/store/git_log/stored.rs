// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Logs as git holds them: a commit whose tree has one blob per operation
//! (`op-{replica}-{counter}`) and at most one checkpoint
//! (`checkpoint-{stamp}-{replica}`). Its parents are not the log's earlier
//! commits but only the commit its checkpoint was made in (none before
//! the first checkpoint), whose own parent is the log it compacted: so
//! `git log --all` shows a board's tip and its checkpoints, and the
//! operations a checkpoint covers stay in git's history (docs/sync.md,
//! "Layout"). Whether one log holds another is therefore read from their
//! operations, never from their ancestry. A chain an earlier build wrote
//! (each commit the parent of the next) reads the same, and is written on
//! in this layout. Reading decodes each blob once (a cache by object ID);
//! writing an operation, merging two logs and compacting one each make
//! one commit. Moving a ref is the caller's: these only make objects.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use parking_lot::Mutex;

use super::codec::{self, StoredCheckpoint};
use super::git::{Git, GitError, Item, MAX_BATCH_BYTES};
use crate::runtime::clock::Clock;
use crate::toolsets::planning::domain::replay::{CheckpointId, Corrupt, Log, Op};
use crate::toolsets::planning::domain::{Board, Limits};

/// The most entries a log's tree may hold: a log compacts long before
/// (`sync.checkpoint_every` is at most a few thousand in practice).
pub(crate) const MAX_ENTRIES: usize = 100_000;

/// The most bytes a log's tree object may take (about 100,000 entries).
pub(crate) const MAX_TREE_BYTES: u64 = 8 * 1024 * 1024;

/// The most bytes a log's entries may hold together.
pub(crate) const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;

/// The log of `tree` set aside whole, for `why`.
fn set_aside_whole(tree: &str, why: String) -> StoredLog {
    let mut stored = StoredLog::default();
    stored.log.insert_corrupt(Corrupt {
        name: None,
        label: format!("the log {tree}"),
        problem: format!("set aside whole: {why}"),
    });
    stored
}

/// How many results each of `Logs`' small caches keeps before it starts
/// over.
const CACHED: usize = 64;

/// Whether log `a` holds everything of log `b`: their union adds nothing
/// to `a` (every operation and unreadable entry of `b`, its checkpoint or
/// one built on it), and `a` has each of `b`'s operations as `b` has it
/// (a log with another version of an operation under its name, which the
/// union may keep in its place, does not hold it: a hostile push or two
/// clones sharing a replica).
fn holds(a: &StoredLog, b: &StoredLog) -> bool {
    a.commit == b.commit
        || (b.log.ops().all(|op| {
            let (replica, counter) = (op.id.replica, op.id.counter);
            a.log.covered(replica, counter) || a.log.op(replica, counter) == Some(op)
        }) && a.log.merge(&b.log).is_ok_and(|union| union == a.log))
}

/// Why a log could not be read or written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LogError {
    /// A git command failed.
    #[error(transparent)]
    Git(#[from] GitError),
    /// The log cannot be used as it is (an unreadable checkpoint, a
    /// history that lost what a checkpoint covered); it is left as it is.
    #[error("{0}")]
    Unusable(String),
    /// A change too large to be an operation a log reads back (a plan of
    /// many tasks with long touches): refused, so that nothing is written
    /// that a reload would set aside as unreadable.
    #[error(
        "the change would be an operation of {0} bytes, more than the {max} a log reads; make it in smaller calls",
        max = codec::MAX_OP_BYTES
    )]
    TooLarge(usize),
}

/// One decoded blob.
#[derive(Debug, Clone)]
enum Decoded {
    Op(Op),
    Corrupt(String),
    Checkpoint(Arc<StoredCheckpoint>),
}

/// A log at one commit (or none, for a board nobody wrote), with the blob
/// of each entry of its tree.
#[derive(Debug, Clone, Default)]
pub(crate) struct StoredLog {
    /// The commit, if any.
    pub(crate) commit: Option<String>,
    /// The log.
    pub(crate) log: Log,
    /// Every entry of the tree that a tree we write keeps: name -> what it
    /// holds (an entry whose object this repository lacks is left out:
    /// no push could send it).
    entries: BTreeMap<String, Item>,
    /// The checkpoint's entry name and the tree it compacted.
    checkpoint: Option<(String, String)>,
    /// The commit the checkpoint was made in (the parent of a commit of
    /// this log; none without a checkpoint).
    base: Vec<String>,
}

/// Reads and writes the logs of one repository, with the limits and the
/// history setting that replays and checkpoints use.
#[derive(Debug)]
pub(crate) struct Logs {
    git: Git,
    limits: Limits,
    history_enabled: bool,
    /// This machine's clock: what the replay trusts a stamp by.
    clock: Clock,
    /// Blobs decoded so far, by object ID and entry name (a blob never
    /// changes; what it reads as depends on its name too).
    decoded: Mutex<HashMap<(String, String), Decoded>>,
    /// The checkpoint's commit of the logs read so far, by commit.
    bases: Mutex<HashMap<String, Vec<String>>>,
    /// Pairs of commits (ours, theirs) found to hold one another: a
    /// commit never changes, so a fetch that brings nothing new reads
    /// neither log again.
    held: Mutex<HashSet<(String, String)>>,
}

impl Logs {
    /// The logs of `git`'s repository.
    pub(crate) fn new(git: Git, limits: Limits, history_enabled: bool) -> Self {
        Self {
            git,
            limits,
            history_enabled,
            clock: Clock::system(),
            decoded: Mutex::new(HashMap::new()),
            bases: Mutex::new(HashMap::new()),
            held: Mutex::new(HashSet::new()),
        }
    }

    /// These logs, replayed by `clock` as this machine's (tests: a clone
    /// whose clock runs ahead or behind).
    pub(crate) fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// This machine's clock, as the replay reads it.
    pub(crate) fn clock(&self) -> Clock {
        self.clock
    }

    /// The repository.
    pub(crate) fn git(&self) -> &Git {
        &self.git
    }

    /// The board before any operation, as this server is configured.
    pub(crate) fn empty(&self) -> Board {
        Board::new(self.limits, self.history_enabled).with_clock(self.clock)
    }

    /// The log at `commit` (`None`: empty).
    pub(crate) fn read(&self, commit: Option<&str>) -> Result<StoredLog, LogError> {
        let Some(commit) = commit else {
            return Ok(StoredLog::default());
        };
        let mut stored = self.read_tree(commit)?;
        stored.commit = Some(commit.to_owned());
        if let Some((_, compacted)) = &stored.checkpoint {
            stored.base = self.base(commit, compacted);
        }
        Ok(stored)
    }

    /// Whether the log at commit `ours` holds everything of the log at
    /// `theirs` ([`holds`]; remembered when it does).
    pub(crate) fn holds_commit(&self, ours: &str, theirs: &str) -> Result<bool, LogError> {
        let key = (ours.to_owned(), theirs.to_owned());
        if ours == theirs || self.held.lock().contains(&key) {
            return Ok(true);
        }
        let held = holds(&self.read(Some(ours))?, &self.read(Some(theirs))?);
        if held {
            let mut memo = self.held.lock();
            if memo.len() >= CACHED {
                memo.clear();
            }
            memo.insert(key);
        }
        Ok(held)
    }

    /// The commit the checkpoint of the log at `commit` was made in: the
    /// child of the commit whose tree is `compacted` (the log the
    /// checkpoint compacted). In this layout it is `commit` or its
    /// parent; in a chain an earlier build wrote, further back. When git's
    /// history does not show it (a history cut short), `commit` itself:
    /// a commit of the log then keeps all of what it kept.
    fn base(&self, commit: &str, compacted: &str) -> Vec<String> {
        if let Some(base) = self.bases.lock().get(commit) {
            return base.clone();
        }
        let found = self.git.history(commit).ok().and_then(|history| {
            let full: HashSet<&str> = history
                .iter()
                .filter(|c| c.tree == compacted)
                .map(|c| c.id.as_str())
                .collect();
            history
                .iter()
                .find(|c| {
                    c.tree != compacted && c.parents.iter().any(|p| full.contains(p.as_str()))
                })
                .map(|c| c.id.clone())
        });
        let base = vec![found.unwrap_or_else(|| commit.to_owned())];
        let mut bases = self.bases.lock();
        if bases.len() >= CACHED {
            bases.clear();
        }
        bases.insert(commit.to_owned(), base.clone());
        base
    }

    /// The log of tree (or commit) `tree`, without a commit. A tree past
    /// the limits (more than [`MAX_ENTRIES`] entries or [`MAX_LOG_BYTES`]
    /// bytes: no clone writes one) is set aside whole: it reads as an
    /// empty log with one unreadable entry that says why, so that one
    /// hostile push stops no clone; an entry past its own limit is
    /// unreadable without being read.
    fn read_tree(&self, tree: &str) -> Result<StoredLog, LogError> {
        let tree_bytes = self.git.object_size(&format!("{tree}^{{tree}}"))?;
        if tree_bytes > MAX_TREE_BYTES {
            return Ok(set_aside_whole(
                tree,
                format!("its tree is {tree_bytes} bytes, more than {MAX_TREE_BYTES}"),
            ));
        }
        let listed = self.git.ls_tree(tree)?;
        if listed.len() > MAX_ENTRIES {
            return Ok(set_aside_whole(
                tree,
                format!("it holds {} entries, more than {MAX_ENTRIES}", listed.len()),
            ));
        }
        let total: u64 = listed
            .iter()
            .filter_map(|e| e.size)
            .fold(0, u64::saturating_add);
        if total > MAX_LOG_BYTES {
            return Ok(set_aside_whole(
                tree,
                format!("its entries hold {total} bytes, more than {MAX_LOG_BYTES}"),
            ));
        }
        let too_big = |e: &super::git::Entry| {
            let limit = match codec::is_checkpoint_name(&e.name) {
                true => MAX_BATCH_BYTES,
                false => codec::MAX_OP_BYTES as u64,
            };
            e.size.is_some_and(|size| size > limit).then_some(limit)
        };
        let key = |e: &super::git::Entry| (e.oid.clone(), e.name.clone());
        let missing: Vec<(&str, u64)> = {
            let decoded = self.decoded.lock();
            listed
                .iter()
                .filter(|e| e.kind == "blob" && !decoded.contains_key(&key(e)))
                .filter(|e| too_big(e).is_none())
                .map(|e| (e.oid.as_str(), e.size.unwrap_or(0)))
                .collect()
        };
        let blobs = self.git.cat_blobs(&missing)?;
        let mut absent = std::collections::HashSet::new();
        let mut decoded = self.decoded.lock();
        for entry in listed.iter().filter(|e| e.kind == "blob") {
            if decoded.contains_key(&key(entry)) {
                continue;
            }
            if let Some(limit) = too_big(entry) {
                let size = entry.size.unwrap_or(0);
                let problem = format!("it holds {size} bytes, more than an entry's {limit}");
                decoded.insert(key(entry), Decoded::Corrupt(problem));
                continue;
            }
            match blobs.get(&entry.oid) {
                Some(bytes) => {
                    let read = self.decode(&entry.name, bytes);
                    decoded.insert(key(entry), read);
                }
                // Not cached: a later fetch may bring it.
                None => {
                    absent.insert(entry.oid.as_str());
                }
            }
        }
        // Two checkpoints in one tree (no clone writes that): the newest,
        // the last by name (its stamp leads it), is read; the other is
        // read past like any entry that is not an operation.
        let newest = listed
            .iter()
            .filter(|e| matches!(decoded.get(&key(e)), Some(Decoded::Checkpoint(_))))
            .map(|e| e.name.clone())
            .max();
        let mut stored = StoredLog::default();
        let mut corrupt = Vec::new();
        for entry in &listed {
            let name = codec::parse_op_name(&entry.name);
            if absent.contains(entry.oid.as_str()) {
                corrupt.push(Corrupt {
                    name,
                    label: entry.name.clone(),
                    problem: "its object is missing from this repository".into(),
                });
                continue;
            }
            let item = Item {
                mode: entry.mode.clone(),
                kind: entry.kind.clone(),
                oid: entry.oid.clone(),
            };
            stored.entries.insert(entry.name.clone(), item);
            let problem = match (entry.kind.as_str(), decoded.get(&key(entry))) {
                ("blob", Some(Decoded::Op(op))) => {
                    stored.log.insert(op.clone());
                    continue;
                }
                ("blob", Some(Decoded::Checkpoint(_))) if newest.as_ref() != Some(&entry.name) => {
                    format!(
                        "a second checkpoint: the log reads the newest, {}",
                        newest.as_deref().unwrap_or_default()
                    )
                }
                ("blob", Some(Decoded::Checkpoint(checkpoint))) => {
                    stored.checkpoint = Some((entry.name.clone(), checkpoint.compacted.clone()));
                    // Operations listed before it go in again, so that
                    // those it covers are left out.
                    let mut log = Log::from_checkpoint(checkpoint.checkpoint.clone());
                    for op in stored.log.ops() {
                        log.insert(op.clone());
                    }
                    stored.log = log;
                    continue;
                }
                ("blob", Some(Decoded::Corrupt(problem))) => problem.clone(),
                ("tree", _) => "a directory (a tree) where an operation belongs".into(),
                (kind, _) => format!("a {kind} where an operation belongs"),
            };
            corrupt.push(Corrupt {
                name,
                label: entry.name.clone(),
                problem,
            });
        }
        drop(decoded);
        for corrupt in corrupt {
            stored.log.insert_corrupt(corrupt);
        }
        Ok(stored)
    }

    /// Decodes the blob of entry `name`.
    fn decode(&self, name: &str, bytes: &[u8]) -> Decoded {
        if codec::is_checkpoint_name(name) {
            return match codec::checkpoint_from_json(bytes, self.limits, self.history_enabled) {
                Ok(checkpoint) => Decoded::Checkpoint(Arc::new(checkpoint)),
                Err(problem) => Decoded::Corrupt(format!("checkpoint: {problem}")),
            };
        }
        let Some(name) = codec::parse_op_name(name) else {
            return Decoded::Corrupt("not the name of an operation".into());
        };
        match codec::op_from_json(name, bytes) {
            Ok(op) => Decoded::Op(op),
            Err(problem) => Decoded::Corrupt(problem),
        }
    }

    /// A commit of `base` with `op` added (its parent: the commit of
    /// `base`'s checkpoint, if it has one).
    pub(crate) fn append(&self, base: &StoredLog, op: Op) -> Result<StoredLog, LogError> {
        let name = codec::op_name(op.id.replica, op.id.counter);
        let json = codec::op_to_json(&op);
        if json.len() > codec::MAX_OP_BYTES {
            return Err(LogError::TooLarge(json.len()));
        }
        // The operation as every clone reads it back (times to the
        // microsecond), so that comparing two operations (a repeat, a
        // version kept: `domain::replay::log`) comes out alike everywhere.
        let op = codec::op_from_json((op.id.replica, op.id.counter), &json).unwrap_or(op);
        let text = String::from_utf8_lossy(&json);
        let oid = self.git.hash_object(&text)?;
        self.decoded
            .lock()
            .insert((oid.clone(), name.clone()), Decoded::Op(op.clone()));
        let mut stored = base.clone();
        stored.entries.insert(name, Item::blob(oid));
        stored.log.insert(op);
        let parents: Vec<&str> = base.base.iter().map(String::as_str).collect();
        stored.commit = Some(self.commit(&stored, &parents, "operation")?);
        Ok(stored)
    }

    /// Stores `stored`'s tree and a commit of it with `parents`.
    fn commit(
        &self,
        stored: &StoredLog,
        parents: &[&str],
        message: &str,
    ) -> Result<String, LogError> {
        let entries = stored
            .entries
            .iter()
            .map(|(name, item)| (name.as_str(), item));
        let tree = self.git.mktree(entries)?;
        Ok(self.git.commit_tree(&tree, parents, message)?)
    }

    /// `ours` and `theirs` as one log: `ours` when it holds `theirs`
    /// already, `theirs` when it holds `ours` (a fast-forward), else a
    /// commit of the union (see `domain::replay::log`) whose parent is the
    /// commit of the checkpoint it keeps. Checkpoints that went apart are
    /// first expanded back to their common part from git's history (the
    /// union's commit then keeps both checkpoints' commits as parents); if
    /// that history is gone, the merge is refused.
    pub(crate) fn merge(
        &self,
        ours: &StoredLog,
        theirs: &StoredLog,
    ) -> Result<StoredLog, LogError> {
        let (Some(a), Some(b)) = (ours.commit.as_deref(), theirs.commit.as_deref()) else {
            return Ok(match ours.commit {
                Some(_) => ours.clone(),
                None => theirs.clone(),
            });
        };
        if a == b {
            return Ok(ours.clone());
        }
        // Which log holds the other is read from their operations (their
        // commits' ancestry says nothing in this layout).
        let (mut left, mut right) = (ours.clone(), theirs.clone());
        let mut parents: Vec<String> = Vec::new();
        let log = match left.log.merge(&right.log) {
            Ok(log) if log == ours.log => return Ok(ours.clone()),
            Ok(log) if log == theirs.log => return Ok(theirs.clone()),
            Ok(log) => log,
            Err(diverged) => {
                parents.extend(ours.base.iter().chain(&theirs.base).cloned());
                left = self.expand(&left, diverged.common)?;
                right = self.expand(&right, diverged.common)?;
                left.log.merge(&right.log).map_err(|_| {
                    LogError::Unusable("the checkpoints of the two logs went apart".into())
                })?
            }
        };
        let mut merged = StoredLog {
            commit: None,
            log,
            entries: BTreeMap::new(),
            checkpoint: None,
            base: Vec::new(),
        };
        let lineage = |s: &StoredLog| s.log.checkpoint().map(|c| c.lineage());
        let chosen = match lineage(&merged) {
            None => None,
            l if l == lineage(&left) => {
                merged.base.clone_from(&ours.base);
                left.checkpoint.clone()
            }
            _ => {
                merged.base.clone_from(&theirs.base);
                right.checkpoint.clone()
            }
        };
        for parent in parents {
            if !merged.base.contains(&parent) {
                merged.base.push(parent);
            }
        }
        if let Some((name, compacted)) = chosen {
            let item = left
                .entries
                .get(&name)
                .or_else(|| right.entries.get(&name))
                .cloned();
            if let Some(item) = item {
                merged.entries.insert(name.clone(), item);
            }
            merged.checkpoint = Some((name, compacted));
        }
        for op in merged.log.ops() {
            let name = codec::op_name(op.id.replica, op.id.counter);
            let from = [&left, &right]
                .into_iter()
                .find(|side| side.log.op(op.id.replica, op.id.counter) == Some(op));
            if let Some(oid) = from.and_then(|side| side.entries.get(&name)) {
                merged.entries.insert(name, oid.clone());
            }
        }
        for corrupt in merged.log.corrupt() {
            let oid = left
                .entries
                .get(&corrupt.label)
                .or_else(|| right.entries.get(&corrupt.label));
            if let Some(oid) = oid {
                merged.entries.insert(corrupt.label.clone(), oid.clone());
            }
        }
        let parents: Vec<&str> = merged.base.iter().map(String::as_str).collect();
        merged.commit = Some(self.commit(&merged, &parents, "merge")?);
        Ok(merged)
    }

    /// `stored` with its checkpoints after `common` undone: their
    /// operations read back from the trees they compacted (git's history
    /// keeps those). Without a commit.
    fn expand(
        &self,
        stored: &StoredLog,
        common: Option<CheckpointId>,
    ) -> Result<StoredLog, LogError> {
        let Some(checkpoint) = stored.log.checkpoint() else {
            return Ok(stored.clone());
        };
        if Some(checkpoint.id) == common {
            return Ok(stored.clone());
        }
        let Some((name, compacted)) = stored.checkpoint.clone() else {
            return Ok(stored.clone());
        };
        if !self.git.has_object(&compacted)? {
            return Err(LogError::Unusable(format!(
                "the operations that checkpoint {} covers are gone from this repository's history \
                 (was the remote rewritten without them?): the logs cannot be merged without \
                 losing operations",
                checkpoint.id
            )));
        }
        let before = self.expand(&self.read_tree(&compacted)?, common)?;
        let mut ops = Log::new();
        for op in stored.log.ops() {
            ops.insert(op.clone());
        }
        for corrupt in stored.log.corrupt() {
            ops.insert_corrupt(corrupt.clone());
        }
        let log = before
            .log
            .merge(&ops)
            .map_err(|_| LogError::Unusable("a checkpoint's history is inconsistent".into()))?;
        let mut entries = before.entries.clone();
        for (entry, oid) in &stored.entries {
            if *entry != name {
                entries.insert(entry.clone(), oid.clone());
            }
        }
        Ok(StoredLog {
            commit: None,
            log,
            entries,
            checkpoint: before.checkpoint,
            base: stored.base.clone(),
        })
    }

    /// A commit of `stored` compacted into one checkpoint named `id` (its
    /// parent: `stored`'s commit, so the operations stay in the history).
    pub(crate) fn compact(
        &self,
        stored: &StoredLog,
        id: CheckpointId,
    ) -> Result<StoredLog, LogError> {
        let Some(commit) = stored.commit.as_deref() else {
            return Ok(stored.clone());
        };
        let log = stored.log.compact(id, self.empty());
        let Some(checkpoint) = log.checkpoint() else {
            return Ok(stored.clone());
        };
        let tree = self.git.tree_of(commit)?;
        let record = StoredCheckpoint {
            checkpoint: checkpoint.clone(),
            compacted: tree.clone(),
        };
        let json = codec::checkpoint_to_json(&record);
        let oid = self.git.hash_object(&String::from_utf8_lossy(&json))?;
        let name = codec::checkpoint_name(id);
        self.decoded.lock().insert(
            (oid.clone(), name.clone()),
            Decoded::Checkpoint(Arc::new(record)),
        );
        let mut entries = BTreeMap::from([(name.clone(), Item::blob(oid))]);
        // The operations the checkpoint does not trust yet stay beside it.
        for op in log.ops() {
            let entry = codec::op_name(op.id.replica, op.id.counter);
            if let Some(oid) = stored.entries.get(&entry) {
                entries.insert(entry, oid.clone());
            }
        }
        let mut compacted = StoredLog {
            commit: None,
            log,
            entries,
            checkpoint: Some((name, tree)),
            base: Vec::new(),
        };
        let made = self.commit(&compacted, &[commit], "checkpoint")?;
        compacted.base = vec![made.clone()];
        compacted.commit = Some(made);
        Ok(compacted)
    }
}
