// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Configuration in four tiers, lowest first: built-in defaults, the config
//! file, `PLANNING_<TABLE>_<KEY>` environment variables, command-line flags.
//! The server's own tables are `[server]` and `[logging]` (`server`); every
//! other table, and its flags, belongs to a toolset of the registry. A bad
//! value stops start-up with a message naming the key and its source.

mod example;
mod flags;
mod server;
pub mod subcommand;

use std::path::PathBuf;
use std::sync::Arc;

use figment::Figment;
use figment::providers::{Env, Format, Toml};
use figment::value::Dict;

#[cfg(test)]
pub(crate) use example::example_of;
pub use example::generate;
pub use flags::ConfigFlags;
#[cfg(test)]
pub(crate) use server::FLAGS as SERVER_FLAGS;
pub use server::Mode;
pub(crate) use server::ServerSettings;

pub(crate) use crate::runtime::logging::LoggingSettings;

use crate::server::settings::Settings;
use crate::server::toolset::Toolset;
use crate::server::{Enabled, Registry};
use crate::toolsets::REGISTRY;

/// The config file's name, in every directory searched.
pub(crate) const FILE_NAME: &str = "planning-mcp-server.toml";

/// The server's own tables.
pub(crate) const SERVER_TABLES: [&str; 2] = ["server", "logging"];

/// The whole configuration.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// `[server]`
    pub server: ServerSettings,
    /// `[logging]`
    pub logging: LoggingSettings,
    /// The toolsets `[server] toolsets` enables, configured from their tables.
    pub toolsets: Enabled,
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

/// Loads the configuration: the tiers (see [`tiers`]), then the server's
/// tables and every registered toolset's, each checked; the toolsets
/// `[server] toolsets` names are kept, in registry order.
pub fn load(flags: &ConfigFlags) -> Result<Loaded, ConfigError> {
    load_with(REGISTRY, flags)
}

/// [`load`] with the toolsets of `registry` (tests add one).
pub(crate) fn load_with(
    registry: Registry<'_>,
    flags: &ConfigFlags,
) -> Result<Loaded, ConfigError> {
    let (figment, file) = tiers_with(registry, flags)?;
    let all_flags = ConfigFlags::all_of(registry);
    let settings = Settings::new(&figment, &all_flags, 0);
    // A file that does not parse fails every table alike: say it once.
    let tables: Dict = figment.extract().map_err(|errors| {
        ConfigError::Invalid(
            errors
                .into_iter()
                .map(|e| settings.describe("", &e))
                .collect(),
        )
    })?;
    let mut problems = unknown_tables(registry, &tables, &settings);
    let names: Vec<&str> = registry.names().collect();
    let server = keep(&mut problems, ServerSettings::read(&settings, &names));
    let logging = keep(&mut problems, settings.table::<LoggingSettings>("logging"));
    let defaults = ServerSettings::default();
    let offered = server.as_ref().unwrap_or(&defaults);
    let offers = |name: &str| offered.toolsets.iter().any(|offered| offered == name);
    let mut configured: Vec<Arc<dyn Toolset>> = Vec::new();
    let mut toolsets = Vec::new();
    let needed = to_configure(registry, &offers, &tables);
    for kind in registry.kinds() {
        for required in kind.requires() {
            if offers(kind.name()) && !offers(required) {
                problems.push(settings.problem(
                    "server.toolsets",
                    &format!(
                        "toolset '{}' works on toolset '{required}': enable both, e.g. {required},{}",
                        kind.name(),
                        kind.name()
                    ),
                ));
            }
        }
        if !needed.contains(&kind.name()) {
            continue;
        }
        // A toolset whose requirements failed to configure is not checked:
        // their problems are reported already.
        let ready = kind
            .requires()
            .iter()
            .all(|name| configured.iter().any(|t| t.name() == *name));
        if !ready {
            continue;
        }
        let settings = Settings::new(&figment, &all_flags, offered.max_boards)
            .with_lock_timeout(offered.lock_timeout.duration())
            .with_offered(&offered.toolsets)
            .with_configured(&configured);
        if let Some(toolset) = keep(&mut problems, kind.configure(&settings)) {
            if offers(kind.name()) {
                toolsets.push(toolset.clone());
            }
            configured.push(toolset);
        }
    }
    let toolsets = Enabled::new(toolsets);
    if let Err(problem) = toolsets.check_instructions() {
        problems.push(problem);
    }
    match (server, logging) {
        (Some(server), Some(logging)) if problems.is_empty() => Ok(Loaded {
            config: Config {
                server,
                logging,
                toolsets,
            },
            file,
        }),
        _ => Err(ConfigError::Invalid(problems)),
    }
}

/// The toolsets to configure: the enabled ones, those that were given a
/// value in `tables` (so that a wrong one is reported while the toolset is
/// off), and the ones these work on. Configuring the others would check
/// only their defaults, and cost every start-up (a tenth of its own work).
fn to_configure(
    registry: Registry<'_>,
    offers: &dyn Fn(&str) -> bool,
    tables: &Dict,
) -> Vec<&'static str> {
    let kinds: Vec<_> = registry.kinds().collect();
    let mut needed: Vec<&'static str> = Vec::new();
    // A toolset comes after the ones it works on: from the last one back,
    // each needed toolset adds those.
    for kind in kinds.into_iter().rev() {
        let given = kind
            .tables()
            .iter()
            .any(|table| tables.contains_key(*table));
        if offers(kind.name()) || given || needed.contains(&kind.name()) {
            for name in std::iter::once(kind.name()).chain(kind.requires().iter().copied()) {
                if !needed.contains(&name) {
                    needed.push(name);
                }
            }
        }
    }
    needed
}

/// The value of `result`, or `None` with its problems added to `problems`.
fn keep<T>(problems: &mut Vec<String>, result: Result<T, Vec<String>>) -> Option<T> {
    result.map_err(|more| problems.extend(more)).ok()
}

/// The tiers merged (tests): the config file (the one named by `--config`, else
/// the first found in the search path), then `PLANNING_*` environment
/// variables, then the flags. Defaults are each table's own.
#[cfg(test)]
pub(crate) fn tiers(flags: &ConfigFlags) -> Result<(Figment, Option<PathBuf>), ConfigError> {
    tiers_with(REGISTRY, flags)
}

/// [`tiers`] with the tables of `registry`'s toolsets.
pub(crate) fn tiers_with(
    registry: Registry<'_>,
    flags: &ConfigFlags,
) -> Result<(Figment, Option<PathBuf>), ConfigError> {
    let file = match &flags.config {
        Some(path) if !path.is_file() => return Err(ConfigError::MissingFile(path.clone())),
        Some(path) => Some(path.clone()),
        None => search_path().into_iter().find(|path| path.is_file()),
    };
    // Absolute, so that messages and the start-up log say which file it was.
    let file = file.map(|path| std::path::absolute(&path).unwrap_or(path));
    let mut figment = Figment::new();
    if let Some(path) = &file {
        figment = figment.merge(Toml::file_exact(path));
    }
    let figment = figment.merge(environment(registry)).merge(flags.provider());
    Ok((figment, file))
}

/// Where a config file is looked for, in order.
pub(crate) fn search_path() -> Vec<PathBuf> {
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

/// Every table: the server's, then each toolset's.
pub(crate) fn known_tables(registry: Registry<'_>) -> Vec<&'static str> {
    SERVER_TABLES.into_iter().chain(registry.tables()).collect()
}

/// One line for each table that no one owns.
fn unknown_tables(registry: Registry<'_>, tables: &Dict, settings: &Settings<'_>) -> Vec<String> {
    let known = known_tables(registry);
    tables
        .keys()
        .filter(|table| !known.contains(&table.as_str()))
        .map(|table| {
            let what = format!("unknown table; the tables are {}", known.join(", "));
            settings.problem(table, &what)
        })
        .collect()
}

/// `PLANNING_<TABLE>_<KEY>` for the known tables; other `PLANNING_*`
/// variables belong to someone else and are left alone.
fn environment(registry: Registry<'_>) -> Env {
    let known = known_tables(registry);
    Env::prefixed("PLANNING_").filter_map(move |key| {
        let key = key.as_str().to_ascii_lowercase();
        let (table, rest) = table_and_key(&known, &key)?;
        Some(format!("{table}.{rest}").into())
    })
}

/// The table and key that variable `name` (`<table>_<key>`, lowercase,
/// without `PLANNING_`) sets: the known table it starts with, followed by
/// `_` and a key. A table's name may hold `_` (`code_review`): no table is
/// another's name followed by `_` (the registry's tests check it), so at
/// most one table matches.
fn table_and_key<'k>(known: &[&'static str], name: &'k str) -> Option<(&'static str, &'k str)> {
    known.iter().find_map(|&table| {
        let key = name.strip_prefix(table)?.strip_prefix('_')?;
        Some((table, key))
    })
}

#[cfg(test)]
// figment's Jail closures return figment::Error, which is large; fine in tests.
#[allow(clippy::result_large_err)]
mod tests {
    use figment::Jail;

    use super::*;
    use crate::runtime::logging::{LogFormat, LogLevel};
    use crate::server::BoardName;
    use crate::server::secret::Secret;
    use crate::toolsets::planning::config::{Backend, BoardSettings, StorageSettings};
    use crate::toolsets::planning::domain::Limits;
    use crate::toolsets::plans::config::PlansSettings;

    fn flags(args: &[&str]) -> ConfigFlags {
        ConfigFlags::parse(args).unwrap()
    }

    /// Toolset `planning`'s settings as `flags` and the other tiers set them.
    fn boards(flags: &ConfigFlags) -> BoardSettings {
        let (figment, _) = tiers(flags).unwrap();
        let all = ConfigFlags::all();
        BoardSettings::read(&Settings::new(&figment, &all, 64)).unwrap()
    }

    /// Toolset `plans`' settings as `flags` and the other tiers set them.
    fn plans(flags: &ConfigFlags) -> PlansSettings {
        let (figment, _) = tiers(flags).unwrap();
        let all = ConfigFlags::all();
        PlansSettings::read(&Settings::new(&figment, &all, 64)).unwrap()
    }

    fn invalid(result: Result<Loaded, ConfigError>) -> String {
        match result {
            Err(ConfigError::Invalid(lines)) => lines.join("\n"),
            other => panic!("expected an invalid configuration, got {other:?}"),
        }
    }

    /// Only the toolsets that are on, or were given a value, or are worked
    /// on by one of these, are configured at start-up.
    #[test]
    fn toolsets_that_are_off_are_configured_only_when_given_a_value() {
        let given = |names: &[&str]| -> Dict {
            names
                .iter()
                .map(|name| ((*name).to_owned(), Dict::new().into()))
                .collect()
        };
        let on = |names: &'static [&'static str]| move |name: &str| names.contains(&name);
        let mut needed = to_configure(REGISTRY, &on(&["planning"]), &given(&[]));
        assert_eq!(needed, ["planning"]);
        needed = to_configure(
            REGISTRY,
            &on(&["planning"]),
            &given(&["workflow", "server"]),
        );
        needed.sort_unstable();
        assert_eq!(needed, ["planning", "workflow"]);
        // Toolset team works on planning's boards: it brings planning along.
        needed = to_configure(REGISTRY, &on(&["plans"]), &given(&["notify"]));
        needed.sort_unstable();
        assert_eq!(needed, ["planning", "plans", "team"]);
        needed = to_configure(REGISTRY, &on(&["team"]), &given(&[]));
        needed.sort_unstable();
        assert_eq!(needed, ["planning", "team"]);
    }

    #[test]
    fn defaults_without_file_env_or_flags() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            let loaded = load(&ConfigFlags::default()).unwrap();
            assert_eq!(loaded.config.server, ServerSettings::default());
            assert_eq!(loaded.config.logging, LoggingSettings::default());
            assert_eq!(loaded.config.toolsets.names(), "planning");
            assert_eq!(loaded.file, None);
            assert_eq!(loaded.config.server.host, "localhost");
            assert_eq!(loaded.config.server.port, 8080);
            assert_eq!(
                boards(&ConfigFlags::default()).planning.limits(),
                Limits::default()
            );
            Ok(())
        });
    }

    #[test]
    fn the_example_file_holds_the_defaults() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            jail.create_file(FILE_NAME, &example::example())?;
            let loaded = load(&ConfigFlags::default()).unwrap();
            assert_eq!(loaded.config.server, ServerSettings::default());
            assert_eq!(loaded.config.logging, LoggingSettings::default());
            let defaults = BoardSettings {
                max_boards: 64,
                ..BoardSettings::default()
            };
            assert_eq!(boards(&ConfigFlags::default()), defaults);
            assert_eq!(plans(&ConfigFlags::default()), PlansSettings::default());
            Ok(())
        });
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
            assert_eq!(boards(&ConfigFlags::default()).planning.max_tasks, 7);

            jail.set_env("PLANNING_SERVER_PORT", "2222");
            jail.set_env("PLANNING_SERVER_BOARD", "2024");
            jail.set_env("PLANNING_SERVER_AUTH_TOKEN", "12345");
            jail.set_env("PLANNING_PLANNING_MAX_TASKS", "8");
            jail.set_env("PLANNING_LOGGING_FORMAT", "json");
            jail.set_env("PLANNING_UNRELATED", "ignored");
            let from_env = load(&ConfigFlags::default()).unwrap();
            assert_eq!(from_env.config.server.port, 2222);
            assert_eq!(
                from_env.config.server.board.as_str(),
                "2024",
                "a number-like name is a name"
            );
            assert_eq!(
                from_env.config.server.auth_token,
                Some(Secret::from("12345".to_owned()))
            );
            assert_eq!(from_env.config.server.host, "127.0.0.1", "file value kept");
            assert_eq!(boards(&ConfigFlags::default()).planning.max_tasks, 8);
            assert_eq!(from_env.config.logging.format, LogFormat::Json);

            let given = flags(&["--port", "3333", "--mode", "stdio", "--log-level", "debug"]);
            let from_flags = load(&given).unwrap();
            assert_eq!(from_flags.config.server.port, 3333);
            assert_eq!(boards(&given).storage, StorageSettings::default());
            assert_eq!(from_flags.config.server.mode, Mode::Stdio);
            assert_eq!(from_flags.config.logging.level, LogLevel::Debug);
            assert_eq!(boards(&given).planning.max_tasks, 8, "env value kept");
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
            let from_file = boards(&ConfigFlags::default()).storage;
            assert_eq!(from_file.backend, Backend::File);
            assert_eq!(from_file.dir, PathBuf::from("from-file"));
            assert!(from_file.fsync);

            jail.set_env("PLANNING_STORAGE_DIR", "from-env");
            jail.set_env("PLANNING_STORAGE_FSYNC", "false");
            jail.set_env("PLANNING_STORAGE_BACKEND", "memory");
            let from_env = boards(&ConfigFlags::default()).storage;
            assert_eq!(
                (from_env.backend, from_env.dir, from_env.fsync),
                (Backend::Memory, PathBuf::from("from-env"), false)
            );

            let from_flags =
                boards(&flags(&["--storage", "file", "--storage-dir", "from-flag"])).storage;
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
            let error = invalid(load(&flags(&["--storage-dir", ""])));
            assert_eq!(
                error,
                "storage.dir (from the --storage-dir flag): must name a directory, e.g. .planning-mcp-server"
            );
            Ok(())
        });
    }

    #[test]
    fn the_database_keys_are_checked_and_the_url_never_quoted() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            let error = invalid(load(&flags(&["--storage", "postgres"])));
            #[cfg(feature = "postgres")]
            assert_eq!(
                error,
                "storage.url (from the built-in defaults): must be set with storage.backend = 'postgres', e.g. postgres://planning@localhost/planning"
            );
            #[cfg(not(feature = "postgres"))]
            assert!(
                error.starts_with(
                    "storage.backend (from the --storage flag): this build has no postgres backend"
                ),
                "{error}"
            );
            jail.set_env("PLANNING_STORAGE_URL", "postgres://me:hunter2@db:port/x");
            let error = invalid(load(&flags(&["--storage", "postgres"])));
            assert!(!error.contains("hunter2"), "{error}");
            #[cfg(feature = "postgres")]
            assert!(
                error.starts_with("storage.url (from the environment variable PLANNING_STORAGE_URL): is not a PostgreSQL connection string"),
                "{error}"
            );
            jail.set_env("PLANNING_STORAGE_URL", "postgres://me:hunter2@db/x");
            jail.set_env("PLANNING_STORAGE_STATEMENT_TIMEOUT", "0");
            jail.set_env("PLANNING_STORAGE_POOL_SIZE", "0");
            let error = invalid(load(&flags(&["--storage", "postgres"])));
            assert!(error.contains("storage.statement_timeout (from the environment variable PLANNING_STORAGE_STATEMENT_TIMEOUT): must be more than 0"), "{error}");
            assert!(error.contains("storage.pool_size (from the environment variable PLANNING_STORAGE_POOL_SIZE): must be 1 to 1000"), "{error}");
            jail.set_env("PLANNING_STORAGE_STATEMENT_TIMEOUT", "2.5");
            jail.set_env("PLANNING_STORAGE_POOL_SIZE", "4");
            #[cfg(feature = "postgres")]
            {
                let storage = boards(&flags(&["--storage", "postgres"])).storage;
                assert_eq!(
                    storage.statement_timeout.duration(),
                    std::time::Duration::from_millis(2500)
                );
                assert_eq!(storage.pool_size, 4);
                assert!(!format!("{storage:?}").contains("hunter2"));
            }
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
            let explicit = flags(&["--config", "other.toml"]);
            assert_eq!(load(&explicit).unwrap().config.server.port, 6666);

            let missing = flags(&["--config", "missing.toml"]);
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

            jail.create_file(FILE_NAME, "[boards]\nmax = 5\n")?;
            let error = invalid(load(&ConfigFlags::default()));
            assert_eq!(
                error,
                format!(
                    "boards (from the config file {}): unknown table; the tables are {}",
                    file.display(),
                    known_tables(REGISTRY).join(", ")
                )
            );

            jail.create_file(FILE_NAME, "[server\nport = 1\n")?;
            let error = invalid(load(&ConfigFlags::default()));
            assert!(error.contains(&file.display().to_string()), "{error}");
            assert_eq!(
                error.matches("TOML parse error").count(),
                1,
                "said once: {error}"
            );
            Ok(())
        });
    }

    #[test]
    fn a_bad_board_name_names_its_source_once_read() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            let error = invalid(load(&flags(&["--board", "../etc"])));
            assert_eq!(
                error,
                "server.board (from the --board flag): must match ^[a-z0-9][a-z0-9_-]{0,63}$, \
                 e.g. default"
            );
            let board = load(&flags(&["--board", "side_1"]))
                .unwrap()
                .config
                .server
                .board;
            assert_eq!(board, BoardName::parse("side_1").unwrap());
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
            let error = invalid(load(&flags(&["--host", " "])));
            let lines: Vec<&str> = error.lines().collect();
            assert_eq!(lines.len(), 3, "{error}");
            assert_eq!(
                lines[0],
                "server.host (from the --host flag): must name an address, e.g. localhost"
            );
            assert_eq!(
                lines[1],
                "planning.max_tasks (from the environment variable PLANNING_PLANNING_MAX_TASKS): must be at least 1"
            );
            assert!(lines[2].starts_with("planning.max_task_length (from the config file"));
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
            assert_eq!(plans(&ConfigFlags::default()), PlansSettings::default());

            jail.create_file(
                FILE_NAME,
                "[server]\ntoolsets = ['plans']\n[plans]\nroot = 'repo'\nlegacy_doc_tools = true\n",
            )?;
            let from_file = load(&ConfigFlags::default()).unwrap().config;
            assert_eq!(from_file.server.toolsets, ["plans"]);
            assert_eq!(from_file.toolsets.names(), "plans");
            assert_eq!(plans(&ConfigFlags::default()).root, PathBuf::from("repo"));
            assert!(plans(&ConfigFlags::default()).legacy_doc_tools);

            jail.set_env("PLANNING_SERVER_TOOLSETS", "planning, plans");
            jail.set_env("PLANNING_PLANS_DIR", "docs/plans");
            jail.set_env("PLANNING_PLANS_ROOT", "2024");
            let from_env = load(&ConfigFlags::default()).unwrap().config;
            assert_eq!(from_env.server.toolsets, ["planning", "plans"]);
            assert_eq!(from_env.toolsets.names(), "planning,plans");
            assert_eq!(plans(&ConfigFlags::default()).dir, "docs/plans");
            assert_eq!(plans(&ConfigFlags::default()).root, PathBuf::from("2024"));

            let given = flags(&[
                "--toolsets",
                "plans",
                "--plans-dir",
                "p",
                "--plans-root",
                "r",
            ]);
            let from_flags = load(&given).unwrap().config;
            assert_eq!(from_flags.server.toolsets, ["plans"]);
            let from_flags = plans(&given);
            assert_eq!(
                (from_flags.root, from_flags.dir),
                (PathBuf::from("r"), "p".into())
            );

            jail.set_env("PLANNING_SERVER_TOOLSETS", "planning,boards");
            let error = invalid(load(&ConfigFlags::default()));
            let names: Vec<&str> = REGISTRY.names().collect();
            assert_eq!(
                error,
                format!(
                    "server.toolsets (from the environment variable PLANNING_SERVER_TOOLSETS): \
                     unknown toolset 'boards'; the toolsets are {}",
                    names.join(", ")
                )
            );
            jail.set_env("PLANNING_SERVER_TOOLSETS", "planning");
            let error = invalid(load(&flags(&["--toolsets", "nope"])));
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
    fn the_instructions_of_every_toolset_combination_fit_claude_codes_limit_or_need_another() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            let names: Vec<&str> = REGISTRY.names().collect();
            for mask in 1..(1u32 << names.len()) {
                let chosen: Vec<&str> = (0..names.len())
                    .filter(|bit| mask & (1 << bit) != 0)
                    .map(|bit| names[bit])
                    .collect();
                let list = chosen.join(",");
                let missing = REGISTRY.kinds().find_map(|kind| {
                    let needed = kind.requires().iter();
                    let wanted = chosen.contains(&kind.name());
                    needed
                        .filter(|name| wanted && !chosen.contains(name))
                        .map(|name| (kind.name(), *name))
                        .next()
                });
                if let Some((toolset, required)) = missing {
                    let error = invalid(load(&flags(&["--toolsets", &list])));
                    assert_eq!(
                        error,
                        format!(
                            "server.toolsets (from the --toolsets flag): toolset '{toolset}' works \
                             on toolset '{required}': enable both, e.g. {required},{toolset}"
                        )
                    );
                    continue;
                }
                let config = load(&flags(&["--toolsets", &list])).unwrap().config;
                assert_eq!(config.toolsets.names(), list);
                let instructions = config.toolsets.instructions();
                assert!(
                    instructions.chars().count() <= 2048,
                    "{list}: {} characters",
                    instructions.chars().count()
                );
            }
            Ok(())
        });
    }
}
