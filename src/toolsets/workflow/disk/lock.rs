// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One call at a time per workflow directory: an in-process mutex per D,
//! then a `flock` on `D/.lock` (exclusive for spells, shared for Lumos),
//! both within `lock_timeout_ms`. The lock file is created (with D) when a
//! spell needs it and never removed; Lumos creates nothing.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use parking_lot::{Mutex, MutexGuard};

use super::{CastError, Dir};
use crate::runtime::file_lock::{Access, FileLock, LockError};
use crate::runtime::keyed_mutex::KeyedMutex;
use crate::runtime::own_dir;
use crate::toolsets::workflow::files::names::{IGNORE_RULE, LOCK};

/// The in-process mutex of directory `path`, shared by every workflow of
/// this process on that directory. A `parking_lot` mutex: a spell runs on
/// a blocking thread and waits for it with a deadline.
pub(crate) fn mutex_for(path: &Path) -> Arc<Mutex<()>> {
    static MUTEXES: LazyLock<KeyedMutex<PathBuf, Mutex<()>>> = LazyLock::new(KeyedMutex::new);
    MUTEXES.get(&path.to_path_buf())
}

/// A held lock: released when dropped, the file lock first (fields drop
/// in order), so that the next caller in this process finds it free.
pub(crate) struct Held<'a> {
    _file: Option<FileLock>,
    _mutex: MutexGuard<'a, ()>,
}

/// How a call locks D.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A spell: D and `.lock` are created when missing; exclusive.
    Exclusive,
    /// Lumos: shared, and only if `.lock` exists; creates nothing.
    Shared,
}

/// Takes the in-process mutex and then the file lock of `dir`, giving up
/// after `timeout`. Blocks: a spell runs on a blocking thread.
pub(crate) fn lock<'a>(
    mutex: &'a Mutex<()>,
    dir: &Dir,
    mode: Mode,
    timeout: Duration,
) -> Result<Held<'a>, CastError> {
    let until = Instant::now() + timeout;
    let busy = || CastError::Busy(dir.show(""));
    let guard = mutex.try_lock_until(until).ok_or_else(busy)?;
    let (file, access) = match mode {
        Mode::Exclusive => (Some(open_exclusive(dir)?), Access::Exclusive),
        Mode::Shared => (open_shared(dir)?, Access::Shared),
    };
    let file = file
        .map(|file| FileLock::wait(file, access, until))
        .transpose()
        .map_err(|error| match error {
            LockError::Held => busy(),
            LockError::Io(source) => CastError::io("lock", dir.show(LOCK), source),
        })?;
    Ok(Held {
        _file: file,
        _mutex: guard,
    })
}

/// Creates D (and its parents) and `.lock` when missing, and opens the
/// lock. A D made here is born with its `.gitignore` when asked
/// ([`IGNORE_RULE`]); one that exists is left as it is.
fn open_exclusive(dir: &Dir) -> Result<File, CastError> {
    dir.refuse_symlinks(LOCK)?;
    let rule = dir.gitignore.then_some(IGNORE_RULE);
    own_dir::create(&dir.path, rule, true)
        .map_err(|source| CastError::io("create", dir.show(""), source))?;
    dir.refuse_symlinks(LOCK)?;
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(LOCK))
        .map_err(|source| CastError::io("open", dir.show(LOCK), source))
}

/// Opens `.lock` to read if it exists.
fn open_shared(dir: &Dir) -> Result<Option<File>, CastError> {
    match File::open(dir.join(LOCK)) {
        Ok(file) => Ok(Some(file)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(CastError::io("open", dir.show(LOCK), source)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(root: &Path) -> Dir {
        Dir {
            path: root.join(".ai/task"),
            shown: ".ai/task".into(),
            root: root.to_path_buf(),
            gitignore: true,
        }
    }

    #[test]
    fn lumos_creates_nothing_and_spells_create_d_and_the_lock() {
        let root = tempfile::tempdir().unwrap();
        let dir = dir(root.path());
        let mutex = Mutex::new(());
        drop(lock(&mutex, &dir, Mode::Shared, Duration::from_secs(1)).unwrap());
        assert!(!root.path().join(".ai").exists());
        drop(lock(&mutex, &dir, Mode::Exclusive, Duration::from_secs(1)).unwrap());
        assert!(dir.join(LOCK).is_file());
        drop(lock(&mutex, &dir, Mode::Shared, Duration::from_secs(1)).unwrap());
    }

    #[test]
    fn a_d_the_spell_makes_is_born_ignored_and_an_existing_one_is_left_alone() {
        let root = tempfile::tempdir().unwrap();
        let made = dir(root.path());
        let mutex = Mutex::new(());
        drop(lock(&mutex, &made, Mode::Exclusive, Duration::from_secs(1)).unwrap());
        assert_eq!(
            std::fs::read_to_string(made.join(".gitignore")).unwrap(),
            IGNORE_RULE
        );
        assert!(
            !root.path().join(".ai/.gitignore").exists(),
            "only D gets a rule"
        );
        let existing = tempfile::tempdir().unwrap();
        let existing = dir(existing.path());
        std::fs::create_dir_all(&existing.path).unwrap();
        drop(lock(&mutex, &existing, Mode::Exclusive, Duration::from_secs(1)).unwrap());
        assert!(!existing.join(".gitignore").exists());
        let off = tempfile::tempdir().unwrap();
        let off = Dir {
            gitignore: false,
            ..dir(off.path())
        };
        drop(lock(&mutex, &off, Mode::Exclusive, Duration::from_secs(1)).unwrap());
        assert!(off.join(LOCK).is_file());
        assert!(!off.join(".gitignore").exists());
    }

    #[test]
    fn a_held_lock_times_out_the_next_call() {
        let root = tempfile::tempdir().unwrap();
        let dir = dir(root.path());
        let mutex = Mutex::new(());
        drop(lock(&mutex, &dir, Mode::Exclusive, Duration::from_secs(1)).unwrap());
        // Another process: its own open file description of `.lock`.
        let other = File::open(dir.join(LOCK)).unwrap();
        other.lock().unwrap();
        let timeout = Duration::from_millis(100);
        for mode in [Mode::Exclusive, Mode::Shared] {
            let busy = lock(&mutex, &dir, mode, timeout).err().unwrap();
            assert_eq!(
                busy.to_string(),
                "another process is running a spell on .ai/task; try again"
            );
        }
        other.unlock().unwrap();
        other.lock_shared().unwrap();
        drop(lock(&mutex, &dir, Mode::Shared, timeout).unwrap());
        assert!(lock(&mutex, &dir, Mode::Exclusive, timeout).is_err());
        other.unlock().unwrap();
        drop(lock(&mutex, &dir, Mode::Exclusive, timeout).unwrap());
    }

    #[test]
    fn a_symlinked_lock_file_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = dir(root.path());
        std::fs::create_dir_all(&dir.path).unwrap();
        std::os::unix::fs::symlink(root.path().join("elsewhere"), dir.join(LOCK)).unwrap();
        let mutex = Mutex::new(());
        let refused = lock(&mutex, &dir, Mode::Exclusive, Duration::from_secs(1))
            .err()
            .unwrap();
        assert!(matches!(refused, CastError::Symlink(_)), "{refused}");
        assert!(!root.path().join("elsewhere").exists());
    }
}
