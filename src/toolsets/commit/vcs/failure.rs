// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! How a VCS call fails: a CRITICAL failure that halts the work (the VCS is
//! missing, fails or times out, no repository); a lost race; a routine
//! state of the repository that leaves no plan to work on; or a write that
//! another writer did not leave whole.

use std::path::PathBuf;

use super::process::{Invocation, Output, RunError};

/// The answer when another writer changed the plan during a call.
pub(crate) const CONFLICT: &str = "The plan changed while this call ran; nothing was written; call gather_requirements and retry.";

/// The most stderr lines a CRITICAL answer quotes.
const STDERR_LINES: usize = 20;

/// Why a call could not read or write the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The VCS or the repository is unusable: stop all work.
    Critical(Critical),
    /// Someone else changed the plan since this call read it; nothing was
    /// written.
    Conflict,
    /// A routine state that leaves no plan to work on or blocks writes
    /// (a detached HEAD, a divergent `@`): not CRITICAL; the text says the
    /// way out.
    State(String),
    /// The write happened, but another writer changed the plan at the same
    /// time: the text says what was written, what happened and how to
    /// recover.
    Unkept(String),
}

/// What cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Subject {
    /// The jj binary or repository.
    Jj,
    /// The git binary or repository.
    Git,
    /// No repository at this root.
    Repository(PathBuf),
}

/// A CRITICAL failure, with what was run and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Critical {
    /// What cannot be used.
    pub(crate) subject: Subject,
    /// The command line, if one was run.
    pub(crate) command: Option<String>,
    /// Its exit status, spawn error or timeout; or what was searched.
    pub(crate) status: String,
    /// The first lines of its stderr.
    pub(crate) stderr: Vec<String>,
    /// How to fix it.
    pub(crate) fix: String,
}

impl Critical {
    /// A failure of `invocation` that ran and gave `output`.
    pub(crate) fn failed(
        subject: Subject,
        invocation: &Invocation<'_>,
        output: &Output,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            subject,
            command: Some(invocation.command_line()),
            status: output.status(),
            stderr: first_lines(&output.stderr),
            fix: fix.into(),
        }
    }

    /// A failure of `invocation` (of jj or git) that did not run to its
    /// end, with the fix its error suggests.
    pub(crate) fn not_run(subject: Subject, invocation: &Invocation<'_>, error: &RunError) -> Self {
        let (name, install, blocker) = match subject {
            Subject::Jj => (
                "jj",
                "install jj 0.45 or later (cargo install --locked jj-cli@0.45.1)",
                "another jj process",
            ),
            _ => ("git", "install git", "a lock file"),
        };
        let fix = match error {
            RunError::Spawn(e) if e.kind() == std::io::ErrorKind::NotFound => format!(
                "{install} or set [commit] {name}_bin; \"{}\" was not found.",
                invocation.program
            ),
            RunError::Timeout(_) => format!(
                "find what blocks {name} ({blocker}, a slow file system) or raise [commit] timeout_secs."
            ),
            RunError::TooMuchOutput { .. } => format!(
                "check that [commit] {name}_bin names {name} itself and not a program that prints without end; if the change really lists that many files, commit or ignore some of them."
            ),
            RunError::ShuttingDown => "retry once the server runs again.".to_owned(),
            _ => format!("check that [commit] {name}_bin names a working {name}."),
        };
        Self {
            subject,
            command: Some(invocation.command_line()),
            status: error.to_string(),
            stderr: Vec::new(),
            fix,
        }
    }
}

/// The first [`STDERR_LINES`] non-empty lines of `stderr`.
fn first_lines(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .take(STDERR_LINES)
        .map(str::to_owned)
        .collect()
}

impl std::fmt::Display for Critical {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match &self.subject {
            Subject::Jj => "jj".to_owned(),
            Subject::Git => "git".to_owned(),
            Subject::Repository(root) => format!("a repository at {}", root.display()),
        };
        writeln!(
            f,
            "CRITICAL: the commit planner cannot use {what}. Stop all work and tell the user; do not continue until this is fixed."
        )?;
        match &self.command {
            Some(command) => {
                writeln!(f, "Command: {command}")?;
                writeln!(f, "Status: {}", self.status)?;
            }
            None => writeln!(f, "Searched: {}", self.status)?,
        }
        if self.command.is_some() {
            match self.stderr.is_empty() {
                true => writeln!(f, "Stderr: (empty)")?,
                false => {
                    writeln!(f, "Stderr:")?;
                    for line in &self.stderr {
                        writeln!(f, "  {line}")?;
                    }
                }
            }
        }
        write!(f, "Fix: {}", self.fix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_critical_failure_names_the_command_status_stderr_and_fix() {
        let invocation = Invocation {
            program: "jj",
            args: vec!["log".into()],
            env: &[],
            stdin: None,
        };
        let output = Output {
            code: Some(1),
            stdout: String::new(),
            stderr: (1..=25).map(|n| format!("line {n}\n")).collect::<String>() + "\n",
        };
        let critical = Critical::failed(Subject::Jj, &invocation, &output, "run `jj git init`.");
        let text = critical.to_string();
        assert!(text.starts_with("CRITICAL: the commit planner cannot use jj. Stop all work and tell the user; do not continue until this is fixed.\nCommand: jj log\nStatus: exit status 1\nStderr:\n  line 1\n"), "{text}");
        assert!(
            text.ends_with("  line 20\nFix: run `jj git init`."),
            "{text}"
        );
        let none = Critical {
            subject: Subject::Repository("/work/x".into()),
            command: None,
            status: "/work/x and every parent directory, for .jj/ or .git".into(),
            stderr: Vec::new(),
            fix: "run `git init`.".into(),
        };
        assert_eq!(
            none.to_string(),
            "CRITICAL: the commit planner cannot use a repository at /work/x. Stop all work and tell the user; do not continue until this is fixed.\nSearched: /work/x and every parent directory, for .jj/ or .git\nFix: run `git init`."
        );
    }
}
