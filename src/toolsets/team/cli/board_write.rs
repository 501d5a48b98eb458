// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A write of `planning-mcp-server board` as a value: made from the
//! command line once, then applied to the stored board (the same function
//! the web board's write calls, [`person_tasks`] or the team's desk) or
//! sent to a running server as that write
//! (`POST /boards/{name}/actions/{action}`), whose answer carries the
//! same reply. So both paths print the same text and `--json`, and refuse
//! alike (docs/review.md#the-board-from-a-terminal).

use serde_json::{Map, Value, json};

use crate::toolsets::planning::coordination::person::{PersonDesk, PersonError, PersonReply};
use crate::toolsets::planning::person_tasks;
use crate::toolsets::planning::shared_board::SharedBoard;

/// One write of the board by a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Write {
    /// `board add`.
    Add {
        /// The task's title.
        title: String,
        /// Its description.
        description: String,
    },
    /// `board edit`.
    Edit {
        /// The task.
        task_id: String,
        /// Its new title, if any.
        title: Option<String>,
        /// Its new description, if any.
        description: Option<String>,
    },
    /// `board status`.
    Status {
        /// The task.
        task_id: String,
        /// The status to set.
        status: String,
    },
    /// `board goal`.
    Goal {
        /// The goal's title.
        title: String,
        /// Its description.
        description: String,
        /// Why it replaces the goal set, if one is.
        reason: Option<String>,
    },
    /// `board review approve`.
    Approve {
        /// The task that awaits review.
        task_id: String,
        /// The reviewer.
        by: String,
    },
    /// `board review reject`.
    Reject {
        /// The task that awaits review.
        task_id: String,
        /// The reviewer.
        by: String,
        /// Why.
        reason: String,
    },
    /// `board note`.
    Note {
        /// The task, or `None` for a note on the board.
        task_id: Option<String>,
        /// Who leaves it.
        by: String,
        /// The note.
        text: String,
    },
}

impl Write {
    /// Whether it makes the board when none is stored, as an MCP call
    /// does (`add`, `goal`); the others have nothing to change on a board
    /// that is not there.
    pub(crate) fn creates(&self) -> bool {
        matches!(self, Self::Add { .. } | Self::Goal { .. })
    }

    /// Applies it to `board` (the stored board, opened), through `desk`
    /// for a review or a note.
    pub(crate) fn apply(
        &self,
        board: &SharedBoard,
        desk: &dyn PersonDesk,
    ) -> Result<PersonReply, PersonError> {
        match self {
            Self::Add { title, description } => person_tasks::add(board, title, description),
            Self::Edit {
                task_id,
                title,
                description,
            } => person_tasks::edit(board, task_id, title.as_deref(), description.as_deref()),
            Self::Status { task_id, status } => person_tasks::status(board, task_id, status),
            Self::Goal {
                title,
                description,
                reason,
            } => person_tasks::goal(board, title, description, reason.as_deref()),
            Self::Approve { task_id, by } => desk.approve(board, task_id, by),
            Self::Reject {
                task_id,
                by,
                reason,
            } => desk.reject(board, task_id, by, reason),
            Self::Note { task_id, by, text } => desk.note(board, task_id.as_deref(), by, text),
        }
    }

    /// The web board's action that makes it, and its fields as the JSON
    /// object the action reads (docs/web.md#a-persons-writes); a field left
    /// out is one the command line did not give.
    pub(crate) fn action(&self) -> (&'static str, Value) {
        let (action, pairs): (&str, Vec<(&str, Option<&str>)>) = match self {
            Self::Add { title, description } => (
                "add",
                vec![("title", Some(title)), ("description", Some(description))],
            ),
            Self::Edit {
                task_id,
                title,
                description,
            } => (
                "edit",
                vec![
                    ("task_id", Some(task_id)),
                    ("title", title.as_deref()),
                    ("description", description.as_deref()),
                ],
            ),
            Self::Status { task_id, status } => (
                "status",
                vec![("task_id", Some(task_id)), ("status", Some(status))],
            ),
            Self::Goal {
                title,
                description,
                reason,
            } => (
                "goal",
                vec![
                    ("title", Some(title)),
                    ("description", Some(description)),
                    ("reason", reason.as_deref()),
                ],
            ),
            Self::Approve { task_id, by } => (
                "approve",
                vec![("task_id", Some(task_id)), ("by", Some(by))],
            ),
            Self::Reject {
                task_id,
                by,
                reason,
            } => (
                "reject",
                vec![
                    ("task_id", Some(task_id)),
                    ("by", Some(by)),
                    ("reason", Some(reason)),
                ],
            ),
            Self::Note { task_id, by, text } => (
                "note",
                vec![
                    ("task_id", task_id.as_deref()),
                    ("by", Some(by)),
                    ("text", Some(text)),
                ],
            ),
        };
        let fields: Map<String, Value> = pairs
            .into_iter()
            .filter_map(|(name, value)| Some((name.to_owned(), json!(value?))))
            .collect();
        (action, Value::Object(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_names_the_web_boards_action_and_only_the_fields_given() {
        let edit = Write::Edit {
            task_id: "a46f8d35".into(),
            title: Some("Parser v2".into()),
            description: None,
        };
        assert_eq!(
            edit.action(),
            ("edit", json!({"task_id": "a46f8d35", "title": "Parser v2"}))
        );
        let note = Write::Note {
            task_id: None,
            by: "ada".into(),
            text: "stop after the parser".into(),
        };
        assert_eq!(
            note.action(),
            (
                "note",
                json!({"by": "ada", "text": "stop after the parser"})
            )
        );
        assert!(!note.creates());
        let goal = Write::Goal {
            title: "Ship".into(),
            description: String::new(),
            reason: None,
        };
        assert_eq!(
            goal.action(),
            ("goal", json!({"title": "Ship", "description": ""}))
        );
        assert!(goal.creates());
    }
}
