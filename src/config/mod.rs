// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Configuration in four tiers, lowest first: built-in defaults, the config
//! file, `PLANNING_<TABLE>_<KEY>` environment variables, command-line flags.
//! A bad value stops start-up with a message naming the key and its source.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use figment::providers::{Env, Format, Serialized, Toml};
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider, Source};
use serde::{Deserialize, Serialize};

use crate::toolsets::planning::domain::Limits;

/// The config file's name, in every directory searched.
pub const FILE_NAME: &str = "planning-mcp-server.toml";

/// The example config file that `--generate-config` writes: every key with its default.
pub const EXAMPLE: &str = include_str!("../../config/planning-mcp-server.toml");

/// The tables of the file; also the first word after `PLANNING_` in env names.
const TABLES: [&str; 5] = ["server", "logging", "planning", "storage", "plans"];

/// The toolsets a server can offer.
pub const TOOLSETS: [&str; 2] = ["planning", "plans"];

/// The transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// MCP over stdin/stdout; the client starts the server.
    Stdio,
    /// MCP Streamable HTTP at `/mcp`; all clients share one board.
    Http,
}

/// The least severe log events that are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Everything, including each refused tool call.
    Debug,
    /// Start-up and notable events.
    Info,
    /// Skipped duplicates and other oddities.
    Warn,
    /// Only failures.
    Error,
}

/// How log events are written to stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line.
    Json,
}

/// Where boards are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// In memory only, like the Go server: a restart loses the board.
    Memory,
    /// A JSON snapshot per board in `storage.dir`, written before each reply.
    File,
}

/// The whole configuration.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `[server]`
    pub server: ServerSettings,
    /// `[logging]`
    pub logging: LoggingSettings,
    /// `[planning]`
    pub planning: PlanningSettings,
    /// `[storage]`
    pub storage: StorageSettings,
    /// `[plans]`
    pub plans: PlansSettings,
}

/// `[server]`: the transport and where HTTP listens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerSettings {
    /// `stdio` or `http`.
    pub mode: Mode,
    /// The address to bind in HTTP mode.
    #[serde(deserialize_with = "lenient")]
    pub host: String,
    /// The port to bind in HTTP mode; 0 picks a free one.
    pub port: u16,
    /// The board served in stdio mode (HTTP serves every board at its own path).
    #[serde(deserialize_with = "lenient")]
    pub board: String,
    /// The most boards one server holds.
    pub max_boards: usize,
    /// The most concurrent HTTP sessions.
    pub max_sessions: usize,
    /// Seconds after which an idle HTTP session is closed.
    pub session_idle_timeout: u64,
    /// The bearer token every HTTP request must carry.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_option"
    )]
    pub auth_token: Option<Secret>,
    /// A file holding the token (read at start-up; surrounding whitespace ignored).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_option"
    )]
    pub auth_token_file: Option<PathBuf>,
    /// Allows a non-loopback address without a token.
    pub allow_unauthenticated: bool,
    /// Extra `Host` header values accepted besides loopback names.
    pub allowed_hosts: Vec<String>,
    /// Extra browser origins accepted besides loopback ones, e.g. `https://plan.example.com`.
    pub allowed_origins: Vec<String>,
    /// The toolsets offered: `planning` (the board) and/or `plans` (Markdown plan files).
    #[serde(deserialize_with = "list")]
    pub toolsets: Vec<String>,
}

impl ServerSettings {
    /// Whether toolset `name` is offered.
    pub fn offers(&self, name: &str) -> bool {
        self.toolsets.iter().any(|t| t == name)
    }
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            mode: Mode::Stdio,
            host: "localhost".into(),
            port: 8080,
            board: "default".into(),
            max_boards: 64,
            max_sessions: 256,
            session_idle_timeout: 1800,
            auth_token: None,
            auth_token_file: None,
            allow_unauthenticated: false,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            toolsets: vec!["planning".into()],
        }
    }
}

/// A value that must never be logged: `Debug` shows only that it is set.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// The secret itself, for the one place that compares it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for Secret {
    fn from(secret: String) -> Self {
        Self(secret)
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// `[logging]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoggingSettings {
    /// The least severe events written.
    pub level: LogLevel,
    /// Text or JSON.
    pub format: LogFormat,
}

impl Default for LoggingSettings {
    fn default() -> Self {
        Self {
            level: LogLevel::Info,
            format: LogFormat::Text,
        }
    }
}

/// `[planning]`: the board's limits and history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlanningSettings {
    /// The most tasks the board holds.
    pub max_tasks: usize,
    /// The longest goal title and goal description, in characters.
    pub max_goal_length: usize,
    /// The longest task title and task description, in characters.
    pub max_task_length: usize,
    /// Whether goal and status changes are recorded.
    pub history_enabled: bool,
}

impl Default for PlanningSettings {
    fn default() -> Self {
        let limits = Limits::default();
        Self {
            max_tasks: limits.max_tasks,
            max_goal_length: limits.max_goal_length,
            max_task_length: limits.max_task_length,
            history_enabled: true,
        }
    }
}

impl PlanningSettings {
    /// The board limits these settings set.
    pub fn limits(&self) -> Limits {
        Limits {
            max_tasks: self.max_tasks,
            max_goal_length: self.max_goal_length,
            max_task_length: self.max_task_length,
        }
    }
}

/// `[plans]`: where toolset `plans` keeps its Markdown plan files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlansSettings {
    /// The root that plan paths may not leave, relative to the working directory.
    #[serde(deserialize_with = "lenient")]
    pub root: PathBuf,
    /// The plans directory, relative to the root.
    #[serde(deserialize_with = "lenient")]
    pub dir: String,
    /// Whether `doc.validate` and `doc.repair` are offered too.
    pub legacy_doc_tools: bool,
}

impl Default for PlansSettings {
    fn default() -> Self {
        Self {
            root: PathBuf::from("."),
            dir: crate::toolsets::plans::store::DEFAULT_PLANS_DIR.into(),
            legacy_doc_tools: false,
        }
    }
}

/// Reads a list setting given as a list or, as environment variables give
/// it, as comma-separated text (`planning,plans`).
fn list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Text(String),
        List(Vec<String>),
    }
    Ok(match Either::deserialize(d)? {
        Either::Text(text) => text
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
        Either::List(list) => list,
    })
}

/// `[storage]`: optional persistence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StorageSettings {
    /// `memory` (the default) or `file`.
    pub backend: Backend,
    /// The directory of the board files, relative to the working directory.
    #[serde(deserialize_with = "lenient")]
    pub dir: PathBuf,
    /// Whether each save waits for the disk (fsync of the file and the directory).
    pub fsync: bool,
}

impl Default for StorageSettings {
    fn default() -> Self {
        Self {
            backend: Backend::Memory,
            dir: PathBuf::from(".planning-mcp-server"),
            fsync: true,
        }
    }
}

/// Reads a text setting. Environment values are typed by their look, so
/// `PLANNING_SERVER_BOARD=2024` arrives as a number: take it as its text.
fn lenient<'de, D: serde::Deserializer<'de>, T: From<String>>(d: D) -> Result<T, D::Error> {
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = String;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
        fn visit_u64<E>(self, v: u64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_i64<E>(self, v: i64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_f64<E>(self, v: f64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_bool<E>(self, v: bool) -> Result<String, E> {
            Ok(v.to_string())
        }
    }
    d.deserialize_any(Text).map(T::from)
}

/// [`lenient`] for an optional setting.
fn lenient_option<'de, D: serde::Deserializer<'de>, T: From<String>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    lenient(d).map(Some)
}

/// The flags that form the top tier of the configuration.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ConfigFlags {
    /// Transport [config: server.mode]
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,
    /// Address to listen on in http mode [config: server.host]
    #[arg(long)]
    pub host: Option<String>,
    /// Port to listen on in http mode, 0 for any free port [config: server.port]
    #[arg(long)]
    pub port: Option<u16>,
    /// Read this config file instead of searching for one (it must exist)
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Least severe log events written to stderr [config: logging.level]
    #[arg(long, value_enum)]
    pub log_level: Option<LogLevel>,
    /// Where boards are kept: memory, or file to survive restarts [config: storage.backend]
    #[arg(long, value_enum, value_name = "BACKEND")]
    pub storage: Option<Backend>,
    /// Directory of the board files with --storage file [config: storage.dir]
    #[arg(long, value_name = "PATH")]
    pub storage_dir: Option<PathBuf>,
    /// Board served in stdio mode [config: server.board]
    #[arg(long, value_name = "NAME")]
    pub board: Option<String>,
    /// Toolsets to offer, comma-separated: planning, plans [config: server.toolsets]
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub toolsets: Option<Vec<String>>,
    /// Root directory of the plans toolset [config: plans.root]
    #[arg(long, value_name = "PATH")]
    pub plans_root: Option<PathBuf>,
    /// Plans directory, relative to the plans root [config: plans.dir]
    #[arg(long, value_name = "PATH")]
    pub plans_dir: Option<String>,
}

/// A configuration and the file it was read from, if any.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The merged configuration.
    pub config: Config,
    /// The config file that was read.
    pub file: Option<PathBuf>,
}

/// Why the configuration could not be loaded or written.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--config` names a file that is not there.
    #[error("the config file {0} (given by --config) does not exist")]
    MissingFile(PathBuf),
    /// Values that do not parse or do not make sense, one line each.
    #[error("invalid configuration:\n{}", .0.join("\n"))]
    Invalid(Vec<String>),
    /// `--generate-config` found a file in its way.
    #[error("{0} already exists; remove it or edit it instead")]
    AlreadyExists(PathBuf),
    /// `--generate-config` could not write.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file being written.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// Loads the configuration: defaults, then the config file (the one named
/// by `--config`, else the first found in the search path), then
/// `PLANNING_*` environment variables, then the flags.
pub fn load(flags: &ConfigFlags) -> Result<Loaded, ConfigError> {
    let file = match &flags.config {
        Some(path) if !path.is_file() => return Err(ConfigError::MissingFile(path.clone())),
        Some(path) => Some(path.clone()),
        None => search_path().into_iter().find(|path| path.is_file()),
    };
    // Absolute, so that messages and the start-up log say which file it was.
    let file = file.map(|path| std::path::absolute(&path).unwrap_or(path));
    let mut figment = Figment::from(Serialized::defaults(Config::default()));
    if let Some(path) = &file {
        figment = figment.merge(Toml::file_exact(path));
    }
    let figment = figment.merge(environment()).merge(FlagValues::from(flags));
    let mut config: Config = figment
        .extract()
        .map_err(|error| ConfigError::Invalid(error.into_iter().map(|e| describe(&e)).collect()))?;
    validate(&config, &figment)?;
    read_token_file(&mut config.server, &figment)?;
    Ok(Loaded { config, file })
}

/// Where a config file is looked for, in order.
pub fn search_path() -> Vec<PathBuf> {
    let mut paths = vec![PathBuf::from(".").join(FILE_NAME)];
    if let Some(home) = std::env::var_os("HOME") {
        paths.push(
            PathBuf::from(home)
                .join(".config/planning-mcp-server")
                .join(FILE_NAME),
        );
    }
    paths.push(PathBuf::from("/etc/planning-mcp-server").join(FILE_NAME));
    paths
}

/// Writes [`EXAMPLE`] to `dir/planning-mcp-server.toml`, never over an existing file.
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
    file.write_all(EXAMPLE.as_bytes()).map_err(write_error)?;
    Ok(path)
}

/// `PLANNING_<TABLE>_<KEY>` for the known tables; other `PLANNING_*`
/// variables belong to someone else and are left alone.
fn environment() -> Env {
    Env::prefixed("PLANNING_").filter_map(|key| {
        let key = key.as_str().to_ascii_lowercase();
        let (table, rest) = key.split_once('_')?;
        TABLES
            .contains(&table)
            .then(|| format!("{table}.{rest}").into())
    })
}

/// The name of the provider that holds the flags, so errors can name them.
const FLAGS_NAME: &str = "command-line flags";

/// The flags as a figment provider; only flags that were given are set.
struct FlagValues(Dict);

impl From<&ConfigFlags> for FlagValues {
    fn from(flags: &ConfigFlags) -> Self {
        let mut dict = Dict::new();
        let mut set = |table: &str, key: &str, value: Value| {
            let entry = dict
                .entry(table.to_owned())
                .or_insert_with(|| Dict::new().into());
            if let Value::Dict(_, inner) = entry {
                inner.insert(key.to_owned(), value);
            }
        };
        if let Some(mode) = flags.mode {
            set(
                "server",
                "mode",
                Value::serialize(mode).expect("an enum serializes"),
            );
        }
        if let Some(host) = &flags.host {
            set("server", "host", host.clone().into());
        }
        if let Some(port) = flags.port {
            set("server", "port", port.into());
        }
        if let Some(board) = &flags.board {
            set("server", "board", board.clone().into());
        }
        if let Some(level) = flags.log_level {
            set(
                "logging",
                "level",
                Value::serialize(level).expect("an enum serializes"),
            );
        }
        if let Some(backend) = flags.storage {
            set(
                "storage",
                "backend",
                Value::serialize(backend).expect("an enum serializes"),
            );
        }
        if let Some(toolsets) = &flags.toolsets {
            set("server", "toolsets", toolsets.clone().into());
        }
        if let Some(root) = &flags.plans_root {
            set("plans", "root", root.display().to_string().into());
        }
        if let Some(dir) = &flags.plans_dir {
            set("plans", "dir", dir.clone().into());
        }
        if let Some(dir) = &flags.storage_dir {
            set("storage", "dir", dir.display().to_string().into());
        }
        Self(dict)
    }
}

impl Provider for FlagValues {
    fn metadata(&self) -> Metadata {
        Metadata::named(FLAGS_NAME)
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        Ok(Profile::Default.collect(self.0.clone()))
    }
}

/// The flag that sets a config key.
fn flag_for(key: &str) -> &'static str {
    match key {
        "server.mode" => "--mode",
        "server.host" => "--host",
        "server.port" => "--port",
        "server.board" => "--board",
        "logging.level" => "--log-level",
        "storage.backend" => "--storage",
        "storage.dir" => "--storage-dir",
        "server.toolsets" => "--toolsets",
        "plans.root" => "--plans-root",
        "plans.dir" => "--plans-dir",
        _ => "a flag",
    }
}

/// Names where the value of `key` came from.
fn source_of(key: &str, metadata: Option<&Metadata>) -> String {
    match metadata {
        Some(md) if md.name == FLAGS_NAME => format!("the {} flag", flag_for(key)),
        Some(md) => match &md.source {
            Some(Source::File(path)) => format!("the config file {}", path.display()),
            _ if md.name.contains("environment") => format!(
                "the environment variable PLANNING_{}",
                key.replace('.', "_").to_ascii_uppercase()
            ),
            _ => md.name.to_string(),
        },
        None => "the built-in defaults".into(),
    }
}

/// One line for one extraction error: the key, where it came from, what is wrong.
fn describe(error: &figment::Error) -> String {
    let key = error.path.join(".");
    let source = source_of(&key, error.metadata.as_ref());
    if key.is_empty() {
        format!("{source}: {}", error.kind)
    } else {
        format!("{key} (from {source}): {}", error.kind)
    }
}

/// Reads `server.auth_token_file` into `server.auth_token`.
fn read_token_file(server: &mut ServerSettings, figment: &Figment) -> Result<(), ConfigError> {
    let Some(path) = &server.auth_token_file else {
        return Ok(());
    };
    let key = "server.auth_token_file";
    let problem = |what: String| {
        let source = source_of(key, figment.find_metadata(key));
        ConfigError::Invalid(vec![format!("{key} (from {source}): {what}")])
    };
    if server.auth_token.is_some() {
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
    server.auth_token = Some(Secret(token.to_owned()));
    Ok(())
}

/// Checks what types cannot: limits of at least one, a host to bind.
fn validate(config: &Config, figment: &Figment) -> Result<(), ConfigError> {
    let planning = &config.planning;
    let mut problems = Vec::new();
    let mut require = |ok: bool, key: &str, what: &str| {
        if !ok {
            let source = source_of(key, figment.find_metadata(key));
            problems.push(format!("{key} (from {source}): {what}"));
        }
    };
    require(
        planning.max_tasks >= 1,
        "planning.max_tasks",
        "must be at least 1",
    );
    require(
        planning.max_goal_length >= 1,
        "planning.max_goal_length",
        "must be at least 1",
    );
    require(
        planning.max_task_length >= 1,
        "planning.max_task_length",
        "must be at least 1",
    );
    require(
        !config.server.host.trim().is_empty(),
        "server.host",
        "must name an address, e.g. localhost",
    );
    let server = &config.server;
    require(
        crate::toolsets::planning::boards::BoardName::parse(&server.board).is_some(),
        "server.board",
        "must match ^[a-z0-9][a-z0-9_-]{0,63}$, e.g. default",
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
    require(
        !config.storage.dir.as_os_str().is_empty(),
        "storage.dir",
        "must name a directory, e.g. .planning-mcp-server",
    );
    let unknown: Vec<&str> = server
        .toolsets
        .iter()
        .map(String::as_str)
        .filter(|t| !TOOLSETS.contains(t))
        .collect();
    require(
        unknown.is_empty(),
        "server.toolsets",
        &format!(
            "unknown toolset {}; the toolsets are {}",
            unknown
                .iter()
                .map(|t| format!("'{t}'"))
                .collect::<Vec<_>>()
                .join(", "),
            TOOLSETS.join(", ")
        ),
    );
    require(
        !server.toolsets.is_empty(),
        "server.toolsets",
        "must name at least one toolset: planning, plans",
    );
    require(
        !config.plans.root.as_os_str().is_empty(),
        "plans.root",
        "must name a directory, e.g. .",
    );
    require(
        !config.plans.dir.trim().is_empty(),
        "plans.dir",
        "must name a directory, e.g. .long-term-plan",
    );
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ConfigError::Invalid(problems))
    }
}

#[cfg(test)]
// figment's Jail closures return figment::Error, which is large; fine in tests.
#[allow(clippy::result_large_err)]
mod tests {
    use figment::Jail;

    use super::*;

    fn invalid(result: Result<Loaded, ConfigError>) -> String {
        match result {
            Err(ConfigError::Invalid(lines)) => lines.join("\n"),
            other => panic!("expected an invalid configuration, got {other:?}"),
        }
    }

    #[test]
    fn defaults_without_file_env_or_flags() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            let loaded = load(&ConfigFlags::default()).unwrap();
            assert_eq!(loaded.config, Config::default());
            assert_eq!(loaded.file, None);
            assert_eq!(loaded.config.server.host, "localhost");
            assert_eq!(loaded.config.server.port, 8080);
            assert_eq!(loaded.config.planning.limits(), Limits::default());
            Ok(())
        });
    }

    #[test]
    fn the_example_file_holds_the_defaults() {
        let parsed: Config = Figment::from(Toml::string(EXAMPLE)).extract().unwrap();
        assert_eq!(parsed, Config::default());
    }

    #[test]
    fn file_then_env_then_flags() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            jail.create_file(
                FILE_NAME,
                "[server]\nmode = 'http'\nport = 1111\nhost = '127.0.0.1'\n[planning]\nmax_tasks = 7\n",
            )?;
            let from_file = load(&ConfigFlags::default()).unwrap();
            assert_eq!(from_file.file, Some(jail.directory().join(FILE_NAME)));
            assert_eq!(from_file.config.server.mode, Mode::Http);
            assert_eq!(from_file.config.server.port, 1111);
            assert_eq!(from_file.config.planning.max_tasks, 7);

            jail.set_env("PLANNING_SERVER_PORT", "2222");
            jail.set_env("PLANNING_SERVER_BOARD", "2024");
            jail.set_env("PLANNING_SERVER_AUTH_TOKEN", "12345");
            jail.set_env("PLANNING_PLANNING_MAX_TASKS", "8");
            jail.set_env("PLANNING_LOGGING_FORMAT", "json");
            jail.set_env("PLANNING_UNRELATED", "ignored");
            let from_env = load(&ConfigFlags::default()).unwrap();
            assert_eq!(from_env.config.server.port, 2222);
            assert_eq!(
                from_env.config.server.board, "2024",
                "a number-like name is a name"
            );
            assert_eq!(
                from_env.config.server.auth_token,
                Some(Secret("12345".into()))
            );
            assert_eq!(from_env.config.server.host, "127.0.0.1", "file value kept");
            assert_eq!(from_env.config.planning.max_tasks, 8);
            assert_eq!(from_env.config.logging.format, LogFormat::Json);

            let flags = ConfigFlags {
                port: Some(3333),
                mode: Some(Mode::Stdio),
                log_level: Some(LogLevel::Debug),
                ..ConfigFlags::default()
            };
            let from_flags = load(&flags).unwrap();
            assert_eq!(from_flags.config.server.port, 3333);
            assert_eq!(from_flags.config.storage, StorageSettings::default());
            assert_eq!(from_flags.config.server.mode, Mode::Stdio);
            assert_eq!(from_flags.config.logging.level, LogLevel::Debug);
            assert_eq!(from_flags.config.planning.max_tasks, 8, "env value kept");
            Ok(())
        });
    }

    #[test]
    fn storage_from_file_env_and_flags() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            jail.create_file(
                FILE_NAME,
                "[storage]\nbackend = 'file'\ndir = 'from-file'\n",
            )?;
            let from_file = load(&ConfigFlags::default()).unwrap().config.storage;
            assert_eq!(from_file.backend, Backend::File);
            assert_eq!(from_file.dir, PathBuf::from("from-file"));
            assert!(from_file.fsync);

            jail.set_env("PLANNING_STORAGE_DIR", "from-env");
            jail.set_env("PLANNING_STORAGE_FSYNC", "false");
            jail.set_env("PLANNING_STORAGE_BACKEND", "memory");
            let from_env = load(&ConfigFlags::default()).unwrap().config.storage;
            assert_eq!(
                (from_env.backend, from_env.dir, from_env.fsync),
                (Backend::Memory, PathBuf::from("from-env"), false)
            );

            let flags = ConfigFlags {
                storage: Some(Backend::File),
                storage_dir: Some("from-flag".into()),
                ..ConfigFlags::default()
            };
            let from_flags = load(&flags).unwrap().config.storage;
            assert_eq!(
                (from_flags.backend, from_flags.dir),
                (Backend::File, PathBuf::from("from-flag"))
            );

            jail.set_env("PLANNING_STORAGE_BACKEND", "sqlite");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.starts_with(
                    "storage.backend (from the environment variable PLANNING_STORAGE_BACKEND)"
                ),
                "{error}"
            );
            jail.set_env("PLANNING_STORAGE_BACKEND", "file");
            let flags = ConfigFlags {
                storage_dir: Some("".into()),
                ..ConfigFlags::default()
            };
            let error = invalid(load(&flags));
            assert_eq!(
                error,
                "storage.dir (from the --storage-dir flag): must name a directory, e.g. .planning-mcp-server"
            );
            Ok(())
        });
    }

    #[test]
    fn search_order_and_explicit_file() {
        Jail::expect_with(|jail| {
            let home = jail.directory().join("home");
            jail.set_env("HOME", home.display());
            jail.create_dir("home/.config/planning-mcp-server")?;
            jail.create_file(
                format!("home/.config/planning-mcp-server/{FILE_NAME}"),
                "[server]\nport = 4444\n",
            )?;
            let from_home = load(&ConfigFlags::default()).unwrap();
            assert_eq!(from_home.config.server.port, 4444);
            assert!(from_home.file.unwrap().starts_with(&home));

            jail.create_file(FILE_NAME, "[server]\nport = 5555\n")?;
            assert_eq!(
                load(&ConfigFlags::default()).unwrap().config.server.port,
                5555
            );

            jail.create_file("other.toml", "[server]\nport = 6666\n")?;
            let explicit = ConfigFlags {
                config: Some("other.toml".into()),
                ..ConfigFlags::default()
            };
            assert_eq!(load(&explicit).unwrap().config.server.port, 6666);

            let missing = ConfigFlags {
                config: Some("missing.toml".into()),
                ..ConfigFlags::default()
            };
            let error = load(&missing).unwrap_err().to_string();
            assert_eq!(
                error,
                "the config file missing.toml (given by --config) does not exist"
            );
            Ok(())
        });
    }

    #[test]
    fn bad_values_name_the_key_and_the_file() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            jail.create_file(FILE_NAME, "[server]\nmode = 'tcp'\nport = 'eighty'\n")?;
            let error = invalid(load(&ConfigFlags::default()));
            let file = jail.directory().join(FILE_NAME);
            assert!(
                error.contains(&format!(
                    "server.mode (from the config file {})",
                    file.display()
                )),
                "{error}"
            );
            assert!(error.contains("unknown variant: found `tcp`"), "{error}");

            jail.create_file(FILE_NAME, "[server]\nport = 'eighty'\n")?;
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.starts_with("server.port (from the config file"),
                "{error}"
            );
            assert!(error.contains("invalid type"), "{error}");

            jail.create_file(FILE_NAME, "[planning]\nmax_task = 5\n")?;
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.starts_with("planning.max_task (from the config file"),
                "{error}"
            );
            assert!(error.contains("unknown field: found `max_task`"), "{error}");

            jail.create_file(FILE_NAME, "[server\nport = 1\n")?;
            let error = invalid(load(&ConfigFlags::default()));
            assert!(error.contains(&file.display().to_string()), "{error}");
            Ok(())
        });
    }

    #[test]
    fn bad_env_values_name_the_variable() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            jail.set_env("PLANNING_SERVER_PORT", "70000");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.starts_with(
                    "server.port (from the environment variable PLANNING_SERVER_PORT)"
                ),
                "{error}"
            );
            assert!(error.contains("70000"), "{error}");

            jail.set_env("PLANNING_SERVER_PORT", "8080");
            jail.set_env("PLANNING_LOGGING_LEVEL", "verbose");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.starts_with(
                    "logging.level (from the environment variable PLANNING_LOGGING_LEVEL)"
                ),
                "{error}"
            );

            jail.set_env("PLANNING_LOGGING_LEVEL", "warn");
            jail.set_env("PLANNING_PLANNING_HISTORY_ENABLED", "maybe");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.contains("PLANNING_PLANNING_HISTORY_ENABLED"),
                "{error}"
            );

            jail.set_env("PLANNING_PLANNING_HISTORY_ENABLED", "false");
            jail.set_env("PLANNING_SERVER_COLOUR", "blue");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.starts_with(
                    "server.colour (from the environment variable PLANNING_SERVER_COLOUR)"
                ),
                "{error}"
            );
            Ok(())
        });
    }

    #[test]
    fn values_that_make_no_sense_name_their_source() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            jail.create_file(FILE_NAME, "[planning]\nmax_task_length = 0\n")?;
            jail.set_env("PLANNING_PLANNING_MAX_TASKS", "0");
            let flags = ConfigFlags {
                host: Some(" ".into()),
                ..ConfigFlags::default()
            };
            let error = invalid(load(&flags));
            let lines: Vec<&str> = error.lines().collect();
            assert_eq!(lines.len(), 3, "{error}");
            assert_eq!(
                lines[0],
                "planning.max_tasks (from the environment variable PLANNING_PLANNING_MAX_TASKS): must be at least 1"
            );
            assert!(lines[1].starts_with("planning.max_task_length (from the config file"));
            assert_eq!(
                lines[2],
                "server.host (from the --host flag): must name an address, e.g. localhost"
            );
            jail.set_env("PLANNING_PLANNING_MAX_GOAL_LENGTH", "-1");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(
                error.contains("PLANNING_PLANNING_MAX_GOAL_LENGTH"),
                "{error}"
            );
            Ok(())
        });
    }

    #[test]
    fn tokens_come_from_a_file_and_never_show_in_debug_output() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            jail.create_file("token", "  hunter2-token\n")?;
            jail.set_env("PLANNING_SERVER_AUTH_TOKEN_FILE", "token");
            let config = load(&ConfigFlags::default()).unwrap().config;
            assert_eq!(
                config.server.auth_token.as_ref().map(Secret::expose),
                Some("hunter2-token")
            );
            assert!(!format!("{config:?}").contains("hunter2"), "{config:?}");

            jail.create_file("token", "\n")?;
            let error = invalid(load(&ConfigFlags::default()));
            assert!(error.contains("token holds no token"), "{error}");

            jail.set_env("PLANNING_SERVER_AUTH_TOKEN_FILE", "missing");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(error.contains("cannot read missing"), "{error}");

            jail.set_env("PLANNING_SERVER_AUTH_TOKEN", "also");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(error.contains("set only one of them"), "{error}");
            Ok(())
        });
    }

    #[test]
    fn toolsets_and_plans_from_every_tier() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            let defaults = load(&ConfigFlags::default()).unwrap().config;
            assert_eq!(defaults.server.toolsets, ["planning"]);
            assert_eq!(defaults.plans, PlansSettings::default());

            jail.create_file(
                FILE_NAME,
                "[server]\ntoolsets = ['plans']\n[plans]\nroot = 'repo'\nlegacy_doc_tools = true\n",
            )?;
            let from_file = load(&ConfigFlags::default()).unwrap().config;
            assert_eq!(from_file.server.toolsets, ["plans"]);
            assert_eq!(from_file.plans.root, PathBuf::from("repo"));
            assert!(from_file.plans.legacy_doc_tools);

            jail.set_env("PLANNING_SERVER_TOOLSETS", "planning, plans");
            jail.set_env("PLANNING_PLANS_DIR", "docs/plans");
            jail.set_env("PLANNING_PLANS_ROOT", "2024");
            let from_env = load(&ConfigFlags::default()).unwrap().config;
            assert_eq!(from_env.server.toolsets, ["planning", "plans"]);
            assert_eq!(from_env.plans.dir, "docs/plans");
            assert_eq!(from_env.plans.root, PathBuf::from("2024"));

            let flags = ConfigFlags {
                toolsets: Some(vec!["plans".into()]),
                plans_dir: Some("p".into()),
                plans_root: Some("r".into()),
                ..ConfigFlags::default()
            };
            let from_flags = load(&flags).unwrap().config;
            assert_eq!(from_flags.server.toolsets, ["plans"]);
            assert_eq!(
                (from_flags.plans.root, from_flags.plans.dir),
                (PathBuf::from("r"), "p".into())
            );

            jail.set_env("PLANNING_SERVER_TOOLSETS", "planning,boards");
            let error = invalid(load(&ConfigFlags::default()));
            assert_eq!(
                error,
                "server.toolsets (from the environment variable PLANNING_SERVER_TOOLSETS): unknown toolset 'boards'; the toolsets are planning, plans"
            );
            jail.set_env("PLANNING_SERVER_TOOLSETS", "planning");
            let flags = ConfigFlags {
                toolsets: Some(vec!["nope".into()]),
                ..ConfigFlags::default()
            };
            let error = invalid(load(&flags));
            assert!(
                error.starts_with(
                    "server.toolsets (from the --toolsets flag): unknown toolset 'nope'"
                ),
                "{error}"
            );
            jail.create_file(FILE_NAME, "[server]\ntoolsets = []\n")?;
            jail.set_env("PLANNING_SERVER_TOOLSETS", "");
            let error = invalid(load(&ConfigFlags::default()));
            assert!(error.contains("must name at least one toolset"), "{error}");
            Ok(())
        });
    }

    #[test]
    fn generate_writes_the_example_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = generate(dir.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), EXAMPLE);
        std::fs::write(&path, "mine").unwrap();
        assert!(matches!(
            generate(dir.path()),
            Err(ConfigError::AlreadyExists(_))
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    }
}
