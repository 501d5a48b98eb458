// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Times in records: RFC 3339 in UTC with microseconds.

use std::time::SystemTime;

use chrono::{DateTime, SecondsFormat, Utc};

/// RFC 3339 in UTC with microseconds, e.g. `2026-11-22T10:00:00.123456Z`.
pub(crate) fn timestamp(time: SystemTime) -> String {
    DateTime::<Utc>::from(time).to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// A time field of a record that is not a time.
#[derive(Debug)]
pub(crate) struct BadTime {
    /// The field, as the record names it (`since`, `until`, `at`).
    pub(crate) field: &'static str,
    /// What it held.
    text: String,
    /// Why it is not a time.
    problem: chrono::ParseError,
}

impl BadTime {
    /// The problem worded for a reader: `{whose} has an invalid
    /// {prefix}{field} '{text}' ({problem})`, e.g. `entry 2 has an invalid
    /// claim.since '…' (…)`.
    pub(crate) fn describe(&self, whose: &str, prefix: &str) -> String {
        format!(
            "{whose} has an invalid {prefix}{} '{}' ({})",
            self.field,
            crate::runtime::text::clip(&self.text),
            self.problem
        )
    }
}

/// Reads time `field` of a record.
pub(crate) fn parse_time(text: &str, field: &'static str) -> Result<SystemTime, BadTime> {
    DateTime::parse_from_rfc3339(text)
        .map(SystemTime::from)
        .map_err(|problem| BadTime {
            field,
            text: text.to_owned(),
            problem,
        })
}
