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
/// standard error after the program's name; exit status 1, or the one a
/// [`Failure`] names).
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
        run: fn(&ArgMatches, &Configuration<'_>) -> Result<String, Failure>,
    },
}

/// Why a subcommand did not do what it was asked: the sentence for
/// standard error and the exit status, so that a script can tell kinds of
/// failure apart (`board`'s, docs/review.md). A bare sentence exits 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Failure {
    /// What went wrong, for a person.
    pub(crate) message: String,
    /// The exit status: 1, or another the subcommand documents (never 0,
    /// and never 2, clap's for a wrong command line).
    pub(crate) code: u8,
}

impl Failure {
    /// The exit status it asks for.
    pub fn code(&self) -> u8 {
        self.code
    }

    /// A failure that exits with `code`.
    pub(crate) fn with_code(code: u8, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code,
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Self::with_code(1, message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Self::with_code(1, message)
    }
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
