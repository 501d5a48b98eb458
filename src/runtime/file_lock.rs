// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The one file lock: `flock` on a file, shared or exclusive, waited for
//! until a deadline at most. A holder that never lets go (a stopped
//! process, a stray `flock`) must neither hold a call forever nor leave a
//! thread blocked behind it, so the wait polls (`try_lock`, pauses of 1 ms
//! growing to 50 ms) and ends by itself at the deadline.
//!
//! The wait blocks the thread that runs it. Work that already runs on a
//! blocking thread ([`blocking::run`]) calls [`FileLock::wait`]; async code
//! calls [`FileLock::wait_async`], which opens the file and waits there,
//! tracked for shutdown. Locks conflict between open file descriptions,
//! also within one process.

use std::fs::{File, TryLockError};
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::blocking;

/// How a file is locked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Many holders at once, none exclusive (readers).
    Shared,
    /// One holder (a writer).
    Exclusive,
}

/// Why no lock was taken.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LockError {
    /// Another holder kept a conflicting lock until the deadline.
    #[error("another holder kept the lock until the deadline")]
    Held,
    /// The file could not be opened or locked.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A lock held on a file; released when dropped.
#[derive(Debug)]
#[must_use = "the lock is released when dropped"]
pub(crate) struct FileLock {
    file: Arc<File>,
}

impl FileLock {
    /// Takes `access` to `file`, waiting until `until` at most (a deadline
    /// already past: one try). Blocks the calling thread: call it on a
    /// blocking thread, never on an async worker.
    pub(crate) fn wait(
        file: impl Into<Arc<File>>,
        access: Access,
        until: Instant,
    ) -> Result<Self, LockError> {
        let file = file.into();
        let mut pause = Duration::from_millis(1);
        loop {
            let tried = match access {
                Access::Shared => file.try_lock_shared(),
                Access::Exclusive => file.try_lock(),
            };
            match tried {
                Ok(()) => return Ok(Self { file }),
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(error)) => return Err(LockError::Io(error)),
            }
            let now = Instant::now();
            if now >= until {
                return Err(LockError::Held);
            }
            std::thread::sleep(pause.min(until - now));
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    /// [`FileLock::wait`] for async code: opens the file with `open` and
    /// waits for the lock on a blocking thread that shutdown waits for.
    pub(crate) async fn wait_async(
        open: impl FnOnce() -> io::Result<File> + Send + 'static,
        access: Access,
        until: Instant,
    ) -> Result<Self, LockError> {
        blocking::run(move || Self::wait(open()?, access, until)).await
    }

    /// The locked file.
    pub(crate) fn file(&self) -> &Arc<File> {
        &self.file
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Another handle on the same open file may outlive this lock.
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(path: &std::path::Path) -> File {
        File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .unwrap()
    }

    #[test]
    fn a_held_lock_is_given_up_on_at_the_deadline_and_a_free_one_taken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let holder = FileLock::wait(open(&path), Access::Exclusive, Instant::now()).unwrap();
        // A deadline already past: one try, no wait.
        for access in [Access::Shared, Access::Exclusive] {
            let refused = FileLock::wait(open(&path), access, Instant::now()).unwrap_err();
            assert!(matches!(refused, LockError::Held), "{refused}");
        }
        let waited = Instant::now();
        let until = waited + Duration::from_millis(30);
        assert!(FileLock::wait(open(&path), Access::Exclusive, until).is_err());
        assert!(waited.elapsed() >= Duration::from_millis(30), "waited");
        drop(holder);
        let _taken = FileLock::wait(open(&path), Access::Exclusive, Instant::now()).unwrap();
    }

    #[test]
    fn shared_locks_go_together_and_keep_an_exclusive_one_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let now = Instant::now;
        let first = FileLock::wait(open(&path), Access::Shared, now()).unwrap();
        let second = FileLock::wait(open(&path), Access::Shared, now()).unwrap();
        assert!(FileLock::wait(open(&path), Access::Exclusive, now()).is_err());
        drop(first);
        assert!(FileLock::wait(open(&path), Access::Exclusive, now()).is_err());
        drop(second);
        let _writer = FileLock::wait(open(&path), Access::Exclusive, now()).unwrap();
    }

    #[test]
    fn dropping_the_lock_releases_it_even_while_the_file_stays_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let kept = Arc::new(open(&path));
        let lock = FileLock::wait(kept.clone(), Access::Exclusive, Instant::now()).unwrap();
        assert!(Arc::ptr_eq(lock.file(), &kept));
        drop(lock);
        let _other = FileLock::wait(open(&path), Access::Exclusive, Instant::now()).unwrap();
    }

    #[tokio::test]
    async fn the_async_wait_runs_off_the_worker_and_reports_what_failed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let worker = std::thread::current().id();
        let held = FileLock::wait_async(
            {
                let path = path.clone();
                move || {
                    assert_ne!(std::thread::current().id(), worker, "off the worker");
                    Ok(open(&path))
                }
            },
            Access::Exclusive,
            Instant::now(),
        )
        .await
        .unwrap();
        let reopen = move || Ok(open(&path));
        let busy = FileLock::wait_async(reopen, Access::Shared, Instant::now()).await;
        assert!(matches!(busy, Err(LockError::Held)));
        drop(held);
        let missing = dir.path().join("missing/lock");
        let error =
            FileLock::wait_async(move || File::open(missing), Access::Shared, Instant::now())
                .await
                .unwrap_err();
        assert_eq!(error.to_string(), "No such file or directory (os error 2)");
    }
}
