// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The file locks of toolsets `planning` (a board's `.json.lock`) and
//! `workflow` (`.ai/task/.lock`) held by another process for longer than
//! the lock timeout, through the real binary: every call gives up at its
//! deadline with a clear error, no thread stays blocked behind the lock
//! (counted in `/proc/{pid}/status`), the server goes on answering, and
//! the lock, once let go of, is taken. (Toolset `commit`'s jj lock has the
//! same proof in `commit_processes.rs`.) Every wait is for a state; the
//! bounds on the waits only turn a hang into a failure.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{self, HttpServer, call, ok};

/// How long the calls may take together before the test calls it a hang:
/// generous, for a busy machine.
const HANG: Duration = Duration::from_secs(120);

/// The sessions that call at once.
const SESSIONS: usize = 4;

/// The number of threads of process `pid`.
fn threads(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .unwrap_or_else(|| panic!("no Threads in {status}"));
    line.trim().parse().unwrap()
}

/// Another process's exclusive lock on `path`, never let go of until
/// dropped: the test's own open file description conflicts with the
/// server's.
fn hold(path: &Path) -> File {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let holder = File::create(path).unwrap();
    holder.lock().unwrap();
    holder
}

/// Makes `calls` calls of `tool` with `arguments` from [`SESSIONS`]
/// sessions at once, each answered `expected` as an error; returns the
/// most threads the server had while they ran, and after.
async fn give_up(
    server: &HttpServer,
    calls: usize,
    tool: &'static str,
    arguments: Value,
    expected: &str,
) -> (u64, u64) {
    let pid = server.pid();
    let started = Instant::now();
    let mut sessions = Vec::new();
    for _ in 0..SESSIONS {
        let client = server.client().await;
        let (arguments, expected) = (arguments.clone(), expected.to_owned());
        sessions.push(tokio::spawn(async move {
            let mut most = 0;
            for n in 0..calls / SESSIONS {
                let (is_error, text) = call(&client, tool, arguments.clone()).await;
                assert!(is_error, "{text}");
                assert_eq!(text, expected);
                if n % 5 == 0 {
                    most = most.max(threads(pid));
                }
            }
            client.cancel().await.unwrap();
            most
        }));
    }
    let most = tokio::time::timeout(HANG, async {
        let mut most = 0;
        for session in sessions {
            most = most.max(session.await.unwrap());
        }
        most
    })
    .await
    .expect("every timed-out lock wait ends");
    let after = threads(pid);
    eprintln!(
        "{calls} timed-out waits for {tool} in {:.1} s: at most {most} threads, {after} after",
        started.elapsed().as_secs_f64()
    );
    (most, after)
}

#[tokio::test]
async fn a_stuck_board_lock_leaves_no_thread_behind_and_the_board_answers() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let holder = hold(&store.join("default.json.lock"));
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [("PLANNING_SERVER_LOCK_TIMEOUT", "0.02")];
    let server = HttpServer::start_in(&dir, &args, &env).await;
    let busy = "Nothing was done: another process holds the lock of board default and did not release it within 0.02 s (server.lock_timeout); retry later.";
    let add = json!({"tasks": [{"title": "after the lock"}]});
    let (most, after) = give_up(&server, 200, "add_tasks", add.clone(), busy).await;
    assert!(
        most.max(after) <= 64,
        "{most} threads during, {after} after"
    );
    let client = server.client().await;
    assert!(
        !ok(&client, "get_tasks", json!({}))
            .await
            .contains("after the lock")
    );
    drop(holder);
    ok(&client, "add_tasks", add).await;
    assert!(
        ok(&client, "get_tasks", json!({}))
            .await
            .contains("after the lock")
    );
}

#[tokio::test]
async fn a_stuck_workflow_lock_leaves_no_thread_behind_and_spells_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let holder = hold(&dir.path().join(".ai/task/.lock"));
    let env = [("PLANNING_WORKFLOW_LOCK_TIMEOUT_MS", "100")];
    let server = HttpServer::start_in(&dir, &["--toolsets", "planning,workflow"], &env).await;
    let busy = "another process is running a spell on .ai/task; try again";
    let (most, after) = give_up(&server, 40, "accio", json!({}), busy).await;
    assert!(
        most.max(after) <= 64,
        "{most} threads during, {after} after"
    );
    let client = server.client().await;
    ok(&client, "get_tasks", json!({})).await;
    assert!(
        !dir.path().join(".ai/task/plan.md").exists(),
        "nothing cast"
    );
    drop(holder);
    let cast = ok(&client, "accio", json!({})).await;
    assert!(cast.starts_with("state: GATHER_EDITING\n"), "{cast}");
}
