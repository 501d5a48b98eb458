// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A toolset's command-line face: a subcommand of `planning-mcp-server`
//! (toolset `team`'s `summary`). The binary adds the subcommands of every
//! registered toolset to its parser and, when one is given, runs it. One
//! that reads the configuration says which keys it reads: the binary gives
//! it `--config` and the flags of those keys (no others), and hands it the
//! configuration they, the file and the environment make. No toolset loads
//! the configuration itself.

use clap::{ArgMatches, Command};

use super::secret::Secret;
use super::settings::Flag;
use super::{BoardName, Enabled};

/// A subcommand of `planning-mcp-server` that a toolset brings.
#[derive(Debug, Clone, Copy)]
pub struct CliCommand {
    /// Its name on the command line, e.g. `summary`: no other toolset's
    /// (a test over the registry checks).
    pub name: &'static str,
    /// Its parser: adds what `--help` says of it and its own arguments to
    /// `command` (named [`Self::name`]); the configuration's flags are the
    /// binary's to add ([`Run::Configured`]).
    pub(crate) define: fn(command: Command) -> Command,
    /// How it runs.
    pub(crate) run: Run,
}

/// How a subcommand runs on the arguments its parser read: each answers the
/// text to print on standard output, or what went wrong (printed on
/// standard error after the program's name; exit status 1).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Run {
    /// It reads no configuration (`setup`, `doctor`).
    Alone(fn(&ArgMatches) -> Result<String, String>),
    /// It reads the configuration's keys `reads` (`table.key`; `table.`
    /// stands for every key of the table), and so takes `--config` and the
    /// flags that set them; `flag_help` is what its `--help` says of each
    /// ([`own_help`]: the flag's own).
    Configured {
        /// The keys it reads.
        reads: &'static [&'static str],
        /// Its help of a flag.
        flag_help: fn(&Flag) -> &str,
        /// The run, handed the configuration to load when it needs it.
        run: fn(&ArgMatches, &Configuration<'_>) -> Result<String, String>,
    },
}

/// A flag's own help ([`Run::Configured`]'s `flag_help` when the subcommand
/// says nothing else of it).
pub(crate) fn own_help(flag: &Flag) -> &str {
    flag.help
}

/// The configuration a subcommand's flags, the config file and the
/// environment give, loaded when the subcommand asks: a hook that must not
/// fail (`check-touches` without `--strict`) decides itself what a bad file
/// means.
pub(crate) struct Configuration<'a> {
    load: &'a dyn Fn() -> Result<Configured, String>,
}

impl<'a> Configuration<'a> {
    /// The configuration `load` reads (the binary's loader).
    pub(crate) fn new(load: &'a dyn Fn() -> Result<Configured, String>) -> Self {
        Self { load }
    }

    /// Reads and checks it: what it configures, or every wrong value.
    pub(crate) fn load(&self) -> Result<Configured, String> {
        (self.load)()
    }
}

/// What a subcommand reads of the configuration.
#[derive(Debug)]
pub(crate) struct Configured {
    /// `[server] board`: the board it works on.
    pub(crate) board: BoardName,
    /// `[server] auth_token`: what it shows a server it asks (`--url`).
    pub(crate) auth_token: Option<Secret>,
    /// The toolsets, configured from their tables (each subcommand finds
    /// the state of the toolset whose boards it reads).
    pub(crate) toolsets: Enabled,
}
