// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server check-touches`, toolset `team`'s subcommand for a
//! git pre-commit hook: its arguments (`--url`, `--agent`, `--strict`; the
//! binary adds `--config` and the flags of the keys it reads) and its run: read the board's
//! live reservations (stored, or from a running server), list the staged
//! files (in a jj workspace, the working-copy change's), report those inside another agent's reservation. Without
//! `--strict` it exits with 0 whatever happens (a board or server it cannot
//! read is a warning on standard error), so that a warn-only hook never
//! blocks a commit; with `--strict` a conflict, or anything it cannot check,
//! exits with 1.

use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::check_touches::{check, report, staged};
use super::{BOARD_KEYS, fetch, stored_board};
use crate::runtime::clock::Clock;
use crate::server::command::{CliCommand, Configuration, Failure, Run};
use crate::server::settings::Flag;
use crate::toolsets::team::domain::View;
use crate::toolsets::team::domain::text;
use crate::toolsets::team::reserved::{self, Reservations};

/// The subcommand, for the registry entry's `commands`.
pub(crate) const CHECK_TOUCHES: CliCommand = CliCommand {
    name: "check-touches",
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
        "server.board" => "Board whose reservations to check",
        _ => flag.help,
    }
}

/// What `planning-mcp-server --help` says of it.
const ABOUT: &str = "Report the staged files (git diff --cached; in a jj workspace without \
git, the files of the working-copy change) that fall inside another agent's live reservation: the touches of a task it holds or is dispatched, e.g. for a git \
pre-commit hook. Without --strict it exits 0 whatever happens (what it cannot read is a \
warning on stderr); with --strict a conflict, or a board or server it cannot read, exits 1";

/// The environment variable that names the agent when `--agent` is not
/// given: one hooks folder serves every worktree of a repository, so the
/// name comes from each worktree's environment rather than the hook.
pub(crate) const AGENT_VARIABLE: &str = "PLANNING_AGENT";

// Its arguments. (Not a doc comment: clap would make it the subcommand's
// about.)
#[derive(Debug, Args)]
struct CheckArgs {
    /// Your agent name: your own reservations are no conflict. Without
    /// --agent, the environment variable PLANNING_AGENT (e.g. set per
    /// worktree, for the one hooks folder all worktrees share)
    #[arg(long, value_name = "NAME", env = AGENT_VARIABLE)]
    agent: Option<String>,
    /// Exit with status 1 when a staged file falls inside another agent's
    /// reservation, or when the board or server cannot be read (without
    /// it: report or warn, exit 0)
    #[arg(long)]
    strict: bool,
    /// Ask the HTTP server at this URL (e.g. http://localhost:8080) instead
    /// of reading the stored board, waiting 5 s at most; its token comes from
    /// server.auth_token (PLANNING_SERVER_AUTH_TOKEN)
    #[arg(long, value_name = "URL")]
    url: Option<String>,
}

/// `check-touches`'s help and arguments.
fn define(command: Command) -> Command {
    CheckArgs::augment_args(command.about(ABOUT))
}

/// Checks the staged files against the configured board (`--board`).
/// Without `--strict`, what cannot be checked is a warning and exit 0.
fn run(matches: &ArgMatches, configuration: &Configuration<'_>) -> Result<String, Failure> {
    let args = CheckArgs::from_arg_matches(matches).map_err(|error| error.to_string())?;
    match (checked(&args, configuration), args.strict) {
        (Ok((text, true)), true) => {
            Err(format!("{text}\n(--strict: the commit is refused)").into())
        }
        (Ok((text, _)), _) => Ok(format!("{text}\n")),
        (Err(error), true) => Err(format!("{error}\n(--strict: the commit is refused)").into()),
        (Err(error), false) => {
            crate::runtime::output::eprint(&warning(&error));
            Ok(String::new())
        }
    }
}

/// The warning of a check that could not be made without `--strict`.
fn warning(error: &str) -> String {
    format!(
        "planning-mcp-server check-touches: warning: the staged files were not checked: \
         {error}\n(the commit goes through; with --strict it would be refused)\n"
    )
}

/// The report, and whether it found a staged file in another agent's
/// reservation; or why the check could not be made.
fn checked(args: &CheckArgs, configuration: &Configuration<'_>) -> Result<(String, bool), String> {
    if let Some(agent) = &args.agent {
        text::agent(agent).map_err(|error| error.to_string())?;
    }
    let config = configuration.load()?;
    let name = &config.board;
    let mut note = None;
    let reservations = match &args.url {
        Some(url) => {
            let token = config.auth_token.as_ref().map(|t| t.expose());
            let json = fetch::reservations(url, name, token)?;
            serde_json::from_str::<Reservations>(&json).map_err(|error| {
                format!("{url} answered reservations that do not parse: {error}")
            })?
        }
        None => {
            let stored = stored_board(&config.toolsets, name, "check-touches")?;
            let clock = Clock::from_env()?;
            note = stored.note();
            reserved::of(View::new(&stored.board, clock.now()))
        }
    };
    let dir = std::env::current_dir().map_err(|error| format!("no working directory: {error}"))?;
    let files = staged(&dir)?;
    let hits = check(&files, &reservations.reservations, args.agent.as_deref());
    let mut text = report(&hits, files.len(), reservations.reservations.len());
    if let Some(note) = note {
        text = format!("{text}\n{note}");
    }
    Ok((text, !hits.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::subcommand;

    fn parse(args: &[&str]) -> Result<ArgMatches, clap::Error> {
        subcommand::define(&CHECK_TOUCHES)
            .no_binary_name(true)
            .try_get_matches_from(args)
    }

    #[test]
    fn it_takes_its_own_flags() {
        let matches = parse(&["--agent", "w1", "--strict", "--board", "b"]).unwrap();
        let args = CheckArgs::from_arg_matches(&matches).unwrap();
        assert_eq!((args.agent.as_deref(), args.strict), (Some("w1"), true));
        for other in [["--port", "1"], ["--toolsets", "team"]] {
            let error = parse(&other).unwrap_err();
            assert_eq!(error.kind(), clap::error::ErrorKind::UnknownArgument);
        }
    }

    #[test]
    fn a_bad_agent_name_is_refused_before_anything_is_read() {
        let matches = parse(&["--agent", "w\u{202e}1", "--strict"]).unwrap();
        assert_eq!(
            subcommand::run(&CHECK_TOUCHES, &matches)
                .unwrap_err()
                .message,
            "The agent name must not hold invisible or direction-changing characters (it holds \
             U+202E).\n(--strict: the commit is refused)"
        );
        // Without --strict, the same is a warning: the hook never blocks.
        let matches = parse(&["--agent", "w\u{202e}1"]).unwrap();
        assert_eq!(subcommand::run(&CHECK_TOUCHES, &matches).unwrap(), "");
        let args = CheckArgs::from_arg_matches(&matches).unwrap();
        let unread = || Err("the configuration is not read before the name is checked".to_owned());
        let error = checked(&args, &Configuration::new(&unread)).unwrap_err();
        insta::assert_snapshot!(warning(&error), @r"
        planning-mcp-server check-touches: warning: the staged files were not checked: The agent name must not hold invisible or direction-changing characters (it holds U+202E).
        (the commit goes through; with --strict it would be refused)
        ");
    }

    #[test]
    fn its_help_names_the_agent_variable() {
        let help = subcommand::define(&CHECK_TOUCHES)
            .render_long_help()
            .to_string();
        assert!(help.contains("[env: PLANNING_AGENT"), "{help}");
        assert!(help.contains("exits 0 whatever happens"), "{help}");
    }
}
