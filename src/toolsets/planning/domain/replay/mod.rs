// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A board as a log of operations, the way clones of a repository share
//! it (docs/sync.md): the operation ([`op`]), the log as a set that merges
//! by union and compacts into checkpoints ([`log`]), and the replay that
//! turns it into the board, with the rules that settle what clones did
//! concurrently ([`state`]) and what they set aside ([`set_aside`]). Pure:
//! the git store reads and writes the log.

pub(crate) mod intent;
pub(crate) mod log;
pub(crate) mod op;
pub(crate) mod set_aside;
pub(crate) mod state;

#[cfg(test)]
mod tests;

pub(crate) use log::{Checkpoint, CheckpointId, Corrupt, Log};
pub(crate) use op::{ClaimMode, Op, OpId, Replica};
pub(crate) use set_aside::{Reason, SetAside};
pub(crate) use state::State;
