// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team`'s records of a task: its claim, its dispatch and the
//! evidence of its outcome.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::data::{Claim, Dispatch, Evidence, Note, Review};
use crate::toolsets::planning::domain::TaskId;
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    review: Option<ReviewRecord<'a>>,
}

/// A person's review of an outcome: `{"by": …, "at": …, "verdict":
/// "approved"}`, or `"rejected"` with its `"reason"`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewRecord<'a> {
    by: Cow<'a, str>,
    at: String,
    verdict: Verdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<Cow<'a, str>>,
}

/// A review's verdict, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Verdict {
    Approved,
    Rejected,
}

impl<'a> From<&'a Review> for ReviewRecord<'a> {
    fn from(r: &'a Review) -> Self {
        Self {
            by: Cow::Borrowed(&r.by),
            at: timestamp(r.at),
            verdict: match r.rejected {
                Some(_) => Verdict::Rejected,
                None => Verdict::Approved,
            },
            reason: r.rejected.as_deref().map(Cow::Borrowed),
        }
    }
}

impl ReviewRecord<'_> {
    /// The review; a rejection without its reason reads with an empty one.
    fn into_review(self) -> Result<Review, BadTime> {
        Ok(Review {
            at: parse_time(&self.at, "at")?,
            by: self.by.into_owned(),
            rejected: match self.verdict {
                Verdict::Approved => None,
                Verdict::Rejected => Some(self.reason.map(Cow::into_owned).unwrap_or_default()),
            },
        })
    }
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
            review: e.review.as_ref().map(ReviewRecord::from),
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
            review: self.review.map(ReviewRecord::into_review).transpose()?,
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

/// A person's note: `{"n": 1, "task_id": …, "by": …, "at": …, "text": …,
/// "told": …}` (`task_id` absent for a note on the board, `told` until an
/// agent's reply carried it).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoteRecord<'a> {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task_id: Option<TaskId>,
    by: Cow<'a, str>,
    at: String,
    text: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    told: Option<Cow<'a, str>>,
}

impl<'a> From<&'a Note> for NoteRecord<'a> {
    fn from(note: &'a Note) -> Self {
        Self {
            task_id: note.task,
            by: Cow::Borrowed(&note.by),
            at: timestamp(note.at),
            text: Cow::Borrowed(&note.text),
            told: note.told.as_deref().map(Cow::Borrowed),
        }
    }
}

impl NoteRecord<'_> {
    /// The note; a field that is not a time is named.
    pub(crate) fn into_note(self) -> Result<Note, BadTime> {
        Ok(Note {
            at: parse_time(&self.at, "at")?,
            task: self.task_id,
            by: self.by.into_owned(),
            text: self.text.into_owned(),
            told: self.told.map(Cow::into_owned),
        })
    }
}

/// A note with its number, as a snapshot's header lists them.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NumberedNoteRecord<'a> {
    /// Its number.
    pub(crate) n: u64,
    /// The note.
    #[serde(flatten)]
    pub(crate) note: NoteRecord<'a>,
}
