// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A board's log as a set: the operations (each named by its replica and
//! counter), the ones that cannot be read, and at most one checkpoint that
//! stands for the operations it covers. Two logs merge by union, so a merge
//! never conflicts and gives the same log whatever the order the clones
//! met in; the board is the replay of the log in its order.
//!
//! A checkpoint covers, for each replica, its operations 1 to n (a
//! replica's operations always travel together from the first, so a
//! vector of counters says exactly which). It records the replay's state
//! over them and the checkpoints it was built on (its chain). Replaying a
//! log with a checkpoint starts from that state and applies, in order, the
//! operations it does not cover, even those older than some it covers (a
//! clone that was offline): every clone holding the checkpoint does the
//! same. Checkpoints are made one at a time through the remote's
//! compare-and-swap, so their chains grow one from another; two logs whose
//! chains went apart (boards compacted apart, a remote rewritten by force)
//! do not merge here: the caller brings back the operations both
//! checkpoints covered since their common part, from git's history, and
//! merges those ([`Diverged`]).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use super::op::{Op, OpId, Replica, Vector};
use super::set_aside::Reason;
use super::state::State;
use crate::toolsets::planning::domain::Board;

/// How far past the reading clone's own clock an operation may be stamped
/// (its order stamp and its time): 10 minutes. An operation beyond it, or
/// numbered past a gap in its replica's operations, is one no clone could
/// have written by now: the replay sets it aside (until the clock reaches
/// it, for a stamp) and nothing else reads its numbers, so that a forged
/// number never moves another clone's counter or clock (docs/sync.md,
/// "What a shared log trusts").
pub(crate) const MAX_SKEW: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// The highest stamp a clone whose clock reads `now_micros` trusts.
pub(crate) fn trusted_until(now_micros: u64) -> u64 {
    let skew = u64::try_from(MAX_SKEW.as_micros()).unwrap_or(u64::MAX);
    now_micros.saturating_add(skew)
}

/// Microseconds since the Unix epoch of `at` (0 before it, saturated).
pub(crate) fn micros(at: std::time::SystemTime) -> u64 {
    at.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

/// Whether `op`'s stamp and time are at most `bound`.
fn in_time(op: &Op, bound: u64) -> bool {
    op.id.stamp <= bound && micros(op.at) <= bound
}

/// A checkpoint's name: when and by whom it was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct CheckpointId {
    /// The stamp it was made at (above every operation it covers).
    pub(crate) stamp: u64,
    /// Who made it.
    pub(crate) replica: Replica,
}

impl fmt::Display for CheckpointId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}-{}", self.stamp, self.replica)
    }
}

/// The replay's state over the operations a checkpoint covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    /// Its name.
    pub(crate) id: CheckpointId,
    /// The checkpoints it was built on, oldest first.
    pub(crate) chain: Vec<CheckpointId>,
    /// The operations it covers: per replica, 1 to n.
    pub(crate) covers: Vector,
    /// The state the replay reached over them.
    pub(crate) state: State,
}

impl Checkpoint {
    /// Its chain with itself at the end.
    pub(crate) fn lineage(&self) -> Vec<CheckpointId> {
        let mut lineage = self.chain.clone();
        lineage.push(self.id);
        lineage
    }

    /// Whether it covers operation `counter` of `replica`.
    pub(crate) fn covers(&self, replica: Replica, counter: u64) -> bool {
        self.covers.get(&replica).is_some_and(|&n| counter <= n)
    }
}

/// An entry of the log that cannot be read: its name and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Corrupt {
    /// The replica and counter its name gives, when it gives them.
    pub(crate) name: Option<(Replica, u64)>,
    /// Its name as stored.
    pub(crate) label: String,
    /// What is wrong with it.
    pub(crate) problem: String,
}

/// Two logs whose checkpoints went apart: they merge only once the
/// operations their checkpoints covered after `common` (their last shared
/// checkpoint, if any) are brought back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Diverged {
    /// The last checkpoint both chains hold.
    pub(crate) common: Option<CheckpointId>,
}

/// A board's log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Log {
    checkpoint: Option<Arc<Checkpoint>>,
    /// The operations the checkpoint does not cover, in the log's order.
    ops: BTreeMap<OpId, Op>,
    /// (replica, counter) -> the operation's place in `ops`.
    names: HashMap<(Replica, u64), OpId>,
    /// Unreadable entries, by their stored name.
    corrupt: BTreeMap<String, Corrupt>,
}

impl Log {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// A log that starts from `checkpoint`.
    pub(crate) fn from_checkpoint(checkpoint: Checkpoint) -> Self {
        Self {
            checkpoint: Some(Arc::new(checkpoint)),
            ..Self::default()
        }
    }

    /// The checkpoint, if any.
    pub(crate) fn checkpoint(&self) -> Option<&Checkpoint> {
        self.checkpoint.as_deref()
    }

    /// The operations the checkpoint does not cover, in order.
    pub(crate) fn ops(&self) -> impl DoubleEndedIterator<Item = &Op> + ExactSizeIterator {
        self.ops.values()
    }

    /// The unreadable entries.
    pub(crate) fn corrupt(&self) -> impl Iterator<Item = &Corrupt> {
        self.corrupt.values()
    }

    /// The operation `counter` of `replica`, if the log holds it (not in a
    /// checkpoint).
    pub(crate) fn op(&self, replica: Replica, counter: u64) -> Option<&Op> {
        self.names
            .get(&(replica, counter))
            .and_then(|id| self.ops.get(id))
    }

    /// Whether the checkpoint covers operation `counter` of `replica`.
    pub(crate) fn covered(&self, replica: Replica, counter: u64) -> bool {
        self.checkpoint()
            .is_some_and(|checkpoint| checkpoint.covers(replica, counter))
    }

    /// Adds an operation. One the checkpoint covers, or one the log holds,
    /// changes nothing. Two different operations with one name (a clone
    /// copied with its replica, a hostile push) keep the first in the
    /// order, so that every clone keeps the same one (a clone that held
    /// the other makes it again under its own name: the git store's
    /// `keep_lost`); returns whether the log changed.
    pub fn insert(&mut self, op: Op) -> bool {
        let name = (op.id.replica, op.id.counter);
        if self.covered(name.0, name.1) {
            return false;
        }
        if let Some(&held) = self.names.get(&name) {
            let keep_held = match held.cmp(&op.id) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Greater => false,
                // One name, one place, different actions: any fixed rule.
                std::cmp::Ordering::Equal => {
                    let theirs = self.ops.get(&held).map(|o| format!("{o:?}"));
                    theirs.is_none_or(|theirs| theirs <= format!("{op:?}"))
                }
            };
            if keep_held {
                return false;
            }
            self.ops.remove(&held);
        }
        self.names.insert(name, op.id);
        self.ops.insert(op.id, op);
        true
    }

    /// Adds an unreadable entry (kept, reported, skipped by the replay).
    pub(crate) fn insert_corrupt(&mut self, corrupt: Corrupt) {
        if let Some((replica, counter)) = corrupt.name
            && self.covered(replica, counter)
        {
            return;
        }
        self.corrupt.insert(corrupt.label.clone(), corrupt);
    }

    /// How far the log reaches for each replica: the operations its
    /// checkpoint covers, then those numbered on from there without a gap
    /// (an unreadable entry's name counts). An operation past a gap is not
    /// counted: a replica's operations travel as a prefix, so only a
    /// forged one lies beyond a gap.
    pub(crate) fn vector(&self) -> Vector {
        self.reaches(u64::MAX).0
    }

    /// [`Self::vector`] that also stops at a replica's first operation
    /// stamped past `bound` (its later ones wait with it).
    pub(crate) fn reach(&self, bound: u64) -> Vector {
        self.reaches(bound).0
    }

    /// [`Self::reach`] by `bound` and [`Self::vector`], in one pass over
    /// the operations: the replay needs both, and an append the second,
    /// so this is one sort of each replica's counters (nearly sorted
    /// already: the log's order is by stamp), not a map built per call.
    pub(crate) fn reaches(&self, bound: u64) -> (Vector, Vector) {
        let covered = self
            .checkpoint()
            .map(|checkpoint| checkpoint.covers.clone())
            .unwrap_or_default();
        // Per replica, its counters, each with whether it fits `bound`
        // (an unreadable entry's name always does).
        let mut counters: BTreeMap<Replica, Vec<(u64, bool)>> = BTreeMap::new();
        for op in self.ops.values() {
            let list = counters.entry(op.id.replica).or_default();
            list.push((op.id.counter, in_time(op, bound)));
        }
        for (replica, counter) in self.corrupt.values().filter_map(|c| c.name) {
            counters.entry(replica).or_default().push((counter, true));
        }
        let (mut trusted, mut counted) = (covered.clone(), covered);
        for (replica, mut list) in counters {
            list.sort_unstable();
            let from = counted.get(&replica).copied().unwrap_or(0);
            let mut fitting = Reaching::from(from);
            let mut gapless = Reaching::from(from);
            let mut at = 0;
            while at < list.len() && (fitting.on || gapless.on) {
                let counter = list[at].0;
                // One name may come more than once (an operation and an
                // unreadable entry): it fits if any of them does.
                let mut fits = false;
                while list.get(at).is_some_and(|(c, _)| *c == counter) {
                    fits |= list[at].1;
                    at += 1;
                }
                if counter > from {
                    fitting.meet(counter, fits);
                    gapless.meet(counter, true);
                }
            }
            for (vector, reaching) in [(&mut trusted, fitting), (&mut counted, gapless)] {
                if reaching.reach > 0 {
                    vector.insert(replica, reaching.reach);
                }
            }
        }
        (trusted, counted)
    }

    /// The highest stamp of the log that is at most `bound`: the stamps
    /// beyond are not trusted.
    fn max_stamp_until(&self, bound: u64) -> u64 {
        let ops = self
            .ops
            .keys()
            .rev()
            .map(|id| id.stamp)
            .find(|&stamp| stamp <= bound)
            .unwrap_or(0);
        let checkpoint = self.checkpoint().map_or(0, |c| {
            [c.state.max_stamp, c.id.stamp]
                .into_iter()
                .filter(|&stamp| stamp <= bound)
                .max()
                .unwrap_or(0)
        });
        ops.max(checkpoint)
    }

    /// The name of `replica`'s next operation, stamped at `now_micros` or
    /// just above the log's highest trusted stamp: after everything it
    /// knows, and never past what its own clock trusts.
    pub(crate) fn next_id(&self, replica: Replica, now_micros: u64) -> OpId {
        let reach = self.vector().get(&replica).copied().unwrap_or(0);
        let bound = trusted_until(now_micros);
        OpId {
            stamp: now_micros.max(self.max_stamp_until(bound).saturating_add(1)),
            replica,
            counter: reach.saturating_add(1),
        }
    }

    /// The board the log makes, with what the replay set aside; `empty`
    /// is the board before any operation (its limits and history setting
    /// are the replay's).
    pub fn replay(&self, empty: Board) -> State {
        let bound = trusted_until(micros(empty.clock().now()));
        let mut state = match self.checkpoint() {
            Some(checkpoint) => {
                let mut state = checkpoint.state.clone();
                state.board.set_clock(empty.clock());
                state
            }
            None => State::new(empty),
        };
        let clock = state.board.clock();
        let (reach, counted) = self.reaches(bound);
        let mut repeats = Repeats::default();
        for op in self.ops.values() {
            let within = reach
                .get(&op.id.replica)
                .is_some_and(|&n| op.id.counter <= n);
            if !within {
                state.set_aside(op, untrusted(op, bound, &counted));
                continue;
            }
            match repeats.first(op) {
                Some(first) => state.set_aside(op, Reason::Repeat(first)),
                None => state.apply(op),
            }
        }
        for corrupt in self.corrupt.values() {
            let id = OpId {
                stamp: 0,
                replica: corrupt.name.map_or(Replica(0), |(replica, _)| replica),
                counter: corrupt.name.map_or(0, |(_, counter)| counter),
            };
            let reason = Reason::Corrupt {
                entry: corrupt.label.clone(),
                problem: corrupt.problem.clone(),
            };
            let op = Op {
                id,
                at: std::time::UNIX_EPOCH,
                claim: None,
                action: crate::toolsets::planning::domain::Action::Edit(Vec::new()),
            };
            state.set_aside(&op, reason);
        }
        state.board.set_clock(clock);
        state
    }

    /// This log and `other` as one: the union of their operations, from
    /// the later of their checkpoints when one chain extends the other.
    pub(crate) fn merge(&self, other: &Log) -> Result<Log, Diverged> {
        let ours = self
            .checkpoint()
            .map(Checkpoint::lineage)
            .unwrap_or_default();
        let theirs = other
            .checkpoint()
            .map(Checkpoint::lineage)
            .unwrap_or_default();
        let base = if theirs.starts_with(&ours) {
            other.checkpoint.clone()
        } else if ours.starts_with(&theirs) {
            self.checkpoint.clone()
        } else {
            let common = ours
                .iter()
                .zip(&theirs)
                .take_while(|(a, b)| a == b)
                .last()
                .map(|(a, _)| *a);
            return Err(Diverged { common });
        };
        let mut merged = Log {
            checkpoint: base,
            ..Log::default()
        };
        for op in self.ops.values().chain(other.ops.values()) {
            merged.insert(op.clone());
        }
        // An unreadable entry under the name of an operation the other log
        // holds is another version of it (a blob renamed over it, by a
        // hostile push): the operation stays, and the tree has one place
        // per name.
        let unheld = |corrupt: &&Corrupt| {
            corrupt
                .name
                .is_none_or(|name| !merged.names.contains_key(&name))
        };
        let corrupt: Vec<Corrupt> = self
            .corrupt
            .values()
            .chain(other.corrupt.values())
            .filter(unheld)
            .cloned()
            .collect();
        for corrupt in corrupt {
            merged.insert_corrupt(corrupt);
        }
        Ok(merged)
    }

    /// The operation of another name that `op` repeats, if the log holds
    /// one: the same stamp, time, claim and action (a copy pushed under
    /// another name, or one this clone made again).
    pub(crate) fn same_as(&self, op: &Op) -> Option<OpId> {
        let from = OpId {
            stamp: op.id.stamp,
            replica: Replica(0),
            counter: 0,
        };
        self.ops
            .range(from..)
            .take_while(|(id, _)| id.stamp == op.id.stamp)
            .map(|(_, held)| held)
            .find(|held| {
                (held.id.replica, held.id.counter) != (op.id.replica, op.id.counter)
                    && same_content(held, op)
            })
            .map(|held| held.id)
    }

    /// The log compacted: one checkpoint, named `id`, that covers every
    /// operation of this log and holds its replay over `empty`.
    /// Operations it does not trust yet (stamped past the clock, or past a
    /// gap) stay in the compacted log, beyond the checkpoint.
    pub(crate) fn compact(&self, id: CheckpointId, empty: Board) -> Log {
        let chain = self
            .checkpoint()
            .map(Checkpoint::lineage)
            .unwrap_or_default();
        let bound = trusted_until(micros(empty.clock().now()));
        let covers = self.reach(bound);
        let mut state = self.replay(empty);
        // The unreadable entries stay in git's history; the checkpoint
        // keeps their mention among the set-aside operations. Those it
        // does not cover are replayed after it: their mention goes with
        // them.
        let kept = |id: &OpId| covers.get(&id.replica).is_none_or(|&n| id.counter > n);
        let before = state.set_aside.len();
        state
            .set_aside
            .retain(|aside| !(self.ops.contains_key(&aside.op) && kept(&aside.op)));
        let dropped = u64::try_from(before - state.set_aside.len()).unwrap_or(0);
        state.set_aside_count = state.set_aside_count.saturating_sub(dropped);
        state.max_stamp = state.max_stamp.max(self.max_stamp_until(bound));
        let mut log = Log::from_checkpoint(Checkpoint {
            id,
            chain,
            covers,
            state,
        });
        for op in self.ops.values() {
            log.insert(op.clone());
        }
        log
    }

    /// How many operations and unreadable entries the log holds beyond its
    /// checkpoint.
    pub fn len(&self) -> usize {
        self.ops.len() + self.corrupt.len()
    }

    /// Whether the log holds nothing beyond its checkpoint.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whether two operations do the same: one stamp, time, claim and action.
fn same_content(a: &Op, b: &Op) -> bool {
    a.id.stamp == b.id.stamp && a.at == b.at && a.claim == b.claim && a.action == b.action
}

/// The most operations of one stamp that an operation is compared with
/// to tell a repeat: a stamp is nearly always one operation's (the hybrid
/// clock moves on at each write); the bound keeps a hostile log of many
/// operations with one stamp linear (a repeat past it is applied again,
/// as any operation).
const REPEATS_COMPARED: usize = 16;

/// The first operations of the stamp the replay is at: an operation that
/// repeats one of them under another name is applied once.
#[derive(Default)]
struct Repeats<'a> {
    stamp: Option<u64>,
    ops: Vec<&'a Op>,
}

impl<'a> Repeats<'a> {
    /// The operation `op` repeats, met earlier in the replay; else
    /// remembers `op`.
    fn first(&mut self, op: &'a Op) -> Option<OpId> {
        if self.stamp != Some(op.id.stamp) {
            self.stamp = Some(op.id.stamp);
            self.ops.clear();
        }
        if let Some(first) = self.ops.iter().find(|held| same_content(held, op)) {
            return Some(first.id);
        }
        if self.ops.len() < REPEATS_COMPARED {
            self.ops.push(op);
        }
        None
    }
}

/// A replica's reach as its counters are met in order: it runs on while
/// each is the next one and fits, then stops for good.
#[derive(Debug, Clone, Copy)]
struct Reaching {
    /// The last counter reached.
    reach: u64,
    /// Whether it still runs.
    on: bool,
}

impl Reaching {
    fn from(reach: u64) -> Self {
        Self { reach, on: true }
    }

    /// Meets `counter`, the next distinct one above the last met.
    fn meet(&mut self, counter: u64, fits: bool) {
        if self.on && fits && Some(counter) == self.reach.checked_add(1) {
            self.reach = counter;
        } else {
            self.on = false;
        }
    }
}

/// Why the replay does not trust `op`, which lies past the log's reach by
/// `bound`; `counted` is its reach by counters alone.
fn untrusted(op: &Op, bound: u64, counted: &Vector) -> Reason {
    let gap = counted
        .get(&op.id.replica)
        .is_none_or(|&n| op.id.counter > n);
    let skew = MAX_SKEW.as_secs() / 60;
    match (gap, op.id.stamp > bound || micros(op.at) > bound) {
        (true, _) => Reason::Untrusted(format!(
            "numbered {} after a gap in {}'s operations, which no clone writes",
            op.id.counter, op.id.replica
        )),
        (false, true) => Reason::Untrusted(format!(
            "stamped more than {skew} minutes past this clone's clock; it waits until then"
        )),
        (false, false) => Reason::Untrusted(format!(
            "an earlier operation of {} is stamped more than {skew} minutes past this clone's \
             clock; it waits with it",
            op.id.replica
        )),
    }
}
