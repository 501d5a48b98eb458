// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The board as the team sees it at one moment: a claim whose lease has
//! ended counts as gone and its task as pending, exactly as the next change
//! will record it ([`super::claims::expiries`]); a dispatch whose worker's
//! time ran out (it did not claim the task in time, or let its lease end)
//! is *stalled*. Every decision and every reply reads the board through
//! this view, so an expiry or a stall is the same whether or not anything
//! was recorded yet.

use std::time::SystemTime;

use crate::toolsets::planning::coordination::{Claim, Dispatch};
use crate::toolsets::planning::domain::replay::SetAside;
use crate::toolsets::planning::domain::{Board, Status, Task, TaskId};

/// Where a dispatched task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DispatchState<'a> {
    /// In flight: the worker holds the task (this claim).
    Working(&'a Claim),
    /// In flight: dispatched, the worker has not claimed it yet; it has
    /// until the record's `until`.
    Waiting,
    /// The worker's time ran out at the record's `until`: it did not claim
    /// the task in time, or its lease ended without a renewal or release.
    Stalled,
}

impl DispatchState<'_> {
    /// Whether the dispatch is in flight (not stalled).
    pub(crate) fn in_flight(&self) -> bool {
        !matches!(self, DispatchState::Stalled)
    }
}

/// Board `board` at time `now`.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The board.
    pub(crate) board: &'a Board,
    /// The moment.
    pub(crate) now: SystemTime,
    /// What the replay of the board's git log set aside, oldest first
    /// (its store's notice; none for other stores).
    pub(crate) set_aside: &'a [SetAside],
}

impl<'a> View<'a> {
    /// The board at `now`.
    pub fn new(board: &'a Board, now: SystemTime) -> Self {
        Self {
            board,
            now,
            set_aside: &[],
        }
    }

    /// This view, knowing what the board's store set aside.
    pub(crate) fn with_set_aside(self, set_aside: &'a [SetAside]) -> Self {
        Self { set_aside, ..self }
    }

    /// The claim on task `id` whose lease has not ended.
    pub(crate) fn claim(&self, id: TaskId) -> Option<&'a Claim> {
        let claim = self.board.coordination().claim(id)?;
        (claim.until > self.now).then_some(claim)
    }

    /// Whether task `id` has a claim whose lease ended.
    pub(crate) fn expired(&self, id: TaskId) -> Option<&'a Claim> {
        let claim = self.board.coordination().claim(id)?;
        (claim.until <= self.now).then_some(claim)
    }

    /// Task `task`'s status, pending if its lease ended. Only an
    /// in-progress task can hold a claim (the board ends a claim when the
    /// status changes, and refuses a stored board with another), so no
    /// other task needs a look at the claims.
    pub(crate) fn status(&self, task: &Task) -> Status {
        match task.status == Status::InProgress && self.expired(task.id).is_some() {
            true => Status::Pending,
            false => task.status,
        }
    }

    /// The status of task `id`, if it is on the board.
    pub(crate) fn status_of(&self, id: TaskId) -> Option<Status> {
        self.board.task(id).map(|task| self.status(task))
    }

    /// The tasks `id` waits for that are not completed yet, in ID order.
    pub(crate) fn waiting_for(&self, id: TaskId) -> impl Iterator<Item = TaskId> + '_ {
        self.board
            .coordination()
            .blockers(id)
            .iter()
            .copied()
            .filter(|blocker| self.status_of(*blocker) != Some(Status::Completed))
    }

    /// Task `id`'s dispatch record and where it stands. The board keeps
    /// the record's `until` at the end of the worker's lease while it holds
    /// the task, so the record stalls exactly when that time passes.
    pub(crate) fn dispatch(&self, id: TaskId) -> Option<(&'a Dispatch, DispatchState<'a>)> {
        let dispatch = self.board.coordination().dispatch(id)?;
        let state = match self.claim(id) {
            Some(claim) if claim.holder == dispatch.worker => DispatchState::Working(claim),
            _ if dispatch.until > self.now => DispatchState::Waiting,
            _ => DispatchState::Stalled,
        };
        Some((dispatch, state))
    }

    /// Whether `task` is ready: pending, unclaimed, every blocker completed,
    /// and not dispatched to a worker whose time has not run out. (A task
    /// that is pending in the view is unclaimed: see [`Self::status`].)
    pub(crate) fn is_ready(&self, task: &Task) -> bool {
        self.status(task) == Status::Pending
            && self.waiting_for(task.id).next().is_none()
            && !self.dispatch(task.id).is_some_and(|(_, s)| s.in_flight())
    }

    /// Dispatched tasks, in board order, with where each stands.
    pub(crate) fn dispatched(&self) -> Vec<(&'a Task, &'a Dispatch, DispatchState<'a>)> {
        let board = self.board;
        let mut found: Vec<_> = board
            .coordination()
            .dispatches()
            .filter_map(|(id, _)| {
                let (dispatch, state) = self.dispatch(id)?;
                Some((board.task(id)?, dispatch, state))
            })
            .collect();
        found.sort_by_key(|(task, _, _)| board.position(task.id));
        found
    }

    /// How many pending tasks are dispatched and not claimed yet, their
    /// worker's time not run out (neither ready, nor held, nor blocked).
    pub(crate) fn dispatched_waiting(&self) -> usize {
        self.board
            .coordination()
            .dispatches()
            .filter(|(id, _)| matches!(self.dispatch(*id), Some((_, DispatchState::Waiting))))
            .count()
    }

    /// The ready queue: ready tasks in board order.
    pub fn ready(&self) -> impl Iterator<Item = &'a Task> + '_ {
        self.board.tasks().filter(|task| self.is_ready(task))
    }

    /// Tasks held by an unexpired claim, in board order.
    pub(crate) fn claimed(&self) -> impl Iterator<Item = (&'a Task, &'a Claim)> + '_ {
        let board = self.board;
        let mut claimed: Vec<(&'a Task, &'a Claim)> = board
            .coordination()
            .claims()
            .filter(|(_, claim)| claim.until > self.now)
            .filter_map(|(id, claim)| Some((board.task(id)?, claim)))
            .collect();
        claimed.sort_by_key(|(task, _)| board.position(task.id));
        claimed.into_iter()
    }

    /// Pending tasks that wait for a task not completed yet, in board order.
    pub(crate) fn blocked(&self) -> impl Iterator<Item = &'a Task> + '_ {
        self.board.tasks().filter(|task| {
            self.status(task) == Status::Pending && self.waiting_for(task.id).next().is_some()
        })
    }

    /// Whether the goal is met: the board has tasks and every one is
    /// completed or cancelled.
    pub(crate) fn goal_met(&self) -> bool {
        !self.board.is_empty()
            && self
                .board
                .tasks()
                .all(|t| matches!(t.status, Status::Completed | Status::Cancelled))
    }

    /// Completed tasks, and how many of them carry evidence.
    pub(crate) fn evidence_count(&self) -> (usize, usize) {
        let coordination = self.board.coordination();
        let completed = self.board.tasks().filter(|t| t.status == Status::Completed);
        completed.fold((0, 0), |(all, with), task| {
            let has = coordination.evidence(task.id).is_some();
            (all + 1, with + usize::from(has))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::planning::domain::NewTask;
    use crate::toolsets::team::domain::EvidenceInput;
    use crate::toolsets::team::domain::fixture::{at, board, claim, id, link, release};

    fn ready(board: &Board, minute: u64) -> Vec<String> {
        let view = View::new(board, at(minute));
        view.ready().map(|t| t.title.clone()).collect()
    }

    #[test]
    fn the_ready_queue_follows_every_kind_of_change() {
        let mut board = board(&["a", "b", "c", "d"]);
        assert_eq!(ready(&board, 0), ["a", "b", "c", "d"], "board order");

        link(&mut board, "c", &["a", "b"]);
        link(&mut board, "d", &["c"]);
        assert_eq!(ready(&board, 0), ["a", "b"], "after links");

        claim(&mut board, 0, "w1", "a");
        assert_eq!(ready(&board, 0), ["b"], "after a claim");

        release(
            &mut board,
            1,
            "w1",
            "a",
            Status::Completed,
            EvidenceInput::default(),
        );
        assert_eq!(ready(&board, 1), ["b"], "c still waits for b");

        let b = id("b").to_string();
        let _ = board.update_statuses(&[(&b, "completed")]).unwrap();
        assert_eq!(ready(&board, 1), ["c"], "after a planning status change");

        let c = id("c").to_string();
        let (new_c, _) = board.modify_task(&c, Some("C"), None).unwrap();
        assert_eq!(ready(&board, 1), ["C"], "a reworded task keeps its place");
        assert!(board.coordination().blockers(id("d")).contains(&new_c));

        claim(&mut board, 2, "w2", "C");
        assert!(ready(&board, 2).is_empty(), "C held, d waits for C");
        // The lease ends at minute 17: C is ready again, as the view sees it
        // before anything is recorded.
        assert_eq!(ready(&board, 17), ["C"], "after an expiry");

        let _ = board.add_tasks(&[NewTask::new("e", "")]).unwrap();
        assert_eq!(ready(&board, 17), ["C", "e"], "after an addition");

        let _ = board.delete_tasks(&[&new_c.to_string()]).unwrap();
        assert_eq!(ready(&board, 17), ["d", "e"], "deleting a blocker frees d");

        link(&mut board, "d", &["e"]);
        assert_eq!(ready(&board, 17), ["e"]);
        let (edits, _) = crate::toolsets::team::domain::links::unlink(
            View::new(&board, at(17)),
            &id("d").to_string(),
            &[id("e").to_string()],
        )
        .unwrap();
        let _ = board.edit(at(17), edits).unwrap();
        assert_eq!(ready(&board, 17), ["d", "e"], "after an unlink");

        let e = id("e").to_string();
        let _ = board.update_statuses(&[(&e, "failed")]).unwrap();
        assert_eq!(ready(&board, 17), ["d"], "failed tasks are not ready");
    }

    #[test]
    fn a_blocker_must_be_completed_not_just_finished() {
        let mut board = board(&["a", "b"]);
        link(&mut board, "b", &["a"]);
        let a = id("a").to_string();
        for status in ["failed", "cancelled", "in_progress"] {
            let _ = board.update_statuses(&[(&a, status)]).unwrap();
            assert!(ready(&board, 0).is_empty(), "{status}");
            let view = View::new(&board, at(0));
            assert_eq!(view.blocked().count(), 1);
        }
    }

    #[test]
    fn the_goal_is_met_when_every_task_is_completed_or_cancelled() {
        let mut board = board(&["a", "b"]);
        assert!(!View::new(&board, at(0)).goal_met());
        let [a, b] = [id("a").to_string(), id("b").to_string()];
        let _ = board
            .update_statuses(&[(&a, "completed"), (&b, "failed")])
            .unwrap();
        assert!(!View::new(&board, at(0)).goal_met());
        let _ = board.update_statuses(&[(&b, "cancelled")]).unwrap();
        assert!(View::new(&board, at(0)).goal_met());
        assert!(!View::new(&super::super::fixture::board(&[]), at(0)).goal_met());
        assert_eq!(View::new(&board, at(0)).evidence_count(), (1, 0));
    }
}
