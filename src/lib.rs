// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! planning-mcp-server: planning toolsets for AI coding agents over MCP.
//!
//! The house, outermost first (see docs/architecture.md):
//! - `config`: defaults < file < `PLANNING_*` env < flags; the toolsets'
//!   tables and flags come from the registry;
//! - `transport`: stdio, Streamable HTTP (with the routes the toolsets
//!   bring), shutdown; it names no toolset;
//! - `server`: one MCP session, the `Toolset` interface (with the toolsets'
//!   HTTP and CLI faces) and the registry;
//! - `toolsets`: `planning` (the board) and `plans` (Markdown plan files),
//!   each a pure domain, its storage and its MCP face;
//! - `runtime`: allocator, logging, stacks, text helpers.
//!
//! Layers point one way: transports know the server, the server knows the
//! toolset interface, the toolsets know their domain, and a domain knows
//! nothing else.

// Output goes through `runtime::output`: `println!` panics when stdout
// is a closed pipe.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod config;
pub mod runtime;
pub(crate) mod server;
pub mod toolsets;
pub mod transport;

pub use server::BoardName;
pub use server::command::CliCommand;
