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
//!   toolsets is derived (`toolsets::names` says which there are);
//! - `runtime`: allocator, logging, stacks, text helpers, blocking work,
//!   file locks, child processes, output.
//!
//! Layers point one way: transports know the server, the server knows the
//! toolset interface, the toolsets know their domain, and a domain knows
//! nothing else.
//!
//! All of it is private to the crate (`pub(crate)`), but for [`api`]: the
//! one small facade through which the binaries, benches, fuzz targets and
//! end-to-end tests reach what they use.

// Output goes through `runtime::output`: `println!` panics when stdout
// is a closed pipe.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod api;
mod config;
mod runtime;
mod server;
mod setup;
mod toolsets;
mod transport;
