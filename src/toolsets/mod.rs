// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolsets, each one folder: a pure domain, its storage where it has
//! one, its MCP face, and its HTTP routes and subcommands if it has any.
//! Each registers itself with one line in [`REGISTRY`]; the server, the
//! transports, the binary and the configuration know of it only from there.

pub mod commit;
pub mod planning;
pub mod plans;
pub mod team;
pub mod workflow;

use crate::server::command::CliCommand;
use crate::server::toolset::ToolsetKind;

/// Every toolset the server can offer, in the order their instructions,
/// tables and flags appear.
pub(crate) static REGISTRY: &[&dyn ToolsetKind] = &[
    &planning::KIND,
    &plans::KIND,
    &team::KIND,
    &workflow::KIND,
    &commit::KIND,
];

/// The names of every toolset the server can offer, in registry order.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.iter().map(|kind| kind.name())
}

/// The subcommands of `planning-mcp-server` that the toolsets bring, in
/// registry order.
pub fn commands() -> impl Iterator<Item = &'static CliCommand> {
    REGISTRY.iter().flat_map(|kind| kind.commands())
}
