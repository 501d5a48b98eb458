// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! git: the plan of branch `{b}` is the message of the commit at
//! `refs/commit-plan/{b}`. Each write adds a commit (the empty tree, the
//! previous version as parent) and moves the ref with compare-and-swap.
//! The branch, HEAD, the index, the working tree, hooks and signing are
//! never touched.

use super::failure::{Critical, Failure, Subject};
use super::process::{Invocation, Output, Runner};
use super::{Snapshot, Vcs};
use crate::toolsets::commit::view::Place;

/// The author and committer of plan commits.
const IDENTITY: [(&str, &str); 5] = [
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_AUTHOR_NAME", "planning-mcp-server"),
    ("GIT_COMMITTER_NAME", "planning-mcp-server"),
    ("GIT_AUTHOR_EMAIL", "planning-mcp-server@localhost"),
    ("GIT_COMMITTER_EMAIL", "planning-mcp-server@localhost"),
];

/// git through its CLI.
#[derive(Debug, Clone)]
pub struct Git {
    /// The git program.
    pub program: String,
    /// Where and for how long commands run.
    pub runner: Runner,
}

/// What an exit status other than 0 means to a caller.
enum Expect {
    /// Only 0 is success.
    Success,
    /// 0 or 1 (`--quiet` queries answer 1 for "no").
    ZeroOrOne,
}

impl Git {
    /// Runs git; a failure is CRITICAL, with `fix` when it ran and failed.
    async fn run(
        &self,
        args: &[&str],
        env: &[(&str, &str)],
        stdin: Option<&str>,
        expect: Expect,
    ) -> Result<Output, Failure> {
        let invocation = Invocation {
            program: &self.program,
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env,
            stdin,
        };
        let output = match self.runner.run(&invocation).await {
            Ok(output) => output,
            Err(error) => {
                let critical = Critical::not_run(Subject::Git, &invocation, &error);
                return Err(Failure::Critical(critical));
            }
        };
        let ok = match expect {
            Expect::Success => output.success(),
            Expect::ZeroOrOne => matches!(output.code, Some(0 | 1)),
        };
        if ok {
            return Ok(output);
        }
        let fix = match output.stderr.contains("not a git repository") {
            true => "run `git init` in the project, or set [commit] root to a git repository.",
            false => {
                "read the error above; repair the repository or git's configuration, then retry."
            }
        };
        Err(Failure::Critical(Critical::failed(
            Subject::Git,
            &invocation,
            &output,
            fix,
        )))
    }

    /// The branch HEAD is on; CRITICAL when HEAD is detached.
    async fn branch(&self) -> Result<String, Failure> {
        let args = ["symbolic-ref", "--quiet", "--short", "HEAD"];
        let output = self
            .run(&args, &IDENTITY[..1], None, Expect::ZeroOrOne)
            .await?;
        let branch = output.stdout.trim();
        if output.code == Some(1) || branch.is_empty() {
            let invocation = Invocation {
                program: &self.program,
                args: args.map(String::from).to_vec(),
                env: &[],
                stdin: None,
            };
            return Err(Failure::Critical(Critical::failed(
                Subject::Git,
                &invocation,
                &output,
                "HEAD is detached: check out a branch (`git switch <branch>`); each branch has its own plan.",
            )));
        }
        Ok(branch.to_owned())
    }

    /// The commit `refs/commit-plan/{branch}` points at, if any; CRITICAL
    /// when the ref points at something else.
    async fn plan_commit(&self, branch: &str) -> Result<Option<String>, Failure> {
        let name = Place::git_ref(branch);
        let peeled = format!("{name}^{{commit}}");
        let output = self
            .run(
                &["rev-parse", "--verify", "--quiet", &peeled],
                &IDENTITY[..1],
                None,
                Expect::ZeroOrOne,
            )
            .await?;
        if output.code == Some(0) {
            return Ok(Some(output.stdout.trim().to_owned()));
        }
        // No commit: no ref at all (no plan yet), or a ref to something else.
        let args = ["rev-parse", "--verify", "--quiet", name.as_str()];
        let exists = self
            .run(&args, &IDENTITY[..1], None, Expect::ZeroOrOne)
            .await?;
        if exists.code == Some(1) {
            return Ok(None);
        }
        let invocation = Invocation {
            program: &self.program,
            args: vec![
                "rev-parse".into(),
                "--verify".into(),
                "--quiet".into(),
                peeled,
            ],
            env: &[],
            stdin: None,
        };
        Err(Failure::Critical(Critical::failed(
            Subject::Git,
            &invocation,
            &output,
            format!(
                "{name} is not a commit (it points at {}); move it away (git update-ref -d {name}) after saving what it holds.",
                exists.stdout.trim()
            ),
        )))
    }

    /// The message of commit `oid`: everything after the first empty line.
    async fn message(&self, oid: &str) -> Result<String, Failure> {
        let output = self
            .run(
                &["cat-file", "commit", oid],
                &IDENTITY[..1],
                None,
                Expect::Success,
            )
            .await?;
        Ok(output
            .stdout
            .split_once("\n\n")
            .map_or_else(String::new, |(_, message)| message.to_owned()))
    }

    /// Adds a plan commit with `text` on `base` and moves the ref to it with
    /// compare-and-swap.
    async fn commit(&self, base: &Snapshot, text: &str, tool: &str) -> Result<(), Failure> {
        let Place::Git { branch } = &base.place else {
            return Err(Failure::Conflict);
        };
        let tree = self
            .run(&["mktree"], &IDENTITY[..1], Some(""), Expect::Success)
            .await?;
        let tree = tree.stdout.trim().to_owned();
        let mut args = vec!["commit-tree", "--no-gpg-sign", tree.as_str()];
        if let Some(old) = &base.oid {
            args.extend(["-p", old.as_str()]);
        }
        let created = self
            .run(&args, &IDENTITY, Some(text), Expect::Success)
            .await?;
        let new = created.stdout.trim().to_owned();
        let name = Place::git_ref(branch);
        let reason = format!("planning-mcp-server: {tool}");
        let old = base.oid.clone().unwrap_or_default();
        let args = [
            "update-ref",
            "-m",
            reason.as_str(),
            name.as_str(),
            new.as_str(),
            old.as_str(),
        ];
        match self.run(&args, &IDENTITY[..1], None, Expect::Success).await {
            Ok(_) => Ok(()),
            Err(failure) => {
                // Compare-and-swap lost: the ref moved since it was read.
                let now = self.plan_commit(branch).await.ok().flatten();
                match now == base.oid {
                    true => Err(failure),
                    false => Err(Failure::Conflict),
                }
            }
        }
    }
}

impl Vcs for Git {
    async fn read(&self) -> Result<Snapshot, Failure> {
        let branch = self.branch().await?;
        let oid = self.plan_commit(&branch).await?;
        let text = match &oid {
            Some(oid) => self.message(oid).await?,
            None => String::new(),
        };
        Ok(Snapshot {
            text,
            place: Place::Git { branch },
            oid,
        })
    }

    async fn changes(&self) -> Result<Vec<String>, Failure> {
        let env = [("GIT_TERMINAL_PROMPT", "0"), ("GIT_OPTIONAL_LOCKS", "0")];
        let args = ["status", "--porcelain=v1", "--untracked-files=all"];
        let output = self.run(&args, &env, None, Expect::Success).await?;
        Ok(output
            .stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect())
    }

    async fn write(&self, base: &Snapshot, text: &str, tool: &str) -> Result<(), Failure> {
        self.commit(base, text, tool).await
    }

    async fn start_new(&self, base: &Snapshot, text: &str, tool: &str) -> Result<Place, Failure> {
        self.commit(base, text, tool).await?;
        Ok(base.place.clone())
    }
}
