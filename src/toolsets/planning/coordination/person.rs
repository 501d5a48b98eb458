// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What only a person does on a board: approve or reject an agent's
//! completion that awaits review, leave a note for the agents. Toolset
//! `team` owns the rules and gives planning a [`PersonDesk`] when it is
//! configured ([`crate::toolsets::planning::Planning::person_desk`]); the
//! person's channels on planning's side (the web board's writes) call it,
//! and no MCP tool does: an agent has no path to it (docs/review.md).

use std::fmt::Debug;

use serde_json::Value;

use crate::toolsets::planning::domain::BoardError;
use crate::toolsets::planning::shared_board::{CallError, SharedBoard};

/// What a person's action did: the sentence to show them, and the same as
/// JSON for a program (the CLI's `--json`, the web board's answer).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PersonReply {
    /// One or more lines for a person.
    pub(crate) text: String,
    /// The same, as fields (see docs/review.md for their names).
    pub(crate) json: Value,
}

/// Why a person's action was refused or failed: the sentence to show
/// them. A refused action changed nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PersonError {
    /// The request is not one the board can take (no task awaiting
    /// review with that ID, a blank reason, ...): the person's mistake.
    #[error("{0}")]
    Refused(String),
    /// The task ID names no task on the board (or one a person reworded
    /// since: the sentence names its new ID): nothing changed.
    #[error("{0}")]
    NoTask(String),
    /// The board could not be loaded, locked or saved: nothing changed.
    #[error("{0}")]
    Failed(String),
}

impl From<BoardError> for PersonError {
    fn from(error: BoardError) -> Self {
        match error {
            BoardError::UnknownTasks(_) | BoardError::Reworded { .. } => {
                Self::NoTask(error.to_string())
            }
            refused => Self::Refused(refused.to_string()),
        }
    }
}

impl From<CallError> for PersonError {
    fn from(error: CallError) -> Self {
        match error {
            CallError::Refused(refused) => refused.into(),
            failed => Self::Failed(failed.to_string()),
        }
    }
}

/// The person's desk on a board: each call is one change of `board`
/// (validated, locked, applied, saved, watchers told), blocking on the
/// store's I/O (call it where blocking is fine: `SharedBoard::run`).
pub(crate) trait PersonDesk: Send + Sync + Debug {
    /// Approves task `task_id`, which awaits review: it is completed; the
    /// reviewer `by` and the time are kept on its evidence.
    fn approve(
        &self,
        board: &SharedBoard,
        task_id: &str,
        by: &str,
    ) -> Result<PersonReply, PersonError>;

    /// Rejects task `task_id`, which awaits review, for `reason`: it is
    /// pending again; the reason, the reviewer, the time and the rejected
    /// evidence are kept (on the task for its next claimant, and in the
    /// history).
    fn reject(
        &self,
        board: &SharedBoard,
        task_id: &str,
        by: &str,
        reason: &str,
    ) -> Result<PersonReply, PersonError>;

    /// Leaves a note saying `text`, from `by`, on task `task_id` (for the
    /// agent that holds it, now or next) or, with `None`, on the board (for
    /// the next agent that calls): that agent's next reply carries it once.
    fn note(
        &self,
        board: &SharedBoard,
        task_id: Option<&str>,
        by: &str,
        text: &str,
    ) -> Result<PersonReply, PersonError>;
}
