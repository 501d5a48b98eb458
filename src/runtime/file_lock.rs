// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Waiting for another process's file lock, for a bounded time: a holder
//! that never lets go (a stopped process, a stray `flock`) must not hold a
//! call forever.

use std::fs::{File, TryLockError};
use std::time::{Duration, Instant};

/// Takes `file`'s exclusive lock, waiting until `until` at most: `false`
/// if another holder kept it that long. Polls, so that the wait is bounded.
pub fn lock_until(file: &File, until: Instant) -> std::io::Result<bool> {
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(error)) => return Err(error),
        }
        let now = Instant::now();
        if now >= until {
            return Ok(false);
        }
        std::thread::sleep(pause.min(until - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_given_up_on_and_a_free_one_taken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let holder = File::create(&path).unwrap();
        holder.lock().unwrap();
        let waiter = File::open(&path).unwrap();
        // A deadline already past: one try, no wait.
        assert!(!lock_until(&waiter, Instant::now()).unwrap());
        holder.unlock().unwrap();
        assert!(lock_until(&waiter, Instant::now()).unwrap());
    }
}
