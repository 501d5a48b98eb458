// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The database's tables, created on first start and versioned.
//!
//! - `planning_schema`: one row, the schema's version. A database whose
//!   version is newer than [`VERSION`] is refused and never altered.
//! - `planning_boards`: a row per board: its name, a revision counted up by
//!   every save, the snapshot (the file backend's JSON without its
//!   `history`, or with it: see `history_generation`), when it was saved,
//!   and where its history stands: `history_generation`, the revision that
//!   wrote its history rows anew (0: the history is inside the snapshot, as
//!   an import and schema 1 leave it), and `history_last`, the number of
//!   its newest entry. A trigger announces every committed change with
//!   `NOTIFY planning_board_changed, '<name>'`, so that other servers
//!   (and a change made with `import` or by hand) wake their watchers.
//! - `planning_history`: a row per history entry of a board (its JSON, as
//!   in a snapshot's `history`), numbered; the last 1,000 of the generation
//!   are the board's history.
//!
//! Version 1 had no history rows; a server of version 2 migrates it on
//! start (the boards keep their history inside their snapshots until their
//! next change).
//!
//! The tables live in the first schema of the connection's `search_path`
//! (`public` by default; `options=-c search_path=planning` picks another).
//! Servers starting at once create them one at a time (an advisory lock).

use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, GenericClient};

use super::describe;

/// The schema this build creates and reads.
pub(super) const VERSION: i32 = 2;

/// The channel every committed change is announced on, with the board's name.
pub(super) const CHANNEL: &str = "planning_board_changed";

/// Serialises the creation of the tables by servers starting at once (an
/// arbitrary key of `pg_advisory_xact_lock`: "planning" in ASCII).
const CREATE_LOCK: i64 = 0x706c_616e_6e69_6e67;

/// The tables, their trigger and the version row; each statement is
/// idempotent, so a second server's run changes nothing.
const CREATE: &str = r#"
CREATE TABLE IF NOT EXISTS planning_schema (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    version integer NOT NULL
);
CREATE TABLE IF NOT EXISTS planning_boards (
    name text PRIMARY KEY,
    revision bigint NOT NULL,
    snapshot text NOT NULL,
    saved_at timestamptz NOT NULL DEFAULT now(),
    history_generation bigint NOT NULL DEFAULT 0,
    history_last bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS planning_history (
    board text NOT NULL,
    seq bigint NOT NULL,
    entry text NOT NULL,
    PRIMARY KEY (board, seq)
);
CREATE OR REPLACE FUNCTION planning_board_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('planning_board_changed', NEW.name);
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS planning_board_changed ON planning_boards;
CREATE TRIGGER planning_board_changed AFTER INSERT OR UPDATE ON planning_boards
    FOR EACH ROW EXECUTE FUNCTION planning_board_changed();
INSERT INTO planning_schema (version) VALUES (2) ON CONFLICT (only_row) DO NOTHING;
"#;

/// Version 1 to 2: the history in rows of its own.
const MIGRATE_1: &str = r#"
ALTER TABLE planning_boards
    ADD COLUMN history_generation bigint NOT NULL DEFAULT 0,
    ADD COLUMN history_last bigint NOT NULL DEFAULT 0;
CREATE TABLE planning_history (
    board text NOT NULL,
    seq bigint NOT NULL,
    entry text NOT NULL,
    PRIMARY KEY (board, seq)
);
UPDATE planning_schema SET version = 2;
"#;

/// Makes sure the tables are there in the version this build knows:
/// reads the version (no DDL when it is current, so a user without the
/// right to create tables can use tables an owner made), creates the
/// tables when there are none, migrates version 1, and refuses a newer
/// version. The error says
/// what is wrong, for "cannot use the planning tables in DATABASE: ...".
pub(super) async fn ensure(client: &mut Client) -> Result<(), String> {
    let version = match read_version(client).await {
        Ok(found @ (None | Some(1))) => upgrade(client, found).await?,
        Ok(Some(version)) => version,
        Err(error) => return Err(describe(&error)),
    };
    match version {
        VERSION => Ok(()),
        newer if newer > VERSION => Err(format!(
            "they are schema version {newer}, made by a newer planning-mcp-server; this one knows version {VERSION} and changes nothing: upgrade it, or point storage.url at another database"
        )),
        older => Err(format!(
            "they are schema version {older}, which no planning-mcp-server made; this one knows version {VERSION} and changes nothing"
        )),
    }
}

/// The schema's version, or `None` when its table does not exist.
async fn read_version(client: &impl GenericClient) -> Result<Option<i32>, tokio_postgres::Error> {
    let exists = client
        .query_one("SELECT to_regclass('planning_schema') IS NOT NULL", &[])
        .await?;
    if !exists.get::<_, bool>(0) {
        return Ok(None);
    }
    let row = client
        .query_opt("SELECT version FROM planning_schema", &[])
        .await?;
    Ok(row.map(|row| row.get(0)))
}

/// Brings tables `found` as they were (none, or version 1) to this version,
/// one server at a time: creates them, or migrates them. Returns the
/// version then stored (another server may have done it meanwhile).
async fn upgrade(client: &mut Client, found: Option<i32>) -> Result<i32, String> {
    let failed = |error: tokio_postgres::Error| {
        let denied = error.code() == Some(&SqlState::INSUFFICIENT_PRIVILEGE);
        match found {
            None => format!(
                "they do not exist and cannot be created: {}{}",
                describe(&error),
                if denied {
                    "; grant the user CREATE on the schema, or have the database's owner start planning-mcp-server once (docs/storage.md)"
                } else {
                    ""
                }
            ),
            Some(old) => format!(
                "they are schema version {old} and cannot be migrated to version {VERSION}: {}{}",
                describe(&error),
                if denied {
                    "; have the tables' owner start planning-mcp-server once (docs/storage.md)"
                } else {
                    ""
                }
            ),
        }
    };
    let transaction = client.transaction().await.map_err(failed)?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&CREATE_LOCK])
        .await
        .map_err(failed)?;
    // Read again under the lock: another server may have been first.
    let version = match read_version(&transaction).await.map_err(failed)? {
        None => {
            transaction.batch_execute(CREATE).await.map_err(failed)?;
            tracing::info!(version = VERSION, "created the planning tables");
            VERSION
        }
        Some(1) => {
            transaction.batch_execute(MIGRATE_1).await.map_err(failed)?;
            tracing::info!(from = 1, to = VERSION, "migrated the planning tables");
            VERSION
        }
        Some(version) => version,
    };
    transaction.commit().await.map_err(failed)?;
    Ok(version)
}
