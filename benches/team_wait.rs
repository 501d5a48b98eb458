// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `wait_for` in the real server over HTTP, measured from outside: the
//! server's CPU time while 100 waiters wait for 10 s (target < 10 ms), and
//! the time from one change until the 100th waiter has its answer, as the
//! clients see it (HTTP included). The CPU time is the sum of the server's
//! threads' run time (`/proc/<pid>/task/*/schedstat`, nanoseconds; Linux).
//!
//! `cargo bench --bench team_wait` (the release binary is built first).

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops"
)]

use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

const WAITERS: usize = 100;
const SESSIONS: usize = 10;
const IDLE: Duration = Duration::from_secs(10);

/// The run time of every thread of process `pid`, in nanoseconds.
fn cpu_ns(pid: u32) -> u64 {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).unwrap();
    tasks
        .filter_map(|task| {
            let path = task.ok()?.path().join("schedstat");
            let text = std::fs::read_to_string(path).ok()?;
            text.split_whitespace().next()?.parse::<u64>().ok()
        })
        .sum()
}

fn arguments(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("an object"),
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // The memory store, and the file store, whose board the server also
    // checks for other processes' changes while anyone waits.
    for storage in ["memory", "file"] {
        measure(storage).await;
    }
}

/// Starts a server on `storage`, lets 100 waiters wait, and prints the
/// figures as rows of docs/performance.md's table.
async fn measure(storage: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut server = tokio::process::Command::new(env!("CARGO_BIN_EXE_planning-mcp-server"))
        .args(["--mode", "http", "--host", "127.0.0.1", "--port", "0"])
        .args(["--toolsets", "planning,team", "--storage", storage])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let pid = server.id().unwrap();
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the listening line");
        if let Some(url) = line.split_whitespace().find_map(|w| w.strip_prefix("url=")) {
            break url.trim_matches('"').to_owned();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let mut sessions = Vec::new();
    for _ in 0..SESSIONS {
        let client = ().serve(StreamableHttpClientTransport::from_uri(url.clone()));
        sessions.push(client.await.unwrap());
    }
    let lead = &sessions[0];
    let add = CallToolRequestParams::new("add_tasks")
        .with_arguments(arguments(json!({"tasks": [{"title": "a"}]})));
    lead.call_tool(add).await.unwrap();

    let mut waiters = Vec::new();
    for n in 0..WAITERS {
        let peer = sessions[n % SESSIONS].peer().clone();
        waiters.push(tokio::spawn(async move {
            let wait = CallToolRequestParams::new("wait_for").with_arguments(arguments(
                json!({"events": ["changed"], "timeout_seconds": 60}),
            ));
            let result = peer.call_tool(wait).await.unwrap();
            (Instant::now(), result.is_error != Some(true))
        }));
    }
    // Settled: every waiter is waiting (the bench's only sleep before it
    // measures).
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = cpu_ns(pid);
    tokio::time::sleep(IDLE).await;
    let idle_ns = cpu_ns(pid) - before;

    let change = CallToolRequestParams::new("add_tasks")
        .with_arguments(arguments(json!({"tasks": [{"title": "the change"}]})));
    let start = Instant::now();
    lead.call_tool(change).await.unwrap();
    let mut last = start;
    for waiter in waiters {
        let (at, ok) = waiter.await.unwrap();
        assert!(ok, "a waiter failed");
        last = last.max(at);
    }
    let wake = last - start;
    println!(
        "| CPU time of the server ({storage} store) while {WAITERS} waiters wait {} s over HTTP | {:.2} ms | < 10 ms |",
        IDLE.as_secs(),
        idle_ns as f64 / 1e6
    );
    println!(
        "| one change until the {WAITERS}th waiter has its answer, over HTTP ({SESSIONS} sessions, {storage} store) | {:.2} ms | |",
        wake.as_secs_f64() * 1e3
    );
    for session in sessions {
        let _ = session.cancel().await;
    }
}
