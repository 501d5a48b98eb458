// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team`'s records of a task: its claim, its dispatch and the
//! evidence of its outcome.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::data::{Claim, Dispatch, Evidence};
use crate::toolsets::planning::store::records::{BadTime, parse_time, timestamp};

/// A task's claim: `{"holder": …, "since": …, "until": …}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimRecord<'a> {
    holder: Cow<'a, str>,
    since: String,
    until: String,
}

impl<'a> From<&'a Claim> for ClaimRecord<'a> {
    fn from(claim: &'a Claim) -> Self {
        Self {
            holder: Cow::Borrowed(&claim.holder),
            since: timestamp(claim.since),
            until: timestamp(claim.until),
        }
    }
}

impl ClaimRecord<'_> {
    /// The claim; a field that is not a time is named.
    pub(crate) fn into_claim(self) -> Result<Claim, BadTime> {
        Ok(Claim {
            since: parse_time(&self.since, "since")?,
            until: parse_time(&self.until, "until")?,
            holder: self.holder.into_owned(),
        })
    }
}

/// The evidence of a task's outcome: what was run and what it gave, who
/// gave it and when.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EvidenceRecord<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    command: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    exit_code: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    commit: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    url: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<Cow<'a, str>>,
    by: Cow<'a, str>,
    at: String,
}

impl<'a> From<&'a Evidence> for EvidenceRecord<'a> {
    fn from(e: &'a Evidence) -> Self {
        Self {
            command: e.command.as_deref().map(Cow::Borrowed),
            exit_code: e.exit_code,
            commit: e.commit.as_deref().map(Cow::Borrowed),
            url: e.url.as_deref().map(Cow::Borrowed),
            note: e.note.as_deref().map(Cow::Borrowed),
            by: Cow::Borrowed(&e.by),
            at: timestamp(e.at),
        }
    }
}

impl EvidenceRecord<'_> {
    /// The evidence; a field that is not a time is named.
    pub(crate) fn into_evidence(self) -> Result<Evidence, BadTime> {
        Ok(Evidence {
            at: parse_time(&self.at, "at")?,
            command: self.command.map(Cow::into_owned),
            exit_code: self.exit_code,
            commit: self.commit.map(Cow::into_owned),
            url: self.url.map(Cow::into_owned),
            note: self.note.map(Cow::into_owned),
            by: self.by.into_owned(),
        })
    }
}

/// A lead's record of the worker it sent a task to. `claimed` is written
/// only when true (an older git log wrote it always; both are read).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DispatchRecord<'a> {
    worker: Cow<'a, str>,
    by: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    place: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<Cow<'a, str>>,
    at: String,
    until: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    claimed: bool,
}

impl<'a> From<&'a Dispatch> for DispatchRecord<'a> {
    fn from(d: &'a Dispatch) -> Self {
        Self {
            worker: Cow::Borrowed(&d.worker),
            by: Cow::Borrowed(&d.by),
            place: d.place.as_deref().map(Cow::Borrowed),
            note: d.note.as_deref().map(Cow::Borrowed),
            at: timestamp(d.at),
            until: timestamp(d.until),
            claimed: d.claimed,
        }
    }
}

impl DispatchRecord<'_> {
    /// The dispatch; a field that is not a time is named.
    pub(crate) fn into_dispatch(self) -> Result<Dispatch, BadTime> {
        Ok(Dispatch {
            at: parse_time(&self.at, "at")?,
            until: parse_time(&self.until, "until")?,
            worker: self.worker.into_owned(),
            by: self.by.into_owned(),
            place: self.place.map(Cow::into_owned),
            note: self.note.map(Cow::into_owned),
            claimed: self.claimed,
        })
    }
}
