// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The git log's replay (docs/sync.md, target: 100,000 operations in at
//! most 50 ms): a log of 100,000 operations from 4 clones (adds up to 500
//! tasks, status changes, rewordings, claims and releases, deletes)
//! replayed into the board; and one operation appended to a replayed
//! board (what every change costs besides git). Then git: a change on a
//! board kept in git with sync off (a commit, a ref moved) and with sync on
//! change (one push more), against a plain `git push` of one commit to the
//! same bare remote on disk.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::hint::black_box;
use std::time::{Duration, UNIX_EPOCH};

use criterion::{Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::allocator;
use planning_mcp_server::api::planning::{
    Board, Claim, Edit, Event, Limits, NewTask, SharedBoard, Status, TaskId,
};
use planning_mcp_server::api::sync::{
    Action, ClaimEnd, ClaimMode, GitLogStore, Log, Op, OpId, Replica, SyncSettings,
};
use std::path::Path;
use std::process::Command;

/// Replays run on the allocator of `planning-mcp-server`.
#[global_allocator]
static ALLOCATOR: allocator::Sessions = allocator::Sessions;

const OPS: u64 = 100_000;
const TASKS: usize = 500;

fn empty() -> Board {
    let limits = Limits {
        max_tasks: 1_000,
        ..Limits::default()
    };
    Board::new(limits, true)
}

fn title(n: usize) -> String {
    format!("Task number {n}: do step {n} of the plan")
}

/// The 100,000 operations: one in 200 adds a task (up to 500), the rest
/// change statuses, reword, claim and release, now and then delete.
pub fn log() -> Log {
    let mut log = Log::new();
    let mut titles: Vec<String> = Vec::new();
    let mut counters = [0u64; 4];
    for n in 0..OPS {
        let replica = (n % 4) as usize;
        counters[replica] += 1;
        let at = UNIX_EPOCH + Duration::from_micros(1_000_000 + n * 10);
        let live = titles.len().max(1);
        let pick = |k: u64| (k as usize * 7919) % live;
        let id_of = |titles: &Vec<String>, k: usize| {
            titles.get(k).map_or(TaskId::from_content("none", ""), |t| {
                TaskId::from_content(t, "")
            })
        };
        let (action, claim) = match n % 200 {
            0 if titles.len() < TASKS => {
                let title = title(titles.len());
                titles.push(title.clone());
                (Action::AddTasks(vec![NewTask::new(title, "")]), None)
            }
            1 => {
                let k = pick(n);
                let id = id_of(&titles, k);
                let new = format!(
                    "{} (reworded {n})",
                    titles.get(k).cloned().unwrap_or_default()
                );
                if let Some(slot) = titles.get_mut(k) {
                    *slot = new.clone();
                }
                let action = Action::Modify {
                    id,
                    title: Some(new),
                    description: None,
                };
                (action, None)
            }
            2..=20 => {
                let id = id_of(&titles, pick(n));
                let until = at + Duration::from_secs(900);
                let holder = format!("agent-{replica}");
                let edits = vec![
                    Edit::Status(id, Status::InProgress),
                    Edit::Claim(
                        id,
                        Some(Claim {
                            holder: holder.clone(),
                            since: at,
                            until,
                        }),
                    ),
                    Edit::Record(Event::Claimed {
                        task_id: id,
                        title: String::new(),
                        holder,
                        until,
                    }),
                ];
                (Action::Edit(edits), Some(ClaimMode::Confirmed))
            }
            21..=40 => {
                let id = id_of(&titles, pick(n - 19));
                let edits = vec![
                    Edit::Claim(id, None),
                    Edit::Record(Event::ClaimEnded {
                        task_id: id,
                        title: String::new(),
                        holder: format!("agent-{replica}"),
                        until: at,
                        reason: ClaimEnd::Released,
                    }),
                    Edit::Status(id, Status::Completed),
                ];
                (Action::Edit(edits), None)
            }
            _ => {
                let id = id_of(&titles, pick(n));
                let status = [
                    Status::Pending,
                    Status::InProgress,
                    Status::Completed,
                    Status::Failed,
                    Status::Cancelled,
                ][(n % 5) as usize];
                (Action::SetStatuses(vec![(id, status)]), None)
            }
        };
        log.insert(Op {
            id: OpId {
                stamp: 1_000_000 + n * 10,
                replica: Replica(replica as u64 + 1),
                counter: counters[replica],
            },
            at,
            claim,
            action,
        });
    }
    log
}

fn replay(c: &mut Criterion) {
    let log = log();
    let state = log.replay(empty());
    println!(
        "the log: {} operations, {} tasks, {} set aside",
        log.len(),
        state.board.len(),
        state.set_aside_count
    );
    c.bench_function("replay of 100,000 operations", |b| {
        b.iter(|| black_box(log.replay(empty())))
    });
    let mut board = state.board;
    let extra = NewTask::new("one more task for the bench", "");
    let _added = board.add_tasks(&[extra]).unwrap();
    let id = TaskId::from_content("one more task for the bench", "").to_string();
    c.bench_function("one operation on the replayed board", |b| {
        b.iter(|| {
            let undo = board.update_statuses(&[(&id, "completed")]).unwrap();
            board.undo(undo);
        })
    });
}

/// Runs git in `dir` (as the server does: no user configuration needed);
/// returns its output.
fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@localhost")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@localhost")
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// A board kept in git in `clone`, with one task, its ID.
fn git_board(clone: &Path, on_change: bool) -> (SharedBoard, String) {
    let limits = Limits::default();
    let sync = SyncSettings {
        on_change,
        ..SyncSettings::default()
    };
    let store = GitLogStore::open(clone, "default", sync, limits, true).unwrap();
    let board = SharedBoard::open(
        "default",
        Box::new(store),
        Board::new(limits, true),
        Duration::from_secs(30),
    )
    .unwrap();
    let task = NewTask::new("the task of the bench", "");
    board
        .mutate(|b| b.add_tasks(std::slice::from_ref(&task)), |_, _| ())
        .unwrap();
    let id = TaskId::from_content("the task of the bench", "").to_string();
    (board, id)
}

/// One change: the task's status, back and forth.
fn change(board: &SharedBoard, id: &str, flip: &mut bool) {
    *flip = !*flip;
    let status = if *flip { "completed" } else { "pending" };
    board
        .mutate(
            |b| b.update_statuses(&[(id, status)]).map(|undo| ((), undo)),
            |_, ()| (),
        )
        .unwrap();
}

fn push(c: &mut Criterion) {
    let root = tempfile::tempdir().unwrap();
    git(root.path(), &["init", "-q", "--bare", "remote.git"]);
    for clone in ["plain", "off", "on"] {
        git(root.path(), &["clone", "-q", "remote.git", clone]);
    }
    let plain = root.path().join("plain");
    let tree = git(&plain, &["hash-object", "-t", "tree", "-w", "/dev/null"]);
    let mut parent: Option<String> = None;
    c.bench_function("plain git push of one commit", |b| {
        b.iter(|| {
            let mut args = vec!["commit-tree", tree.as_str(), "-m", "bench"];
            if let Some(parent) = &parent {
                args.extend(["-p", parent.as_str()]);
            }
            let commit = git(&plain, &args);
            let refspec = format!("{commit}:refs/heads/bench");
            git(&plain, &["push", "-q", "origin", &refspec]);
            parent = Some(commit);
        })
    });
    let (off, id) = git_board(&root.path().join("off"), false);
    let mut flip = false;
    c.bench_function("a change on a git board, sync off", |b| {
        b.iter(|| change(&off, &id, &mut flip))
    });
    let (on, id) = git_board(&root.path().join("on"), true);
    c.bench_function("a change on a git board, sync on change", |b| {
        b.iter(|| change(&on, &id, &mut flip))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(10));
    targets = replay
}

criterion_group! {
    name = git_benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    targets = push
}
criterion_main!(benches, git_benches);
