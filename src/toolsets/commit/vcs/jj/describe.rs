// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! How a `jj describe` is run to its end: past a commit jj already holds
//! (a write again after `jj undo`), and past an internal error of jj that
//! wrote nothing; any other failure is CRITICAL with what to do, even when
//! jj printed nothing.

use super::{INTERNAL_ERROR, Jj};
use crate::toolsets::commit::vcs::failure::Failure;

/// A commit's committer timestamp in seconds since the epoch.
const COMMITTER_SECONDS: &str = r#"self.committer().timestamp().format("%s") ++ "\n""#;

/// Each commit of a change: its id and its description as a JSON string.
const COPIES: &str = r#"self.commit_id() ++ " " ++ self.description().escape_json() ++ "\n""#;

/// How many times a describe is retried past a commit jj already holds:
/// each retry moves the timestamp one second past the commit it met.
const DESCRIBE_RETRIES: usize = 3;

/// How many times a describe that ended in an internal error of jj and
/// left the change as it was read is run again.
const INTERNAL_RETRIES: usize = 1;

/// The change a describe writes, and its commit as read: what tells a
/// failed describe that wrote nothing from one that wrote.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target<'a> {
    /// The change id (a prefix jj resolves).
    pub(super) change_id: &'a str,
    /// The full id of the commit the plan was read from.
    pub(super) commit: &'a str,
}

/// What a failed describe left on its change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Left {
    /// Exactly the text meant: jj failed after it wrote.
    Written,
    /// The commit read, as it was: nothing was written.
    Unchanged,
    /// Anything else (another commit, several copies, none).
    Other,
}

/// What `copies` (id and description of each commit of the change) say a
/// failed describe of `commit` with `text` left.
fn left(copies: &[(String, String)], commit: &str, text: &str) -> Left {
    match copies {
        [(_, description)] if description == text => Left::Written,
        [(id, _)] if id == commit => Left::Unchanged,
        _ => Left::Other,
    }
}

/// The commit id in jj's refusal to write a commit it already holds
/// ("Newly-created commit {id} already exists"), if `stderr` is that.
fn existing_commit(stderr: &str) -> Option<&str> {
    let (_, rest) = stderr.split_once("Newly-created commit ")?;
    let (id, rest) = rest.split_once(' ')?;
    let hex = !id.is_empty() && id.chars().all(|c| c.is_ascii_hexdigit());
    (hex && rest.starts_with("already exists")).then_some(id)
}

impl Jj {
    /// `jj describe args` with `text` on stdin, the change `target` when
    /// the caller knows the commit it read.
    ///
    /// jj refuses to write a commit it already holds (exit status 255,
    /// "Newly-created commit ... already exists"): a description written
    /// again within the same second as one since undone (`jj undo` after
    /// `verify_plan` with `migrate: true`, then the migration again) makes
    /// the very commit the undo hid. Then the describe is retried with the
    /// committer timestamp one second after that commit's, so the new
    /// commit differs from it in that alone.
    ///
    /// Any other internal error (exit status 255) is looked at on the
    /// change: the text there means jj failed after writing it (done);
    /// the commit read, unchanged, means nothing was written, and the
    /// describe runs once more before the failure is CRITICAL, saying
    /// that nothing was written.
    pub(super) async fn describe(
        &self,
        args: &[&str],
        text: &str,
        target: Option<Target<'_>>,
    ) -> Result<(), Failure> {
        let mut setting: Option<String> = None;
        let (mut stamps, mut internal) = (0, 0);
        loop {
            let mut all = args.to_vec();
            if let Some(setting) = &setting {
                all.extend(["--config", setting.as_str()]);
            }
            let invocation = self.invocation(&all, Some(text));
            let output = self.attempt(&invocation).await?;
            if output.success() {
                return Ok(());
            }
            if let Some(commit) = existing_commit(&output.stderr)
                && stamps < DESCRIBE_RETRIES
            {
                let stamp = self.second_after(commit).await?;
                setting = Some(format!("debug.commit-timestamp={stamp}"));
                stamps += 1;
                continue;
            }
            let (Some(target), Some(INTERNAL_ERROR)) = (target, output.code) else {
                return Err(Self::failed(&invocation, &output));
            };
            match self.left_by_failure(target, text).await? {
                Left::Written => return Ok(()),
                Left::Unchanged if internal < INTERNAL_RETRIES => internal += 1,
                Left::Unchanged => return Err(nothing_written(Self::failed(&invocation, &output))),
                Left::Other => return Err(Self::failed(&invocation, &output)),
            }
        }
    }

    /// What a failed describe left on `target`'s change, read without
    /// touching the working copy.
    async fn left_by_failure(&self, target: Target<'_>, text: &str) -> Result<Left, Failure> {
        let revset = format!("change_id({})", target.change_id);
        let args = [
            "log",
            "--ignore-working-copy",
            "-r",
            revset.as_str(),
            "--no-graph",
            "-T",
            COPIES,
        ];
        let output = self.run(&args, None).await?;
        let copies: Option<Vec<(String, String)>> = output
            .stdout
            .lines()
            .map(|line| {
                let (id, description) = line.split_once(' ')?;
                Some((id.to_owned(), serde_json::from_str(description).ok()?))
            })
            .collect();
        let copies = copies.ok_or_else(|| self.unreadable(&args))?;
        Ok(left(&copies, target.commit, text))
    }

    /// One second after the committer timestamp of `commit` (hidden or
    /// not), as RFC 3339, the form `debug.commit-timestamp` takes.
    async fn second_after(&self, commit: &str) -> Result<String, Failure> {
        let args = [
            "log",
            "--ignore-working-copy",
            "-r",
            commit,
            "--no-graph",
            "-T",
            COMMITTER_SECONDS,
        ];
        let output = self.run(&args, None).await?;
        output
            .stdout
            .trim()
            .parse::<i64>()
            .ok()
            .and_then(|seconds| seconds.checked_add(1))
            .and_then(|seconds| chrono::DateTime::<chrono::Utc>::from_timestamp(seconds, 0))
            .map(|stamp| stamp.to_rfc3339())
            .ok_or_else(|| self.unreadable(&args))
    }
}

/// `failure` with its fix saying that nothing was written, which the
/// change, read after it, showed.
fn nothing_written(failure: Failure) -> Failure {
    match failure {
        Failure::Critical(mut critical) => {
            critical.fix = format!(
                "nothing was written: the plan's change is as it was read. {}",
                critical.fix
            );
            Failure::Critical(critical)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_jjs_refusal_of_an_existing_commit_names_one() {
        let stderr = "Internal error: Unexpected error from backend\nCaused by: Newly-created commit 8a7b5c135480ebb7f23ea22f780a271396931866 already exists\n";
        assert_eq!(
            existing_commit(stderr),
            Some("8a7b5c135480ebb7f23ea22f780a271396931866")
        );
        assert_eq!(existing_commit("Error: Commit abc is hidden\n"), None);
        assert_eq!(
            existing_commit("Newly-created commit  already exists"),
            None
        );
        assert_eq!(
            existing_commit("Newly-created commit 12zz already exists"),
            None
        );
        assert_eq!(existing_commit("Newly-created commit abc was kept"), None);
    }

    #[test]
    fn what_a_failed_describe_left_is_told_by_the_change() {
        let copy = |id: &str, text: &str| (id.to_owned(), text.to_owned());
        let meant = "feat: a\n";
        assert_eq!(left(&[copy("c2", meant)], "c1", meant), Left::Written);
        assert_eq!(left(&[copy("c1", "old\n")], "c1", meant), Left::Unchanged);
        assert_eq!(left(&[copy("c3", "other\n")], "c1", meant), Left::Other);
        assert_eq!(
            left(&[copy("c1", "old\n"), copy("c2", meant)], "c1", meant),
            Left::Other,
            "a divergent change is never taken for a write"
        );
        assert_eq!(left(&[], "c1", meant), Left::Other);
    }

    #[test]
    fn a_failure_that_wrote_nothing_says_so_first() {
        let critical = crate::toolsets::commit::vcs::failure::Critical {
            subject: crate::toolsets::commit::vcs::failure::Subject::Jj,
            command: Some("jj describe".into()),
            status: "exit status 255".into(),
            stderr: Vec::new(),
            fix: "jj printed no error.".into(),
        };
        let Failure::Critical(said) = nothing_written(Failure::Critical(critical)) else {
            panic!("CRITICAL expected");
        };
        assert_eq!(
            said.fix,
            "nothing was written: the plan's change is as it was read. jj printed no error."
        );
        assert_eq!(nothing_written(Failure::Conflict), Failure::Conflict);
    }
}
