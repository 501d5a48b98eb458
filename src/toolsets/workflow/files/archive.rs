// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Where files are moved aside: archive folders and the name a corrupt
//! `state.json` is moved to, each stamped with the call's UTC time. When the
//! name is taken, `-2`, `-3`, … is appended.

use chrono::{DateTime, Utc};

use super::names::{PR_REVIEWS, STATE, TASKS};

/// An archive's stamp: `YYYY-MM-DD-HHMM`, UTC.
pub(crate) fn stamp(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%d-%H%M").to_string()
}

/// A history entry's timestamp: RFC 3339, UTC, whole seconds, `Z`.
pub(crate) fn timestamp(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// The places files are moved to, before a free name is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// `tasks/task-{name}-{stamp}`: a task and its results.
    Task,
    /// `tasks/incomplete-task-{name}-{stamp}`: a task without results.
    IncompleteTask,
    /// `pr-reviews/pr-review-{stamp}`: a finished review.
    Review,
    /// `pr-reviews/pr-review-{stamp}-discarded`: a restarted review's files.
    Discarded,
    /// `state.json.corrupt-{YYYY-MM-DD-HHMMSS}`: an unreadable state file.
    Corrupt,
}

impl Place {
    /// Every place.
    pub(crate) const ALL: [Place; 5] = [
        Place::Task,
        Place::IncompleteTask,
        Place::Review,
        Place::Discarded,
        Place::Corrupt,
    ];

    /// Its name relative to D for a task slug `slug`, at `now`.
    pub(crate) fn base(self, slug: &str, now: DateTime<Utc>) -> String {
        let stamp = stamp(now);
        match self {
            Place::Task => format!("{TASKS}/task-{slug}-{stamp}"),
            Place::IncompleteTask => format!("{TASKS}/incomplete-task-{slug}-{stamp}"),
            Place::Review => format!("{PR_REVIEWS}/pr-review-{stamp}"),
            Place::Discarded => format!("{PR_REVIEWS}/pr-review-{stamp}-discarded"),
            Place::Corrupt => format!("{STATE}.corrupt-{}", now.format("%Y-%m-%d-%H%M%S")),
        }
    }
}

/// The `n`th candidate for `base`: `base` itself, then `base-2`, `base-3`, …
pub(crate) fn candidate(base: &str, n: usize) -> String {
    match n {
        0 | 1 => base.to_owned(),
        n => format!("{base}-{n}"),
    }
}

/// The free names chosen for this call, relative to D.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Slots {
    names: [String; 5],
}

impl Slots {
    /// The free name of each place, in [`Place::ALL`] order.
    pub(crate) fn new(names: [String; 5]) -> Self {
        Self { names }
    }

    /// The free name of `place`.
    pub(crate) fn of(&self, place: Place) -> &str {
        &self.names[place as usize]
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn names_carry_utc_stamps_and_suffixes() {
        let now = Utc.with_ymd_and_hms(2025, 8, 20, 11, 30, 7).unwrap();
        assert_eq!(stamp(now), "2025-08-20-1130");
        assert_eq!(timestamp(now), "2025-08-20T11:30:07Z");
        assert_eq!(
            Place::Task.base("sum", now),
            "tasks/task-sum-2025-08-20-1130"
        );
        assert_eq!(
            Place::IncompleteTask.base("sum", now),
            "tasks/incomplete-task-sum-2025-08-20-1130"
        );
        assert_eq!(
            Place::Review.base("x", now),
            "pr-reviews/pr-review-2025-08-20-1130"
        );
        assert_eq!(
            Place::Discarded.base("x", now),
            "pr-reviews/pr-review-2025-08-20-1130-discarded"
        );
        assert_eq!(
            Place::Corrupt.base("x", now),
            "state.json.corrupt-2025-08-20-113007"
        );
        assert_eq!(candidate("a", 1), "a");
        assert_eq!(candidate("a", 3), "a-3");
    }
}
