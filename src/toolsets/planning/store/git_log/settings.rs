// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `[sync]`: how boards kept in git (`storage.backend = 'git'`) travel
//! through the repository's remote. (Its part of the example config file
//! is in planning's `config::EXAMPLE`.)

use serde::{Deserialize, Serialize};

/// `[sync]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SyncSettings {
    /// The remote's name, as `git remote` lists it.
    pub remote: String,
    /// Whether every change is pushed before its reply.
    pub on_change: bool,
    /// Seconds between background syncs; 0: none.
    pub interval: u64,
    /// How often a raced push is retried.
    pub retries: u32,
    /// Operations beyond the checkpoint that make the next sync compact.
    pub checkpoint_every: usize,
    /// The longest one git command may take, in seconds.
    pub git_timeout: u64,
}

impl Default for SyncSettings {
    fn default() -> Self {
        Self {
            remote: "origin".into(),
            on_change: false,
            interval: 0,
            retries: 10,
            checkpoint_every: 1000,
            git_timeout: 60,
        }
    }
}

impl SyncSettings {
    /// What is wrong with these settings: `(key, problem)` pairs.
    pub(crate) fn problems(&self) -> Vec<(&'static str, String)> {
        let mut problems = Vec::new();
        if let Err(problem) = check_remote(&self.remote) {
            problems.push(("sync.remote", problem));
        }
        if !(1..=100).contains(&self.retries) {
            problems.push(("sync.retries", "must be 1 to 100".into()));
        }
        if self.checkpoint_every < 10 {
            problems.push(("sync.checkpoint_every", "must be at least 10".into()));
        }
        if !(1..=3600).contains(&self.git_timeout) {
            problems.push(("sync.git_timeout", "must be 1 to 3600 seconds".into()));
        }
        if self.interval > 0 && self.interval < 5 {
            problems.push((
                "sync.interval",
                "must be 0 (off) or at least 5 seconds".into(),
            ));
        }
        problems
    }
}

/// Checks a remote's name: a name `git remote` could list, never an
/// option (a leading `-`) or a URL.
pub(crate) fn check_remote(name: &str) -> Result<(), String> {
    let fine = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with(['-', '.'])
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    match fine {
        true => Ok(()),
        false => Err(format!(
            "'{}' is not a remote's name (letters, digits, '-', '_' and '.', as `git remote` lists them)",
            crate::runtime::text::clip(name)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_names_are_names_not_options_or_urls() {
        for good in ["origin", "up-stream", "team_2", "a.b"] {
            assert_eq!(check_remote(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "-x",
            "--upload-pack=evil",
            "a/b",
            "https://h/x",
            "..",
            "a b",
            "é",
        ] {
            assert!(check_remote(bad).is_err(), "{bad}");
        }
        let problems = SyncSettings {
            retries: 0,
            checkpoint_every: 1,
            git_timeout: 0,
            interval: 2,
            ..SyncSettings::default()
        }
        .problems();
        let keys: Vec<&str> = problems.iter().map(|(key, _)| *key).collect();
        assert_eq!(
            keys,
            [
                "sync.retries",
                "sync.checkpoint_every",
                "sync.git_timeout",
                "sync.interval"
            ]
        );
        assert!(SyncSettings::default().problems().is_empty());
    }
}
