// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What a replay set aside, and why: an operation (or one task of an
//! `add_tasks`) that the board's rules refuse where it falls in the log's
//! order. It stays in the log, its history; the board goes on without it,
//! and its writer is told.

use std::fmt;

use super::op::OpId;
use crate::toolsets::planning::domain::TaskId;

/// The most set-aside operations a board remembers (the newest): enough
/// for every agent to be told in its next reply, bounded like the history.
pub(crate) const SET_ASIDE_KEPT: usize = 50;

/// One operation (or part of one) that the replay set aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// The operation.
    pub(crate) op: OpId,
    /// The agent it spoke for, if it named one.
    pub(crate) agent: Option<String>,
    /// Why.
    pub(crate) reason: Reason,
}

/// Why an operation was set aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reason {
    /// `set_goal`, but another clone had set the goal first.
    GoalAlreadySet {
        /// The goal it would have set.
        title: String,
    },
    /// `change_goal` on a board without a goal (a log that lost its first
    /// goal to a corrupt operation).
    NoGoal,
    /// It named a task that another clone had deleted first.
    TaskGone(TaskId),
    /// `add_tasks` of one task more than `max_tasks` allows.
    TooManyTasks {
        /// The task's title.
        title: String,
        /// `[planning] max_tasks`.
        max: usize,
    },
    /// `add_tasks` of a task whose ID another task with other words holds.
    IdCollision {
        /// The task's title.
        title: String,
        /// The ID.
        id: TaskId,
        /// The title of the task that holds it.
        holder: String,
    },
    /// `modify_task` whose new words give the ID of another task.
    IdTaken {
        /// The task reworded.
        task: TaskId,
        /// The ID its new words give.
        id: TaskId,
    },
    /// A claim on a task another agent held.
    Held {
        /// The task.
        task: TaskId,
        /// Who held it.
        holder: String,
    },
    /// A provisional claim that a claim confirmed through the remote took
    /// over.
    Lost {
        /// The task.
        task: TaskId,
        /// Who holds it now.
        winner: String,
    },
    /// A release (or an end of a claim) by an agent that no longer held
    /// the task.
    NotHolder {
        /// The task.
        task: TaskId,
        /// Who holds it, if anyone.
        holder: Option<String>,
    },
    /// A link that, with another clone's links, would make a cycle.
    Cycle {
        /// The task that would wait.
        task: TaskId,
        /// The task it would wait for.
        blocker: TaskId,
    },
    /// The board refused it (a text longer than this clone's limits).
    Refused(String),
    /// Its record in the log cannot be read; the other operations go on.
    Corrupt(String),
    /// Its numbers are beyond what a clone could have written: a counter
    /// past a gap, a stamp past this clone's clock plus
    /// [`super::log::MAX_SKEW`].
    Untrusted(String),
    /// As a checkpoint noted it (the words of one of the reasons above).
    Noted(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::GoalAlreadySet { title } => write!(
                f,
                "set_goal '{title}' came after another clone had set the goal"
            ),
            Reason::NoGoal => write!(f, "change_goal found no goal to change"),
            Reason::TaskGone(id) => write!(f, "task [{id}] had been deleted on another clone"),
            Reason::TooManyTasks { title, max } => write!(
                f,
                "adding '{title}' would pass max_tasks ({max}) once the clones' tasks were merged"
            ),
            Reason::IdCollision { title, id, holder } => {
                write!(f, "'{title}' gets the ID [{id}], which '{holder}' holds")
            }
            Reason::IdTaken { task, id } => write!(
                f,
                "rewording [{task}] gives the ID [{id}], which another task holds"
            ),
            Reason::Held { task, holder } => {
                write!(f, "claim of [{task}]: {holder} holds it")
            }
            Reason::Lost { task, winner } => write!(
                f,
                "provisional claim of [{task}]: {winner} claimed it through the remote first"
            ),
            Reason::NotHolder { task, holder } => match holder {
                Some(holder) => write!(f, "release of [{task}]: {holder} holds it"),
                None => write!(f, "release of [{task}]: the claim had ended"),
            },
            Reason::Cycle { task, blocker } => {
                write!(f, "link [{task}] waits for [{blocker}] would make a cycle")
            }
            Reason::Refused(why) => write!(f, "refused: {why}"),
            Reason::Corrupt(why) => write!(f, "unreadable: {why}"),
            Reason::Untrusted(why) => write!(f, "not trusted: {why}"),
            Reason::Noted(text) => f.write_str(text),
        }
    }
}

impl fmt::Display for SetAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "operation {} set aside: {}", self.op, self.reason)
    }
}
