// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A board as a log of operations, the way clones of a repository share
//! it (docs/sync.md): the operation ([`op`]), the log as a set that merges
//! by union and compacts into checkpoints ([`log`]), and the replay that
//! turns it into the board, with the rules that settle what clones did
//! concurrently ([`state`]) and what they set aside ([`set_aside`]). Pure:
//! the git store reads and writes the log.

pub mod log;
pub mod op;
pub mod set_aside;
pub mod state;

#[cfg(test)]
mod tests;

pub use log::{Checkpoint, CheckpointId, Corrupt, Diverged, Log};
pub use op::{ClaimMode, Op, OpId, Replica, Vector};
pub use set_aside::{Reason, SET_ASIDE_KEPT, SetAside};
pub use state::{ClaimOrigin, State};
