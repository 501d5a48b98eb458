// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! git: the plan of branch `{b}` is the file `plan` of the tree at
//! `refs/commit-plan/{b}` ([`git_plan`](super::git_plan)); each write adds
//! a version to its `history/` and moves the ref with compare-and-swap. The
//! branch, HEAD, the index, the working tree, hooks and signing are never
//! touched. During a rebase or a bisect the plan is that of the branch it
//! started from; a detached HEAD with no such branch has no plan (a
//! routine state, not CRITICAL).

use std::path::PathBuf;

use super::failure::{Critical, Failure, Subject};
use super::git_objects;
use super::git_plan::{self, History, Stored};
use super::git_state::{self, GitState, Head};
use super::process::{BytesOutput, Invocation, Output, Runner};
use super::{Snapshot, Vcs};
use crate::toolsets::commit::document::{Limits, Reading, read};
use crate::toolsets::commit::place::{Around, Committed, Place};

/// The author and committer of plan commits.
const IDENTITY: [(&str, &str); 5] = [
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_AUTHOR_NAME", "planning-mcp-server"),
    ("GIT_COMMITTER_NAME", "planning-mcp-server"),
    ("GIT_AUTHOR_EMAIL", "planning-mcp-server@localhost"),
    ("GIT_COMMITTER_EMAIL", "planning-mcp-server@localhost"),
];

/// How many of the branch's newest commits are searched for a finished
/// plan that was committed.
const COMMITTED_SEARCH: usize = 20;

/// git through its CLI.
#[derive(Debug, Clone)]
pub(crate) struct Git {
    /// The git program.
    pub(crate) program: String,
    /// Where and for how long commands run.
    pub(crate) runner: Runner,
    /// The working tree's top directory (where `.git` is), when found.
    pub(crate) top: Option<PathBuf>,
}

/// What an exit status other than 0 means to a caller.
#[derive(Clone, Copy)]
enum Expect {
    /// Only 0 is success.
    Success,
    /// 0 or 1 (`--quiet` queries answer 1 for "no").
    ZeroOrOne,
    /// Any status: the caller reads it.
    Any,
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
        let output = self
            .run_raw(args, env, stdin.map(str::as_bytes), expect)
            .await?;
        Ok(Output {
            code: output.code,
            stdout: String::from_utf8(output.stdout)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            stderr: output.stderr,
        })
    }

    /// [`Git::run`] with binary stdin and stdout (objects, packs).
    async fn run_raw(
        &self,
        args: &[&str],
        env: &[(&str, &str)],
        input: Option<&[u8]>,
        expect: Expect,
    ) -> Result<BytesOutput, Failure> {
        let invocation = Invocation {
            program: &self.program,
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env,
            stdin: None,
        };
        let output = match self.runner.run_raw(&invocation, input).await {
            Ok(output) => output,
            Err(error) => {
                let critical = Critical::not_run(Subject::Git, &invocation, &error);
                return Err(Failure::Critical(critical));
            }
        };
        let ok = match expect {
            Expect::Success => output.code == Some(0),
            Expect::ZeroOrOne => matches!(output.code, Some(0 | 1)),
            Expect::Any => true,
        };
        if ok {
            return Ok(output);
        }
        // Nothing on stderr leaves no error to read: say how to see one.
        let fix = if output.stderr.contains("not a git repository") {
            "run `git init` in the project, or set [commit] root to a git repository."
        } else if output.stderr.trim().is_empty() {
            "git printed no error. Run `git status` in the repository: it shows what stops git (a lock file left by a git that was killed: remove it once no git runs). Then call gather_requirements and repeat the call."
        } else {
            "read the error above; repair the repository or git's configuration, then retry."
        };
        let failed = Output {
            code: output.code,
            stdout: String::new(),
            stderr: output.stderr,
        };
        Err(Failure::Critical(Critical::failed(
            Subject::Git,
            &invocation,
            &failed,
            fix,
        )))
    }

    /// Runs a query that reads the repository.
    async fn query(
        &self,
        args: &[&str],
        stdin: Option<&str>,
        expect: Expect,
    ) -> Result<Output, Failure> {
        self.run(args, &IDENTITY[..1], stdin, expect).await
    }

    /// The branch whose plan this call works on, and what git is in the
    /// middle of; a detached HEAD that no rebase or bisect explains is a
    /// [`Failure::State`].
    async fn branch(&self) -> Result<(String, GitState), Failure> {
        self.refuse_bare()?;
        let git_dir = self.top.as_deref().and_then(git_state::git_dir);
        // HEAD's file, as git writes it, costs no process; git answers
        // where the file does not say (a reftable repository's).
        let head = match git_dir.as_deref().and_then(git_state::read_head) {
            Some(head) => head,
            None => {
                let head = self
                    .query(
                        &["symbolic-ref", "--quiet", "HEAD"],
                        None,
                        Expect::ZeroOrOne,
                    )
                    .await?;
                match head.code == Some(0) {
                    true => Head::Symbolic(head.stdout.trim().to_owned()),
                    false => Head::Detached,
                }
            }
        };
        let state = git_dir
            .map(|dir| git_state::read_state(&dir))
            .unwrap_or_default();
        // The full name: `--short` answers `heads/main` when a tag is also
        // called `main`.
        if let Head::Symbolic(reference) = &head
            && let Some(branch) = reference.strip_prefix("refs/heads/")
        {
            return Ok((branch.to_owned(), state));
        }
        match state.branch.clone() {
            Some(branch) => Ok((branch, state)),
            None => Err(Failure::State(self.detached(&state).await?)),
        }
    }

    /// A bare repository has no work to plan: CRITICAL, before git is run.
    fn refuse_bare(&self) -> Result<(), Failure> {
        if self.top.is_some() {
            return Ok(());
        }
        match git_state::bare_repository(&self.runner.dir) {
            None => Ok(()),
            Some(bare) => Err(Failure::Critical(Critical {
                subject: Subject::Repository(bare.clone()),
                command: None,
                status: format!("{} is a bare repository: it has no working tree", bare.display()),
                stderr: Vec::new(),
                fix: "set [commit] root to a clone with a working tree (git clone or git worktree add); the plan belongs to the work done there.".into(),
            })),
        }
    }

    /// What a reply says about a detached HEAD: where it is and the ways on.
    async fn detached(&self, state: &GitState) -> Result<String, Failure> {
        let at = self
            .query(
                &["log", "-1", "--no-show-signature", "--format=%h%d", "HEAD"],
                None,
                Expect::Any,
            )
            .await?;
        let at = at.stdout.trim();
        let mut text = match at.is_empty() {
            true => "HEAD is detached".to_owned(),
            false => format!("HEAD is detached at {at}"),
        };
        text.push_str(": no branch is checked out, and the commit planner keeps one plan per branch (refs/commit-plan/<branch>), so there is no plan here.");
        match state.operation {
            Some(operation) => text.push_str(&format!(
                " git is in the middle of {} that started detached; {}, then check out a branch.",
                operation.name(),
                operation.way_out()
            )),
            None => text.push_str(" To plan work, check out a branch (git switch <branch>) or start one here (git switch -c <new-branch>)."),
        }
        text.push_str(" Then call gather_requirements.");
        Ok(text)
    }

    /// What `refs/commit-plan/{branch}` holds and what a write extends,
    /// in one process.
    async fn stored(&self, branch: &str) -> Result<(Stored, History), Failure> {
        let name = Place::git_ref(branch);
        let commands = git_plan::read_commands(&name);
        let output = self
            .run_raw(
                &["cat-file", "--batch-command"],
                &IDENTITY[..1],
                Some(commands.as_bytes()),
                Expect::Success,
            )
            .await?;
        git_plan::parse_read(&output.stdout).ok_or_else(|| {
            self.unreadable(
                &name,
                "git cat-file --batch-command printed what it never prints",
            )
        })
    }

    /// CRITICAL: the plan ref cannot be used as it is.
    fn unreadable(&self, name: &str, status: &str) -> Failure {
        Failure::Critical(Critical {
            subject: Subject::Git,
            command: Some(format!(
                "{} cat-file --batch-command ({name})",
                self.program
            )),
            status: status.to_owned(),
            stderr: Vec::new(),
            fix: format!(
                "{name} is not a plan; move it away (git update-ref -d {name}) after saving what it holds."
            ),
        })
    }

    /// The commit among the branch's newest whose message is `text`, as
    /// `1a2b3c4 (HEAD)` or `1a2b3c4 (HEAD~2)`.
    async fn committed_as(&self, branch: &str, text: &str) -> Result<Option<String>, Failure> {
        let count = COMMITTED_SEARCH.to_string();
        let head = format!("refs/heads/{branch}");
        let args = [
            "log",
            "-z",
            "--no-show-signature",
            "--format=%h%x00%B",
            "-n",
            &count,
            &head,
        ];
        let output = self.query(&args, None, Expect::Any).await?;
        if !output.success() {
            return Ok(None); // an unborn branch has no commits
        }
        let wanted = text.trim_end();
        let mut fields = output.stdout.split('\0');
        let mut back = 0;
        while let (Some(hash), Some(message)) = (fields.next(), fields.next()) {
            if message.trim_end() == wanted {
                let at = match back {
                    0 => "HEAD".to_owned(),
                    n => format!("HEAD~{n}"),
                };
                return Ok(Some(format!("{} ({at})", hash.trim())));
            }
            back += 1;
        }
        Ok(None)
    }

    /// Writes `text` as the next version of the plan on `base`'s branch and
    /// moves the ref to it with compare-and-swap; the first write on a ref
    /// of the earlier layout carries its versions over. Two processes: one
    /// `git unpack-objects` for every object of the write, made here, and
    /// the `git update-ref`.
    async fn commit(&self, base: &Snapshot, text: &str, tool: &str) -> Result<(), Failure> {
        let Place::Git { branch } = &base.place else {
            return Err(Failure::Conflict);
        };
        let name = Place::git_ref(branch);
        let Some(history) = &base.history else {
            return Err(Failure::Conflict); // not read from git
        };
        let earlier = match (&base.base, base.legacy) {
            (Some(commit), true) => self.legacy_history(commit).await?,
            _ => Vec::new(),
        };
        let (objects, root) =
            git_plan::next_version(history, &earlier, text, tool).ok_or_else(|| {
                self.unreadable(&name, "its history/ lists an object ID that is not hex")
            })?;
        let pack = git_objects::pack(&objects, history.format);
        self.run_raw(
            &["unpack-objects", "-q"],
            &IDENTITY[..1],
            Some(&pack),
            Expect::Success,
        )
        .await?;
        let reason = format!("planning-mcp-server: {tool}");
        let old = base.base.clone().unwrap_or_default();
        let args = [
            "update-ref",
            "-m",
            reason.as_str(),
            name.as_str(),
            root.as_str(),
            old.as_str(),
        ];
        match self.query(&args, None, Expect::Success).await {
            Ok(_) => Ok(()),
            Err(failure) => {
                // Compare-and-swap lost: the ref moved since it was read.
                let now = self
                    .query(
                        &["rev-parse", "--verify", "--quiet", &name],
                        None,
                        Expect::ZeroOrOne,
                    )
                    .await?;
                let now = (now.code == Some(0)).then(|| now.stdout.trim().to_owned());
                match now == base.base {
                    true => Err(failure),
                    false => Err(Failure::Conflict),
                }
            }
        }
    }

    /// The versions of a commit chain of the earlier layout, oldest first:
    /// the messages of its commits.
    async fn legacy_history(&self, commit: &str) -> Result<Vec<String>, Failure> {
        let chain = self
            .query(&["rev-list", "--reverse", commit], None, Expect::Success)
            .await?;
        let commits: Vec<&str> = chain.stdout.lines().collect();
        let commands: String = commits.iter().map(|c| format!("contents {c}\n")).collect();
        let objects = self
            .run_raw(
                &["cat-file", "--batch-command"],
                &IDENTITY[..1],
                Some(commands.as_bytes()),
                Expect::Success,
            )
            .await?;
        git_plan::legacy_versions(&objects.stdout, commits.len()).ok_or_else(|| {
            self.unreadable(
                commit,
                "a plan version of the earlier layout is not a commit",
            )
        })
    }
}

impl Vcs for Git {
    async fn read(&self, limits: &Limits) -> Result<Snapshot, Failure> {
        let (branch, state) = self.branch().await?;
        let (stored, history) = self.stored(&branch).await?;
        let (text, base, legacy) = match stored {
            Stored::Nothing => (String::new(), None, false),
            Stored::Tree { oid, text } => (text, Some(oid), false),
            Stored::Legacy { oid, text } => (text, Some(oid), true),
            Stored::Other { oid, kind } => {
                let name = Place::git_ref(&branch);
                return Err(self.unreadable(&name, &format!("{name} points at a {kind} ({oid})")));
            }
        };
        let finished = matches!(read(&text, limits), Reading::Parsed(d) if d.is_finished());
        let committed = match finished {
            true => self.committed_as(&branch, &text).await?.map(Committed::Git),
            false => None,
        };
        Ok(Snapshot {
            text,
            place: Place::Git { branch },
            base,
            legacy,
            history: Some(history),
            around: Around {
                operation: state.operation,
                committed,
                ..Around::default()
            },
        })
    }

    async fn changes(&self, _base: &Snapshot) -> Result<Vec<String>, Failure> {
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
