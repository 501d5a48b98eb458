// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The session cap (`server.max_sessions`, 256 by default) counts sessions,
//! not requests: a POST whose body has not arrived holds a connection only,
//! and the cap is exact when many `initialize` requests arrive at once.
//! `DELETE` ends a live session with 204 and answers 404 for an unknown one.

use std::sync::Arc;
use std::time::Duration;

use crate::common::{HttpServer, INITIALIZE, ok, post};
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::Barrier;

/// The server's debug line for each POST it starts reading that may open a session.
const READING: &str = "reading a request that may open a session";

/// Waits until the server's stderr holds `count` lines containing `text`.
async fn wait_for_lines(server: &HttpServer, text: &str, count: usize) {
    let seen = || {
        server
            .stderr
            .lock()
            .iter()
            .filter(|l| l.contains(text))
            .count()
    };
    tokio::time::timeout(Duration::from_secs(120), async {
        while seen() < count {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("the server saw {} of {count} requests", seen()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_initialize_bodies_hold_no_session() {
    const STALLED: usize = 300;
    let server = HttpServer::start(&["--log-level", "debug"], &[]).await;
    let address = server.base().trim_start_matches("http://").to_owned();
    let partial = &INITIALIZE[..INITIALIZE.len() / 2];
    let mut stalled = Vec::with_capacity(STALLED);
    for _ in 0..STALLED {
        let mut connection = TcpStream::connect(&address).await.unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{partial}",
            INITIALIZE.len()
        );
        connection.write_all(head.as_bytes()).await.unwrap();
        stalled.push(connection);
    }
    // Every stalled request has reached the handler, more than max_sessions.
    wait_for_lines(&server, READING, STALLED).await;

    let client = server.client().await;
    let reply = ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "still served"}]}),
    )
    .await;
    assert!(reply.contains("still served"), "{reply}");
    client.cancel().await.unwrap();
    drop(stalled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exactly_max_sessions_of_many_simultaneous_initialize_requests_succeed() {
    const REQUESTS: usize = 400;
    const MAX_SESSIONS: usize = 256;
    let server = HttpServer::start(&[], &[]).await;
    let url = server.url.clone();
    let start = Arc::new(Barrier::new(REQUESTS));
    let mut requests = Vec::with_capacity(REQUESTS);
    for _ in 0..REQUESTS {
        let (url, start) = (url.clone(), start.clone());
        requests.push(tokio::spawn(async move {
            let request = post(&url).body(INITIALIZE);
            start.wait().await;
            let response = request.send().await.unwrap();
            let status = response.status();
            let session = response
                .headers()
                .get("mcp-session-id")
                .map(|id| id.to_str().unwrap().to_owned());
            let _ = response.bytes().await;
            (status, session)
        }));
    }
    let mut opened = Vec::new();
    let mut refused = 0;
    for request in requests {
        match request.await.unwrap() {
            (status, Some(session)) if status.is_success() => opened.push(session),
            (status, _) => {
                assert_eq!(status, reqwest::StatusCode::SERVICE_UNAVAILABLE);
                refused += 1;
            }
        }
    }
    opened.sort();
    opened.dedup();
    assert_eq!(opened.len(), MAX_SESSIONS, "exactly max_sessions sessions");
    assert_eq!(refused, REQUESTS - MAX_SESSIONS);
    // The cap is full: one more is refused until a session ends.
    let response = post(&url).body(INITIALIZE).send().await.unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
    let closed = reqwest::Client::new()
        .delete(&url)
        .header("mcp-session-id", &opened[0])
        .send()
        .await
        .unwrap();
    assert!(closed.status().is_success(), "{}", closed.status());
    let response = post(&url).body(INITIALIZE).send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
}

/// Opens a session at `url` with a raw `initialize`; its ID.
async fn open_session(url: &str) -> String {
    let response = post(url).body(INITIALIZE).send().await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    let id = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let _ = response.bytes().await;
    id
}

/// `DELETE url` of session `id` (no header when `None`), as the MCP SDKs send it.
async fn delete(url: &str, id: Option<&str>) -> (u16, String) {
    let request = reqwest::Client::new()
        .delete(url)
        .header("mcp-protocol-version", "2025-06-18");
    let request = match id {
        Some(id) => request.header("mcp-session-id", id),
        None => request,
    };
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test]
async fn delete_ends_a_live_session_with_204_and_an_unknown_one_is_404() {
    let server = HttpServer::start(&[], &[]).await;
    let id = open_session(&server.url).await;
    // The Python SDK takes 200 or 204 as success, anything else as a failure.
    assert_eq!(delete(&server.url, Some(&id)).await, (204, String::new()));
    let gone = (404, "Not Found: Session not found\n".to_owned());
    assert_eq!(delete(&server.url, Some(&id)).await, gone, "closed already");
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let after = post(&server.url)
        .header("mcp-session-id", &id)
        .header("mcp-protocol-version", "2025-06-18")
        .body(list)
        .send()
        .await
        .unwrap();
    assert_eq!(after.status(), 404, "the session is closed");
    assert_eq!(delete(&server.url, Some("no-such-session")).await, gone);
    assert_eq!(
        delete(&server.url, None).await,
        (400, "Bad Request: Session ID is required\n".into())
    );
    // A session of one board is unknown on another, and a DELETE opens no board.
    let on_a = open_session(&server.board_url("a")).await;
    assert_eq!(delete(&server.url, Some(&on_a)).await, gone);
    assert_eq!(delete(&server.board_url("never"), Some(&on_a)).await, gone);
    let never = reqwest::get(format!("{}/boards/never.json", server.base()))
        .await
        .unwrap();
    assert_eq!(never.status(), 404);
    assert_eq!(delete(&server.board_url("a"), Some(&on_a)).await.0, 204);
    // The rmcp client's own close takes the 204 as success.
    let client = server.client().await;
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn of_two_simultaneous_deletes_of_a_session_exactly_one_ends_it() {
    const SESSIONS: usize = 16;
    let server = HttpServer::start(&[], &[]).await;
    for _ in 0..SESSIONS {
        let id = open_session(&server.url).await;
        let start = Arc::new(Barrier::new(2));
        let racers: Vec<_> = (0..2)
            .map(|_| {
                let (url, id, start) = (server.url.clone(), id.clone(), start.clone());
                tokio::spawn(async move {
                    start.wait().await;
                    delete(&url, Some(&id)).await.0
                })
            })
            .collect();
        let mut statuses = Vec::new();
        for racer in racers {
            statuses.push(racer.await.unwrap());
        }
        statuses.sort_unstable();
        assert_eq!(statuses, [204, 404]);
    }
}
