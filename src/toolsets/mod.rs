// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolsets, each one folder: a pure domain, its storage where it has
//! one, its MCP face, and its HTTP routes and subcommands if it has any.
//! Each registers itself with one line in [`REGISTRY`]; the server, the
//! transports, the binary and the configuration know of it only from there,
//! and derive from it every list that names toolsets: the valid
//! `[server] toolsets` names, the config tables and their `PLANNING_*`
//! variables, the flags, the example config file, the instructions, the
//! tools listed and called, the routes and the subcommands. Tests over the
//! whole registry (`registry_tests`) keep it sound: tool names, tables and
//! flags unique, every table reachable from the environment, every
//! toolset's instructions within its budget.

pub(crate) mod commit;
pub(crate) mod planning;
pub(crate) mod plans;
pub(crate) mod team;
pub(crate) mod workflow;

#[cfg(test)]
mod registry_tests;
#[cfg(test)]
mod scratch;

use crate::server::Registry;
use crate::server::command::CliCommand;

/// Every toolset the server can offer, in the order their instructions,
/// tables, flags and example parts appear. A toolset comes after the ones
/// it `requires`.
pub(crate) static REGISTRY: Registry<'static> = Registry::new(&[
    &planning::KIND,
    &plans::KIND,
    &team::KIND,
    &workflow::KIND,
    &commit::KIND,
]);

/// The names of every toolset the server can offer, in registry order.
pub fn names() -> impl Iterator<Item = &'static str> {
    REGISTRY.names()
}

/// The subcommands of `planning-mcp-server` that the toolsets bring, in
/// registry order.
pub(crate) fn commands() -> impl Iterator<Item = &'static CliCommand> {
    REGISTRY.kinds().flat_map(|kind| kind.commands())
}
