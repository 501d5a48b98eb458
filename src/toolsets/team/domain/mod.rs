// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The team's pure domain: its rules over a planning board's coordination
//! data. Each decision reads the board at a moment ([`View`]: the clock is
//! the caller's) and returns the edits that carry it out; nothing here
//! locks, stores or speaks MCP.

pub(crate) mod claims;
pub(crate) mod digest;
pub(crate) mod digest_people;
pub(crate) mod dispatch;
pub(crate) mod error;
pub(crate) mod evidence;
pub(crate) mod fields;
#[cfg(test)]
pub(crate) mod fixture;
pub(crate) mod goal;
pub(crate) mod links;
pub(crate) mod notes;
pub(crate) mod plan;
pub(crate) mod render;
pub(crate) mod review;
pub(crate) mod status_line;
pub(crate) mod text;
pub(crate) mod touches;
pub(crate) mod unblocks;
pub(crate) mod view;
pub(crate) mod wait_reply;
pub(crate) mod waiting;
pub(crate) mod wave;

pub(crate) use claims::{LeasePolicy, Target};
pub(crate) use digest::{digest, digest_at};
pub(crate) use error::TeamError;
pub(crate) use evidence::{EvidenceInput, EvidenceRule};
pub(crate) use review::ReviewRule;
pub(crate) use view::View;
