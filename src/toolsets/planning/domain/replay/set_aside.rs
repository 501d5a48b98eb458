// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What a replay set aside, and why: an operation (or one task of an
//! `add_tasks`) that the board's rules refuse where it falls in the log's
//! order. It stays in the log, its history; the board goes on without it,
//! and its writer is told in words: what it set out to do ([`Intent`]),
//! what happened, and that it is kept in the board's history.
//!
//! ```text
//! Sync: your release_task of [d044053f] 'Write the parser' as completed, with evidence, was set aside: the task had been deleted on another clone; delete wins. Nothing of it is on the board; the operation and its evidence are kept in the board's history in git (operation ac1d96ac22cb1f3d#9).
//! ```

use std::fmt;

use super::intent::Intent;
use super::op::OpId;
use crate::toolsets::planning::domain::TaskId;

/// The most set-aside operations a board remembers (the newest): enough
/// for every agent to be told in its next reply, bounded like the history.
pub(crate) const SET_ASIDE_KEPT: usize = 50;

/// How a repeat's reason begins ([`Reason::Repeat`]).
const REPEAT_WORDS: &str = "not trusted: it repeats operation";

/// One operation (or part of one) that the replay set aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// The operation.
    pub(crate) op: OpId,
    /// The agent it spoke for, if it named one.
    pub(crate) agent: Option<String>,
    /// Why.
    pub(crate) reason: Reason,
    /// What it set out to do, in the words of its tool, when the replay
    /// could tell (a checkpoint keeps only the reason).
    pub(crate) intent: Option<Intent>,
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
    /// An entry of the log that is not an operation (it cannot be read as
    /// one); the other operations go on.
    Corrupt {
        /// Its name in the log's tree.
        entry: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Its numbers are beyond what a clone could have written: a counter
    /// past a gap, a stamp past this clone's clock plus
    /// [`super::log::MAX_SKEW`].
    Untrusted(String),
    /// The same operation (stamp, time, claim and action) as this one,
    /// under another name, came earlier in the log: a copy (pushed by a
    /// hostile clone, or made again by a clone that kept an operation
    /// another version pushed out of its name). Applied once.
    Repeat(OpId),
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
            Reason::TaskGone(id) => write!(
                f,
                "task [{id}] had been deleted on another clone; delete wins"
            ),
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
            Reason::Corrupt { entry, problem } => write!(f, "unreadable: {entry}: {problem}"),
            Reason::Untrusted(why) => write!(f, "not trusted: {why}"),
            Reason::Repeat(first) => {
                write!(f, "{REPEAT_WORDS} {first} under another name; applied once")
            }
            Reason::Noted(text) => f.write_str(text),
        }
    }
}

impl Reason {
    /// What happened, said after an [`Intent`] that names the task: the
    /// same as its display without repeating the task or the tool.
    pub(crate) fn happened(&self) -> String {
        match self {
            Reason::GoalAlreadySet { .. } => "another clone had set the goal first".into(),
            Reason::TaskGone(_) => "the task had been deleted on another clone; delete wins".into(),
            Reason::IdTaken { id, .. } => {
                format!("its new words give the ID [{id}], which another task holds")
            }
            Reason::Held { holder, .. } => format!("{holder} holds the task"),
            Reason::Lost { winner, .. } => {
                format!("{winner} claimed the task through the remote first")
            }
            Reason::NotHolder { holder, .. } => match holder {
                Some(holder) => format!("{holder} holds the task now"),
                None => "the claim had ended".into(),
            },
            other => other.to_string(),
        }
    }
}

impl SetAside {
    /// What it is told and reported once by: its operation and reason
    /// (one operation may be set aside for several reasons, an `add_tasks`
    /// task by task). A checkpoint keeps both as they are.
    pub(crate) fn key(&self) -> String {
        format!("{} {}", self.op, self.reason)
    }

    /// Whether it is an entry of the log that is not an operation (an
    /// unreadable blob, a foreign file, a directory): `sync` lists those
    /// by their names, apart.
    pub(crate) fn is_entry(&self) -> bool {
        match &self.reason {
            Reason::Corrupt { .. } => true,
            // As a checkpoint keeps it.
            Reason::Noted(text) => text.starts_with("unreadable: "),
            _ => false,
        }
    }

    /// Whether its writer is told: not for a repeat, whose action stands
    /// (applied once, as the operation it repeats).
    pub(crate) fn is_told(&self) -> bool {
        match &self.reason {
            Reason::Repeat(_) => false,
            // As a checkpoint keeps it.
            Reason::Noted(text) => !text.starts_with(REPEAT_WORDS),
            _ => true,
        }
    }

    /// The notice its writer gets after the reply of its next call.
    pub(crate) fn notice(&self) -> String {
        match (&self.intent, &self.reason) {
            (_, Reason::Corrupt { entry, problem }) => {
                format!("Sync: entry {entry} of the board's log was set aside: {problem}.")
            }
            (Some(intent), reason) => format!(
                "Sync: your {}{} was set aside: {}. Nothing of it is on the board; {} kept in the \
                 board's history in git (operation {}).",
                intent.text,
                // `…, with evidence, was set aside`
                match intent.text.ends_with("with evidence") {
                    true => ",",
                    false => "",
                },
                reason.happened(),
                match intent.evidence {
                    true => "the operation and its evidence are",
                    false => "it is",
                },
                self.op
            ),
            (None, reason) => format!(
                "Sync: your operation {} was set aside: {reason}. Nothing of it is on the board; \
                 it is kept in the board's history in git.",
                self.op
            ),
        }
    }

    /// What it set out to do and what happened, for the digest's line
    /// (after who: the digest cuts the agent's name).
    pub(crate) fn what_happened(&self) -> String {
        match &self.intent {
            Some(intent) => format!("{}: {}", intent.text, self.reason.happened()),
            None => format!("operation {}: {}", self.op, self.reason),
        }
    }
}

/// What `sync` prints of it.
impl fmt::Display for SetAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_entry() {
            return match &self.reason {
                Reason::Corrupt { entry, problem } => {
                    write!(f, "entry {entry} of the log set aside: {problem}")
                }
                reason => write!(f, "an entry of the log set aside: {reason}"),
            };
        }
        match &self.intent {
            Some(intent) => {
                let who = self
                    .agent
                    .as_deref()
                    .map_or(String::new(), |agent| format!("{agent}'s "));
                write!(
                    f,
                    "operation {}, {who}{}, set aside: {}",
                    self.op,
                    intent.text,
                    self.reason.happened()
                )
            }
            None => write!(f, "operation {} set aside: {}", self.op, self.reason),
        }
    }
}
