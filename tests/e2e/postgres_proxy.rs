// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Two replicas behind a real HAProxy, with the configuration of
//! docs/deploy.md: a 2025 session lives in the replica that answered its
//! `initialize`, so the proxy learns the replica from the `Mcp-Session-Id`
//! of that answer (a stick table) and sends the session's requests there;
//! without that affinity a session's next request reaches the other replica
//! and gets 404. Requests of the stateless 2026-07-28 protocol go to any
//! replica.

use crate::common;
use crate::common::postgres::Cluster;
use crate::postgres_replicas::{replicas, titles};

use std::path::Path;
use std::process::Stdio;

use common::{INITIALIZE, ok, post};
use rmcp::model::ProtocolVersion;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::json;
use tokio::process::{Child, Command};

/// docs/deploy.md's HAProxy configuration, as written there but for its
/// ports (the proxy's 8080 becomes `sticky`, the replicas' 8081 and 8082
/// the test's), and a second front end, `plain` (round robin without
/// affinity), which shows why the page's affinity is needed.
pub(crate) fn haproxy_config(sticky: u16, plain: u16, replicas: &[u16]) -> String {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/deploy.md")).unwrap();
    let start = page
        .find("```haproxy\n")
        .expect("docs/deploy.md has an haproxy block")
        + 11;
    let end = start + page[start..].find("```").unwrap();
    let mut config = page[start..end]
        .replace("127.0.0.1:8080", &format!("127.0.0.1:{sticky}"))
        .replace("127.0.0.1:8081", &format!("127.0.0.1:{}", replicas[0]))
        .replace("127.0.0.1:8082", &format!("127.0.0.1:{}", replicas[1]));
    config.push_str(&format!(
        "\nfrontend plain\n    bind 127.0.0.1:{plain}\n    default_backend round_robin\n\n\
         backend round_robin\n    balance roundrobin\n"
    ));
    for (n, port) in replicas.iter().enumerate() {
        config.push_str(&format!("    server replica{n} 127.0.0.1:{port}\n"));
    }
    config
}

/// HAProxy on `config`, until dropped; `None` (skipped) when not installed,
/// unless `PLANNING_REQUIRE_POSTGRES=1` (CI installs it with PostgreSQL).
pub(crate) async fn haproxy_or_skip(
    test: &str,
    dir: &Path,
    config: &str,
    ports: &[u16],
) -> Option<Child> {
    if std::process::Command::new("haproxy")
        .arg("-v")
        .output()
        .is_err()
    {
        let why = "HAProxy is not installed (apt-get install haproxy)";
        if std::env::var("PLANNING_REQUIRE_POSTGRES").as_deref() == Ok("1") {
            panic!("{test}: {why}, and PLANNING_REQUIRE_POSTGRES=1 requires it");
        }
        eprintln!("SKIPPED {test}: {why}; set PLANNING_REQUIRE_POSTGRES=1 to make this a failure");
        return None;
    }
    let path = dir.join("haproxy.cfg");
    std::fs::write(&path, config).unwrap();
    let check = std::process::Command::new("haproxy")
        .arg("-c")
        .arg("-f")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let child = Command::new("haproxy")
        .arg("-db")
        .arg("-f")
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    for port in ports {
        common::eventually("HAProxy listening", || async {
            tokio::net::TcpStream::connect(("127.0.0.1", *port))
                .await
                .ok()
                .map(|_| ())
        })
        .await;
    }
    Some(child)
}

/// The port of a server's URL (`http://127.0.0.1:PORT/mcp`).
pub(crate) fn port_of(url: &str) -> u16 {
    url.trim_end_matches("/mcp")
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Opens a 2025 session through `base` with raw requests, then sends four
/// requests in it; returns their statuses.
async fn session_statuses(base: &str) -> Vec<u16> {
    let url = format!("{base}/mcp");
    let opened = post(&url).body(INITIALIZE).send().await.unwrap();
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(opened);
    let mut statuses = Vec::new();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let answer = post(&url)
        .header("mcp-session-id", &session)
        .body(initialized)
        .send()
        .await
        .unwrap();
    statuses.push(answer.status().as_u16());
    for id in 2..5 {
        let list = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
        let answer = post(&url)
            .header("mcp-session-id", &session)
            .body(list)
            .send()
            .await
            .unwrap();
        statuses.push(answer.status().as_u16());
    }
    statuses
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_replicas_behind_haproxy_keep_each_session_on_its_replica() {
    let Some(cluster) = Cluster::start_or_skip("postgres behind HAProxy") else {
        return;
    };
    let url = cluster.database("proxied");
    let servers = replicas(2, &url).await;
    let ports: Vec<u16> = servers.iter().map(|s| port_of(&s.url)).collect();
    let (sticky, plain) = (common::free_port(), common::free_port());
    let dir = tempfile::tempdir().unwrap();
    let config = haproxy_config(sticky, plain, &ports);
    let Some(_proxy) = haproxy_or_skip(
        "postgres behind HAProxy",
        dir.path(),
        &config,
        &[sticky, plain],
    )
    .await
    else {
        return;
    };
    let (sticky_base, plain_base) = (
        format!("http://127.0.0.1:{sticky}"),
        format!("http://127.0.0.1:{plain}"),
    );

    // Without affinity, round robin sends a session's next request to the
    // replica that does not hold it.
    let statuses = session_statuses(&plain_base).await;
    assert!(statuses.contains(&404), "{statuses:?}");
    // With it, every request of every session reaches its replica.
    for _ in 0..4 {
        let statuses = session_statuses(&sticky_base).await;
        assert!(
            statuses.iter().all(|s| *s == 200 || *s == 202),
            "{statuses:?}"
        );
    }

    // rmcp clients through the proxy, on both replicas (round robin).
    let mut clients = Vec::new();
    for n in 0..6 {
        let client = common::client_at(&format!("{sticky_base}/mcp")).await;
        ok(
            &client,
            "add_tasks",
            json!({"tasks": [{"title": format!("via proxy {n}")}]}),
        )
        .await;
        clients.push(client);
    }
    for client in &clients {
        let board = ok(client, "get_tasks", json!({})).await;
        assert_eq!(titles(&board).len(), 6, "{board}");
    }
    for client in clients {
        client.cancel().await.unwrap();
    }

    // The stateless protocol needs no affinity: every request may go to
    // either replica, here alternately.
    let modern = ()
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_uri(format!("{plain_base}/mcp")),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("discover through the round robin");
    for n in 0..4 {
        let title = format!("stateless {n}");
        ok(&modern, "add_tasks", json!({"tasks": [{"title": title}]})).await;
        let board = ok(&modern, "get_tasks", json!({})).await;
        assert!(board.contains(&title), "{board}");
    }
}
