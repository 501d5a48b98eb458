// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What git is in the middle of (a rebase, a bisect, a merge, a
//! cherry-pick, a revert), read from the files git keeps in the repository's
//! git directory, and which branch a rebase or bisect started from. Reading
//! files costs no process; git writes them before it detaches HEAD.

use std::path::{Path, PathBuf};

use crate::toolsets::commit::place::Operation;

/// The state git records in a git directory.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct GitState {
    /// The operation in progress, if any.
    pub(crate) operation: Option<Operation>,
    /// The branch a rebase or bisect started from (`main`), if git recorded one.
    pub(crate) branch: Option<String>,
}

/// The git directory of the working tree at `top`: `top/.git`, or where a
/// `.git` file (a linked worktree, a submodule) points.
pub(crate) fn git_dir(top: &Path) -> Option<PathBuf> {
    let dot_git = top.join(".git");
    if dot_git.is_dir() {
        return Some(dot_git);
    }
    let text = std::fs::read_to_string(&dot_git).ok()?;
    let target = text.strip_prefix("gitdir:")?.trim();
    Some(top.join(target))
}

/// What HEAD is, as its file in a git directory says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Head {
    /// It names a ref (`refs/heads/main`), as `git symbolic-ref HEAD` prints.
    Symbolic(String),
    /// It holds a commit ID.
    Detached,
}

/// HEAD of `git_dir`, read from its file as git writes it; `None` when the
/// file says nothing sure (missing, or the placeholder of a reftable
/// repository, whose HEAD only git can read): then git is asked.
pub(crate) fn read_head(git_dir: &Path) -> Option<Head> {
    let text = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let text = text.strip_suffix('\n').unwrap_or(&text);
    if let Some(reference) = text.strip_prefix("ref: ") {
        let sure = reference.starts_with("refs/")
            && reference != "refs/heads/.invalid"
            && !reference.contains(char::is_whitespace);
        return sure.then(|| Head::Symbolic(reference.to_owned()));
    }
    let id = matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit());
    id.then_some(Head::Detached)
}

/// Whether `dir` or one of its parents looks like a bare repository (a
/// `HEAD` file beside `objects/` and `refs/`, with no working tree).
pub(crate) fn bare_repository(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join("HEAD").is_file() && d.join("objects").is_dir() && d.join("refs").is_dir())
        .map(Path::to_path_buf)
}

/// What git is in the middle of in `git_dir`.
pub(crate) fn read_state(git_dir: &Path) -> GitState {
    let branch_in = |file: &str| {
        let text = std::fs::read_to_string(git_dir.join(file)).ok()?;
        let name = text.trim();
        let name = name.strip_prefix("refs/heads/").unwrap_or(name);
        // BISECT_START holds a commit id when the bisect started detached.
        let is_commit_id = name.len() >= 40 && name.bytes().all(|b| b.is_ascii_hexdigit());
        (!name.is_empty() && !is_commit_id).then(|| name.to_owned())
    };
    let exists = |file: &str| git_dir.join(file).exists();
    if exists("rebase-merge") || (exists("rebase-apply") && !exists("rebase-apply/applying")) {
        let branch =
            branch_in("rebase-merge/head-name").or_else(|| branch_in("rebase-apply/head-name"));
        return GitState {
            operation: Some(Operation::Rebase),
            branch,
        };
    }
    if exists("BISECT_START") {
        return GitState {
            operation: Some(Operation::Bisect),
            branch: branch_in("BISECT_START"),
        };
    }
    let operation = [
        ("MERGE_HEAD", Operation::Merge),
        ("CHERRY_PICK_HEAD", Operation::CherryPick),
        ("REVERT_HEAD", Operation::Revert),
    ]
    .into_iter()
    .find(|(file, _)| exists(file))
    .map(|(_, operation)| operation);
    GitState {
        operation,
        branch: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_branch_of_a_rebase_or_bisect_and_the_operation_are_read() {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        std::fs::create_dir_all(git.join("rebase-merge")).unwrap();
        std::fs::write(
            git.join("rebase-merge/head-name"),
            "refs/heads/release/1.2\n",
        )
        .unwrap();
        assert_eq!(
            read_state(&git),
            GitState {
                operation: Some(Operation::Rebase),
                branch: Some("release/1.2".into())
            }
        );
        std::fs::remove_dir_all(git.join("rebase-merge")).unwrap();
        std::fs::write(git.join("BISECT_START"), "main\n").unwrap();
        assert_eq!(read_state(&git).branch.as_deref(), Some("main"));
        std::fs::write(
            git.join("BISECT_START"),
            "0123456789abcdef0123456789abcdef01234567\n",
        )
        .unwrap();
        assert_eq!(
            read_state(&git),
            GitState {
                operation: Some(Operation::Bisect),
                branch: None
            }
        );
        std::fs::remove_file(git.join("BISECT_START")).unwrap();
        std::fs::write(git.join("CHERRY_PICK_HEAD"), "x\n").unwrap();
        assert_eq!(read_state(&git).operation, Some(Operation::CherryPick));
        std::fs::remove_file(git.join("CHERRY_PICK_HEAD")).unwrap();
        assert_eq!(read_state(&git), GitState::default());
    }

    #[test]
    fn head_is_read_from_its_file_unless_only_git_can_say() {
        let tmp = tempfile::tempdir().unwrap();
        let head = |text: &str| {
            std::fs::write(tmp.path().join("HEAD"), text).unwrap();
            read_head(tmp.path())
        };
        assert_eq!(
            head("ref: refs/heads/feat/x\n"),
            Some(Head::Symbolic("refs/heads/feat/x".into()))
        );
        assert_eq!(
            head("0123456789abcdef0123456789abcdef01234567\n"),
            Some(Head::Detached)
        );
        // A reftable repository's HEAD, and what git would not write.
        assert_eq!(head("ref: refs/heads/.invalid\n"), None);
        assert_eq!(head("garbage\n"), None);
        std::fs::remove_file(tmp.path().join("HEAD")).unwrap();
        assert_eq!(read_head(tmp.path()), None);
    }

    #[test]
    fn a_git_file_points_at_the_worktrees_git_directory() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join(".git"),
            "gitdir: ../main/.git/worktrees/w\n",
        )
        .unwrap();
        assert_eq!(
            git_dir(tmp.path()),
            Some(tmp.path().join("../main/.git/worktrees/w"))
        );
        let bare = tmp.path().join("bare.git");
        std::fs::create_dir_all(bare.join("objects")).unwrap();
        std::fs::create_dir_all(bare.join("refs")).unwrap();
        std::fs::write(bare.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(bare_repository(&bare.join("refs")), Some(bare.clone()));
    }
}
