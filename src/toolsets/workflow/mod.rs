// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `workflow`: the spell workflow, a strict state machine over the
//! files of `.ai/task/` (docs/workflow.md). The user types a spell, the
//! agent calls its tool, the server moves one step.
//!
//! `machine` is the state machine, pure (states, spells, options, the
//! transition table, a transition computed without I/O); `files` the
//! files' formats, pure (templates, criteria and ticking, `state.json`,
//! archive names, Atlassian links); `disk` the safety layer (lock, reads,
//! effects with undo); `cast` one call end to end; `mcp` the six tools;
//! `config` its table and `toolset` its registry entry.

pub(crate) mod cast;
pub(crate) mod config;
pub(crate) mod disk;
pub(crate) mod files;
pub(crate) mod machine;
pub(crate) mod mcp;
pub(crate) mod toolset;

pub(crate) use toolset::KIND;

#[cfg(test)]
mod tests;
