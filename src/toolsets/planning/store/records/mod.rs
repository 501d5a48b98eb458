// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The records: one serde shape per concept that a store writes, with its
//! conversions to and from the domain's types. The snapshot
//! ([`super::snapshot`], and so the file backend and PostgreSQL's snapshot
//! and history rows) and the git log ([`super::git_log`]'s operations and
//! checkpoints) all write these, so a concept has one shape on disk:
//!
//! - [`GoalRecord`]: `{"title": …, "description": …}`;
//! - [`EntryRecord`] and [`EventRecord`]: a history entry, `{"at": …,
//!   "event": "goal_set", "goal": {…}}`, with the reasons a claim and a
//!   dispatch end;
//! - toolset `team`'s claim, dispatch and evidence of a task, and the
//!   edits of its operations, live in the coordination room with the rest
//!   of team's data (`planning/coordination/records.rs`,
//!   `edit_record.rs`), written with these times.
//!
//! Times are RFC 3339 in UTC with microseconds ([`timestamp`]); reading one
//! gives a [`BadTime`] that the reader words for its format. The web page's
//! JSON (`planning/web/view.rs`) is another audience's view, not a record:
//! it is shaped for the page and versioned on its own.

mod event;
mod time;

pub(crate) use event::{EntryRecord, EventRecord, GoalChangeRecord, GoalRecord, GoalSetRecord};
pub(crate) use time::{BadTime, parse_time, timestamp};
