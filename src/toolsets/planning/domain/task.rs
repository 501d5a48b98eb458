// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A task, its status and its content-derived ID.

use std::fmt;
use std::str::FromStr;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::runtime::clock::Clock;

/// A task ID: the first four bytes of SHA-256 over `title:description`,
/// written as eight lowercase hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId(u32);

impl TaskId {
    /// Derives the ID of a task from its content, exactly as the Go server does:
    /// no trimming or normalisation before hashing.
    pub fn from_content(title: &str, description: &str) -> Self {
        let digest = Sha256::new()
            .chain_update(title.as_bytes())
            .chain_update(b":")
            .chain_update(description.as_bytes())
            .finalize();
        Self(u32::from_be_bytes([
            digest[0], digest[1], digest[2], digest[3],
        ]))
    }

    /// Parses an ID as a request gives it. Only eight lowercase hex digits are
    /// an ID; anything else (upper case, whitespace, other lengths) is `None`.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let well_formed =
            text.len() == 8 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        well_formed
            .then(|| u32::from_str_radix(text, 16).ok())
            .flatten()
            .map(Self)
    }
}

impl TaskId {
    /// The eight lowercase hex digits, without the formatting machinery
    /// (every rendered task line writes one).
    pub(crate) fn hex(self) -> [u8; 8] {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut out = [0u8; 8];
        for (n, digit) in out.iter_mut().enumerate() {
            *digit = DIGITS[((self.0 >> (28 - 4 * n)) & 0xf) as usize];
        }
        out
    }

    /// Appends the ID's hex digits to `out`.
    pub(crate) fn push_to(self, out: &mut String) {
        out.extend(self.hex().map(char::from));
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.hex()).unwrap_or_default())
    }
}

impl Serialize for TaskId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TaskId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "'{text}' is not a task ID (eight lowercase hex digits)"
            ))
        })
    }
}

/// Where a task stands. New tasks are pending; any status may move to any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
    /// Tried and could not be done.
    Failed,
    /// Dropped; only the operator should ask for this.
    Cancelled,
    /// Done by an agent, waiting for a person to approve or reject it
    /// (toolset `team` with review on; docs/review.md). Not in
    /// [`Status::ALL`]: no planning tool sets it, the Go server has no
    /// such status, and a board that never used it reads as before.
    AwaitingReview,
}

impl Status {
    /// Every status, in the order the legend and the docs list them.
    pub(crate) const ALL: [Status; 5] = [
        Status::Pending,
        Status::InProgress,
        Status::Completed,
        Status::Failed,
        Status::Cancelled,
    ];

    /// Every status a stored board may hold: [`Status::ALL`] and
    /// [`Status::AwaitingReview`].
    pub(crate) const STORED: [Status; 6] = [
        Status::Pending,
        Status::InProgress,
        Status::Completed,
        Status::Failed,
        Status::Cancelled,
        Status::AwaitingReview,
    ];

    /// The one-character glyph shown in task lists (one token for a model).
    pub(crate) fn glyph(self) -> char {
        match self {
            Status::Pending => '☐',
            Status::InProgress => '⟳',
            Status::Completed => '☑',
            Status::Failed => '☒',
            Status::Cancelled => '⊗',
            Status::AwaitingReview => '⧗',
        }
    }

    /// The name used in requests and in JSON, e.g. `in_progress`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::InProgress => "in_progress",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
            Status::AwaitingReview => "awaiting_review",
        }
    }

    /// The words used in the legend, e.g. `in progress`.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Status::InProgress => "in progress",
            Status::AwaitingReview => "awaiting review",
            other => other.as_str(),
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a status name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a status; use one of pending, in_progress, completed, failed, cancelled")]
pub struct UnknownStatus(pub(crate) String);

impl FromStr for Status {
    type Err = UnknownStatus;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        // A stored board may hold `awaiting_review`; a planning tool that
        // is asked for it refuses it itself (`Board::update_statuses`).
        Status::STORED
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| UnknownStatus(text.to_owned()))
    }
}

/// One unit of work on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// Derived from title and description; changes when they change.
    pub id: TaskId,
    /// Never blank.
    pub title: String,
    /// May be empty.
    pub description: String,
    /// Where the task stands.
    pub status: Status,
    /// When the task was added; kept when the task is modified.
    pub created_at: SystemTime,
}

impl Task {
    /// A new pending task created now, by the system clock (the board
    /// makes its tasks with [`Task::created`], at its own clock's time).
    pub fn new(title: String, description: String) -> Self {
        Self::created(&title, &description, Clock::system().now())
    }

    /// A new pending task created at `at`.
    pub(crate) fn created(title: &str, description: &str, at: SystemTime) -> Self {
        Self {
            id: TaskId::from_content(title, description),
            title: title.to_owned(),
            description: description.to_owned(),
            status: Status::Pending,
            created_at: at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_match_the_spec_vectors() {
        let vectors = [
            ("Write tests", "", "a46f8d35"),
            ("Write tests", "Cover the manager", "4e21ad16"),
            ("a", "b", "6783a31e"),
            ("Implement feature X", "Add the new endpoint", "48dd0523"),
            ("Écrire les tests ✓", "unicode", "c828bc2f"),
        ];
        for (title, description, expected) in vectors {
            assert_eq!(
                TaskId::from_content(title, description).to_string(),
                expected
            );
        }
    }

    #[test]
    fn ids_are_not_normalised() {
        assert_ne!(
            TaskId::from_content("Write tests ", ""),
            TaskId::from_content("Write tests", "")
        );
    }

    #[test]
    fn leading_zeros_are_kept() {
        assert_eq!(TaskId(0x00ab_0001).to_string(), "00ab0001");
        assert_eq!(TaskId::parse("00ab0001"), Some(TaskId(0x00ab_0001)));
    }

    #[test]
    fn only_eight_lowercase_hex_digits_parse() {
        assert_eq!(TaskId::parse("a46f8d35"), Some(TaskId(0xa46f_8d35)));
        for bad in [
            "A46F8D35",
            "a46f8d3",
            "a46f8d355",
            " a46f8d3",
            "+46f8d35",
            "a46f8d3g",
            "",
        ] {
            assert_eq!(TaskId::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn statuses_round_trip_and_have_glyphs() {
        let glyphs: String = Status::ALL.iter().map(|s| s.glyph()).collect();
        assert_eq!(glyphs, "☐⟳☑☒⊗");
        for status in Status::ALL {
            assert_eq!(status.as_str().parse::<Status>(), Ok(status));
        }
        assert_eq!(Status::InProgress.label(), "in progress");
    }

    #[test]
    fn unknown_status_names_the_allowed_ones() {
        let error = "done".parse::<Status>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "'done' is not a status; use one of pending, in_progress, completed, failed, cancelled"
        );
        assert!("In_Progress".parse::<Status>().is_err());
    }
}
