// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The tables of toolset `planning`: `[planning]` (the board's limits and
//! history) and `[storage]` (where boards are kept), with their checks.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::domain::Limits;
pub(crate) use super::store::git_log::settings::SyncSettings;
use crate::runtime::clock::Clock;
use crate::server::seconds::Seconds;
use crate::server::secret::Secret;
use crate::server::settings::{Flag, FlagKind, Settings, lenient, lenient_option};

/// The part of the example config file that belongs to toolset `planning`.
pub(crate) const EXAMPLE: &str = r#"
[planning]
# The most tasks the board holds.
max_tasks = 100
# The longest goal title and goal description, each, in characters.
max_goal_length = 1000
# The longest task title and task description, each, in characters.
max_task_length = 500
# Record goal changes (with their reasons) and task status changes.
history_enabled = true
# How the tools that change the board reply: 'full' (the whole task list, the
# Go server's replies byte for byte) or 'compact' (the tasks changed, the
# counts per status and the next pending tasks: at most 4,000 characters
# whatever the board's size; get_tasks still shows every task).
replies = 'full'

[storage]
# Where boards are kept: 'memory' (lost when the server stops, like the Go
# server), 'file' (a JSON snapshot per board, written before each reply, so
# a restarted server loses nothing), 'postgres' (a row per board in a
# PostgreSQL database that several servers may share: docs/storage.md) or
# 'git' (a log of operations under the repository's refs/planning/boards/,
# shared through its remote: [sync], docs/sync.md).
backend = 'memory'
# Directory of the board files, relative to the working directory (the
# project root for most MCP clients). The default board is {dir}/default.json.
# With 'git': an absolute dir names a directory of the repository (default:
# the working directory's).
dir = '.planning-mcp-server'
# Wait for the disk on each save (fsync), so a change survives a power cut.
fsync = true
# Resolve a relative dir against the repository (the main git worktree or
# jj workspace) instead of the working directory, so that every worktree and
# workspace of one repository shares its boards. Unset: on with toolset team
# (inside a repository; outside one, the working directory), off without.
# true: on, and outside a repository start-up stops. false: one board per
# worktree.
# share_worktrees = true
# When the server makes dir, put a .gitignore ('*') in it, so that git and
# jj keep the boards out of your commits. false: to commit them on purpose.
gitignore = true
# The database of backend 'postgres', as a libpq connection string (URL or
# key=value), e.g. 'postgres://planning@db.internal/planning?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem'
# or 'host=/run/postgresql dbname=planning'. Keep a password out of this
# file: set the whole URL in PLANNING_STORAGE_URL instead.
# url = 'postgres://planning@localhost/planning'
# Seconds to wait for a connection to the database, and for one statement.
connect_timeout = 5
statement_timeout = 10
# The most database connections one server opens for its calls (one more
# listens for other servers' changes).
pool_size = 16

[sync]
# With storage.backend = 'git': the git remote boards travel through
# (refs/planning/boards/*), with your own git credentials.
remote = 'origin'
# Push every change before replying: claims are then acknowledged only once
# the remote has them. Offline, changes are kept here and sync later.
on_change = false
# Also sync every this many seconds (0: only by hand, with
# `planning-mcp-server sync`, and on change if on_change is set).
interval = 0
# How often a push that someone beat is retried (fetch, merge, push).
retries = 10
# Compact the log into a checkpoint once it holds this many operations.
checkpoint_every = 1000
# The longest one git command may take, in seconds.
git_timeout = 60
"#;

/// The flags of toolset `planning`.
pub(crate) const FLAGS: &[Flag] = &[
    Flag {
        long: "replies",
        key: "planning.replies",
        value_name: "MODE",
        help: "How the tools that change the board reply: full (the whole list, as the Go server) or compact",
        kind: FlagKind::Choice(&["full", "compact"]),
    },
    Flag {
        long: "storage",
        key: "storage.backend",
        value_name: "BACKEND",
        help: "Where boards are kept: memory, file to survive restarts, postgres to share them between servers, or git to share them through the repository's remote",
        kind: FlagKind::Choice(&["memory", "file", "postgres", "git"]),
    },
    Flag {
        long: "storage-dir",
        key: "storage.dir",
        value_name: "PATH",
        help: "Directory of the board files with --storage file",
        kind: FlagKind::Text,
    },
    Flag {
        long: "storage-url",
        key: "storage.url",
        value_name: "URL",
        help: "The database with --storage postgres: a libpq connection string, e.g. postgres://planning@localhost/planning",
        kind: FlagKind::Text,
    },
];

/// Where boards are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Backend {
    /// In memory only, like the Go server: a restart loses the board.
    Memory,
    /// A JSON snapshot per board in `storage.dir`, written before each reply.
    File,
    /// A row per board in the PostgreSQL database `storage.url`, committed
    /// before each reply; several servers may share it.
    Postgres,
    /// A log of operations per board under the repository's
    /// `refs/planning/boards/`, shared through its remote (`[sync]`).
    Git,
}

/// How the tools that change the board (`add_tasks`,
/// `update_task_statuses`, `modify_task`, `delete_tasks`) reply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Replies {
    /// The whole task list: the Go server's replies, byte for byte.
    #[default]
    Full,
    /// The tasks changed, the counts per status and the next pending
    /// tasks, bounded whatever the board's size.
    Compact,
}

/// `[planning]`: the board's limits and history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct PlanningSettings {
    /// The most tasks the board holds.
    pub(crate) max_tasks: usize,
    /// The longest goal title and goal description, in characters.
    pub(crate) max_goal_length: usize,
    /// The longest task title and task description, in characters.
    pub(crate) max_task_length: usize,
    /// Whether goal and status changes are recorded.
    pub(crate) history_enabled: bool,
    /// How the tools that change the board reply.
    pub(crate) replies: Replies,
}

impl Default for PlanningSettings {
    fn default() -> Self {
        let limits = Limits::default();
        Self {
            max_tasks: limits.max_tasks,
            max_goal_length: limits.max_goal_length,
            max_task_length: limits.max_task_length,
            history_enabled: true,
            replies: Replies::Full,
        }
    }
}

impl PlanningSettings {
    /// The board limits these settings set.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            max_tasks: self.max_tasks,
            max_goal_length: self.max_goal_length,
            max_task_length: self.max_task_length,
        }
    }
}

/// `[storage]`: optional persistence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct StorageSettings {
    /// `memory` (the default) or `file`.
    pub(crate) backend: Backend,
    /// The directory of the board files, relative to the working directory.
    #[serde(deserialize_with = "lenient")]
    pub(crate) dir: PathBuf,
    /// Whether each save waits for the disk (fsync of the file and the directory).
    pub(crate) fsync: bool,
    /// Whether a relative `dir` is resolved against the repository's main
    /// working copy rather than the working directory (see
    /// `store::repository`); unset, [`Self::share_by_default`] decides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) share_worktrees: Option<bool>,
    /// Whether an unset `share_worktrees` shares the repository's boards
    /// (when the working directory is inside one): on with toolset team,
    /// whose agents work in worktrees of one repository. Not a key: the
    /// toolsets offered set it.
    #[serde(skip)]
    pub(crate) share_by_default: bool,
    /// Whether a `dir` the server makes is born with a `.gitignore` that
    /// keeps the board files out of the user's commits.
    pub(crate) gitignore: bool,
    /// The database of the `postgres` backend: a libpq connection string,
    /// which may hold a password (hence a [`Secret`]).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_option"
    )]
    pub(crate) url: Option<Secret>,
    /// How long connecting to the database may take.
    pub(crate) connect_timeout: Seconds,
    /// How long one statement may take (a call answers an error then).
    pub(crate) statement_timeout: Seconds,
    /// The most connections one server opens for its calls.
    pub(crate) pool_size: usize,
}

impl Default for StorageSettings {
    fn default() -> Self {
        Self {
            backend: Backend::Memory,
            dir: PathBuf::from(".planning-mcp-server"),
            fsync: true,
            share_worktrees: None,
            share_by_default: false,
            gitignore: true,
            url: None,
            connect_timeout: Seconds::new(5),
            statement_timeout: Seconds::new(10),
            pool_size: 16,
        }
    }
}

/// Checks the keys of the `postgres` backend: a URL that parses when it is
/// the backend (the message never quotes the URL, which may hold a
/// password), timeouts above zero, a pool of 1 to 1,000.
fn check_database(settings: &Settings<'_>, problems: &mut Vec<String>, storage: &StorageSettings) {
    for (value, key) in [
        (storage.connect_timeout, "storage.connect_timeout"),
        (storage.statement_timeout, "storage.statement_timeout"),
    ] {
        settings.require(problems, !value.is_zero(), key, "must be more than 0");
    }
    let pool = (1..=1000).contains(&storage.pool_size);
    settings.require(problems, pool, "storage.pool_size", "must be 1 to 1000");
    if storage.backend != Backend::Postgres {
        return;
    }
    #[cfg(not(feature = "postgres"))]
    settings.require(
        problems,
        false,
        "storage.backend",
        "this build has no postgres backend (it was built without the cargo feature postgres)",
    );
    match &storage.url {
        None => settings.require(
            problems,
            false,
            "storage.url",
            "must be set with storage.backend = 'postgres', e.g. postgres://planning@localhost/planning",
        ),
        #[cfg(feature = "postgres")]
        Some(url) => {
            if let Err(problem) = super::store::postgres::ConnectionString::parse(url.expose()) {
                settings.require(problems, false, "storage.url", &problem);
            }
        }
        #[cfg(not(feature = "postgres"))]
        Some(_) => {}
    }
}

/// The settings of toolset `planning`, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BoardSettings {
    /// `[planning]`
    pub(crate) planning: PlanningSettings,
    /// `[storage]`
    pub(crate) storage: StorageSettings,
    /// `[sync]`: how the `git` backend's boards travel.
    pub(crate) sync: SyncSettings,
    /// `[server] max_boards`: the most boards one server holds.
    pub(crate) max_boards: usize,
    /// `[server] lock_timeout`: the longest a call waits for a board's lock.
    pub(crate) lock_timeout: Duration,
    /// What the boards time their tasks and history by (not configured:
    /// the system clock; tests fix it).
    pub(crate) clock: Clock,
}

impl Default for BoardSettings {
    fn default() -> Self {
        Self {
            planning: PlanningSettings::default(),
            storage: StorageSettings::default(),
            sync: SyncSettings::default(),
            max_boards: 64,
            lock_timeout: Duration::from_secs(10),
            clock: Clock::system(),
        }
    }
}

impl BoardSettings {
    /// Reads `[planning]`, `[storage]` and `[sync]` and checks what types
    /// cannot.
    pub(crate) fn read(settings: &Settings<'_>) -> Result<Self, Vec<String>> {
        let planning = settings.table::<PlanningSettings>("planning");
        let storage = settings.table::<StorageSettings>("storage");
        let sync = settings.table::<SyncSettings>("sync");
        let (planning, mut storage, sync) = match (planning, storage, sync) {
            (Ok(planning), Ok(storage), Ok(sync)) => (planning, storage, sync),
            (planning, storage, sync) => {
                let errors = planning
                    .err()
                    .into_iter()
                    .chain(storage.err())
                    .chain(sync.err());
                return Err(errors.flatten().collect());
            }
        };
        let mut problems = Vec::new();
        for (value, key) in [
            (planning.max_tasks, "planning.max_tasks"),
            (planning.max_goal_length, "planning.max_goal_length"),
            (planning.max_task_length, "planning.max_task_length"),
        ] {
            settings.require(&mut problems, value >= 1, key, "must be at least 1");
        }
        settings.require(
            &mut problems,
            !storage.dir.as_os_str().is_empty(),
            "storage.dir",
            "must name a directory, e.g. .planning-mcp-server",
        );
        check_database(settings, &mut problems, &storage);
        // Team's agents work in worktrees of one repository: one board.
        storage.share_by_default = settings.offers("team");
        for (key, problem) in sync.problems() {
            settings.require(&mut problems, false, key, &problem);
        }
        match problems.is_empty() {
            true => Ok(Self {
                planning,
                storage,
                sync,
                max_boards: settings.max_boards(),
                lock_timeout: settings.lock_timeout(),
                clock: Clock::system(),
            }),
            false => Err(problems),
        }
    }
}
