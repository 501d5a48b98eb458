// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The tool operations, pure: each takes the plan as read and the caller's
//! arguments and answers the new plan with its action lines, or a refusal.
//! The refusals of the preconditions table come first
//! (`preconditions`), then the checks of the arguments; a call that would
//! not change the text asks for no write.

pub(crate) mod constraints;
pub(crate) mod description;
pub(crate) mod goal;
pub(crate) mod job;
pub(crate) mod mark;
pub(crate) mod plan;
pub(crate) mod preconditions;
pub(crate) mod verify;

use super::document::format::format;
use super::document::{CommitType, Document, Limits};

/// Why a call changes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The description is not a valid plan (the face shows it and the choices).
    NotAPlan,
    /// Anything else, in one or two sentences.
    Because(String),
}

impl Refused {
    /// A refusal with `message`.
    pub(crate) fn because(message: impl Into<String>) -> Self {
        Refused::Because(message.into())
    }
}

/// What a call does to the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// The plan after the call.
    pub(crate) document: Document,
    /// What happened, one line each (`Goal set: ...`, notes).
    pub(crate) actions: Vec<String>,
    /// The canonical text to write; `None` when the text would not change.
    pub(crate) text: Option<String>,
}

impl Edit {
    /// An edit that writes nothing.
    pub(crate) fn unchanged(document: Document, action: impl Into<String>) -> Self {
        Self {
            document,
            actions: vec![action.into()],
            text: None,
        }
    }

    /// An edit that writes `document`, or nothing if its text is `before`'s;
    /// refused when the text would exceed `max_input_bytes`.
    pub(crate) fn write(
        before: Option<&Document>,
        document: Document,
        actions: Vec<String>,
        unchanged: &str,
        limits: &Limits,
    ) -> Result<Self, Refused> {
        if before == Some(&document) {
            return Ok(Self::unchanged(document, unchanged));
        }
        let text = format(&document);
        check_size(&text, limits)?;
        Ok(Self {
            document,
            actions,
            text: Some(text),
        })
    }
}

/// Refuses a text larger than `max_input_bytes`.
pub(crate) fn check_size(text: &str, limits: &Limits) -> Result<(), Refused> {
    match text.len() > limits.max_input_bytes {
        true => Err(Refused::because(format!(
            "the plan would be {} bytes; the limit is {} ([commit] max_input_bytes). Shorten it; nothing was changed.",
            text.len(),
            limits.max_input_bytes
        ))),
        false => Ok(()),
    }
}

/// A goal as a caller gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalInput {
    /// The kind of change.
    pub kind: CommitType,
    /// The part of the program; empty or absent for none.
    pub scope: Option<String>,
    /// Whether the change breaks compatibility.
    pub breaking: bool,
    /// What the change does.
    pub title: String,
}

/// A task as a caller gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskInput {
    /// What to do.
    pub text: String,
    /// Whether it is done (recomputed for a parent).
    pub done: bool,
    /// Its subtasks.
    pub subtasks: Vec<TaskInput>,
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
pub(crate) mod fixtures;
