// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One database as a process uses it: the pool of connections its boards'
//! calls share, the connection that listens for other servers' changes,
//! and a runtime of their own.
//!
//! Why a runtime of its own: the board store is called synchronously (on a
//! blocking thread in the server, on the main thread in `import`/`export`),
//! while the driver is async. The database's tasks (the connections and the
//! listener) run on one worker thread made for them, and a call hands its
//! work over and waits for the answer, from any thread, with or without a
//! runtime of the caller's. Every board of the process on the same
//! `[storage]` shares one [`Database`] ([`Database::shared`]).

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use parking_lot::Mutex;
use tokio::sync::watch;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::url::ConnectionString;
use super::{describe, listen, schema, tls};
use crate::toolsets::planning::config::StorageSettings;
use crate::toolsets::planning::store::StoreError;

/// The databases open in this process, by their settings.
static OPEN: Mutex<Vec<(String, Weak<Database>)>> = Mutex::new(Vec::new());

/// A database and the means to use it.
pub(crate) struct Database {
    /// `None` only while dropping.
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
    pool: Pool,
    url: ConnectionString,
    tls: MakeRustlsConnect,
    /// The database as messages show it (no password).
    shown: String,
    /// How long a statement may take; also bounds the wait for a connection.
    pub statement_timeout: Duration,
    /// How long connecting may take.
    pub connect_timeout: Duration,
    /// Per board, what wakes its watchers when another server changed it.
    watchers: Mutex<HashMap<String, watch::Sender<u64>>>,
    /// Whether the listening connection was started.
    listening: AtomicBool,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Database({})", self.shown)
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        // Dropped anywhere, a runtime in a runtime included: stop its
        // tasks (connections close) without waiting for them.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Database {
    /// The database `settings` name, shared with every other board of this
    /// process on the same settings; opened (a connection made, the tables
    /// checked or created) if it is not open yet. Fails with a clear
    /// message when the database cannot be reached or used.
    pub(crate) fn shared(settings: &StorageSettings) -> Result<Arc<Self>, StoreError> {
        let Some(url) = settings.url.as_ref() else {
            return Err(unconfigured());
        };
        let key = format!(
            "{}\0{:?}\0{:?}\0{}",
            url.expose(),
            settings.connect_timeout,
            settings.statement_timeout,
            settings.pool_size
        );
        // Held while opening, so that one database is opened once.
        let mut open = OPEN.lock();
        open.retain(|(_, database)| database.strong_count() > 0);
        if let Some(database) = open
            .iter()
            .find(|(known, _)| *known == key)
            .and_then(|(_, database)| database.upgrade())
        {
            return Ok(database);
        }
        let database = Arc::new(Self::open(settings, url.expose())?);
        open.push((key, Arc::downgrade(&database)));
        Ok(database)
    }

    fn open(settings: &StorageSettings, url: &str) -> Result<Self, StoreError> {
        let fail = |problem: String| StoreError::Database {
            doing: "open the board database".into(),
            database: "storage.url".into(),
            problem,
        };
        let mut url =
            ConnectionString::parse(url).map_err(|problem| fail(format!("it {problem}")))?;
        let shown = url.display();
        let connect_timeout = settings.connect_timeout.duration();
        let statement_timeout = settings.statement_timeout.duration();
        let config = &mut url.config;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(connect_timeout);
        }
        // A dead peer (a machine gone, no reset) is noticed by the listener.
        config.keepalives_idle(Duration::from_secs(30));
        let options = format!(
            "{} -c statement_timeout={}",
            config.get_options().unwrap_or(""),
            statement_timeout.as_millis()
        );
        config.options(options.trim_start());
        let tls = tls::connector(url.tls, url.root_cert.as_deref(), url.client_cert.as_ref())
            .map_err(fail)?;
        let manager = Manager::from_config(
            url.config.clone(),
            tls.clone(),
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(settings.pool_size)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(statement_timeout))
            .create_timeout(Some(connect_timeout))
            .recycle_timeout(Some(connect_timeout))
            .build()
            .map_err(|error| fail(error.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("postgres")
            .enable_all()
            .build()
            .map_err(|error| fail(format!("cannot start its thread: {error}")))?;
        let database = Self {
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
            pool,
            url,
            tls,
            shown,
            statement_timeout,
            connect_timeout,
            watchers: Mutex::new(HashMap::new()),
            listening: AtomicBool::new(false),
        };
        database.check_schema()?;
        Ok(database)
    }

    /// Checks (or creates) the tables, on a connection of the pool.
    fn check_schema(&self) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        let limit = self.connect_timeout + self.statement_timeout;
        // Outside: no connection (or no answer in time); inside: the tables.
        let checked = self.block(limit, async move {
            let mut client = pool.get().await.map_err(|error| pool_error(&error))?;
            Ok(schema::ensure(&mut client).await)
        });
        let (doing, problem) = match checked {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(problem)) => ("use the planning tables of the board database", problem),
            Err(problem) => ("connect to the board database", problem),
        };
        Err(StoreError::Database {
            doing: doing.into(),
            database: self.shown.clone(),
            problem,
        })
    }

    /// The database as messages show it: `postgres://user@host:port/db`.
    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }

    /// The pool of connections.
    pub(crate) fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Runs `work` on the database's runtime and waits for its result, at
    /// most `limit` (then the work is dropped: its connection closes, never
    /// to be reused mid-way, since every connection it holds is its own).
    pub(crate) fn block<T: Send + 'static>(
        &self,
        limit: Duration,
        work: impl Future<Output = Result<T, String>> + Send + 'static,
    ) -> Result<T, String> {
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let outcome = match tokio::time::timeout(limit, work).await {
                Ok(outcome) => outcome,
                Err(_) => Err(format!(
                    "the database did not answer within {} s (storage.connect_timeout and storage.statement_timeout)",
                    limit.as_secs_f64()
                )),
            };
            let _ = sender.send(outcome);
        });
        receiver
            .recv()
            .unwrap_or_else(|_| Err("the database's thread stopped".into()))
    }

    /// A receiver that wakes when board `name` was changed by anyone (this
    /// process too: its own changes are then found already loaded), and
    /// once after the listening connection was lost and made again (a
    /// change may have gone unheard meanwhile). Starts the listener.
    pub(crate) fn watch(self: &Arc<Self>, name: &str) -> watch::Receiver<u64> {
        let receiver = self
            .watchers
            .lock()
            .entry(name.to_owned())
            .or_insert_with(|| watch::Sender::new(0))
            .subscribe();
        if !self.listening.swap(true, Ordering::SeqCst) {
            let database = Arc::downgrade(self);
            let (config, tls) = (self.url.config.clone(), self.tls.clone());
            self.handle
                .spawn(listen::run(config, tls, self.shown.clone(), database));
        }
        receiver
    }

    /// Wakes the watchers of board `name` (all boards when `None`).
    pub(crate) fn wake(&self, name: Option<&str>) {
        let watchers = self.watchers.lock();
        let wake = |sender: &watch::Sender<u64>| sender.send_modify(|n| *n += 1);
        match name {
            Some(name) => watchers.get(name).into_iter().for_each(wake),
            None => watchers.values().for_each(wake),
        }
    }
}

/// The error of a backend `postgres` without `storage.url`.
fn unconfigured() -> StoreError {
    StoreError::Database {
        doing: "open the board database".into(),
        database: "storage.url".into(),
        problem: "it is not set".into(),
    }
}

/// What went wrong getting a connection from the pool.
pub(super) fn pool_error(error: &deadpool_postgres::PoolError) -> String {
    use deadpool_postgres::PoolError;
    match error {
        PoolError::Backend(error) => describe(error),
        PoolError::Timeout(_) => {
            "no connection to the database could be had in time (storage.connect_timeout, storage.pool_size)".into()
        }
        other => other.to_string(),
    }
}
