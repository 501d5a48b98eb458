// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What one change of the board was, as its call asked for it with the task
//! IDs resolved: each mutation of the board returns it (in its
//! [`super::Undo`]), the shared board hands it to the store, and the git log
//! records it as an operation that every clone replays (`domain::replay`). Replaying an action on the board it was made on
//! gives the very same board.

use std::time::SystemTime;

use super::board::NewTask;
use super::history::Goal;
use super::task::{Status, TaskId};
use crate::toolsets::planning::coordination::Edit;

/// One change of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `set_goal`: the first goal.
    SetGoal(Goal),
    /// `change_goal`: a new goal, for a reason.
    ChangeGoal {
        /// The goal after.
        goal: Goal,
        /// Why, as the caller said.
        reason: String,
    },
    /// `add_tasks`: the tasks it added (duplicates it skipped are not
    /// here), in order.
    AddTasks(Vec<NewTask>),
    /// `add_tasks` with toolset team's fields: the tasks it added, as
    /// [`Action::AddTasks`], then the links and touches that came with the
    /// call (only [`Edit::Link`] and [`Edit::Touches`], which may name the
    /// tasks just added), as one change.
    Plan {
        /// The tasks added, in order.
        tasks: Vec<NewTask>,
        /// The links and touches set, in order.
        edits: Vec<Edit>,
    },
    /// `update_task_statuses`: each task's new status, in request order.
    SetStatuses(Vec<(TaskId, Status)>),
    /// `modify_task`: a new title and/or description (`None` keeps it).
    Modify {
        /// The task's ID before.
        id: TaskId,
        /// The new title.
        title: Option<String>,
        /// The new description.
        description: Option<String>,
    },
    /// `delete_tasks`: the tasks deleted.
    Delete(Vec<TaskId>),
    /// Coordination edits (toolset `team`'s decisions), as one change.
    Edit(Vec<Edit>),
}

impl Action {
    /// Whether the action changes nothing (an `add_tasks` whose every task
    /// was a duplicate): nothing to record.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Action::AddTasks(tasks) => tasks.is_empty(),
            Action::Plan { tasks, edits } => tasks.is_empty() && edits.is_empty(),
            Action::SetStatuses(updates) => updates.is_empty(),
            Action::Delete(ids) => ids.is_empty(),
            Action::Edit(edits) => edits.is_empty(),
            Action::SetGoal(_) | Action::ChangeGoal { .. } | Action::Modify { .. } => false,
        }
    }

    /// Whether the action claims a task (or renews a claim): with sync on,
    /// such an action is acknowledged only once the remote has it.
    pub(crate) fn claims(&self) -> bool {
        match self {
            Action::Edit(edits) => edits
                .iter()
                .any(|edit| matches!(edit, Edit::Claim(_, Some(_)))),
            _ => false,
        }
    }
}

/// An action and the time the board gave its tasks and history entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    /// The board's time when it was made.
    pub(crate) at: SystemTime,
    /// What was done.
    pub(crate) action: Action,
}

#[cfg(test)]
impl Done {
    /// A change that changed nothing, for tests of stores that keep
    /// snapshots (and so ignore the change).
    pub(crate) fn nothing() -> Self {
        Self {
            at: std::time::UNIX_EPOCH,
            action: Action::Edit(Vec::new()),
        }
    }
}
