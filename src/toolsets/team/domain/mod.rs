// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The team's pure domain: its rules over a planning board's coordination
//! data. Each decision reads the board at a moment ([`View`]: the clock is
//! the caller's) and returns the edits that carry it out; nothing here
//! locks, stores or speaks MCP.

pub mod claims;
pub mod digest;
pub mod dispatch;
pub mod error;
pub mod evidence;
#[cfg(test)]
pub(crate) mod fixture;
pub mod goal;
pub mod links;
pub mod render;
pub mod text;
pub mod touches;
pub mod view;
pub mod wait_reply;
pub mod waiting;
pub mod wave;

pub use claims::{Claimed, Expiry, LeasePolicy, Released, Target};
pub use digest::{DIGEST_MAX_CHARS, digest};
pub use error::TeamError;
pub use evidence::{EvidenceInput, EvidenceRule};
pub use view::View;
