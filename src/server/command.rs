// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A toolset's command-line face: a subcommand of `planning-mcp-server`
//! (toolset `team`'s `summary`). The binary adds the subcommands of every
//! registered toolset to its parser and, when one is given, hands it the
//! arguments: it loads the configuration it needs itself, since each reads
//! other keys (and so takes other flags) than the server.

use clap::{ArgMatches, Command};

/// A subcommand of `planning-mcp-server` that a toolset brings.
#[derive(Debug, Clone, Copy)]
pub struct CliCommand {
    /// Its name on the command line, e.g. `summary`: no other toolset's
    /// (a test over the registry checks).
    pub name: &'static str,
    /// Its parser: adds what `--help` says of it and its arguments to
    /// `command` (named [`Self::name`]). One that reads the configuration
    /// takes `--config` and the flags of the keys it reads, no others
    /// (`config::CommandFlags`).
    pub define: fn(command: Command) -> Command,
    /// Runs it on the arguments `define` parsed: the text to print on
    /// standard output, or what went wrong (printed on standard error
    /// after the program's name; exit status 1).
    pub run: fn(&ArgMatches) -> Result<String, String>,
}
