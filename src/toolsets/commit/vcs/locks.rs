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
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tokio::sync::OwnedMutexGuard;

use crate::runtime::{blocking, file_lock};

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
/// `wait`. The wait runs off the async workers and ends by itself at the
/// deadline (it polls, [`file_lock::lock_until`]): a holder that never lets
/// go leaves no thread blocked behind it, however many calls give up on it.
pub async fn lock_file(path: PathBuf, wait: Duration) -> Result<FileLock, String> {
    let shown = path.display().to_string();
    let until = Instant::now() + wait;
    let locked = blocking::run(move || {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        Ok::<_, std::io::Error>(file_lock::lock_until(&file, until)?.then_some(FileLock(file)))
    })
    .await;
    match locked {
        Ok(Some(lock)) => Ok(lock),
        Ok(None) => Err(format!(
            "another process held {shown} for more than {} s",
            wait.as_secs_f64()
        )),
        Err(error) => Err(format!("cannot lock {shown}: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_held_lock_file_is_given_up_on_at_the_deadline_and_a_free_one_taken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(JJ_LOCK_FILE);
        let held = lock_file(path.clone(), Duration::ZERO).await.unwrap();
        // Another open file description: flock locks conflict across them.
        let error = lock_file(path.clone(), Duration::from_millis(20))
            .await
            .unwrap_err();
        assert_eq!(
            error,
            format!(
                "another process held {} for more than 0.02 s",
                path.display()
            )
        );
        drop(held);
        let _again = lock_file(path.clone(), Duration::ZERO).await.unwrap();
        let missing = dir.path().join("missing").join(JJ_LOCK_FILE);
        let error = lock_file(missing.clone(), Duration::ZERO)
            .await
            .unwrap_err();
        assert_eq!(
            error,
            format!(
                "cannot lock {}: No such file or directory (os error 2)",
                missing.display()
            )
        );
    }
}
