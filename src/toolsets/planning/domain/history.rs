// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The record of goal changes (with reasons) and status changes, capped in size.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::SystemTime;

use super::task::{Status, TaskId};
use crate::toolsets::planning::coordination::Evidence;

/// The most entries kept; older ones are dropped first, so that a long
/// session cannot grow the board (or its snapshot) without bound.
pub(crate) const HISTORY_CAP: usize = 1000;

/// The goal: what the tasks are for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Goal {
    /// Never blank.
    pub title: String,
    /// May be empty.
    pub description: String,
}

/// Something that happened on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The first goal was set.
    GoalSet {
        /// The goal as set.
        goal: Goal,
    },
    /// The goal was replaced, for a reason.
    GoalChanged {
        /// The goal before.
        from: Goal,
        /// The goal after.
        to: Goal,
        /// Why, as the caller said.
        reason: String,
    },
    /// A task moved from one status to another.
    StatusChanged {
        /// The task's ID at the time.
        task_id: TaskId,
        /// The task's title at the time, so the entry reads well after a delete.
        title: String,
        /// The status before.
        from: Status,
        /// The status after.
        to: Status,
    },
    /// An agent claimed a task (or renewed its claim) until a time.
    Claimed {
        /// The task's ID at the time.
        task_id: TaskId,
        /// The task's title at the time.
        title: String,
        /// Who claimed it.
        holder: String,
        /// When the lease ends.
        until: SystemTime,
    },
    /// A claim ended.
    ClaimEnded {
        /// The task's ID at the time.
        task_id: TaskId,
        /// The task's title at the time.
        title: String,
        /// Who held it.
        holder: String,
        /// When its lease ended or would have ended.
        until: SystemTime,
        /// Why it ended.
        reason: ClaimEnd,
    },
    /// A lead dispatched a task to a worker, who should claim it by `until`.
    Dispatched {
        /// The task's ID at the time.
        task_id: TaskId,
        /// The task's title at the time.
        title: String,
        /// The worker it was sent to.
        worker: String,
        /// The lead that sent it.
        by: String,
        /// When the worker must have claimed it.
        until: SystemTime,
    },
    /// A dispatch record ended.
    DispatchEnded {
        /// The task's ID at the time.
        task_id: TaskId,
        /// The task's title at the time.
        title: String,
        /// The worker it was sent to.
        worker: String,
        /// Why it ended.
        reason: DispatchEnd,
    },
    /// A deleted task was a blocker of other tasks: those links are gone.
    LinksRemoved {
        /// The deleted task's ID.
        task_id: TaskId,
        /// The deleted task's title.
        title: String,
        /// The tasks that waited for it and no longer do.
        dependents: Vec<TaskId>,
    },
    /// A person approved or rejected an agent's completion: the evidence
    /// reviewed, with the review (who, when, why a rejection) on it, so
    /// that a rejected outcome stays in the history after the task moves on.
    Reviewed {
        /// The task's ID at the time.
        task_id: TaskId,
        /// The task's title at the time.
        title: String,
        /// What the agent gave, and the person's review of it.
        evidence: Box<Evidence>,
    },
}

impl Event {
    /// Whether the event is about team coordination (claims, links,
    /// dispatches), which only format version 2 snapshots can hold.
    pub(crate) fn is_coordination(&self) -> bool {
        matches!(
            self,
            Event::Claimed { .. }
                | Event::ClaimEnded { .. }
                | Event::LinksRemoved { .. }
                | Event::Dispatched { .. }
                | Event::DispatchEnded { .. }
                | Event::Reviewed { .. }
        )
    }

    /// Whether the event is a person's review, which only format version 5
    /// snapshots can hold.
    pub(crate) fn is_review(&self) -> bool {
        matches!(self, Event::Reviewed { .. })
    }

    /// Whether the event is about a dispatch, which only format version 4
    /// snapshots can hold.
    pub(crate) fn is_dispatch(&self) -> bool {
        matches!(self, Event::Dispatched { .. } | Event::DispatchEnded { .. })
    }
}

/// Why a dispatch record ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DispatchEnd {
    /// The worker released the task (completed, failed or handed back).
    Released,
    /// The lead dispatched the stalled task again, to another worker.
    Replaced,
    /// Another agent claimed the stalled task.
    Taken,
    /// A planning tool changed the task's status (the operator's override).
    StatusChanged,
    /// The task was deleted.
    Deleted,
}

impl DispatchEnd {
    /// The name used in JSON, e.g. `status_changed`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            DispatchEnd::Released => "released",
            DispatchEnd::Replaced => "replaced",
            DispatchEnd::Taken => "taken",
            DispatchEnd::StatusChanged => "status_changed",
            DispatchEnd::Deleted => "deleted",
        }
    }
}

/// Why a claim ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimEnd {
    /// Its holder released it.
    Released,
    /// Its lease ran out.
    Expired,
    /// The task's status was changed away from in progress by a planning tool.
    StatusChanged,
    /// The task was deleted.
    Deleted,
}

impl ClaimEnd {
    /// The name used in JSON, e.g. `status_changed`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ClaimEnd::Released => "released",
            ClaimEnd::Expired => "expired",
            ClaimEnd::StatusChanged => "status_changed",
            ClaimEnd::Deleted => "deleted",
        }
    }
}

/// One history entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// When it happened.
    pub at: SystemTime,
    /// What happened.
    pub event: Event,
}

/// The last [`HISTORY_CAP`] entries, oldest first.
///
/// Entries are shared (`Arc`): a copy of the history, which a store keeps to
/// build the next board it loads, costs a reference count per entry.
#[derive(Debug, Clone, Default)]
pub struct History {
    entries: VecDeque<Arc<Entry>>,
    /// How many entries were ever recorded, the evicted ones included,
    /// counted from where the history was restored: a store that keeps the
    /// history entry by entry tells from it which entries are new.
    recorded: u64,
}

/// Two histories are equal when they hold the same entries, however many
/// each counts as recorded.
impl PartialEq for History {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl Eq for History {}

/// What [`History::record`] did, so that it can be taken back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Recorded {
    appended: usize,
    evicted: Vec<Arc<Entry>>,
}

impl History {
    /// A history holding `entries` (oldest first), cut to the cap.
    pub fn from_entries(entries: impl IntoIterator<Item = Entry>) -> Self {
        let entries: VecDeque<Arc<Entry>> = entries.into_iter().map(Arc::new).collect();
        let recorded = entries.len() as u64;
        Self::restored(entries, recorded)
    }

    /// A history holding `entries` (oldest first, cut to the cap) of which
    /// the newest was the `recorded`-th ever recorded (at least as many as
    /// it holds).
    pub(crate) fn restored(entries: impl IntoIterator<Item = Arc<Entry>>, recorded: u64) -> Self {
        let mut entries: VecDeque<Arc<Entry>> = entries.into_iter().collect();
        let recorded = recorded.max(entries.len() as u64);
        let excess = entries.len().saturating_sub(HISTORY_CAP);
        entries.drain(..excess);
        Self { entries, recorded }
    }

    /// The entries, oldest first.
    pub(crate) fn entries(&self) -> impl DoubleEndedIterator<Item = &Entry> + ExactSizeIterator {
        self.entries.iter().map(|entry| &**entry)
    }

    /// The entries as shared, oldest first.
    #[cfg_attr(
        not(feature = "postgres"),
        allow(dead_code, reason = "the postgres backend's")
    )]
    pub(crate) fn shared(
        &self,
    ) -> impl DoubleEndedIterator<Item = &Arc<Entry>> + ExactSizeIterator {
        self.entries.iter()
    }

    /// How many entries were ever recorded (see [`History::restored`]).
    #[cfg_attr(
        not(feature = "postgres"),
        allow(dead_code, reason = "the postgres backend's")
    )]
    pub(crate) fn recorded(&self) -> u64 {
        self.recorded
    }

    /// The entries recorded after the `recorded`-th, oldest first, if they
    /// are all still here (`None` when some were evicted already, or when
    /// the history counts fewer than `recorded`).
    #[cfg_attr(
        not(feature = "postgres"),
        allow(dead_code, reason = "the postgres backend's")
    )]
    pub(crate) fn recorded_after(&self, recorded: u64) -> Option<impl Iterator<Item = &Entry>> {
        let new = usize::try_from(self.recorded.checked_sub(recorded)?).ok()?;
        let kept = self.entries.len().checked_sub(new)?;
        Some(self.entries.iter().skip(kept).map(|entry| &**entry))
    }

    /// Appends events that happened at `at`, dropping the oldest beyond the cap.
    pub(crate) fn record_at(&mut self, events: Vec<Event>, at: SystemTime) -> Recorded {
        let before = self.entries.len();
        self.entries.extend(
            events
                .into_iter()
                .map(|event| Arc::new(Entry { at, event })),
        );
        let appended = self.entries.len() - before;
        self.recorded += appended as u64;
        let excess = self.entries.len().saturating_sub(HISTORY_CAP);
        let evicted = self.entries.drain(..excess).collect();
        Recorded { appended, evicted }
    }

    /// Takes back what [`History::record`] did.
    pub(crate) fn unrecord(&mut self, recorded: Recorded) {
        self.recorded -= recorded.appended as u64;
        // Entries that were appended and then evicted at once are not in the deque.
        let still_here = recorded.appended.min(self.entries.len());
        self.entries.truncate(self.entries.len() - still_here);
        let kept_evicted = recorded.evicted.len() - (recorded.appended - still_here);
        for entry in recorded.evicted.into_iter().take(kept_evicted).rev() {
            self.entries.push_front(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goal(title: &str) -> Event {
        Event::GoalSet {
            goal: Goal {
                title: title.into(),
                description: String::new(),
            },
        }
    }

    fn titles<'a>(entries: impl Iterator<Item = &'a Entry>) -> Vec<String> {
        entries
            .map(|entry| match &entry.event {
                Event::GoalSet { goal } => goal.title.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn recorded_after_names_the_new_entries_while_they_are_all_kept() {
        let mut history = History::restored([], 7);
        history.record_at(vec![goal("a"), goal("b")], SystemTime::UNIX_EPOCH);
        assert_eq!(history.recorded(), 9);
        assert_eq!(titles(history.recorded_after(7).unwrap()), ["a", "b"]);
        assert_eq!(titles(history.recorded_after(8).unwrap()), ["b"]);
        assert!(history.recorded_after(9).unwrap().next().is_none());
        // More than it holds, or a count it never reached: unknown.
        assert!(history.recorded_after(6).is_none());
        assert!(history.recorded_after(10).is_none());
    }

    #[test]
    fn unrecord_takes_the_count_back_too() {
        let full = (0..HISTORY_CAP).map(|n| goal(&n.to_string()));
        let mut history = History::from_entries(full.map(|event| Entry {
            at: SystemTime::UNIX_EPOCH,
            event,
        }));
        let before = history.clone();
        let recorded = history.record_at(vec![goal("new")], SystemTime::UNIX_EPOCH);
        assert_eq!(history.recorded(), HISTORY_CAP as u64 + 1);
        assert_eq!(
            titles(history.recorded_after(HISTORY_CAP as u64).unwrap()),
            ["new"]
        );
        history.unrecord(recorded);
        assert_eq!(history, before);
        assert_eq!(history.recorded(), HISTORY_CAP as u64);
    }
}
