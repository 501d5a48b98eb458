// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A plan in one `add_tasks` call: besides its words, each task may say
//! which tasks it waits for and which paths it touches (toolset `team`'s
//! data). The board adds the tasks and attaches what a [`Planner`] decided
//! as one change ([`Board::add_tasks_with`]); toolset `team`, which
//! owns the rules for links and touches, is the planner. Without one, the
//! tool is the Go contract's and never asks.

use std::fmt::Debug;
use std::time::SystemTime;

use super::Edit;
use crate::toolsets::planning::domain::{Board, TaskId};

/// What task `number` of an `add_tasks` call asks for besides its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TaskPlan {
    /// Its place in the request, from 1.
    pub(crate) number: usize,
    /// Its ID (the task added, or the one on the board it duplicates).
    pub(crate) id: TaskId,
    /// The tasks it waits for, as IDs (a position in the request already
    /// turned into the ID of that task), as given.
    pub(crate) blocked_by: Vec<String>,
    /// The glob patterns it touches, as given (`None`: not asked for).
    pub(crate) touches: Option<Vec<String>>,
}

/// One thing attached to a task with the tasks of an `add_tasks` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Attach {
    /// `task` waits for `blocker`.
    Link {
        /// The task that waits.
        task: TaskId,
        /// The task it waits for.
        blocker: TaskId,
    },
    /// The paths a task touches (an empty list removes them).
    Touches(TaskId, Vec<String>),
}

impl From<Attach> for Edit {
    fn from(attach: Attach) -> Self {
        match attach {
            Attach::Link { task, blocker } => Edit::Link { task, blocker },
            Attach::Touches(id, paths) => Edit::Touches(id, paths),
        }
    }
}

/// The rules of a toolset on top of `planning` that attaches links and
/// touches to the tasks `add_tasks` adds (toolset `team`).
pub(crate) trait Planner: Send + Sync + Debug {
    /// What to attach for `plans` (the tasks of the call that ask for
    /// something, in request order), decided on `board` with the call's
    /// tasks on it, at `now`: all of it, or the refusal in one sentence
    /// (which names the task of the request).
    fn attach(
        &self,
        board: &Board,
        now: SystemTime,
        plans: &[TaskPlan],
    ) -> Result<Vec<Attach>, String>;

    /// The lines the reply adds about what was attached (`attached`, not
    /// empty), on the board after the change.
    fn reply(&self, board: &Board, now: SystemTime, attached: &[Attach]) -> String;

    /// Whether every completion waits for a person's review (toolset team's
    /// `require_review`): then `update_task_statuses` completes no task, so
    /// that no agent passes the review by a planning tool.
    fn completion_needs_review(&self) -> bool {
        false
    }
}
