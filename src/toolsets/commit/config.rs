// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The table of toolset `commit`: `[commit]`, which VCS and repository,
//! how long a command may run, and the limits of a plan.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::document::Limits;
use super::vcs::locate::VcsChoice;
use crate::server::settings::{Settings, lenient};

/// The part of the example config file that belongs to toolset `commit`:
/// commented out, so the generated file still sets exactly the Go keys.
pub(crate) const EXAMPLE: &str = r#"
# Toolset 'commit': the plan kept in the description of the change that holds
# the work (jj's @, or git's refs/commit-plan/{branch}). Enable it with
# toolsets = ['planning', 'commit']. The values below are the defaults.
# [commit]
# vcs = 'auto'             # 'auto' (jj wins in a colocated repository), 'jj', 'git'
# root = '.'               # where the repository is; relative to the working directory
# jj_bin = 'jj'
# git_bin = 'git'
# timeout_secs = 30        # per VCS command, 1..600
# lock_timeout_ms = 30000  # 10..600000, the wait for another server's lock on a jj repository
# max_title_length = 120   # 10..500 characters
# max_depth = 4            # 1..8 task levels
# max_tasks = 1000         # 1..10000, all levels
# max_item_length = 500    # 10..5000 characters, per task text and per constraint
# max_input_bytes = 102400 # 1024..1048576, the whole description
"#;

/// `[commit]`: where the plan is and how large it may be.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CommitSettings {
    /// `auto`, `jj` or `git`.
    pub vcs: VcsChoice,
    /// Where the repository is, relative to the working directory.
    #[serde(deserialize_with = "lenient")]
    pub root: PathBuf,
    /// The jj program.
    #[serde(deserialize_with = "lenient")]
    pub jj_bin: String,
    /// The git program.
    #[serde(deserialize_with = "lenient")]
    pub git_bin: String,
    /// Seconds one VCS command may take, 1..600.
    pub timeout_secs: u64,
    /// Milliseconds a call waits for another server's lock on a jj
    /// repository, 10..600000.
    pub lock_timeout_ms: u64,
    /// Most characters in the header's title, 10..500.
    pub max_title_length: usize,
    /// Most task levels, 1..8.
    pub max_depth: usize,
    /// Most tasks, all levels, 1..10000.
    pub max_tasks: usize,
    /// Most characters per task text and per constraint, 10..5000.
    pub max_item_length: usize,
    /// Most bytes in the whole description, 1024..1048576.
    pub max_input_bytes: usize,
}

impl Default for CommitSettings {
    fn default() -> Self {
        let limits = Limits::default();
        Self {
            vcs: VcsChoice::Auto,
            root: PathBuf::from("."),
            jj_bin: "jj".into(),
            git_bin: "git".into(),
            timeout_secs: 30,
            lock_timeout_ms: 30_000,
            max_title_length: limits.max_title_length,
            max_depth: limits.max_depth,
            max_tasks: limits.max_tasks,
            max_item_length: limits.max_item_length,
            max_input_bytes: limits.max_input_bytes,
        }
    }
}

impl CommitSettings {
    /// Reads `[commit]` and checks the ranges.
    pub(crate) fn read(settings: &Settings<'_>) -> Result<Self, Vec<String>> {
        let commit = settings.table::<Self>("commit")?;
        let mut problems = Vec::new();
        let ranges: [(&str, u64, u64, u64); 7] = [
            ("commit.timeout_secs", commit.timeout_secs, 1, 600),
            (
                "commit.lock_timeout_ms",
                commit.lock_timeout_ms,
                10,
                600_000,
            ),
            (
                "commit.max_title_length",
                commit.max_title_length as u64,
                10,
                500,
            ),
            ("commit.max_depth", commit.max_depth as u64, 1, 8),
            ("commit.max_tasks", commit.max_tasks as u64, 1, 10_000),
            (
                "commit.max_item_length",
                commit.max_item_length as u64,
                10,
                5_000,
            ),
            (
                "commit.max_input_bytes",
                commit.max_input_bytes as u64,
                1_024,
                1_048_576,
            ),
        ];
        for (key, value, min, max) in ranges {
            let what = format!("{value} is out of range; it must be {min}..{max}");
            settings.require(&mut problems, (min..=max).contains(&value), key, &what);
        }
        for (key, value, example) in [
            ("commit.root", commit.root.as_os_str().is_empty(), "."),
            ("commit.jj_bin", commit.jj_bin.trim().is_empty(), "jj"),
            ("commit.git_bin", commit.git_bin.trim().is_empty(), "git"),
        ] {
            settings.require(
                &mut problems,
                !value,
                key,
                &format!("must not be empty, e.g. {example}"),
            );
        }
        match problems.is_empty() {
            true => Ok(commit),
            false => Err(problems),
        }
    }

    /// The limits of a plan.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            max_title_length: self.max_title_length,
            max_depth: self.max_depth,
            max_tasks: self.max_tasks,
            max_item_length: self.max_item_length,
            max_input_bytes: self.max_input_bytes,
        }
    }

    /// How long one VCS command may take.
    pub(crate) fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }

    /// How long a call waits for another server's lock on a jj repository.
    pub(crate) fn lock_timeout(&self) -> Duration {
        Duration::from_millis(self.lock_timeout_ms)
    }
}

#[cfg(test)]
// figment's Jail closures return figment::Error, which is large; fine in tests.
#[allow(clippy::result_large_err)]
mod tests {
    use figment::providers::{Format, Toml};
    use figment::{Figment, Jail};

    use super::*;

    fn read(figment: &Figment) -> Result<CommitSettings, Vec<String>> {
        CommitSettings::read(&Settings::new(figment, &[], 64))
    }

    #[test]
    fn the_example_uncommented_holds_the_defaults() {
        let uncommented: String = EXAMPLE
            .lines()
            .skip_while(|l| !l.starts_with("# [commit]"))
            .map(|l| format!("{}\n", l.trim_start_matches("# ")))
            .collect();
        let figment = Figment::from(Toml::string(&uncommented));
        assert_eq!(read(&figment).unwrap(), CommitSettings::default());
        assert_eq!(CommitSettings::default().limits(), Limits::default());
    }

    #[test]
    fn environment_variables_set_every_key() {
        Jail::expect_with(|jail| {
            for (key, value) in [
                ("VCS", "git"),
                ("ROOT", "2024"),
                ("JJ_BIN", "/opt/jj"),
                ("GIT_BIN", "/usr/bin/git"),
                ("TIMEOUT_SECS", "5"),
                ("LOCK_TIMEOUT_MS", "20"),
                ("MAX_TITLE_LENGTH", "60"),
                ("MAX_DEPTH", "3"),
                ("MAX_TASKS", "50"),
                ("MAX_ITEM_LENGTH", "100"),
                ("MAX_INPUT_BYTES", "2048"),
            ] {
                jail.set_env(format!("PLANNING_COMMIT_{key}"), value);
            }
            let home = jail.directory().display().to_string();
            jail.set_env("HOME", home);
            let (figment, _) =
                crate::config::tiers(&crate::config::ConfigFlags::default()).unwrap();
            let settings = read(&figment).unwrap();
            assert_eq!(settings.vcs, VcsChoice::Git);
            assert_eq!(settings.root, PathBuf::from("2024"));
            assert_eq!(
                (settings.jj_bin.as_str(), settings.git_bin.as_str()),
                ("/opt/jj", "/usr/bin/git")
            );
            assert_eq!(settings.timeout(), Duration::from_secs(5));
            assert_eq!(settings.lock_timeout(), Duration::from_millis(20));
            assert_eq!(
                settings.limits(),
                Limits {
                    max_title_length: 60,
                    max_depth: 3,
                    max_tasks: 50,
                    max_item_length: 100,
                    max_input_bytes: 2048
                }
            );
            Ok(())
        });
    }

    #[test]
    fn bad_values_name_the_key_and_the_range() {
        let figment = Figment::from(Toml::string(
            "[commit]\ntimeout_secs = 0\nlock_timeout_ms = 9\nmax_title_length = 501\nmax_depth = 9\nmax_tasks = 0\nmax_item_length = 9\nmax_input_bytes = 1048577\nroot = ''\njj_bin = ' '\ngit_bin = ''\n",
        ));
        assert_eq!(
            read(&figment).unwrap_err(),
            [
                "commit.timeout_secs (from TOML source string): 0 is out of range; it must be 1..600",
                "commit.lock_timeout_ms (from TOML source string): 9 is out of range; it must be 10..600000",
                "commit.max_title_length (from TOML source string): 501 is out of range; it must be 10..500",
                "commit.max_depth (from TOML source string): 9 is out of range; it must be 1..8",
                "commit.max_tasks (from TOML source string): 0 is out of range; it must be 1..10000",
                "commit.max_item_length (from TOML source string): 9 is out of range; it must be 10..5000",
                "commit.max_input_bytes (from TOML source string): 1048577 is out of range; it must be 1024..1048576",
                "commit.root (from TOML source string): must not be empty, e.g. .",
                "commit.jj_bin (from TOML source string): must not be empty, e.g. jj",
                "commit.git_bin (from TOML source string): must not be empty, e.g. git",
            ]
        );
        let wrong = Figment::from(Toml::string("[commit]\nvcs = 'hg'\n"));
        let errors = read(&wrong).unwrap_err().join("\n");
        assert!(errors.contains("commit.vcs (from TOML source string): unknown variant: found `hg`, expected `one of `auto`, `jj`, `git``"), "{errors}");
        let unknown = Figment::from(Toml::string("[commit]\ncolour = 1\n"));
        let errors = read(&unknown).unwrap_err().join("\n");
        assert!(
            errors.starts_with(
                "commit.colour (from TOML source string): unknown field: found `colour`"
            ),
            "{errors}"
        );
    }
}
