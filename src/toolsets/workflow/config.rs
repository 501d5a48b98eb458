// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The table of toolset `workflow`: `[workflow]`, where the workflow
//! directory is and the limits of a call, with their checks.

use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::cast::Setup;
use super::machine::step::Limits;
use crate::server::settings::{Flag, FlagKind, Settings, lenient, list};

/// The part of the example config file that belongs to toolset `workflow`,
/// commented out.
pub(crate) const EXAMPLE: &str = r#"
# Toolset 'workflow': the spell workflow (Accio, Expecto, Reparo, Reverto,
# Finite, Lumos) over the files of {root}/{dir}; see docs/workflow.md. It
# reads and writes local files only: GitHub, Jira and Confluence work is
# left to the agent's own MCP servers.
# [workflow]
# The project root, relative to the working directory.
# root = '.'
# The workflow directory, relative to root (or absolute).
# dir = '.ai/task'
# History entries kept in state.json (0 to 10000).
# max_history = 200
# The most bytes of a file quoted to the agent (1024 to 1048576).
# max_inline_bytes = 65536
# Larger files are not read: the spell fails (4096 to 67108864).
# max_file_bytes = 1048576
# The longest wait for another spell on the same directory (100 to 600000).
# lock_timeout_ms = 10000
# Extra Atlassian hosts (self-hosted Jira/Confluence), e.g. ['jira.example.com'].
# atlassian_hosts = []
# When a spell makes the workflow directory, put a .gitignore in it naming
# the server's own files (.lock, state.json), so they stay out of commits.
# gitignore = true
"#;

/// The flags of toolset `workflow`.
pub(crate) const FLAGS: &[Flag] = &[
    Flag {
        long: "workflow-root",
        key: "workflow.root",
        value_name: "PATH",
        help: "Project root of the workflow toolset",
        kind: FlagKind::Text,
    },
    Flag {
        long: "workflow-dir",
        key: "workflow.dir",
        value_name: "PATH",
        help: "Workflow directory, relative to the workflow root",
        kind: FlagKind::Text,
    },
];

/// `[workflow]`: the workflow directory and the limits of a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct WorkflowSettings {
    /// The project root, relative to the working directory.
    #[serde(deserialize_with = "lenient")]
    pub(crate) root: PathBuf,
    /// The workflow directory D, relative to the root (or absolute).
    #[serde(deserialize_with = "lenient")]
    pub(crate) dir: String,
    /// History entries kept in `state.json`.
    pub(crate) max_history: u64,
    /// The most bytes of a file quoted in instructions.
    pub(crate) max_inline_bytes: u64,
    /// Larger files are not read.
    pub(crate) max_file_bytes: u64,
    /// The longest wait for the lock, in milliseconds.
    pub(crate) lock_timeout_ms: u64,
    /// Extra Atlassian hosts.
    #[serde(deserialize_with = "list")]
    pub(crate) atlassian_hosts: Vec<String>,
    /// Whether a workflow directory a spell makes is born with a
    /// `.gitignore` naming the server's own files.
    pub(crate) gitignore: bool,
}

impl Default for WorkflowSettings {
    fn default() -> Self {
        Self {
            root: PathBuf::from("."),
            dir: ".ai/task".into(),
            max_history: 200,
            max_inline_bytes: 65_536,
            max_file_bytes: 1_048_576,
            lock_timeout_ms: 10_000,
            atlassian_hosts: Vec::new(),
            gitignore: true,
        }
    }
}

/// Whether `host` is a bare host name (no scheme, path, port or blanks).
fn is_host_name(host: &str) -> bool {
    !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

impl WorkflowSettings {
    /// Reads `[workflow]` and checks what types cannot.
    pub(crate) fn read(settings: &Settings<'_>) -> Result<Self, Vec<String>> {
        let mut workflow = settings.table::<Self>("workflow")?;
        let mut problems = Vec::new();
        settings.require(
            &mut problems,
            !workflow.root.as_os_str().is_empty(),
            "workflow.root",
            "must name a directory, e.g. .",
        );
        settings.require(
            &mut problems,
            !workflow.dir.trim().is_empty(),
            "workflow.dir",
            "must name a directory, e.g. .ai/task",
        );
        for (value, key, low, high) in [
            (workflow.max_history, "workflow.max_history", 0, 10_000),
            (
                workflow.max_inline_bytes,
                "workflow.max_inline_bytes",
                1024,
                1_048_576,
            ),
            (
                workflow.max_file_bytes,
                "workflow.max_file_bytes",
                4096,
                67_108_864,
            ),
            (
                workflow.lock_timeout_ms,
                "workflow.lock_timeout_ms",
                100,
                600_000,
            ),
        ] {
            let what = format!("must be between {low} and {high}, not {value}");
            settings.require(&mut problems, (low..=high).contains(&value), key, &what);
        }
        for host in &mut workflow.atlassian_hosts {
            *host = host.trim().to_lowercase();
        }
        if let Some(bad) = workflow.atlassian_hosts.iter().find(|h| !is_host_name(h)) {
            let what = format!(
                "'{}' is not a host name; give names like jira.example.com (no scheme, path or port)",
                crate::runtime::text::clip(bad)
            );
            problems.push(settings.problem("workflow.atlassian_hosts", &what));
        }
        match problems.is_empty() {
            true => Ok(workflow),
            false => Err(problems),
        }
    }

    /// How the workflow is set up: D made absolute against the working
    /// directory `cwd`, and how replies show it.
    pub(crate) fn setup(&self, cwd: &Path) -> Setup {
        let root = normalize(&cwd.join(&self.root));
        let path = normalize(&root.join(&self.dir));
        let shown = match path.strip_prefix(&root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
            Ok(rel) => slashed(rel),
            Err(_) => path.display().to_string(),
        };
        Setup {
            path,
            root,
            limits: Limits {
                dir: shown,
                max_inline_bytes: self.max_inline_bytes as usize,
                max_history: self.max_history as usize,
                atlassian_hosts: self.atlassian_hosts.clone(),
            },
            max_file_bytes: self.max_file_bytes,
            lock_timeout: Duration::from_millis(self.lock_timeout_ms),
            gitignore: self.gitignore,
        }
    }
}

/// `path` with `.` and `..` removed lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A relative path with `/` between its parts.
fn slashed(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

#[cfg(test)]
// figment's Jail closures return figment::Error, which is large; fine in tests.
#[allow(clippy::result_large_err)]
mod tests {
    use figment::Jail;

    use super::*;
    use crate::config::{ConfigError, ConfigFlags, load, tiers};

    /// `[workflow]` as the tiers of `args` (and the jail's file and
    /// environment) set it, or the problems.
    fn read(args: &[&str]) -> Result<WorkflowSettings, Vec<String>> {
        let flags = ConfigFlags::parse(args).unwrap();
        let (figment, _) = tiers(&flags).unwrap();
        let all = ConfigFlags::all();
        WorkflowSettings::read(&Settings::new(&figment, &all, 64))
    }

    #[test]
    fn every_tier_sets_the_table_and_bad_values_name_key_and_source() {
        Jail::expect_with(|jail| {
            jail.set_env("HOME", jail.directory().join("home").display());
            assert_eq!(read(&[]).unwrap(), WorkflowSettings::default());

            jail.create_file(
                "planning-mcp-server.toml",
                "[workflow]\ndir = 'notes'\nmax_history = 3\n\
                 atlassian_hosts = [' Jira.Example.com ']\n",
            )?;
            jail.set_env("PLANNING_WORKFLOW_MAX_HISTORY", "7");
            let settings = read(&["--workflow-dir", "wf", "--workflow-root", "repo"]).unwrap();
            assert_eq!(settings.dir, "wf");
            assert_eq!(settings.root, PathBuf::from("repo"));
            assert_eq!(settings.max_history, 7);
            assert_eq!(settings.atlassian_hosts, ["jira.example.com"]);

            jail.set_env("PLANNING_WORKFLOW_LOCK_TIMEOUT_MS", "50");
            jail.set_env(
                "PLANNING_WORKFLOW_ATLASSIAN_HOSTS",
                "[https://jira.example.com]",
            );
            assert_eq!(
                read(&[]).unwrap_err(),
                [
                    "workflow.lock_timeout_ms (from the environment variable \
                     PLANNING_WORKFLOW_LOCK_TIMEOUT_MS): must be between 100 and 600000, not 50",
                    "workflow.atlassian_hosts (from the environment variable \
                     PLANNING_WORKFLOW_ATLASSIAN_HOSTS): 'https://jira.example.com' is not a \
                     host name; give names like jira.example.com (no scheme, path or port)",
                ]
            );
            // Checked at start-up even when the toolset is off.
            jail.set_env("PLANNING_WORKFLOW_ATLASSIAN_HOSTS", "[]");
            jail.set_env("PLANNING_WORKFLOW_MAX_FILE_BYTES", "-1");
            match load(&ConfigFlags::default()) {
                Err(ConfigError::Invalid(lines)) => assert!(
                    lines
                        .iter()
                        .any(|line| line.starts_with("workflow.max_file_bytes")),
                    "{lines:?}"
                ),
                other => panic!("expected an invalid configuration, got {other:?}"),
            }
            Ok(())
        });
    }

    #[test]
    fn d_is_shown_relative_to_the_root() {
        let cwd = Path::new("/work/project");
        let mut settings = WorkflowSettings::default();
        let setup = settings.setup(cwd);
        assert_eq!(setup.path, PathBuf::from("/work/project/.ai/task"));
        assert_eq!(setup.limits.dir, ".ai/task");
        settings.root = "repo".into();
        settings.dir = "./notes/../wf/".into();
        let setup = settings.setup(cwd);
        assert_eq!(setup.path, PathBuf::from("/work/project/repo/wf"));
        assert_eq!(setup.limits.dir, "wf");
        settings.dir = "/srv/wf".into();
        assert_eq!(settings.setup(cwd).limits.dir, "/srv/wf");
        settings.dir = ".".into();
        assert_eq!(settings.setup(cwd).limits.dir, ".");
        assert_eq!(settings.setup(cwd).lock_timeout, Duration::from_secs(10));
    }
}
