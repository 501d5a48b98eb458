// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The subcommands' configuration: a subcommand that reads keys
//! ([`Run::Configured`]) takes `--config` and the flags of those keys, and
//! is handed the configuration they, the file and the environment give.
//! Here, rather than in the toolsets, because loading is the
//! configuration's: the arrow runs from `config` to the toolsets.

use clap::{ArgMatches, Command};

use super::flags::{ConfigFlags, taken};
use crate::server::command::{CliCommand, Configuration, Configured, Failure, Run};

/// `command`'s parser: its own arguments, and for one that reads keys,
/// `--config` and the flags that set them.
pub fn define(command: &CliCommand) -> Command {
    let named = Command::new(command.name);
    // The configuration's flags first: `--help` lists them before the
    // subcommand's own, as it always has.
    let configured = match command.run {
        Run::Alone(_) => named,
        Run::Configured {
            reads, flag_help, ..
        } => ConfigFlags::augment(named, &taken(reads), flag_help),
    };
    (command.define)(configured)
}

/// Runs `command` on the arguments `matches` ([`define`]'s): the text to
/// print, or what went wrong.
pub fn run(command: &CliCommand, matches: &ArgMatches) -> Result<String, Failure> {
    match command.run {
        Run::Alone(run) => run(matches).map_err(Failure::from),
        Run::Configured { reads, run, .. } => {
            let flags = ConfigFlags::read(matches, &taken(reads));
            let load = || {
                let loaded = super::load(&flags).map_err(|error| error.to_string())?;
                let config = loaded.config;
                Ok(Configured {
                    board: config.server.board,
                    auth_token: config.server.auth_token,
                    toolsets: config.toolsets,
                })
            };
            run(matches, &Configuration::new(&load))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key a subcommand reads by name has a flag (a whole table may
    /// have none: `sync.` is read from the file and the environment only),
    /// and `summary` takes exactly the board's and the storage's.
    #[test]
    fn each_subcommand_takes_a_flag_for_every_key_it_reads() {
        for command in crate::api::subcommands::commands() {
            let Run::Configured { reads, .. } = command.run else {
                continue;
            };
            let taken = taken(reads);
            for key in reads.iter().filter(|key| !key.ends_with('.')) {
                let covered = taken.iter().any(|flag| flag.key == *key);
                assert!(covered, "{}: no flag sets {key}", command.name);
            }
            if command.name == "summary" {
                let longs: Vec<&str> = taken.iter().map(|flag| flag.long).collect();
                assert_eq!(longs, ["board", "storage", "storage-dir", "storage-url"]);
            }
        }
    }
}
