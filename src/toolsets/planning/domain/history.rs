// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The record of goal changes (with reasons) and status changes, capped in size.

use std::collections::VecDeque;
use std::time::SystemTime;

use super::task::{Status, TaskId};

/// The most entries kept; older ones are dropped first, so that a long
/// session cannot grow the board (or its snapshot) without bound.
pub const HISTORY_CAP: usize = 1000;

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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    entries: VecDeque<Entry>,
}

/// What [`History::record`] did, so that it can be taken back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Recorded {
    appended: usize,
    evicted: Vec<Entry>,
}

impl History {
    /// A history holding `entries` (oldest first), cut to the cap.
    pub fn from_entries(entries: impl IntoIterator<Item = Entry>) -> Self {
        let mut entries: VecDeque<Entry> = entries.into_iter().collect();
        let excess = entries.len().saturating_sub(HISTORY_CAP);
        entries.drain(..excess);
        Self { entries }
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &Entry> + ExactSizeIterator {
        self.entries.iter()
    }

    /// Appends events that happened now, dropping the oldest beyond the cap.
    pub(crate) fn record(&mut self, events: Vec<Event>) -> Recorded {
        let at = SystemTime::now();
        let before = self.entries.len();
        self.entries
            .extend(events.into_iter().map(|event| Entry { at, event }));
        let appended = self.entries.len() - before;
        let excess = self.entries.len().saturating_sub(HISTORY_CAP);
        let evicted = self.entries.drain(..excess).collect();
        Recorded { appended, evicted }
    }

    /// Takes back what [`History::record`] did.
    pub(crate) fn unrecord(&mut self, recorded: Recorded) {
        // Entries that were appended and then evicted at once are not in the deque.
        let still_here = recorded.appended.min(self.entries.len());
        self.entries.truncate(self.entries.len() - still_here);
        let kept_evicted = recorded.evicted.len() - (recorded.appended - still_here);
        for entry in recorded.evicted.into_iter().take(kept_evicted).rev() {
            self.entries.push_front(entry);
        }
    }
}
