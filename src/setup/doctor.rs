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
//!
//! The files may come with a cloned project, so doctor runs none of its
//! code: only this binary or the one `PATH` finds outside the project
//! ([`program::runnable`]), only hooks word for word as `setup` writes
//! them, and never through a shell. What it does not run is a failure
//! that says `not run` and why.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::builder::PossibleValuesParser;
use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::agent::{Agent, ConfigFile, Format, Launch, PROGRAM, Places, Scope, split_words};
use super::apply::HOOK_EVENTS;
use super::command::check_name;
use super::json::Document;
use super::plan::DEFAULT_NAME;
use super::program::{NotRunnable, Runnable};
use super::toml_file::TomlDocument;
use super::{files, fix, probe, program};
use crate::runtime::text::escaped;
use crate::server::command::{CliCommand, Run};

/// The subcommand.
pub(crate) const DOCTOR: CliCommand = CliCommand {
    name: "doctor",
    define,
    run: Run::Alone(run),
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
            let fix = fix::move_away(&file.path, &fix::setup_plain(agent, scope));
            report.fail(&why, &fix);
            return;
        }
    };
    let _ = writeln!(report.text, "{head}");
    let setup = format!("{PROGRAM} setup {}", agent.name());
    let Some(launch) = Launch::of_entry(&entry) else {
        // Its keys only: a value may hold a secret (a password, a token).
        let keys = match entry.as_object() {
            Some(object) => {
                let keys: Vec<String> =
                    object.keys().map(|k| format!("'{}'", escaped(k))).collect();
                format!("its keys are {}", keys.join(", "))
            }
            None => "it is not an object".to_owned(),
        };
        report.fail(
            &format!("server '{name}' is not one setup writes ({keys})"),
            &format!("remove it there, or give setup another --name; then run {setup}"),
        );
        return;
    };
    report.ok(&format!("server '{name}' {}", escaped(&launch.describe())));
    let hooks_file = agent.hooks_file(scope, places);
    // Toolset team is on when the entry's arguments say so, or (for an
    // HTTP entry, whose server's flags are not in the file) when the
    // agent's hooks read the digest: the fixes start and set up the same.
    let team = match &launch {
        Launch::Stdio { args, .. } => args
            .windows(2)
            .any(|w| w[0] == "--toolsets" && w[1].split(',').any(|t| t == "team")),
        Launch::Http { .. } => hooks_file.as_ref().is_some_and(has_digest_hook),
    };
    // `setup` again as it would write this very entry.
    let setup = fix::setup_again(agent, scope, &launch, team);
    // The directory the agent starts the server in: the project for a
    // project's file; for a user's file, whichever project is open (this
    // one is as good as any).
    let dir = places.project.clone();
    match &launch {
        Launch::Stdio { command, args } => {
            let shown = escaped(&launch.command_line()).into_owned();
            if let Some(program) = check_program(command, &shown, scope, &setup, places, report) {
                match probe::stdio_server(&program, args, &dir) {
                    Ok(tools) => {
                        report.ok(&format!("it answers initialize and lists {tools} tools"))
                    }
                    Err(why) => report.fail(
                        &format!("it does not speak MCP: {why}"),
                        "run the command yourself in the project to see why",
                    ),
                }
            }
            if let Some(board) = board_dir(args) {
                match probe::writable(&dir.join(&board)) {
                    Ok(()) => report.ok(&format!("its board directory {board} is writable")),
                    Err(refused) => report.fail(
                        &format!(
                            "its board directory {board} is not writable: {}",
                            refused.why
                        ),
                        &format!("{}; or run setup with another --storage", refused.fix),
                    ),
                }
            }
        }
        Launch::Http { url } => match probe::http_server(url) {
            Ok(server) => report.ok(&format!("{url} answers initialize ({server})")),
            Err(why) => {
                let elsewhere = format!(
                    "if it runs at another URL, run `{}`",
                    fix::setup_again(agent, scope, &Launch::Http { url: "URL".into() }, team)
                );
                let fix = match fix::start_http(url, team) {
                    Some(start) => format!("start the server: `{start}`; or, {elsewhere}"),
                    None => format!("start the server at {url}; or, {elsewhere}"),
                };
                report.fail(&format!("{url} does not answer initialize: {why}"), &fix);
            }
        },
    }
    if let Some(hooks_file) = hooks_file {
        check_hooks(&hooks_file, &dir, team, &setup, report);
        check_statusline(&hooks_file, &dir, report);
    }
}

/// Runs the `statusLine` of `file` if it runs this program: only the one
/// `setup --statusline` writes is run; there is nothing to say of a
/// status line that is not there or runs something else.
fn check_statusline(file: &ConfigFile, dir: &Path, report: &mut Report) {
    let Ok(Some(text)) = files::read(&file.path, &file.shown) else {
        return;
    };
    let Ok(doc) = Document::parse(&text, false) else {
        return; // check_hooks said so.
    };
    let command = doc
        .get(&["statusLine"])
        .and_then(|node| doc.data(node))
        .and_then(|line| line.get("command")?.as_str().map(str::to_owned));
    let Some(command) = command.filter(|c| c.contains(PROGRAM)) else {
        return;
    };
    let shown = escaped(&command).into_owned();
    let argv = match split_words(&command) {
        Ok(words)
            if words.len() == 4
                && Path::new(&words[0])
                    .file_name()
                    .is_some_and(|n| n == PROGRAM)
                && words[1..] == ["statusline", "--storage", "file"] =>
        {
            words
        }
        _ => {
            return report.fail(
                &format!("not run: statusLine `{shown}`"),
                &format!(
                    "setup writes only `{PROGRAM} statusline --storage file`; run {PROGRAM} setup \
                     claude-code --statusline, or remove it from {}",
                    file.shown
                ),
            );
        }
    };
    let this = program::this_binary().unwrap_or_default();
    let path = std::env::var_os("PATH");
    let program = match program::runnable(&argv[0], &this, dir, path.as_deref()) {
        Ok(program) => program,
        Err(NotRunnable::Missing) => {
            return report.fail(
                &format!(
                    "statusLine `{shown}` is not run: {} is not found",
                    escaped(&argv[0])
                ),
                &fix::put_on_path(&this, dir, path.as_deref()),
            );
        }
        Err(NotRunnable::Refused(why)) => {
            return report.fail(
                &format!("not run: statusLine `{shown}`: {why}"),
                "run setup again",
            );
        }
    };
    match probe::hook(program.path(), &argv[1..], dir) {
        Ok(out) if !out.trim().is_empty() => report.ok(&format!(
            "statusLine `{shown}` exits 0 and prints `{}`",
            out.lines().next().unwrap_or("").trim()
        )),
        Ok(_) => report.fail(
            &format!("statusLine `{shown}` prints nothing"),
            "run it yourself in the project to see why",
        ),
        Err(why) => report.fail(
            &format!("statusLine `{shown}` fails: {why}"),
            &format!("run {PROGRAM} setup claude-code --statusline again"),
        ),
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

/// Whether `command` is found and is a program doctor may start (this
/// binary, or the one `PATH` finds outside the project): the file to
/// start, or `None` when it is not run (the report says why). `shown` is
/// the entry's command line.
fn check_program(
    command: &str,
    shown: &str,
    scope: Scope,
    setup: &str,
    places: &Places,
    report: &mut Report,
) -> Option<PathBuf> {
    let this = program::this_binary().unwrap_or_default();
    let path = std::env::var_os("PATH");
    let runnable = program::runnable(command, &this, &places.project, path.as_deref());
    let command = escaped(command);
    match runnable {
        Ok(Runnable::This(this)) => {
            report.ok(&format!("{command} is this binary ({})", this.display()));
            Some(this)
        }
        Ok(Runnable::OnPath(found)) => {
            report.ok(&format!("{command} is found: {}", found.display()));
            report.warn(&format!(
                "it is not this binary ({}): the agent starts another build",
                this.display()
            ));
            Some(found)
        }
        Err(NotRunnable::Missing) => {
            let fix = match scope {
                Scope::Project => fix::put_on_path(&this, &places.project, path.as_deref()),
                // The entry names a path that is gone: this binary writes its own.
                Scope::User => format!("run `{}`", fix::by_path(&this, setup)),
            };
            report.fail(&format!("{command} is not found"), &fix);
            None
        }
        Err(NotRunnable::Refused(why)) => {
            report.fail(
                &format!("not run: the server's command `{shown}`: {why}"),
                &format!("if you did not put it there, remove the entry; then run {setup}"),
            );
            None
        }
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
        Err(why) => {
            let fix = format!(
                "give it read permission (`chmod u+r {}`)",
                super::agent::shell_word(&file.path.display().to_string())
            );
            return report.fail(&why, &fix);
        }
    };
    let doc = match text.as_deref().map(|t| Document::parse(t, false)) {
        Some(Ok(doc)) => Some(doc),
        Some(Err(e)) => {
            return report.fail(
                &format!("{} cannot be read ({e})", file.shown),
                &fix::move_away(&file.path, setup),
            );
        }
        None => None,
    };
    let mut found = 0;
    // Looked up once: every hook is checked against the same binary and PATH.
    let this = program::this_binary().unwrap_or_default();
    let path = std::env::var_os("PATH");
    for (event, _) in HOOK_EVENTS {
        let Some(doc) = &doc else { break };
        // A hook doctor will not run: said so, with how to be rid of it.
        let refuse = |report: &mut Report, shown: &str, why: &str| {
            report.fail(
                &format!("not run: {event} hook `{shown}`: {why}"),
                &format!(
                    "if you did not put it there, remove it from {}; then run {setup}",
                    file.shown
                ),
            );
        };
        let groups = doc
            .get(&["hooks", event])
            .and_then(|n| n.items())
            .unwrap_or(&[]);
        // Every command hook that names this program, setup's or not: one
        // setup does not write is said not to be run.
        let commands = groups
            .iter()
            .filter_map(|g| doc.data(&g.value))
            .flat_map(|group| match group.get("hooks") {
                Some(serde_json::Value::Array(hooks)) => hooks.clone(),
                _ => Vec::new(),
            })
            .filter_map(|hook| hook.get("command")?.as_str().map(str::to_owned))
            .filter(|command| command.contains(PROGRAM));
        for command in commands {
            found += 1;
            // As the file holds it, but on one line.
            let shown = escaped(&command).into_owned();
            let argv = match hook_words(&command) {
                Ok(argv) => argv,
                Err(why) => {
                    refuse(report, &shown, &why);
                    continue;
                }
            };
            let program = match program::runnable(&argv[0], &this, dir, path.as_deref()) {
                Ok(program) => program,
                Err(NotRunnable::Missing) => {
                    report.fail(
                        &format!(
                            "{event} hook `{shown}` is not run: {} is not found",
                            escaped(&argv[0])
                        ),
                        &fix::put_on_path(&this, dir, path.as_deref()),
                    );
                    continue;
                }
                Err(NotRunnable::Refused(why)) => {
                    refuse(report, &shown, &why);
                    continue;
                }
            };
            match probe::hook(program.path(), &argv[1..], dir) {
                Ok(out) if out.trim().is_empty() => report.fail(
                    &format!("{event} hook `{shown}` prints nothing"),
                    "run it yourself in the project to see why",
                ),
                Ok(out) => report.ok(&format!(
                    "{event} hook `{shown}` exits 0 and prints the digest ({})",
                    out.lines().next().unwrap_or("").trim()
                )),
                Err(why) => report.fail(
                    &format!("{event} hook `{shown}` fails: {why}"),
                    &format!("run {setup} again (it writes hooks that fit the storage)"),
                ),
            }
        }
    }
    if team && found == 0 {
        report.warn(&format!(
            "toolset team is on, but no hook in {} prints the digest: run {setup}",
            file.shown
        ));
    }
}

/// Whether the hooks `file` holds one that prints this server's digest
/// (`summary`): toolset team is on.
fn has_digest_hook(file: &ConfigFile) -> bool {
    let Ok(Some(text)) = files::read(&file.path, &file.shown) else {
        return false;
    };
    let Ok(doc) = Document::parse(&text, false) else {
        return false;
    };
    HOOK_EVENTS.iter().any(|(event, _)| {
        doc.get(&["hooks", event])
            .and_then(|groups| doc.data(groups))
            .is_some_and(|groups| {
                let text = groups.to_string();
                text.contains(PROGRAM) && text.contains(" summary ")
            })
    })
}

/// The words of `command` if it is a hook `setup` writes, which doctor
/// runs (without a shell): `planning-mcp-server summary --storage file`
/// or `planning-mcp-server summary --url http://...`, the program by name
/// or path. Else why it is not run.
fn hook_words(command: &str) -> Result<Vec<String>, String> {
    let words = split_words(command)
        .map_err(|what| format!("it holds {what}, shell syntax setup never writes"))?;
    let ours = match words.as_slice() {
        [program, summary, flag, value] => {
            Path::new(program).file_name().is_some_and(|n| n == PROGRAM)
                && summary == "summary"
                && match flag.as_str() {
                    "--storage" => value == "file",
                    "--url" => value.starts_with("http://"),
                    _ => false,
                }
        }
        _ => false,
    };
    match ours {
        true => Ok(words),
        false => Err(format!(
            "setup writes only `{PROGRAM} summary --storage file` or `{PROGRAM} summary --url \
             URL`, and doctor runs no other command"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_hooks_setup_writes_are_run() {
        for command in [
            "planning-mcp-server summary --storage file",
            "'/my apps/planning-mcp-server' summary --storage file",
            "planning-mcp-server summary --url http://localhost:8080",
        ] {
            assert!(hook_words(command).is_ok(), "{command}");
        }
        for (command, why) in [
            ("planning-mcp-server summary; touch X", "it holds ';'"),
            (
                "planning-mcp-server summary --storage file && x",
                "it holds '&'",
            ),
            ("planning-mcp-server summary", "setup writes only"),
            (
                "planning-mcp-server summary --storage memory",
                "setup writes only",
            ),
            (
                "planning-mcp-server summary --url file:///x",
                "setup writes only",
            ),
            ("sh summary --storage file", "setup writes only"),
            (
                "planning-mcp-server serve --storage file",
                "setup writes only",
            ),
        ] {
            let error = hook_words(command).unwrap_err();
            assert!(error.starts_with(why), "{command}: {error}");
        }
    }
}
