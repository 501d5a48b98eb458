// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `postgres` backend: a row per board in a PostgreSQL database that
//! any number of servers share (`docs/storage.md`).
//!
//! A change follows the shared board's protocol, one transaction long:
//! [`SnapshotStore::lock`] begins a transaction and locks the board's row
//! (`SELECT ... FOR UPDATE`, waiting at most until the call's deadline:
//! `SET LOCAL lock_timeout`) and reads what changed since this process
//! last saw the board: nothing but the revision when it did not move;
//! [`SnapshotStore::save`] writes the new snapshot with the next revision and
//! the new history entries, and commits, and returns only once the commit
//! is acknowledged. Writers of one board, in every server, are therefore
//! serialised by the row lock: no update is lost, a refusal is decided
//! against the latest board, and a claim has one winner. A change that is
//! refused, or whose save fails, rolls back. A board without a row gets one
//! inside the transaction (so a refused first change leaves nothing).
//!
//! The history lives in rows of its own (`planning_history`), a row per
//! entry, so that a change costs the database the snapshot of the tasks
//! and the entries it added, and a server that finds the board changed by
//! another reads the new entries only: it keeps the history it last saw
//! ([`Seen`]) and appends them. A history rewritten as a whole (an import,
//! a board of schema 1) starts a new generation, which no kept copy matches.
//!
//! Reads ask the database for the row's revision on every call (one indexed
//! query; the snapshot and new entries travel only when the revision moved),
//! so a change acknowledged by one server is what the next call on any other
//! reads. A committed change is also announced (a trigger's `NOTIFY`), which
//! wakes the board's watchers in every server at once instead of polling.
//!
//! Any connection that fails or times out mid-way is closed, never handed
//! to another call; the pool makes new ones, so calls work again as soon
//! as the database is back.

mod db;
mod history_rows;
mod listen;
mod schema;
mod tls;
mod url;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use deadpool_postgres::Object;
use parking_lot::Mutex;
use tokio::sync::watch;
use tokio_postgres::error::SqlState;

pub(crate) use self::db::Database;
use self::history_rows::HistoryWrite;
pub(crate) use self::url::ConnectionString;
use super::file::MAX_SNAPSHOT_BYTES;
use super::{SnapshotStore, StoreError, WriteLock, snapshot};
use crate::runtime::clock::Clock;
use crate::toolsets::planning::config::StorageSettings;
use crate::toolsets::planning::domain::action::Done;
use crate::toolsets::planning::domain::history::{Entry, HISTORY_CAP};
use crate::toolsets::planning::domain::{Board, History, Limits};

/// Locks the board's row.
const LOCK: &str = "SELECT 1 FROM planning_boards WHERE name = $1 FOR UPDATE";
/// The row of a board that has none yet, inside the change's transaction:
/// revision 0 and no snapshot (rolled back with a refused change).
const PLACEHOLDER: &str = "INSERT INTO planning_boards (name, revision, snapshot) \
                           VALUES ($1, 0, '') ON CONFLICT (name) DO NOTHING";
/// The board's row as one consistent read: its revision and history
/// generation and last entry; when the revision is not `$2` (the one last
/// seen), its snapshot and, when `$5` (the history is kept), the entries of
/// its generation newer than `$4` if the generation is `$3` (the one last
/// seen), else all of them, at most `$6`; the snapshot and entries only
/// when together they are at most `$7` bytes (their sizes are read first,
/// without reading them: a row too large never travels). Last, the
/// database's clock at the read (under the lock during a change): the
/// board's one clock.
const READ: &str = "SELECT b.revision, b.history_generation, b.history_last, \
                           CASE WHEN b.revision <> $2 AND s.bytes <= $7 THEN b.snapshot END, \
                           CASE WHEN s.bytes <= $7 THEN h.seqs END, \
                           CASE WHEN s.bytes <= $7 THEN h.entries END, \
                           s.bytes, clock_timestamp() \
                    FROM planning_boards b LEFT JOIN LATERAL ( \
                        SELECT array_agg(seq ORDER BY seq) AS seqs, \
                               array_agg(entry ORDER BY seq) AS entries, \
                               sum(octet_length(entry)) AS bytes \
                        FROM planning_history \
                        WHERE $5::boolean AND b.revision <> $2 AND b.history_generation > 0 \
                          AND board = b.name \
                          AND seq > CASE WHEN b.history_generation = $3::bigint THEN $4::bigint ELSE 0 END \
                          AND seq > b.history_last - $6::bigint AND seq <= b.history_last \
                    ) h ON true \
                    CROSS JOIN LATERAL ( \
                        SELECT (CASE WHEN b.revision <> $2 THEN octet_length(b.snapshot) ELSE 0 END \
                                + coalesce(h.bytes, 0))::bigint AS bytes \
                    ) s \
                    WHERE b.name = $1";
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
    /// What this process last loaded or saved; `None` when unknown (at
    /// first, and after a commit whose outcome is unknown).
    seen: Mutex<Option<Seen>>,
    /// The transaction of the change under way, from `lock` to `save`.
    held: Mutex<Option<Held>>,
    /// The database's clock as the last read of the row found it: the
    /// board's one clock (`None` until a read found the row).
    clock: Mutex<Option<Clock>>,
}

/// The board as this process last loaded or saved it.
#[derive(Debug)]
struct Seen {
    /// Its revision (0: the board had no snapshot).
    revision: i64,
    /// Its history as stored in rows (when kept here): the generation, and
    /// the entries, whose count of recorded entries is the last one's number.
    history: Option<(i64, History)>,
}

/// Where a board's row stands.
#[derive(Debug, Clone, Copy, Default)]
struct Head {
    /// Counted up by every save; 0: no snapshot yet.
    revision: i64,
    /// The revision that wrote the history rows anew, 0 when the history
    /// is inside the snapshot (an import, a board of schema 1).
    generation: i64,
    /// The number of the newest history entry.
    last: i64,
}

/// What a row holds: where it stands and, when the revision moved, its
/// snapshot and the history entries asked for (numbered). A board without
/// a row reads as revision 0.
#[derive(Debug)]
struct Row {
    head: Head,
    snapshot: Option<String>,
    entries: Vec<(i64, String)>,
    /// Whether `entries` are the generation's all (as far as the cap
    /// keeps them), rather than those after a number last seen.
    complete: bool,
    /// The number the entries follow, when not `complete`.
    after: i64,
    /// The bytes of the snapshot and entries asked for (whether or not
    /// they were sent: above [`MAX_SNAPSHOT_BYTES`] they are not).
    bytes: i64,
    /// The database's clock at the read.
    at: Option<std::time::SystemTime>,
}

impl Row {
    fn missing() -> Self {
        Self {
            head: Head::default(),
            snapshot: None,
            entries: Vec::new(),
            complete: true,
            after: 0,
            bytes: 0,
            at: None,
        }
    }
}

/// A change's transaction: its connection and what the locked row held.
#[derive(Debug)]
struct Held {
    client: Object,
    head: Head,
    /// The row as read under the lock, taken by the `load_if_changed` that
    /// follows the lock.
    fresh: Option<Row>,
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
            clock: Mutex::new(None),
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

    fn unusable(&self, problem: &str) -> StoreError {
        self.refused_row(format!(
            "its snapshot is not usable: {problem}; it is left as it is (export it, fix it, import it)"
        ))
    }

    /// The error of a row that is there but cannot be used: the board is
    /// refused, the database (and its other boards) still serve.
    fn refused_row(&self, problem: String) -> StoreError {
        StoreError::Unusable {
            doing: format!("load board {} in the database", self.name),
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

    /// The parameters of [`READ`] that say what this process has seen:
    /// `(revision, generation, last entry)`, all -1 when nothing.
    fn read_after(&self) -> (i64, i64, i64) {
        match &*self.seen.lock() {
            Some(seen) => {
                let (generation, last) =
                    seen.history
                        .as_ref()
                        .map_or((-1, -1), |(generation, history)| {
                            (
                                *generation,
                                i64::try_from(history.recorded()).unwrap_or(i64::MAX),
                            )
                        });
                (seen.revision, generation, last)
            }
            None => (-1, -1, -1),
        }
    }

    /// The board a row holds (its snapshot taken out), its history the
    /// entries this process `kept` of the row's generation, if any, and the
    /// row's entries after those.
    fn board(&self, row: Row, snapshot: &str, kept: Option<History>) -> Result<Board, StoreError> {
        let Head {
            generation, last, ..
        } = row.head;
        if snapshot.is_empty() {
            return Ok(Board::new(self.limits, self.history_enabled));
        }
        let inline = self.history_enabled && generation == 0;
        let board = snapshot::from_json(snapshot.as_bytes(), self.limits, inline)
            .map_err(|problem| self.unusable(&problem))?;
        if !self.history_enabled || inline {
            return Ok(board);
        }
        let rows = self.entries(row.entries)?;
        Ok(board.with_history(Some(history_rows::merge(kept, rows, last))))
    }

    /// History rows read, parsed; the first that is not an entry is an error.
    fn entries(&self, rows: Vec<(i64, String)>) -> Result<Vec<(i64, Entry)>, StoreError> {
        rows.into_iter()
            .map(|(seq, json)| {
                snapshot::entry_from_json(&json, usize::try_from(seq).unwrap_or(0))
                    .map(|entry| (seq, entry))
                    .map_err(|problem| {
                        self.refused_row(
                            format!(
                                "its history entry {seq} is not usable: {problem}; it is left as it is (fix it, or delete it: DELETE FROM planning_history WHERE board = '{}' AND seq = {seq})",
                                self.name
                            ),
                        )
                    })
            })
            .collect()
    }

    /// The revision this process last saw.
    fn seen_revision(&self) -> Option<i64> {
        self.seen.lock().as_ref().map(|seen| seen.revision)
    }

    /// What changed since this process last saw the board, given the row
    /// read: the board if its revision moved (an empty one for a row gone
    /// or without snapshot, when one was seen), else `None`.
    fn changed(&self, mut row: Row) -> Result<Option<Board>, StoreError> {
        self.note_time(&row);
        self.check_size(&row)?;
        let mut seen = self.seen.lock();
        let board = match (seen.as_ref().map(|seen| seen.revision), row.head.revision) {
            (Some(seen), now) if seen == now => return Ok(None),
            (None, 0) => None,
            (_, 0) => Some(Board::new(self.limits, self.history_enabled)),
            _ => {
                // The kept history serves the generation it is of, if the
                // entries read follow it (what this process saw may have
                // moved since the read was asked for).
                let kept = seen
                    .take()
                    .and_then(|seen| seen.history)
                    .filter(|(generation, history)| {
                        *generation == row.head.generation
                            && (row.complete
                                || i64::try_from(history.recorded()).is_ok_and(|n| n >= row.after))
                    })
                    .map(|(_, history)| history);
                // Not held across a read: what this process saw is unknown
                // (`None`) until the board is built.
                drop(seen);
                if kept.is_none() && !row.complete {
                    row = self.read_all()?;
                    self.check_size(&row)?;
                }
                let Some(snapshot) = row.snapshot.take() else {
                    return Err(self.error("load", "the row changed while it was read".into()));
                };
                let revision = row.head.revision;
                let generation = row.head.generation;
                let board = self.board(row, &snapshot, kept)?;
                *self.seen.lock() = Some(Seen {
                    revision,
                    history: board
                        .history()
                        .filter(|_| generation > 0)
                        .map(|history| (generation, history.clone())),
                });
                return Ok(Some(board));
            }
        };
        *seen = Some(Seen {
            revision: row.head.revision,
            history: None,
        });
        Ok(board)
    }

    /// Takes the database's clock as the read of `row` found it.
    fn note_time(&self, row: &Row) {
        if let Some(at) = row.at {
            *self.clock.lock() = Some(Clock::anchored(at));
        }
    }

    /// Refuses a row whose snapshot and history entries, as asked for, are
    /// larger than a board may be (the file backend's limit): they were
    /// not read, and the row is left as it is.
    fn check_size(&self, row: &Row) -> Result<(), StoreError> {
        if u64::try_from(row.bytes).unwrap_or(0) <= MAX_SNAPSHOT_BYTES {
            return Ok(());
        }
        Err(self.refused_row(
            format!(
                "its snapshot and history rows are {} bytes, more than the {MAX_SNAPSHOT_BYTES} a board may hold; they were not read and are left as they are (shrink them in the database, e.g. delete old rows: DELETE FROM planning_history WHERE board = '{}' AND seq <= N)",
                row.bytes, self.name
            ),
        ))
    }

    /// Locks the row (making it if the board has none), as `lock` does,
    /// until `until`, and reads what changed since this process saw it.
    fn lock_row(&self, until: Instant) -> Result<Held, StoreError> {
        let pool = self.database.pool().clone();
        let name = self.name.clone();
        let after = self.read_after();
        let history = self.history_enabled;
        let wait = until.saturating_duration_since(Instant::now());
        // 0 would mean no limit at all; at least a millisecond.
        let wait_ms = wait.as_millis().max(1);
        let busy = Arc::new(AtomicBool::new(false));
        let busy_seen = busy.clone();
        let locked = self.database.block(wait + self.limit(), async move {
            let client = pool.get().await.map_err(|e| db::pool_error(&e))?;
            let begin = format!("BEGIN; SET LOCAL lock_timeout = {wait_ms}");
            let locked = async {
                let (lock, read) = futures_util::future::try_join(
                    client.prepare_cached(LOCK),
                    client.prepare_cached(READ),
                )
                .await?;
                // All sent at once, in this order: one round trip. The read
                // is a statement of its own so that it sees what the lock
                // holder before committed.
                let (began, locked, row) = futures_util::future::join3(
                    client.batch_execute(&begin),
                    client.query_opt(&lock, &[&name]),
                    read_row(&client, &read, &name, after, history),
                )
                .await;
                began?;
                if locked?.is_some() {
                    return row;
                }
                client.execute(PLACEHOLDER, &[&name]).await?;
                client.query_opt(&lock, &[&name]).await?;
                read_row(&client, &read, &name, after, history).await
            }
            .await;
            match locked {
                Ok(row) => Ok((client, row)),
                Err(error) => {
                    if error.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) {
                        busy_seen.store(true, Ordering::SeqCst);
                    }
                    drop(Object::take(client));
                    Err(describe(&error))
                }
            }
        });
        match locked {
            Ok((client, row)) => {
                let row = row.unwrap_or_else(Row::missing);
                Ok(Held {
                    client,
                    head: row.head,
                    fresh: Some(row),
                })
            }
            Err(_) if busy.load(Ordering::SeqCst) => Err(StoreError::Busy {
                board: self.name.clone(),
                lock: PathBuf::from("planning_boards"),
            }),
            Err(problem) => Err(self.error("lock", problem)),
        }
    }

    /// Writes `board` under the held lock as the next revision, with the
    /// history entries it added (or its whole history, when the stored one
    /// cannot be extended), and commits; returns once the commit is
    /// acknowledged.
    fn write_board(&self, board: &Board) -> Result<(), StoreError> {
        let snapshot = String::from_utf8(match board.history() {
            Some(_) => snapshot::to_json_without_history(board),
            None => snapshot::to_json(board),
        })
        .map_err(|_| self.error("save", "the snapshot is not UTF-8".into()))?;
        // Taken out, the transaction is this call's to commit or drop.
        let held = self.held.lock().take();
        let Some(Held { client, head, .. }) = held else {
            return Err(self.error("save", "the board's row is not locked".into()));
        };
        let revision = head.revision + 1;
        let plan = board
            .history()
            .map(|history| HistoryWrite::of(head, revision, history));
        let generation = plan.as_ref().map(|plan| plan.generation);
        let name = self.name.clone();
        let written = self.database.block(self.limit(), async move {
            let committed = async {
                match &plan {
                    None => {
                        let write = client.prepare_cached(WRITE).await?;
                        let (updated, commit) = futures_util::future::join(
                            client.execute(&write, &[&name, &revision, &snapshot]),
                            client.batch_execute("COMMIT"),
                        )
                        .await;
                        updated?;
                        commit
                    }
                    Some(plan) => plan.run(&client, &name, revision, &snapshot).await,
                }
            }
            .await;
            committed.map_err(|error| {
                drop(Object::take(client));
                describe(&error)
            })
        });
        let mut seen = self.seen.lock();
        match written {
            Ok(()) => {
                *seen = Some(Seen {
                    revision,
                    history: generation.zip(board.history().cloned()),
                });
                Ok(())
            }
            Err(problem) => {
                // Whether the commit happened is unknown: read it again.
                *seen = None;
                Err(self.error("save", problem))
            }
        }
    }

    /// The stored snapshot, with its revision: as imported, byte for byte,
    /// or as the file backend would have written the board at its last
    /// save; `None` when the board has none. A snapshot this build cannot
    /// read is exported as stored, its history appended, for a person to
    /// fix and import.
    pub(crate) fn export(&self) -> Result<Option<(i64, String)>, StoreError> {
        let mut row = self.read_all()?;
        self.check_size(&row)?;
        let Some(snapshot) = row.snapshot.take().filter(|_| row.head.revision > 0) else {
            return Ok(None);
        };
        if row.head.generation == 0 {
            return Ok(Some((row.head.revision, snapshot)));
        }
        let entries: Vec<_> = self
            .entries(row.entries)?
            .into_iter()
            .map(|(_, entry)| entry)
            .collect();
        let whole = snapshot::with_history(&snapshot, &entries)
            .unwrap_or_else(|_| appended(&snapshot, &entries));
        Ok(Some((row.head.revision, whole)))
    }

    /// The board as stored, read without locking: `None` when it has none.
    fn stored(&self) -> Result<Option<Board>, StoreError> {
        let mut row = self.read_all()?;
        self.check_size(&row)?;
        match row.snapshot.take() {
            Some(snapshot) if row.head.revision > 0 => self.board(row, &snapshot, None).map(Some),
            _ => Ok(None),
        }
    }

    /// Stores `snapshot` (checked first: it must be a board this build
    /// reads) as the board's next revision, byte for byte, with its history
    /// inside, unless the board holds one already and not `replace`.
    /// Returns the revision.
    pub(crate) fn import(&self, snapshot: String, replace: bool) -> Result<i64, StoreError> {
        if snapshot.is_empty() {
            return Err(self.error("import", "the snapshot is empty".into()));
        }
        snapshot::from_json(snapshot.as_bytes(), self.limits, true)
            .map_err(|problem| self.unusable(&problem))?;
        let until = Instant::now() + self.database.statement_timeout;
        let _lock = self.lock(until)?;
        let Some(Held { client, head, .. }) = self.held.lock().take() else {
            return Err(self.error("import", "the board's row is not locked".into()));
        };
        if head.revision > 0 && !replace {
            self.roll_back(client);
            return Err(self.error(
                "import",
                format!(
                    "the database holds it already (revision {}); pass --replace to overwrite it",
                    head.revision
                ),
            ));
        }
        let (name, revision) = (self.name.clone(), head.revision + 1);
        let plan = HistoryWrite::inline(head);
        let written = self.database.block(self.limit(), async move {
            plan.run(&client, &name, revision, &snapshot)
                .await
                .map_err(|error| {
                    drop(Object::take(client));
                    describe(&error)
                })
        });
        *self.seen.lock() = None;
        written
            .map(|()| revision)
            .map_err(|problem| self.error("import", problem))
    }

    /// The whole row, its history entries all, read without locking.
    fn read_all(&self) -> Result<Row, StoreError> {
        self.read((-1, -1, -1), true)
    }

    /// Reads the row: what changed since this process last saw it.
    fn read_changes(&self) -> Result<Row, StoreError> {
        self.read(self.read_after(), self.history_enabled)
    }

    /// Reads the row without locking, as [`read_row`] does.
    fn read(&self, after: (i64, i64, i64), history: bool) -> Result<Row, StoreError> {
        let pool = self.database.pool().clone();
        let name = self.name.clone();
        self.database
            .block(self.limit(), async move {
                let client = pool.get().await.map_err(|e| db::pool_error(&e))?;
                let read = async {
                    let read = client.prepare_cached(READ).await?;
                    read_row(&client, &read, &name, after, history).await
                }
                .await;
                read.map(|row| row.unwrap_or_else(Row::missing))
                    .map_err(|error| {
                        drop(Object::take(client));
                        describe(&error)
                    })
            })
            .map_err(|problem| self.error("read", problem))
    }
}

/// `snapshot`, which is not one this build reads, as it is with `entries`
/// put in as its last field, `history`.
fn appended(snapshot: &str, entries: &[Entry]) -> String {
    let body = snapshot.trim_end();
    let body = body.strip_suffix('}').unwrap_or(body).trim_end();
    let entries: Vec<String> = entries.iter().map(snapshot::entry_to_json).collect();
    format!(
        "{body},\n  \"history\": [\n    {}\n  ]\n}}\n",
        entries.join(",\n    ")
    )
}

/// Runs [`READ`] for board `name`, after `(revision, generation, last
/// entry)` seen, with the history entries when `history`.
async fn read_row(
    client: &Object,
    read: &tokio_postgres::Statement,
    name: &str,
    (revision, generation, last): (i64, i64, i64),
    history: bool,
) -> Result<Option<Row>, tokio_postgres::Error> {
    let cap = HISTORY_CAP as i64;
    let limit = i64::try_from(MAX_SNAPSHOT_BYTES).unwrap_or(i64::MAX);
    let row = client
        .query_opt(
            read,
            &[&name, &revision, &generation, &last, &history, &cap, &limit],
        )
        .await?;
    Ok(row.map(|row| {
        let seqs: Option<Vec<i64>> = row.get(4);
        let entries: Option<Vec<String>> = row.get(5);
        let head = Head {
            revision: row.get(0),
            generation: row.get(1),
            last: row.get(2),
        };
        Row {
            head,
            snapshot: row.get(3),
            entries: seqs
                .unwrap_or_default()
                .into_iter()
                .zip(entries.unwrap_or_default())
                .collect(),
            complete: head.generation != generation,
            after: last,
            bytes: row.get(6),
            at: row.get(7),
        }
    }))
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
        let under_lock = self
            .held
            .lock()
            .as_mut()
            .map(|held| (held.head.revision, held.fresh.take()));
        let row = match under_lock {
            Some((_, Some(row))) => row,
            // Read once already under this lock: nothing can have moved.
            Some((revision, None)) if self.seen_revision() == Some(revision) => return Ok(None),
            Some((_, None)) => {
                return Err(self.error("load", "its snapshot could not be read; retry".into()));
            }
            None => self.read_changes()?,
        };
        self.changed(row)
    }

    fn save(&self, board: &Board, _change: &Done) -> Result<(), StoreError> {
        self.write_board(board)
    }

    /// The database's clock, as the last read found it: every replica's
    /// leases end by it, whatever its own clock says.
    fn clock(&self) -> Option<Clock> {
        *self.clock.lock()
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

/// Whether the database `settings` names answers a trivial query within
/// `limit`, through the pool the boards use (so a live pool costs one
/// round trip, no new connection): the health check of a replica. The
/// error is the driver's words for the log, never the connection string.
pub(crate) fn reachable(settings: &StorageSettings, limit: Duration) -> Result<(), String> {
    let database = Database::shared(settings).map_err(|error| error.to_string())?;
    let pool = database.pool().clone();
    database.block(limit, async move {
        let client = pool.get().await.map_err(|e| db::pool_error(&e))?;
        client
            .simple_query("SELECT 1")
            .await
            .map_err(|e| describe(&e))?;
        Ok(())
    })
}

/// Board `name` as stored, read without locking: `None` when it has no snapshot.
pub(crate) fn read(
    settings: &StorageSettings,
    name: &str,
    limits: Limits,
    history_enabled: bool,
) -> Result<Option<Board>, StoreError> {
    PostgresStore::open(settings, name, limits, history_enabled)?.stored()
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
