// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What `setup` knows of each coding agent: where it keeps its MCP servers
//! (and hooks), in which format, and what a server's entry looks like
//! there. Each follows the agent's own documentation; docs/setup.md names
//! the pages and the dates they were read.

use std::path::{Path, PathBuf};

use super::json::Json;

/// The program's name, as a command on `PATH`.
pub(crate) const PROGRAM: &str = "planning-mcp-server";

/// A coding agent `setup` writes the config of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Agent {
    /// Claude Code: `.mcp.json`, and hooks in `.claude/settings.json`.
    ClaudeCode,
    /// OpenAI Codex: `[mcp_servers.NAME]` in `config.toml`.
    Codex,
    /// Cursor: `.cursor/mcp.json`.
    Cursor,
    /// VS Code: `.vscode/mcp.json`, key `servers`.
    VsCode,
    /// Gemini CLI: `.gemini/settings.json`.
    Gemini,
    /// Claude Desktop: `claude_desktop_config.json`, per user only.
    ClaudeDesktop,
}

/// Where a config file applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The project's own file, in the working directory, which a team
    /// commits.
    Project,
    /// The user's file, for every project.
    User,
}

impl Scope {
    /// Its name on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::User => "user",
        }
    }
}

/// How a config file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// Strict JSON.
    Json,
    /// JSON with comments and trailing commas (VS Code, Cursor, Gemini CLI
    /// read them).
    Jsonc,
    /// TOML.
    Toml,
}

/// A config file of an agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConfigFile {
    /// Where it is.
    pub(crate) path: PathBuf,
    /// How it is named to the user: relative in a project, `~/...` at home.
    pub(crate) shown: String,
    /// Its format.
    pub(crate) format: Format,
}

/// The directories config files are found in.
#[derive(Debug, Clone)]
pub(crate) struct Places {
    /// The project: the working directory.
    pub(crate) project: PathBuf,
    /// `$HOME`.
    pub(crate) home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME`, if set.
    pub(crate) config_home: Option<PathBuf>,
    /// `$CODEX_HOME`, if set.
    pub(crate) codex_home: Option<PathBuf>,
}

impl Places {
    /// The places of this process's environment and working directory.
    pub(crate) fn from_env() -> Result<Self, String> {
        let project = std::env::current_dir()
            .map_err(|e| format!("cannot read the working directory: {e}"))?;
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Ok(Self {
            project,
            home: var("HOME"),
            config_home: var("XDG_CONFIG_HOME"),
            codex_home: var("CODEX_HOME"),
        })
    }

    fn in_project(&self, relative: &str, format: Format) -> ConfigFile {
        ConfigFile {
            path: self.project.join(relative),
            shown: relative.to_owned(),
            format,
        }
    }

    fn at_home(&self, relative: &str, format: Format) -> Option<ConfigFile> {
        Some(ConfigFile {
            path: self.home.as_ref()?.join(relative),
            shown: format!("~/{relative}"),
            format,
        })
    }

    /// `relative` in the user's config directory (`$XDG_CONFIG_HOME`, else
    /// `~/.config`; on macOS `~/Library/Application Support`).
    fn in_config_home(&self, relative: &str, format: Format) -> Option<ConfigFile> {
        if cfg!(target_os = "macos") {
            return self.at_home(&format!("Library/Application Support/{relative}"), format);
        }
        match &self.config_home {
            Some(dir) => Some(ConfigFile {
                path: dir.join(relative),
                shown: dir.join(relative).display().to_string(),
                format,
            }),
            None => self.at_home(&format!(".config/{relative}"), format),
        }
    }
}

impl Agent {
    /// Every agent, in the order the docs list them.
    pub(crate) const ALL: [Agent; 6] = [
        Self::ClaudeCode,
        Self::Codex,
        Self::Cursor,
        Self::VsCode,
        Self::Gemini,
        Self::ClaudeDesktop,
    ];

    /// Its name on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::ClaudeCode => "claude-code",
            Self::Codex => "codex",
            Self::Cursor => "cursor",
            Self::VsCode => "vscode",
            Self::Gemini => "gemini",
            Self::ClaudeDesktop => "claude-desktop",
        }
    }

    /// Its name for people.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
            Self::Cursor => "Cursor",
            Self::VsCode => "VS Code",
            Self::Gemini => "Gemini CLI",
            Self::ClaudeDesktop => "Claude Desktop",
        }
    }

    /// The agent named `name`.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|agent| agent.name() == name)
    }

    /// The scope used when none is asked for.
    pub(crate) fn default_scope(self) -> Scope {
        match self {
            Self::ClaudeDesktop => Scope::User,
            _ => Scope::Project,
        }
    }

    /// Whether it has config files of `scope`.
    pub(crate) fn has_scope(self, scope: Scope) -> bool {
        !(self == Self::ClaudeDesktop && scope == Scope::Project)
    }

    /// Whether it can reach a server over HTTP from its config file.
    pub(crate) fn speaks_http(self) -> bool {
        self != Self::ClaudeDesktop
    }

    /// Whether `setup` writes hooks for it (the digest at session start and
    /// before a compaction).
    pub(crate) fn has_hooks(self) -> bool {
        self == Self::ClaudeCode
    }

    /// The file that holds its MCP servers, in `scope`.
    pub(crate) fn servers_file(self, scope: Scope, places: &Places) -> Option<ConfigFile> {
        use Format::{Json, Jsonc, Toml};
        match (self, scope) {
            (Self::ClaudeCode, Scope::Project) => Some(places.in_project(".mcp.json", Json)),
            (Self::ClaudeCode, Scope::User) => places.at_home(".claude.json", Json),
            (Self::Codex, Scope::Project) => Some(places.in_project(".codex/config.toml", Toml)),
            (Self::Codex, Scope::User) => match &places.codex_home {
                Some(dir) => Some(ConfigFile {
                    path: dir.join("config.toml"),
                    shown: dir.join("config.toml").display().to_string(),
                    format: Toml,
                }),
                None => places.at_home(".codex/config.toml", Toml),
            },
            (Self::Cursor, Scope::Project) => Some(places.in_project(".cursor/mcp.json", Jsonc)),
            (Self::Cursor, Scope::User) => places.at_home(".cursor/mcp.json", Jsonc),
            (Self::VsCode, Scope::Project) => Some(places.in_project(".vscode/mcp.json", Jsonc)),
            (Self::VsCode, Scope::User) => places.in_config_home("Code/User/mcp.json", Jsonc),
            (Self::Gemini, Scope::Project) => {
                Some(places.in_project(".gemini/settings.json", Jsonc))
            }
            (Self::Gemini, Scope::User) => places.at_home(".gemini/settings.json", Jsonc),
            (Self::ClaudeDesktop, Scope::Project) => None,
            (Self::ClaudeDesktop, Scope::User) => {
                places.in_config_home("Claude/claude_desktop_config.json", Json)
            }
        }
    }

    /// The file that holds its hooks, in `scope`, if `setup` writes hooks.
    pub(crate) fn hooks_file(self, scope: Scope, places: &Places) -> Option<ConfigFile> {
        match (self, scope) {
            (Self::ClaudeCode, Scope::Project) => {
                Some(places.in_project(".claude/settings.json", Format::Json))
            }
            (Self::ClaudeCode, Scope::User) => {
                places.at_home(".claude/settings.json", Format::Json)
            }
            _ => None,
        }
    }

    /// The key (or TOML table) that holds its servers.
    pub(crate) fn servers_key(self) -> &'static str {
        match self {
            Self::VsCode => "servers",
            Self::Codex => "mcp_servers",
            _ => "mcpServers",
        }
    }

    /// A server's entry in its format.
    pub(crate) fn entry(self, launch: &Launch) -> Json {
        let mut members: Vec<(String, Json)> = Vec::new();
        let mut add = |key: &str, value: Json| members.push((key.to_owned(), value));
        match launch {
            Launch::Stdio { command, args } => {
                if self == Self::VsCode {
                    add("type", Json::string("stdio"));
                }
                add("command", Json::string(command));
                if !args.is_empty() {
                    add("args", Json::strings(args));
                }
            }
            Launch::Http { url } => match self {
                Self::ClaudeCode | Self::VsCode => {
                    add("type", Json::string("http"));
                    add("url", Json::string(url));
                }
                Self::Gemini => add("httpUrl", Json::string(url)),
                _ => add("url", Json::string(url)),
            },
        }
        Json::Object(members)
    }
}

/// How an agent reaches the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Launch {
    /// It starts `command` with `args` and speaks MCP on its stdin/stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// It connects to the MCP endpoint `url`.
    Http {
        /// E.g. `http://localhost:8080/mcp`.
        url: String,
    },
}

impl Launch {
    /// What an entry an agent holds asks for, if it is one `setup` could
    /// have written for this server: a command whose program is
    /// `planning-mcp-server` (by name or path), or a URL alone.
    pub(crate) fn of_entry(entry: &serde_json::Value) -> Option<Self> {
        let object = entry.as_object()?;
        let known = ["type", "command", "args", "url", "httpUrl"];
        if object.keys().any(|key| !known.contains(&key.as_str())) {
            return None;
        }
        let text = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        if let Some(command) = text("command") {
            let ours = Path::new(&command)
                .file_name()
                .is_some_and(|name| name == PROGRAM);
            let args = match object.get("args") {
                None => Vec::new(),
                Some(args) => args
                    .as_array()?
                    .iter()
                    .map(|a| a.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()?,
            };
            return ours.then_some(Self::Stdio { command, args });
        }
        text("url")
            .or_else(|| text("httpUrl"))
            .map(|url| Self::Http { url })
    }

    /// The command line, for messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Self::Stdio { .. } => format!("runs `{}`", self.command_line()),
            Self::Http { url } => format!("connects to {url}"),
        }
    }

    /// The command as a shell would read it (a password hidden), or the
    /// URL.
    pub(crate) fn command_line(&self) -> String {
        match self {
            Self::Stdio { command, args } => {
                let mut words = vec![shell_word(command)];
                let mut url_next = false;
                for arg in args {
                    let shown = match arg.strip_prefix("--storage-url=") {
                        Some(url) => format!("--storage-url={}", without_password(url)),
                        None if url_next => without_password(arg),
                        None => arg.clone(),
                    };
                    url_next = arg == "--storage-url";
                    words.push(shell_word(&shown));
                }
                words.join(" ")
            }
            Self::Http { url } => url.clone(),
        }
    }
}

/// A connection string as messages show it: a URL's password
/// (`postgres://user:***@host/db`) and a query that names a password
/// hidden; in key=value pairs, everything from `password` on.
pub(crate) fn without_password(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, mut tail) = rest.split_at(end);
        let authority = match authority.rsplit_once('@') {
            Some((user, host)) if user.contains(':') => {
                let name = user.split_once(':').map_or(user, |(name, _)| name);
                format!("{name}:***@{host}")
            }
            _ => authority.to_owned(),
        };
        let path;
        if let Some((before, query)) = tail.split_once('?')
            && query.to_ascii_lowercase().contains("password")
        {
            path = format!("{before}?***");
            tail = &path;
        }
        return format!("{scheme}://{authority}{tail}");
    }
    match url.to_ascii_lowercase().find("password") {
        Some(at) => format!("{}***", &url[..at]),
        None => url.to_owned(),
    }
}

/// `word` as one word of a POSIX shell command: as it is when it holds
/// nothing the shell would read, else in single quotes.
pub(crate) fn shell_word(word: &str) -> String {
    match !word.is_empty() && word.chars().all(plain) {
        true => word.to_owned(),
        false => format!("'{}'", word.replace('\'', r"'\''")),
    }
}

/// Whether [`shell_word`] leaves `c` unquoted.
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_./,:=@+%".contains(c)
}

/// The words of `command`, read back as [`shell_word`] writes them, joined
/// by spaces: plain characters, single-quoted text and `\'`. Anything else
/// a shell would read (`;`, `&`, `|`, `$`, `` ` ``, `"`, a redirection, a
/// glob, a line break) is refused: `Err` names it.
pub(crate) fn split_words(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => words.extend(word.take()),
            '\'' => {
                let word = word.get_or_insert_default();
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a quote that is not closed".into()),
                    }
                }
            }
            '\\' if chars.clone().next() == Some('\'') => {
                chars.next();
                word.get_or_insert_default().push('\'');
            }
            c if plain(c) => word.get_or_insert_default().push(c),
            c => return Err(format!("{c:?}")),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back_as_shell_word_writes_them_and_nothing_else() {
        let words = ["/my dir/planning-mcp-server", "it's", "", "summary", "a\nb"];
        let command = words.map(shell_word).join(" ");
        assert_eq!(split_words(&command).unwrap(), words);
        assert_eq!(
            split_words("planning-mcp-server summary --storage file").unwrap(),
            ["planning-mcp-server", "summary", "--storage", "file"]
        );
        for (command, refused) in [
            ("planning-mcp-server summary; touch X", "';'"),
            ("a && b", "'&'"),
            ("a | b", "'|'"),
            ("a $(b)", "'$'"),
            ("a `b`", "'`'"),
            ("a \"b\"", "'\"'"),
            ("a > b", "'>'"),
            ("a *", "'*'"),
            ("a\nb", "'\\n'"),
            ("a \\b", "'\\\\'"),
            ("a 'b", "a quote that is not closed"),
        ] {
            assert_eq!(split_words(command).unwrap_err(), refused, "{command}");
        }
    }

    fn places() -> Places {
        Places {
            project: PathBuf::from("/p"),
            home: Some(PathBuf::from("/h")),
            config_home: None,
            codex_home: None,
        }
    }

    #[test]
    fn names_parse_back_and_every_agent_has_a_file_in_its_default_scope() {
        for agent in Agent::ALL {
            assert_eq!(Agent::parse(agent.name()), Some(agent));
            assert!(
                agent
                    .servers_file(agent.default_scope(), &places())
                    .is_some()
            );
            assert!(agent.has_scope(agent.default_scope()));
        }
        assert_eq!(Agent::parse("claude"), None);
    }

    #[test]
    fn files_of_each_scope() {
        let p = places();
        let shown = |agent: Agent, scope| agent.servers_file(scope, &p).map(|f| f.shown);
        assert_eq!(
            shown(Agent::ClaudeCode, Scope::Project).unwrap(),
            ".mcp.json"
        );
        assert_eq!(
            shown(Agent::ClaudeCode, Scope::User).unwrap(),
            "~/.claude.json"
        );
        assert_eq!(
            shown(Agent::Codex, Scope::User).unwrap(),
            "~/.codex/config.toml"
        );
        assert_eq!(shown(Agent::ClaudeDesktop, Scope::Project), None);
        let hooks = Agent::ClaudeCode.hooks_file(Scope::Project, &p).unwrap();
        assert_eq!(hooks.path, PathBuf::from("/p/.claude/settings.json"));
        assert_eq!(Agent::Gemini.hooks_file(Scope::Project, &p), None);
        let codex = Places {
            codex_home: Some(PathBuf::from("/c")),
            ..places()
        };
        assert_eq!(
            Agent::Codex.servers_file(Scope::User, &codex).unwrap().path,
            PathBuf::from("/c/config.toml")
        );
    }

    #[test]
    fn entries_in_each_agents_format_and_read_back() {
        let stdio = Launch::Stdio {
            command: PROGRAM.into(),
            args: vec!["--storage".into(), "file".into()],
        };
        let http = Launch::Http {
            url: "http://localhost:8080/mcp".into(),
        };
        let vscode = Agent::VsCode.entry(&stdio).inline();
        assert_eq!(
            vscode,
            r#"{"type": "stdio", "command": "planning-mcp-server", "args": ["--storage", "file"]}"#
        );
        assert_eq!(
            Agent::Gemini.entry(&http).inline(),
            r#"{"httpUrl": "http://localhost:8080/mcp"}"#
        );
        assert_eq!(
            Agent::ClaudeCode.entry(&http).inline(),
            r#"{"type": "http", "url": "http://localhost:8080/mcp"}"#
        );
        for agent in Agent::ALL {
            for launch in [&stdio, &http] {
                let entry = agent.entry(launch).to_serde();
                assert_eq!(Launch::of_entry(&entry).as_ref(), Some(launch), "{agent:?}");
            }
        }
        let other = serde_json::json!({"command": "npx", "args": ["x"]});
        assert_eq!(Launch::of_entry(&other), None);
        let more = serde_json::json!({"command": "planning-mcp-server", "env": {}});
        assert_eq!(Launch::of_entry(&more), None, "a key setup never writes");
    }

    #[test]
    fn messages_hide_a_connection_string_s_password() {
        for (url, shown) in [
            (
                "postgres://u:s3cret@h:5432/db",
                "postgres://u:***@h:5432/db",
            ),
            (
                "postgres://u:s3c@ret@h/db?sslmode=require",
                "postgres://u:***@h/db?sslmode=require",
            ),
            ("postgresql://u@h/db", "postgresql://u@h/db"),
            (
                "postgres://h/db?user=u&password=s3cret",
                "postgres://h/db?***",
            ),
            (
                "host=h user=u password=s3cret dbname=x",
                "host=h user=u ***",
            ),
            ("host=h PASSWORD='s 3cret'", "host=h ***"),
        ] {
            assert_eq!(without_password(url), shown, "{url}");
        }
        let launch = Launch::Stdio {
            command: PROGRAM.into(),
            args: [
                "--storage",
                "postgres",
                "--storage-url",
                "postgres://u:s3cret@h/db",
            ]
            .map(String::from)
            .to_vec(),
        };
        assert_eq!(
            launch.describe(),
            "runs `planning-mcp-server --storage postgres --storage-url 'postgres://u:***@h/db'`"
        );
        let launch = Launch::Stdio {
            command: PROGRAM.into(),
            args: vec!["--storage-url=postgres://u:s3cret@h/db".into()],
        };
        assert!(!launch.describe().contains("s3cret"));
    }

    #[test]
    fn shell_words_quote_what_the_shell_would_read() {
        assert_eq!(
            shell_word("/usr/bin/planning-mcp-server"),
            "/usr/bin/planning-mcp-server"
        );
        assert_eq!(shell_word("/my dir/x"), "'/my dir/x'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
