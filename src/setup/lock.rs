// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! One `setup` at a time per directory: a run holds an exclusive lock on
//! the directory its files are found from (the project's, or the home
//! directory for the user's files) from before it reads them until it has
//! written them, so that two runs that overlap take turns instead of each
//! writing over the other's entry. The lock is `flock` on the directory
//! itself, which always exists: no lock file is left in the project.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::runtime::file_lock::{Access, FileLock, LockError};

/// How long a run waits for another to finish.
const WAIT: Duration = Duration::from_secs(30);

/// Takes the lock of `dir` (shown to the user as `shown`), waiting for a
/// run that holds it, [`WAIT`] at most.
pub(crate) fn hold(dir: &Path, shown: &str) -> Result<FileLock, String> {
    hold_until(dir, shown, Instant::now() + WAIT)
}

fn hold_until(dir: &Path, shown: &str, until: Instant) -> Result<FileLock, String> {
    let file = File::open(dir).map_err(|e| format!("cannot open {shown} to lock it: {e}"))?;
    FileLock::wait(file, Access::Exclusive, until).map_err(|error| match error {
        LockError::Held => format!(
            "another setup is writing the agents' files in {shown} and did not finish within {} \
             s: run setup again when it is done; nothing was changed",
            WAIT.as_secs()
        ),
        LockError::Io(e) => format!("cannot lock {shown}: {e}; nothing was changed"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_run_at_a_time_per_directory() {
        let dir = tempfile::tempdir().unwrap();
        let held = hold(dir.path(), "the project").unwrap();
        let error = hold_until(dir.path(), "the project", Instant::now()).unwrap_err();
        assert!(
            error.starts_with("another setup is writing the agents' files in the project"),
            "{error}"
        );
        let other = tempfile::tempdir().unwrap();
        let _elsewhere = hold_until(other.path(), "x", Instant::now()).unwrap();
        drop(held);
        let _again = hold_until(dir.path(), "the project", Instant::now()).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(names.is_empty(), "no lock file: {names:?}");
        let missing = dir.path().join("missing");
        assert!(
            hold(&missing, "missing")
                .unwrap_err()
                .starts_with("cannot open missing")
        );
    }
}
