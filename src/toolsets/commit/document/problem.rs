// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A problem found while reading a description: `line N: message`.

/// What is wrong at one line of a description (1-based, as read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The line, 1-based, in the description as read.
    pub(crate) line: usize,
    /// What is wrong and what was expected.
    pub(crate) message: String,
}

impl Problem {
    /// A problem at `line`.
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}
