// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A pause in the middle of a spell, for tests only. With
//! [`PAUSE_VARIABLE`] naming a directory, a spell that writes more than one
//! file stops before its last (`state.json`), creates `paused` in that
//! directory and waits until `resume` is there (ten minutes at most). An end-to-end test
//! can so signal a server in the middle of a spell, triggered by that
//! state, never by timing. Unset outside tests: it slows every spell.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The variable that names the directory of the pause.
pub(crate) const PAUSE_VARIABLE: &str = "PLANNING_TEST_SPELL_PAUSE";

/// The longest a spell waits for `resume`, so that a test that never
/// resumes cannot hold the server forever.
const LONGEST: Duration = Duration::from_secs(600);

/// Where a paused spell says so and waits to be resumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pause {
    dir: PathBuf,
}

impl Pause {
    /// The pause [`PAUSE_VARIABLE`] asks for: none when it is unset or empty.
    pub(crate) fn from_env() -> Option<Self> {
        std::env::var_os(PAUSE_VARIABLE)
            .filter(|dir| !dir.is_empty())
            .map(|dir| Self { dir: dir.into() })
    }

    /// Creates `paused` and waits until `resume` exists (or the longest
    /// wait is over). A failure to create `paused` is logged: the test
    /// waiting for it fails on its own.
    pub(crate) fn wait(&self) {
        if let Err(error) = std::fs::write(self.dir.join("paused"), b"") {
            tracing::warn!(dir = %self.dir.display(), %error, "cannot mark the spell paused");
        }
        tracing::debug!(dir = %self.dir.display(), "spell paused until resume exists");
        let until = Instant::now() + LONGEST;
        while !self.dir.join("resume").exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pause_says_so_and_waits_for_resume() {
        let dir = tempfile::tempdir().unwrap();
        let pause = Pause {
            dir: dir.path().to_path_buf(),
        };
        let waiting = std::thread::spawn({
            let pause = pause.clone();
            move || pause.wait()
        });
        while !dir.path().join("paused").exists() {
            std::thread::yield_now();
        }
        assert!(!waiting.is_finished(), "still paused");
        std::fs::write(dir.path().join("resume"), b"").unwrap();
        waiting.join().unwrap();
        // Resumed once, resumed for good.
        pause.wait();
    }
}
