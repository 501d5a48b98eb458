// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Evidence of an outcome, as a release gives it: a command with its exit
//! code, a commit or change ID, a URL, a note, in any combination. Each
//! part is checked; a completion whose command failed is refused.

use std::time::SystemTime;

use super::error::TeamError;
use super::text::check_line;
use crate::toolsets::planning::coordination::Evidence;
use crate::toolsets::planning::domain::Status;

/// Whether a completion must carry evidence (`[team] require_evidence`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EvidenceRule {
    /// A task may be released as completed without evidence (the default).
    #[default]
    Optional,
    /// A release as completed without evidence is refused.
    Required,
}

/// The longest command or note, in characters.
pub(crate) const MAX_TEXT_CHARS: usize = 500;
/// The longest URL, in characters.
pub(crate) const MAX_URL_CHARS: usize = 2000;

/// Evidence as a request gives it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct EvidenceInput<'a> {
    /// A command that was run.
    pub(crate) command: Option<&'a str>,
    /// Its exit code.
    pub(crate) exit_code: Option<i64>,
    /// A commit or change ID.
    pub(crate) commit: Option<&'a str>,
    /// A URL.
    pub(crate) url: Option<&'a str>,
    /// A note.
    pub(crate) note: Option<&'a str>,
}

impl EvidenceInput<'_> {
    /// Whether no part is given.
    pub(crate) fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The evidence `by` gives `at` for an outcome `status`, checked; `None`
    /// when no part is given.
    pub(crate) fn check(
        &self,
        by: &str,
        at: SystemTime,
        status: Status,
    ) -> Result<Option<Evidence>, TeamError> {
        if self.is_empty() {
            return Ok(None);
        }
        let (command, exit_code) = match (self.command, self.exit_code) {
            (Some(command), Some(code)) => {
                check_line("command", command, MAX_TEXT_CHARS)?;
                (Some(command), Some(code))
            }
            (None, None) => (None, None),
            _ => {
                return Err(TeamError::Evidence(
                    "Give a command and its exit_code together.".into(),
                ));
            }
        };
        if let Some(code) = exit_code.filter(|code| *code != 0)
            && status == Status::Completed
        {
            return Err(TeamError::Evidence(format!(
                "The command exited with {code}, which does not show completion: fix it, or \
                 release the task as failed with this evidence."
            )));
        }
        if let Some(commit) = self.commit {
            let valid = (4..=64).contains(&commit.len())
                && commit.bytes().all(|b| b.is_ascii_alphanumeric());
            if !valid {
                return Err(TeamError::Evidence(format!(
                    "'{}' is not a commit or change ID (4 to 64 letters and digits).",
                    crate::runtime::text::clip(commit)
                )));
            }
        }
        if let Some(url) = self.url {
            check_line("URL", url, MAX_URL_CHARS)?;
            let web = url.starts_with("https://") || url.starts_with("http://");
            if !web || url.contains(char::is_whitespace) {
                return Err(TeamError::Evidence(format!(
                    "'{}' is not an http(s) URL without spaces.",
                    crate::runtime::text::clip(url)
                )));
            }
        }
        if let Some(note) = self.note {
            check_line("note", note, MAX_TEXT_CHARS)?;
        }
        Ok(Some(Evidence {
            command: command.map(str::to_owned),
            exit_code,
            commit: self.commit.map(str::to_owned),
            url: self.url.map(str::to_owned),
            note: self.note.map(str::to_owned),
            by: by.to_owned(),
            at,
            review: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: EvidenceInput<'_>, status: Status) -> Result<Option<Evidence>, TeamError> {
        input.check("w1", SystemTime::UNIX_EPOCH, status)
    }

    #[test]
    fn every_part_is_kept() {
        let input = EvidenceInput {
            command: Some("cargo test"),
            exit_code: Some(0),
            commit: Some("1a2b3c4d"),
            url: Some("https://ci.example/run/1"),
            note: Some("all green"),
        };
        let evidence = check(input, Status::Completed).unwrap().unwrap();
        assert_eq!(evidence.command.as_deref(), Some("cargo test"));
        assert_eq!(evidence.exit_code, Some(0));
        assert_eq!(evidence.commit.as_deref(), Some("1a2b3c4d"));
        assert_eq!(evidence.by, "w1");
        assert_eq!(check(EvidenceInput::default(), Status::Completed), Ok(None));
    }

    #[test]
    fn nonsense_is_refused() {
        let cases = [
            (
                EvidenceInput {
                    command: Some("make"),
                    ..EvidenceInput::default()
                },
                "Give a command and its exit_code together.",
            ),
            (
                EvidenceInput {
                    command: Some("make"),
                    exit_code: Some(2),
                    ..EvidenceInput::default()
                },
                "The command exited with 2, which does not show completion: fix it, or release the task as failed with this evidence.",
            ),
            (
                EvidenceInput {
                    commit: Some("not a hash"),
                    ..EvidenceInput::default()
                },
                "'not a hash' is not a commit or change ID (4 to 64 letters and digits).",
            ),
            (
                EvidenceInput {
                    url: Some("javascript:alert(1)"),
                    ..EvidenceInput::default()
                },
                "'javascript:alert(1)' is not an http(s) URL without spaces.",
            ),
            (
                EvidenceInput {
                    note: Some("two\nlines"),
                    ..EvidenceInput::default()
                },
                "The note must be one line without control characters.",
            ),
        ];
        for (input, message) in cases {
            assert_eq!(
                check(input, Status::Completed).unwrap_err().to_string(),
                message
            );
        }
        // A failed command is fine evidence of a failure.
        let failing = EvidenceInput {
            command: Some("make"),
            exit_code: Some(2),
            ..EvidenceInput::default()
        };
        assert!(check(failing, Status::Failed).unwrap().is_some());
    }
}
