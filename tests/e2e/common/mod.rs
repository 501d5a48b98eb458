// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Helpers for end-to-end tests: start the real binary, connect the official
//! rmcp client over stdio or Streamable HTTP, call tools; drive a browser
//! ([`webdriver`]).
//!
//! No test waits a fixed time for something to happen or reads the clock
//! to judge speed: each waits for the event itself (a log line, a reply, a
//! notification, a state it polls), bounded by [`HANG`], which only turns a
//! hang into a failure. A busy machine is slow, not broken. Latency is a
//! printed figure (or a bench), never an assertion.

#![allow(dead_code)]

pub(crate) mod postgres;
pub(crate) mod vcs;
pub(crate) mod webdriver;

use std::collections::BTreeSet;
use std::future::Future;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long a test waits for an event before it calls it a hang: far
/// beyond any latency, even on a loaded 2-core machine, so it never decides
/// a test that is merely slow.
pub(crate) const HANG: Duration = Duration::from_secs(60);

/// Awaits `future`; panics, naming `what`, if it has not finished within
/// [`HANG`].
pub(crate) async fn within_hang<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(HANG, future)
        .await
        .unwrap_or_else(|_| panic!("{what}: not within {HANG:?}, a hang"))
}

/// Polls `check` until it returns `Some`, and returns that; panics, naming
/// `what`, after [`HANG`]. For a state the test can only observe by asking
/// again (a slot freed, a file written, a session gone).
pub(crate) async fn eventually<T, F: Future<Output = Option<T>>>(
    what: &str,
    mut check: impl FnMut() -> F,
) -> T {
    within_hang(what, async {
        loop {
            if let Some(found) = check().await {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
}

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_planning-mcp-server");

/// A connected MCP client.
pub(crate) type Client = RunningService<RoleClient, ()>;

/// A raw JSON-RPC `initialize` request (id 1), for tests that speak the wire
/// protocol without the rmcp client.
pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// A raw Streamable HTTP POST to `url` with the headers MCP requires.
pub(crate) fn post(url: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
}

/// A command for the binary, run in `dir` with a clean `PLANNING_*`
/// environment and `HOME` in `dir`, so no config file is picked up.
pub(crate) fn command(dir: &TempDir) -> Command {
    prepared(Command::new(BIN), dir)
}

/// `command` run in `dir` (also its `HOME`), without the caller's
/// `PLANNING_*` variables, killed when dropped.
fn prepared(mut command: Command, dir: &TempDir) -> Command {
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PLANNING_") {
            command.env_remove(key);
        }
    }
    command
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .kill_on_drop(true);
    command
}

/// Starts the binary in stdio mode and connects a client to it.
pub(crate) async fn stdio_client(dir: &TempDir, args: &[&str], env: &[(&str, &str)]) -> Client {
    stdio_client_with_pid(command(dir), args, env).await.0
}

/// Starts `command` (the binary) in stdio mode, connects a client, and
/// returns the client and the server's process ID.
pub(crate) async fn stdio_client_with_pid(
    mut command: Command,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Client, u32) {
    command.args(args).envs(env.iter().copied());
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the server");
    let pid = transport.id().expect("running");
    let client = ().serve(transport).await.expect("initialize over stdio");
    (client, pid)
}

/// The names of the tools a server started with `--toolsets list` offers,
/// so that tests derive the tools of a combination from each toolset's
/// own list instead of counting them by hand.
pub(crate) async fn tool_names(list: &str) -> BTreeSet<String> {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", list], &[]).await;
    let tools = client.list_all_tools().await.unwrap();
    client.cancel().await.unwrap();
    tools
        .into_iter()
        .map(|tool| tool.name.to_string())
        .collect()
}

/// The `--storage file --storage-dir DIR` flags.
pub(crate) fn file_storage(dir: &std::path::Path) -> Vec<String> {
    vec![
        "--storage".into(),
        "file".into(),
        "--storage-dir".into(),
        dir.display().to_string(),
    ]
}

/// A server process in HTTP mode on a free loopback port.
pub(crate) struct HttpServer {
    /// The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`.
    pub url: String,
    child: Child,
    /// Every line the server wrote to stderr so far.
    pub stderr: Arc<Mutex<Vec<String>>>,
    stderr_reader: Option<tokio::task::JoinHandle<()>>,
    _dir: Option<TempDir>,
}

impl HttpServer {
    /// Starts the server with `--mode http --host 127.0.0.1 --port 0` and waits
    /// for the start-up line that names its URL.
    pub(crate) async fn start(args: &[&str], env: &[(&str, &str)]) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut server = Self::start_in(&dir, args, env).await;
        server._dir = Some(dir);
        server
    }

    /// Like [`HttpServer::start`], in a directory the caller keeps.
    pub(crate) async fn start_in(dir: &TempDir, args: &[&str], env: &[(&str, &str)]) -> Self {
        Self::start_on(dir, 0, args, env).await
    }

    /// Like [`HttpServer::start_in`], on the given port (0: any free one).
    pub(crate) async fn start_on(
        dir: &TempDir,
        port: u16,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Self {
        Self::start_command(command(dir), port, args, env).await
    }

    /// Like [`HttpServer::start`], the server's open-files limit (soft and
    /// hard) set to `limit` first, as `ulimit -n` sets it.
    pub(crate) async fn start_with_open_files(
        limit: u32,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut limited = Command::new("sh");
        limited.args([
            "-c",
            "ulimit -n \"$0\" && exec \"$@\"",
            &limit.to_string(),
            BIN,
        ]);
        let mut server = Self::start_command(prepared(limited, &dir), 0, args, env).await;
        server._dir = Some(dir);
        server
    }

    /// Like [`HttpServer::start`], the binary run as `command` (its
    /// directory and environment the caller's: e.g. in a git clone).
    pub(crate) async fn start_command(
        mut command: Command,
        port: u16,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Self {
        let port = port.to_string();
        command
            .args(["--mode", "http", "--host", "127.0.0.1", "--port", &port])
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("spawn the server");
        let mut lines = BufReader::new(child.stderr.take().expect("piped")).lines();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let url = within_hang("the server's listening line", async {
            while let Some(line) = lines.next_line().await.expect("read stderr") {
                stderr.lock().push(line.clone());
                if let Some(url) = listening_url(&line) {
                    return url;
                }
            }
            panic!("the server exited before listening: {:?}", stderr.lock());
        })
        .await;
        let sink = stderr.clone();
        let stderr_reader = tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                sink.lock().push(line);
            }
        });
        Self {
            url,
            child,
            stderr,
            stderr_reader: Some(stderr_reader),
            _dir: None,
        }
    }

    /// Connects a new MCP client (a new session).
    pub(crate) async fn client(&self) -> Client {
        ().serve(StreamableHttpClientTransport::from_uri(self.url.clone()))
            .await
            .expect("initialize over HTTP")
    }

    /// Connects a new MCP client to board `name` (a new session).
    pub(crate) async fn client_for(&self, name: &str) -> Client {
        ().serve(StreamableHttpClientTransport::from_uri(
            self.board_url(name),
        ))
        .await
        .expect("initialize over HTTP")
    }

    /// The URL of board `name`'s MCP endpoint.
    pub(crate) fn board_url(&self, name: &str) -> String {
        format!("{}/boards/{name}/mcp", self.base())
    }

    /// The server's base URL, e.g. `http://127.0.0.1:40123`.
    pub(crate) fn base(&self) -> &str {
        self.url.trim_end_matches("/mcp")
    }

    /// The server process's ID.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id().expect("running")
    }

    /// Waits for the process to exit and for the last of its stderr.
    pub(crate) async fn wait(&mut self) -> std::process::ExitStatus {
        let status = within_hang("the server's exit", self.child.wait())
            .await
            .expect("wait for the server");
        if let Some(reader) = self.stderr_reader.take() {
            // The pipe closes with the process, unless a child of its own
            // outlived it with a copy: then what it wrote so far is enough.
            let _ = tokio::time::timeout(HANG, reader).await;
        }
        status
    }
}

/// The URL in the server's start-up line (`... listening ... url=...`),
/// which it writes once its socket is bound and accepting.
pub(crate) fn listening_url(line: &str) -> Option<String> {
    let url = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("url="))?;
    Some(url.trim_matches('"').to_owned())
}

/// Connects a new MCP client to the endpoint `url`.
pub(crate) async fn client_at(url: &str) -> Client {
    ().serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .expect("initialize over HTTP")
}

/// Connects a new MCP client to the endpoint `url` with a bearer token.
pub(crate) async fn client_with_token(url: &str, token: &str) -> Client {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token);
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialize over HTTP with a token")
}

/// A loopback port that was free a moment ago.
pub(crate) fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("bound").port()
}

/// Sends a signal to a process.
pub(crate) fn signal(pid: u32, signal: &str) {
    let status = std::process::Command::new("kill")
        .args([format!("-{signal}"), pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
}

/// Calls a tool; returns whether it is an error result and its text.
pub(crate) async fn call(client: &Client, tool: &str, arguments: Value) -> (bool, String) {
    try_call(client, tool, arguments)
        .await
        .unwrap_or_else(|error| panic!("{tool} failed at the protocol level: {error}"))
}

/// Calls a tool, keeping protocol-level errors.
pub(crate) async fn try_call(
    client: &Client,
    tool: &str,
    arguments: Value,
) -> Result<(bool, String), ServiceError> {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    let result = client.call_tool(params).await?;
    let texts: Vec<&str> = result
        .content
        .iter()
        .map(|c| c.as_text().expect("text content").text.as_str())
        .collect();
    assert_eq!(texts.len(), 1, "one text block: {texts:?}");
    Ok((result.is_error == Some(true), texts[0].to_owned()))
}

/// The board's ID of a task titled `title` with no description.
pub(crate) fn id(title: &str) -> String {
    planning_mcp_server::api::planning::TaskId::from_content(title, "").to_string()
}

/// Calls a tool that must succeed and returns its text.
pub(crate) async fn ok(client: &Client, tool: &str, arguments: Value) -> String {
    let (is_error, text) = call(client, tool, arguments).await;
    assert!(!is_error, "{tool} failed: {text}");
    text
}

/// Runs the binary with `args` and `envs` and stdin closed; returns its
/// exit code, stdout and stderr.
pub(crate) async fn run_binary(
    dir: &tempfile::TempDir,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (i32, String, String) {
    let mut child = command(dir)
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut out, mut err) = (String::new(), String::new());
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let status = within_hang("the binary's exit", async {
        let (a, b) = tokio::join!(
            stdout.read_to_string(&mut out),
            stderr.read_to_string(&mut err)
        );
        a.unwrap();
        b.unwrap();
        child.wait().await.unwrap()
    })
    .await;
    (status.code().unwrap_or(-1), out, err)
}

/// Runs `git args` in `dir` (its own HOME, no system configuration, a
/// committer named), which must succeed; its standard output.
pub(crate) fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let output = std::process::Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run git");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}
