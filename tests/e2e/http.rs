// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Streamable HTTP: shared sessions, HTTP hygiene, concurrency and shutdown,
//! against the real binary.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use common::{HttpServer, call, ok, signal};
use planning_mcp_server::api::planning::TaskId;
use serde_json::json;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

fn post(url: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
}

#[tokio::test]
async fn two_sessions_share_one_board() {
    let server = HttpServer::start(&[], &[]).await;
    let lead = server.client().await;
    let helper = server.client().await;
    ok(
        &lead,
        "set_goal",
        json!({"title": "Shared", "description": "one board"}),
    )
    .await;
    ok(
        &lead,
        "add_tasks",
        json!({"tasks": [{"title": "Write tests"}]}),
    )
    .await;
    let seen = ok(&helper, "get_tasks", json!({})).await;
    assert!(seen.contains("**Goal:** Shared: one board"), "{seen}");
    assert!(seen.contains("- ☐ [a46f8d35] Write tests"), "{seen}");
    ok(
        &helper,
        "update_task_statuses",
        json!({"tasks": [{"task_id": "a46f8d35", "status": "completed"}]}),
    )
    .await;
    let seen = ok(&lead, "get_tasks", json!({"status": "completed"})).await;
    assert!(seen.contains("- ☑ [a46f8d35] Write tests"), "{seen}");
    lead.cancel().await.unwrap();
    helper.cancel().await.unwrap();
}

#[tokio::test]
async fn a_foreign_origin_is_refused_and_a_loopback_one_allowed() {
    let server = HttpServer::start(&[], &[]).await;
    for origin in ["http://evil.example", "https://attacker.test:8080", "null"] {
        let response = post(&server.url)
            .header("origin", origin)
            .body(INITIALIZE)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 403, "{origin}");
    }
    for origin in [
        "http://localhost:3000",
        "http://127.0.0.1:6274",
        "http://[::1]:8080",
    ] {
        let response = post(&server.url)
            .header("origin", origin)
            .body(INITIALIZE)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{origin}");
    }
    let response = post(&server.url).body(INITIALIZE).send().await.unwrap();
    assert_eq!(response.status(), 200, "no Origin: not a browser, allowed");
}

#[tokio::test]
async fn a_foreign_host_header_is_refused() {
    let server = HttpServer::start(&[], &[]).await;
    let response = post(&server.url)
        .header("host", "rebound.example")
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
}

/// Sends `head` (a request line and headers, no body) to the server at
/// `address` on a new connection; the status of the answer.
async fn raw_status(address: &str, head: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = tokio::net::TcpStream::connect(address).await.unwrap();
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut answer = [0u8; 12];
    tcp.read_exact(&mut answer).await.unwrap();
    let answer = std::str::from_utf8(&answer).unwrap();
    answer["HTTP/1.1 ".len()..].parse().unwrap()
}

#[tokio::test]
async fn a_foreign_host_in_an_absolute_form_request_target_is_refused() {
    let server = HttpServer::start(&[], &[]).await;
    let address = server.base().trim_start_matches("http://").to_owned();
    let ours = format!("Host: {address}\r\nConnection: close\r\n\r\n");
    // The Host header is ours; the target names another host, which
    // HTTP/1.1 has a server use instead.
    for target in [
        "GET http://rebound.example/ HTTP/1.1",
        "GET http://rebound.example/boards/default.json HTTP/1.1",
        "DELETE http://rebound.example/mcp HTTP/1.1",
        "CONNECT rebound.example:443 HTTP/1.1",
    ] {
        let status = raw_status(&address, &format!("{target}\r\n{ours}")).await;
        assert_eq!(status, 403, "{target}");
    }
    // A target that names this server is served.
    let status = raw_status(
        &address,
        &format!("GET http://{address}/ HTTP/1.1\r\n{ours}"),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn bodies_over_one_mebibyte_get_413() {
    let server = HttpServer::start(&[], &[]).await;
    let padding = " ".repeat(1024 * 1024);
    let response = post(&server.url)
        .body(format!("{INITIALIZE}{padding}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 413);
    // Just under the limit is accepted.
    let padding = " ".repeat(1024 * 1024 - INITIALIZE.len() - 1);
    let response = post(&server.url)
        .body(format!("{INITIALIZE}{padding}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn other_paths_are_404() {
    let server = HttpServer::start(&[], &[]).await;
    let base = server.url.trim_end_matches("/mcp");
    for path in [
        "/nope",
        "/mcp2",
        "/boards/X/mcp",
        "/boards/-x/mcp",
        "/boards/a%2fb/mcp",
        "/boards//mcp",
    ] {
        let response = post(&format!("{base}{path}"))
            .body(INITIALIZE)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
}

/// Parses task lines `- {glyph} [{id}] {title}` of a task list.
fn tasks_of(list: &str) -> Vec<(char, String, String)> {
    list.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- ")?;
            let glyph = rest.chars().next()?;
            let rest = rest[glyph.len_utf8()..].strip_prefix(" [")?;
            let (id, title) = rest.split_once("] ")?;
            Some((glyph, id.to_owned(), title.to_owned()))
        })
        .collect()
}

const CLIENTS: usize = 16;
const TASKS_PER_CLIENT: usize = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_concurrent_clients_get_linearizable_results() {
    let server = HttpServer::start(&[], &[("PLANNING_PLANNING_MAX_TASKS", "1000")]).await;
    let mut clients = Vec::new();
    for _ in 0..CLIENTS {
        clients.push(server.client().await);
    }
    let mut workers = Vec::new();
    for (c, client) in clients.into_iter().enumerate() {
        workers.push(tokio::spawn(async move {
            let mut calls = 0;
            // Everyone races to set the goal and to add the same shared task.
            let (goal_refused, _) = call(
                &client,
                "set_goal",
                json!({"title": format!("goal {c}"), "description": ""}),
            )
            .await;
            ok(
                &client,
                "add_tasks",
                json!({"tasks": [{"title": "shared"}]}),
            )
            .await;
            calls += 2;
            let titles: Vec<String> = (0..TASKS_PER_CLIENT)
                .map(|t| format!("c{c} t{t}"))
                .collect();
            for title in &titles {
                ok(&client, "add_tasks", json!({"tasks": [{"title": title}]})).await;
                ok(&client, "get_tasks", json!({})).await;
                calls += 2;
            }
            let id = common::id;
            for (t, title) in titles.iter().enumerate() {
                let status = ["in_progress", "completed", "failed"][t % 3];
                ok(
                    &client,
                    "update_task_statuses",
                    json!({"tasks": [{"task_id": id(title), "status": status}]}),
                )
                .await;
                ok(
                    &client,
                    "update_task_statuses",
                    json!({"tasks": [{"task_id": id("shared"), "status": status}]}),
                )
                .await;
                calls += 2;
            }
            ok(
                &client,
                "modify_task",
                json!({"task_id": id(&titles[0]), "description": "reworded"}),
            )
            .await;
            ok(
                &client,
                "delete_tasks",
                json!({"task_ids": [id(&titles[1])]}),
            )
            .await;
            let (refused, text) = call(
                &client,
                "delete_tasks",
                json!({"task_ids": [id(&titles[1])]}),
            )
            .await;
            assert!(refused && text.starts_with("No task has the ID"), "{text}");
            calls += 3;
            client.cancel().await.unwrap();
            (c, !goal_refused, calls)
        }));
    }
    let mut goal_setters = Vec::new();
    let mut total_calls = 0;
    for worker in workers {
        let (c, set_goal, calls) = worker.await.unwrap();
        if set_goal {
            goal_setters.push(c);
        }
        total_calls += calls;
    }
    assert!(total_calls >= 400, "{total_calls} calls");
    assert_eq!(
        goal_setters.len(),
        1,
        "exactly one set_goal wins: {goal_setters:?}"
    );

    let observer = server.client().await;
    let list = ok(&observer, "get_tasks", json!({})).await;
    assert!(
        list.starts_with(&format!("**Goal:** goal {}", goal_setters[0])),
        "{list}"
    );
    let tasks = tasks_of(&list);
    let mut expected = BTreeMap::new();
    for c in 0..CLIENTS {
        for t in 0..TASKS_PER_CLIENT {
            let glyph = ['⟳', '☑', '☒'][t % 3];
            let (title, description) = match t {
                0 => (format!("c{c} t0"), "reworded"),
                1 => continue,
                _ => (format!("c{c} t{t}"), ""),
            };
            let shown = if description.is_empty() {
                title.clone()
            } else {
                format!("{title}: {description}")
            };
            expected.insert(
                TaskId::from_content(&title, description).to_string(),
                (glyph, shown),
            );
        }
    }
    let shared = tasks
        .iter()
        .filter(|(_, _, title)| title == "shared")
        .count();
    assert_eq!(shared, 1, "the shared task was added once");
    let actual: BTreeMap<String, (char, String)> = tasks
        .iter()
        .filter(|(_, _, title)| title != "shared")
        .map(|(glyph, id, title)| (id.clone(), (*glyph, title.clone())))
        .collect();
    assert_eq!(actual, expected);
    // The shared task ends with a status some client set last.
    let shared_glyph = tasks.iter().find(|t| t.2 == "shared").unwrap().0;
    assert!(['⟳', '☑', '☒'].contains(&shared_glyph));
    // Each client's tasks keep their creation order.
    for c in 0..CLIENTS {
        let positions: Vec<usize> = tasks
            .iter()
            .filter_map(|(_, _, title)| title.strip_prefix(&format!("c{c} t")))
            .map(|rest| rest.split(':').next().unwrap().parse().unwrap())
            .collect();
        let mut sorted = positions.clone();
        sorted.sort();
        assert_eq!(positions, sorted, "client {c}");
    }
    let distinct: BTreeSet<&String> = tasks.iter().map(|t| &t.1).collect();
    assert_eq!(distinct.len(), tasks.len(), "no duplicate IDs");
    observer.cancel().await.unwrap();
}

/// SIGTERM or SIGINT while eight sessions add tasks to a file store: the
/// server exits cleanly, no call hangs, and every call it acknowledged is
/// in the file when it starts again. The signal comes after a count of
/// acknowledged calls, not after a delay.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigterm_stops_the_server_gracefully_with_sessions_open() {
    const ACKNOWLEDGED_BEFORE_THE_SIGNAL: usize = 16;
    for sig in ["TERM", "INT"] {
        let home = tempfile::tempdir().unwrap();
        let flags = common::file_storage(&home.path().join("store"));
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        let env = [("PLANNING_PLANNING_MAX_TASKS", "5000")];
        let mut server = HttpServer::start_in(&home, &flags, &env).await;
        let acknowledged = Arc::new(parking_lot::Mutex::new(Vec::new()));
        let enough = Arc::new(tokio::sync::Notify::new());
        let mut callers = Vec::new();
        for n in 0..8 {
            let client = server.client().await;
            let (acknowledged, enough) = (acknowledged.clone(), enough.clone());
            callers.push(tokio::spawn(async move {
                for m in 0..200 {
                    let title = format!("{n}-{m}");
                    let mut params = rmcp::model::CallToolRequestParams::new("add_tasks");
                    params = params.with_arguments(
                        json!({"tasks": [{"title": title}]})
                            .as_object()
                            .unwrap()
                            .clone(),
                    );
                    // Calls in flight when the signal arrives either
                    // complete or fail cleanly at the transport.
                    let Ok(result) = client.call_tool(params).await else {
                        break;
                    };
                    assert_ne!(result.is_error, Some(true), "{result:?}");
                    let mut acknowledged = acknowledged.lock();
                    acknowledged.push(title);
                    if acknowledged.len() == ACKNOWLEDGED_BEFORE_THE_SIGNAL {
                        enough.notify_one();
                    }
                }
            }));
        }
        enough.notified().await;
        signal(server.pid(), sig);
        let status = server.wait().await;
        assert!(status.success(), "SIG{sig}: {status:?}");
        for caller in callers {
            common::within_hang("the caller's end", caller)
                .await
                .unwrap();
        }
        assert!(
            server
                .stderr
                .lock()
                .iter()
                .any(|line| line.contains("shutting down")),
            "{:?}",
            server.stderr.lock()
        );

        let server = HttpServer::start_in(&home, &flags, &env).await;
        let client = server.client().await;
        let tasks = ok(&client, "get_tasks", json!({})).await;
        let acknowledged = acknowledged.lock().clone();
        assert!(acknowledged.len() >= ACKNOWLEDGED_BEFORE_THE_SIGNAL);
        for title in &acknowledged {
            assert!(
                tasks.contains(&format!("] {title}\n")),
                "SIG{sig}: {title} lost"
            );
        }
        client.cancel().await.unwrap();
    }
}

/// The events of an SSE body: its blocks between empty lines, without the
/// comment-only ones (keep-alives).
fn sse_events(body: &str) -> Vec<Vec<&str>> {
    body.split("\n\n")
        .map(|event| {
            event
                .lines()
                .filter(|l| !l.starts_with(':'))
                .collect::<Vec<_>>()
        })
        .filter(|lines| !lines.is_empty())
        .collect()
}

/// Asserts that every event of `body` starts with `event: message` and
/// names its type once, and returns the JSON-RPC messages it carries.
fn named_messages(body: &str) -> Vec<serde_json::Value> {
    let events = sse_events(body);
    assert!(!events.is_empty(), "no event: {body:?}");
    let mut messages = Vec::new();
    for event in events {
        assert_eq!(event[0], "event: message", "{body:?}");
        let types = event.iter().filter(|l| l.starts_with("event:")).count();
        assert_eq!(types, 1, "{body:?}");
        for data in event.iter().filter_map(|l| l.strip_prefix("data: ")) {
            if !data.is_empty() {
                messages.push(serde_json::from_str(data).unwrap());
            }
        }
    }
    messages
}

#[tokio::test]
async fn every_event_of_the_mcp_endpoint_is_named_message() {
    let server = HttpServer::start(&[], &[]).await;
    // Protocol 2025-11-25: rmcp starts each stream with a priming event (an
    // ID and an empty data line), which gets the line too.
    let initialize = INITIALIZE.replace("2025-06-18", "2025-11-25");
    let response = post(&server.url).body(initialize).send().await.unwrap();
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let body = response.text().await.unwrap();
    assert!(body.contains("event: message\ndata: \nid: "), "{body:?}");
    let messages = named_messages(&body);
    assert_eq!(messages.len(), 1, "{body:?}");
    assert_eq!(
        messages[0]["result"]["serverInfo"]["name"],
        "planning-mcp-server"
    );

    let with_session = |body: String| {
        post(&server.url)
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
            .body(body)
    };
    let initialized =
        with_session(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into());
    assert!(initialized.send().await.unwrap().status().is_success());
    let calls = [
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "add_tasks", "arguments": {"tasks": [{"title": "Named"}]}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "no/such/method"}),
    ];
    for call in calls {
        let id = call["id"].clone();
        let body = with_session(call.to_string())
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let messages = named_messages(&body);
        let reply = messages.iter().find(|m| m["id"] == id).expect("the reply");
        assert!(
            reply.get("result").is_some() || reply.get("error").is_some(),
            "{body}"
        );
    }
}
