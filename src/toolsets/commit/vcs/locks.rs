// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One lock per repository in the process, held across a call's
//! read-check-write; and for jj, a lock file in `.jj/` shared with other
//! processes of this server, so that two servers never describe `@` at once
//! (concurrent `jj describe` makes `@` divergent).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::OwnedMutexGuard;

/// The lock file in a jj repository's `.jj/` directory.
pub const JJ_LOCK_FILE: &str = "planning-mcp-server.lock";

/// The locks of the repositories this process has used, by top directory.
#[derive(Debug, Default)]
pub struct RepoLocks {
    locks: Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>,
}

impl RepoLocks {
    /// Waits for the lock of repository `key`.
    pub async fn lock(&self, key: &Path) -> OwnedMutexGuard<()> {
        let lock = self
            .locks
            .lock()
            .entry(key.to_path_buf())
            .or_default()
            .clone();
        lock.lock_owned().await
    }
}

/// An exclusive lock on a file, released when dropped.
#[derive(Debug)]
pub struct FileLock(File);

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Takes the exclusive lock on `path` (creating the file), waiting at most
/// `timeout`; a blocking wait runs off the async workers.
pub async fn lock_file(path: PathBuf, timeout: Duration) -> Result<FileLock, String> {
    let shown = path.display().to_string();
    let wait = tokio::task::spawn_blocking(move || {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        file.lock()?;
        Ok::<FileLock, std::io::Error>(FileLock(file))
    });
    match tokio::time::timeout(timeout, wait).await {
        Ok(Ok(Ok(lock))) => Ok(lock),
        Ok(Ok(Err(error))) => Err(format!("cannot lock {shown}: {error}")),
        Ok(Err(error)) => Err(format!("cannot lock {shown}: {error}")),
        Err(_) => Err(format!(
            "another process held {shown} for more than {} s",
            timeout.as_secs()
        )),
    }
}
