// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! planning-mcp-server: planning toolsets for AI coding agents over MCP.
//!
//! The house, outermost first (see docs/architecture.md):
//! - `config`: defaults < file < `PLANNING_*` env < flags; the toolsets'
//!   tables, variables, flags and example parts come from the registry;
//! - `transport`: stdio, Streamable HTTP (with the routes the toolsets
//!   bring), shutdown; it names no toolset;
//! - `server`: one MCP session, the `Toolset` interface (with the toolsets'
//!   HTTP and CLI faces) and the `Registry` type;
//! - `toolsets`: every toolset the server offers, each one folder (a pure
//!   domain, its storage, its MCP face, its routes and subcommands) and one
//!   line of the registry, `toolsets::REGISTRY`, from which every list of
//!   toolsets is derived ([`toolsets::names`] says which there are);
//! - `runtime`: allocator, logging, stacks, text helpers, blocking work,
//!   file locks, child processes, output.
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
pub(crate) mod setup;
pub mod toolsets;
pub mod transport;

pub use server::BoardName;
pub use server::command::CliCommand;

/// Every subcommand of `planning-mcp-server`: the server's own (`setup`,
/// `doctor`), then those the toolsets bring, in registry order.
pub fn commands() -> impl Iterator<Item = &'static CliCommand> {
    setup::COMMANDS.iter().chain(toolsets::commands())
}
