// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The git store and the sync on real git: clones of one bare remote, each
//! with a shared board on the `git` backend.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::GitLogStore;
use super::git::Git;
use super::place::Place;
use super::settings::SyncSettings;
use super::stored::Logs;
use super::sync::{Plan, Report, sync_board};
use crate::toolsets::planning::domain::{Board, Limits, NewTask, Status};
use crate::toolsets::planning::shared_board::{CallError, SharedBoard};

/// Runs git in `dir`, which must succeed.
pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A bare remote and `n` clones of it, in one temporary directory.
pub(crate) struct Clones {
    /// Holds the directories until the test ends.
    pub(crate) _root: tempfile::TempDir,
    pub(crate) remote: PathBuf,
    pub(crate) clones: Vec<PathBuf>,
}

pub(crate) fn clones(n: usize) -> Clones {
    let root = tempfile::tempdir().unwrap();
    let remote = root.path().join("remote.git");
    git(
        root.path(),
        &["init", "-q", "--bare", remote.to_str().unwrap()],
    );
    let clones = (0..n)
        .map(|i| {
            let dir = root.path().join(format!("clone{i}"));
            git(
                root.path(),
                &[
                    "clone",
                    "-q",
                    remote.to_str().unwrap(),
                    dir.to_str().unwrap(),
                ],
            );
            dir
        })
        .collect();
    Clones {
        _root: root,
        remote,
        clones,
    }
}

fn settings(on_change: bool) -> SyncSettings {
    SyncSettings {
        on_change,
        checkpoint_every: 10,
        ..SyncSettings::default()
    }
}

fn limits() -> Limits {
    Limits {
        max_tasks: 5,
        ..Limits::default()
    }
}

fn board(dir: &Path, on_change: bool) -> SharedBoard {
    let store = GitLogStore::open(dir, "default", settings(on_change), limits(), true).unwrap();
    SharedBoard::open(
        "default",
        Box::new(store),
        Board::new(limits(), true),
        Duration::from_secs(30),
    )
    .unwrap()
}

fn add(board: &SharedBoard, titles: &[&str]) -> Result<Vec<String>, CallError> {
    let tasks: Vec<NewTask> = titles.iter().map(|t| NewTask::new(*t, "")).collect();
    board.mutate(
        |b| b.add_tasks(&tasks),
        |_, added| added.added.iter().map(ToString::to_string).collect(),
    )
}

fn titles(board: &SharedBoard) -> Vec<String> {
    board
        .read(|b| b.tasks().map(|t| t.title.clone()).collect())
        .unwrap()
}

fn sync(dir: &Path) -> Report {
    let git = Git::open(dir, Duration::from_secs(60)).unwrap();
    let place = Place::new(git.common_dir());
    let logs = Logs::new(git, limits(), true);
    let plan = Plan {
        remote: "origin",
        retries: 10,
        checkpoint_every: 10,
        until: Instant::now() + Duration::from_secs(30),
    };
    sync_board(&logs, &place, "default", plan, None).unwrap()
}

#[test]
fn two_clones_share_a_board_through_a_bare_remote() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], false), board(&c.clones[1], false));
    add(&a, &["from a"]).unwrap();
    add(&b, &["from b"]).unwrap();
    let first = sync(&c.clones[0]);
    assert_eq!((first.fetched, first.pushed, first.push), (0, 1, true));
    let second = sync(&c.clones[1]);
    assert_eq!((second.fetched, second.pushed, second.push), (1, 1, true));
    let third = sync(&c.clones[0]);
    assert_eq!((third.fetched, third.push), (1, false));
    // A sync with nothing new fetches and pushes nothing.
    let again = sync(&c.clones[0]);
    assert_eq!(
        (again.fetched, again.pushed, again.push, again.attempts),
        (0, 0, false, 0)
    );
    assert_eq!(titles(&a), titles(&b));
    assert_eq!(titles(&a).len(), 2);
    // The log touched no branch, index or work tree.
    for dir in &c.clones {
        assert_eq!(git(dir, &["status", "--porcelain", "--ignored"]), "");
        assert_eq!(git(dir, &["branch", "--list"]), "");
    }
}

#[test]
fn with_sync_on_change_a_raced_change_is_decided_again_on_the_merged_board() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], true), board(&c.clones[1], true));
    add(&a, &["a1", "a2", "a3"]).unwrap();
    // b has not fetched a's tasks: its push is beaten, it merges and adds
    // again on the merged board, where only two fit.
    let refused = add(&b, &["b1", "b2", "b3"]).unwrap_err();
    assert!(
        refused.to_string().contains("the limit of 5 tasks"),
        "{refused}"
    );
    add(&b, &["b1", "b2"]).unwrap();
    assert_eq!(titles(&b), ["a1", "a2", "a3", "b1", "b2"]);
    sync(&c.clones[0]);
    assert_eq!(titles(&a), titles(&b));
}

#[test]
fn a_status_change_and_a_delete_meet_and_the_delete_wins() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], false), board(&c.clones[1], false));
    let ids = add(&a, &["t"]).unwrap();
    sync(&c.clones[0]);
    sync(&c.clones[1]);
    let id = ids[0].clone();
    b.mutate(|x| x.delete_tasks(&[&id]).map(|u| ((), u)), |_, ()| ())
        .unwrap();
    a.mutate(
        |x| x.update_statuses(&[(&id, "completed")]).map(|u| ((), u)),
        |_, ()| (),
    )
    .unwrap();
    sync(&c.clones[1]);
    sync(&c.clones[0]);
    sync(&c.clones[1]);
    assert!(titles(&a).is_empty() && titles(&b).is_empty());
    // a's status change came later: set aside, and a's next reply says so.
    let notices = a.notices(None);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].contains("had been deleted on another clone"),
        "{notices:?}"
    );
    assert!(a.notices(None).is_empty(), "told once");
    assert!(b.notices(None).is_empty(), "not b's");
    let _ = Status::Completed;
}

#[test]
fn the_log_compacts_through_the_remote_and_keeps_its_history() {
    let c = clones(2);
    let a = board(&c.clones[0], false);
    for n in 0..12 {
        let title = format!("t{}", n % 4);
        let _ = add(&a, &[&title]);
        let id = crate::toolsets::planning::domain::TaskId::from_content(&title, "").to_string();
        let status = ["completed", "pending"][n % 2];
        a.mutate(
            |x| x.update_statuses(&[(&id, status)]).map(|u| ((), u)),
            |_, ()| (),
        )
        .unwrap();
    }
    let report = sync(&c.clones[0]);
    assert!(report.compacted);
    let tree = git(
        &c.remote,
        &["ls-tree", "--name-only", "refs/planning/boards/default"],
    );
    assert_eq!(tree.lines().count(), 1, "one checkpoint: {tree}");
    assert!(tree.starts_with("checkpoint-"));
    // The operations stay in the history.
    let log = git(
        &c.remote,
        &["log", "--format=%s", "refs/planning/boards/default"],
    );
    assert!(
        log.lines().filter(|l| *l == "operation").count() >= 16,
        "{log}"
    );
    let b = board(&c.clones[1], false);
    sync(&c.clones[1]);
    assert_eq!(titles(&b), titles(&a));
}

#[test]
fn the_goal_travels_with_the_tasks() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], true), board(&c.clones[1], true));
    a.mutate(|b| b.set_goal("Ship 1.0", "").map(|u| ((), u)), |_, ()| ())
        .unwrap();
    add(&a, &["task"]).unwrap();
    sync(&c.clones[1]);
    let goal = b.read(|b| b.goal().map(|g| g.title.clone())).unwrap();
    assert_eq!(goal.as_deref(), Some("Ship 1.0"));
}

#[test]
fn a_worktree_shares_its_clones_board_and_replica() {
    let c = clones(1);
    let main = &c.clones[0];
    git(main, &["commit", "-q", "--allow-empty", "-m", "first"]);
    let worktree = main.with_file_name("worktree");
    git(main, &["worktree", "add", "-q", worktree.to_str().unwrap()]);
    let (a, b) = (board(main, false), board(&worktree, false));
    add(&a, &["from the main worktree"]).unwrap();
    add(&b, &["from the other worktree"]).unwrap();
    // One board, and one writer: the worktrees' operations number on.
    assert_eq!(titles(&a), titles(&b));
    assert_eq!(titles(&a).len(), 2);
    let report = sync(&worktree);
    assert_eq!((report.pushed, report.push), (2, true));
    assert_eq!(git(&worktree, &["status", "--porcelain"]), "");
}
