// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The server's own tables: `[server]` (the transport, HTTP's limits and
//! access, the toolsets) and `[logging]`, with their flags and checks.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::server::BoardName;
use crate::server::seconds::Seconds;
use crate::server::secret::Secret;
use crate::server::settings::{Flag, FlagKind, Settings, lenient, lenient_option, list};

/// The flags of the server's own tables.
pub(crate) const FLAGS: &[Flag] = &[
    Flag {
        long: "mode",
        key: "server.mode",
        value_name: "MODE",
        help: "Transport",
        kind: FlagKind::Choice(&["stdio", "http"]),
    },
    Flag {
        long: "host",
        key: "server.host",
        value_name: "HOST",
        help: "Address to listen on in http mode",
        kind: FlagKind::Text,
    },
    Flag {
        long: "port",
        key: "server.port",
        value_name: "PORT",
        help: "Port to listen on in http mode, 0 for any free port",
        kind: FlagKind::Number,
    },
    Flag {
        long: "log-level",
        key: "logging.level",
        value_name: "LOG_LEVEL",
        help: "Least severe log events written to stderr",
        kind: FlagKind::Choice(&["debug", "info", "warn", "error"]),
    },
    Flag {
        long: "board",
        key: "server.board",
        value_name: "NAME",
        help: "Board served in stdio mode",
        kind: FlagKind::Text,
    },
    Flag {
        long: "toolsets",
        key: "server.toolsets",
        value_name: "LIST",
        help: "Toolsets to offer, comma-separated",
        kind: FlagKind::List,
    },
];

/// The transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// MCP over stdin/stdout; the client starts the server.
    Stdio,
    /// MCP Streamable HTTP at `/mcp`; all clients share one board.
    Http,
}

/// `[server]`: the transport and where HTTP listens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerSettings {
    /// `stdio` or `http`.
    pub mode: Mode,
    /// The address to bind in HTTP mode.
    #[serde(deserialize_with = "lenient")]
    pub(crate) host: String,
    /// The port to bind in HTTP mode; 0 picks a free one.
    pub(crate) port: u16,
    /// The board served in stdio mode (HTTP serves every board at its own path).
    pub(crate) board: BoardName,
    /// The most boards one server holds.
    pub(crate) max_boards: usize,
    /// The most concurrent HTTP sessions.
    pub(crate) max_sessions: usize,
    /// Seconds after which an idle HTTP session is closed.
    pub(crate) session_idle_timeout: u64,
    /// The most HTTP connections open at once (lowered to fit the
    /// open-files limit).
    pub(crate) max_connections: usize,
    /// How long a client may take to send a request line and its headers,
    /// and how long an idle keep-alive connection stays open.
    pub(crate) header_read_timeout: Seconds,
    /// How long a client may take to send a request body.
    pub(crate) body_read_timeout: Seconds,
    /// How long shutdown waits for calls in flight before it drops every
    /// connection.
    pub(crate) shutdown_grace_period: Seconds,
    /// The longest a call waits for a file lock that another process holds.
    pub(crate) lock_timeout: Seconds,
    /// The bearer token every HTTP request must carry.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_option"
    )]
    pub(crate) auth_token: Option<Secret>,
    /// A file holding the token (read at start-up; surrounding whitespace ignored).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_option"
    )]
    pub(crate) auth_token_file: Option<PathBuf>,
    /// Allows a non-loopback address without a token.
    pub(crate) allow_unauthenticated: bool,
    /// Extra `Host` header values accepted besides loopback names.
    pub(crate) allowed_hosts: Vec<String>,
    /// Extra browser origins accepted besides loopback ones, e.g. `https://plan.example.com`.
    pub(crate) allowed_origins: Vec<String>,
    /// The toolsets offered, by name (see `crate::toolsets::REGISTRY`).
    #[serde(deserialize_with = "list")]
    pub(crate) toolsets: Vec<String>,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            mode: Mode::Stdio,
            host: "localhost".into(),
            port: 8080,
            board: BoardName::default_board(),
            max_boards: 64,
            max_sessions: 256,
            session_idle_timeout: 1800,
            max_connections: 1024,
            header_read_timeout: Seconds::new(10),
            body_read_timeout: Seconds::new(30),
            shutdown_grace_period: Seconds::new(5),
            lock_timeout: Seconds::new(10),
            auth_token: None,
            auth_token_file: None,
            allow_unauthenticated: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            toolsets: vec!["planning".into()],
        }
    }
}

impl ServerSettings {
    /// Reads `[server]` (its types check the board's name), checks what
    /// types cannot (a host to bind, limits of at least one, toolsets among
    /// `known`) and reads the token file.
    pub(crate) fn read(settings: &Settings<'_>, known: &[&str]) -> Result<Self, Vec<String>> {
        let mut server = settings.table::<Self>("server")?;
        let mut problems = Vec::new();
        let mut require = |ok: bool, key: &str, what: &str| {
            settings.require(&mut problems, ok, key, what);
        };
        require(
            !server.host.trim().is_empty(),
            "server.host",
            "must name an address, e.g. localhost",
        );
        require(
            server.max_boards >= 1,
            "server.max_boards",
            "must be at least 1",
        );
        require(
            server.max_sessions >= 1,
            "server.max_sessions",
            "must be at least 1",
        );
        require(
            server.session_idle_timeout >= 1,
            "server.session_idle_timeout",
            "must be at least 1 (seconds)",
        );
        require(
            server.max_connections >= 1,
            "server.max_connections",
            "must be at least 1",
        );
        for (value, key) in [
            (server.header_read_timeout, "server.header_read_timeout"),
            (server.body_read_timeout, "server.body_read_timeout"),
        ] {
            require(!value.is_zero(), key, "must be more than 0 (seconds)");
        }
        require(
            server
                .auth_token
                .as_ref()
                .is_none_or(|token| !token.expose().trim().is_empty()),
            "server.auth_token",
            "must not be blank; leave it out to disable authentication",
        );
        require(
            server.allowed_origins.iter().all(|origin| {
                origin == "null"
                    || origin
                        .split_once("://")
                        .is_some_and(|(scheme, rest)| !scheme.is_empty() && !rest.is_empty())
            }),
            "server.allowed_origins",
            "each origin needs a scheme, e.g. https://plan.example.com",
        );
        let unknown: Vec<String> = server
            .toolsets
            .iter()
            .filter(|t| !known.contains(&t.as_str()))
            .map(|t| format!("'{t}'"))
            .collect();
        require(
            unknown.is_empty(),
            "server.toolsets",
            &format!(
                "unknown toolset {}; the toolsets are {}",
                unknown.join(", "),
                known.join(", ")
            ),
        );
        require(
            !server.toolsets.is_empty(),
            "server.toolsets",
            &format!("must name at least one toolset: {}", known.join(", ")),
        );
        if problems.is_empty() {
            server.read_token_file(settings)?;
            return Ok(server);
        }
        Err(problems)
    }

    /// Reads `server.auth_token_file` into `server.auth_token`.
    fn read_token_file(&mut self, settings: &Settings<'_>) -> Result<(), Vec<String>> {
        let Some(path) = &self.auth_token_file else {
            return Ok(());
        };
        let problem = |what: String| vec![settings.problem("server.auth_token_file", &what)];
        if self.auth_token.is_some() {
            return Err(problem(
                "server.auth_token is set too; set only one of them".into(),
            ));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|error| problem(format!("cannot read {}: {error}", path.display())))?;
        let token = text.trim();
        if token.is_empty() {
            return Err(problem(format!("{} holds no token", path.display())));
        }
        self.auth_token = Some(Secret::from(token.to_owned()));
        Ok(())
    }
}
