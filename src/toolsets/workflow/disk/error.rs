// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Why a spell was refused: one sentence each, naming the path and the OS
//! error where there is one. Nothing was changed by a refused call.

use std::io;

/// A spell that could not be carried out.
#[derive(Debug, thiserror::Error)]
pub enum CastError {
    /// The note is longer than 500 characters.
    #[error("note is {0} characters long; at most 500 are allowed")]
    NoteTooLong(usize),
    /// Another call held the lock for longer than `lock_timeout_ms`.
    #[error("another process is running a spell on {0}; try again")]
    Busy(String),
    /// A file the call needs is larger than `max_file_bytes`.
    #[error("{path} is {size} bytes, more than max_file_bytes ({max}); nothing was changed")]
    TooLarge {
        /// The file, as replies show it.
        path: String,
        /// Its size.
        size: u64,
        /// The limit.
        max: u64,
    },
    /// `state.json` has a `version` above ours.
    #[error("state.json was written by a newer planning-mcp-server")]
    Newer,
    /// `state.json` has a `version` below 1, which no server wrote.
    #[error(
        "state.json has version {0}, which no planning-mcp-server writes (this one reads version 1); it is left as it is, so nothing was changed (fix the version, or move the file away to rebuild the state from the files)"
    )]
    UnknownVersion(String),
    /// A file the call would write (or a folder on its way) is a symlink.
    #[error(
        "{0} is a symbolic link; the workflow never writes through one, so nothing was changed"
    )]
    Symlink(String),
    /// A file the call reads is not a regular file.
    #[error("{0} is not a regular file; nothing was changed")]
    NotAFile(String),
    /// The file system refused.
    #[error("cannot {action} {path}: {source}; nothing was changed")]
    Io {
        /// What was being done, e.g. `read`.
        action: &'static str,
        /// The path, as replies show it.
        path: String,
        /// The OS error.
        source: io::Error,
    },
}

impl CastError {
    /// An I/O error while doing `action` to `path`.
    pub(crate) fn io(action: &'static str, path: String, source: io::Error) -> Self {
        CastError::Io {
            action,
            path,
            source,
        }
    }
}
