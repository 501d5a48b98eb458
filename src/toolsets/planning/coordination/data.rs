// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What agents working as a team attach to a board: claims with leases,
//! links between tasks ("blocked by"), evidence of an outcome (or, for a
//! task completed without evidence, who completed it), the goal's
//! done-when condition, a lead's dispatch records (which worker it sent a
//! task to, where, until when) and the paths a task touches (glob
//! patterns, relative to the repository).
//!
//! Toolset `team` decides these (its rules live in `toolsets/team/domain`);
//! the board only stores them, snapshots them, and keeps them consistent
//! when its own tools reword, delete or re-status tasks, so that no claim,
//! link or evidence ever names a task that is not on the board. A board
//! nobody coordinates on holds none of it and behaves exactly as before.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::time::SystemTime;

use crate::toolsets::planning::domain::{Event, IdMap, IdSet, Status, TaskId};

/// An agent's claim on a task, for a lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The name the agent gave.
    pub holder: String,
    /// When the claim was taken (or last renewed).
    pub since: SystemTime,
    /// When the lease ends; after it, the task is free again.
    pub until: SystemTime,
}

/// What shows that a task's outcome is real: any of a command and its exit
/// code, a commit or change ID, a URL, a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    /// A command that was run, e.g. `cargo test`.
    pub(crate) command: Option<String>,
    /// Its exit code.
    pub(crate) exit_code: Option<i64>,
    /// A commit or change ID.
    pub(crate) commit: Option<String>,
    /// A URL, e.g. a CI run or a pull request.
    pub(crate) url: Option<String>,
    /// Free text.
    pub(crate) note: Option<String>,
    /// Who gave it.
    pub(crate) by: String,
    /// When.
    pub(crate) at: SystemTime,
    /// A person's review of the outcome, once there is one.
    pub(crate) review: Option<Review>,
}

/// A person's verdict on an agent's completion (docs/review.md): who, when,
/// and for a rejection why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Review {
    /// The reviewer, as they named themselves (or their OS account).
    pub(crate) by: String,
    /// When they decided.
    pub(crate) at: SystemTime,
    /// `None`: approved; else rejected, for this reason.
    pub(crate) rejected: Option<String>,
}

/// A lead's record that it dispatched a task to a worker (a sub-agent):
/// the worker should claim the task before `until`, and then keep its
/// lease; one that does neither leaves the record *stalled* (toolset
/// `team` decides that from the time; nothing here reads a clock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dispatch {
    /// The worker it was sent to (the agent name it claims with).
    pub(crate) worker: String,
    /// The lead that sent it.
    pub(crate) by: String,
    /// Where the worker works: a worktree or a directory, as the lead said.
    pub(crate) place: Option<String>,
    /// A note for whoever reads the board.
    pub(crate) note: Option<String>,
    /// When it was dispatched (or last re-dispatched).
    pub(crate) at: SystemTime,
    /// When the worker's time runs out: first the time by which it must
    /// claim the task, then the end of its lease (renewals move it).
    pub until: SystemTime,
    /// Whether the worker's claim linked to the record (it claimed it).
    pub(crate) claimed: bool,
}

/// A person's note for the agents (docs/review.md): on a task, for the
/// agent that holds it, or on the board, for the next agent that calls.
/// Carried once, in the reply of the agent it reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The task it is about; `None`: the whole board.
    pub(crate) task: Option<TaskId>,
    /// Who left it.
    pub(crate) by: String,
    /// When.
    pub(crate) at: SystemTime,
    /// What it says (one line).
    pub(crate) text: String,
    /// The agent whose reply carried it, once one did.
    pub(crate) told: Option<String>,
}

/// The team data of one board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coordination {
    claims: IdMap<Claim>,
    /// A lead's dispatch records.
    dispatches: IdMap<Dispatch>,
    /// The glob patterns a task touches, as declared (never empty).
    touches: IdMap<Vec<String>>,
    evidence: IdMap<Evidence>,
    /// Who released a task as completed without evidence (and so may add
    /// it later).
    completed_by: IdMap<String>,
    /// Task -> the tasks it waits for, sorted by ID.
    blocked_by: IdMap<BTreeSet<TaskId>>,
    /// Task -> the tasks that wait for it (the reverse of `blocked_by`).
    blocking: IdMap<BTreeSet<TaskId>>,
    links: usize,
    done_when: Option<String>,
    /// A person's notes, by number (from 1, in the order they were left).
    notes: BTreeMap<u64, Note>,
    /// The old ID of a task that was reworded while an agent held it -> its
    /// ID after that rewording, so that the holder's next call with the old
    /// ID is told the new one (docs/review.md).
    renamed: BTreeMap<TaskId, TaskId>,
}

/// One change to the coordination data. Applying a change returns the
/// change that takes it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// Sets or removes a task's claim.
    Claim(TaskId, Option<Claim>),
    /// Sets or removes a task's evidence.
    Evidence(TaskId, Option<Evidence>),
    /// Sets or removes who completed a task without evidence.
    CompletedBy(TaskId, Option<String>),
    /// `task` waits for `blocker`.
    Link { task: TaskId, blocker: TaskId },
    /// `task` no longer waits for `blocker`.
    Unlink { task: TaskId, blocker: TaskId },
    /// Sets or removes the goal's done-when condition.
    DoneWhen(Option<String>),
    /// Sets or removes a task's dispatch record.
    Dispatch(TaskId, Option<Dispatch>),
    /// Sets or removes the paths a task touches.
    Touches(TaskId, Option<Vec<String>>),
    /// Sets or removes note `n`.
    Note(u64, Option<Note>),
    /// Records (or forgets) that the held task `from` was reworded to `to`.
    Renamed(TaskId, Option<TaskId>),
    /// Moves everything attached to `from` to `to` (a reworded task's new ID).
    Rekey { from: TaskId, to: TaskId },
}

/// One step of a coordination change that toolset `team` asks the board
/// to make ([`crate::toolsets::planning::domain::Board::edit`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// Sets a task's status (recorded; it drops the task's evidence).
    Status(TaskId, Status),
    /// Sets or removes a task's claim.
    Claim(TaskId, Option<Claim>),
    /// Sets or removes a task's evidence.
    Evidence(TaskId, Option<Evidence>),
    /// Sets or removes who completed a task without evidence (dropped,
    /// like evidence, when the task's status changes).
    CompletedBy(TaskId, Option<String>),
    /// `task` waits for `blocker` from now on.
    Link {
        /// The task that waits.
        task: TaskId,
        /// The task it waits for.
        blocker: TaskId,
    },
    /// `task` no longer waits for `blocker`.
    Unlink {
        /// The task that waited.
        task: TaskId,
        /// The task it waited for.
        blocker: TaskId,
    },
    /// Sets or removes the goal's done-when condition.
    DoneWhen(Option<String>),
    /// Sets or removes a task's dispatch record.
    Dispatch(TaskId, Option<Dispatch>),
    /// Sets the paths a task touches (an empty list removes them).
    Touches(TaskId, Vec<String>),
    /// Sets or removes a person's note `n` (leaving one, or marking it told).
    Note(u64, Option<Note>),
    /// Records an event in the history.
    Record(Event),
}

/// What the board does for one [`Edit`] ([`Edit::into_step`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Sets a task's status, as the board sets one (recorded; it drops the
    /// task's evidence).
    Status(TaskId, Status),
    /// Records an event in the history.
    Record(Event),
    /// Changes the coordination data.
    Change(Change),
}

impl Edit {
    /// What the board does for the edit: a new kind of data is one arm
    /// here, and the board needs no change.
    pub(crate) fn into_step(self) -> Step {
        Step::Change(match self {
            Edit::Status(id, status) => return Step::Status(id, status),
            Edit::Record(event) => return Step::Record(event),
            Edit::Claim(id, claim) => Change::Claim(id, claim),
            Edit::Evidence(id, evidence) => Change::Evidence(id, evidence),
            Edit::CompletedBy(id, agent) => Change::CompletedBy(id, agent),
            Edit::Link { task, blocker } => Change::Link { task, blocker },
            Edit::Unlink { task, blocker } => Change::Unlink { task, blocker },
            Edit::DoneWhen(text) => Change::DoneWhen(text),
            Edit::Dispatch(id, dispatch) => Change::Dispatch(id, dispatch),
            Edit::Touches(id, touches) => Change::Touches(id, Some(touches)),
            Edit::Note(n, note) => Change::Note(n, note),
        })
    }

    /// The tasks the edit names, which must be on the board.
    pub(crate) fn tasks(&self) -> Vec<TaskId> {
        match self {
            Edit::Status(id, _)
            | Edit::Claim(id, _)
            | Edit::Evidence(id, _)
            | Edit::CompletedBy(id, _)
            | Edit::Dispatch(id, _)
            | Edit::Touches(id, _) => vec![*id],
            Edit::Link { task, blocker } | Edit::Unlink { task, blocker } => vec![*task, *blocker],
            Edit::Note(_, note) => note.iter().filter_map(|note| note.task).collect(),
            Edit::DoneWhen(_) | Edit::Record(_) => Vec::new(),
        }
    }
}

const NO_LINKS: &BTreeSet<TaskId> = &BTreeSet::new();

impl Coordination {
    /// Whether nothing is attached to the board.
    pub(crate) fn is_empty(&self) -> bool {
        self.claims.is_empty()
            && self.evidence.is_empty()
            && self.completed_by.is_empty()
            && self.links == 0
            && self.done_when.is_none()
            && self.dispatches.is_empty()
            && self.touches.is_empty()
            && self.notes.is_empty()
            && self.renamed.is_empty()
    }

    /// The ID a held task that had ID `old` has now, after one or more
    /// rewordings, if it is known.
    pub(crate) fn renamed_to(&self, old: TaskId) -> Option<TaskId> {
        let mut id = *self.renamed.get(&old)?;
        // A chain of rewordings, followed at most once round the map.
        for _ in 0..self.renamed.len() {
            match self.renamed.get(&id) {
                Some(next) if *next != old => id = *next,
                _ => break,
            }
        }
        Some(id)
    }

    /// Every recorded rewording of a held task, old ID -> new ID.
    pub(crate) fn renamings(&self) -> impl Iterator<Item = (TaskId, TaskId)> + '_ {
        self.renamed.iter().map(|(old, new)| (*old, *new))
    }

    /// A person's notes, by number, oldest first.
    pub(crate) fn notes(&self) -> impl DoubleEndedIterator<Item = (u64, &Note)> {
        self.notes.iter().map(|(n, note)| (*n, note))
    }

    /// The number the next note gets.
    pub(crate) fn next_note(&self) -> u64 {
        self.notes.keys().next_back().map_or(1, |n| n + 1)
    }

    /// Whether any task has a dispatch record or declares the paths it
    /// touches (which needs snapshot format version 4).
    pub(crate) fn has_dispatches_or_touches(&self) -> bool {
        !self.dispatches.is_empty() || !self.touches.is_empty()
    }

    /// Whether any evidence carries a person's review (which needs snapshot
    /// format version 5).
    pub(crate) fn has_reviews(&self) -> bool {
        self.evidence.values().any(|e| e.review.is_some())
    }

    /// Task `id`'s dispatch record.
    pub(crate) fn dispatch(&self, id: TaskId) -> Option<&Dispatch> {
        self.dispatches.get(&id)
    }

    /// Every dispatch record, in no particular order.
    pub(crate) fn dispatches(&self) -> impl Iterator<Item = (TaskId, &Dispatch)> {
        self.dispatches.iter().map(|(id, dispatch)| (*id, dispatch))
    }

    /// The glob patterns task `id` touches; empty when it declares none.
    pub(crate) fn touches(&self, id: TaskId) -> &[String] {
        self.touches.get(&id).map_or(&[], Vec::as_slice)
    }

    /// The claim on task `id`, expired or not.
    pub(crate) fn claim(&self, id: TaskId) -> Option<&Claim> {
        self.claims.get(&id)
    }

    /// Every claim, in no particular order.
    pub(crate) fn claims(&self) -> impl Iterator<Item = (TaskId, &Claim)> {
        self.claims.iter().map(|(id, claim)| (*id, claim))
    }

    /// The evidence of task `id`'s outcome.
    pub(crate) fn evidence(&self, id: TaskId) -> Option<&Evidence> {
        self.evidence.get(&id)
    }

    /// Who released task `id` as completed without evidence.
    pub(crate) fn completed_by(&self, id: TaskId) -> Option<&str> {
        self.completed_by.get(&id).map(String::as_str)
    }

    /// Whether any task records who completed it without evidence (which
    /// needs snapshot format version 3).
    pub(crate) fn has_completers(&self) -> bool {
        !self.completed_by.is_empty()
    }

    /// The tasks `id` waits for, sorted by ID.
    pub(crate) fn blockers(&self, id: TaskId) -> &BTreeSet<TaskId> {
        self.blocked_by.get(&id).unwrap_or(NO_LINKS)
    }

    /// The tasks that wait for `id`, sorted by ID.
    pub(crate) fn dependents(&self, id: TaskId) -> &BTreeSet<TaskId> {
        self.blocking.get(&id).unwrap_or(NO_LINKS)
    }

    /// How many links there are.
    pub fn link_count(&self) -> usize {
        self.links
    }

    /// The goal's done-when condition.
    pub(crate) fn done_when(&self) -> Option<&str> {
        self.done_when.as_deref()
    }

    /// A chain of links from `from` to `to`, both included, following
    /// "waits for": `[from, x, .., to]`, or `None` if `from` does not
    /// (transitively) wait for `to`. Depth-first, each task visited once.
    pub(crate) fn path(&self, from: TaskId, to: TaskId) -> Option<Vec<TaskId>> {
        let mut seen = HashSet::from([from]);
        // Each frame: a task and the blockers still to visit from it.
        let mut stack = vec![(from, self.blockers(from).iter())];
        while let Some((_, next)) = stack.last_mut() {
            match next.next() {
                Some(&blocker) if blocker == to => {
                    let mut path: Vec<TaskId> = stack.iter().map(|(id, _)| *id).collect();
                    path.push(to);
                    return Some(path);
                }
                Some(&blocker) => {
                    if seen.insert(blocker) {
                        stack.push((blocker, self.blockers(blocker).iter()));
                    }
                }
                None => {
                    stack.pop();
                }
            }
        }
        None
    }

    /// A cycle of links, as a path that starts and ends at the same task,
    /// if there is one (a hand-edited snapshot may hold one). One
    /// depth-first pass over every link.
    pub(crate) fn find_cycle(&self) -> Option<Vec<TaskId>> {
        let mut starts: Vec<TaskId> = self.blocked_by.keys().copied().collect();
        starts.sort_unstable();
        let mut finished: IdSet = IdSet::default();
        for start in starts {
            if finished.contains(&start) {
                continue;
            }
            let mut on_path = HashSet::from([start]);
            let mut stack = vec![(start, self.blockers(start).iter())];
            while let Some((task, next)) = stack.last_mut() {
                let task = *task;
                match next.next() {
                    Some(&blocker) if on_path.contains(&blocker) => {
                        let from = stack.iter().position(|(id, _)| *id == blocker)?;
                        let mut path: Vec<TaskId> =
                            stack[from..].iter().map(|(id, _)| *id).collect();
                        path.push(blocker);
                        return Some(path);
                    }
                    Some(&blocker) if !finished.contains(&blocker) => {
                        on_path.insert(blocker);
                        stack.push((blocker, self.blockers(blocker).iter()));
                    }
                    Some(_) => {}
                    None => {
                        on_path.remove(&task);
                        finished.insert(task);
                        stack.pop();
                    }
                }
            }
        }
        None
    }

    /// Applies `change`; returns the change that takes it back.
    pub(crate) fn apply(&mut self, change: Change) -> Change {
        match change {
            Change::Claim(id, claim) => Change::Claim(id, set(&mut self.claims, id, claim)),
            Change::Evidence(id, evidence) => {
                Change::Evidence(id, set(&mut self.evidence, id, evidence))
            }
            Change::CompletedBy(id, agent) => {
                Change::CompletedBy(id, set(&mut self.completed_by, id, agent))
            }
            Change::Link { task, blocker } => {
                if insert(&mut self.blocked_by, task, blocker) {
                    insert(&mut self.blocking, blocker, task);
                    self.links += 1;
                    Change::Unlink { task, blocker }
                } else {
                    // Already linked: taking back a no-op must not unlink.
                    Change::Link { task, blocker }
                }
            }
            Change::Unlink { task, blocker } => {
                if remove(&mut self.blocked_by, task, blocker) {
                    remove(&mut self.blocking, blocker, task);
                    self.links -= 1;
                    Change::Link { task, blocker }
                } else {
                    Change::Unlink { task, blocker }
                }
            }
            Change::DoneWhen(text) => {
                Change::DoneWhen(std::mem::replace(&mut self.done_when, text))
            }
            Change::Dispatch(id, dispatch) => {
                Change::Dispatch(id, set(&mut self.dispatches, id, dispatch))
            }
            Change::Touches(id, touches) => {
                // An empty list is no declaration: stored as none.
                let touches = touches.filter(|list| !list.is_empty());
                Change::Touches(id, set(&mut self.touches, id, touches))
            }
            Change::Renamed(from, to) => Change::Renamed(
                from,
                match to {
                    Some(to) => self.renamed.insert(from, to),
                    None => self.renamed.remove(&from),
                },
            ),
            Change::Note(n, note) => Change::Note(
                n,
                match note {
                    Some(note) => self.notes.insert(n, note),
                    None => self.notes.remove(&n),
                },
            ),
            Change::Rekey { from, to } => {
                self.rekey(from, to);
                Change::Rekey { from: to, to: from }
            }
        }
    }

    /// The changes that detach everything from task `id` (before it is
    /// deleted), applied; returns what takes them back.
    pub(crate) fn detach(&mut self, id: TaskId) -> Vec<Change> {
        let mut changes = vec![
            Change::Claim(id, None),
            Change::Evidence(id, None),
            Change::CompletedBy(id, None),
            Change::Dispatch(id, None),
            Change::Touches(id, None),
        ];
        changes.extend(
            self.blockers(id)
                .iter()
                .map(|&blocker| Change::Unlink { task: id, blocker }),
        );
        // A note about a deleted task has no one left to reach.
        changes.extend(
            self.notes
                .iter()
                .filter(|(_, note)| note.task == Some(id))
                .map(|(n, _)| Change::Note(*n, None)),
        );
        changes.extend(
            self.dependents(id)
                .iter()
                .map(|&task| Change::Unlink { task, blocker: id }),
        );
        changes
            .into_iter()
            .map(|change| self.apply(change))
            .collect()
    }

    fn rekey(&mut self, from: TaskId, to: TaskId) {
        if from == to {
            return;
        }
        if let Some(claim) = self.claims.remove(&from) {
            self.claims.insert(to, claim);
        }
        if let Some(evidence) = self.evidence.remove(&from) {
            self.evidence.insert(to, evidence);
        }
        if let Some(agent) = self.completed_by.remove(&from) {
            self.completed_by.insert(to, agent);
        }
        if let Some(dispatch) = self.dispatches.remove(&from) {
            self.dispatches.insert(to, dispatch);
        }
        if let Some(touches) = self.touches.remove(&from) {
            self.touches.insert(to, touches);
        }
        for note in self.notes.values_mut() {
            if note.task == Some(from) {
                note.task = Some(to);
            }
        }
        if let Some(blockers) = self.blocked_by.remove(&from) {
            for blocker in &blockers {
                remove(&mut self.blocking, *blocker, from);
                insert(&mut self.blocking, *blocker, to);
            }
            self.blocked_by.insert(to, blockers);
        }
        if let Some(dependents) = self.blocking.remove(&from) {
            for task in &dependents {
                remove(&mut self.blocked_by, *task, from);
                insert(&mut self.blocked_by, *task, to);
            }
            self.blocking.insert(to, dependents);
        }
    }
}

/// Sets or removes `map[id]`; returns what was there.
fn set<T>(map: &mut IdMap<T>, id: TaskId, value: Option<T>) -> Option<T> {
    match value {
        Some(value) => map.insert(id, value),
        None => map.remove(&id),
    }
}

fn insert(map: &mut IdMap<BTreeSet<TaskId>>, key: TaskId, value: TaskId) -> bool {
    map.entry(key).or_default().insert(value)
}

fn remove(map: &mut IdMap<BTreeSet<TaskId>>, key: TaskId, value: TaskId) -> bool {
    let Some(set) = map.get_mut(&key) else {
        return false;
    };
    let removed = set.remove(&value);
    if set.is_empty() {
        map.remove(&key);
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> TaskId {
        TaskId::from_content(&n.to_string(), "")
    }

    fn dispatch() -> Dispatch {
        Dispatch {
            worker: "w1".into(),
            by: "lead".into(),
            place: Some("wt/one".into()),
            note: None,
            at: SystemTime::UNIX_EPOCH,
            until: SystemTime::UNIX_EPOCH,
            claimed: false,
        }
    }

    #[test]
    fn an_empty_touch_list_is_no_declaration_and_undoes_exactly() {
        let mut c = Coordination::default();
        let undo = c.apply(Change::Touches(id(1), Some(vec!["a/**".into()])));
        assert_eq!(c.touches(id(1)), ["a/**"]);
        let cleared = c.apply(Change::Touches(id(1), Some(Vec::new())));
        assert!(c.touches(id(1)).is_empty());
        assert!(c.is_empty(), "nothing is stored for an empty list");
        let _ = c.apply(cleared);
        assert_eq!(c.touches(id(1)), ["a/**"]);
        let _ = c.apply(undo);
        assert_eq!(c, Coordination::default());
    }

    fn link(c: &mut Coordination, task: u32, blocker: u32) -> Change {
        c.apply(Change::Link {
            task: id(task),
            blocker: id(blocker),
        })
    }

    #[test]
    fn links_keep_both_directions_and_undo_exactly() {
        let mut c = Coordination::default();
        let undo = link(&mut c, 1, 2);
        assert_eq!(c.blockers(id(1)).iter().collect::<Vec<_>>(), [&id(2)]);
        assert_eq!(c.dependents(id(2)).iter().collect::<Vec<_>>(), [&id(1)]);
        assert_eq!(c.link_count(), 1);
        let again = link(&mut c, 1, 2);
        assert_eq!(c.link_count(), 1, "a link is there once");
        let _ = c.apply(again);
        assert_eq!(c.link_count(), 1, "undoing a no-op keeps the link");
        let _ = c.apply(undo);
        assert_eq!(c, Coordination::default());
    }

    #[test]
    fn paths_and_cycles_are_found() {
        let mut c = Coordination::default();
        for (task, blocker) in [(1, 2), (2, 3), (3, 4), (1, 5)] {
            let _ = link(&mut c, task, blocker);
        }
        assert_eq!(c.path(id(1), id(4)), Some(vec![id(1), id(2), id(3), id(4)]));
        assert_eq!(c.path(id(4), id(1)), None);
        assert_eq!(c.path(id(5), id(4)), None);
        assert_eq!(c.find_cycle(), None);
        let _ = link(&mut c, 4, 1);
        let cycle = c.find_cycle().unwrap();
        assert_eq!(cycle.first(), cycle.last());
        assert_eq!(cycle.len(), 5, "{cycle:?}");
    }

    #[test]
    fn rekey_moves_everything_and_back() {
        let mut c = Coordination::default();
        let _ = link(&mut c, 1, 2);
        let _ = link(&mut c, 3, 1);
        let at = SystemTime::UNIX_EPOCH;
        let claim = Claim {
            holder: "a".into(),
            since: at,
            until: at,
        };
        let _ = c.apply(Change::Claim(id(1), Some(claim.clone())));
        let _ = c.apply(Change::CompletedBy(id(1), Some("a".into())));
        let _ = c.apply(Change::Dispatch(id(1), Some(dispatch())));
        let _ = c.apply(Change::Touches(id(1), Some(vec!["src/**".into()])));
        let before = c.clone();
        let undo = c.apply(Change::Rekey {
            from: id(1),
            to: id(9),
        });
        assert_eq!(c.claim(id(9)), Some(&claim));
        assert_eq!(c.completed_by(id(9)), Some("a"));
        assert!(c.completed_by(id(1)).is_none());
        assert_eq!(c.dispatch(id(9)), Some(&dispatch()));
        assert!(c.dispatch(id(1)).is_none());
        assert_eq!(c.touches(id(9)), ["src/**"]);
        assert!(c.touches(id(1)).is_empty());
        assert!(c.claim(id(1)).is_none());
        assert!(c.blockers(id(9)).contains(&id(2)));
        assert!(c.dependents(id(2)).contains(&id(9)));
        assert!(c.blockers(id(3)).contains(&id(9)));
        assert!(!c.blockers(id(3)).contains(&id(1)));
        let _ = c.apply(undo);
        assert_eq!(c, before);
    }

    #[test]
    fn detach_removes_every_trace_and_can_be_taken_back() {
        let mut c = Coordination::default();
        let _ = link(&mut c, 1, 2);
        let _ = link(&mut c, 3, 1);
        let evidence = Evidence {
            command: None,
            exit_code: None,
            commit: None,
            url: None,
            note: Some("done".into()),
            by: "a".into(),
            at: SystemTime::UNIX_EPOCH,
            review: None,
        };
        let _ = c.apply(Change::Evidence(id(1), Some(evidence)));
        let _ = c.apply(Change::CompletedBy(id(1), Some("b".into())));
        let _ = c.apply(Change::Dispatch(id(1), Some(dispatch())));
        let _ = c.apply(Change::Touches(id(1), Some(vec!["docs/**".into()])));
        assert!(c.has_dispatches_or_touches());
        let before = c.clone();
        let undo = c.detach(id(1));
        assert_eq!(c.link_count(), 0);
        assert!(c.evidence(id(1)).is_none());
        assert!(c.completed_by(id(1)).is_none());
        assert!(c.dependents(id(2)).is_empty());
        assert!(c.is_empty());
        for change in undo.into_iter().rev() {
            let _ = c.apply(change);
        }
        assert_eq!(c, before);
    }
}
