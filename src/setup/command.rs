// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server setup AGENT`: its arguments, and its run: decide
//! what to write ([`super::plan`]), compute every file's edit first (a
//! file that does not parse stops it before anything is written), then
//! show the diff (`--dry-run`) or write the files, each atomically; if a
//! later file cannot be written, the earlier ones are put back.

use std::fmt::Write as _;

use clap::builder::PossibleValuesParser;
use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::agent::{Agent, ConfigFile, PROGRAM, Places, Scope};
use super::apply::{self, Edit};
use super::plan::{DEFAULT_NAME, Request, Storage, plan};
use super::{diff, files, lock, program};
use crate::server::command::{CliCommand, Run};
use crate::toolsets::REGISTRY;

/// The subcommand.
pub(crate) const SETUP: CliCommand = CliCommand {
    name: "setup",
    define,
    run: Run::Alone(run),
};

/// What `planning-mcp-server --help` says of it.
const ABOUT: &str = "Add this server (and, with toolset team, Claude Code's digest hooks; with \
--statusline, its status line) to a coding agent's config files, keeping everything else in \
them; --remove takes it out again";

/// The agents' names, for the parser.
const AGENTS: [&str; 6] = [
    "claude-code",
    "codex",
    "cursor",
    "vscode",
    "gemini",
    "claude-desktop",
];

// Its arguments. (Not a doc comment: clap would make it the about.)
#[derive(Debug, Args)]
struct SetupArgs {
    /// The agent whose config to write
    #[arg(value_name = "AGENT", value_parser = PossibleValuesParser::new(AGENTS))]
    agent: String,
    /// The toolsets the agent's server offers, e.g. planning,team [default: planning]
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    toolsets: Option<Vec<String>>,
    /// Where the server keeps its boards (team's hooks need file) [default: memory, or file with team]
    #[arg(long, value_name = "BACKEND", value_parser = PossibleValuesParser::new(["file", "memory"]))]
    storage: Option<String>,
    /// Connect to the HTTP server at this URL (e.g. http://localhost:8080/mcp) instead of starting one
    #[arg(long, value_name = "URL")]
    http: Option<String>,
    /// The project's files (the working directory) or the user's [default: project; claude-desktop: user]
    #[arg(long, value_name = "SCOPE", value_parser = PossibleValuesParser::new(["project", "user"]))]
    scope: Option<String>,
    /// The server's name in the agent's config
    #[arg(long, value_name = "NAME", default_value = DEFAULT_NAME)]
    name: String,
    /// Print the diff of every file instead of writing it
    #[arg(long)]
    dry_run: bool,
    /// Claude Code: show the board in its status line (statusLine runs `statusline`)
    #[arg(long)]
    statusline: bool,
    /// Take out what setup wrote (the server, its hooks and status line), nothing else
    #[arg(long, conflicts_with_all = ["toolsets", "storage", "http", "statusline"])]
    remove: bool,
}

/// `setup`'s help and arguments.
fn define(command: Command) -> Command {
    SetupArgs::augment_args(command.about(ABOUT))
}

/// `--scope` as given.
pub(crate) fn parse_scope(scope: Option<&str>) -> Option<Scope> {
    match scope {
        Some("user") => Some(Scope::User),
        Some("project") => Some(Scope::Project),
        _ => None,
    }
}

/// Writes (or shows) the agent's config.
fn run(matches: &ArgMatches) -> Result<String, String> {
    let args = SetupArgs::from_arg_matches(matches).map_err(|e| e.to_string())?;
    let agent = Agent::parse(&args.agent).ok_or("unknown agent")?;
    check_name(&args.name)?;
    let places = Places::from_env()?;
    let request = Request {
        agent,
        toolsets: args.toolsets.clone(),
        storage: match args.storage.as_deref() {
            Some("file") => Some(Storage::File),
            Some(_) => Some(Storage::Memory),
            None => None,
        },
        http: args.http.clone(),
        scope: parse_scope(args.scope.as_deref()),
        statusline: args.statusline,
    };
    let scope = request.scope.unwrap_or(agent.default_scope());
    let program = program::for_scope(scope)?;
    let home = places.home.as_ref().and_then(|h| h.to_str());
    let plan = plan(&request, REGISTRY, &program.command, home)?;
    let (launch, hook) = match args.remove {
        true => (None, None),
        false => (Some(&plan.launch), plan.hook.as_deref()),
    };
    let no_home = || {
        format!(
            "HOME is not set, so {}'s {} files cannot be found",
            agent.title(),
            scope.name()
        )
    };
    // Overlapping runs take turns: each reads the files after the last
    // one wrote them.
    let (anchor, shown) = match scope {
        Scope::Project => (Some(&places.project), "the project directory"),
        Scope::User => (places.home.as_ref(), "the home directory"),
    };
    let _lock = lock::hold(anchor.ok_or_else(no_home)?, shown)?;
    let servers_file = agent.servers_file(scope, &places).ok_or_else(no_home)?;
    let mut edits: Vec<(ConfigFile, Edit)> = Vec::new();
    let before = files::read(&servers_file.path, &servers_file.shown)?;
    let edit = apply::servers(agent, &servers_file, before.as_deref(), &args.name, launch)?;
    edits.push((servers_file, edit));
    if agent.has_hooks() {
        let hooks_file = agent.hooks_file(scope, &places).ok_or_else(no_home)?;
        let before = files::read(&hooks_file.path, &hooks_file.shown)?;
        let mut edit = apply::hooks(&hooks_file, before.as_deref(), hook)?;
        // The status line is in the same file: its edit starts from the
        // hooks'. Without --statusline (or --remove) it is left as it is.
        let line = match args.remove {
            true => Some(None),
            false => plan.statusline.as_deref().map(Some),
        };
        if let Some(line) = line {
            let more = apply::statusline(&hooks_file, edit.after.as_deref(), line)?;
            // --remove says so only of a status line it took out.
            let quiet = line.is_none() && more.before == more.after;
            if !quiet {
                edit = Edit {
                    after: more.after,
                    what: format!("{}; {}", edit.what, more.what),
                    ..edit
                };
            }
        }
        edits.push((hooks_file, edit));
    }
    let mut out = format!("{}, {} scope:\n", agent.title(), scope.name());
    for (file, edit) in &edits {
        let gone = edit.before.is_some() && edit.after.is_none();
        let made = edit.before.is_none() && edit.after.is_some();
        let _ = writeln!(
            out,
            "  {}: {}{}",
            file.shown,
            edit.what,
            match (gone, made) {
                (true, _) => " (the file is deleted: it held nothing else)",
                (_, true) => " (a new file)",
                _ => "",
            }
        );
    }
    if !args.remove {
        for note in plan.notes.iter().chain([&program.note]) {
            let _ = writeln!(out, "  {note}");
        }
    }
    if args.dry_run {
        out.push_str("Nothing was written (--dry-run). The changes:\n");
        for (file, edit) in &edits {
            out.push_str(&diff::unified(
                &file.shown,
                edit.before.as_deref(),
                edit.after.as_deref(),
            ));
        }
        return Ok(out);
    }
    write_all(&edits, &places)?;
    if !args.remove {
        let _ = writeln!(out, "Check it: {PROGRAM} doctor {}", agent.name());
    }
    Ok(out)
}

/// Writes the edits that change something, in order; if one fails, puts
/// back the files written before it.
fn write_all(edits: &[(ConfigFile, Edit)], places: &Places) -> Result<(), String> {
    let keep: Vec<&std::path::Path> = [Some(places.project.as_path()), places.home.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let apply = |file: &ConfigFile, from: Option<&str>, to: Option<&str>| match (from, to) {
        (from, Some(to)) => files::write(&file.path, &file.shown, from, to),
        (Some(from), None) => files::delete(&file.path, &file.shown, from, &keep),
        (None, None) => Ok(()),
    };
    for (n, (file, edit)) in edits.iter().enumerate() {
        if edit.before == edit.after {
            continue;
        }
        if let Err(error) = apply(file, edit.before.as_deref(), edit.after.as_deref()) {
            let mut undone = String::new();
            for (file, edit) in edits[..n].iter().rev().filter(|(_, e)| e.before != e.after) {
                if let Err(e) = apply(file, edit.after.as_deref(), edit.before.as_deref()) {
                    let _ = write!(undone, "; and {} could not be put back: {e}", file.shown);
                }
            }
            return Err(format!("{error}{undone}"));
        }
    }
    Ok(())
}

/// A server name an agent's JSON and TOML both take as a plain key.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let fine = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    match fine {
        true => Ok(()),
        false => Err(format!(
            "--name '{}': a server name is 1 to 64 letters, digits, '-' and '_'",
            crate::runtime::text::clip(name)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<ArgMatches, clap::Error> {
        define(Command::new(SETUP.name))
            .no_binary_name(true)
            .try_get_matches_from(args)
    }

    #[test]
    fn its_arguments() {
        let matches = parse(&["claude-code", "--toolsets", "planning,team", "--dry-run"]).unwrap();
        let args = SetupArgs::from_arg_matches(&matches).unwrap();
        assert_eq!(args.toolsets.unwrap(), ["planning", "team"]);
        assert_eq!(args.name, "planning");
        assert!(args.dry_run);
        assert_eq!(
            parse(&["claude"]).unwrap_err().kind(),
            clap::error::ErrorKind::InvalidValue
        );
        assert_eq!(
            parse(&["codex", "--remove", "--storage", "file"])
                .unwrap_err()
                .kind(),
            clap::error::ErrorKind::ArgumentConflict
        );
        assert_eq!(AGENTS, Agent::ALL.map(Agent::name));
    }

    #[test]
    fn names_are_plain_keys() {
        assert!(check_name("planning-2").is_ok());
        for bad in ["", "a.b", "a b", "ü", &"x".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
