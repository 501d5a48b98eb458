// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The commands `doctor` prints as fixes, derived from the entry it
//! checked: a server started on the entry's own host and port, with the
//! toolsets and storage the entry (or its hooks) asks for, and `setup` run
//! again with the flags that write the same entry. A fix that fits another
//! setup (port 8080, no team) would leave the check failing.

use super::agent::{Agent, Launch, PROGRAM, Scope, shell_word};

/// The command that starts the HTTP server the entry's `url` (plain
/// http://) points at: its host (unless the default, `localhost`) and port
/// (80 when the URL names none), toolset team when the agent's hooks read
/// its digest, and its boards in files so that they survive a restart.
/// `None` when the URL is not one this server could serve.
pub(crate) fn start_http(url: &str, team: bool) -> Option<String> {
    let rest = url.strip_prefix("http://")?;
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    let (host, port) = match authority.rsplit_once(':') {
        // An IPv6 literal's brackets are not part of the address to bind.
        Some((host, port)) if !port.contains(']') => (host, port.parse::<u16>().ok()?),
        _ => (authority, 80),
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return None;
    }
    let mut words = vec![PROGRAM.to_owned(), "--mode".into(), "http".into()];
    if host != "localhost" {
        words.extend(["--host".into(), host.to_owned()]);
    }
    words.extend(["--port".into(), port.to_string()]);
    if team {
        words.extend(["--toolsets".into(), "planning,team".into()]);
    }
    words.extend(["--storage".into(), "file".into()]);
    Some(
        words
            .iter()
            .map(|w| shell_word(w))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// `setup` with the flags that write `launch` again for `agent` in
/// `scope`: its `--scope` (unless the agent's default), its `--toolsets`
/// (from the entry's arguments, or team when `team` says its hooks read
/// the digest), its `--storage` (file or memory, the ones setup writes) or
/// its `--http` URL.
pub(crate) fn setup_again(agent: Agent, scope: Scope, launch: &Launch, team: bool) -> String {
    let mut words = vec![PROGRAM.to_owned(), "setup".into(), agent.name().into()];
    if scope != agent.default_scope() {
        words.extend(["--scope".into(), scope.name().into()]);
    }
    match launch {
        Launch::Stdio { args, .. } => {
            let value = |flag: &str| args.windows(2).find(|w| w[0] == flag).map(|w| &w[1]);
            if let Some(toolsets) = value("--toolsets") {
                words.extend(["--toolsets".into(), toolsets.clone()]);
            }
            if let Some(storage) = value("--storage").filter(|s| *s == "file" || *s == "memory") {
                words.extend(["--storage".into(), storage.clone()]);
            }
        }
        Launch::Http { url } => {
            if team {
                words.extend(["--toolsets".into(), "planning,team".into()]);
            }
            words.extend(["--http".into(), url.clone()]);
        }
    }
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_http_server_to_start_is_the_one_the_entry_points_at() {
        let fixes: Vec<String> = [
            ("http://localhost:47101/mcp", true),
            ("http://localhost:47101/mcp", false),
            ("http://127.0.0.1:9000/mcp", true),
            ("http://board.example/mcp", false),
            ("http://[::1]:8081/mcp", false),
        ]
        .into_iter()
        .map(|(url, team)| format!("{url} team={team}: {:?}", start_http(url, team)))
        .collect();
        insta::assert_snapshot!(fixes.join("\n"));
        assert_eq!(start_http("https://localhost:47101/mcp", true), None);
        assert_eq!(start_http("http://localhost:x/mcp", true), None);
        assert_eq!(start_http("http:///mcp", true), None);
    }

    #[test]
    fn setup_again_writes_the_same_entry() {
        let stdio = |args: &[&str]| Launch::Stdio {
            command: PROGRAM.into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
        };
        let http = Launch::Http {
            url: "http://localhost:47101/mcp".into(),
        };
        let fixes = [
            setup_again(
                Agent::ClaudeCode,
                Scope::Project,
                &stdio(&["--toolsets", "planning,team", "--storage", "file"]),
                true,
            ),
            setup_again(
                Agent::Codex,
                Scope::User,
                &stdio(&["--storage", "memory"]),
                false,
            ),
            setup_again(
                Agent::Cursor,
                Scope::Project,
                &stdio(&["--storage", "postgres"]),
                false,
            ),
            setup_again(Agent::ClaudeCode, Scope::Project, &http, true),
            setup_again(Agent::Gemini, Scope::Project, &http, false),
        ];
        insta::assert_snapshot!(fixes.join("\n"));
    }
}
