// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team`: agents coordinating on the planning boards. Claims with
//! leases, links and a ready queue, evidence of done, and a bounded digest
//! for hooks.
//!
//! It works on toolset `planning`'s boards (the one dependency between
//! toolsets, declared by `KIND.requires()`): its data lives in the board
//! (`planning::coordination`, the room that stores, replays and shows it),
//! so it is stored, reloaded and shared
//! across processes with the board. `domain` is pure; `mcp` is the MCP
//! face; `cli` the `summary` and `check-touches` subcommands;
//! `routes` the HTTP face
//! (`/boards/{name}/digest`, `/boards/{name}/reservations`, the latter's
//! JSON in `reserved`); `waiter` the long poll of `wait_for`; `config` its
//! table and `toolset` its registry entry. Leases are measured by the runtime's clock, shifted in tests
//! (`runtime::clock`).

pub(crate) mod cli;
pub(crate) mod config;
pub(crate) mod domain;
pub(crate) mod mcp;
pub(crate) mod notify;
pub(crate) mod people;
pub(crate) mod reserved;
pub(crate) mod routes;
pub(crate) mod toolset;
pub(crate) mod waiter;

pub(crate) use toolset::{KIND, Team};
