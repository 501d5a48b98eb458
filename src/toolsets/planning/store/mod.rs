// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Persistence behind one small trait. The board never knows which backend
//! it has; a new backend (SQLite, Postgres, ...) implements [`SnapshotStore`]
//! and is chosen in [`open`], without touching `src/board/`.

pub(crate) mod file;
pub(crate) mod git_log;
pub(crate) mod memory;
#[cfg(feature = "postgres")]
pub(crate) mod postgres;
pub(crate) mod records;
pub(crate) mod repository;
pub(crate) mod snapshot;

#[cfg(test)]
mod fixture_tests;

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::config::{Backend, StorageSettings};
use crate::toolsets::planning::domain::action::Done;
use crate::toolsets::planning::domain::replay::SetAside;
use crate::toolsets::planning::domain::{Board, Limits};
use git_log::settings::SyncSettings;

pub(crate) use file::FileStore;
pub(crate) use git_log::GitLogStore;
pub(crate) use memory::MemoryStore;

/// Held while a process reloads, changes and saves a board; dropping it
/// releases the lock (for other processes too).
pub(crate) type WriteLock<'a> = Box<dyn Send + 'a>;

/// Where a board's snapshots are kept.
pub trait SnapshotStore: Send + Sync + std::fmt::Debug {
    /// Takes the exclusive lock that serialises writers of this board,
    /// across processes, waiting until `until` at most ([`StoreError::Busy`]).
    fn lock(&self, until: Instant) -> Result<WriteLock<'_>, StoreError>;

    /// Whether its calls may block (file I/O, locks): then they run on a
    /// blocking thread rather than an async worker.
    fn may_block(&self) -> bool;

    /// Whether the board outlives this process's copy of it: then a board
    /// no one uses may be dropped from memory and loaded again later.
    fn persistent(&self) -> bool;

    /// Whether the stored board may differ from the one this process last
    /// loaded or saved (cheap: no read of the snapshot).
    fn may_have_changed(&self) -> bool;

    /// The stored board if it differs from the one this process last loaded
    /// or saved (at first, whatever is stored; `None` when nothing is), else
    /// `None`. A snapshot that disappeared reads as an empty board.
    fn load_if_changed(&self) -> Result<Option<Board>, StoreError>;

    /// Saves `board`, which `change` made of the board this process last
    /// loaded or saved, durably; returns only once it is stored. The caller
    /// holds the lock. A snapshot backend stores the board (and may ignore
    /// the change); the git log appends the change as one operation.
    fn save(&self, board: &Board, change: &Done) -> Result<(), StoreError>;

    /// How many times a change whose save answered [`StoreError::Raced`]
    /// is made again on the reloaded board before the call fails; a store
    /// that never races needs none.
    fn races(&self) -> u32 {
        0
    }

    /// What the store has to tell the caller (`agent`, when the call names
    /// one) and has not told yet in this process: e.g. the git log's
    /// operations that a merge set aside. Told once each.
    fn notices(&self, _agent: Option<&str>) -> Vec<String> {
        Vec::new()
    }

    /// The newest operations that the replay of the stored board set aside,
    /// oldest first, for the digest: the git log's; none by default.
    fn set_aside(&self) -> std::sync::Arc<[SetAside]> {
        std::sync::Arc::from([])
    }

    /// Why changes made here are not on the other machines yet, while
    /// they are not (the git log: the last push's problem); `None` by
    /// default.
    fn unpushed(&self) -> Option<String> {
        None
    }

    /// When this process last reached the other machines' copy (the git
    /// log: a fetch or a push to the remote that went through), if it did;
    /// `None` by default.
    fn synced_at(&self) -> Option<std::time::SystemTime> {
        None
    }

    /// The board's one clock, when the store keeps one that every process
    /// sharing the board reads (PostgreSQL's: the database's time, read with
    /// the last load, so under the lock during a change); then leases and
    /// the times of changes go by it rather than by this machine's clock.
    /// `None` (the default): each process's own clock.
    fn clock(&self) -> Option<crate::runtime::clock::Clock> {
        None
    }

    /// A receiver that wakes when the stored board may have been changed
    /// by another process, if the store can tell (then watchers wait for
    /// it instead of polling the store); `None` by default.
    fn changed_elsewhere(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        None
    }

    /// How stale the stored board may grow, behind what other machines
    /// wrote, while anyone reads, watches or waits on it: the board then
    /// [`Self::fetch`]es at most this often (the git log with sync on:
    /// [`git_log::store::FETCH_EVERY`]). `None` (the default): everything
    /// another process wrote is in the store already.
    fn fetch_every(&self) -> Option<std::time::Duration> {
        None
    }

    /// Brings what other machines wrote into the stored board (the git
    /// log: a fetch from the remote, merged when it brought anything);
    /// blocks. Returns whether the stored board may have changed. Never
    /// waits for the board's lock: a writer holding it merges on its own.
    fn fetch(&self) -> Result<bool, StoreError> {
        Ok(false)
    }
}

/// Why a snapshot could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The snapshot or its directory could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The snapshot is corrupt, truncated, foreign or from a newer version.
    #[error(
        "{path} is not a usable board snapshot: {problem}; it is left as it is (fix it, or move it away to start empty)"
    )]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The snapshot could not be written (disk full, read-only, permission).
    #[error("cannot save {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The lock file could not be created or locked.
    #[error("cannot lock {path}: {source}")]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// `storage.share_worktrees` is on, but no repository was found.
    #[error(
        "storage.share_worktrees is on, but {0}; run the server inside the repository, or turn the option off"
    )]
    NoRepository(String),
    /// Another process held the board's lock for longer than the wait allows.
    #[error("another process holds the lock of board {board} ({lock})")]
    Busy {
        /// The board.
        board: String,
        /// Its lock file.
        lock: PathBuf,
    },
    /// The database of the `postgres` backend failed, refused or did not
    /// answer in time.
    #[error("cannot {doing} ({database}): {problem}")]
    Database {
        /// What was being done, e.g. `save board default in the database`.
        doing: String,
        /// The database as logs show it (`postgres://user@host:port/db`,
        /// never a password).
        database: String,
        /// What went wrong.
        problem: String,
    },
    /// The database holds the board, but its row cannot be used (corrupt,
    /// or larger than a board may be): it is left as it is for a person to
    /// fix, and the board's calls are refused until then; the database
    /// itself answers, so the other boards serve.
    #[error("cannot {doing} ({database}): {problem}")]
    Unusable {
        /// What was being done, e.g. `load board default in the database`.
        doing: String,
        /// The database as logs show it (never a password).
        database: String,
        /// What is wrong with the row, and how to mend it.
        problem: String,
    },
    /// The lock file was deleted or replaced while this process held it,
    /// so another writer may hold the new one: the save was refused.
    #[error("the lock file {path} was deleted or replaced during the save")]
    LockLost {
        /// The lock file.
        path: PathBuf,
    },
    /// The stored board moved while the change was made (the git log's
    /// remote took another clone's push first): the change was taken back
    /// and may be made again on the stored board.
    #[error("the board changed on another clone while this change was made")]
    Raced,
    /// A git command of the `git` backend failed.
    #[error("board {board}'s git log: {problem}")]
    Git {
        /// The board.
        board: String,
        /// The command and what git said.
        problem: String,
    },
}

impl StoreError {
    /// The file this error is about, if it is about one.
    fn path(&self) -> Option<&Path> {
        match self {
            Self::Read { path, .. }
            | Self::Invalid { path, .. }
            | Self::Write { path, .. }
            | Self::Lock { path, .. }
            | Self::LockLost { path }
            | Self::Busy { lock: path, .. } => Some(path),
            Self::NoRepository(_)
            | Self::Raced
            | Self::Git { .. }
            | Self::Database { .. }
            | Self::Unusable { .. } => None,
        }
    }

    /// The message with the file named without its directories (and the
    /// database without its address), for answers that leave the server
    /// (HTTP bodies, tool results); the log keeps the whole path.
    pub(crate) fn public(&self) -> String {
        if let Self::Database { doing, problem, .. } | Self::Unusable { doing, problem, .. } = self
        {
            return format!("cannot {doing}: {problem}");
        }
        let Some(path) = self.path() else {
            return self.to_string();
        };
        let name = path
            .file_name()
            .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        self.to_string().replace(&path.display().to_string(), &name)
    }
}

/// The directory of the board files: `storage.dir`, resolved against the
/// repository's main working copy when `storage.share_worktrees` is on
/// (and `dir` is relative). Unset and shared by default (toolset team), a
/// working directory outside any repository keeps `dir` as it is; set to
/// true, it is an error.
pub(crate) fn dir(settings: &StorageSettings) -> Result<PathBuf, StoreError> {
    let share = settings
        .share_worktrees
        .unwrap_or(settings.share_by_default);
    if !share || settings.dir.is_absolute() {
        return Ok(settings.dir.clone());
    }
    let here = std::env::current_dir().map_err(|e| StoreError::NoRepository(e.to_string()))?;
    match repository::shared_root(&here) {
        Ok(root) => Ok(root.join(&settings.dir)),
        Err(problem) if settings.share_worktrees == Some(true) => {
            Err(StoreError::NoRepository(problem))
        }
        Err(_) => Ok(settings.dir.clone()),
    }
}

/// Where board `name` is kept, as messages name it: its file (absolute),
/// its git ref and repository, or its database.
pub(crate) fn location(settings: &StorageSettings, name: &str) -> String {
    match settings.backend {
        Backend::Memory => {
            "the memory of the server that holds it (storage.backend = memory)".into()
        }
        Backend::File => match dir(settings) {
            Ok(dir) => absolute(dir.join(format!("{name}.json"))),
            Err(error) => error.to_string(),
        },
        Backend::Git => match repository_dir(settings) {
            Ok(dir) => format!(
                "refs/planning/boards/{name} of the git repository at {}",
                absolute(dir)
            ),
            Err(error) => error.to_string(),
        },
        Backend::Postgres => format!("board {name} of the database storage.url names"),
    }
}

/// `path` made absolute (against the working directory), for messages.
fn absolute(path: PathBuf) -> String {
    std::path::absolute(&path)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Where the boards live, for the start-up log: the directory of the
/// board files (absolute), the repository of the git logs, the database,
/// or memory.
pub(crate) fn where_boards_live(settings: &StorageSettings) -> String {
    match settings.backend {
        Backend::Memory => "memory".into(),
        Backend::File => match dir(settings) {
            Ok(dir) => format!("file:{}", absolute(dir)),
            Err(error) => format!("file: {error}"),
        },
        Backend::Git => match repository_dir(settings) {
            Ok(dir) => format!("git:{}", absolute(dir)),
            Err(error) => format!("git: {error}"),
        },
        Backend::Postgres => "postgres (storage.url)".into(),
    }
}

/// Where the `git` backend looks for the repository: `storage.dir` when
/// it is absolute, else the working directory.
pub(crate) fn repository_dir(settings: &StorageSettings) -> Result<PathBuf, StoreError> {
    match settings.dir.is_absolute() {
        true => Ok(settings.dir.clone()),
        false => std::env::current_dir().map_err(|e| StoreError::NoRepository(e.to_string())),
    }
}

/// The configured backend, built once from [`StorageSettings`] (and, for
/// `git`, how its logs travel): the one place that knows which backends
/// exist. It opens a board's store, tells whether a board is stored, lists
/// the stored boards and reads one; each resolves its directory when asked,
/// so that a missing repository fails the call that needs it.
#[derive(Debug, Clone)]
pub(crate) enum Storage {
    /// Boards in this process's memory only.
    Memory,
    /// A snapshot file per board in the directory of `storage.dir`.
    File(StorageSettings),
    /// A log per board under the refs of the repository around `storage.dir`.
    Git(StorageSettings, SyncSettings),
    /// A row per board in the database of `storage.url`.
    #[cfg(feature = "postgres")]
    Postgres(StorageSettings),
    /// Backend `postgres` in a build without it (configuration refuses it
    /// first; this keeps every call total).
    #[cfg(not(feature = "postgres"))]
    NoPostgres,
}

impl Storage {
    /// The backend `settings` configure (`sync`: how the `git` backend travels).
    pub(crate) fn new(settings: &StorageSettings, sync: &SyncSettings) -> Self {
        match settings.backend {
            Backend::Memory => Self::Memory,
            Backend::File => Self::File(settings.clone()),
            Backend::Git => Self::Git(settings.clone(), sync.clone()),
            #[cfg(feature = "postgres")]
            Backend::Postgres => Self::Postgres(settings.clone()),
            #[cfg(not(feature = "postgres"))]
            Backend::Postgres => Self::NoPostgres,
        }
    }

    /// Opens the store of the board `name`, timed by `clock` (this
    /// server's).
    pub(crate) fn open(
        &self,
        name: &str,
        limits: Limits,
        history_enabled: bool,
        clock: crate::runtime::clock::Clock,
    ) -> Result<Box<dyn SnapshotStore>, StoreError> {
        Ok(match self {
            Self::Memory => Box::new(MemoryStore),
            Self::Git(settings, sync) => Box::new(
                git_log::GitLogStore::open(
                    &repository_dir(settings)?,
                    name,
                    sync.clone(),
                    limits,
                    history_enabled,
                )?
                .with_clock(clock),
            ),
            Self::File(settings) => Box::new(
                FileStore::open(
                    &dir(settings)?,
                    name,
                    settings.fsync,
                    limits,
                    history_enabled,
                )?
                .with_gitignore(settings.gitignore),
            ),
            #[cfg(feature = "postgres")]
            Self::Postgres(settings) => Box::new(postgres::PostgresStore::open(
                settings,
                name,
                limits,
                history_enabled,
            )?),
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => return Err(no_postgres()),
        })
    }

    /// Whether board `name` is stored (never, in memory), checked without
    /// creating anything.
    pub(crate) fn exists(&self, name: &str) -> Result<bool, StoreError> {
        match self {
            Self::Memory => Ok(false),
            Self::File(settings) => {
                Ok(dir(settings).is_ok_and(|dir| FileStore::exists(&dir, name)))
            }
            Self::Git(settings, _) => {
                Ok(repository_dir(settings).is_ok_and(|dir| GitLogStore::exists(&dir, name)))
            }
            #[cfg(feature = "postgres")]
            Self::Postgres(_) => Ok(self.names()?.iter().any(|stored| stored == name)),
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => Err(no_postgres()),
        }
    }

    /// The names of the stored boards (none in memory), unchecked (the
    /// caller keeps the valid names), sorted.
    pub(crate) fn names(&self) -> Result<Vec<String>, StoreError> {
        match self {
            Self::Memory => Ok(Vec::new()),
            Self::File(settings) => file::stored_names(&dir(settings)?),
            Self::Git(settings, _) => GitLogStore::stored_names(&repository_dir(settings)?),
            #[cfg(feature = "postgres")]
            Self::Postgres(settings) => postgres::stored_names(settings),
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => Err(no_postgres()),
        }
    }

    /// Whether the boards' store can be used now, answered within `limit`
    /// (the health check of an HTTP replica): a database must answer a
    /// query; a directory, a repository or memory is there (a missing
    /// directory fails the calls that need it, with why). The error is for
    /// the log: the database as shown, never its password.
    pub(crate) fn reachable(&self, limit: std::time::Duration) -> Result<(), String> {
        match self {
            Self::Memory | Self::File(_) | Self::Git(..) => {
                let _ = limit;
                Ok(())
            }
            #[cfg(feature = "postgres")]
            Self::Postgres(settings) => postgres::reachable(settings, limit),
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => Err(no_postgres().to_string()),
        }
    }

    /// Board `name` as stored, read without locking or creating anything:
    /// `None` when nothing is stored (always, in memory).
    pub(crate) fn read(
        &self,
        name: &str,
        limits: Limits,
        history_enabled: bool,
    ) -> Result<Option<Read>, StoreError> {
        let board = match self {
            Self::Memory => None,
            Self::File(settings) => file::read(&dir(settings)?, name, limits, history_enabled)?,
            // Reading runs git's plumbing only (no lock, no file made); the
            // sync settings play no part but git's timeout.
            Self::Git(settings, _) => {
                let store = GitLogStore::open(
                    &repository_dir(settings)?,
                    name,
                    SyncSettings::default(),
                    limits,
                    history_enabled,
                )?;
                return Ok(store.load_if_changed()?.map(|board| Read {
                    board,
                    set_aside: store.set_aside(),
                }));
            }
            #[cfg(feature = "postgres")]
            Self::Postgres(settings) => postgres::read(settings, name, limits, history_enabled)?,
            #[cfg(not(feature = "postgres"))]
            Self::NoPostgres => return Err(no_postgres()),
        };
        Ok(board.map(|board| Read {
            board,
            set_aside: std::sync::Arc::from([]),
        }))
    }
}

/// A board as [`Storage::read`] found it.
#[derive(Debug)]
pub(crate) struct Read {
    /// The board.
    pub(crate) board: Board,
    /// What the replay of its log set aside (a git board's), oldest first.
    pub(crate) set_aside: std::sync::Arc<[SetAside]>,
}

/// The error of backend `postgres` in a build without it (configuration
/// refuses it first; this keeps `open` total).
#[cfg(not(feature = "postgres"))]
fn no_postgres() -> StoreError {
    StoreError::Database {
        doing: "open the board database".into(),
        database: "storage.url".into(),
        problem: "this build has no postgres backend (cargo feature postgres)".into(),
    }
}
