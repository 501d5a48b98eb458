// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The git commands the log needs, run through the runtime's runner (no
//! shell, a timeout, an output cap, the repository variables removed):
//! plumbing only (`hash-object`, `mktree`, `commit-tree`, `update-ref`
//! with the old value, `ls-tree`, `cat-file --batch`, `log` of a log's
//! own commits), and `fetch`/`push`
//! of `refs/planning/boards/*` with the user's own remotes and
//! credentials. Nothing touches a working tree, the index, HEAD or a
//! branch. git never prompts: a remote that wants a password the user's
//! credential helpers do not give fails instead of waiting.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::runtime::process::{Invocation, Output, Runner};

/// The environment of every git command: no prompt, and the log's commits
/// signed by the server (not by the user's `user.name`, which may be
/// unset), at the system's time.
const ENV: &[(&str, &str)] = &[
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_AUTHOR_NAME", "planning-mcp-server"),
    ("GIT_AUTHOR_EMAIL", "planning-mcp-server@localhost"),
    ("GIT_COMMITTER_NAME", "planning-mcp-server"),
    ("GIT_COMMITTER_EMAIL", "planning-mcp-server@localhost"),
];

/// How often a fetch that another process's fetch of the same refs got in
/// the way of is tried again.
const FETCH_TRIES: u32 = 10;

/// What failed in a git command: the command line and what git said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{command}: {problem}")]
pub(crate) struct GitError {
    /// The command as a user would type it.
    pub(crate) command: String,
    /// git's own words (its last lines), or why it did not run.
    pub(crate) problem: String,
}

/// How a push ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pushed {
    /// The remote's ref is ours now.
    Done,
    /// The remote refused the update of the ref (its value was not the
    /// one expected, or a hook or a rule refused it): git's reason. The
    /// caller fetches to tell a race from a refusal.
    Rejected(String),
    /// The push did not reach the remote, or did not end in time (offline,
    /// no such remote, no access, a remote that never answered): what git
    /// (or the timeout) said.
    Failed(String),
}

/// One entry of a tree: its name, its mode and type (`blob`, `tree`,
/// `commit`), object and size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The name in the tree (invalid UTF-8 replaced: git allows any bytes).
    pub(crate) name: String,
    /// The mode git lists (`100644`, `040000`, `160000`, ...).
    pub(crate) mode: String,
    /// The object's type.
    pub(crate) kind: String,
    /// The object ID.
    pub(crate) oid: String,
    /// The blob's size in bytes (`None` for a tree or a submodule).
    pub(crate) size: Option<u64>,
}

/// One commit of a [`Git::history`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listed {
    /// The commit.
    pub(crate) id: String,
    /// Its tree.
    pub(crate) tree: String,
    /// Its parents.
    pub(crate) parents: Vec<String>,
}

/// What a tree we write holds under one name: the mode, type and object
/// it had where it was read (a hostile clone's subtree stays a subtree,
/// so that `mktree` takes it), or a blob of ours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    /// The mode.
    pub(crate) mode: String,
    /// The object's type.
    pub(crate) kind: String,
    /// The object ID.
    pub(crate) oid: String,
}

impl Item {
    /// A blob (an operation or a checkpoint this server wrote).
    pub(crate) fn blob(oid: String) -> Self {
        Self {
            mode: "100644".into(),
            kind: "blob".into(),
            oid,
        }
    }
}

/// The most bytes one `cat-file --batch` answers with: the runner's cap,
/// less room for the answers' header lines.
pub(crate) const MAX_BATCH_BYTES: u64 = (crate::runtime::process::MAX_OUTPUT as u64) - 64 * 1024;

/// One repository, as git sees it from a directory.
#[derive(Debug, Clone)]
pub(crate) struct Git {
    runner: Runner,
    /// The git directory worktrees share (`git rev-parse --git-common-dir`).
    common_dir: PathBuf,
}

impl Git {
    /// The repository around `dir`, whose commands may each take `timeout`.
    pub(crate) fn open(dir: &Path, timeout: Duration) -> Result<Self, GitError> {
        let runner = Runner {
            dir: dir.to_path_buf(),
            timeout,
        };
        let git = Self {
            runner,
            common_dir: PathBuf::new(),
        };
        let output = git.run(
            &["rev-parse", "--path-format=absolute", "--git-common-dir"],
            None,
        )?;
        let common = output.stdout.trim_end_matches(['\n', '\r']);
        if common.is_empty() {
            return Err(git.error(
                &["rev-parse", "--git-common-dir"],
                "git named no git directory".into(),
            ));
        }
        Ok(Self {
            common_dir: PathBuf::from(common),
            ..git
        })
    }

    /// The git directory the repository's worktrees share.
    pub(crate) fn common_dir(&self) -> &Path {
        &self.common_dir
    }

    fn invocation<'a>(&self, args: &[&str], stdin: Option<&'a str>) -> Invocation<'a> {
        Invocation {
            program: "git",
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: ENV,
            stdin,
        }
    }

    fn error(&self, args: &[&str], problem: String) -> GitError {
        GitError {
            command: self.invocation(args, None).command_line(),
            problem,
        }
    }

    /// Runs git; a non-zero exit is an error with git's last words.
    fn run(&self, args: &[&str], stdin: Option<&str>) -> Result<Output, GitError> {
        let output = self.run_any(args, stdin)?;
        match output.success() {
            true => Ok(output),
            false => Err(self.error(args, said(&output))),
        }
    }

    /// Runs git, whatever its exit status.
    fn run_any(&self, args: &[&str], stdin: Option<&str>) -> Result<Output, GitError> {
        self.runner
            .run_blocking(&self.invocation(args, stdin))
            .map_err(|error| self.error(args, error.to_string()))
    }

    /// The commit `name` (a ref) points at, or `None` when it does not exist.
    pub(crate) fn resolve(&self, name: &str) -> Result<Option<String>, GitError> {
        let spec = format!("{name}^{{commit}}");
        let args = ["rev-parse", "--verify", "--quiet", &spec];
        let output = self.run_any(&args, None)?;
        match output.code {
            Some(0) => Ok(Some(output.stdout.trim().to_owned())),
            Some(1) if output.stderr.trim().is_empty() => Ok(None),
            _ => Err(self.error(&args, said(&output))),
        }
    }

    /// The size in bytes of object `spec` (`{commit}^{tree}`: its tree).
    pub(crate) fn object_size(&self, spec: &str) -> Result<u64, GitError> {
        let args = ["cat-file", "-s", spec];
        let output = self.run(&args, None)?;
        output
            .stdout
            .trim()
            .parse()
            .map_err(|_| self.error(&args, format!("'{}'", output.stdout.trim())))
    }

    /// The tree of commit `commit`.
    pub(crate) fn tree_of(&self, commit: &str) -> Result<String, GitError> {
        let spec = format!("{commit}^{{tree}}");
        let output = self.run(&["rev-parse", "--verify", &spec], None)?;
        Ok(output.stdout.trim().to_owned())
    }

    /// Whether object `oid` is in the repository (a tree a checkpoint names
    /// may be gone from a remote rewritten without its history).
    pub(crate) fn has_object(&self, oid: &str) -> Result<bool, GitError> {
        let output = self.run_any(&["cat-file", "-e", oid], None)?;
        Ok(output.success())
    }

    /// Stores `text` as a blob; returns its ID.
    pub(crate) fn hash_object(&self, text: &str) -> Result<String, GitError> {
        let output = self.run(&["hash-object", "-w", "--stdin"], Some(text))?;
        Ok(output.stdout.trim().to_owned())
    }

    /// Stores a tree (name -> what it holds); returns its ID. The entries
    /// end with a NUL (`-z`): a name may hold a newline.
    pub(crate) fn mktree<'a>(
        &self,
        entries: impl ExactSizeIterator<Item = (&'a str, &'a Item)>,
    ) -> Result<String, GitError> {
        let mut text = String::with_capacity(entries.len() * 80);
        for (name, item) in entries {
            text.push_str(&item.mode);
            text.push(' ');
            text.push_str(&item.kind);
            text.push(' ');
            text.push_str(&item.oid);
            text.push('\t');
            text.push_str(name);
            text.push('\0');
        }
        let output = self.run(&["mktree", "-z"], Some(&text))?;
        Ok(output.stdout.trim().to_owned())
    }

    /// Stores a commit of `tree` with `parents`; returns its ID.
    pub(crate) fn commit_tree(
        &self,
        tree: &str,
        parents: &[&str],
        message: &str,
    ) -> Result<String, GitError> {
        let mut args = vec!["commit-tree", tree];
        for parent in parents {
            args.extend(["-p", parent]);
        }
        args.extend(["-m", message]);
        let output = self.run(&args, None)?;
        Ok(output.stdout.trim().to_owned())
    }

    /// Moves `name` to `new` if it is at `old` (`None`: if it does not
    /// exist): a compare-and-swap. Returns whether it moved.
    pub(crate) fn update_ref(
        &self,
        name: &str,
        new: &str,
        old: Option<&str>,
    ) -> Result<bool, GitError> {
        const NONE: &str = "0000000000000000000000000000000000000000";
        let old = old.unwrap_or(NONE);
        let args = ["update-ref", "-m", "planning-mcp-server", name, new, old];
        let output = self.run_any(&args, None)?;
        if output.success() {
            return Ok(true);
        }
        // Refused: if the ref is not where we thought, someone moved it.
        let now = self.resolve(name)?;
        match now.as_deref() == Some(old) || (now.is_none() && old == NONE) {
            true => Err(self.error(&args, said(&output))),
            false => Ok(false),
        }
    }

    /// Deletes ref `name` if it is at `old`.
    pub(crate) fn delete_ref(&self, name: &str, old: &str) -> Result<(), GitError> {
        self.run(&["update-ref", "-d", name, old], None).map(drop)
    }

    /// The entries of the tree of `commit` (or of tree `commit`).
    pub(crate) fn ls_tree(&self, commit: &str) -> Result<Vec<Entry>, GitError> {
        let output = self.run(&["ls-tree", "-z", "-l", commit], None)?;
        let mut entries = Vec::new();
        for record in output.stdout.split('\0').filter(|r| !r.is_empty()) {
            let parsed = record.split_once('\t').and_then(|(head, name)| {
                let mut parts = head.split(' ').filter(|p| !p.is_empty());
                let (mode, kind, oid) = (parts.next()?, parts.next()?, parts.next()?);
                let size = parts.next()?;
                Some(Entry {
                    name: name.to_owned(),
                    mode: mode.to_owned(),
                    kind: kind.to_owned(),
                    oid: oid.to_owned(),
                    size: size.parse().ok(),
                })
            });
            match parsed {
                Some(entry) => entries.push(entry),
                None => {
                    let problem =
                        format!("unexpected output '{}'", crate::runtime::text::clip(record));
                    return Err(self.error(&["ls-tree", "-z", "-l", commit], problem));
                }
            }
        }
        Ok(entries)
    }

    /// The contents of blobs, by ID, with their sizes as listed (each at
    /// most [`MAX_BATCH_BYTES`]; read in `cat-file --batch` runs).
    pub(crate) fn cat_blobs(
        &self,
        oids: &[(&str, u64)],
    ) -> Result<HashMap<String, Vec<u8>>, GitError> {
        let mut blobs = HashMap::with_capacity(oids.len());
        if oids.is_empty() {
            return Ok(blobs);
        }
        // Batches keep each answer within the runner's output cap.
        let mut chunks: Vec<Vec<&str>> = vec![Vec::new()];
        let mut bytes_in_chunk = 0u64;
        for &(oid, size) in oids {
            let size = size.saturating_add(100);
            let last = chunks.last().map_or(0, Vec::len);
            if last >= 2_000 || (last > 0 && bytes_in_chunk.saturating_add(size) > MAX_BATCH_BYTES)
            {
                chunks.push(Vec::new());
                bytes_in_chunk = 0;
            }
            bytes_in_chunk = bytes_in_chunk.saturating_add(size);
            if let Some(chunk) = chunks.last_mut() {
                chunk.push(oid);
            }
        }
        for chunk in &chunks {
            let input: String = chunk.iter().map(|oid| format!("{oid}\n")).collect();
            let args = ["cat-file", "--batch"];
            // Bytes, not text: a blob need not be UTF-8 (a hostile clone's
            // binary file), and its size counts bytes.
            let output = self
                .runner
                .run_blocking_bytes(&self.invocation(&args, Some(&input)))
                .map_err(|error| self.error(&args, error.to_string()))?;
            if output.code != Some(0) {
                let said = match output.stderr.trim() {
                    "" => format!("exit status {:?}", output.code),
                    stderr => stderr.to_owned(),
                };
                return Err(self.error(&args, said));
            }
            parse_batch(&output.stdout, &mut blobs)
                .map_err(|problem| self.error(&args, problem))?;
        }
        Ok(blobs)
    }

    /// The commits `commit` reaches (itself first, newest first), each
    /// with its tree and parents: how a log finds, in a chain an earlier
    /// build wrote, the commit its checkpoint was made in.
    pub(crate) fn history(&self, commit: &str) -> Result<Vec<Listed>, GitError> {
        let args = [
            "log",
            "--no-show-signature",
            "--format=%H %T %P",
            "--end-of-options",
            commit,
        ];
        let output = self.run(&args, None)?;
        Ok(output
            .stdout
            .lines()
            .filter_map(|line| {
                let mut parts = line.split(' ').filter(|p| !p.is_empty());
                let (id, tree) = (parts.next()?, parts.next()?);
                Some(Listed {
                    id: id.to_owned(),
                    tree: tree.to_owned(),
                    parents: parts.map(str::to_owned).collect(),
                })
            })
            .collect())
    }

    /// The longest one command may take.
    pub(crate) fn timeout(&self) -> Duration {
        self.runner.timeout
    }

    /// Fetches every board of `remote` into refs under `into` (boards the
    /// remote no longer has are pruned there).
    pub(crate) fn fetch(&self, remote: &str, into: &str) -> Result<(), GitError> {
        let refspec = format!("+refs/planning/boards/*:{into}*");
        let args = [
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            "--prune",
            "--no-auto-gc",
            "--no-recurse-submodules",
            remote,
            &refspec,
        ];
        // A process that fetches without the fetch lock (an earlier build)
        // may move a ref under this fetch: git then refuses it, and it is
        // tried again.
        let mut tries = 0;
        loop {
            match self.run(&args, None) {
                Err(error) if error.problem.contains("cannot lock ref") && tries < FETCH_TRIES => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(20 * u64::from(tries)));
                }
                done => return done.map(drop),
            }
        }
    }

    /// Deletes the refs `refs` (name, the value it must have), in one
    /// transaction: none is deleted if one moved meanwhile.
    pub(crate) fn delete_refs(&self, refs: &[(String, String)]) -> Result<(), GitError> {
        if refs.is_empty() {
            return Ok(());
        }
        let input: String = refs
            .iter()
            .map(|(name, old)| format!("delete {name} {old}\n"))
            .collect();
        self.run(&["update-ref", "--stdin"], Some(&input)).map(drop)
    }

    /// Pushes commit `commit` to `remote`'s ref `name` if that ref is at
    /// `expected` (`None`: if it does not exist): the remote's update is
    /// the compare-and-swap.
    pub(crate) fn push(
        &self,
        remote: &str,
        commit: &str,
        name: &str,
        expected: Option<&str>,
    ) -> Result<Pushed, GitError> {
        let lease = format!("--force-with-lease={name}:{}", expected.unwrap_or(""));
        let refspec = format!("{commit}:{name}");
        let args = [
            "push",
            "--porcelain",
            "--no-verify",
            "--no-recurse-submodules",
            &lease,
            remote,
            &refspec,
        ];
        // A push that did not end (a remote that never answers, killed at
        // `sync.git_timeout`) or did not start did not reach the remote as
        // far as this clone can tell: the caller keeps the change here.
        let output = match self.run_any(&args, None) {
            Ok(output) => output,
            Err(error) => return Ok(Pushed::Failed(error.problem)),
        };
        let line = output
            .stdout
            .lines()
            .find(|line| line.contains(&format!(":{name}\t")));
        Ok(match line {
            Some(line) if line.starts_with('!') => {
                Pushed::Rejected(line.rsplit('\t').next().unwrap_or(line).trim().to_owned())
            }
            Some(_) if output.success() => Pushed::Done,
            _ => Pushed::Failed(said(&output)),
        })
    }

    /// The names of the configured remotes.
    pub(crate) fn remotes(&self) -> Result<Vec<String>, GitError> {
        let output = self.run(&["remote"], None)?;
        Ok(output.stdout.lines().map(str::to_owned).collect())
    }

    /// The names of `remote`'s refs that match `pattern` (`git ls-remote`:
    /// asks the remote, within the command's timeout).
    pub(crate) fn remote_refs(&self, remote: &str, pattern: &str) -> Result<Vec<String>, GitError> {
        let output = self.run(&["ls-remote", "--refs", remote, pattern], None)?;
        Ok(output
            .stdout
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .map(|(_, name)| name.to_owned())
            .collect())
    }

    /// The refs under `prefix` with their commits.
    pub(crate) fn refs(&self, prefix: &str) -> Result<Vec<(String, String)>, GitError> {
        let output = self.run(
            &["for-each-ref", "--format=%(refname) %(objectname)", prefix],
            None,
        )?;
        Ok(output
            .stdout
            .lines()
            .filter_map(|line| line.split_once(' '))
            .map(|(name, oid)| (name.to_owned(), oid.to_owned()))
            .collect())
    }
}

/// Reads `cat-file --batch`'s answer into `blobs`: per object a header
/// (`{oid} {type} {size}`, or `{oid} missing` for an object this
/// repository lacks, which is left out), then `size` bytes and a newline.
fn parse_batch(bytes: &[u8], blobs: &mut HashMap<String, Vec<u8>>) -> Result<(), String> {
    let mut at = 0;
    while at < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[at..])
            .map(|n| at + n)
            .ok_or("a truncated answer")?;
        let header = String::from_utf8_lossy(&bytes[at..end]).into_owned();
        let parts: Vec<&str> = header.split(' ').collect();
        match parts.as_slice() {
            [_, "missing"] => {
                at = end + 1;
                continue;
            }
            [oid, _kind, size] => {
                let size: usize = size
                    .parse()
                    .map_err(|_| format!("'{}'", crate::runtime::text::clip(&header)))?;
                let start = end + 1;
                let stop = start.saturating_add(size);
                if stop > bytes.len() {
                    return Err("a truncated answer".into());
                }
                blobs.insert((*oid).to_owned(), bytes[start..stop].to_vec());
                at = stop + 1;
            }
            _ => return Err(format!("'{}'", crate::runtime::text::clip(&header))),
        }
    }
    Ok(())
}

/// What git said: its last lines of stderr (or stdout), or its exit status.
fn said(output: &Output) -> String {
    let text = match output.stderr.trim().is_empty() {
        true => output.stdout.trim(),
        false => output.stderr.trim(),
    };
    // git's own verdict (`fatal:`, `error:`) says more than the advice
    // that follows it.
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let verdicts: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("fatal:") || l.starts_with("error:"))
        .take(2)
        .collect();
    match (verdicts.is_empty(), lines.is_empty()) {
        (false, _) => verdicts.join(" / "),
        (true, false) => lines[lines.len().saturating_sub(3)..].join(" / "),
        (true, true) => output.status(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> (tempfile::TempDir, Git) {
        let dir = tempfile::tempdir().unwrap();
        let init = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(init.success());
        let git = Git::open(dir.path(), Duration::from_secs(60)).unwrap();
        (dir, git)
    }

    #[test]
    fn plumbing_writes_a_log_without_touching_the_worktree() {
        let (dir, git) = repo();
        assert_eq!(
            git.common_dir(),
            dir.path().canonicalize().unwrap().join(".git")
        );
        let blob = git.hash_object("{\"a\":1}\n").unwrap();
        let item = Item::blob(blob.clone());
        let tree = git.mktree([("op-1", &item)].into_iter()).unwrap();
        let commit = git.commit_tree(&tree, &[], "first").unwrap();
        let name = "refs/planning/boards/default";
        assert_eq!(git.resolve(name).unwrap(), None);
        assert!(git.update_ref(name, &commit, None).unwrap());
        // A second writer who thought the ref absent loses the swap.
        assert!(!git.update_ref(name, &commit, None).unwrap());
        assert_eq!(git.resolve(name).unwrap().as_deref(), Some(commit.as_str()));
        let entries = git.ls_tree(&commit).unwrap();
        assert_eq!(
            entries,
            [Entry {
                name: "op-1".into(),
                mode: "100644".into(),
                kind: "blob".into(),
                oid: blob.clone(),
                size: Some(8),
            }]
        );
        let blobs = git.cat_blobs(&[(&blob, 8)]).unwrap();
        assert_eq!(blobs[&blob], b"{\"a\":1}\n");
        let history = git.history(&commit).unwrap();
        assert_eq!(
            history,
            [Listed {
                id: commit.clone(),
                tree,
                parents: Vec::new(),
            }]
        );
        // Nothing shows in the work tree, the index or the branches.
        let status = std::process::Command::new("git")
            .args(["status", "--porcelain", "--ignored"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&status.stdout), "");
    }

    #[test]
    fn a_failing_command_says_what_git_said() {
        let (_dir, git) = repo();
        let error = git
            .ls_tree("0123456789012345678901234567890123456789")
            .unwrap_err();
        assert_eq!(
            error.command,
            "git ls-tree -z -l 0123456789012345678901234567890123456789"
        );
        assert!(
            error.problem.contains("not a tree object"),
            "{}",
            error.problem
        );
        let outside = tempfile::tempdir().unwrap();
        let error = Git::open(outside.path(), Duration::from_secs(60)).unwrap_err();
        assert!(
            error.problem.contains("not a git repository"),
            "{}",
            error.problem
        );
    }
}
