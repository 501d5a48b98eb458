// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The example config file: the server's tables, then each registered
//! toolset's, every key with its default. `--generate-config` writes it;
//! `config/planning-mcp-server.toml` is the same text, shipped.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{ConfigError, FILE_NAME, ServerSettings};
use crate::server::Registry;
use crate::server::toolset::ToolsetKind;
use crate::toolsets::REGISTRY;

/// The server's part up to `[server] toolsets`, which lists the registry's
/// toolsets ([`toolsets_part`]).
const SERVER_HEAD: &str = r#"
# SPDX-FileCopyrightText: 2026 planning-mcp-server developers
#
# SPDX-License-Identifier: CC0-1.0

# planning-mcp-server configuration.
#
# Read from the first of ./planning-mcp-server.toml,
# $HOME/.config/planning-mcp-server/planning-mcp-server.toml and
# /etc/planning-mcp-server/planning-mcp-server.toml, or from --config PATH.
# Every key may be left out; the values below are the defaults.
# Environment variables override the file (PLANNING_<TABLE>_<KEY>, e.g.
# PLANNING_SERVER_PORT=9090), and command-line flags override both.

[server]
# Transport: 'stdio' (the MCP client starts the server) or 'http'
# (Streamable HTTP at http://{host}:{port}/mcp, one board shared by all clients).
mode = 'stdio'
# Address to listen on in http mode.
host = 'localhost'
port = 8080
# The board served in stdio mode. In http mode /mcp serves 'default' and
# /boards/{name}/mcp serves board {name} (names: ^[a-z0-9][a-z0-9_-]{0,63}$).
board = 'default'
# The most boards one server holds, and the most concurrent HTTP sessions.
max_boards = 64
max_sessions = 256
# Seconds after which an idle HTTP session is closed.
session_idle_timeout = 1800
# The most HTTP connections open at once (lowered to fit the open-files
# limit). At the cap a new connection replaces the one that has waited
# longest for a request; only when all are in requests is it refused (503).
max_connections = 1024
# Seconds (fractions allowed) a client may take to send a request line and
# its headers (also how long an idle keep-alive connection stays open), and
# to send a request body.
header_read_timeout = 10
body_read_timeout = 30
# Seconds shutdown (SIGTERM, SIGINT, end of stdin) waits for calls in flight
# before it drops every connection and exits.
shutdown_grace_period = 5
# Seconds a call waits for a board or plan file that another process has
# locked before it gives up with an error (nothing is changed).
lock_timeout = 10
# Require 'Authorization: Bearer <token>' on every HTTP request. Set one of
# auth_token (or PLANNING_SERVER_AUTH_TOKEN) and auth_token_file. A server that
# listens on a non-loopback address refuses to start without a token unless
# allow_unauthenticated = true.
# auth_token = 'change-me'
# auth_token_file = '/run/secrets/planning-token'
allow_unauthenticated = false
# Host header values and browser origins accepted besides the loopback ones
# (needed behind a proxy or on a public address).
allowed_hosts = []
allowed_origins = []
"#;

/// The server's part after `[server] toolsets`: `[logging]`.
const SERVER_TAIL: &str = r#"
[logging]
# Logs go to stderr only: debug, info, warn, error.
level = 'info'
# 'text' or 'json'.
format = 'text'
"#;

/// The widest line of a comment written here.
const WIDTH: usize = 78;

/// The whole example file.
pub(crate) fn example() -> String {
    example_of(REGISTRY)
}

/// The example file of a server with the toolsets of `registry`: the
/// server's part, naming each toolset, then each toolset's own part.
pub(crate) fn example_of(registry: Registry<'_>) -> String {
    let server = format!("{SERVER_HEAD}{}{SERVER_TAIL}", toolsets_part(registry));
    let parts: Vec<&str> = std::iter::once(server.as_str())
        .chain(registry.kinds().map(|kind| kind.example()))
        .map(|part| part.trim_matches('\n'))
        .collect();
    parts.join("\n\n") + "\n"
}

/// `[server] toolsets`, the default, after a comment that names every
/// toolset of `registry` and gives an example.
fn toolsets_part(registry: Registry<'_>) -> String {
    let defaults = ServerSettings::default().toolsets;
    let entries: Vec<String> = registry
        .kinds()
        .map(|kind| entry(kind, &defaults))
        .collect();
    let prose = format!(
        "The toolsets offered, each with its tables below: {}, e.g.",
        entries.join(", ")
    );
    let example = example_toolsets(registry, &defaults);
    format!(
        "{}\n# toolsets = [{}] or PLANNING_SERVER_TOOLSETS={}.\ntoolsets = [{}]\n",
        comment(&prose),
        quoted(example.iter()).join(", "),
        example.join(","),
        quoted(defaults.iter()).join(", "),
    )
}

/// One toolset in that comment: its name, what it offers, whether it is on
/// by default and which toolsets it needs.
fn entry(kind: &dyn ToolsetKind, defaults: &[String]) -> String {
    let default = match defaults.iter().any(|name| name == kind.name()) {
        true => ", the default",
        false => "",
    };
    let needs = match quoted(kind.requires().iter()) {
        required if required.is_empty() => String::new(),
        required => format!("; needs {}", required.join(" and ")),
    };
    format!("'{}' ({}{default}{needs})", kind.name(), kind.about())
}

/// The toolsets of the example: the default ones and the first other one
/// that needs no more than they are.
fn example_toolsets(registry: Registry<'_>, defaults: &[String]) -> Vec<String> {
    let is_default = |name: &str| defaults.iter().any(|default| default == name);
    let another = registry.kinds().find(|kind| {
        !is_default(kind.name()) && kind.requires().iter().all(|name| is_default(name))
    });
    let mut example = defaults.to_vec();
    example.extend(another.map(|kind| kind.name().to_owned()));
    example
}

/// Each of `names` in single quotes, as TOML and the comments write them.
fn quoted<S: AsRef<str>>(names: impl Iterator<Item = S>) -> Vec<String> {
    names.map(|name| format!("'{}'", name.as_ref())).collect()
}

/// `text` as comment lines of at most [`WIDTH`] characters (a longer word
/// gets a line of its own), broken between words.
fn comment(text: &str) -> String {
    let mut lines = Vec::new();
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() > 1 && line.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(std::mem::replace(&mut line, String::from("#")));
        }
        line.push(' ');
        line.push_str(word);
    }
    lines.push(line);
    lines.join("\n")
}

/// Writes [`example`] to `dir/planning-mcp-server.toml`, never over an existing file.
pub fn generate(dir: &Path) -> Result<PathBuf, ConfigError> {
    let path = dir.join(FILE_NAME);
    let write_error = |source| ConfigError::Write {
        path: path.clone(),
        source,
    };
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::AlreadyExists => ConfigError::AlreadyExists(path.clone()),
            _ => write_error(error),
        })?;
    file.write_all(example().as_bytes()).map_err(write_error)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_is_the_example() {
        let shipped = include_str!("../../config/planning-mcp-server.toml");
        assert_eq!(
            example(),
            shipped,
            "run --generate-config and ship its output"
        );
    }

    #[test]
    fn comments_break_between_words_within_the_width() {
        let text = "one two three ".repeat(20) + &"x".repeat(90) + " end";
        let lines = comment(&text);
        for line in lines.lines() {
            assert!(line.starts_with("# "), "{line}");
            let words = line.split(' ').count() - 1;
            assert!(line.chars().count() <= WIDTH || words == 1, "{line}");
        }
        let words: Vec<&str> = lines.split_whitespace().filter(|w| *w != "#").collect();
        assert_eq!(words, text.split_whitespace().collect::<Vec<_>>());
        assert_eq!(comment("short"), "# short");
    }

    #[test]
    fn generate_writes_the_example_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = generate(dir.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), example());
        std::fs::write(&path, "mine").unwrap();
        assert!(matches!(
            generate(dir.path()),
            Err(ConfigError::AlreadyExists(_))
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    }
}
