// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server setup` and `doctor`: the server's own subcommands
//! (not a toolset's), which wire the server into the coding agents' config
//! files and check what they wrote (docs/setup.md).
//!
//! - [`agent`]: each agent's files, formats and entries;
//! - [`plan`]: what to write for the options given (pure);
//! - [`json`], [`toml_file`]: editors that change only their own bytes;
//! - [`apply`]: one agent's edits, computed from the files' texts;
//! - [`files`]: reading, atomic writing; [`diff`]: `--dry-run`'s diff;
//! - [`lock`]: one `setup` at a time per directory;
//! - [`program`]: the command written, checked against `PATH`;
//! - `command`: `setup`'s arguments and run; `doctor` and what it runs
//!   ([`probe`]), its fixes fitted to the entry checked ([`fix`]).

mod agent;
mod apply;
mod command;
mod diff;
mod doctor;
mod files;
mod fix;
mod json;
mod lock;
mod plan;
mod probe;
mod program;
mod toml_file;

use crate::server::command::CliCommand;

/// The server's own subcommands.
pub(crate) const COMMANDS: &[CliCommand] = &[command::SETUP, doctor::DOCTOR];
