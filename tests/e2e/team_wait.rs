// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `wait_for` end to end, over stdio and HTTP: it wakes on each kind of
//! change, at a dispatch's stall (seen by a second process whose clock is
//! shifted, so the test waits two seconds, not a lease), at its timeout,
//! and at SIGTERM without holding shutdown; a hundred waiters on one board
//! all wake on one change.
//!
//! No test races a change against a waiter: every waiter names the
//! revision it counts from (read first, from a `wait_for` that answers at
//! once), so a change made before it started waiting still wakes it; where
//! a test needs waiters to be waiting (shutdown, the hundred), it reads the
//! server's debug line `wait_for waits`.

use std::process::Stdio;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RoleClient};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::common::{
    self, Client, HttpServer, eventually, file_storage, id, ok, stdio_client, within_hang,
};
use crate::team::TEAM;

/// Calls `wait_for` with `arguments` through `peer`; (is it an error, its text).
async fn wait(peer: Peer<RoleClient>, arguments: Value) -> (bool, String) {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let params = CallToolRequestParams::new("wait_for").with_arguments(arguments);
    let result = peer.call_tool(params).await.expect("wait_for answers");
    let text = result.content[0].as_text().expect("text").text.clone();
    (result.is_error == Some(true), text)
}

/// A `wait_for` running in the background.
fn waiting(client: &Client, arguments: Value) -> tokio::task::JoinHandle<(bool, String)> {
    tokio::spawn(wait(client.peer().clone(), arguments))
}

/// Its reply, which must not be an error.
async fn woke(handle: tokio::task::JoinHandle<(bool, String)>) -> String {
    let (is_error, text) = within_hang("a waiter's reply", handle).await.unwrap();
    assert!(!is_error, "{text}");
    text
}

/// The board's revision now: a wait for changes since a revision the board
/// has not reached answers at once, and its last line names the revision.
async fn revision(client: &Client) -> i64 {
    let text = ok(
        client,
        "wait_for",
        json!({"events": ["changed"], "revision": i64::MAX}),
    )
    .await;
    let last = text.lines().last().unwrap();
    last.strip_prefix("Revision ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no revision in {text}"))
}

/// Each kind of change wakes the waiters that named it, through `client`
/// (which also makes the changes: calls run concurrently).
async fn each_kind(client: &Client) {
    ok(
        client,
        "add_tasks",
        json!({"tasks": [{"title": "a"}, {"title": "b"}, {"title": "c"}]}),
    )
    .await;
    ok(
        client,
        "link_tasks",
        json!({"task_id": id("b"), "blocked_by": [id("a")]}),
    )
    .await;

    let since = revision(client).await;
    let changed = waiting(client, json!({"events": ["changed"], "revision": since}));
    ok(client, "add_tasks", json!({"tasks": [{"title": "d"}]})).await;
    let text = woke(changed).await;
    assert!(
        text.starts_with(&format!(
            "The board changed since revision {since}.\nRevision "
        )),
        "{text}"
    );

    let since = revision(client).await;
    let finished = waiting(client, json!({"events": ["finished"], "revision": since}));
    let ready = waiting(client, json!({"events": ["ready"], "revision": since}));
    let named = waiting(
        client,
        json!({"events": ["finished"], "task_ids": [id("c")], "revision": since}),
    );
    ok(
        client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": id("a"), "status": "completed"}]}),
    )
    .await;
    let text = woke(finished).await;
    assert!(
        text.starts_with(&format!("Finished (1):\n- ☑ [{}] a\n", id("a"))),
        "{text}"
    );
    let text = woke(ready).await;
    assert!(
        text.starts_with(&format!(
            "Ready since revision {since} (1):\n- ☐ [{}] b\n",
            id("b")
        )),
        "{text}"
    );
    // The waiter for c alone still waits: c fails, and it wakes.
    ok(
        client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": id("c"), "status": "failed"}]}),
    )
    .await;
    let text = woke(named).await;
    assert!(
        text.starts_with(&format!("Finished (1):\n- ☒ [{}] c\n", id("c"))),
        "{text}"
    );

    let met = waiting(client, json!({"events": ["goal_met"]}));
    ok(
        client,
        "update_task_statuses",
        json!({"tasks": [
            {"task_id": id("b"), "status": "completed"},
            {"task_id": id("c"), "status": "cancelled"},
            {"task_id": id("d"), "status": "completed"},
        ]}),
    )
    .await;
    let text = woke(met).await;
    assert!(
        text.starts_with("The goal is met: every task is completed or cancelled.\n"),
        "{text}"
    );

    // Nothing more finishes: the wait ends at its timeout with the digest.
    let text = ok(
        client,
        "wait_for",
        json!({"events": ["finished"], "timeout_seconds": 1}),
    )
    .await;
    assert!(
        text.starts_with("Nothing you wait for happened within 1 s.\nRevision "),
        "{text}"
    );
    assert!(text.contains("\n\n# Board default\n"), "{text}");
    let (is_error, text) = common::call(
        client,
        "wait_for",
        json!({"events": ["changed"], "timeout_seconds": 61}),
    )
    .await;
    assert!(is_error);
    assert_eq!(
        text,
        "The timeout is 1 to 60 seconds (team.max_wait_seconds); 61 is not."
    );
}

#[tokio::test]
async fn wait_for_wakes_on_each_kind_of_change_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &TEAM, &[]).await;
    each_kind(&client).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn wait_for_wakes_on_each_kind_of_change_over_http() {
    let server = HttpServer::start(&TEAM, &[]).await;
    let client = server.client().await;
    each_kind(&client).await;
    client.cancel().await.unwrap();
}

/// Two processes on one board file: `lead` dispatches with a one-minute
/// lease; the waiter's server runs 58 s ahead, so for it the dispatch
/// stalls two seconds later, and its timer (not a change) wakes it.
async fn a_stall_wakes_the_waiter(lead: &Client, watcher: &Client) {
    ok(lead, "add_tasks", json!({"tasks": [{"title": "parser"}]})).await;
    let since = revision(watcher).await;
    let stalled = waiting(watcher, json!({"events": ["stalled"], "revision": since}));
    ok(
        lead,
        "dispatch_task",
        json!({"lead": "lead", "worker": "w1", "task_id": id("parser"), "lease_minutes": 1}),
    )
    .await;
    let text = woke(stalled).await;
    assert!(
        text.starts_with(&format!(
            "Stalled, their worker's time ran out (1); dispatch them again:\n- ☐ [{}] w1 stalled at ",
            id("parser")
        )),
        "{text}"
    );
    assert!(text.contains(", not claimed: parser\n"), "{text}");
}

#[tokio::test]
async fn a_dispatch_that_stalls_wakes_a_waiter_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    args.extend(file_storage(&dir.path().join("store")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let lead = stdio_client(&dir, &args, &[]).await;
    let ahead = [("PLANNING_TEST_CLOCK_OFFSET", "58")];
    let watcher = stdio_client(&dir, &args, &ahead).await;
    a_stall_wakes_the_waiter(&lead, &watcher).await;
    lead.cancel().await.unwrap();
    watcher.cancel().await.unwrap();
}

#[tokio::test]
async fn a_dispatch_that_stalls_wakes_a_waiter_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    args.extend(file_storage(&dir.path().join("store")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let lead_server = HttpServer::start_in(&dir, &args, &[]).await;
    let ahead = [("PLANNING_TEST_CLOCK_OFFSET", "58")];
    let watcher_server = HttpServer::start_in(&dir, &args, &ahead).await;
    let (lead, watcher) = (lead_server.client().await, watcher_server.client().await);
    a_stall_wakes_the_waiter(&lead, &watcher).await;
    lead.cancel().await.unwrap();
    watcher.cancel().await.unwrap();
}

/// How many waiters the server's log says are waiting.
fn waiting_count(server: &HttpServer) -> usize {
    let lines = server.stderr.lock();
    lines
        .iter()
        .filter(|l| l.contains("wait_for waits"))
        .count()
}

#[tokio::test]
async fn sigterm_ends_a_wait_over_http_without_holding_shutdown() {
    let grace = [("PLANNING_SERVER_SHUTDOWN_GRACE_PERIOD", "30")];
    let mut args = TEAM.to_vec();
    args.extend(["--log-level", "debug"]);
    let mut server = HttpServer::start(&args, &grace).await;
    let client = server.client().await;
    let waiter = waiting(&client, json!({"events": ["changed"]}));
    eventually("the waiter waits", || async {
        (waiting_count(&server) == 1).then_some(())
    })
    .await;
    common::signal(server.pid(), "TERM");
    let text = woke(waiter).await;
    assert!(
        text.starts_with("The server is shutting down; nothing you wait for happened yet."),
        "{text}"
    );
    let status = server.wait().await;
    assert!(status.success(), "{status:?}");
    let log = server.stderr.lock().join("\n");
    assert!(
        !log.contains("calls still in flight after the grace period"),
        "the wait held shutdown: {log}"
    );
}

#[tokio::test]
async fn sigterm_ends_a_wait_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = common::command(&dir);
    command.args(TEAM).args(["--log-level", "debug"]);
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the server");
    let pid = transport.id().expect("running");
    let client: Client = ().serve(transport).await.expect("initialize over stdio");
    let mut lines = BufReader::new(stderr.expect("piped")).lines();
    let waiter = waiting(&client, json!({"events": ["changed"]}));
    within_hang("the waiter waits", async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if line.contains("wait_for waits") {
                return;
            }
        }
        panic!("the server exited");
    })
    .await;
    common::signal(pid, "TERM");
    // The process ends (its stderr closes), and the wait with it: either
    // its answer arrived or the session closed; neither hangs.
    within_hang("the server's exit", async {
        while lines.next_line().await.unwrap().is_some() {}
    })
    .await;
    let _ = within_hang("the waiter's end", waiter).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_waiters_on_one_board_wake_on_one_change() {
    let mut args = TEAM.to_vec();
    args.extend(["--log-level", "debug"]);
    let server = HttpServer::start(&args, &[]).await;
    let lead = server.client().await;
    let since = revision(&lead).await;
    let mut sessions = Vec::new();
    for _ in 0..10 {
        sessions.push(server.client().await);
    }
    let mut waiters = Vec::new();
    for session in &sessions {
        for _ in 0..10 {
            waiters.push(waiting(
                session,
                json!({"events": ["changed"], "revision": since}),
            ));
        }
    }
    eventually("a hundred waiters wait", || async {
        (waiting_count(&server) == 100).then_some(())
    })
    .await;
    ok(
        &lead,
        "add_tasks",
        json!({"tasks": [{"title": "one change"}]}),
    )
    .await;
    for waiter in waiters {
        let text = woke(waiter).await;
        assert!(
            text.starts_with(&format!("The board changed since revision {since}.")),
            "{text}"
        );
    }
    for session in sessions {
        session.cancel().await.unwrap();
    }
    lead.cancel().await.unwrap();
}
