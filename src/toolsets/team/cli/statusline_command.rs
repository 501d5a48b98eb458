// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server statusline`, toolset `team`'s subcommand for a
//! status bar: the stored board in one short line. Claude Code's
//! `statusLine` runs it with a JSON object on stdin whose
//! `workspace.current_dir` (or `cwd`) is the session's directory: the
//! command reads the board from there (its config file and `storage.dir`
//! resolve against it), so one setting in `~/.claude/settings.json` serves
//! every project. Run by hand or by tmux, stdin a terminal or empty, it reads
//! the board of its own directory. It runs every few seconds, so it does
//! as little as `summary`: no lock, no file created, nothing but the read.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use clap::{ArgMatches, Args, Command, FromArgMatches};

use super::{BOARD_KEYS, stored_board};
use crate::runtime::clock::Clock;
use crate::server::command::{CliCommand, Configuration, Failure, Run};
use crate::server::settings::Flag;
use crate::toolsets::team::domain::View;
use crate::toolsets::team::domain::status_line::status_line;

/// The subcommand, for the registry entry's `commands`.
pub(crate) const STATUSLINE: CliCommand = CliCommand {
    name: "statusline",
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
        "server.board" => "Board to show",
        _ => flag.help,
    }
}

/// What `planning-mcp-server --help` says of it.
const ABOUT: &str = "Print the stored board in one short line (7/12 ☑ · ⟳ worker-1 [a46f8d35] · \
1 to review) for Claude Code's statusLine (it reads the session's directory from the JSON on \
stdin) or tmux";

/// The most bytes read of the JSON on stdin; Claude Code's is a few KB.
const MAX_STDIN: u64 = 1 << 20;

// Its arguments. (Not a doc comment: clap would make it the subcommand's
// about.)
#[derive(Debug, Args)]
struct StatuslineArgs {
    /// Do not read stdin; read the board of the current directory
    #[arg(long)]
    no_stdin: bool,
}

/// `statusline`'s help and arguments.
fn define(command: Command) -> Command {
    StatuslineArgs::augment_args(command.about(ABOUT))
}

/// Prints the line of the configured board (`--board`).
fn run(matches: &ArgMatches, configuration: &Configuration<'_>) -> Result<String, Failure> {
    let args = StatuslineArgs::from_arg_matches(matches).map_err(|error| error.to_string())?;
    let session = match args.no_stdin {
        true => None,
        false => session_dir(),
    };
    if let Some(dir) = session {
        std::env::set_current_dir(&dir)
            .map_err(|error| format!("cannot enter {}: {error}", dir.display()))?;
    }
    let config = configuration.load()?;
    let stored = stored_board(&config.toolsets, &config.board, "statusline").map_err(|error| {
        // `summary` can ask a server instead; the status line reads only
        // what is stored, so it says what to store.
        match error.strip_suffix(": pass --url of that server") {
            Some(memory) => {
                format!("{memory}: the status line reads a stored board (--storage file)")
            }
            None => error,
        }
    })?;
    if !stored.exists {
        return Ok(format!("board {}: none stored\n", stored.name));
    }
    let now = Clock::from_env()?.now();
    let line = status_line(stored.name.as_str(), View::new(&stored.board, now));
    Ok(format!("{line}\n"))
}

/// The session's directory from the JSON on stdin (Claude Code's
/// `workspace.current_dir`, else `cwd`), if stdin is not a terminal and
/// names one that exists.
fn session_dir() -> Option<PathBuf> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return None;
    }
    let mut text = String::new();
    stdin
        .lock()
        .take(MAX_STDIN)
        .read_to_string(&mut text)
        .ok()?;
    dir_of(&text)
}

/// The directory `json` names, if it names one that exists.
fn dir_of(json: &str) -> Option<PathBuf> {
    let value: serde_json::Value = serde_json::from_str(json).ok()?;
    let named = value
        .pointer("/workspace/current_dir")
        .or_else(|| value.get("cwd"))?
        .as_str()?;
    let dir = PathBuf::from(named);
    dir.is_dir().then_some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directory_comes_from_claude_codes_json() {
        let here = std::env::temp_dir();
        let shown = here.display();
        let both = format!(r#"{{"cwd":"/nonexistent","workspace":{{"current_dir":"{shown}"}}}}"#);
        assert_eq!(dir_of(&both), Some(here.clone()));
        assert_eq!(dir_of(&format!(r#"{{"cwd":"{shown}"}}"#)), Some(here));
        for none in [
            "",
            "not json",
            r#"{"cwd":"/nonexistent/x"}"#,
            r#"{"cwd":3}"#,
        ] {
            assert_eq!(dir_of(none), None, "{none}");
        }
    }
}
