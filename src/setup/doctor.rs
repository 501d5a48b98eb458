// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server doctor [AGENT]`: checks what `setup` wrote, one
//! line per check, each failure with what to do. For every agent (or the
//! one named) and scope whose file holds the server: the entry is one
//! `setup` writes, its program is found (and is this binary), it answers
//! `initialize` and lists its tools (or the HTTP URL answers
//! `initialize`), its board directory can be written, and each hook of
//! `setup` exits 0 and prints the digest. Exit status 1 when a check fails.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::builder::PossibleValuesParser;
use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::agent::{Agent, ConfigFile, Format, Launch, PROGRAM, Places, Scope};
use super::apply::{HOOK_EVENTS, is_our_hook};
use super::command::check_name;
use super::json::Document;
use super::plan::DEFAULT_NAME;
use super::toml_file::TomlDocument;
use super::{files, probe, program};
use crate::server::command::CliCommand;

/// The subcommand.
pub(crate) const DOCTOR: CliCommand = CliCommand {
    name: "doctor",
    define,
    run,
};

const ABOUT: &str = "Check what setup wrote into the agents' config files: the server starts \
and speaks MCP (or its URL answers), its board directory is writable, the hooks print the digest";

// Its arguments. (Not a doc comment: clap would make it the about.)
#[derive(Debug, Args)]
struct DoctorArgs {
    /// Check only this agent's files [default: every agent's]
    #[arg(value_name = "AGENT", value_parser = PossibleValuesParser::new(Agent::ALL.map(Agent::name)))]
    agent: Option<String>,
    /// The server's name in the agents' config
    #[arg(long, value_name = "NAME", default_value = DEFAULT_NAME)]
    name: String,
}

fn define(command: Command) -> Command {
    DoctorArgs::augment_args(command.about(ABOUT))
}

/// The report, one line per check.
#[derive(Debug, Default)]
struct Report {
    text: String,
    checks: usize,
    failed: usize,
}

impl Report {
    fn ok(&mut self, what: &str) {
        self.checks += 1;
        let _ = writeln!(self.text, "  ok    {what}");
    }

    fn warn(&mut self, what: &str) {
        let _ = writeln!(self.text, "  note  {what}");
    }

    fn fail(&mut self, what: &str, fix: &str) {
        self.checks += 1;
        self.failed += 1;
        let _ = writeln!(self.text, "  FAIL  {what}\n        fix: {fix}");
    }
}

fn run(matches: &ArgMatches) -> Result<String, String> {
    let args = DoctorArgs::from_arg_matches(matches).map_err(|e| e.to_string())?;
    check_name(&args.name)?;
    let places = Places::from_env()?;
    let agents: Vec<Agent> = match args.agent.as_deref().and_then(Agent::parse) {
        Some(agent) => vec![agent],
        None => Agent::ALL.to_vec(),
    };
    let mut report = Report::default();
    let mut looked = Vec::new();
    for agent in &agents {
        for scope in [Scope::Project, Scope::User] {
            let Some(file) = agent.servers_file(scope, &places) else {
                continue;
            };
            looked.push(file.shown.clone());
            check(*agent, scope, &file, &args.name, &places, &mut report);
        }
    }
    if report.checks == 0 {
        return Err(format!(
            "no server '{}' set up here (looked in {}): run `{PROGRAM} setup AGENT` first",
            args.name,
            looked.join(", ")
        ));
    }
    let _ = write!(
        report.text,
        "{} checks, {} failed",
        report.checks, report.failed
    );
    match report.failed {
        0 => Ok(format!("{}\n", report.text)),
        _ => Err(report.text),
    }
}

/// Checks server `name` in `file`, and its hooks, if the file holds it.
fn check(
    agent: Agent,
    scope: Scope,
    file: &ConfigFile,
    name: &str,
    places: &Places,
    report: &mut Report,
) {
    let head = format!(
        "{}, {} scope ({}):",
        agent.title(),
        scope.name(),
        file.shown
    );
    let entry = match server_entry(agent, file, name) {
        Ok(Some(entry)) => entry,
        Ok(None) => return,
        Err(why) => {
            let _ = writeln!(report.text, "{head}");
            let fix = "fix the file (or move it away), then run setup again";
            report.fail(&why, fix);
            return;
        }
    };
    let _ = writeln!(report.text, "{head}");
    let setup = format!("{PROGRAM} setup {}", agent.name());
    let Some(launch) = Launch::of_entry(&entry) else {
        report.fail(
            &format!("server '{name}' is not one setup writes: {entry}"),
            &format!("remove it there, or give setup another --name; then run {setup}"),
        );
        return;
    };
    report.ok(&format!("server '{name}' {}", launch.describe()));
    // The directory the agent starts the server in: the project for a
    // project's file; for a user's file, whichever project is open (this
    // one is as good as any).
    let dir = places.project.clone();
    let mut team = false;
    match &launch {
        Launch::Stdio { command, args } => {
            team = args.windows(2).any(|w| w[0] == "--toolsets" && w[1].split(',').any(|t| t == "team"));
            check_program(command, scope, &setup, report);
            match probe::stdio_server(command, args, &dir) {
                Ok(tools) => report.ok(&format!("it answers initialize and lists {tools} tools")),
                Err(why) => report.fail(
                    &format!("it does not speak MCP: {why}"),
                    "run the command yourself in the project to see why",
                ),
            }
            if let Some(board) = board_dir(args) {
                match probe::writable(&dir.join(&board)) {
                    Ok(()) => report.ok(&format!("its board directory {board} is writable")),
                    Err(why) => report.fail(
                        &format!("its board directory {board} is not writable: {why}"),
                        "give the directory write permission, or run setup with another --storage",
                    ),
                }
            }
        }
        Launch::Http { url } => match probe::http_server(url) {
            Ok(server) => report.ok(&format!("{url} answers initialize ({server})")),
            Err(why) => report.fail(
                &format!("{url} does not answer initialize: {why}"),
                &format!("start the server ({PROGRAM} --mode http --storage file), or run setup with its URL"),
            ),
        },
    }
    if let Some(hooks_file) = agent.hooks_file(scope, places) {
        check_hooks(&hooks_file, &dir, team, &setup, report);
    }
}

/// The entry of server `name` in `file`, as data; `None` if the file or
/// the entry is not there.
fn server_entry(
    agent: Agent,
    file: &ConfigFile,
    name: &str,
) -> Result<Option<serde_json::Value>, String> {
    let Some(text) = files::read(&file.path, &file.shown)? else {
        return Ok(None);
    };
    let key = agent.servers_key();
    match file.format {
        Format::Toml => {
            let doc = TomlDocument::parse(&text)
                .map_err(|e| format!("{} cannot be read ({e})", file.shown))?;
            Ok(doc.server(name))
        }
        Format::Json | Format::Jsonc => {
            let doc = Document::parse(&text, file.format == Format::Jsonc)
                .map_err(|e| format!("{} cannot be read ({e})", file.shown))?;
            Ok(doc
                .get(&[key, name])
                .map(|node| doc.data(node).unwrap_or(serde_json::Value::Null)))
        }
    }
}

/// Whether `command` is found, and is this binary.
fn check_program(command: &str, scope: Scope, setup: &str, report: &mut Report) {
    let found = match Path::new(command).is_absolute() {
        true => Some(PathBuf::from(command)).filter(|p| p.is_file()),
        false => program::find_on_path(command, std::env::var_os("PATH").as_deref()),
    };
    let Some(found) = found else {
        let fix = match scope {
            Scope::Project => format!("put {PROGRAM} on PATH (cargo install --path .)"),
            Scope::User => format!("run {setup} --scope user again from the binary you use"),
        };
        report.fail(&format!("{command} is not found"), &fix);
        return;
    };
    match program::this_binary() {
        Ok(this) if std::fs::canonicalize(&found).ok().as_ref() == Some(&this) => {
            report.ok(&format!("{command} is this binary ({})", this.display()));
        }
        Ok(this) => {
            report.ok(&format!("{command} is found: {}", found.display()));
            report.warn(&format!(
                "it is not this binary ({}): the agent starts another build",
                this.display()
            ));
        }
        Err(_) => report.ok(&format!("{command} is found: {}", found.display())),
    }
}

/// The board directory (as written, relative to where the agent starts
/// the server) of a server started with `args`, if it stores its boards in
/// files.
fn board_dir(args: &[String]) -> Option<String> {
    let value = |flag: &str| args.windows(2).find(|w| w[0] == flag).map(|w| w[1].clone());
    if value("--storage").as_deref() != Some("file") {
        return None;
    }
    Some(value("--storage-dir").unwrap_or_else(|| ".planning-mcp-server".into()))
}

/// Runs each hook of `setup` in `file`.
fn check_hooks(file: &ConfigFile, dir: &Path, team: bool, setup: &str, report: &mut Report) {
    let text = match files::read(&file.path, &file.shown) {
        Ok(text) => text,
        Err(why) => return report.fail(&why, "fix the file's permissions"),
    };
    let doc = match text.as_deref().map(|t| Document::parse(t, false)) {
        Some(Ok(doc)) => Some(doc),
        Some(Err(e)) => {
            return report.fail(
                &format!("{} cannot be read ({e})", file.shown),
                "fix the file (or move it away), then run setup again",
            );
        }
        None => None,
    };
    let mut found = 0;
    for (event, _) in HOOK_EVENTS {
        let Some(doc) = &doc else { break };
        let groups = doc
            .get(&["hooks", event])
            .and_then(|n| n.items())
            .unwrap_or(&[]);
        for group in groups
            .iter()
            .filter_map(|g| doc.data(&g.value))
            .filter(is_our_hook)
        {
            found += 1;
            let command = group["hooks"][0]["command"].as_str().unwrap_or("");
            match probe::hook(command, dir) {
                Ok(out) if out.trim().is_empty() => report.fail(
                    &format!("{event} hook `{command}` prints nothing"),
                    "run it yourself in the project to see why",
                ),
                Ok(out) => report.ok(&format!(
                    "{event} hook `{command}` exits 0 and prints the digest ({})",
                    out.lines().next().unwrap_or("").trim()
                )),
                Err(why) => report.fail(
                    &format!("{event} hook `{command}` fails: {why}"),
                    &format!("run {setup} again with your toolsets (it writes flags that fit the storage)"),
                ),
            }
        }
    }
    if team && found == 0 {
        report.warn(&format!(
            "toolset team is on, but no hook in {} prints the digest: run {setup} --toolsets planning,team",
            file.shown
        ));
    }
}
