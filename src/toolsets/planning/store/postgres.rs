// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `postgres` backend: a row per board in a PostgreSQL database that
//! any number of servers share (`docs/storage.md`).
//!
//! A change follows the shared board's protocol, one transaction long:
//! [`SnapshotStore::lock`] begins a transaction and locks the board's row
//! (`SELECT ... FOR UPDATE`, waiting at most until the call's deadline:
//! `SET LOCAL lock_timeout`) and reads the row's revision, and its snapshot
//! if the revision is not the one this process last saw;
//! [`SnapshotStore::save`] writes the new snapshot with the next revision and
//! commits, and returns only once the commit is acknowledged. Writers of one
//! board, in every server, are therefore serialised by the row lock: no
//! update is lost, a refusal is decided against the latest board, and a
//! claim has one winner. A change that is refused, or whose save fails,
//! rolls back. A board without a row gets one inside the transaction (so
//! a refused first change leaves nothing).
//!
//! Reads ask the database for the row's revision on every call (one indexed
//! query; the snapshot itself travels only when the revision moved), so a
//! change acknowledged by one server is what the next call on any other
//! reads. A committed change is also announced (a trigger's `NOTIFY`), which
//! wakes the board's watchers in every server at once instead of polling.
//!
//! Any connection that fails or times out mid-way is closed, never handed
//! to another call; the pool makes new ones, so calls work again as soon
//! as the database is back.

mod db;
mod listen;
mod schema;
mod tls;
mod url;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use deadpool_postgres::Object;
use parking_lot::Mutex;
use tokio::sync::watch;
use tokio_postgres::error::SqlState;

pub(crate) use self::db::Database;
pub(crate) use self::url::ConnectionString;
use super::{SnapshotStore, StoreError, WriteLock, snapshot};
use crate::toolsets::planning::config::StorageSettings;
use crate::toolsets::planning::domain::{Board, Limits};

/// Locks the board's row and reads its revision, and its snapshot when the
/// revision is not `$2` (the one last seen).
const LOCK: &str = "SELECT revision, CASE WHEN revision <> $2 THEN snapshot END \
                    FROM planning_boards WHERE name = $1 FOR UPDATE";
/// The row of a board that has none yet, inside the change's transaction:
/// revision 0 and no snapshot (rolled back with a refused change).
const PLACEHOLDER: &str = "INSERT INTO planning_boards (name, revision, snapshot) \
                           VALUES ($1, 0, '') ON CONFLICT (name) DO NOTHING";
/// [`LOCK`] without the lock, for reads.
const READ: &str = "SELECT revision, CASE WHEN revision <> $2 THEN snapshot END \
                    FROM planning_boards WHERE name = $1";
/// Writes a snapshot under the lock.
const WRITE: &str = "UPDATE planning_boards SET revision = $2, snapshot = $3, saved_at = now() \
                     WHERE name = $1";
/// The boards that hold a snapshot.
const NAMES: &str = "SELECT name FROM planning_boards WHERE revision > 0 ORDER BY name";

/// One board's row in the database.
#[derive(Debug)]
pub(crate) struct PostgresStore {
    database: Arc<Database>,
    name: String,
    limits: Limits,
    history_enabled: bool,
    /// The revision this process last loaded or saved: `Some(0)` when the
    /// board had no snapshot, `None` when unknown (at first, and after a
    /// commit whose outcome is unknown).
    seen: Mutex<Option<i64>>,
    /// The transaction of the change under way, from `lock` to `save`.
    held: Mutex<Option<Held>>,
}

/// A change's transaction: its connection and what the locked row held.
#[derive(Debug)]
struct Held {
    client: Object,
    /// The row's revision when locked (0: no snapshot yet).
    revision: i64,
    /// The row's snapshot, when it was not the revision last seen; taken
    /// by the `load_if_changed` that follows the lock.
    fresh: Option<Option<String>>,
}

/// Releases the lock: rolls back the transaction unless `save` committed it.
struct Unlock<'a>(&'a PostgresStore);

impl Drop for Unlock<'_> {
    fn drop(&mut self) {
        if let Some(held) = self.0.held.lock().take() {
            self.0.roll_back(held.client);
        }
    }
}

/// What a row holds: `(revision, snapshot if it moved)`.
type Row = (i64, Option<String>);

impl PostgresStore {
    /// The store of board `name` in the database `settings` names, which is
    /// opened (a connection made, the tables checked) if this process has
    /// not opened it yet.
    pub(crate) fn open(
        settings: &StorageSettings,
        name: &str,
        limits: Limits,
        history_enabled: bool,
    ) -> Result<Self, StoreError> {
        Ok(Self {
            database: Database::shared(settings)?,
            name: name.to_owned(),
            limits,
            history_enabled,
            seen: Mutex::new(None),
            held: Mutex::new(None),
        })
    }

    /// The database, as messages show it.
    pub(crate) fn database(&self) -> &str {
        self.database.shown()
    }

    fn error(&self, doing: &str, problem: String) -> StoreError {
        StoreError::Database {
            doing: format!("{doing} board {} in the database", self.name),
            database: self.database.shown().to_owned(),
            problem,
        }
    }

    /// The longest a statement (with a connection to make) may take.
    fn limit(&self) -> Duration {
        self.database.connect_timeout + self.database.statement_timeout
    }

    /// Rolls a transaction back; a connection that cannot is closed.
    fn roll_back(&self, client: Object) {
        let limit = self.database.statement_timeout;
        let _ = self.database.block(limit, async move {
            match client.batch_execute("ROLLBACK").await {
                Ok(()) => Ok(()),
                Err(error) => {
                    drop(Object::take(client));
                    Err(describe(&error))
                }
            }
        });
    }

    /// Parses a stored snapshot (the empty placeholder is an empty board).
    fn board(&self, snapshot: &str) -> Result<Board, StoreError> {
        if snapshot.is_empty() {
            return Ok(Board::new(self.limits, self.history_enabled));
        }
        snapshot::from_json(snapshot.as_bytes(), self.limits, self.history_enabled).map_err(
            |problem| {
                self.error(
                    "load",
                    format!(
                        "its snapshot is not usable: {problem}; it is left as it is (export it, fix it, import it)"
                    ),
                )
            },
        )
    }

    /// What changed since `seen`, given the row found: the board if its
    /// revision moved (an empty one for a row gone or without snapshot,
    /// when one was seen), else `None`.
    fn changed(&self, seen: Option<i64>, row: Option<Row>) -> Result<Option<Board>, StoreError> {
        let (revision, snapshot) = row.unwrap_or((0, None));
        let board = match (seen, revision, snapshot) {
            (Some(seen), now, _) if seen == now => None,
            (None, 0, _) => None,
            (_, 0, _) => Some(Board::new(self.limits, self.history_enabled)),
            (_, _, Some(snapshot)) => Some(self.board(&snapshot)?),
            (_, _, None) => {
                return Err(self.error("load", "the row changed while it was read".into()));
            }
        };
        *self.seen.lock() = Some(revision);
        Ok(board)
    }

    /// Locks the row (making it if the board has none), as `lock` does,
    /// until `until`.
    fn lock_row(&self, until: Instant) -> Result<Held, StoreError> {
        let pool = self.database.pool().clone();
        let name = self.name.clone();
        let seen = self.seen.lock().unwrap_or(-1);
        let wait = until.saturating_duration_since(Instant::now());
        // 0 would mean no limit at all; at least a millisecond.
        let wait_ms = wait.as_millis().max(1);
        let busy = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let busy_seen = busy.clone();
        let locked = self.database.block(wait + self.limit(), async move {
            let client = pool.get().await.map_err(|e| db::pool_error(&e))?;
            let begin = format!("BEGIN; SET LOCAL lock_timeout = {wait_ms}");
            let locked = async {
                let lock = client.prepare_cached(LOCK).await?;
                // Both sent at once, in this order: one round trip.
                let (began, row) = futures_util::future::join(
                    client.batch_execute(&begin),
                    client.query_opt(&lock, &[&name, &seen]),
                )
                .await;
                began?;
                match row? {
                    Some(row) => Ok::<_, tokio_postgres::Error>(Some(row)),
                    None => {
                        client.execute(PLACEHOLDER, &[&name]).await?;
                        client.query_opt(&lock, &[&name, &seen]).await
                    }
                }
            }
            .await;
            match locked {
                Ok(row) => {
                    let (revision, snapshot) = row
                        .map(|row| (row.get::<_, i64>(0), row.get::<_, Option<String>>(1)))
                        .unwrap_or((0, None));
                    Ok((client, revision, snapshot))
                }
                Err(error) => {
                    if error.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) {
                        busy_seen.store(true, std::sync::atomic::Ordering::SeqCst);
                    }
                    drop(Object::take(client));
                    Err(describe(&error))
                }
            }
        });
        match locked {
            Ok((client, revision, snapshot)) => Ok(Held {
                client,
                revision,
                fresh: Some(snapshot),
            }),
            Err(_) if busy.load(std::sync::atomic::Ordering::SeqCst) => Err(StoreError::Busy {
                board: self.name.clone(),
                lock: PathBuf::from("planning_boards"),
            }),
            Err(problem) => Err(self.error("lock", problem)),
        }
    }

    /// Writes `snapshot` under the held lock as the next revision and
    /// commits; returns that revision once the commit is acknowledged.
    fn write(&self, snapshot: String) -> Result<i64, StoreError> {
        let Some(held) = self.held.lock().take() else {
            return Err(self.error("save", "the board's row is not locked".into()));
        };
        let (name, revision) = (self.name.clone(), held.revision + 1);
        let client = held.client;
        let written = self.database.block(self.limit(), async move {
            let committed = async {
                let write = client.prepare_cached(WRITE).await?;
                // Both sent at once, in this order: one round trip.
                let (updated, commit) = futures_util::future::join(
                    client.execute(&write, &[&name, &revision, &snapshot]),
                    client.batch_execute("COMMIT"),
                )
                .await;
                updated?;
                commit
            }
            .await;
            committed.map_err(|error| {
                drop(Object::take(client));
                describe(&error)
            })
        });
        match written {
            Ok(()) => {
                *self.seen.lock() = Some(revision);
                Ok(revision)
            }
            Err(problem) => {
                // Whether the commit happened is unknown: read it again.
                *self.seen.lock() = None;
                Err(self.error("save", problem))
            }
        }
    }

    /// The stored snapshot as it is, byte for byte, with its revision;
    /// `None` when the board has none.
    pub(crate) fn export(&self) -> Result<Option<(i64, String)>, StoreError> {
        match self.read_row(-1)? {
            Some((revision, Some(snapshot))) if revision > 0 => Ok(Some((revision, snapshot))),
            _ => Ok(None),
        }
    }

    /// Stores `snapshot` (checked first: it must be a board this build
    /// reads) as the board's next revision, byte for byte, unless the
    /// board holds one already and not `replace`. Returns the revision.
    pub(crate) fn import(&self, snapshot: String, replace: bool) -> Result<i64, StoreError> {
        self.board(&snapshot)?;
        if snapshot.is_empty() {
            return Err(self.error("import", "the snapshot is empty".into()));
        }
        let until = Instant::now() + self.database.statement_timeout;
        let _lock = self.lock(until)?;
        let existing = self.held.lock().as_ref().map_or(0, |held| held.revision);
        if existing > 0 && !replace {
            return Err(self.error(
                "import",
                format!("the database holds it already (revision {existing}); pass --replace to overwrite it"),
            ));
        }
        self.write(snapshot)
    }

    /// Reads the row, its snapshot only if its revision is not `seen`.
    fn read_row(&self, seen: i64) -> Result<Option<Row>, StoreError> {
        let pool = self.database.pool().clone();
        let name = self.name.clone();
        self.database
            .block(self.limit(), async move {
                let client = pool.get().await.map_err(|e| db::pool_error(&e))?;
                let read = async {
                    let read = client.prepare_cached(READ).await?;
                    client.query_opt(&read, &[&name, &seen]).await
                }
                .await;
                match read {
                    Ok(row) => Ok(row.map(|row| (row.get(0), row.get(1)))),
                    Err(error) => {
                        drop(Object::take(client));
                        Err(describe(&error))
                    }
                }
            })
            .map_err(|problem| self.error("read", problem))
    }
}

impl SnapshotStore for PostgresStore {
    fn lock(&self, until: Instant) -> Result<WriteLock<'_>, StoreError> {
        let held = self.lock_row(until)?;
        *self.held.lock() = Some(held);
        Ok(Box::new(Unlock(self)))
    }

    fn may_block(&self) -> bool {
        true
    }

    fn persistent(&self) -> bool {
        true
    }

    /// Always: another server may have committed a change a moment ago, and
    /// only the database knows (the notification may still be on its way).
    fn may_have_changed(&self) -> bool {
        true
    }

    fn load_if_changed(&self) -> Result<Option<Board>, StoreError> {
        let seen = *self.seen.lock();
        let under_lock = self
            .held
            .lock()
            .as_mut()
            .map(|held| (held.revision, held.fresh.take()));
        let row = match under_lock {
            Some((revision, Some(snapshot))) => Some((revision, snapshot)),
            // Read once already under this lock: nothing can have moved.
            Some((revision, None)) if seen == Some(revision) => return Ok(None),
            Some((_, None)) => {
                return Err(self.error("load", "its snapshot could not be read; retry".into()));
            }
            None => self.read_row(seen.unwrap_or(-1))?,
        };
        self.changed(seen, row)
    }

    fn save(&self, board: &Board) -> Result<(), StoreError> {
        let json = snapshot::to_json(board);
        let json = String::from_utf8(json)
            .map_err(|_| self.error("save", "the snapshot is not UTF-8".into()))?;
        self.write(json).map(|_| ())
    }

    fn changed_elsewhere(&self) -> Option<watch::Receiver<u64>> {
        Some(self.database.watch(&self.name))
    }
}

/// The names of the boards stored in the database `settings` names, sorted.
pub(crate) fn stored_names(settings: &StorageSettings) -> Result<Vec<String>, StoreError> {
    let database = Database::shared(settings)?;
    let pool = database.pool().clone();
    let limit = database.connect_timeout + database.statement_timeout;
    database
        .block(limit, async move {
            let client = pool.get().await.map_err(|e| db::pool_error(&e))?;
            let rows = client.query(NAMES, &[]).await.map_err(|e| describe(&e))?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
        .map_err(|problem| StoreError::Database {
            doing: "list the boards of the database".into(),
            database: database.shown().to_owned(),
            problem,
        })
}

/// Board `name` as stored, read without locking: `None` when it has no snapshot.
pub(crate) fn read(
    settings: &StorageSettings,
    name: &str,
    limits: Limits,
    history_enabled: bool,
) -> Result<Option<Board>, StoreError> {
    let store = PostgresStore::open(settings, name, limits, history_enabled)?;
    match store.export()? {
        Some((_, snapshot)) => store.board(&snapshot).map(Some),
        None => Ok(None),
    }
}

/// What the database said, without the driver's prefixes: the server's
/// message (and its detail) for an error it reported, else the driver's
/// words and their cause. Never the connection string.
pub(crate) fn describe(error: &tokio_postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        return match db.detail() {
            Some(detail) => format!("{} ({detail})", db.message()),
            None => db.message().to_owned(),
        };
    }
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let words = cause.to_string();
        if !text.contains(&words) {
            text = format!("{text}: {words}");
        }
        source = cause.source();
    }
    text
}
