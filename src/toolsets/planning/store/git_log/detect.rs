// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Boards kept in git that a server or `summary` configured otherwise
//! would miss: a fresh clone without the (untracked) settings file that
//! said `storage.backend = 'git'` still has the boards' refs, here or on
//! its remote. Found, they are named with the one fix that keeps them.

use std::path::Path;
use std::time::Duration;

use super::git::Git;
use super::place::BOARDS;

/// Where the repository around `dir` keeps boards in git, if it does:
/// `here` (its own refs, or what a fetch left), or, when `remote` is
/// `Some`, on that remote (asked with `git ls-remote`, within `timeout`).
/// `None`: no board in git, or no repository (nothing to say).
pub(crate) fn boards_in_git(dir: &Path, remote: Option<&str>, timeout: Duration) -> Option<String> {
    let git = Git::open(dir, timeout).ok()?;
    let here = git.refs(BOARDS).ok()?;
    // What a fetch left: its files (or the refs of an earlier build).
    let place = super::place::Place::new(git.common_dir());
    let fetched = std::fs::read_dir(place.dir().join("fetched"))
        .map(|files| {
            files
                .filter_map(Result::ok)
                .any(|file| std::fs::metadata(file.path()).is_ok_and(|m| m.len() > 0))
        })
        .unwrap_or(false);
    let legacy = git.refs("refs/planning/remotes/").ok()?;
    if !here.is_empty() || fetched || !legacy.is_empty() {
        return Some("in this repository".into());
    }
    let remote = remote?;
    let remotes = git.remotes().ok()?;
    if !remotes.iter().any(|name| name == remote) {
        return None;
    }
    let found = git.remote_refs(remote, &format!("{BOARDS}*")).ok()?;
    (!found.is_empty()).then(|| format!("on its remote {remote}"))
}

/// What a person is told when boards kept in git (`found`, as
/// [`boards_in_git`] says where) are not read because `storage.backend`
/// is not `'git'`.
pub(crate) fn advice(found: &str) -> String {
    format!(
        "boards are kept in git here (refs/planning/boards/* {found}): set storage.backend = \
         'git' (or pass --storage git), or commit planning-mcp-server.toml so that every clone \
         has it"
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::{clones, git};
    use super::*;

    #[test]
    fn a_fresh_clone_finds_the_boards_on_its_remote() {
        let c = clones(2);
        let timeout = Duration::from_secs(60);
        assert_eq!(boards_in_git(&c.clones[0], Some("origin"), timeout), None);
        let tree = git(&c.clones[0], &["mktree"]);
        let commit = git(&c.clones[0], &["commit-tree", tree.trim(), "-m", "log"]);
        git(
            &c.clones[0],
            &["update-ref", "refs/planning/boards/default", commit.trim()],
        );
        assert_eq!(
            boards_in_git(&c.clones[0], None, timeout).as_deref(),
            Some("in this repository")
        );
        git(
            &c.clones[0],
            &["push", "-q", "origin", "refs/planning/boards/default"],
        );
        // The other clone has no board ref: only its remote does.
        assert_eq!(boards_in_git(&c.clones[1], None, timeout), None);
        let found = boards_in_git(&c.clones[1], Some("origin"), timeout);
        assert_eq!(found.as_deref(), Some("on its remote origin"));
        assert!(advice("on its remote origin").contains("set storage.backend = 'git'"));
        let outside = tempfile::tempdir().unwrap();
        assert_eq!(boards_in_git(outside.path(), Some("origin"), timeout), None);
    }
}
