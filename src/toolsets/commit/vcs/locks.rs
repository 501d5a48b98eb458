// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One lock per repository in the process, held across a call's
//! read-check-write; and for jj, a lock file in `.jj/` shared with other
//! processes of this server, so that two servers never describe `@` at once
//! (concurrent `jj describe` makes `@` divergent).

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::runtime::file_lock::{Access, FileLock, LockError};
use crate::runtime::keyed_mutex::KeyedMutex;

/// The lock file in a jj repository's `.jj/` directory.
pub(crate) const JJ_LOCK_FILE: &str = "planning-mcp-server.lock";

/// The locks of the repositories this process has used, by top directory:
/// Tokio mutexes, held across the VCS processes of one call.
pub(crate) type RepoLocks = KeyedMutex<PathBuf>;

/// Takes the exclusive lock on `path` (creating the file), waiting at most
/// `wait`. The wait runs off the async workers, tracked for shutdown, and
/// ends by itself at the deadline ([`FileLock`]): a holder that never lets
/// go leaves no thread blocked behind it, however many calls give up on it.
pub(crate) async fn lock_file(path: PathBuf, wait: Duration) -> Result<FileLock, String> {
    let shown = path.display().to_string();
    let open = move || {
        OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
    };
    match FileLock::wait_async(open, Access::Exclusive, Instant::now() + wait).await {
        Ok(lock) => Ok(lock),
        Err(LockError::Held) => Err(format!(
            "another process held {shown} for more than {} s",
            wait.as_secs_f64()
        )),
        Err(LockError::Io(error)) => Err(format!("cannot lock {shown}: {error}")),
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
