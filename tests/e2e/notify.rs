// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `[notify]` end to end: a real server with toolset team sends the board's
//! events to a webhook receiver the test starts (its signature checked
//! with an HMAC the test computes itself, a 500 answered by a retry of the
//! same message, a burst of completions in one message) and to a command
//! that writes what it is given to files; a webhook in clear over a
//! network stops start-up. Nothing here waits for a time: each step waits
//! for the message it expects (bounded only by the hang guard), and that no
//! message came in between is shown by the next message being the next one
//! the receiver got.

use crate::common;
use crate::common::{id, ok, run_binary, stdio_client, within_hang};
use crate::team::TEAM;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

/// The secret of the tests (the Standard Webhooks specification's example).
const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// One request the receiver got.
#[derive(Debug)]
struct Received {
    id: String,
    timestamp: String,
    signature: String,
    body: Bytes,
}

/// The receiver: it answers 500 to its first `fail_first` requests, then
/// 200, and hands every request to the test.
struct Receiver {
    got: mpsc::UnboundedSender<Received>,
    answered: AtomicUsize,
    fail_first: usize,
}

async fn receive(
    State(receiver): State<Arc<Receiver>>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    let _ = receiver.got.send(Received {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body,
    });
    match receiver.answered.fetch_add(1, Ordering::SeqCst) < receiver.fail_first {
        true => StatusCode::INTERNAL_SERVER_ERROR,
        false => StatusCode::NO_CONTENT,
    }
}

/// Starts a receiver on a free loopback port: its URL and what it gets.
async fn receiver(fail_first: usize) -> (String, mpsc::UnboundedReceiver<Received>) {
    let (got, received) = mpsc::unbounded_channel();
    let state = Arc::new(Receiver {
        got,
        answered: AtomicUsize::new(0),
        fail_first,
    });
    let app = axum::Router::new()
        .route("/hook", axum::routing::post(receive))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/hook"), received)
}

/// HMAC-SHA256 (RFC 2104), written here apart from the server's.
fn hmac(key: &[u8], message: &[u8]) -> Vec<u8> {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let inner_key: Vec<u8> = block.iter().map(|b| b ^ 0x36).collect();
    let outer_key: Vec<u8> = block.iter().map(|b| b ^ 0x5c).collect();
    let inner = Sha256::digest([inner_key.as_slice(), message].concat());
    Sha256::digest([outer_key.as_slice(), inner.as_slice()].concat()).to_vec()
}

/// Checks `got`'s signature as a receiver must, and returns its body.
fn verified(got: &Received) -> Value {
    let key = STANDARD
        .decode(SECRET.strip_prefix("whsec_").unwrap())
        .unwrap();
    let signed = [
        got.id.as_bytes(),
        b".",
        got.timestamp.as_bytes(),
        b".",
        &got.body,
    ]
    .concat();
    let expected = format!("v1,{}", STANDARD.encode(hmac(&key, &signed)));
    assert_eq!(got.signature, expected, "the signature of {}", got.id);
    assert!(got.id.starts_with("msg_"), "{}", got.id);
    assert!(got.timestamp.parse::<i64>().unwrap() > 1_600_000_000);
    serde_json::from_slice(&got.body).unwrap()
}

/// The next request the receiver gets.
async fn next(received: &mut mpsc::UnboundedReceiver<Received>) -> Received {
    within_hang("the next webhook", received.recv())
        .await
        .expect("the receiver runs")
}

/// The events of a message as (type, title, agent).
fn events(body: &Value) -> Vec<(String, String, Value)> {
    body["data"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["type"].as_str().unwrap().to_owned(),
                e["title"].as_str().unwrap().to_owned(),
                e["agent"].clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_webhook_is_signed_retried_and_gets_a_burst_in_one_message() {
    let dir = tempfile::tempdir().unwrap();
    let (url, mut received) = receiver(1).await;
    let client = stdio_client(
        &dir,
        &TEAM,
        &[
            ("PLANNING_NOTIFY_WEBHOOK_URL", &url),
            ("PLANNING_NOTIFY_WEBHOOK_SECRET", SECRET),
            ("PLANNING_NOTIFY_WINDOW_SECONDS", "0"),
            ("PLANNING_NOTIFY_BOARD_URL", "http://board.example:8080/"),
        ],
    )
    .await;
    let titles: Vec<String> = (1..=20).map(|n| format!("Task {n}")).collect();
    let tasks: Vec<Value> = titles.iter().map(|t| json!({"title": t})).collect();
    ok(&client, "add_tasks", json!({"tasks": tasks})).await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "worker-1", "task_id": id("Task 1")}),
    )
    .await;
    ok(
        &client,
        "release_task",
        json!({"agent": "worker-1", "task_id": id("Task 1"), "status": "completed", "note": "done"}),
    )
    .await;

    // Answered 500, then retried: the same message, signed anew.
    let first = next(&mut received).await;
    let retry = next(&mut received).await;
    assert_eq!(first.id, retry.id, "a retry keeps the message's ID");
    let body = verified(&first);
    assert_eq!(verified(&retry), body);
    assert_eq!(body["type"], "planning.board.events");
    assert_eq!(
        body["data"]["summary"],
        format!(
            "finished [{}] Task 1 by worker-1 on board default",
            id("Task 1")
        )
    );
    let event = &body["data"]["events"][0];
    assert_eq!(event["task"]["id"], id("Task 1"));
    assert_eq!(event["link"], "http://board.example:8080/boards/default");
    assert_eq!(
        events(&body),
        [("finished".into(), "Task 1".into(), json!("worker-1"))]
    );

    // Nineteen completions in one call are one message, with the goal met.
    let rest: Vec<Value> = titles[1..]
        .iter()
        .map(|t| json!({"task_id": id(t), "status": "completed"}))
        .collect();
    ok(&client, "update_task_statuses", json!({"tasks": rest})).await;
    let burst = next(&mut received).await;
    assert_ne!(burst.id, first.id);
    let body = verified(&burst);
    let got = events(&body);
    assert_eq!(got.len(), 20, "{got:?}");
    assert!(got[..19].iter().all(|(kind, _, _)| kind == "finished"));
    assert_eq!(got[19].0, "goal_met");
    assert_eq!(
        body["data"]["summary"],
        "19 finished, goal met on board default"
    );

    // The next message is the next one the receiver gets: nothing came
    // between.
    ok(&client, "add_tasks", json!({"tasks": [{"title": "Late"}]})).await;
    ok(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": id("Late"), "status": "failed"}]}),
    )
    .await;
    let late = verified(&next(&mut received).await);
    assert_eq!(
        events(&late),
        [("failed".into(), "Late".into(), Value::Null)]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_command_gets_the_message_on_stdin_and_the_summary_as_an_argument() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let config = format!(
        "[notify]\ncommand = ['sh', '-c', 'cat > \"$1.json\" && printf %s \"$2\" > \"$1.txt\"', 'sh', '{}', '{{summary}}']\nwindow_seconds = 0\n",
        out.display()
    );
    std::fs::write(dir.path().join("planning-mcp-server.toml"), config).unwrap();
    let client = stdio_client(&dir, &TEAM, &[]).await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "Parser"}]}),
    )
    .await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "worker-1", "task_id": id("Parser")}),
    )
    .await;
    ok(
        &client,
        "release_task",
        json!({"agent": "worker-1", "task_id": id("Parser"), "status": "failed"}),
    )
    .await;
    let summary_file = out.with_extension("txt");
    let summary = common::eventually("the command's summary file", || {
        let file = summary_file.clone();
        async move {
            std::fs::read_to_string(&file)
                .ok()
                .filter(|s| !s.is_empty())
        }
    })
    .await;
    assert_eq!(
        summary,
        format!(
            "failed [{}] Parser by worker-1 on board default",
            id("Parser")
        )
    );
    // The JSON was written before the summary.
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(out.with_extension("json")).unwrap())
            .unwrap();
    assert_eq!(
        events(&json),
        [("failed".into(), "Parser".into(), json!("worker-1"))]
    );
    assert_eq!(
        json["data"]["events"][0]["link"],
        "http://localhost:8080/boards/default"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_webhook_in_clear_over_a_network_or_without_its_secret_stops_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run_binary(
        &dir,
        &TEAM,
        &[
            ("PLANNING_NOTIFY_WEBHOOK_URL", "http://hooks.example.com/in"),
            ("PLANNING_NOTIFY_WEBHOOK_SECRET", "not-a-secret"),
        ],
    )
    .await;
    assert_eq!(code, 1);
    insta::assert_snapshot!(stderr);
}
