// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What `setup` writes, decided from its options without touching a file:
//! how the agent starts (or reaches) the server, and, with toolset `team`
//! on an agent with hooks, the command its hooks run. The flags always fit
//! the storage: a hook reads a stored board (`--storage file`) or asks the
//! HTTP server (`--url`), never a board that lives in another process's
//! memory.

use crate::config::ServerSettings;
use crate::server::Registry;

use super::agent::{Agent, Launch, Scope, shell_word};

/// The name of the server in the agents' files unless `--name` says
/// otherwise.
pub(crate) const DEFAULT_NAME: &str = "planning";

/// Where the server keeps its boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    /// `--storage file`.
    File,
    /// `--storage memory`.
    Memory,
}

/// What the user asked for.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    /// The agent.
    pub(crate) agent: Agent,
    /// `--toolsets`, as given.
    pub(crate) toolsets: Option<Vec<String>>,
    /// `--storage`.
    pub(crate) storage: Option<Storage>,
    /// `--http URL`.
    pub(crate) http: Option<String>,
    /// `--scope`.
    pub(crate) scope: Option<Scope>,
    /// `--statusline`: Claude Code's status line shows the board.
    pub(crate) statusline: bool,
}

/// What `setup` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The scope of the files.
    pub(crate) scope: Scope,
    /// The server's entry: how the agent starts or reaches it.
    pub(crate) launch: Launch,
    /// The command the hooks run, if it writes hooks.
    pub(crate) hook: Option<String>,
    /// The command of Claude Code's `statusLine`, if it writes one.
    pub(crate) statusline: Option<String>,
    /// What the user should know about the choices made, one line each.
    pub(crate) notes: Vec<String>,
}

/// Decides what to write for `request`; `program` is how the command is
/// written (the name on `PATH`, or an absolute path), `home` the user's
/// home directory (for the board of an agent that starts servers nowhere
/// in particular).
pub(crate) fn plan(
    request: &Request,
    registry: Registry<'_>,
    program: &str,
    home: Option<&str>,
) -> Result<Plan, String> {
    let agent = request.agent;
    let scope = request.scope.unwrap_or(agent.default_scope());
    if !agent.has_scope(scope) {
        return Err(format!(
            "{} has no {} config file: it keeps its servers per user (--scope user)",
            agent.title(),
            scope.name()
        ));
    }
    let toolsets = toolsets(request.toolsets.as_deref(), registry)?;
    // Toolset team's `summary` prints the digest the hooks inject.
    let team = toolsets.iter().any(|t| t == "team");
    let hooks = team && agent.has_hooks();
    if request.statusline && !agent.has_hooks() {
        return Err(format!(
            "--statusline: {} has no status line setting that runs a command (Claude Code's \
             statusLine); for tmux see docs/notify.md",
            agent.title()
        ));
    }
    // The status line reads the stored board, like the hooks.
    let statusline = request
        .statusline
        .then(|| format!("{} statusline --storage file", shell_word(program)));
    let mut notes = Vec::new();
    if let Some(url) = &request.http {
        let url = endpoint(url)?;
        if !agent.speaks_http() {
            return Err(format!(
                "{} starts the servers of its config file itself and does not connect to URLs \
                 there: leave out --http (it then starts planning-mcp-server), or add the URL as \
                 a connector in its settings",
                agent.title()
            ));
        }
        if request.storage.is_some() {
            return Err(
                "--storage is for a server the agent starts; an HTTP server keeps its \
                        boards as its own flags say (start it with --storage file)"
                    .into(),
            );
        }
        if hooks && url.starts_with("https://") {
            return Err(format!(
                "the hooks' `summary --url` speaks plain http:// only, and {url} is https: give \
                 the server's http:// address, or leave out toolset team"
            ));
        }
        let hook = hooks.then(|| {
            let base = url.strip_suffix("/mcp").unwrap_or(&url);
            format!("{} summary --url {}", shell_word(program), shell_word(base))
        });
        if request.toolsets.is_some() && !hooks {
            notes.push(
                "--toolsets: the HTTP server offers the toolsets its own flags enable".to_owned(),
            );
        }
        if statusline.is_some() {
            notes.push(
                "--statusline: the status line reads the board stored in the project \
                 (.planning-mcp-server/): start the HTTP server there with --storage file"
                    .to_owned(),
            );
        }
        return Ok(Plan {
            scope,
            launch: Launch::Http { url },
            hook,
            statusline,
            notes,
        });
    }
    let reads_board = hooks || statusline.is_some();
    let storage = match (request.storage, reads_board) {
        (Some(Storage::Memory), true) if !hooks => {
            return Err(
                "--statusline shows the stored board, which it cannot read from a board kept in \
                 the memory of the agent's server: use --storage file, or --http URL of a shared \
                 server"
                    .into(),
            );
        }
        (Some(Storage::Memory), true) => {
            return Err(format!(
                "with toolset team, {}'s hooks print the board's digest, which they cannot read \
                 from a board kept in the memory of the agent's server: use --storage file, or \
                 --http URL of a shared server",
                agent.title()
            ));
        }
        (None, true) if !hooks => {
            notes.push(
                "--statusline: the board is kept in .planning-mcp-server/ (--storage file), so \
                 that the status line can read it"
                    .to_owned(),
            );
            Some(Storage::File)
        }
        (None, true) => {
            notes.push(
                "team: the board is kept in .planning-mcp-server/ (--storage file), so that the \
                 hooks can read it"
                    .to_owned(),
            );
            Some(Storage::File)
        }
        (storage, _) => storage,
    };
    let mut args = Vec::new();
    if toolsets != ServerSettings::default().toolsets {
        args.extend(["--toolsets".to_owned(), toolsets.join(",")]);
    }
    match storage {
        Some(Storage::File) => args.extend(["--storage".into(), "file".into()]),
        Some(Storage::Memory) => args.extend(["--storage".into(), "memory".into()]),
        None => {}
    }
    // Claude Desktop starts its servers in no project (on macOS in `/`): a
    // relative board directory would land there.
    if storage == Some(Storage::File) && agent == Agent::ClaudeDesktop {
        let home = home.ok_or("HOME is not set: it is where Claude Desktop's board is kept")?;
        args.extend([
            "--storage-dir".into(),
            format!("{}/.planning-mcp-server", home.trim_end_matches('/')),
        ]);
    }
    let hook = hooks.then(|| format!("{} summary --storage file", shell_word(program)));
    Ok(Plan {
        scope,
        launch: Launch::Stdio {
            command: program.to_owned(),
            args,
        },
        hook,
        statusline,
        notes,
    })
}

/// The toolsets of `given` (a list, each item possibly comma-separated),
/// checked against `registry` and put in its order; `planning` when none
/// are given.
fn toolsets(given: Option<&[String]>, registry: Registry<'_>) -> Result<Vec<String>, String> {
    let Some(given) = given else {
        return Ok(ServerSettings::default().toolsets);
    };
    let names: Vec<&str> = given
        .iter()
        .flat_map(|item| item.split(','))
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .collect();
    if names.is_empty() {
        return Err("--toolsets names no toolset".into());
    }
    let known: Vec<&str> = registry.names().collect();
    if let Some(unknown) = names.iter().find(|name| !known.contains(name)) {
        return Err(format!(
            "unknown toolset '{}'; the toolsets are {}",
            crate::runtime::text::clip(unknown),
            known.join(", ")
        ));
    }
    for kind in registry.kinds() {
        for required in kind.requires() {
            if names.contains(&kind.name()) && !names.contains(required) {
                return Err(format!(
                    "toolset '{}' works on toolset '{required}': enable both, e.g. {required},{}",
                    kind.name(),
                    kind.name()
                ));
            }
        }
    }
    Ok(known
        .into_iter()
        .filter(|name| names.contains(name))
        .map(str::to_owned)
        .collect())
}

/// `url` checked as an MCP endpoint: http(s), a host, no blanks; `/mcp`
/// added when it has no path.
fn endpoint(url: &str) -> Result<String, String> {
    let shown = crate::runtime::text::clip(url);
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| format!("--http {shown}: not an http:// or https:// URL"))?;
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "--http {shown}: a URL holds no blanks or control characters"
        ));
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() {
        return Err(format!("--http {shown}: names no host"));
    }
    match rest.len() == host.len() || rest[host.len()..] == *"/" {
        true => Ok(format!("{}/mcp", url.trim_end_matches('/'))),
        false => Ok(url.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolsets::REGISTRY;

    fn request(agent: Agent) -> Request {
        Request {
            statusline: false,
            agent,
            toolsets: None,
            storage: None,
            http: None,
            scope: None,
        }
    }

    fn with_toolsets(agent: Agent, list: &str) -> Request {
        Request {
            toolsets: Some(vec![list.to_owned()]),
            ..request(agent)
        }
    }

    fn planned(request: &Request) -> Result<Plan, String> {
        plan(request, REGISTRY, "planning-mcp-server", Some("/home/you"))
    }

    fn args(plan: &Plan) -> Vec<String> {
        match &plan.launch {
            Launch::Stdio { args, .. } => args.clone(),
            Launch::Http { url } => vec![url.clone()],
        }
    }

    #[test]
    fn the_status_line_reads_the_stored_board_on_claude_code_only() {
        let line = Request {
            statusline: true,
            ..request(Agent::ClaudeCode)
        };
        let plan = planned(&line).unwrap();
        assert_eq!(
            plan.statusline.as_deref(),
            Some("planning-mcp-server statusline --storage file")
        );
        assert_eq!(args(&plan), ["--storage", "file"]);
        assert_eq!(plan.hook, None);
        let memory = Request {
            storage: Some(Storage::Memory),
            ..line.clone()
        };
        assert!(
            planned(&memory)
                .unwrap_err()
                .contains("--statusline shows the stored board")
        );
        let codex = Request {
            agent: Agent::Codex,
            ..line.clone()
        };
        assert!(
            planned(&codex)
                .unwrap_err()
                .starts_with("--statusline: Codex has no status line")
        );
        let http = Request {
            http: Some("http://localhost:8080".into()),
            ..line
        };
        let plan = planned(&http).unwrap();
        assert!(plan.statusline.is_some());
        assert!(plan.notes[0].contains("start the HTTP server there with --storage file"));
    }

    #[test]
    fn the_default_is_the_bare_command() {
        let plan = planned(&request(Agent::Cursor)).unwrap();
        assert_eq!(plan.scope, Scope::Project);
        assert_eq!(args(&plan), Vec::<String>::new());
        assert_eq!(plan.hook, None);
        assert!(plan.notes.is_empty());
    }

    #[test]
    fn team_on_claude_code_stores_the_board_for_its_hooks() {
        let plan = planned(&with_toolsets(Agent::ClaudeCode, "team,planning")).unwrap();
        assert_eq!(
            args(&plan),
            ["--toolsets", "planning,team", "--storage", "file"]
        );
        assert_eq!(
            plan.hook.as_deref(),
            Some("planning-mcp-server summary --storage file")
        );
        assert_eq!(plan.notes.len(), 1);
        let memory = Request {
            storage: Some(Storage::Memory),
            ..with_toolsets(Agent::ClaudeCode, "planning,team")
        };
        assert!(planned(&memory).unwrap_err().contains("use --storage file"));
        // An agent without hooks keeps the storage it is given.
        let cursor = planned(&with_toolsets(Agent::Cursor, "planning,team")).unwrap();
        assert_eq!(args(&cursor), ["--toolsets", "planning,team"]);
    }

    #[test]
    fn http_entries_and_hooks_ask_the_server() {
        let http = Request {
            http: Some("http://localhost:8080".into()),
            ..with_toolsets(Agent::ClaudeCode, "planning,team")
        };
        let plan = planned(&http).unwrap();
        assert_eq!(args(&plan), ["http://localhost:8080/mcp"]);
        assert_eq!(
            plan.hook.as_deref(),
            Some("planning-mcp-server summary --url http://localhost:8080")
        );
        let https = Request {
            http: Some("https://plan.example/mcp".into()),
            ..http.clone()
        };
        assert!(planned(&https).unwrap_err().contains("plain http:// only"));
        let storage = Request {
            storage: Some(Storage::File),
            ..http.clone()
        };
        assert!(
            planned(&storage)
                .unwrap_err()
                .starts_with("--storage is for")
        );
        let desktop = Request {
            agent: Agent::ClaudeDesktop,
            ..http
        };
        assert!(
            planned(&desktop)
                .unwrap_err()
                .contains("does not connect to URLs")
        );
    }

    #[test]
    fn claude_desktop_is_per_user_with_its_board_at_home() {
        let project = Request {
            scope: Some(Scope::Project),
            ..request(Agent::ClaudeDesktop)
        };
        assert_eq!(
            planned(&project).unwrap_err(),
            "Claude Desktop has no project config file: it keeps its servers per user (--scope user)"
        );
        let file = Request {
            storage: Some(Storage::File),
            ..request(Agent::ClaudeDesktop)
        };
        let plan = planned(&file).unwrap();
        assert_eq!(plan.scope, Scope::User);
        assert_eq!(
            args(&plan),
            [
                "--storage",
                "file",
                "--storage-dir",
                "/home/you/.planning-mcp-server"
            ]
        );
    }

    #[test]
    fn bad_toolsets_and_urls_are_refused() {
        let cases = [
            (
                with_toolsets(Agent::Codex, "team"),
                "toolset 'team' works on toolset 'planning': enable both, e.g. planning,team",
            ),
            (
                with_toolsets(Agent::Codex, "boards"),
                "unknown toolset 'boards'; the toolsets are planning, plans, team, workflow, commit",
            ),
            (
                with_toolsets(Agent::Codex, " , "),
                "--toolsets names no toolset",
            ),
            (
                Request {
                    http: Some("ftp://x".into()),
                    ..request(Agent::Codex)
                },
                "--http ftp://x: not an http:// or https:// URL",
            ),
            (
                Request {
                    http: Some("http:///mcp".into()),
                    ..request(Agent::Codex)
                },
                "--http http:///mcp: names no host",
            ),
            (
                Request {
                    http: Some("http://a b".into()),
                    ..request(Agent::Codex)
                },
                "--http http://a b: a URL holds no blanks or control characters",
            ),
        ];
        for (request, expected) in cases {
            assert_eq!(planned(&request).unwrap_err(), expected);
        }
    }

    #[test]
    fn a_path_with_blanks_is_quoted_in_the_hook_not_in_the_entry() {
        let request = with_toolsets(Agent::ClaudeCode, "planning,team");
        let plan = plan(&request, REGISTRY, "/my apps/planning-mcp-server", None).unwrap();
        assert_eq!(
            plan.hook.as_deref(),
            Some("'/my apps/planning-mcp-server' summary --storage file")
        );
        let Launch::Stdio { command, .. } = plan.launch else {
            panic!("stdio");
        };
        assert_eq!(command, "/my apps/planning-mcp-server");
    }
}
