// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server export [--board NAME] [--output FILE [--force]]`:
//! prints a board of the database as its snapshot, byte for byte, or
//! writes it to a file (a file backend's `{name}.json`).

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::{MOVE_KEYS, database_board, flag_help};
use crate::runtime::whole_file::{Step, Write};
use crate::server::command::{CliCommand, Configuration, Failure, Run};

/// The subcommand, for the registry entry's `commands`.
pub(crate) const EXPORT: CliCommand = CliCommand {
    name: "export",
    define,
    run: Run::Configured {
        reads: MOVE_KEYS,
        flag_help,
        run,
    },
};

const ABOUT: &str = "Print board --board of the postgres backend's database as a snapshot, \
byte for byte (the file backend's format), or write it to --output (e.g. \
.planning-mcp-server/default.json, to move the board back to the file backend)";

// Its arguments. (Not a doc comment: clap would make it the subcommand's about.)
#[derive(Debug, Args)]
struct ExportArgs {
    /// Write the snapshot to this file instead of standard output (never
    /// over an existing file, unless --force)
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// With --output: replace the file if it exists
    #[arg(long, requires = "output")]
    force: bool,
}

fn define(command: Command) -> Command {
    ExportArgs::augment_args(command.about(ABOUT))
}

fn run(matches: &ArgMatches, configuration: &Configuration<'_>) -> Result<String, Failure> {
    let args = ExportArgs::from_arg_matches(matches).map_err(|error| error.to_string())?;
    let (name, store) = database_board(configuration)?;
    let Some((revision, snapshot)) = store.export().map_err(|error| error.to_string())? else {
        return Err(format!("board {name} is not in {}", store.database()).into());
    };
    let Some(path) = args.output else {
        return Ok(snapshot);
    };
    write_new(&path, snapshot.as_bytes(), args.force)?;
    Ok(format!(
        "exported board {name} (revision {revision}) from {} to {}\n",
        store.database(),
        path.display()
    ))
}

/// Writes `bytes` to `path` whole (a server reading the file sees the old
/// or the new snapshot, never half of one). An existing file is replaced
/// only when `force`, and never one made meanwhile.
fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
    let exists = || {
        format!(
            "cannot write {}: it exists (pass --force to replace it)",
            path.display()
        )
    };
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(exists());
    }
    let write = match force {
        true => Write::new(),
        false => Write::new().new_only(),
    };
    match write.to(path, bytes) {
        Ok(()) => Ok(()),
        Err(error) if error.step == Step::Land && error.kind() == ErrorKind::AlreadyExists => {
            Err(exists())
        }
        Err(error) => Err(error.to_string()),
    }
}
