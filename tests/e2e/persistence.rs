// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The file backend through the real binary: restarts, bad files, a failing
//! disk, and processes sharing one board file.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::{HttpServer, call, file_storage, ok, stdio_client};
use serde_json::{Value, json};

fn args(dir: &Path) -> Vec<String> {
    file_storage(dir)
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[tokio::test]
async fn a_restarted_server_loses_nothing() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = args(&store);
    let client = stdio_client(&home, &as_strs(&flags), &[]).await;
    ok(
        &client,
        "set_goal",
        json!({"title": "Persist", "description": "across restarts"}),
    )
    .await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "Write tests"}, {"title": "b", "description": "two\nlines"}]}),
    )
    .await;
    ok(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": "a46f8d35", "status": "failed"}]}),
    )
    .await;
    ok(
        &client,
        "change_goal",
        json!({"title": "Persist 2", "description": "", "reason": "why not"}),
    )
    .await;
    let before = ok(&client, "get_tasks", json!({})).await;
    client.cancel().await.unwrap();

    let saved: Value =
        serde_json::from_slice(&std::fs::read(store.join("default.json")).unwrap()).unwrap();
    assert_eq!(saved["format"], "planning-mcp-server board");
    assert_eq!(saved["version"], 1);
    let events: Vec<&str> = saved["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["goal_set", "status_changed", "goal_changed"]);
    assert_eq!(saved["history"][2]["reason"], "why not");

    let client = stdio_client(&home, &as_strs(&flags), &[]).await;
    assert_eq!(ok(&client, "get_tasks", json!({})).await, before);
    // The board is not empty after the restart: no first-add guidance.
    let added = ok(&client, "add_tasks", json!({"tasks": [{"title": "c"}]})).await;
    assert!(added.starts_with("**Goal:** Persist 2"), "{added}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_default_stays_in_memory() {
    let home = tempfile::tempdir().unwrap();
    let client = stdio_client(&home, &[], &[]).await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "gone"}]})).await;
    client.cancel().await.unwrap();
    assert!(
        !home.path().join(".planning-mcp-server").exists(),
        "nothing written"
    );
    let client = stdio_client(&home, &[], &[]).await;
    assert!(
        ok(&client, "get_tasks", json!({}))
            .await
            .ends_with("No tasks.")
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn env_and_default_dir_select_the_file_backend() {
    let home = tempfile::tempdir().unwrap();
    let env = [
        ("PLANNING_STORAGE_BACKEND", "file"),
        ("PLANNING_STORAGE_FSYNC", "false"),
    ];
    let client = stdio_client(&home, &[], &env).await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "kept"}]})).await;
    client.cancel().await.unwrap();
    let file = home.path().join(".planning-mcp-server/default.json");
    assert!(
        file.is_file(),
        "the default dir is relative to the working directory"
    );
    let client = stdio_client(&home, &[], &env).await;
    assert!(ok(&client, "get_tasks", json!({})).await.contains("kept"));
    client.cancel().await.unwrap();
}

async fn start_with(home: &tempfile::TempDir, store: &Path) -> Output {
    let child = common::command(home)
        .args(args(store))
        .stdin(std::process::Stdio::null())
        .output();
    common::within_hang("the binary's exit", child)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_bad_snapshot_stops_start_up_and_is_left_alone() {
    let cases: [(&str, &[u8], &str); 5] = [
        ("empty", b"", "the file is empty"),
        (
            "truncated",
            b"{\"format\": \"planning-mcp-server board\", \"version\": 1, \"goal\": nu",
            "it is truncated",
        ),
        ("corrupt", b"\x00\x01garbage", "it is not valid JSON"),
        (
            "foreign",
            b"{\"format\": \"something else\", \"version\": 1}",
            "it is not a planning-mcp-server board",
        ),
        (
            "future",
            b"{\"format\": \"planning-mcp-server board\", \"version\": 7}",
            "format version 7, written by a newer",
        ),
    ];
    for (case, bytes, expected) in cases {
        let home = tempfile::tempdir().unwrap();
        let store = home.path().join("store");
        std::fs::create_dir_all(&store).unwrap();
        let file = store.join("default.json");
        std::fs::write(&file, bytes).unwrap();
        let output = start_with(&home, &store).await;
        assert_eq!(output.status.code(), Some(1), "{case}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&file.display().to_string()),
            "{case}: {stderr}"
        );
        assert!(stderr.contains(expected), "{case}: {stderr}");
        assert!(output.stdout.is_empty(), "{case}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            bytes,
            "{case}: never overwritten"
        );
    }
}

#[tokio::test]
async fn two_processes_on_one_file_see_each_other_at_once() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = args(&store);
    let first = stdio_client(&home, &as_strs(&flags), &[]).await;
    let second = stdio_client(&home, &as_strs(&flags), &[]).await;
    ok(
        &first,
        "add_tasks",
        json!({"tasks": [{"title": "Write tests"}]}),
    )
    .await;
    assert!(
        ok(&second, "get_tasks", json!({}))
            .await
            .contains("[a46f8d35] Write tests")
    );
    ok(
        &second,
        "update_task_statuses",
        json!({"tasks": [{"task_id": "a46f8d35", "status": "completed"}]}),
    )
    .await;
    assert!(
        ok(&first, "get_tasks", json!({}))
            .await
            .contains("☑ [a46f8d35]")
    );
    // A change that depends on the other's state is checked against it.
    let (refused, text) = call(&first, "set_goal", json!({"title": "g", "description": ""})).await;
    assert!(!refused, "{text}");
    let (refused, text) = call(
        &second,
        "set_goal",
        json!({"title": "h", "description": ""}),
    )
    .await;
    assert!(
        refused && text.starts_with("A goal is already set"),
        "{text}"
    );
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

#[tokio::test]
async fn http_mode_keeps_its_board_across_restarts() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = args(&store);
    let mut server = HttpServer::start_in(&home, &as_strs(&flags), &[]).await;
    let client = server.client().await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "over http"}]}),
    )
    .await;
    client.cancel().await.unwrap();
    common::signal(server.pid(), "TERM");
    assert!(server.wait().await.success());
    let server = HttpServer::start_in(&home, &as_strs(&flags), &[]).await;
    let client = server.client().await;
    assert!(
        ok(&client, "get_tasks", json!({}))
            .await
            .contains("over http")
    );
    client.cancel().await.unwrap();
}

fn running_as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[tokio::test]
async fn a_read_only_directory_fails_the_call_and_changes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    std::fs::create_dir_all(&store).unwrap();
    let mut command = common::command(&home);
    if running_as_root() {
        // Permission bits do not stop root: run the server as nobody.
        command.uid(65534).gid(65534);
        chmod(home.path(), 0o755);
    }
    chmod(&store, 0o777);
    let flags = args(&store);
    let (client, _) = common::stdio_client_with_pid(command, &as_strs(&flags), &[]).await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "saved"}]})).await;
    let before = ok(&client, "get_tasks", json!({})).await;

    chmod(&store, 0o555);
    let (refused, text) = call(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "not saved"}]}),
    )
    .await;
    assert!(refused, "{text}");
    assert!(
        text.starts_with("Nothing changed: the board could not be saved (cannot save "),
        "{text}"
    );
    assert!(text.contains("Permission denied"), "{text}");
    let saved_id =
        planning_mcp_server::api::planning::TaskId::from_content("saved", "").to_string();
    let (refused, text) = call(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": saved_id, "status": "completed"}]}),
    )
    .await;
    assert!(refused && text.starts_with("Nothing changed"), "{text}");
    assert_eq!(
        ok(&client, "get_tasks", json!({})).await,
        before,
        "rolled back in memory"
    );

    chmod(&store, 0o777);
    let after = ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "saved later"}]}),
    )
    .await;
    assert!(
        after.contains("saved later") && !after.contains("not saved"),
        "{after}"
    );
    client.cancel().await.unwrap();
    let saved = std::fs::read_to_string(store.join("default.json")).unwrap();
    assert!(saved.contains("saved later") && !saved.contains("not saved"));
}
