// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server sync`, toolset `planning`'s subcommand: its
//! arguments (`--config`, the flags of the keys it reads, `--remote`,
//! `--board`) and its run: load the configuration, sync, print the report.

use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::{SYNC_KEYS, report, sync};
use crate::server::BoardName;
use crate::server::command::{CliCommand, Configuration, Failure, Run, own_help};
use crate::toolsets::planning::Planning;

/// The subcommand, for the registry entry's `commands`.
pub(crate) const SYNC: CliCommand = CliCommand {
    name: "sync",
    define,
    run: Run::Configured {
        reads: SYNC_KEYS,
        flag_help: own_help,
        run,
    },
};

/// What `planning-mcp-server --help` says of it.
const ABOUT: &str = "Sync the boards kept in git (storage.backend = 'git') with the \
repository's remote: fetch refs/planning/boards/*, merge (never a conflict), push; a push \
another clone beat is fetched, merged and retried";

// Its arguments. (Not a doc comment: clap would make it the subcommand's
// about.)
#[derive(Debug, Args)]
struct SyncArgs {
    /// The remote to sync with (default: sync.remote, 'origin')
    #[arg(long, value_name = "NAME")]
    remote: Option<String>,
    /// Only this board (default: every board of this clone and of the remote)
    #[arg(long, value_name = "NAME")]
    board: Option<String>,
}

/// `sync`'s help and arguments.
fn define(command: Command) -> Command {
    SyncArgs::augment_args(command.about(ABOUT))
}

/// Syncs and prints the report; an error when any board did not sync.
fn run(matches: &ArgMatches, configuration: &Configuration<'_>) -> Result<String, Failure> {
    let args = SyncArgs::from_arg_matches(matches).map_err(|error| error.to_string())?;
    let board = match args.board.as_deref() {
        Some(name) => Some(BoardName::parse(name).ok_or_else(|| {
            format!(
                "--board: '{}' is not a board name (it {})",
                crate::runtime::text::clip(name),
                BoardName::RULE
            )
        })?),
        None => None,
    };
    let config = configuration.load()?;
    let Some(planning) = config.toolsets.state::<Planning>() else {
        return Err("sync works on toolset planning's boards: enable it (server.toolsets)".into());
    };
    let settings = planning.boards().settings();
    let remote = args
        .remote
        .as_deref()
        .unwrap_or(&settings.sync.remote)
        .to_owned();
    let outcome = sync(settings, Some(&remote), board.as_ref())?;
    match report::render(&remote, &outcome) {
        (text, true) => Ok(text),
        (text, false) => Err(text.trim_end().into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<ArgMatches, clap::Error> {
        crate::config::subcommand::define(&SYNC)
            .no_binary_name(true)
            .try_get_matches_from(args)
    }

    #[test]
    fn it_takes_its_own_flags_and_refuses_the_servers() {
        let matches = parse(&["--remote", "up", "--board", "b", "--storage", "git"]).unwrap();
        let args = SyncArgs::from_arg_matches(&matches).unwrap();
        assert_eq!(args.remote.as_deref(), Some("up"));
        assert_eq!(args.board.as_deref(), Some("b"));
        for other in [["--port", "1"], ["--toolsets", "team"], ["--url", "x"]] {
            let error = parse(&other).unwrap_err();
            assert_eq!(error.kind(), clap::error::ErrorKind::UnknownArgument);
        }
    }

    #[test]
    fn a_bad_board_name_is_refused_before_anything_runs() {
        let matches = parse(&["--board", "Not A Name", "--config", "/nonexistent"]).unwrap();
        let error = crate::config::subcommand::run(&SYNC, &matches)
            .unwrap_err()
            .message;
        assert!(
            error.starts_with("--board: 'Not A Name' is not a board name"),
            "{error}"
        );
    }
}
