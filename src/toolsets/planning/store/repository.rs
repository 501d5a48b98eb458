// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The repository a working directory belongs to, for
//! `storage.share_worktrees`: every git worktree and every jj workspace of
//! one repository resolves to the same directory, the repository's main
//! working copy (or, for a bare git repository, its git directory), so
//! that a relative `storage.dir` names one board for all of them.
//!
//! It reads the files git and jj leave, without running either:
//! - git: `.git` is the git directory of the main worktree; in another
//!   worktree it is a file `gitdir: PATH`, and that directory's `commondir`
//!   file names the shared git directory (relative to it);
//! - jj: `.jj/repo` is the repository directory of the main workspace; in
//!   another workspace it is a file holding its path (relative to `.jj`, or
//!   absolute in older versions).

use std::fs;
use std::path::{Path, PathBuf};

/// The directory every worktree of the repository around `start` shares,
/// or why there is none (`start` is in no repository, or its files cannot
/// be read).
pub(crate) fn shared_root(start: &Path) -> Result<PathBuf, String> {
    let start = std::path::absolute(start).map_err(|e| format!("{}: {e}", start.display()))?;
    for dir in start.ancestors() {
        let jj = dir.join(".jj");
        if jj.is_dir() {
            return jj_root(dir, &jj);
        }
        let git = dir.join(".git");
        if git.exists() {
            return git_root(dir, &git);
        }
    }
    Err(format!(
        "{} is not inside a git or jj repository",
        start.display()
    ))
}

/// The main workspace of the jj repository whose workspace is `dir`.
fn jj_root(dir: &Path, jj: &Path) -> Result<PathBuf, String> {
    let repo = jj.join("repo");
    if repo.is_dir() {
        return Ok(dir.to_path_buf());
    }
    let pointer = read(&repo)?;
    let repo = canonical(&jj.join(pointer.trim_end_matches(['\n', '\r'])))?;
    // The repository directory is `<main workspace>/.jj/repo`.
    match repo.parent().and_then(Path::parent) {
        Some(main) if repo.parent().and_then(Path::file_name) == Some(".jj".as_ref()) => {
            Ok(main.to_path_buf())
        }
        _ => Err(format!(
            "{} names {}, which is not a workspace's .jj/repo",
            jj.join("repo").display(),
            repo.display()
        )),
    }
}

/// The main worktree (or the bare git directory) of the git repository
/// whose worktree is `dir`.
fn git_root(dir: &Path, git: &Path) -> Result<PathBuf, String> {
    if git.is_dir() {
        return Ok(dir.to_path_buf());
    }
    let text = read(git)?;
    let Some(gitdir) = text.trim_end().strip_prefix("gitdir:") else {
        return Err(format!("{} does not say `gitdir: PATH`", git.display()));
    };
    let gitdir = canonical(&dir.join(gitdir.trim()))?;
    let commondir = gitdir.join("commondir");
    if !commondir.is_file() {
        // A submodule: its git directory is its own; the worktree is `dir`.
        return Ok(dir.to_path_buf());
    }
    let common = canonical(&gitdir.join(read(&commondir)?.trim()))?;
    match common.file_name() {
        Some(name) if name == ".git" => Ok(common.parent().unwrap_or(&common).to_path_buf()),
        _ => Ok(common),
    }
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn canonical(path: &Path) -> Result<PathBuf, String> {
    fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let status = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .output()
            .unwrap();
        assert!(status.status.success(), "git {args:?}: {status:?}");
    }

    #[test]
    fn git_worktrees_share_the_main_worktree() {
        let root = tempfile::tempdir().unwrap();
        let main = root.path().join("main");
        fs::create_dir_all(main.join("src/deep")).unwrap();
        git(&main, &["init", "-q"]);
        git(
            &main,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "first",
            ],
        );
        git(&main, &["worktree", "add", "-q", "../other"]);
        let main = canonical(&main).unwrap();
        assert_eq!(shared_root(&main).unwrap(), main);
        assert_eq!(shared_root(&main.join("src/deep")).unwrap(), main);
        let other = root.path().join("other");
        assert_eq!(shared_root(&other).unwrap(), main);
    }

    #[test]
    fn jj_workspaces_share_the_main_workspace() {
        let root = tempfile::tempdir().unwrap();
        let main = root.path().join("main");
        fs::create_dir_all(main.join(".jj/repo/store")).unwrap();
        let second = root.path().join("second");
        fs::create_dir_all(second.join(".jj")).unwrap();
        // What jj writes in a second workspace: the path from its .jj.
        fs::write(second.join(".jj/repo"), "../../main/.jj/repo").unwrap();
        let old = root.path().join("old");
        fs::create_dir_all(old.join(".jj")).unwrap();
        let absolute = canonical(&main.join(".jj/repo")).unwrap();
        fs::write(old.join(".jj/repo"), absolute.to_str().unwrap()).unwrap();
        let main = canonical(&main).unwrap();
        assert_eq!(shared_root(&main).unwrap(), main);
        assert_eq!(shared_root(&second).unwrap(), main);
        assert_eq!(shared_root(&old).unwrap(), main);
    }

    #[test]
    fn outside_a_repository_is_an_error() {
        let root = tempfile::tempdir().unwrap();
        let error = shared_root(root.path()).unwrap_err();
        assert!(
            error.ends_with("is not inside a git or jj repository"),
            "{error}"
        );
        let broken = root.path().join("broken");
        fs::create_dir_all(&broken).unwrap();
        fs::write(broken.join(".git"), "nonsense").unwrap();
        assert!(shared_root(&broken).unwrap_err().contains("gitdir: PATH"));
    }
}
