// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The stage of a plan, derived from what is present (no stored stage):
//! the furthest section wins.

use super::Document;

/// Where a job stands, 0 to 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stage {
    /// Nothing yet.
    Empty,
    /// A header.
    Goal,
    /// A header and a description.
    Requirements,
    /// Constraints too.
    Constraints,
    /// Tasks, direction EXECUTE.
    Plan,
    /// Direction COMPLETE.
    Complete,
}

impl Stage {
    /// The stage of `document` (`None`: an empty description).
    pub(crate) fn of(document: Option<&Document>) -> Self {
        let Some(document) = document else {
            return Stage::Empty;
        };
        if document.is_finished() {
            Stage::Complete
        } else if !document.tasks.is_empty() {
            Stage::Plan
        } else if !document.constraints.is_empty() {
            Stage::Constraints
        } else if document.description.is_some() {
            Stage::Requirements
        } else {
            Stage::Goal
        }
    }

    /// Its number, 0 to 5.
    pub(crate) fn number(self) -> u8 {
        self as u8
    }

    /// Its name: `empty`, `goal`, `requirements`, `constraints`, `plan`, `complete`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Stage::Empty => "empty",
            Stage::Goal => "goal",
            Stage::Requirements => "requirements",
            Stage::Constraints => "constraints",
            Stage::Plan => "plan",
            Stage::Complete => "complete",
        }
    }
}
