// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A change to the files of D, described; the disk layer carries it out.
//! Paths are relative to D, with `/` between their parts.

/// One change to the files of D.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Create this directory if it is missing (`""` is D itself).
    CreateDir(String),
    /// Move a file (an archive, or a file set aside); the target must not exist.
    Move {
        /// The file moved.
        from: String,
        /// Where it goes.
        to: String,
    },
    /// Write a new file; it must not exist.
    Create {
        /// The file.
        path: String,
        /// Its content.
        bytes: Vec<u8>,
    },
    /// Replace a file's content atomically.
    Replace {
        /// The file.
        path: String,
        /// Its new content.
        bytes: Vec<u8>,
        /// Its content before, to undo with; `None` when it did not exist.
        old: Option<Vec<u8>>,
    },
}

impl Effect {
    /// The order class the spec gives it: directories, then moves, then writes.
    pub(crate) fn rank(&self) -> u8 {
        match self {
            Effect::CreateDir(_) => 0,
            Effect::Move { .. } => 1,
            Effect::Create { .. } | Effect::Replace { .. } => 2,
        }
    }
}
