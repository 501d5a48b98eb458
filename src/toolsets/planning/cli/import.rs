// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server import [--board NAME] [--replace] FILE`: stores a
//! snapshot file as a board of the database, byte for byte.

use std::path::PathBuf;

use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::{MOVE_KEYS, database_board, flag_help};
use crate::runtime::regular_file;
use crate::server::command::{CliCommand, Configuration, Failure, Run};
use crate::toolsets::planning::store::file::MAX_SNAPSHOT_BYTES;

/// The subcommand, for the registry entry's `commands`.
pub(crate) const IMPORT: CliCommand = CliCommand {
    name: "import",
    define,
    run: Run::Configured {
        reads: MOVE_KEYS,
        flag_help,
        run,
    },
};

const ABOUT: &str = "Load a board snapshot (a file backend's {name}.json) into the database of \
the postgres backend, byte for byte, as board --board; refused if the database holds that \
board already, unless --replace. Running servers see it at once";

// Its arguments. (Not a doc comment: clap would make it the subcommand's about.)
#[derive(Debug, Args)]
struct ImportArgs {
    /// Overwrite the board if the database holds it already
    #[arg(long)]
    replace: bool,
    /// The snapshot file, e.g. .planning-mcp-server/default.json
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

fn define(command: Command) -> Command {
    ImportArgs::augment_args(command.about(ABOUT))
}

fn run(matches: &ArgMatches, configuration: &Configuration<'_>) -> Result<String, Failure> {
    let args = ImportArgs::from_arg_matches(matches).map_err(|error| error.to_string())?;
    let shown = args.file.display();
    let bytes = regular_file::read(&args.file, MAX_SNAPSHOT_BYTES)
        .map_err(|refused| format!("cannot read {shown}: {refused}"))?;
    let snapshot = String::from_utf8(bytes)
        .map_err(|_| format!("{shown} is not a board snapshot: it is not UTF-8"))?;
    let (name, store) = database_board(configuration)?;
    let revision = store
        .import(snapshot, args.replace)
        .map_err(|error| error.to_string())?;
    Ok(format!(
        "imported {shown} as board {name} into {} (revision {revision})\n",
        store.database()
    ))
}
