// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! HTTP for shared sessions: named boards, access control, board resources
//! with change notifications, and limits, against the real binary. Each
//! test waits for events (a notification, the listening line, an exit, a
//! freed slot), never for a fixed time.

// resources/subscribe is deprecated in rmcp for protocol 2026-07-28, but it is
// what 2025-x clients use, and the server supports both.
#![allow(deprecated)]

use crate::common;

use std::process::Stdio;

use common::{HttpServer, INITIALIZE, ok, post, within_hang};
use rmcp::model::{
    ProtocolVersion, ReadResourceRequestParams, ResourceUpdatedNotificationParam,
    SubscribeRequestParams, SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, ServiceExt};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;

/// A client that forwards `notifications/resources/updated` to a channel.
#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<String>);

impl ClientHandler for Watcher {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }
}

async fn watcher(
    url: &str,
) -> (
    RunningService<RoleClient, Watcher>,
    mpsc::UnboundedReceiver<String>,
) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let client = Watcher(sender)
        .serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .expect("initialize");
    (client, receiver)
}

async fn next_update(updates: &mut mpsc::UnboundedReceiver<String>) -> String {
    within_hang("a resources/updated notification", updates.recv())
        .await
        .expect("the channel is open")
}

/// Makes a change on the default board through `client` and requires
/// that the next notification is the one it causes. What must not notify
/// has no event to wait for: anything sent before this barrier shows as
/// the wrong next notification. (That a refused call or another board's
/// change wakes no watcher at all is a unit test of the boards.)
async fn barrier(
    client: &common::Client,
    updates: &mut mpsc::UnboundedReceiver<String>,
    title: &str,
) {
    ok(client, "add_tasks", json!({"tasks": [{"title": title}]})).await;
    assert_eq!(
        next_update(updates).await,
        "board://default",
        "the barrier's notification comes next: nothing came before it"
    );
}

async fn connect(url: &str) -> common::Client {
    ().serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .expect("initialize")
}

#[tokio::test]
async fn named_boards_are_isolated() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let server = HttpServer::start_in(&home, &args, &[]).await;
    let alpha = connect(&server.board_url("alpha")).await;
    let beta = connect(&server.board_url("beta")).await;
    let default = server.client().await;
    ok(
        &alpha,
        "set_goal",
        json!({"title": "Alpha", "description": ""}),
    )
    .await;
    ok(
        &alpha,
        "add_tasks",
        json!({"tasks": [{"title": "only on alpha"}]}),
    )
    .await;
    let on_beta = ok(&beta, "get_tasks", json!({})).await;
    assert_eq!(on_beta, "**Goal:** not set (use set_goal)\n\nNo tasks.");
    assert_eq!(ok(&default, "get_tasks", json!({})).await, on_beta);
    ok(
        &beta,
        "set_goal",
        json!({"title": "Beta", "description": ""}),
    )
    .await;
    assert!(
        ok(&alpha, "get_tasks", json!({}))
            .await
            .starts_with("**Goal:** Alpha")
    );
    // /boards/default/mcp is /mcp.
    let default_again = connect(&server.board_url("default")).await;
    ok(
        &default_again,
        "add_tasks",
        json!({"tasks": [{"title": "on default"}]}),
    )
    .await;
    assert!(
        ok(&default, "get_tasks", json!({}))
            .await
            .contains("on default")
    );
    for client in [alpha, beta, default, default_again] {
        client.cancel().await.unwrap();
    }
    for name in ["alpha", "beta", "default"] {
        assert!(store.join(format!("{name}.json")).is_file(), "{name}.json");
    }
}

#[tokio::test]
async fn the_board_limit_refuses_new_boards_with_503() {
    // The default board, open but unused and empty, makes room for "one";
    // "one", in use, keeps "two" out.
    let server = HttpServer::start(&[], &[("PLANNING_SERVER_MAX_BOARDS", "1")]).await;
    let one = connect(&server.board_url("one")).await;
    let response = post(&server.board_url("two"))
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    assert!(response.text().await.unwrap().contains("max_boards"));
    ok(&one, "get_tasks", json!({})).await;
    one.cancel().await.unwrap();
}

#[tokio::test]
async fn stdio_serves_the_board_it_is_given() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let mut flags = common::file_storage(&store);
    flags.extend(["--board".into(), "side-project".into()]);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let client = common::stdio_client(&home, &args, &[]).await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "x"}]})).await;
    client.cancel().await.unwrap();
    assert!(store.join("side-project.json").is_file());
    assert!(!store.join("default.json").exists());

    let (code, stderr) = exit_of(&[], &[("PLANNING_SERVER_BOARD", "../Bad")]).await;
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains(
            "server.board (from the environment variable PLANNING_SERVER_BOARD): must match"
        ),
        "{stderr}"
    );
}

const TOKEN: &str = "correct horse battery staple";

#[tokio::test]
async fn a_token_is_required_when_configured() {
    let server = HttpServer::start(
        &["--log-level", "debug"],
        &[("PLANNING_SERVER_AUTH_TOKEN", TOKEN)],
    )
    .await;
    let missing = post(&server.url).body(INITIALIZE).send().await.unwrap();
    assert_eq!(missing.status(), 401);
    assert_eq!(
        missing.headers()["www-authenticate"],
        r#"Bearer realm="planning-mcp-server""#
    );
    let wrong = post(&server.url)
        .bearer_auth("guess")
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    assert!(
        wrong.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .contains("invalid_token")
    );
    let named = post(&server.board_url("x"))
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(named.status(), 401, "every endpoint");

    let config =
        StreamableHttpClientTransportConfig::with_uri(server.url.clone()).auth_header(TOKEN);
    let client =
        ().serve(StreamableHttpClientTransport::from_config(config))
            .await
            .expect("the right token works");
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "authorised"}]}),
    )
    .await;
    client.cancel().await.unwrap();
    let logs = server.stderr.lock().join("\n");
    assert!(
        !logs.contains("horse"),
        "the token is never logged:\n{logs}"
    );
}

#[tokio::test]
async fn the_token_can_come_from_a_file() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("token"), format!("{TOKEN}\n")).unwrap();
    let file = home.path().join("token").display().to_string();
    let server =
        HttpServer::start_in(&home, &[], &[("PLANNING_SERVER_AUTH_TOKEN_FILE", &file)]).await;
    assert_eq!(
        post(&server.url)
            .body(INITIALIZE)
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    let right = post(&server.url)
        .bearer_auth(TOKEN)
        .body(INITIALIZE)
        .send()
        .await
        .unwrap();
    assert_eq!(right.status(), 200);
}

/// Runs the binary until it exits (its exit code and stderr) or writes
/// its listening line (`None` and the stderr so far; it is killed then).
async fn exit_of(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let home = tempfile::tempdir().unwrap();
    let mut child = common::command(&home)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    within_hang("the server's exit or its listening line", async move {
        let mut stderr = String::new();
        while let Some(line) = lines.next_line().await.unwrap() {
            stderr.push_str(&line);
            stderr.push('\n');
            if common::listening_url(&line).is_some() {
                child.kill().await.unwrap();
                return (None, stderr);
            }
        }
        (child.wait().await.unwrap().code(), stderr)
    })
    .await
}

#[tokio::test]
async fn a_public_address_needs_a_token_or_an_explicit_opt_out() {
    let public = ["--mode", "http", "--host", "0.0.0.0", "--port", "0"];
    let (code, stderr) = exit_of(&public, &[]).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("refusing to serve HTTP on 0.0.0.0:"),
        "{stderr}"
    );
    assert!(stderr.contains("PLANNING_SERVER_AUTH_TOKEN"), "{stderr}");
    assert!(stderr.contains("allow_unauthenticated"), "{stderr}");
    let (code, stderr) = exit_of(&public, &[("PLANNING_SERVER_AUTH_TOKEN", TOKEN)]).await;
    assert_eq!(code, None, "listens with a token: {stderr}");
    let (code, stderr) = exit_of(
        &public,
        &[("PLANNING_SERVER_ALLOW_UNAUTHENTICATED", "true")],
    )
    .await;
    assert_eq!(code, None, "listens when explicitly allowed: {stderr}");
}

#[tokio::test]
async fn allowed_hosts_and_origins_extend_the_loopback_defaults() {
    let server = HttpServer::start(
        &[],
        &[
            ("PLANNING_SERVER_ALLOWED_HOSTS", "[planning.example]"),
            (
                "PLANNING_SERVER_ALLOWED_ORIGINS",
                "[https://plan.example.com]",
            ),
        ],
    )
    .await;
    let port = server
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches("/mcp")
        .to_owned();
    let with_host = |host: String| {
        post(&server.url)
            .header("host", host)
            .body(INITIALIZE)
            .send()
    };
    assert_eq!(
        with_host(format!("planning.example:{port}"))
            .await
            .unwrap()
            .status(),
        200
    );
    assert_eq!(
        with_host(format!("elsewhere.example:{port}"))
            .await
            .unwrap()
            .status(),
        403
    );
    let with_origin = |origin: &'static str| {
        post(&server.url)
            .header("origin", origin)
            .body(INITIALIZE)
            .send()
    };
    assert_eq!(
        with_origin("https://plan.example.com")
            .await
            .unwrap()
            .status(),
        200
    );
    assert_eq!(
        with_origin("https://other.example.com")
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(
        with_origin("http://localhost:5173").await.unwrap().status(),
        200
    );
}

#[tokio::test]
async fn resources_show_the_board_and_a_bounded_summary() {
    let server = HttpServer::start(&[], &[("PLANNING_PLANNING_MAX_TASKS", "1000")]).await;
    let client = server.client().await;
    let listed: Vec<String> = client
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.uri.clone())
        .collect();
    assert_eq!(
        listed,
        [
            "board://default",
            "board://default/summary",
            "skill://planning-board/SKILL.md"
        ]
    );
    ok(
        &client,
        "set_goal",
        json!({"title": "Big", "description": "a thousand tasks"}),
    )
    .await;
    let tasks: Vec<_> = (0..1000).map(|n| json!({"title": format!("task number {n} with a fairly long title to fill the summary")})).collect();
    ok(&client, "add_tasks", json!({"tasks": tasks})).await;
    let read = |uri: &str| {
        let client = &client;
        let uri = uri.to_owned();
        async move {
            let result = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .unwrap();
            match &result.contents[0] {
                rmcp::model::ResourceContents::TextResourceContents {
                    text, mime_type, ..
                } => {
                    assert_eq!(mime_type.as_deref(), Some("text/markdown"));
                    text.clone()
                }
                other => panic!("{other:?}"),
            }
        }
    };
    assert_eq!(
        read("board://default").await,
        ok(&client, "get_tasks", json!({})).await
    );
    let summary = read("board://default/summary").await;
    assert!(
        summary.chars().count() <= 1500,
        "{} characters",
        summary.chars().count()
    );
    assert!(
        summary.contains("**Goal:** Big: a thousand tasks"),
        "{summary}"
    );
    assert!(summary.contains("Tasks: 1000 (1000 pending"), "{summary}");
    assert!(summary.contains("… and 995 more"), "{summary}");
    let foreign = client
        .read_resource(ReadResourceRequestParams::new("board://other"))
        .await;
    assert!(
        foreign.is_err(),
        "another board's resources are not this session's"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn subscribers_hear_of_other_sessions_changes() {
    let server = HttpServer::start(&[], &[]).await;
    let (watching, mut updates) = watcher(&server.url).await;
    watching
        .subscribe(SubscribeRequestParams::new("board://default"))
        .await
        .unwrap();
    watching
        .subscribe(SubscribeRequestParams::new("board://default/summary"))
        .await
        .unwrap();
    // A skill's file is a resource too: the subscription is accepted, and
    // since the file never changes, never heard of (the barriers below).
    watching
        .subscribe(SubscribeRequestParams::new(
            "skill://planning-board/SKILL.md",
        ))
        .await
        .unwrap();
    let other = server.client().await;
    ok(&other, "add_tasks", json!({"tasks": [{"title": "news"}]})).await;
    let mut heard = vec![
        next_update(&mut updates).await,
        next_update(&mut updates).await,
    ];
    heard.sort();
    assert_eq!(heard, ["board://default", "board://default/summary"]);
    // A refused call changes nothing and notifies nobody: the summary,
    // still subscribed, would be heard before the next change's.
    let (refused, _) =
        common::call(&other, "delete_tasks", json!({"task_ids": ["00000000"]})).await;
    assert!(refused);
    watching
        .unsubscribe(rmcp::model::UnsubscribeRequestParams::new(
            "board://default/summary",
        ))
        .await
        .unwrap();
    ok(
        &other,
        "update_task_statuses",
        json!({"tasks": [{"task_id": common::id("news"), "status": "completed"}]}),
    )
    .await;
    assert_eq!(next_update(&mut updates).await, "board://default");
    // Nothing else: the summary was unsubscribed.
    barrier(&other, &mut updates, "first barrier").await;
    // Another board's changes are not this board's.
    let elsewhere = connect(&server.board_url("elsewhere")).await;
    ok(
        &elsewhere,
        "add_tasks",
        json!({"tasks": [{"title": "not here"}]}),
    )
    .await;
    barrier(&other, &mut updates, "second barrier").await;
    let here = ok(&other, "get_tasks", json!({})).await;
    assert!(!here.contains("not here"), "{here}");
    let refused = watching
        .subscribe(SubscribeRequestParams::new("board://elsewhere"))
        .await;
    assert!(refused.is_err());
    for client in [other, elsewhere] {
        client.cancel().await.unwrap();
    }
    watching.cancel().await.unwrap();
}

#[tokio::test]
async fn subscriptions_listen_works_for_protocol_2026() {
    let server = HttpServer::start(&[], &[]).await;
    let modern = ()
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_uri(server.url.clone()),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("discover");
    let filter = SubscriptionFilter::builder()
        .resource_subscription("board://default/summary")
        .resource_subscription("board://elsewhere")
        .build();
    let mut subscription = modern.listen(filter).await.expect("listen");
    assert_eq!(
        subscription
            .acknowledged()
            .resource_subscriptions
            .as_deref(),
        Some(&["board://default/summary".to_owned()][..])
    );
    let other = server.client().await;
    ok(
        &other,
        "add_tasks",
        json!({"tasks": [{"title": "modern news"}]}),
    )
    .await;
    let notification = within_hang("a notification", subscription.next())
        .await
        .unwrap()
        .expect("a notification");
    let text = serde_json::to_string(&notification).unwrap();
    assert!(text.contains("board://default/summary"), "{text}");
    other.cancel().await.unwrap();
}

#[tokio::test]
async fn another_process_changing_the_file_notifies_subscribers() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let flags = common::file_storage(&store);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let server = HttpServer::start_in(&home, &args, &[]).await;
    let (watching, mut updates) = watcher(&server.url).await;
    watching
        .subscribe(SubscribeRequestParams::new("board://default"))
        .await
        .unwrap();
    // A second, separate process (a stdio server) on the same board file.
    let other_process = common::stdio_client(&home, &args, &[]).await;
    ok(
        &other_process,
        "add_tasks",
        json!({"tasks": [{"title": "from the other process"}]}),
    )
    .await;
    assert_eq!(next_update(&mut updates).await, "board://default");
    let text = common::ok(&server.client().await, "get_tasks", json!({})).await;
    assert!(text.contains("from the other process"), "{text}");
    other_process.cancel().await.unwrap();
    watching.cancel().await.unwrap();
}

#[tokio::test]
async fn the_session_cap_answers_503_and_frees_slots() {
    let server = HttpServer::start(&[], &[("PLANNING_SERVER_MAX_SESSIONS", "2")]).await;
    let first = server.client().await;
    let second = server.client().await;
    let third = post(&server.url).body(INITIALIZE).send().await.unwrap();
    assert_eq!(third.status(), 503);
    assert!(third.text().await.unwrap().contains("max_sessions"));
    // Calls on open sessions still work.
    ok(&first, "get_tasks", json!({})).await;
    second.cancel().await.unwrap(); // DELETE ends the session
    common::eventually("a closed session frees its slot", || async {
        let response = post(&server.url).body(INITIALIZE).send().await.unwrap();
        match response.status().as_u16() {
            200 => Some(()),
            503 => None,
            other => panic!("unexpected status {other}"),
        }
    })
    .await;
    first.cancel().await.unwrap();
}

/// The idle timer is rmcp's own and runs on the real clock; a request on
/// the session would restart it. So the test watches the session count
/// instead: with room for one session, a new `initialize` is refused (503,
/// touching no session) while the idle one lives and accepted once it
/// expired. Without the 1 s timeout (the default is 30 minutes) the wait
/// hangs and fails.
#[tokio::test]
async fn idle_sessions_expire() {
    let server = HttpServer::start(
        &[],
        &[
            ("PLANNING_SERVER_SESSION_IDLE_TIMEOUT", "1"),
            ("PLANNING_SERVER_MAX_SESSIONS", "1"),
        ],
    )
    .await;
    let response = post(&server.url).body(INITIALIZE).send().await.unwrap();
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let again = |session: String| {
        post(&server.url)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-06-18")
            .body(list)
            .send()
    };
    assert_eq!(again(session.clone()).await.unwrap().status(), 200);
    common::eventually("the idle session expires and frees its slot", || async {
        let response = post(&server.url).body(INITIALIZE).send().await.unwrap();
        match response.status().as_u16() {
            200 => Some(()),
            503 => None,
            other => panic!("unexpected status {other}"),
        }
    })
    .await;
    assert_eq!(again(session).await.unwrap().status(), 404, "expired");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_of_new_sessions_degrades_to_503_not_a_crash() {
    let server = HttpServer::start(&[], &[("PLANNING_SERVER_MAX_SESSIONS", "20")]).await;
    let mut floods = Vec::new();
    for _ in 0..200 {
        let url = server.url.clone();
        floods.push(tokio::spawn(async move {
            post(&url)
                .body(INITIALIZE)
                .send()
                .await
                .map(|r| r.status().as_u16())
        }));
    }
    let mut statuses = std::collections::BTreeMap::new();
    for flood in floods {
        let status = flood.await.unwrap().expect("every request is answered");
        *statuses.entry(status).or_insert(0) += 1;
    }
    assert_eq!(
        statuses.keys().copied().collect::<Vec<u16>>(),
        [200, 503],
        "{statuses:?}"
    );
    // Under contention the cap counts conservatively, so the flood may open
    // fewer than 20; opening more one by one stops at exactly 20.
    let mut created = statuses[&200];
    assert!(
        created <= 20,
        "never more sessions than the cap: {statuses:?}"
    );
    loop {
        let response = post(&server.url).body(INITIALIZE).send().await.unwrap();
        match response.status().as_u16() {
            200 => created += 1,
            503 => break,
            other => panic!("unexpected status {other}"),
        }
        assert!(created <= 20, "never more sessions than the cap");
    }
    assert_eq!(created, 20, "the server still answers, up to the cap");
}
