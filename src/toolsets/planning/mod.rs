// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `planning`: the Go-compatible planning board.
//!
//! `domain` is pure (task, board, history, render, errors); `coordination`
//! is toolset `team`'s data as the board stores, replays and shows it (the
//! one door team comes in by); `store` keeps
//! snapshots (memory, file, postgres); `cli` moves boards in and out of the
//! database (`import`, `export`); `named_boards` names and opens boards and
//! `shared_board` is the handle sessions share; `mcp` is the MCP face
//! (the seven tools and the board's resources) and `web` the HTTP face (the
//! web board); `sync_cli` its subcommand `sync` and the background syncs;
//! `config` its tables and `toolset` its registry entry.

#[cfg(feature = "postgres")]
pub(crate) mod cli;
pub(crate) mod config;
pub(crate) mod coordination;
pub(crate) mod domain;
pub(crate) mod mcp;
pub(crate) mod named_boards;
pub(crate) mod person_tasks;
pub(crate) mod shared_board;
pub(crate) mod store;
pub(crate) mod sync_cli;
pub(crate) mod toolset;
pub(crate) mod web;

pub(crate) use toolset::{KIND, Planning};
