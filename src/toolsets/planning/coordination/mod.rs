// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The coordination room: the data toolset `team` writes onto planning's
//! boards (claims with leases, dispatch records, evidence and who
//! completed a task without it, the paths a task touches, links between
//! tasks, the goal's done-when condition) as planning stores, replays and
//! shows it, in one place.
//!
//! Team owns its rules: what may be claimed, by whom and for how long,
//! what a link or a dispatch must respect, what evidence says, all live in
//! `toolsets/team/domain`, which decides and hands the board its
//! [`Edit`]s. Planning only keeps the result: it stores it, replays it
//! from a log and shows it, and keeps it consistent when its own tools
//! reword, delete or re-status a task. So a team feature touches
//! `toolsets/team/` and this room (docs/architecture.md, "Adding a team
//! feature", names the few lines outside it: the field of a snapshot's
//! task record, the web board's view):
//!
//! - [`data`]: the types ([`Claim`], [`Dispatch`], [`Evidence`]), a
//!   board's [`data::Coordination`] with its undoable [`data::Change`]s,
//!   the [`Edit`]s team asks for and the [`data::Step`] the board takes
//!   for each;
//! - [`records`]: the claim, dispatch and evidence as every store writes
//!   them (the snapshot, PostgreSQL's rows, the git log);
//! - [`snapshot_fields`]: their fields on a snapshot's tasks and header,
//!   with the checks a read makes and the format version they need;
//! - [`edit_record`]: a team operation's edits in the git log;
//! - [`replay`]: how the replay of a log applies a team operation, with
//!   the rules that settle concurrent claims and links.
//!
//! What the web board shows of it is the web page's view
//! (`planning/web/view.rs`), shaped for another audience; the history
//! events of claims and dispatches are the board's history
//! (`planning/domain/history.rs`).

pub(crate) mod data;
pub(crate) mod edit_record;
pub(crate) mod person;
pub(crate) mod plan;
pub(crate) mod records;
pub(crate) mod replay;
pub(crate) mod snapshot_fields;

pub(crate) use data::{Claim, Dispatch, Edit, Evidence, Note, Review};
