// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit`: the plan of a piece of work kept in the description of
//! the change that holds it (jj's `@`, or git's `refs/commit-plan/{branch}`).
//!
//! `document` is the pure plan (grammar, reader, formatter, task tree,
//! stages, migration); `edit` the pure tool operations and their
//! preconditions; `view` the text replies; `vcs` the jj and git backends;
//! `mcp` the nine tools; `place` where the plan lives and what is around it
//! (shared by `vcs`, which finds it, and `view`, which names it); `config`
//! its table and `toolset` its registry entry.

pub(crate) mod config;
pub(crate) mod document;
pub(crate) mod edit;
pub(crate) mod mcp;
pub(crate) mod place;
pub(crate) mod toolset;
pub(crate) mod vcs;
pub(crate) mod view;

pub(crate) use toolset::KIND;
