// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A task's status and the symbol between its brackets: `[ ]` todo,
//! `[*]` doing, `[√]` done (U+221A).

use serde::Serialize;

/// The status of a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// `[ ]`: not started.
    Todo,
    /// `[*]`: in progress.
    Doing,
    /// `[√]`: finished.
    Done,
}

impl Status {
    /// The status a bracket symbol stands for, if any.
    pub(crate) fn from_symbol(symbol: char) -> Option<Self> {
        match symbol {
            ' ' => Some(Self::Todo),
            '*' => Some(Self::Doing),
            '√' => Some(Self::Done),
            _ => None,
        }
    }

    /// The symbol written between the brackets.
    pub(crate) fn symbol(self) -> char {
        match self {
            Self::Todo => ' ',
            Self::Doing => '*',
            Self::Done => '√',
        }
    }

    /// Parses `todo`, `doing` or `done`.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        match name {
            "todo" => Some(Self::Todo),
            "doing" => Some(Self::Doing),
            "done" => Some(Self::Done),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_names_round_trip() {
        for status in [Status::Todo, Status::Doing, Status::Done] {
            assert_eq!(Status::from_symbol(status.symbol()), Some(status));
        }
        assert_eq!(Status::from_symbol('x'), None);
        assert_eq!(Status::parse("DONE"), None);
        assert_eq!(Status::Done.symbol().len_utf8(), 3);
    }
}
