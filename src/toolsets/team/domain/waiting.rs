// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What `wait_for` waits for, decided without a clock of its own or any
//! waiting: the caller names events, and each time the board changes (or
//! a dispatch's time runs out) it asks whether one happened.
//!
//! The board's *revision* counts its changes (the shared board's change
//! counter: it starts at 0 when a server opens the board). A [`Tracker`]
//! remembers, per revision it looked at, since which revision each
//! finished task has been finished and each ready task ready, so that the
//! question "did a task finish since revision R" is one comparison for
//! every waiter, however many wait: the tracker reads the board once per
//! revision, not once per waiter.

use std::collections::HashMap;
use std::time::SystemTime;

use super::error::TeamError;
use super::view::View;
use crate::toolsets::planning::domain::{Status, TaskId};

/// Something that can happen on a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Event {
    /// A task was completed or failed (one of the named tasks, if any
    /// are named: then one that is so already counts at once).
    Finished,
    /// A task became ready.
    Ready,
    /// A dispatch stalled: its worker's time ran out (one that is stalled
    /// already counts at once).
    Stalled,
    /// The goal is met: every task completed or cancelled (at once if so).
    GoalMet,
    /// Anything changed.
    Changed,
    /// A task awaits a person's review (one that does already counts at once).
    Review,
    /// A person approved or rejected a task.
    Reviewed,
}

impl Event {
    /// Every event, in the order replies name them.
    pub(crate) const ALL: [Event; 7] = [
        Event::Finished,
        Event::Ready,
        Event::Stalled,
        Event::GoalMet,
        Event::Changed,
        Event::Review,
        Event::Reviewed,
    ];

    /// Its name in `wait_for`'s `events`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Event::Finished => "finished",
            Event::Ready => "ready",
            Event::Stalled => "stalled",
            Event::GoalMet => "goal_met",
            Event::Changed => "changed",
            Event::Review => "review",
            Event::Reviewed => "reviewed",
        }
    }

    /// The event named `name`.
    pub(crate) fn parse(name: &str) -> Result<Self, TeamError> {
        Self::ALL
            .into_iter()
            .find(|event| event.as_str() == name)
            .ok_or_else(|| TeamError::Text {
                field: "event",
                problem: format!(
                    "'{}' is none of finished, ready, stalled, goal_met, changed, review, reviewed",
                    crate::runtime::text::clip(name)
                ),
            })
    }
}

/// What a waiter waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Condition {
    /// The events that end the wait, sorted, each once.
    pub(crate) events: Vec<Event>,
    /// For [`Event::Finished`]: only these tasks (empty: any task).
    pub(crate) tasks: Vec<TaskId>,
    /// Changes after this revision count.
    pub(crate) since: u64,
}

/// The board at one revision, as waiters need it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tracker {
    /// The revision it looked at last.
    revision: u64,
    /// The first revision it looked at: it knows nothing from before.
    first: Option<u64>,
    /// Finished tasks (completed or failed), with the revision since which
    /// they have been.
    finished: HashMap<TaskId, u64>,
    /// Ready tasks, with the revision since which they have been.
    ready: HashMap<TaskId, u64>,
    /// Tasks awaiting a person's review (their revision is not needed: one
    /// that awaits review counts at once).
    awaiting: HashMap<TaskId, u64>,
    /// Tasks whose evidence carries a person's review, likewise.
    reviewed: HashMap<TaskId, u64>,
    /// The newest of those revisions.
    newest_finished: u64,
    newest_ready: u64,
    newest_reviewed: u64,
    goal_met: bool,
    /// Every dispatch record's `until`: it is stalled from then on.
    stall_at: Vec<(TaskId, SystemTime)>,
}

/// Why a wait ended: the events that happened and the tasks they concern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Woke {
    /// The events, in [`Event::ALL`]'s order.
    pub(crate) events: Vec<Event>,
    /// Tasks that finished, or (named) are finished.
    pub(crate) finished: Vec<TaskId>,
    /// Tasks that became ready.
    pub(crate) ready: Vec<TaskId>,
    /// Dispatches that are stalled.
    pub(crate) stalled: Vec<TaskId>,
    /// Tasks that came to await review.
    pub(crate) review: Vec<TaskId>,
    /// Tasks a person reviewed.
    pub(crate) reviewed: Vec<TaskId>,
}

impl Tracker {
    /// The revision it looked at last.
    #[cfg(test)]
    pub(crate) fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether it has looked at revision `revision` (or a newer one).
    pub(crate) fn has_seen(&self, revision: u64) -> bool {
        self.first.is_some() && self.revision >= revision
    }

    /// Looks at the board `view` shows, which is at `revision`. A task
    /// keeps the revision since which it is finished (ready) for as long as
    /// it stays so; one that is newly so gets `revision`.
    pub(crate) fn look(&mut self, view: View<'_>, revision: u64) {
        if self.has_seen(revision) {
            return;
        }
        let stamp = |old: &HashMap<TaskId, u64>, id: TaskId| *old.get(&id).unwrap_or(&revision);
        let finished: HashMap<TaskId, u64> = view
            .board
            .tasks()
            .filter(|t| matches!(t.status, Status::Completed | Status::Failed))
            .map(|t| (t.id, stamp(&self.finished, t.id)))
            .collect();
        let ready: HashMap<TaskId, u64> = view
            .ready()
            .map(|t| (t.id, stamp(&self.ready, t.id)))
            .collect();
        let awaiting: HashMap<TaskId, u64> = view
            .board
            .tasks()
            .filter(|t| t.status == Status::AwaitingReview)
            .map(|t| (t.id, stamp(&self.awaiting, t.id)))
            .collect();
        let coordination = view.board.coordination();
        let reviewed: HashMap<TaskId, u64> = view
            .board
            .tasks()
            .filter(|t| {
                coordination
                    .evidence(t.id)
                    .is_some_and(|e| e.review.is_some())
            })
            .map(|t| (t.id, stamp(&self.reviewed, t.id)))
            .collect();
        self.newest_reviewed = reviewed.values().copied().max().unwrap_or(0);
        self.awaiting = awaiting;
        self.reviewed = reviewed;
        self.newest_finished = finished.values().copied().max().unwrap_or(0);
        self.newest_ready = ready.values().copied().max().unwrap_or(0);
        self.finished = finished;
        self.ready = ready;
        self.goal_met = view.goal_met();
        self.stall_at = view
            .board
            .coordination()
            .dispatches()
            .map(|(id, d)| (id, d.until))
            .collect();
        self.first.get_or_insert(revision);
        self.revision = revision;
    }

    /// The revision a waiter that says `since` is compared with: the
    /// tracker cannot tell what happened before it first looked, and a
    /// revision it has not reached yet is from before the board was opened
    /// again (its count starts anew).
    pub(crate) fn baseline(&self, since: u64) -> u64 {
        let first = self.first.unwrap_or(since);
        match since > self.revision {
            true => first,
            false => since.max(first),
        }
    }

    /// Whether one of `condition`'s events happened by `now`, and which.
    pub(crate) fn check(&self, condition: &Condition, now: SystemTime) -> Option<Woke> {
        let since = self.baseline(condition.since);
        let mut woke = Woke {
            events: Vec::new(),
            finished: Vec::new(),
            ready: Vec::new(),
            stalled: Vec::new(),
            review: Vec::new(),
            reviewed: Vec::new(),
        };
        for event in &condition.events {
            let happened = match event {
                Event::Finished => {
                    woke.finished = match condition.tasks.is_empty() {
                        true => newer(&self.finished, self.newest_finished, since),
                        false => condition
                            .tasks
                            .iter()
                            .copied()
                            .filter(|id| self.finished.contains_key(id))
                            .collect(),
                    };
                    !woke.finished.is_empty()
                }
                Event::Ready => {
                    woke.ready = newer(&self.ready, self.newest_ready, since);
                    !woke.ready.is_empty()
                }
                Event::Stalled => {
                    woke.stalled = self
                        .stall_at
                        .iter()
                        .filter(|(_, until)| *until <= now)
                        .map(|(id, _)| *id)
                        .collect();
                    !woke.stalled.is_empty()
                }
                Event::GoalMet => self.goal_met,
                // Like a stall, a task that awaits review now counts at once:
                // the lead is told what waits for the person.
                Event::Review => {
                    woke.review = self.awaiting.keys().copied().collect();
                    woke.review.sort_unstable();
                    !woke.review.is_empty()
                }
                Event::Reviewed => {
                    woke.reviewed = newer(&self.reviewed, self.newest_reviewed, since);
                    !woke.reviewed.is_empty()
                }
                // A revision it has not reached: the board was opened anew.
                Event::Changed => self.revision != condition.since,
            };
            if happened {
                woke.events.push(*event);
            }
        }
        (!woke.events.is_empty()).then_some(woke)
    }

    /// When the next dispatch stalls, after `now`, if `condition` waits for
    /// stalls: a waiter sleeps until then at most.
    pub(crate) fn next_stall(&self, condition: &Condition, now: SystemTime) -> Option<SystemTime> {
        if !condition.events.contains(&Event::Stalled) {
            return None;
        }
        self.stall_at
            .iter()
            .map(|(_, until)| *until)
            .filter(|until| *until > now)
            .min()
    }
}

/// The tasks of `stamps` that are so since after `since` (none, at the
/// cost of one comparison, when the newest stamp is not).
fn newer(stamps: &HashMap<TaskId, u64>, newest: u64, since: u64) -> Vec<TaskId> {
    if newest <= since {
        return Vec::new();
    }
    let mut found: Vec<TaskId> = stamps
        .iter()
        .filter(|(_, stamp)| **stamp > since)
        .map(|(id, _)| *id)
        .collect();
    found.sort_unstable();
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::coordination::{Dispatch, Edit};
    use crate::toolsets::team::domain::fixture::{at, board, id, link};

    fn condition(events: &[Event], since: u64) -> Condition {
        Condition {
            events: events.to_vec(),
            tasks: Vec::new(),
            since,
        }
    }

    #[test]
    fn finished_and_ready_count_from_the_revision_a_waiter_names() {
        let mut board = board(&["a", "b"]);
        link(&mut board, "b", &["a"]);
        let mut tracker = Tracker::default();
        tracker.look(View::new(&board, at(0)), 3);
        let waiting = condition(&[Event::Finished, Event::Ready], 3);
        assert_eq!(tracker.check(&waiting, at(0)), None, "nothing yet");
        // Revision 4: a is completed, so b becomes ready.
        let a = id("a").to_string();
        let _ = board.update_statuses(&[(&a, "completed")]).unwrap();
        tracker.look(View::new(&board, at(0)), 4);
        let woke = tracker.check(&waiting, at(0)).unwrap();
        assert_eq!(woke.events, [Event::Finished, Event::Ready]);
        assert_eq!((woke.finished, woke.ready), (vec![id("a")], vec![id("b")]));
        // A waiter that starts at 4 sees nothing new; one that says 3 does.
        assert_eq!(
            tracker.check(&condition(&[Event::Finished], 4), at(0)),
            None
        );
        // Before the tracker's first look, nothing is known: baseline 3.
        assert_eq!(tracker.baseline(0), 3);
        assert!(
            tracker
                .check(&condition(&[Event::Ready], 0), at(0))
                .is_some()
        );
        // A task that stays ready keeps its revision.
        tracker.look(View::new(&board, at(0)), 9);
        assert_eq!(tracker.check(&condition(&[Event::Ready], 4), at(0)), None);
        // Looking at an older revision changes nothing.
        tracker.look(View::new(&board, at(0)), 2);
        assert_eq!(tracker.revision(), 9);
    }

    #[test]
    fn named_tasks_goal_and_changes_are_states() {
        let mut board = board(&["a", "b"]);
        let mut tracker = Tracker::default();
        let b = id("b").to_string();
        let _ = board.update_statuses(&[(&b, "failed")]).unwrap();
        tracker.look(View::new(&board, at(0)), 5);
        let named = Condition {
            events: vec![Event::Finished],
            tasks: vec![id("a"), id("b")],
            since: 5,
        };
        assert_eq!(tracker.check(&named, at(0)).unwrap().finished, [id("b")]);
        assert_eq!(tracker.check(&condition(&[Event::GoalMet], 5), at(0)), None);
        assert_eq!(tracker.check(&condition(&[Event::Changed], 5), at(0)), None);
        assert!(
            tracker
                .check(&condition(&[Event::Changed], 4), at(0))
                .is_some()
        );
        // A revision from before the board was opened again counts as a change.
        assert!(
            tracker
                .check(&condition(&[Event::Changed], 50), at(0))
                .is_some()
        );
        assert_eq!(tracker.baseline(50), 5);
        let a = id("a").to_string();
        let _ = board
            .update_statuses(&[(&a, "completed"), (&b, "cancelled")])
            .unwrap();
        tracker.look(View::new(&board, at(0)), 6);
        let woke = tracker
            .check(&condition(&[Event::GoalMet], 6), at(0))
            .unwrap();
        assert_eq!(woke.events, [Event::GoalMet]);
    }

    #[test]
    fn a_dispatch_stalls_with_time_and_the_next_stall_is_known() {
        let mut board = board(&["a", "b"]);
        let dispatch = |until| Dispatch {
            worker: "w".into(),
            by: "lead".into(),
            place: None,
            note: None,
            at: at(0),
            until,
            claimed: false,
        };
        let edits = vec![
            Edit::Dispatch(id("a"), Some(dispatch(at(15)))),
            Edit::Dispatch(id("b"), Some(dispatch(at(30)))),
        ];
        let _ = board.edit(at(0), edits).unwrap();
        let mut tracker = Tracker::default();
        tracker.look(View::new(&board, at(0)), 1);
        let stalls = condition(&[Event::Stalled], 1);
        assert_eq!(tracker.check(&stalls, at(14)), None);
        assert_eq!(tracker.next_stall(&stalls, at(14)), Some(at(15)));
        assert_eq!(tracker.check(&stalls, at(15)).unwrap().stalled, [id("a")]);
        assert_eq!(tracker.next_stall(&stalls, at(15)), Some(at(30)));
        let no_stalls = condition(&[Event::Finished], 1);
        assert_eq!(tracker.next_stall(&no_stalls, at(0)), None);
    }

    #[test]
    fn events_are_named() {
        for event in Event::ALL {
            assert_eq!(Event::parse(event.as_str()), Ok(event));
        }
        assert_eq!(
            Event::parse("done").unwrap_err().to_string(),
            "The event 'done' is none of finished, ready, stalled, goal_met, changed, review, reviewed."
        );
    }
}
