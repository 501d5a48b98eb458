// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The git store and the sync on real git: clones of one bare remote, each
//! with a shared board on the `git` backend.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::GitLogStore;
use super::fetched;
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
    // The store keeps what the replay set aside for the digest of every
    // clone (the board itself holds none of it).
    for clone in [&a, &b] {
        let aside = clone.set_aside();
        assert_eq!(aside.len(), 1, "{aside:?}");
        assert!(
            aside[0]
                .to_string()
                .contains("had been deleted on another clone"),
            "{aside:?}"
        );
    }
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
    // The operations stay in the history: the checkpoint's parent is the
    // log it compacted.
    let compacted = git(
        &c.remote,
        &["ls-tree", "--name-only", "refs/planning/boards/default^"],
    );
    assert!(
        compacted.lines().filter(|l| l.starts_with("op-")).count() >= 16,
        "{compacted}"
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

/// A remote that accepts connections and never answers: a listener nobody
/// accepts from (the kernel completes the connection from its backlog).
fn silent_remote() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("git://{}/board.git", listener.local_addr().unwrap());
    (listener, url)
}

fn board_with(dir: &Path, settings: SyncSettings) -> SharedBoard {
    let store = GitLogStore::open(dir, "default", settings, limits(), true).unwrap();
    SharedBoard::open(
        "default",
        Box::new(store),
        Board::new(limits(), true),
        Duration::from_secs(30),
    )
    .unwrap()
}

fn ops_in(dir: &Path, name: &str) -> usize {
    git(dir, &["ls-tree", "--name-only", name])
        .lines()
        .filter(|l| l.starts_with("op-"))
        .count()
}

#[test]
fn a_push_that_runs_past_the_timeout_keeps_the_change_and_says_so() {
    let c = clones(2);
    let dir = &c.clones[0];
    let (_listener, url) = silent_remote();
    git(dir, &["remote", "set-url", "--push", "origin", &url]);
    let a = board_with(
        dir,
        SyncSettings {
            on_change: true,
            git_timeout: 1,
            ..settings(true)
        },
    );
    add(&a, &["first"]).unwrap();
    // The reply is true: the change is on the board and in the log, and
    // the next reply says it was kept here.
    assert_eq!(titles(&a), ["first"]);
    assert_eq!(ops_in(dir, "refs/planning/boards/default"), 1);
    let notices = a.notices(None);
    assert!(
        notices.iter().any(|n| n.contains("kept on this clone")),
        "{notices:?}"
    );
    // Later changes keep working.
    add(&a, &["second"]).unwrap();
    assert_eq!(titles(&a), ["first", "second"]);
    // Once the remote answers again, a sync pushes both.
    git(
        dir,
        &[
            "remote",
            "set-url",
            "--push",
            "origin",
            c.remote.to_str().unwrap(),
        ],
    );
    let report = sync(dir);
    assert_eq!((report.pushed, report.push), (2, true));
    let b = board(&c.clones[1], false);
    sync(&c.clones[1]);
    assert_eq!(titles(&b), ["first", "second"]);
}

#[test]
fn reads_do_not_wait_behind_a_push_that_hangs() {
    let c = clones(1);
    let dir = c.clones[0].clone();
    let (listener, url) = silent_remote();
    let a = board_with(
        &dir,
        SyncSettings {
            on_change: true,
            git_timeout: 5,
            ..settings(true)
        },
    );
    add(&a, &["before"]).unwrap();
    git(&dir, &["remote", "set-url", "--push", "origin", &url]);
    let writer = {
        let a = a.clone();
        std::thread::spawn(move || add(&a, &["during"]).unwrap())
    };
    // The push of "during" has reached the remote, which will never answer.
    let (_connection, _) = listener.accept().unwrap();
    assert_eq!(titles(&a), ["before"]);
    assert!(a.notices(None).len() <= 1);
    assert!(
        !writer.is_finished(),
        "the read returned only once the push had given up"
    );
    writer.join().unwrap();
    assert_eq!(titles(&a), ["before", "during"]);
}

/// `agent` claims task `title` for 15 minutes, as toolset team does.
fn claim(board: &SharedBoard, agent: &str, title: &str) -> Result<(), String> {
    use crate::toolsets::team::domain::{TeamError, View, claims, claims::Target};
    let task = crate::toolsets::planning::domain::TaskId::from_content(title, "").to_string();
    let done = board.mutate_with(
        |b| {
            let now = b.clock().now();
            let view = View::new(b, now);
            let (mut edits, _) = claims::expiries(view);
            let (more, _) = claims::claim(
                view,
                agent,
                Target::Task(&task),
                Duration::from_secs(15 * 60),
                false,
            )?;
            edits.extend(more);
            let undo = b.edit(now, edits).map_err(TeamError::from)?;
            Ok::<_, TeamError>(((), undo))
        },
        |_, ()| (),
    );
    match done {
        Ok(Ok(())) => Ok(()),
        Ok(Err(refused)) => Err(refused.to_string()),
        Err(error) => Err(error.to_string()),
    }
}

fn holder(board: &SharedBoard, title: &str) -> Option<String> {
    let id = crate::toolsets::planning::domain::TaskId::from_content(title, "");
    board
        .read(|b| b.coordination().claim(id).map(|c| c.holder.clone()))
        .unwrap()
}

#[test]
fn a_push_after_a_fetch_it_did_not_merge_keeps_the_fetched_claim() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], true), board(&c.clones[1], true));
    add(&a, &["shared", "other"]).unwrap();
    sync(&c.clones[1]);
    claim(&b, "bea", "shared").unwrap();
    // A sync (or the interval's task) of clone a fetched b's claim and
    // has not merged it yet when a's next change pushes.
    let g = Git::open(&c.clones[0], Duration::from_secs(60)).unwrap();
    fetched::fetch(&g, &Place::new(g.common_dir()), "origin").unwrap();
    add(&a, &["third"]).unwrap();
    // b's acknowledged claim stays on the remote and reaches a.
    let log = git(
        &c.remote,
        &["ls-tree", "--name-only", "refs/planning/boards/default"],
    );
    assert_eq!(log.lines().count(), 3, "{log}");
    assert_eq!(holder(&a, "shared").as_deref(), Some("bea"));
    let refused = claim(&a, "abe", "shared").unwrap_err();
    assert!(refused.contains("bea"), "{refused}");
}

/// Runs git in `dir` with `input` on its stdin; returns its stdout.
fn git_in(dir: &Path, args: &[&str], input: &[u8]) -> String {
    use std::io::Write as _;
    let mut child = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(output.status.success(), "git {args:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// What a hostile clone pushes: the remote's board ref moved to a commit
/// of the remote's log with `extra` entries (name, blob) added.
fn hostile_push(remote: &Path, extra: &[(String, String)]) {
    let lines: Vec<String> = extra
        .iter()
        .map(|(entry, oid)| format!("100644 blob {oid}\t{entry}\n"))
        .collect();
    hostile_push_lines(remote, &lines.concat());
}

/// [`hostile_push`] of `lines` in `git mktree`'s format (any mode).
fn hostile_push_lines(remote: &Path, lines: &str) {
    let name = "refs/planning/boards/default";
    let head = git(remote, &["rev-parse", name]).trim().to_owned();
    let mut listing = git(remote, &["ls-tree", name]);
    listing.push_str(lines);
    let tree = git_in(remote, &["mktree"], listing.as_bytes());
    let commit = git(remote, &["commit-tree", &tree, "-p", &head, "-m", "x"])
        .trim()
        .to_owned();
    git(remote, &["update-ref", name, &commit]);
}

fn sync_ok(dir: &Path) -> Result<Report, String> {
    let git = Git::open(dir, Duration::from_secs(60)).unwrap();
    let place = Place::new(git.common_dir());
    let logs = Logs::new(git, limits(), true);
    let plan = Plan {
        remote: "origin",
        retries: 10,
        checkpoint_every: 1000,
        until: Instant::now() + Duration::from_secs(30),
    };
    sync_board(&logs, &place, "default", plan, None).map_err(|e| e.to_string())
}

#[test]
fn a_blob_as_the_remotes_board_ref_is_set_aside_and_replaced() {
    let c = clones(2);
    let blob = git_in(&c.remote, &["hash-object", "-w", "--stdin"], b"not a log\n");
    git(
        &c.remote,
        &["update-ref", "refs/planning/boards/default", &blob],
    );
    let a = board(&c.clones[0], true);
    // Writes go on, and the push replaces the blob with a's log.
    add(&a, &["from a"]).unwrap();
    let kind = git(
        &c.remote,
        &["cat-file", "-t", "refs/planning/boards/default"],
    );
    assert_eq!(kind.trim(), "commit");
    // Another clone that fetched the blob syncs, and says it set it aside.
    let b = board(&c.clones[1], false);
    git(
        &c.remote,
        &["update-ref", "refs/planning/boards/default", &blob],
    );
    let g = Git::open(&c.clones[1], Duration::from_secs(60)).unwrap();
    fetched::fetch(&g, &Place::new(g.common_dir()), "origin").unwrap();
    add(&b, &["from b"]).unwrap();
    let report = sync_ok(&c.clones[1]).unwrap();
    assert!(report.push, "{report:?}");
    assert!(
        report.corrupt.iter().any(|c| c.contains("holds no log")),
        "{report:?}"
    );
    assert_eq!(titles(&b), ["from b"]);
}

#[test]
fn an_entry_over_16_mib_and_250000_entries_are_set_aside_not_fatal() {
    let c = clones(2);
    let a = board(&c.clones[0], false);
    add(&a, &["honest"]).unwrap();
    sync(&c.clones[0]);
    // One entry of 17 MiB, named as an operation.
    let big = vec![b'x'; 17 * 1024 * 1024];
    let oid = git_in(&c.remote, &["hash-object", "-w", "--stdin"], &big);
    hostile_push(&c.remote, &[("op-00000000000000aa-1".into(), oid)]);
    let b = board(&c.clones[1], false);
    let report = sync_ok(&c.clones[1]).unwrap();
    assert!(
        report
            .corrupt
            .iter()
            .any(|c| c.contains("more than an entry's")),
        "{report:?}"
    );
    assert_eq!(titles(&b), ["honest"]);
    add(&b, &["after the big one"]).unwrap();
    sync_ok(&c.clones[1]).unwrap();
    // 250,000 entries.
    let small = git_in(&c.remote, &["hash-object", "-w", "--stdin"], b"{}");
    let many: Vec<(String, String)> = (1..=250_000)
        .map(|n| (format!("op-00000000000000bb-{n}"), small.clone()))
        .collect();
    hostile_push(&c.remote, &many);
    let report = sync_ok(&c.clones[0]).unwrap();
    assert!(
        report.corrupt.iter().any(|c| c.contains("set aside whole")),
        "{report:?}"
    );
    assert!(report.push, "the remote gets a's log back: {report:?}");
    assert_eq!(titles(&a), ["honest"]);
    add(&a, &["still writable"]).unwrap();
    sync_ok(&c.clones[0]).unwrap();
    // b's operation, lost from the remote with the set-aside log, comes
    // back with b's next sync.
    sync_ok(&c.clones[1]).unwrap();
    sync_ok(&c.clones[0]).unwrap();
    let all = ["honest", "after the big one", "still writable"];
    assert_eq!(titles(&b), all);
    assert_eq!(titles(&a), all);
}

#[test]
fn a_repository_copied_to_the_same_path_elsewhere_gets_a_replica_of_its_own_and_loses_nothing() {
    let c = clones(1);
    let original = c.clones[0].clone();
    let a = board(&original, false);
    add(&a, &["before the copy"]).unwrap();
    sync(&original);
    // The copy: the same git directory, as at the same path on another
    // machine with the same machine ID (a VM or container image).
    let copy = original.with_file_name("copy");
    let status = Command::new("cp")
        .args(["-a", original.to_str().unwrap(), copy.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let common = |dir: &Path| {
        Git::open(dir, Duration::from_secs(60))
            .unwrap()
            .common_dir()
            .to_path_buf()
    };
    let file = common(&copy).join("planning-mcp-server/replica");
    let text = std::fs::read_to_string(&file).unwrap();
    let from = common(&original).display().to_string();
    let to = common(&copy).display().to_string();
    std::fs::write(&file, text.replacen(&from, &to, 1)).unwrap();
    let shared = Place::new(&common(&original)).replica().unwrap();
    assert_eq!(Place::new(&common(&copy)).replica().unwrap(), shared);
    // Both write their next operation under the one name.
    add(&a, &["from the original"]).unwrap();
    sync(&original);
    let b = board(&copy, false);
    add(&b, &["from the copy"]).unwrap();
    let report = sync(&copy);
    assert_eq!((report.renewed, report.reissued), (Some(shared), 1));
    assert_ne!(Place::new(&common(&copy)).replica().unwrap(), shared);
    sync(&original);
    let all = ["before the copy", "from the original", "from the copy"];
    assert_eq!(titles(&a), all);
    assert_eq!(titles(&b), all);
    // From then on the copy writes under its own name.
    add(&b, &["later"]).unwrap();
    let report = sync(&copy);
    assert_eq!(report.renewed, None);
    sync(&original);
    assert_eq!(titles(&a).len(), 4);
}

/// What a hostile (or broken) clone put in the remote's log: a blob of
/// these bytes, or a directory.
enum Foreign {
    Blob(Vec<u8>),
    Directory,
    Submodule,
}

/// Entry `name` holding `foreign`, pushed to the remote's log: an existing
/// clone (which had the board) and a fresh one (which never read it) read
/// every other operation, `sync` succeeds and names the entry once, with
/// `problem`; writes and syncs go on past it.
fn read_past(name: &str, foreign: Foreign, problem: &str) {
    let c = clones(3);
    let a = board(&c.clones[0], false);
    add(&a, &["first", "second"]).unwrap();
    sync(&c.clones[0]);
    let existing = board(&c.clones[1], false);
    sync(&c.clones[1]);
    assert_eq!(titles(&existing), ["first", "second"]);
    let line = match foreign {
        Foreign::Blob(bytes) => {
            let oid = git_in(&c.remote, &["hash-object", "-w", "--stdin"], &bytes);
            format!("100644 blob {oid}\t{name}\n")
        }
        Foreign::Directory => {
            let blob = git_in(&c.remote, &["hash-object", "-w", "--stdin"], b"inside\n");
            let listing = format!("100644 blob {blob}\tinside.txt\n");
            let tree = git_in(&c.remote, &["mktree"], listing.as_bytes());
            format!("040000 tree {tree}\t{name}\n")
        }
        // A commit no repository here holds, as a submodule names one.
        Foreign::Submodule => format!("160000 commit {}\t{name}\n", "5".repeat(40)),
    };
    hostile_push_lines(&c.remote, &line);
    let fresh = board(&c.clones[2], false);
    for (dir, board) in [(&c.clones[1], &existing), (&c.clones[2], &fresh)] {
        let report = sync_ok(dir).unwrap_or_else(|e| panic!("{name}: {e}"));
        let named: Vec<&String> = report
            .corrupt
            .iter()
            .filter(|line| line.starts_with(&format!("{name}: ")))
            .collect();
        assert_eq!(named.len(), 1, "{name} named once: {report:?}");
        assert!(named[0].contains(problem), "{named:?}");
        assert!(
            report.set_aside.iter().all(|aside| !aside.is_entry()),
            "listed once, by name: {report:?}"
        );
        assert_eq!(titles(board), ["first", "second"], "{name}");
        // Nobody is told of it as of their own change.
        assert!(board.notices(None).is_empty(), "{:?}", board.notices(None));
    }
    // Writes and syncs go on; the entry stays in the log, unread.
    add(&fresh, &["third"]).unwrap();
    sync_ok(&c.clones[2]).unwrap();
    sync_ok(&c.clones[1]).unwrap();
    assert_eq!(titles(&existing), ["first", "second", "third"]);
    let tree = git(
        &c.remote,
        &["ls-tree", "--name-only", "refs/planning/boards/default"],
    );
    assert!(tree.lines().any(|l| l == name), "{tree}");
}

#[test]
fn a_binary_blob_in_the_log_is_read_past() {
    let bytes = b"\x00\xff\xfe\x89PNG\r\n\x1a\n binary".to_vec();
    read_past(
        "op-00000000000000aa-1",
        Foreign::Blob(bytes),
        "not an operation: binary, not text (a NUL byte at byte 0)",
    );
    // Without a NUL, bytes that are not UTF-8 (the count of bytes git
    // gives is not the count of a text's).
    let bytes = vec![0xff; 300];
    read_past(
        "logo.png",
        Foreign::Blob(bytes),
        "not the name of an operation",
    );
    read_past(
        "op-00000000000000aa-1",
        Foreign::Blob(b"{\"format\":\"\xff\xfe\"}".to_vec()),
        "binary, not text (not UTF-8 at byte 11)",
    );
}

#[test]
fn a_foreign_text_file_in_the_log_is_read_past_by_its_name() {
    read_past(
        "README.md",
        Foreign::Blob(b"# Notes\nnot an operation\n".to_vec()),
        "not the name of an operation",
    );
}

#[test]
fn a_truncated_operation_in_the_log_is_read_past() {
    let op = crate::toolsets::planning::domain::replay::Op {
        id: crate::toolsets::planning::domain::replay::OpId {
            stamp: 1,
            replica: crate::toolsets::planning::domain::replay::Replica(0xab),
            counter: 1,
        },
        at: std::time::UNIX_EPOCH + Duration::from_secs(1),
        claim: None,
        action: crate::toolsets::planning::domain::Action::AddTasks(vec![NewTask::new("lost", "")]),
    };
    let json = super::codec::op_to_json(&op);
    read_past(
        "op-00000000000000ab-1",
        Foreign::Blob(json[..json.len() / 2].to_vec()),
        "not an operation: cut short",
    );
}

#[test]
fn valid_json_of_the_wrong_shape_in_the_log_is_read_past() {
    read_past(
        "op-00000000000000ac-1",
        Foreign::Blob(br#"{"format":"planning-mcp-server operation","version":1}"#.to_vec()),
        "not an operation: JSON of another shape (missing field",
    );
}

#[test]
fn a_directory_where_an_operation_belongs_is_read_past() {
    read_past(
        "op-00000000000000ad-1",
        Foreign::Directory,
        "a directory (a tree) where an operation belongs",
    );
}

#[test]
fn a_submodule_where_an_operation_belongs_is_read_past() {
    read_past(
        "op-00000000000000af-1",
        Foreign::Submodule,
        "a commit where an operation belongs",
    );
}

#[test]
fn an_oversized_entry_in_the_log_is_read_past_unread() {
    read_past(
        "op-00000000000000ae-1",
        Foreign::Blob(vec![b' '; 2 * 1024 * 1024]),
        "it holds 2097152 bytes, more than an entry's 1048576",
    );
}

/// `agent` releases task `title` as completed with evidence, as toolset
/// team does.
fn release_with_evidence(board: &SharedBoard, agent: &str, title: &str, note: &str) {
    use crate::toolsets::planning::coordination::Evidence;
    use crate::toolsets::team::domain::{EvidenceRule, TeamError, View, claims};
    let task = crate::toolsets::planning::domain::TaskId::from_content(title, "").to_string();
    let done = board.mutate_with(
        |b| {
            let now = b.clock().now();
            let view = View::new(b, now);
            let evidence = Evidence {
                command: Some("cargo test".into()),
                exit_code: Some(0),
                commit: None,
                url: None,
                note: Some(note.into()),
                by: agent.into(),
                at: now,
                review: None,
            };
            let (edits, _) = claims::release(
                view,
                agent,
                &task,
                "completed",
                Some(evidence),
                EvidenceRule::Optional,
                crate::toolsets::team::domain::ReviewRule::Off,
            )?;
            let undo = b.edit(now, edits).map_err(TeamError::from)?;
            Ok::<_, TeamError>(((), undo))
        },
        |_, ()| (),
    );
    done.unwrap().unwrap();
}

#[test]
fn a_set_aside_completion_is_told_in_words_and_its_evidence_stays_in_the_history() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], false), board(&c.clones[1], false));
    add(&a, &["Write the parser", "Other"]).unwrap();
    sync(&c.clones[0]);
    sync(&c.clones[1]);
    claim(&a, "alice-agent", "Write the parser").unwrap();
    // Offline, bob deletes the task; then alice completes it, with
    // evidence: her release comes later in the log's order.
    let id =
        crate::toolsets::planning::domain::TaskId::from_content("Write the parser", "").to_string();
    b.mutate(|x| x.delete_tasks(&[&id]).map(|u| ((), u)), |_, ()| ())
        .unwrap();
    release_with_evidence(
        &a,
        "alice-agent",
        "Write the parser",
        "all 12 parser tests pass",
    );
    sync(&c.clones[1]);
    let report = sync(&c.clones[0]);
    assert_eq!(titles(&a), ["Other"]);
    // The agent is told at its next call, once; another agent is not.
    assert!(a.notices(Some("bob-agent")).is_empty());
    let notices = a.notices(Some("alice-agent"));
    assert_eq!(notices.len(), 1, "{notices:?}");
    let replica = report.set_aside[0].op.replica.to_string();
    insta::assert_snapshot!(
        "set_aside_completion_notice",
        notices[0].replace(&replica, "<replica>")
    );
    assert!(a.notices(Some("alice-agent")).is_empty(), "told once");
    // What sync prints of it names the same.
    assert_eq!(report.set_aside.len(), 1, "{report:?}");
    insta::assert_snapshot!(
        "set_aside_completion_sync_line",
        report.set_aside[0]
            .to_string()
            .replace(&replica, "<replica>")
    );
    // Its evidence is in the board's log, in the operation's blob.
    let counter = report.set_aside[0].op.counter;
    let entry = format!("refs/planning/boards/default:op-{replica}-{counter}");
    let blob = git(&c.remote, &["show", &entry]);
    assert!(blob.contains("all 12 parser tests pass"), "{blob}");
    // And it stays in git's history once the log is compacted.
    let other = crate::toolsets::planning::domain::TaskId::from_content("Other", "").to_string();
    for n in 0..10 {
        let status = ["completed", "pending"][n % 2];
        a.mutate(
            |x| x.update_statuses(&[(&other, status)]).map(|u| ((), u)),
            |_, ()| (),
        )
        .unwrap();
    }
    assert!(sync(&c.clones[0]).compacted);
    let tree = git(
        &c.remote,
        &["ls-tree", "--name-only", "refs/planning/boards/default"],
    );
    assert!(!tree.contains(&format!("op-{replica}-{counter}")), "{tree}");
    git(&c.remote, &["gc", "-q", "--prune=now"]);
    let history = git(&c.remote, &["log", "-p", "refs/planning/boards/default"]);
    assert!(history.contains("all 12 parser tests pass"));
}

#[test]
fn a_change_too_large_to_read_back_is_refused_and_changes_nothing() {
    use crate::toolsets::planning::coordination::plan::Attach;
    use crate::toolsets::planning::domain::TaskId;
    let clones = clones(1);
    let dir = &clones.clones[0];
    let board = board(dir, false);
    add(&board, &["small"]).unwrap();
    let huge: Vec<String> = (0..600)
        .map(|n| format!("{n}/{}", "x".repeat(2000)))
        .collect();
    let task = TaskId::from_content("big", "");
    let result = board.mutate(
        |b| {
            let attach = |_: &Board, _: &_| Ok(vec![Attach::Touches(task, huge.clone())]);
            b.add_tasks_with(&[NewTask::new("big", "")], attach)
                .map(|(added, _, undo)| (added, undo))
        },
        |_, _| (),
    );
    let error = result.unwrap_err().to_string();
    assert!(error.starts_with("Nothing changed"), "{error}");
    assert!(
        error.contains("a log reads; make it in smaller calls"),
        "{error}"
    );
    assert_eq!(titles(&board), ["small"]);
    drop(board);
    assert_eq!(titles(&self::board(dir, false)), ["small"], "as stored");
}

/// How many lines `git log --all --oneline` prints in `dir`.
fn log_all(dir: &Path) -> usize {
    git(dir, &["log", "--all", "--oneline"]).lines().count()
}

/// 99 status changes of task `title` (on a board that has it).
fn toggle(board: &SharedBoard, title: &str, times: usize) {
    let id = crate::toolsets::planning::domain::TaskId::from_content(title, "").to_string();
    for n in 0..times {
        let status = ["completed", "pending"][n % 2];
        board
            .mutate(
                |x| x.update_statuses(&[(&id, status)]).map(|u| ((), u)),
                |_, ()| (),
            )
            .unwrap();
    }
}

#[test]
fn a_hundred_changes_leave_a_handful_of_commits_in_git_log_all() {
    let c = clones(2);
    let a = board(&c.clones[0], true);
    add(&a, &["Write the parser"]).unwrap();
    toggle(&a, "Write the parser", 99);
    // Each change pushed: the clone and the remote show the tip alone.
    let (here, remote) = (log_all(&c.clones[0]), log_all(&c.remote));
    assert_eq!((here, remote), (1, 1));
    // A checkpoint adds itself and the log it compacted.
    assert!(sync(&c.clones[0]).compacted);
    assert_eq!(log_all(&c.clones[0]), 2);
    assert_eq!(log_all(&c.remote), 2);
    // The other clone converges, writes offline, and both converge again
    // with as few commits.
    let b = board(&c.clones[1], false);
    sync(&c.clones[1]);
    assert_eq!(titles(&b), titles(&a));
    add(&b, &["Write the tests"]).unwrap();
    add(&a, &["Ship it"]).unwrap();
    sync(&c.clones[1]);
    sync(&c.clones[0]);
    assert_eq!(
        titles(&a),
        ["Write the parser", "Write the tests", "Ship it"]
    );
    assert_eq!(titles(&b), titles(&a));
    for dir in [&c.clones[0], &c.clones[1], &c.remote] {
        assert!(
            log_all(dir) <= 3,
            "{}",
            git(dir, &["log", "--all", "--oneline"])
        );
    }
}

#[test]
fn a_mirror_push_sends_nothing_of_the_boards_but_their_refs() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], true), board(&c.clones[1], true));
    add(&a, &["from a"]).unwrap();
    sync(&c.clones[1]);
    add(&b, &["from b"]).unwrap();
    sync(&c.clones[0]);
    assert_eq!(titles(&a), titles(&b));
    let mirror = c._root.path().join("mirror.git");
    git(
        c._root.path(),
        &["init", "-q", "--bare", mirror.to_str().unwrap()],
    );
    for dir in &c.clones {
        git(dir, &["push", "-q", "--mirror", mirror.to_str().unwrap()]);
        let refs = git(dir, &["ls-remote", mirror.to_str().unwrap()]);
        let ours: Vec<&str> = refs
            .lines()
            .filter_map(|line| line.split_once('\t').map(|(_, name)| name))
            .filter(|name| name.starts_with("refs/planning/"))
            .collect();
        assert_eq!(ours, ["refs/planning/boards/default"], "{refs}");
    }
}

/// The commits of an earlier build's log over `trees` (oldest first): a
/// chain, each the parent of the next, as that build wrote them; returns
/// the newest.
fn chain(dir: &Path, trees: &[String]) -> String {
    let mut parent: Option<String> = None;
    for tree in trees {
        let mut args = vec!["commit-tree", tree.as_str(), "-m", "operation"];
        if let Some(parent) = &parent {
            args.extend(["-p", parent.as_str()]);
        }
        parent = Some(git(dir, &args).trim().to_owned());
    }
    parent.unwrap()
}

#[test]
fn a_log_an_earlier_build_wrote_loads_and_is_written_on_in_this_layout() {
    let c = clones(2);
    let dir = &c.clones[0];
    let name = "refs/planning/boards/default";
    let tree = || {
        git(dir, &["rev-parse", &format!("{name}^{{tree}}")])
            .trim()
            .to_owned()
    };
    // The trees an earlier build wrote are those of this one: the same
    // operations' blobs. Its commits made a chain, a checkpoint's among
    // them, and its fetch left a ref.
    let mut trees = Vec::new();
    {
        let a = board(dir, false);
        add(&a, &["Write the parser"]).unwrap();
        trees.push(tree());
        for _ in 0..11 {
            toggle(&a, "Write the parser", 1);
            trees.push(tree());
        }
        assert!(sync(dir).compacted);
        trees.push(tree());
        add(&a, &["Write the tests"]).unwrap();
        trees.push(tree());
    }
    let old = chain(dir, &trees);
    git(dir, &["update-ref", name, &old]);
    git(
        dir,
        &["push", "-q", "-f", "origin", &format!("{old}:{name}")],
    );
    git(
        dir,
        &[
            "fetch",
            "-q",
            "origin",
            "+refs/planning/boards/*:refs/planning/remotes/origin/*",
        ],
    );
    std::fs::remove_dir_all(dir.join(".git/planning-mcp-server/fetched")).unwrap();
    let checkpoint = git(dir, &["rev-parse", &format!("{old}^")])
        .trim()
        .to_owned();
    // It loads as it is.
    let a = board(dir, false);
    assert_eq!(titles(&a), ["Write the parser", "Write the tests"]);
    // A change on it: a commit whose parent is the checkpoint's commit.
    add(&a, &["Ship it"]).unwrap();
    let parents = git(dir, &["log", "-1", "--format=%P", name]);
    assert_eq!(parents.trim(), checkpoint);
    // The sync reads the earlier build's fetch (the remote was not
    // rewritten) and removes its ref; the other clone converges.
    let report = sync(dir);
    assert!(!report.rewritten, "{report:?}");
    assert_eq!(git(dir, &["for-each-ref", "refs/planning/remotes/"]), "");
    let b = board(&c.clones[1], false);
    sync(&c.clones[1]);
    assert_eq!(
        titles(&b),
        ["Write the parser", "Write the tests", "Ship it"]
    );
    // What the chain held after its checkpoint is no longer in git's
    // history; the checkpoint and what it compacted are.
    let history = git(dir, &["rev-list", name]);
    assert!(!history.contains(&old), "{history}");
    assert!(history.contains(&checkpoint), "{history}");
}

#[test]
fn a_chain_an_earlier_build_wrote_without_a_checkpoint_leaves_git_log() {
    let c = clones(1);
    let dir = &c.clones[0];
    let name = "refs/planning/boards/default";
    let mut trees = Vec::new();
    {
        let a = board(dir, false);
        for title in ["a", "b", "c"] {
            add(&a, &[title]).unwrap();
            trees.push(
                git(dir, &["rev-parse", &format!("{name}^{{tree}}")])
                    .trim()
                    .to_owned(),
            );
        }
    }
    let old = chain(dir, &trees);
    git(dir, &["update-ref", name, &old]);
    let a = board(dir, false);
    assert_eq!(titles(&a), ["a", "b", "c"]);
    add(&a, &["d"]).unwrap();
    assert_eq!(git(dir, &["log", "-1", "--format=%P", name]).trim(), "");
    assert_eq!(log_all(dir), 1);
    let reopened = board(dir, false);
    assert_eq!(titles(&reopened), ["a", "b", "c", "d"]);
}

#[test]
fn a_fetched_log_that_git_gc_pruned_reads_as_not_fetched_before() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], true), board(&c.clones[1], false));
    add(&a, &["from a"]).unwrap();
    add(&b, &["from b"]).unwrap();
    // Clone b fetched (and was stopped before it merged): the file names
    // a commit that no ref of b keeps, and gc prunes it.
    let g = Git::open(&c.clones[1], Duration::from_secs(60)).unwrap();
    let place = Place::new(g.common_dir());
    let fetched = fetched::fetch(&g, &place, "origin").unwrap();
    let fetched = fetched.get("default").unwrap();
    git(&c.clones[1], &["gc", "-q", "--prune=now"]);
    assert!(!g.has_object(&fetched).unwrap(), "pruned");
    // A change pushed on it: its lease names nothing, the remote refuses
    // it, and the change is made again on the merged board.
    let pushing = board(&c.clones[1], true);
    add(&pushing, &["after gc"]).unwrap();
    assert_eq!(titles(&pushing), ["from a", "from b", "after gc"]);
    // A sync says nothing of a rewrite, and the clones converge.
    let report = sync(&c.clones[1]);
    assert!(!report.rewritten, "{report:?}");
    sync(&c.clones[0]);
    assert_eq!(titles(&a), titles(&pushing));
}

#[test]
fn a_tree_with_two_checkpoints_reads_the_newest_and_reads_past_the_other() {
    let c = clones(3);
    let a = board(&c.clones[0], false);
    add(&a, &["Write the parser"]).unwrap();
    toggle(&a, "Write the parser", 11);
    assert!(sync(&c.clones[0]).compacted);
    let existing = board(&c.clones[1], false);
    sync(&c.clones[1]);
    // A second checkpoint beside the first, older by its name.
    let listing = git(&c.remote, &["ls-tree", "refs/planning/boards/default"]);
    let (head, name) = listing
        .lines()
        .find_map(|line| {
            line.split_once('\t')
                .filter(|(_, n)| n.starts_with("checkpoint-"))
        })
        .unwrap();
    let oid = head.split(' ').nth(2).unwrap().to_owned();
    let replica = name.rsplit('-').next().unwrap();
    let older = format!("checkpoint-0000000000000001-{replica}");
    hostile_push(&c.remote, &[(older.clone(), oid)]);
    let fresh = board(&c.clones[2], false);
    for (dir, board) in [(&c.clones[1], &existing), (&c.clones[2], &fresh)] {
        let report = sync_ok(dir).unwrap();
        let line = format!("{older}: a second checkpoint: the log reads the newest, {name}");
        assert!(report.corrupt.contains(&line), "{report:?}");
        assert_eq!(titles(board), ["Write the parser"]);
        let status = board.read(|b| b.tasks().map(|t| t.status).collect::<Vec<_>>());
        assert_eq!(status.unwrap(), [Status::Completed]);
    }
    add(&fresh, &["Write the tests"]).unwrap();
    sync_ok(&c.clones[2]).unwrap();
    sync_ok(&c.clones[0]).unwrap();
    assert_eq!(titles(&a), ["Write the parser", "Write the tests"]);
}

/// This clone's replica.
fn replica_of(dir: &Path) -> crate::toolsets::planning::domain::replay::Replica {
    let git = Git::open(dir, Duration::from_secs(60)).unwrap();
    Place::new(git.common_dir()).replica().unwrap()
}

/// The object of entry `entry` in the remote's log.
fn remote_entry(remote: &Path, entry: &str) -> String {
    git(
        remote,
        &[
            "rev-parse",
            &format!("refs/planning/boards/default:{entry}"),
        ],
    )
    .trim()
    .to_owned()
}

/// What a hostile clone pushes: the remote's log with entry `entry` set
/// to blob `oid` (added, or in place of what it held).
fn hostile_replace(remote: &Path, entry: &str, oid: &str) {
    let name = "refs/planning/boards/default";
    let head = git(remote, &["rev-parse", name]).trim().to_owned();
    let mut listing: String = git(remote, &["ls-tree", name])
        .lines()
        .filter(|line| !line.ends_with(&format!("\t{entry}")))
        .map(|line| format!("{line}\n"))
        .collect();
    listing.push_str(&format!("100644 blob {oid}\t{entry}\n"));
    let tree = git_in(remote, &["mktree"], listing.as_bytes());
    let commit = git(remote, &["commit-tree", &tree, "-p", &head, "-m", "x"])
        .trim()
        .to_owned();
    git(remote, &["update-ref", name, &commit]);
}

/// A blob in the remote: the operation of entry `entry` as `edit` makes it.
fn forge(remote: &Path, entry: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let text = git(remote, &["cat-file", "-p", &remote_entry(remote, entry)]);
    let mut op: serde_json::Value = serde_json::from_str(&text).unwrap();
    edit(&mut op);
    let bytes = format!("{op}\n");
    git_in(remote, &["hash-object", "-w", "--stdin"], bytes.as_bytes())
}

#[test]
fn a_blob_renamed_over_an_operation_erases_nothing() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], false), board(&c.clones[1], false));
    add(&a, &["acknowledged"]).unwrap();
    sync(&c.clones[0]);
    add(&b, &["other"]).unwrap();
    sync(&c.clones[1]);
    let ours = super::codec::op_name(replica_of(&c.clones[0]), 1);
    let theirs = super::codec::op_name(replica_of(&c.clones[1]), 1);
    let original = remote_entry(&c.remote, &ours);
    // b's operation under a's name: unreadable there (its content names
    // b's), in the place of a's operation.
    hostile_replace(&c.remote, &ours, &remote_entry(&c.remote, &theirs));
    let report = sync(&c.clones[1]);
    assert_eq!(report.displaced.len(), 1, "{report:?}");
    assert!(
        report.displaced[0].starts_with(&format!("{ours}: it says it is operation ")),
        "{report:?}"
    );
    assert!(report.corrupt.is_empty(), "{report:?}");
    sync(&c.clones[0]);
    assert_eq!(titles(&b), ["acknowledged", "other"]);
    assert_eq!(titles(&a), ["acknowledged", "other"]);
    // The next push put a's operation back in its place.
    assert_eq!(remote_entry(&c.remote, &ours), original);
}

#[test]
fn another_version_of_an_operation_under_its_name_replaces_nothing_and_the_clones_agree() {
    let c = clones(3);
    let (a, b) = (board(&c.clones[0], false), board(&c.clones[1], false));
    add(&a, &["acknowledged"]).unwrap();
    sync(&c.clones[0]);
    sync(&c.clones[1]);
    assert_eq!(titles(&b), ["acknowledged"]);
    // A hostile clone pushes another version of a's operation: another
    // task, stamped just before it (so it is the version every clone
    // keeps under that name).
    let replica = replica_of(&c.clones[0]);
    let name = super::codec::op_name(replica, 1);
    let forged = forge(&c.remote, &name, |op| {
        op["stamp"] = (op["stamp"].as_u64().unwrap() - 1).into();
        op["action"]["add_tasks"]["tasks"][0]["title"] = "forged".into();
    });
    hostile_replace(&c.remote, &name, &forged);
    // a's machine is off; b keeps a's operation, in its place.
    let report = sync(&c.clones[1]);
    assert_eq!((report.renewed, report.reissued), (None, 1));
    assert_eq!(titles(&b), ["forged", "acknowledged"]);
    let fresh = board(&c.clones[2], false);
    sync(&c.clones[2]);
    assert_eq!(titles(&fresh), ["forged", "acknowledged"]);
    // a comes back: b's copy keeps its operation already.
    let report = sync(&c.clones[0]);
    assert_eq!((report.renewed, report.reissued), (Some(replica), 0));
    sync(&c.clones[1]);
    sync(&c.clones[2]);
    for board in [&a, &b, &fresh] {
        assert_eq!(titles(board), ["forged", "acknowledged"]);
    }
}

#[test]
fn an_operation_copied_under_another_name_is_applied_once_and_its_writer_is_not_told_otherwise() {
    let c = clones(2);
    let (a, b) = (board(&c.clones[0], false), board(&c.clones[1], false));
    add(&a, &["t"]).unwrap();
    claim(&a, "ann", "t").unwrap();
    release_with_evidence(&a, "ann", "t", "done");
    sync(&c.clones[0]);
    // A hostile clone copies ann's release under a name that sorts first.
    let name = super::codec::op_name(replica_of(&c.clones[0]), 3);
    let copy = forge(&c.remote, &name, |op| {
        op["op"] = "0000000000000001#1".into()
    });
    hostile_replace(&c.remote, "op-0000000000000001-1", &copy);
    sync(&c.clones[0]);
    let report = sync(&c.clones[1]);
    let lines: Vec<String> = report.set_aside.iter().map(ToString::to_string).collect();
    let original = format!("operation {}#3", replica_of(&c.clones[0]));
    let why = "set aside: not trusted: it repeats operation 0000000000000001#1 under another \
               name; applied once";
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with(&original) && line.ends_with(why)),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 1, "{lines:?}");
    // The release stands, once, and ann is told nothing was set aside.
    let status = |board: &SharedBoard| {
        board
            .read(|x| x.tasks().map(|t| t.status).collect::<Vec<_>>())
            .unwrap()
    };
    assert_eq!(status(&a), [Status::Completed]);
    assert_eq!(status(&b), [Status::Completed]);
    let notices = a.notices(Some("ann"));
    assert!(notices.is_empty(), "{notices:?}");
}

/// Minute `m` of the tests' time, a fixed clock's.
fn minute(m: i64) -> std::time::SystemTime {
    let base = std::time::UNIX_EPOCH + Duration::from_secs(1_900_000_000);
    let shift = Duration::from_secs(m.unsigned_abs() * 60);
    match m >= 0 {
        true => base + shift,
        false => base - shift,
    }
}

/// The board of clone `dir` on a machine whose clock says `at`, syncing
/// on each change.
fn board_at(dir: &Path, at: std::time::SystemTime) -> SharedBoard {
    let clock = crate::runtime::clock::Clock::fixed(at);
    let store = GitLogStore::open(dir, "default", settings(true), limits(), true)
        .unwrap()
        .with_clock(clock);
    SharedBoard::open(
        "default",
        Box::new(store),
        Board::new(limits(), true).with_clock(clock),
        Duration::from_secs(30),
    )
    .unwrap()
}

/// A sync of clone `dir` on a machine whose clock says `at`.
fn sync_at(dir: &Path, at: std::time::SystemTime) -> Report {
    let git = Git::open(dir, Duration::from_secs(60)).unwrap();
    let place = Place::new(git.common_dir());
    let logs = Logs::new(git, limits(), true).with_clock(crate::runtime::clock::Clock::fixed(at));
    let plan = Plan {
        remote: "origin",
        retries: 10,
        checkpoint_every: 1000,
        until: Instant::now() + Duration::from_secs(30),
    };
    sync_board(&logs, &place, "default", plan, None).unwrap()
}

/// What the board's clock reads.
fn clock_of(board: &SharedBoard) -> std::time::SystemTime {
    board.read(|b| b.clock().now()).unwrap()
}

/// The end of the lease on task `title`.
fn lease_end(board: &SharedBoard, title: &str) -> Option<std::time::SystemTime> {
    let id = crate::toolsets::planning::domain::TaskId::from_content(title, "");
    board
        .read(|b| b.coordination().claim(id).map(|c| c.until))
        .unwrap()
}

#[test]
fn a_clone_30_minutes_ahead_ends_no_lease_before_it_ended_by_the_other_clones_board_clock() {
    let c = clones(2);
    let (a_dir, b_dir) = (&c.clones[0], &c.clones[1]);
    let a = board_at(a_dir, minute(0));
    add(&a, &["t"]).unwrap();
    claim(&a, "ann", "t").unwrap();
    // b's clock runs 30 minutes ahead: by it, ann's lease has ended.
    sync_at(b_dir, minute(30));
    let b = board_at(b_dir, minute(30));
    claim(&b, "bob", "t").unwrap();
    assert_eq!(holder(&b, "t").as_deref(), Some("bob"));
    // ann renews at minute 10: until minute 25.
    sync_at(a_dir, minute(10));
    claim(&board_at(a_dir, minute(10)), "ann", "t").unwrap();
    for m in [11, 19] {
        sync_at(a_dir, minute(m));
        let a = board_at(a_dir, minute(m));
        assert_eq!(holder(&a, "t").as_deref(), Some("ann"), "minute {m}");
        assert_eq!(clock_of(&a), minute(m), "b's stamps move no clock yet");
        let refused = claim(&a, "carol", "t").unwrap_err();
        assert!(refused.contains("ann"), "{refused}");
    }
    // From minute 21, a trusts b's operation (stamped at most 10 minutes
    // past its clock): its board's clock reads b's stamp, by which ann's
    // lease has ended there too.
    sync_at(a_dir, minute(21));
    let a = board_at(a_dir, minute(21));
    assert_eq!(holder(&a, "t").as_deref(), Some("bob"));
    assert!(clock_of(&a) >= minute(30));
    assert_eq!(lease_end(&a, "t"), lease_end(&b, "t"));
}

#[test]
fn a_clone_whose_clock_runs_behind_times_its_claims_from_the_newest_operation_it_read() {
    let c = clones(2);
    let (a_dir, b_dir) = (&c.clones[0], &c.clones[1]);
    let a = board_at(a_dir, minute(0));
    add(&a, &["t", "u"]).unwrap();
    claim(&a, "ann", "t").unwrap();
    // b's clock runs 8 minutes behind: its board's clock reads the newest
    // operation it read, ann's claim.
    sync_at(b_dir, minute(-8));
    let b = board_at(b_dir, minute(-8));
    assert!(clock_of(&b) >= minute(0));
    claim(&b, "bob", "u").unwrap();
    assert!(lease_end(&b, "u").unwrap() >= minute(15));
    // Nine minutes later on a, bob's lease is live there too.
    sync_at(a_dir, minute(9));
    let a = board_at(a_dir, minute(9));
    assert_eq!(holder(&a, "u").as_deref(), Some("bob"));
    let refused = claim(&a, "carol", "u").unwrap_err();
    assert!(refused.contains("bob"), "{refused}");
}
