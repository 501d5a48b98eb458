// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server summary`, toolset `team`'s subcommand: its
//! arguments (`--url`; the binary adds `--config` and the flags of the
//! keys it reads) and its run: print the digest.

use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::{BOARD_KEYS, Source, summary};
use crate::server::command::{CliCommand, Configuration, Failure, Run};
use crate::server::settings::Flag;

/// The subcommand, for the registry entry's `commands`.
pub(crate) const SUMMARY: CliCommand = CliCommand {
    name: "summary",
    define,
    run: Run::Configured {
        reads: BOARD_KEYS,
        flag_help,
        run,
    },
};

/// What its `--help` says of the flags of the keys it reads.
fn flag_help(flag: &Flag) -> &str {
    match flag.key {
        "server.board" => "Board to summarize",
        _ => flag.help,
    }
}

/// What `planning-mcp-server --help` says of it.
const ABOUT: &str = "Print the digest of a board (at most 1,500 characters: goal, counts, \
claimed tasks, the next ready tasks, what is blocked) from the stored board or a running HTTP \
server, e.g. for a SessionStart hook";

// Its arguments. (Not a doc comment: clap would make it the subcommand's
// about.)
#[derive(Debug, Args)]
struct SummaryArgs {
    /// Ask the HTTP server at this URL (e.g. http://localhost:8080) instead
    /// of reading the stored board, waiting 5 s at most; its token comes from
    /// server.auth_token (PLANNING_SERVER_AUTH_TOKEN)
    #[arg(long, value_name = "URL")]
    url: Option<String>,
}

/// `summary`'s help and arguments.
fn define(command: Command) -> Command {
    SummaryArgs::augment_args(command.about(ABOUT))
}

/// Prints the digest of the configured board (`--board`).
fn run(matches: &ArgMatches, configuration: &Configuration<'_>) -> Result<String, Failure> {
    let args = SummaryArgs::from_arg_matches(matches).map_err(|error| error.to_string())?;
    let config = configuration.load()?;
    let name = &config.board;
    let source = match &args.url {
        Some(url) => Source::Server {
            url,
            token: config.auth_token.as_ref().map(|t| t.expose()),
        },
        None => Source::Stored,
    };
    Ok(summary(&config.toolsets, name, source).map(|digest| format!("{digest}\n"))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::subcommand;

    fn parse(args: &[&str]) -> Result<ArgMatches, clap::Error> {
        subcommand::define(&SUMMARY)
            .no_binary_name(true)
            .try_get_matches_from(args)
    }

    #[test]
    fn it_takes_its_own_flags_and_refuses_the_servers() {
        let matches = parse(&["--board", "b", "--url", "http://x:1", "--storage", "file"]).unwrap();
        let args = SummaryArgs::from_arg_matches(&matches).unwrap();
        assert_eq!(args.url.as_deref(), Some("http://x:1"));
        for other in [
            ["--port", "1"],
            ["--plans-root", "x"],
            ["--toolsets", "team"],
        ] {
            let error = parse(&other).unwrap_err();
            assert_eq!(error.kind(), clap::error::ErrorKind::UnknownArgument);
        }
    }

    #[test]
    fn a_missing_config_file_is_an_error_before_any_board_is_read() {
        let matches = parse(&["--config", "/nonexistent/planning-mcp-server.toml"]).unwrap();
        let error = subcommand::run(&SUMMARY, &matches).unwrap_err().message;
        assert_eq!(
            error,
            "the config file /nonexistent/planning-mcp-server.toml (given by --config) does not exist"
        );
    }
}
