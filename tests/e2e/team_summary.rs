// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server summary`: the digest from a stored board (nothing
//! created, any size within 1,500 characters) and from a running server
//! (with its token), and clear errors otherwise.

use crate::common;
use crate::common::id;
use crate::team::{TEAM, redact_times};

use std::process::Output;

use common::{HttpServer, file_storage, ok, stdio_client};
use planning_mcp_server::api::planning::{Board, Limits, NewTask, snapshot_json};
use serde_json::json;
use tempfile::TempDir;

async fn summary(dir: &TempDir, args: &[&str], env: &[(&str, &str)]) -> Output {
    common::command(dir)
        .arg("summary")
        .args(args)
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap()
}

fn text(output: &Output) -> (Option<i32>, String, String) {
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_digest_of_a_stored_board() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let storage = file_storage(&store);
    let storage: Vec<&str> = storage.iter().map(String::as_str).collect();

    // Nothing stored yet: the digest of an empty board, and nothing created.
    let (code, stdout, _) = text(&summary(&dir, &storage, &[]).await);
    assert_eq!(code, Some(0));
    // The last line names where it looked.
    assert_eq!(
        stdout,
        format!(
            "# Board default\n\n**Goal:** not set\nGoal met: no\nTasks: 0 (0 pending, 0 in \
             progress, 0 completed, 0 failed, 0 cancelled); 0 of 0 completed with evidence\n\
             Board default: none is stored at {}.\n",
            std::path::absolute(store.join("default.json"))
                .unwrap()
                .display()
        )
    );
    assert!(!store.exists(), "a summary creates nothing");

    let mut args: Vec<&str> = TEAM.to_vec();
    args.extend(&storage);
    args.extend(["--board", "side"]);
    let client = stdio_client(&dir, &args, &[]).await;
    ok(
        &client,
        "set_goal",
        json!({"title": "Ship", "description": "it"}),
    )
    .await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "a"}, {"title": "b"}]}),
    )
    .await;
    ok(
        &client,
        "link_tasks",
        json!({"task_id": id("b"), "blocked_by": [id("a")]}),
    )
    .await;
    ok(&client, "claim_task", json!({"agent": "w1"})).await;
    client.cancel().await.unwrap();
    let mut args = storage.clone();
    args.extend(["--board", "side"]);
    let (code, stdout, stderr) = text(&summary(&dir, &args, &[]).await);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        redact_times(&stdout),
        format!(
            "# Board side\n\n**Goal:** Ship\n  it\nGoal met: no\nTasks: 2 (1 pending, 1 in progress, \
             0 completed, 0 failed, 0 cancelled); 0 of 0 completed with evidence\n\n\
             Claimed (1):\n- ⟳ [{a}] w1 until <time>: a\nBlocked (1):\n- ☐ [{b}] waits for [{a}]: b\n",
            a = id("a"),
            b = id("b")
        )
    );
    // The memory backend has no stored board: say how to get one.
    let (code, _, stderr) = text(&summary(&dir, &[], &[]).await);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("lives in the memory of the server that holds it"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_ten_thousand_task_board_stays_within_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    std::fs::create_dir_all(&store).unwrap();
    let limits = Limits {
        max_tasks: 10_000,
        ..Limits::default()
    };
    let mut board = Board::new(limits, true);
    let _ = board
        .set_goal(&"g".repeat(1000), &"d".repeat(1000))
        .unwrap();
    let tasks: Vec<NewTask> = (0..10_000)
        .map(|n| NewTask::new(format!("{n} {}", "t".repeat(400)), ""))
        .collect();
    let _ = board.add_tasks(&tasks).unwrap();
    std::fs::write(store.join("default.json"), snapshot_json(&board)).unwrap();
    let storage = file_storage(&store);
    let storage: Vec<&str> = storage.iter().map(String::as_str).collect();
    let env = [("PLANNING_PLANNING_MAX_TASKS", "10000")];
    let (code, stdout, stderr) = text(&summary(&dir, &storage, &env).await);
    assert_eq!(code, Some(0), "{stderr}");
    let digest = stdout.trim_end_matches('\n');
    assert!(digest.chars().count() <= 1500, "{}", digest.chars().count());
    assert!(digest.contains("Tasks: 10000 (10000 pending"), "{digest}");
    assert!(digest.contains("Ready (10000):"), "{digest}");
}

#[tokio::test]
async fn the_digest_from_a_running_server_with_its_token() {
    let dir = tempfile::tempdir().unwrap();
    let token = [("PLANNING_SERVER_AUTH_TOKEN", "s3cret")];
    let server = HttpServer::start_in(&dir, &TEAM, &token).await;
    let client = common::client_with_token(&server.url, "s3cret").await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;
    client.cancel().await.unwrap();
    for url in [server.base().to_owned(), server.url.clone()] {
        let (code, stdout, stderr) = text(&summary(&dir, &["--url", &url], &token).await);
        assert_eq!(code, Some(0), "{stderr}");
        assert!(
            stdout.contains(&format!("Ready (1):\n- ☐ [{}] a", id("a"))),
            "{stdout}"
        );
    }
    let (code, _, stderr) = text(&summary(&dir, &["--url", server.base()], &[]).await);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("wants a token: set PLANNING_SERVER_AUTH_TOKEN"),
        "{stderr}"
    );

    let plain = HttpServer::start(&[], &[]).await;
    let (code, _, stderr) = text(&summary(&dir, &["--url", plain.base()], &[]).await);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("is toolset team enabled there"), "{stderr}");
    let (code, _, stderr) = text(&summary(&dir, &["--url", "https://example.com"], &[]).await);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("not an http:// URL"), "{stderr}");
}

#[tokio::test]
async fn a_server_that_trickles_its_answer_is_given_up_on_after_5_seconds() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // Answers the request's head, then one byte every 100 ms, forever:
    // each byte is well within any per-read timeout.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let trickler = tokio::spawn(async move {
        let (mut stream, _) = listener.accept().await.unwrap();
        let mut request = [0; 1024];
        let _ = stream.read(&mut request).await.unwrap();
        let mut answer: &[u8] = b"HTTP/1.0 200 OK\r\ncontent-type: text/markdown\r\n\r\n# Board";
        loop {
            if stream.write_all(answer).await.is_err() {
                return;
            }
            answer = b".";
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    });
    let dir = tempfile::tempdir().unwrap();
    // The bound only turns a hang into a failure.
    let output = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        summary(&dir, &["--url", &url], &[]),
    )
    .await
    .expect("summary gives up on its own");
    let (code, stdout, stderr) = text(&output);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        format!("planning-mcp-server: {url} did not answer within 5 s\n")
    );
    trickler.abort();
}
