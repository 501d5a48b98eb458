// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board as JSON: `GET /boards/{name}.json` and every live event. The
//! shape is documented in `docs/web.md`; `version` changes if it ever must
//! change incompatibly (fields may be added without a new version).
//!
//! This is the page's view, not a stored record: it is shaped for another
//! audience (a browser, with derived fields such as progress) and versioned
//! on its own, so it stays apart from the stores' records
//! (`store/records/`), which it neither writes nor reads.

use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

use super::store_state::StoreView;
use crate::toolsets::planning::coordination::{Claim, Dispatch, Evidence, Review};
use crate::toolsets::planning::domain::{Board, Event, Goal, Status, Task};

/// The version of the JSON shape.
pub(crate) const VERSION: u32 = 1;

/// A board as the web view shows it.
#[derive(Debug, Serialize)]
pub struct BoardView<'a> {
    /// [`VERSION`].
    pub(crate) version: u32,
    /// The board's name.
    pub(crate) board: &'a str,
    /// The goal, or `null`.
    pub(crate) goal: Option<GoalView<'a>>,
    /// Completed tasks out of all tasks.
    pub(crate) progress: Progress,
    /// Tasks per status.
    pub(crate) counts: Counts,
    /// Every task, oldest first.
    pub(crate) tasks: Vec<TaskView<'a>>,
    /// Goal and status changes, oldest first; `null` when history is disabled.
    pub(crate) history: Option<Vec<EntryView<'a>>>,
    /// When the board last changed (as this server saw it), or `null`.
    pub(crate) changed_at: Option<String>,
    /// What agents coordinating on the board added (toolset `team`);
    /// left out when they added nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) team: Option<TeamView<'a>>,
    /// The state of the board's store ([`StoreView`]); left out while all
    /// is well.
    #[serde(skip_serializing_if = "StoreView::is_fine")]
    pub(crate) store: StoreView,
}

/// The board-wide coordination facts.
#[derive(Debug, Serialize)]
pub(crate) struct TeamView<'a> {
    /// The goal's done-when condition, or `null`.
    pub(crate) done_when: Option<&'a str>,
    /// Whether every task is completed or cancelled (and there is one).
    pub(crate) goal_met: bool,
    /// How many completed tasks carry evidence.
    pub(crate) completed_with_evidence: usize,
    /// How many dispatched tasks are in flight (their worker's time has not
    /// run out), when the view was made.
    pub(crate) in_flight: usize,
    /// How many dispatched tasks are stalled (their worker missed its time).
    pub(crate) stalled: usize,
}

/// A lead's dispatch record of a task, and its state when the view was made.
#[derive(Debug, Serialize)]
pub(crate) struct DispatchView<'a> {
    /// The worker it was sent to.
    pub(crate) worker: &'a str,
    /// The lead that sent it.
    pub(crate) by: &'a str,
    /// The worktree or directory the worker works in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) place: Option<&'a str>,
    /// A note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<&'a str>,
    /// When it was dispatched.
    pub(crate) at: String,
    /// When the worker's time runs out: the time to claim it by, then the
    /// end of its lease. From then on the record is stalled.
    pub(crate) until: String,
    /// Whether the worker claimed it.
    pub(crate) claimed: bool,
    /// `in_flight` or `stalled` (the page turns `in_flight` into `stalled`
    /// itself once `until` passes).
    pub(crate) state: &'static str,
}

/// A claim on a task.
#[derive(Debug, Serialize)]
pub(crate) struct ClaimView<'a> {
    /// The name the agent gave.
    pub(crate) holder: &'a str,
    /// When it was claimed or last renewed.
    pub(crate) since: String,
    /// When the lease ends.
    pub(crate) until: String,
}

/// The evidence of a task's outcome; absent parts are left out.
#[derive(Debug, Serialize)]
pub(crate) struct EvidenceView<'a> {
    /// A command that was run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) command: Option<&'a str>,
    /// Its exit code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) exit_code: Option<i64>,
    /// A commit or change ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) commit: Option<&'a str>,
    /// A URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) url: Option<&'a str>,
    /// A note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<&'a str>,
    /// Who gave it.
    pub(crate) by: &'a str,
    /// When.
    pub(crate) at: String,
    /// A person's review of it, once there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) review: Option<ReviewView<'a>>,
}

/// A person's review of an outcome: who, when, the verdict and, for a
/// rejection, why.
#[derive(Debug, Serialize)]
pub(crate) struct ReviewView<'a> {
    /// The reviewer.
    pub(crate) by: &'a str,
    /// When.
    pub(crate) at: String,
    /// `approved` or `rejected`.
    pub(crate) verdict: &'static str,
    /// Why it was rejected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<&'a str>,
}

impl<'a> From<&'a Review> for ReviewView<'a> {
    fn from(review: &'a Review) -> Self {
        Self {
            by: &review.by,
            at: timestamp(review.at),
            verdict: match review.rejected {
                Some(_) => "rejected",
                None => "approved",
            },
            reason: review.rejected.as_deref(),
        }
    }
}

/// The goal.
#[derive(Debug, Serialize)]
pub(crate) struct GoalView<'a> {
    /// Never blank.
    pub(crate) title: &'a str,
    /// May be empty.
    pub(crate) description: &'a str,
}

/// Completed tasks out of all tasks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Progress {
    /// Tasks with status `completed`.
    pub(crate) completed: usize,
    /// All tasks.
    pub(crate) total: usize,
}

/// How many tasks have each status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// `pending` tasks.
    pub(crate) pending: usize,
    /// `in_progress` tasks.
    pub(crate) in_progress: usize,
    /// `completed` tasks.
    pub(crate) completed: usize,
    /// `failed` tasks.
    pub(crate) failed: usize,
    /// `cancelled` tasks.
    pub(crate) cancelled: usize,
    /// Tasks awaiting a person's review (left out when none does).
    #[serde(skip_serializing_if = "is_zero")]
    pub(crate) awaiting_review: usize,
}

/// Whether a count is zero (a count left out of the JSON then).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Counts {
    /// Counts the tasks of `board`.
    pub fn of(board: &Board) -> Self {
        let mut counts = Self::default();
        for task in board.tasks() {
            *counts.get_mut(task.status) += 1;
        }
        counts
    }

    /// The count of one status.
    pub(crate) fn get(&self, status: Status) -> usize {
        match status {
            Status::Pending => self.pending,
            Status::InProgress => self.in_progress,
            Status::Completed => self.completed,
            Status::Failed => self.failed,
            Status::Cancelled => self.cancelled,
            Status::AwaitingReview => self.awaiting_review,
        }
    }

    fn get_mut(&mut self, status: Status) -> &mut usize {
        match status {
            Status::Pending => &mut self.pending,
            Status::InProgress => &mut self.in_progress,
            Status::Completed => &mut self.completed,
            Status::Failed => &mut self.failed,
            Status::Cancelled => &mut self.cancelled,
            Status::AwaitingReview => &mut self.awaiting_review,
        }
    }

    /// Every task.
    pub(crate) fn total(&self) -> usize {
        Status::STORED.iter().map(|s| self.get(*s)).sum()
    }
}

/// One task.
#[derive(Debug, Serialize)]
pub(crate) struct TaskView<'a> {
    /// Eight lowercase hex digits.
    pub(crate) id: String,
    /// Never blank.
    pub(crate) title: &'a str,
    /// May be empty.
    pub(crate) description: &'a str,
    /// `pending`, `in_progress`, `completed`, `failed` or `cancelled`.
    pub(crate) status: Status,
    /// The status glyph, e.g. `☐`.
    pub(crate) glyph: char,
    /// When the task was added.
    pub(crate) created_at: String,
    /// Its claim, if an agent holds it (left out otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) claim: Option<ClaimView<'a>>,
    /// The tasks it waits for (left out when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) blocked_by: Vec<String>,
    /// The evidence of its outcome (left out when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) evidence: Option<EvidenceView<'a>>,
    /// A lead's dispatch record (left out when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) dispatch: Option<DispatchView<'a>>,
    /// The glob patterns it touches (left out when none).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub(crate) touches: &'a [String],
}

/// One history entry: when, and what happened.
#[derive(Debug, Serialize)]
pub(crate) struct EntryView<'a> {
    /// When it happened.
    pub(crate) at: String,
    /// What happened.
    #[serde(flatten)]
    pub(crate) event: EventView<'a>,
}

/// What happened, tagged by `event`.
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum EventView<'a> {
    /// The first goal was set.
    GoalSet {
        /// The goal as set.
        goal: GoalView<'a>,
    },
    /// The goal was replaced, for a reason.
    GoalChanged {
        /// The goal before.
        from: GoalView<'a>,
        /// The goal after.
        to: GoalView<'a>,
        /// Why.
        reason: &'a str,
    },
    /// A task changed status.
    StatusChanged {
        /// The task's ID at the time.
        task_id: String,
        /// The task's title at the time.
        title: &'a str,
        /// The status before.
        from: Status,
        /// The status after.
        to: Status,
    },
    /// An agent claimed a task (or renewed its claim).
    Claimed {
        /// The task's ID at the time.
        task_id: String,
        /// The task's title at the time.
        title: &'a str,
        /// Who claimed it.
        holder: &'a str,
        /// When the lease ends.
        until: String,
    },
    /// A claim ended.
    ClaimEnded {
        /// The task's ID at the time.
        task_id: String,
        /// The task's title at the time.
        title: &'a str,
        /// Who held it.
        holder: &'a str,
        /// When its lease ended or would have ended.
        until: String,
        /// `released`, `expired`, `status_changed` or `deleted`.
        reason: &'static str,
    },
    /// A lead dispatched a task to a worker.
    Dispatched {
        /// The task's ID at the time.
        task_id: String,
        /// The task's title at the time.
        title: &'a str,
        /// The worker.
        worker: &'a str,
        /// The lead.
        by: &'a str,
        /// When the worker must have claimed it.
        until: String,
    },
    /// A dispatch record ended.
    DispatchEnded {
        /// The task's ID at the time.
        task_id: String,
        /// The task's title at the time.
        title: &'a str,
        /// The worker.
        worker: &'a str,
        /// `released`, `replaced`, `taken`, `status_changed` or `deleted`.
        reason: &'static str,
    },
    /// A deleted task's links to the tasks that waited for it were removed.
    LinksRemoved {
        /// The deleted task's ID.
        task_id: String,
        /// Its title.
        title: &'a str,
        /// The tasks that waited for it.
        dependents: Vec<String>,
    },
    /// A person approved or rejected an agent's completion.
    Reviewed {
        /// The task's ID at the time.
        task_id: String,
        /// The task's title at the time.
        title: &'a str,
        /// The evidence reviewed, with the review.
        evidence: EvidenceView<'a>,
    },
}

impl<'a> BoardView<'a> {
    /// The view of board `name`.
    pub fn of(name: &'a str, board: &'a Board, changed_at: Option<SystemTime>) -> Self {
        let counts = Counts::of(board);
        // A dispatch stalls with time: judged by the board's clock, now.
        let now = board.clock().now();
        Self {
            version: VERSION,
            board: name,
            goal: board.goal().map(GoalView::from),
            progress: Progress {
                completed: counts.completed,
                total: counts.total(),
            },
            counts,
            tasks: board
                .tasks()
                .map(|task| TaskView::of(task, board, now))
                .collect(),
            history: board.history().map(|history| {
                history
                    .entries()
                    .map(|entry| EntryView {
                        at: timestamp(entry.at),
                        event: EventView::from(&entry.event),
                    })
                    .collect()
            }),
            changed_at: changed_at.map(timestamp),
            team: TeamView::of(board, &counts, now),
            store: StoreView::default(),
        }
    }

    /// The view with the state of its store.
    pub(crate) fn with_store(mut self, store: StoreView) -> Self {
        self.store = store;
        self
    }

    /// The view as compact JSON.
    pub fn to_json(&self) -> String {
        // Plain structs of strings and numbers always serialise.
        serde_json::to_string(self).unwrap_or_else(|_| String::from("{}"))
    }
}

impl<'a> From<&'a Goal> for GoalView<'a> {
    fn from(goal: &'a Goal) -> Self {
        Self {
            title: &goal.title,
            description: &goal.description,
        }
    }
}

impl<'a> TeamView<'a> {
    /// The coordination facts of `board`, or `None` when it has none.
    fn of(board: &'a Board, counts: &Counts, now: SystemTime) -> Option<Self> {
        let coordination = board.coordination();
        if coordination.is_empty() {
            return None;
        }
        let stalled = coordination
            .dispatches()
            .filter(|(_, d)| is_stalled(d, now))
            .count();
        let completed_with_evidence = board
            .tasks()
            .filter(|t| t.status == Status::Completed && coordination.evidence(t.id).is_some())
            .count();
        Some(Self {
            done_when: coordination.done_when(),
            // As docs/team.md defines it: every task completed or cancelled.
            goal_met: counts.total() > 0 && counts.completed + counts.cancelled == counts.total(),
            completed_with_evidence,
            in_flight: coordination.dispatches().count() - stalled,
            stalled,
        })
    }
}

/// Whether a dispatch is stalled at `now`: its worker's time ran out (the
/// board keeps `until` at the end of the worker's lease while it holds the
/// task, so this is toolset `team`'s rule too).
fn is_stalled(dispatch: &Dispatch, now: SystemTime) -> bool {
    dispatch.until <= now
}

impl<'a> DispatchView<'a> {
    fn of(dispatch: &'a Dispatch, now: SystemTime) -> Self {
        Self {
            worker: &dispatch.worker,
            by: &dispatch.by,
            place: dispatch.place.as_deref(),
            note: dispatch.note.as_deref(),
            at: timestamp(dispatch.at),
            until: timestamp(dispatch.until),
            claimed: dispatch.claimed,
            state: match is_stalled(dispatch, now) {
                true => "stalled",
                false => "in_flight",
            },
        }
    }
}

impl<'a> TaskView<'a> {
    /// Task `task` of `board`, with what agents attached to it, at `now`.
    fn of(task: &'a Task, board: &'a Board, now: SystemTime) -> Self {
        let coordination = board.coordination();
        Self {
            id: task.id.to_string(),
            title: &task.title,
            description: &task.description,
            status: task.status,
            glyph: task.status.glyph(),
            created_at: timestamp(task.created_at),
            claim: coordination.claim(task.id).map(ClaimView::from),
            blocked_by: coordination
                .blockers(task.id)
                .iter()
                .map(ToString::to_string)
                .collect(),
            evidence: coordination.evidence(task.id).map(EvidenceView::from),
            dispatch: coordination
                .dispatch(task.id)
                .map(|d| DispatchView::of(d, now)),
            touches: coordination.touches(task.id),
        }
    }
}

impl<'a> From<&'a Claim> for ClaimView<'a> {
    fn from(claim: &'a Claim) -> Self {
        Self {
            holder: &claim.holder,
            since: timestamp(claim.since),
            until: timestamp(claim.until),
        }
    }
}

impl<'a> From<&'a Evidence> for EvidenceView<'a> {
    fn from(evidence: &'a Evidence) -> Self {
        Self {
            command: evidence.command.as_deref(),
            exit_code: evidence.exit_code,
            commit: evidence.commit.as_deref(),
            url: evidence.url.as_deref(),
            note: evidence.note.as_deref(),
            by: &evidence.by,
            at: timestamp(evidence.at),
            review: evidence.review.as_ref().map(ReviewView::from),
        }
    }
}

impl<'a> From<&'a Event> for EventView<'a> {
    fn from(event: &'a Event) -> Self {
        match event {
            Event::GoalSet { goal } => Self::GoalSet { goal: goal.into() },
            Event::GoalChanged { from, to, reason } => Self::GoalChanged {
                from: from.into(),
                to: to.into(),
                reason,
            },
            Event::StatusChanged {
                task_id,
                title,
                from,
                to,
            } => Self::StatusChanged {
                task_id: task_id.to_string(),
                title,
                from: *from,
                to: *to,
            },
            Event::Claimed {
                task_id,
                title,
                holder,
                until,
            } => Self::Claimed {
                task_id: task_id.to_string(),
                title,
                holder,
                until: timestamp(*until),
            },
            Event::ClaimEnded {
                task_id,
                title,
                holder,
                until,
                reason,
            } => Self::ClaimEnded {
                task_id: task_id.to_string(),
                title,
                holder,
                until: timestamp(*until),
                reason: reason.as_str(),
            },
            Event::LinksRemoved {
                task_id,
                title,
                dependents,
            } => Self::LinksRemoved {
                task_id: task_id.to_string(),
                title,
                dependents: dependents.iter().map(ToString::to_string).collect(),
            },
            Event::Dispatched {
                task_id,
                title,
                worker,
                by,
                until,
            } => Self::Dispatched {
                task_id: task_id.to_string(),
                title,
                worker,
                by,
                until: timestamp(*until),
            },
            Event::DispatchEnded {
                task_id,
                title,
                worker,
                reason,
            } => Self::DispatchEnded {
                task_id: task_id.to_string(),
                title,
                worker,
                reason: reason.as_str(),
            },
            Event::Reviewed {
                task_id,
                title,
                evidence,
            } => Self::Reviewed {
                task_id: task_id.to_string(),
                title,
                evidence: EvidenceView::from(&**evidence),
            },
        }
    }
}

/// A time as RFC 3339 in UTC with milliseconds, e.g. `2026-11-23T09:25:13.120Z`.
pub(crate) fn timestamp(time: SystemTime) -> String {
    DateTime::<Utc>::from(time).to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::{Limits, NewTask};

    #[test]
    fn counts_and_progress_add_up() {
        let mut board = Board::new(Limits::default(), false);
        let tasks = ["a", "b", "c"].map(|t| NewTask::new(t, ""));
        let _ = board.add_tasks(&tasks).unwrap();
        let ids: Vec<String> = board.tasks().map(|t| t.id.to_string()).collect();
        let _ = board
            .update_statuses(&[(&ids[0], "completed"), (&ids[1], "failed")])
            .unwrap();
        let view = BoardView::of("b", &board, None);
        assert_eq!(
            view.progress,
            Progress {
                completed: 1,
                total: 3
            }
        );
        assert_eq!((view.counts.pending, view.counts.failed), (1, 1));
        assert!(view.history.is_none());
        let json: serde_json::Value = serde_json::from_str(&view.to_json()).unwrap();
        assert_eq!(json["history"], serde_json::Value::Null);
        assert_eq!(json["tasks"][1]["status"], "failed");
        assert_eq!(json["tasks"][1]["glyph"], "☒");
    }
}
