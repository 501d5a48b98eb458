// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The error of every plans operation: one message, in the reference's exact
//! words, because clients and scripts match on those strings.

/// A failed plans operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlanError(pub String);

impl PlanError {
    /// The message.
    #[cfg(test)]
    pub(crate) fn message(&self) -> &str {
        &self.0
    }
}

impl From<String> for PlanError {
    fn from(message: String) -> Self {
        Self(message)
    }
}

impl From<&str> for PlanError {
    fn from(message: &str) -> Self {
        Self(message.to_owned())
    }
}

/// `Task not found: <id>`.
pub(crate) fn task_not_found(id: &str) -> PlanError {
    PlanError(format!("Task not found: {id}"))
}
