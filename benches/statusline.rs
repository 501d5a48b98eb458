// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server statusline` from start to exit on a stored
//! 1,000-task board (the target of docs/performance.md: ≤ 5 ms): the
//! process as a status bar runs it every few seconds, with Claude Code's
//! JSON on stdin naming the project.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use criterion::{Criterion, criterion_group, criterion_main};
use planning_mcp_server::api::planning::{
    Board, Claim, Edit, Limits, NewTask, Status, TaskId, snapshot_json,
};

const TASKS: usize = 1_000;
const BIN: &str = env!("CARGO_BIN_EXE_planning-mcp-server");

fn title(n: usize) -> String {
    format!("Task number {n}: do step {n} of the plan")
}

/// 1,000 tasks: 700 completed, 30 failed, 10 held by agents.
fn board() -> Board {
    let limits = Limits {
        max_tasks: TASKS,
        ..Limits::default()
    };
    let mut board = Board::new(limits, true);
    let _ = board.set_goal("Benchmark", "A team's board").unwrap();
    let tasks: Vec<NewTask> = (0..TASKS).map(|n| NewTask::new(title(n), "")).collect();
    let _ = board.add_tasks(&tasks).unwrap();
    let id = |n: usize| TaskId::from_content(&title(n), "");
    let now = SystemTime::now();
    let mut edits: Vec<Edit> = (0..700)
        .map(|n| Edit::Status(id(n), Status::Completed))
        .collect();
    edits.extend((700..730).map(|n| Edit::Status(id(n), Status::Failed)));
    for n in 730..740 {
        edits.push(Edit::Status(id(n), Status::InProgress));
        let claim = Claim {
            holder: format!("worker-{n}"),
            since: now,
            until: now + Duration::from_secs(3600),
        };
        edits.push(Edit::Claim(id(n), Some(claim)));
    }
    let _ = board.edit(now, edits).unwrap();
    board
}

fn statusline(c: &mut Criterion) {
    let project = tempfile::tempdir().unwrap();
    let store = project.path().join(".planning-mcp-server");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("default.json"), snapshot_json(&board())).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let stdin = format!(
        r#"{{"session_id":"bench","workspace":{{"current_dir":"{}"}}}}"#,
        project.path().display()
    );
    let run = || {
        let mut child = Command::new(BIN)
            .args(["statusline", "--storage", "file"])
            .env("PLANNING_PLANNING_MAX_TASKS", "1000")
            .env("HOME", elsewhere.path())
            .current_dir(elsewhere.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let line = String::from_utf8(run().stdout).unwrap();
    assert!(line.starts_with("700/1000 ☑ · ⟳ worker-730 ["), "{line}");
    assert!(line.ends_with(" +9 · 30 failed\n"), "{line}");
    c.bench_function("statusline_1000_tasks", |b| b.iter(run));
}

criterion_group!(benches, statusline);
criterion_main!(benches);
