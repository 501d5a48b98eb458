// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `postgres` backend attacked as a hostile user or a bad day would:
//! a replica whose clock runs 30 minutes ahead (leases go by the
//! database's clock), rows larger than a board may be (refused, never
//! read), a corrupt default board at a rolling restart (the replica
//! starts and refuses that board's calls), and TLS files that are a
//! device or a FIFO (refused at once, start-up never blocks).

use crate::common;
use crate::common::postgres::Cluster;
use crate::postgres::{env, on};
use crate::team::TEAM;

use common::{HttpServer, call, id, ok, stdio_client};
use serde_json::json;

#[tokio::test]
async fn a_replica_whose_clock_runs_ahead_does_not_end_a_lease_early() {
    let Some(cluster) = Cluster::start_or_skip("postgres skewed clock") else {
        return;
    };
    let url = cluster.database("skew");
    let dir = tempfile::tempdir().unwrap();
    let pairs = on(&url);
    let first = stdio_client(&dir, &TEAM, &env(&pairs)).await;
    ok(&first, "add_tasks", json!({"tasks": [{"title": "held"}]})).await;
    let claimed = ok(
        &first,
        "claim_task",
        json!({"agent": "sleepy", "task_id": id("held"), "lease_minutes": 1}),
    )
    .await;
    assert!(claimed.starts_with("Claimed by sleepy until "), "{claimed}");
    // A second replica whose own clock runs 30 minutes ahead (the
    // test-only clock setting shifts this process's clock alone).
    let mut ahead = on(&url);
    ahead.push(("PLANNING_TEST_CLOCK_OFFSET", "1800".to_owned()));
    let second = stdio_client(&dir, &TEAM, &env(&ahead)).await;
    let (refused, text) = call(
        &second,
        "claim_task",
        json!({"agent": "eager", "task_id": id("held")}),
    )
    .await;
    assert!(
        refused,
        "the lease ended early on the skewed replica: {text}"
    );
    assert!(text.contains("is held by sleepy"), "{text}");
    // Reads on it agree: the task is held, no lease ended.
    let board = ok(&second, "team_board", json!({})).await;
    assert!(!board.contains("Lease ended"), "{board}");
    assert!(board.contains("sleepy"), "{board}");
    let (refused, text) = call(&second, "claim_task", json!({"agent": "eager"})).await;
    assert!(refused, "{text}");
    // The holder's release still works: its lease is alive by the one clock.
    ok(
        &first,
        "release_task",
        json!({"agent": "sleepy", "task_id": id("held"), "status": "pending"}),
    )
    .await;
    // A lease taken on the skewed replica ends by the database's clock too:
    // the other replica sees it held for the whole minute, not 30 more.
    let claimed = ok(
        &second,
        "claim_task",
        json!({"agent": "eager", "task_id": id("held"), "lease_minutes": 1}),
    )
    .await;
    let until = claimed
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("Claimed by eager until "))
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("{claimed}"))
        .to_owned();
    // Whole seconds from the database's now to the lease's end: a minute
    // (less the time since the claim, and the claim's second rounded down).
    let left: i64 = cluster
        .psql(
            "skew",
            &format!("SELECT extract(epoch FROM '{until}'::timestamptz - now())::bigint"),
        )
        .parse()
        .unwrap();
    assert!(
        (30..=60).contains(&left),
        "the lease ends {left} s after the database's now ({until}), not about 60"
    );
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

#[tokio::test]
async fn rows_larger_than_a_board_may_be_are_refused_unread() {
    let Some(cluster) = Cluster::start_or_skip("postgres large rows") else {
        return;
    };
    let url = cluster.database("large");
    let dir = tempfile::tempdir().unwrap();
    let pairs = on(&url);
    let client = stdio_client(&dir, &[], &env(&pairs)).await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "kept"}]})).await;
    let done = json!({"tasks": [{"task_id": id("kept"), "status": "completed"}]});
    ok(&client, "update_task_statuses", done).await;
    client.cancel().await.unwrap();
    let expected =
        "more than the 67108864 a board may hold; they were not read and are left as they are";
    // A replica serving the board when its rows grow past the limit.
    let server = HttpServer::start(&[], &env(&pairs)).await;
    let served = server.client().await;
    ok(&served, "get_tasks", json!({})).await;
    // A history row past the limit (valid JSON all the same: trailing blanks).
    cluster.psql(
        "large",
        "UPDATE planning_history SET entry = entry || repeat(' ', 67108864) WHERE seq = 1",
    );
    // A server starting on it (stdio: its one board) stops, saying why.
    let (code, _, err) = common::run_binary(&dir, &[], &env(&pairs)).await;
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(expected), "{err}");
    cluster.psql("large", "UPDATE planning_history SET entry = rtrim(entry)");
    // The snapshot itself past the limit: the serving replica refuses its
    // calls, reads and changes alike.
    cluster.psql(
        "large",
        "UPDATE planning_boards SET snapshot = snapshot || repeat(' ', 67108864), revision = 3",
    );
    let (refused, text) = call(&served, "get_tasks", json!({})).await;
    assert!(refused && text.contains(expected), "{text}");
    let (refused, text) = call(&served, "add_tasks", json!({"tasks": [{"title": "no"}]})).await;
    assert!(refused && text.contains(expected), "{text}");
    served.cancel().await.unwrap();
    let (code, _, err) =
        common::run_binary(&dir, &["export", "--board", "default"], &env(&pairs)).await;
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(expected), "{err}");
    assert_eq!(
        cluster.psql("large", "SELECT revision FROM planning_boards"),
        "3",
        "nothing was written over it"
    );
}

#[tokio::test]
async fn a_corrupt_default_board_does_not_stop_a_replica_from_starting() {
    let Some(cluster) = Cluster::start_or_skip("postgres corrupt default board") else {
        return;
    };
    let url = cluster.database("corrupt");
    let pairs = on(&url);
    let first = HttpServer::start(&TEAM, &env(&pairs)).await;
    let client = first.client().await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "kept"}]})).await;
    let other = first.client_for("other").await;
    ok(
        &other,
        "add_tasks",
        json!({"tasks": [{"title": "elsewhere"}]}),
    )
    .await;
    client.cancel().await.unwrap();
    other.cancel().await.unwrap();
    drop(first);
    cluster.psql(
        "corrupt",
        "UPDATE planning_boards SET snapshot = '{\"format\": \"planning-mcp-server board\", \"version\": 1, broken' WHERE name = 'default'",
    );
    let before = cluster.psql(
        "corrupt",
        "SELECT revision, md5(snapshot) FROM planning_boards WHERE name = 'default'",
    );
    // The next replica (a rolling restart) starts, and says why the board
    // is refused; the other board serves.
    let second = HttpServer::start(&TEAM, &env(&pairs)).await;
    let logged = second.stderr.lock().join("\n");
    assert!(
        logged.contains("board default") && logged.contains("its snapshot is not usable"),
        "{logged}"
    );
    let other = second.client_for("other").await;
    let board = ok(&other, "get_tasks", json!({})).await;
    assert!(board.contains("elsewhere"), "{board}");
    ok(&other, "add_tasks", json!({"tasks": [{"title": "more"}]})).await;
    // The default board's calls are refused, clearly, and change nothing.
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "1"}}
    });
    let answer = common::post(&second.board_url("default"))
        .json(&initialize)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 500);
    let refusal = answer.text().await.unwrap();
    assert!(
        refusal.starts_with("board default cannot be opened: cannot load board default in the database: its snapshot is not usable"),
        "{refusal}"
    );
    assert!(
        !refusal.contains(crate::common::postgres::PASSWORD),
        "{refusal}"
    );
    assert_eq!(
        cluster.psql(
            "corrupt",
            "SELECT revision, md5(snapshot) FROM planning_boards WHERE name = 'default'",
        ),
        before,
        "the corrupt row is left as it is"
    );
    other.cancel().await.unwrap();
}

#[tokio::test]
async fn tls_files_that_are_a_device_or_a_fifo_are_refused_at_once() {
    let Some(cluster) = Cluster::start_or_skip("postgres TLS files") else {
        return;
    };
    cluster.database("files");
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("ca.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for (file, expected) in [
        (
            "/dev/zero".to_owned(),
            "cannot read sslrootcert /dev/zero: it is not a regular file but a device",
        ),
        (
            fifo.display().to_string(),
            "it is not a regular file but a FIFO",
        ),
    ] {
        let url = cluster.url_with(
            "files",
            "127.0.0.1",
            &format!("sslmode=verify-ca&sslrootcert={file}"),
        );
        let pairs = on(&url);
        // `run` waits at most the hang limit: start-up did not block.
        let (code, _, err) = common::run_binary(&dir, &[], &env(&pairs)).await;
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(expected), "expected {expected:?} in {err}");
    }
}
