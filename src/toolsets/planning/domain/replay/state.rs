// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The replay: the board that a log's operations make, applied one by one
//! in the log's order, with the rules that settle what clones did
//! concurrently. Every rule looks only at the board so far and the
//! operation, so every clone that holds the same operations computes the
//! same board; no rule ever stops the replay. What a rule refuses is set
//! aside ([`SetAside`]) and the replay goes on.
//!
//! The rules (docs/sync.md says them for users):
//! - A task is named by its ID; an ID that a rewording replaced still
//!   names the task under its new words (the replay keeps the old IDs as
//!   aliases), so an operation written before it saw the rewording still
//!   reaches its task.
//! - Delete wins: an operation on a task deleted earlier in the order is
//!   set aside (a status, a rewording, a claim); a delete after it deletes.
//!   Deleting a task already deleted is no change.
//! - Two adds of the same words are one task (the first; the second is a
//!   duplicate, skipped as `add_tasks` skips it). An add whose ID another
//!   task with other words holds, or that would pass `max_tasks`, is set
//!   aside, task by task, in the log's order.
//! - `set_goal` after another clone set the goal is set aside;
//!   `change_goal` changes whatever goal is there (the last one wins).
//! - A rewording whose new ID another task holds is set aside; two
//!   rewordings of one task apply in order (each keeps what it left out).
//! - Claims: a claim on a task another agent holds (a lease not ended at
//!   the claim's time) is set aside, unless the claim was confirmed by the
//!   remote and the holder's was provisional: then the confirmed one takes
//!   over and the provisional holder's claim is set aside. A release by an
//!   agent that no longer holds the task is set aside; an expiry of a
//!   claim that is no longer there is skipped.
//! - A link that would make a cycle with links made elsewhere is set aside.
//! - A team operation is applied whole or set aside whole
//!   (`planning/coordination/replay.rs`: its rules, edit kind by edit kind);
//!   so are the links and touches of an `add_tasks` plan, after its tasks
//!   (a link to a task of it that was set aside sets them aside).

use std::collections::HashMap;

use super::intent::{self, Intent};
use super::op::{Op, OpId};
use super::set_aside::{Reason, SET_ASIDE_KEPT, SetAside};
use crate::runtime::clock::Clock;
use crate::toolsets::planning::coordination::replay::ClaimOrigin;
use crate::toolsets::planning::domain::{Action, Board, Goal, NewTask, Status, TaskId};

/// The most alias hops an ID is followed through (rewordings of
/// rewordings); beyond, the task is taken as gone.
const MAX_HOPS: usize = 64;

/// The board a replay has made so far, with what the rules need besides
/// the board: the IDs rewordings replaced, how each claim was made, what
/// was set aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// The board.
    pub board: Board,
    /// A reworded task's old ID -> its ID after the rewording.
    pub(crate) aliases: HashMap<TaskId, TaskId>,
    /// How the claims on the board were made.
    pub(crate) claims: HashMap<TaskId, ClaimOrigin>,
    /// The newest set-aside operations, oldest first, at most
    /// [`SET_ASIDE_KEPT`].
    pub(crate) set_aside: Vec<SetAside>,
    /// How many operations (or tasks of one) were set aside in all.
    pub set_aside_count: u64,
    /// The highest stamp applied: a writer's next stamp is above it.
    pub(crate) max_stamp: u64,
    /// The titles of the tasks this replay deleted (since its checkpoint),
    /// by their IDs: what a set-aside operation on one of them is told by.
    pub(crate) gone: HashMap<TaskId, String>,
}

impl State {
    /// The state before any operation: `empty`, as configured.
    pub(crate) fn new(empty: Board) -> Self {
        Self {
            board: empty,
            aliases: HashMap::new(),
            claims: HashMap::new(),
            set_aside: Vec::new(),
            set_aside_count: 0,
            max_stamp: 0,
            gone: HashMap::new(),
        }
    }

    /// The task `id` names now: itself, or what rewordings made of it.
    pub(crate) fn resolve(&self, id: TaskId) -> Option<TaskId> {
        let mut id = id;
        for _ in 0..MAX_HOPS {
            if self.board.task(id).is_some() {
                return Some(id);
            }
            id = *self.aliases.get(&id)?;
        }
        None
    }

    /// Applies one operation by the rules; what they refuse is set aside.
    pub(crate) fn apply(&mut self, op: &Op) {
        self.max_stamp = self.max_stamp.max(op.id.stamp);
        self.board.set_clock(Clock::fixed(op.at));
        match &op.action {
            Action::SetGoal(goal) => self.set_goal(op, goal),
            Action::ChangeGoal { goal, reason } => self.change_goal(op, goal, reason),
            Action::AddTasks(tasks) => self.add_tasks(op, tasks),
            // The tasks by the rules of an add, then their links and
            // touches as one team operation (whole, or set aside whole).
            Action::Plan { tasks, edits } => {
                self.add_tasks(op, tasks);
                self.edit(op, edits);
            }
            Action::SetStatuses(updates) => self.set_statuses(op, updates),
            Action::Modify {
                id,
                title,
                description,
            } => self.modify(op, *id, title.as_deref(), description.as_deref()),
            Action::Delete(ids) => {
                let ids: Vec<TaskId> = ids.iter().filter_map(|id| self.resolve(*id)).collect();
                for id in &ids {
                    if let Some(task) = self.board.task(*id) {
                        self.gone.insert(*id, task.title.clone());
                    }
                }
                if !ids.is_empty() {
                    let _ = self.board.delete_ids(&ids);
                    self.forget_claims_gone();
                }
            }
            Action::Edit(edits) => self.edit(op, edits),
        }
    }

    /// Sets `op` aside for `reason`.
    pub(crate) fn set_aside(&mut self, op: &Op, reason: Reason) {
        let intent = intent::of(self, op, &reason);
        self.set_aside_as(op.id, op.agent().map(str::to_owned), reason, intent);
    }

    /// Sets operation `op` (by `agent`, which set out to do `intent`)
    /// aside for `reason`; `op` may be one applied earlier (a provisional
    /// claim lost to a confirmed one).
    pub(crate) fn set_aside_as(
        &mut self,
        op: OpId,
        agent: Option<String>,
        reason: Reason,
        intent: Option<Intent>,
    ) {
        self.set_aside_count += 1;
        if self.set_aside.len() == SET_ASIDE_KEPT {
            self.set_aside.remove(0);
        }
        self.set_aside.push(SetAside {
            op,
            agent,
            reason,
            intent,
        });
    }

    fn set_goal(&mut self, op: &Op, goal: &Goal) {
        if self.board.goal().is_some() {
            let title = goal.title.clone();
            return self.set_aside(op, Reason::GoalAlreadySet { title });
        }
        if let Err(error) = self.board.set_goal(&goal.title, &goal.description) {
            self.set_aside(op, Reason::Refused(error.to_string()));
        }
    }

    fn change_goal(&mut self, op: &Op, goal: &Goal, reason: &str) {
        if self.board.goal().is_none() {
            return self.set_aside(op, Reason::NoGoal);
        }
        if let Err(error) = self
            .board
            .change_goal(&goal.title, &goal.description, reason)
        {
            self.set_aside(op, Reason::Refused(error.to_string()));
        }
    }

    fn add_tasks(&mut self, op: &Op, tasks: &[NewTask]) {
        let max = self.board.limits().max_tasks;
        for new in tasks {
            let id = TaskId::from_content(&new.title, &new.description);
            if let Some(holder) = self.board.task(id) {
                if holder.title != new.title || holder.description != new.description {
                    let reason = Reason::IdCollision {
                        title: new.title.clone(),
                        id,
                        holder: holder.title.clone(),
                    };
                    self.set_aside(op, reason);
                }
                // The same words: one task, the first.
                continue;
            }
            if self.board.len() >= max {
                let title = new.title.clone();
                self.set_aside(op, Reason::TooManyTasks { title, max });
                continue;
            }
            if let Err(error) = self.board.add_tasks(std::slice::from_ref(new)) {
                self.set_aside(op, Reason::Refused(error.to_string()));
            }
        }
    }

    fn set_statuses(&mut self, op: &Op, updates: &[(TaskId, Status)]) {
        let mut resolved = Vec::with_capacity(updates.len());
        let mut gone = Vec::new();
        for &(id, status) in updates {
            match self.resolve(id) {
                Some(now) => resolved.push((now, status)),
                None if !gone.contains(&id) => gone.push(id),
                None => {}
            }
        }
        for id in gone {
            self.set_aside(op, Reason::TaskGone(id));
        }
        if !resolved.is_empty() {
            let _ = self.board.set_statuses(&resolved);
            self.forget_ended_claims(resolved.iter().map(|(id, _)| *id));
        }
    }

    fn modify(&mut self, op: &Op, id: TaskId, title: Option<&str>, description: Option<&str>) {
        let Some(current) = self.resolve(id) else {
            return self.set_aside(op, Reason::TaskGone(id));
        };
        let Some(task) = self.board.task(current) else {
            return self.set_aside(op, Reason::TaskGone(id));
        };
        let new_id = TaskId::from_content(
            title.unwrap_or(&task.title),
            description.unwrap_or(&task.description),
        );
        if new_id != current && self.board.task(new_id).is_some() {
            return self.set_aside(
                op,
                Reason::IdTaken {
                    task: current,
                    id: new_id,
                },
            );
        }
        match self.board.modify_id(current, title, description) {
            Ok((new_id, _)) if new_id != current => {
                self.aliases.insert(current, new_id);
                self.move_claim_origin(current, new_id);
            }
            Ok(_) => {}
            Err(error) => self.set_aside(op, Reason::Refused(error.to_string())),
        }
    }
}
