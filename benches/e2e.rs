// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! End-to-end benchmark: real processes, measured from outside.
//!
//! For planning-mcp-server (as released, on the system allocator, and built
//! on mimalloc with feature `mimalloc-sessions`), the floor (the smallest rmcp server a user would
//! write: one no-op tool, the system allocator; `benches/floor/`) and the peers a user might pick instead
//! (`@modelcontextprotocol/server-memory` and a FastMCP server,
//! `benches/peers/`, installed by `scripts/install-peers.sh`), it measures:
//! cold start, stdio round trips with the server's CPU time per call, HTTP
//! throughput and p99 at 1, 8 and 32 sessions, and resident memory. It prints
//! a Markdown table and writes it into `docs/performance.md`.
//!
//! `cargo bench --bench e2e --features e2e-bench` (or `just bench-e2e`, which installs the peers).

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a bench that cannot set up stops; criterion_main! makes an undocumented main"
)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const COLD_STARTS: usize = 30;
const ROUND_TRIPS: usize = 2_000;
const HTTP_CALLS: usize = 6_400;
const BIG_BOARD: usize = 10_000;
/// Round-trip and HTTP figures are the median of this many runs: a shared
/// 2-core machine is noisy, and a single run's p99 says little.
const RUNS: usize = 3;

/// How one server under test is started and driven.
struct Subject {
    name: &'static str,
    program: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    /// The extra arguments for Streamable HTTP on a port, if it speaks HTTP.
    http_args: Option<fn(u16) -> Vec<String>>,
    /// The read call: (tool, arguments).
    list: (&'static str, Value),
    /// The n-th changing call.
    change: fn(usize) -> (&'static str, Value),
    /// Calls that put `n` items on the board.
    fill: Option<fn(usize) -> Vec<Call>>,
}

/// One tool call: (tool, arguments).
type Call = (&'static str, Value);

/// One figure per subject: `None` where it does not apply.
struct Row {
    figure: String,
    values: Vec<Option<f64>>,
    unit: &'static str,
    /// Whether the ratio ours/floor is meaningful for this row.
    ratio: bool,
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // E2E_BIN measures another build of ours, e.g. one with symbols for a profiler.
    let ours = std::env::var_os("E2E_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_planning-mcp-server")),
        PathBuf::from,
    );
    let floor = build_floor(root, Path::new(env!("CARGO_BIN_EXE_planning-mcp-server")));
    // The same server on mimalloc: the allocator choice measured both ways.
    // Absolute: the servers start in a temporary directory.
    let on_mimalloc = std::env::var_os("E2E_MIMALLOC_BIN").map_or_else(
        || build_on_mimalloc(root),
        |bin| std::path::absolute(bin).expect("E2E_MIMALLOC_BIN"),
    );
    let work = tempfile::tempdir().expect("temp dir");
    let mut subjects = vec![
        planning("ours", &ours),
        floor_subject(floor),
        planning(ON_MIMALLOC, &on_mimalloc),
    ];
    subjects.extend(peers(root, work.path()));
    // E2E_ONLY=cold,stdio,http,memory picks stages, E2E_PEERS=0 skips the peers:
    // for quick comparisons while working; docs are written only by a full run.
    let only = std::env::var("E2E_ONLY").ok();
    let stage = |name: &str| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|s| s == name))
    };
    if std::env::var("E2E_PEERS").is_ok_and(|v| v == "0") {
        subjects.truncate(3);
    }
    let full = only.is_none() && subjects.len() == 5;

    let mut rows: Vec<Row> = Vec::new();
    let names: Vec<&str> = subjects.iter().map(|s| s.name).collect();
    eprintln!("e2e: measuring {}", names.join(", "));

    if stage("cold") {
        eprintln!("e2e: cold starts");
        rows.push(Row {
            figure: "cold start: spawn to `initialize` reply, median of 30".into(),
            values: cold_starts(&subjects, work.path()),
            unit: "ms",
            ratio: true,
        });
    }
    for size in [20, 100].into_iter().filter(|_| stage("stdio")) {
        let mut lists = Vec::new();
        let mut changes = Vec::new();
        for subject in &subjects {
            eprintln!("e2e: stdio round trips, {} at {size} tasks", subject.name);
            let (list, change) = if size == 100 && !is_ours(subject.name) {
                (None, None)
            } else {
                let runs: Vec<(Stats, Stats)> = (0..RUNS)
                    .map(|_| round_trips(subject, work.path(), size))
                    .collect();
                let (reads, writes): (Vec<Stats>, Vec<Stats>) = runs.into_iter().unzip();
                (Some(Stats::median(reads)), Some(Stats::median(writes)))
            };
            lists.push(list);
            changes.push(change);
        }
        let pick = |stats: &[Option<Stats>], f: fn(&Stats) -> f64| -> Vec<Option<f64>> {
            stats.iter().map(|s| s.as_ref().map(f)).collect()
        };
        let label = |what: &str| format!("stdio {what}, {size}-task board");
        rows.push(Row {
            figure: label("read (get_tasks) p50"),
            values: pick(&lists, |s| s.p50),
            unit: "µs",
            ratio: true,
        });
        rows.push(Row {
            figure: label("read p99"),
            values: pick(&lists, |s| s.p99),
            unit: "µs",
            ratio: true,
        });
        rows.push(Row {
            figure: label("read, server CPU per call"),
            values: pick(&lists, |s| s.cpu),
            unit: "µs",
            ratio: true,
        });
        rows.push(Row {
            figure: label("update (one status) p50"),
            values: pick(&changes, |s| s.p50),
            unit: "µs",
            ratio: true,
        });
        rows.push(Row {
            figure: label("update p99"),
            values: pick(&changes, |s| s.p99),
            unit: "µs",
            ratio: true,
        });
        rows.push(Row {
            figure: label("update, server CPU per call"),
            values: pick(&changes, |s| s.cpu),
            unit: "µs",
            ratio: true,
        });
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    for sessions in [1, 8, 32].into_iter().filter(|_| stage("http")) {
        eprintln!("e2e: HTTP with {sessions} session(s)");
        let results: Vec<Option<Stats>> = subjects
            .iter()
            .map(|s| {
                s.http_args.as_ref().map(|_| {
                    let runs =
                        (0..RUNS).map(|_| runtime.block_on(http_load(s, work.path(), sessions)));
                    Stats::median(runs.collect())
                })
            })
            .collect();
        rows.push(Row {
            figure: format!("HTTP throughput, {sessions} session(s), mixed calls"),
            values: results
                .iter()
                .map(|r| r.as_ref().map(|s| s.throughput))
                .collect(),
            unit: "calls/s",
            ratio: true,
        });
        rows.push(Row {
            figure: format!("HTTP p99, {sessions} session(s)"),
            values: results.iter().map(|r| r.as_ref().map(|s| s.p99)).collect(),
            unit: "µs",
            ratio: true,
        });
        rows.push(Row {
            figure: format!("HTTP server CPU per call, {sessions} session(s)"),
            values: results.iter().map(|r| r.as_ref().map(|s| s.cpu)).collect(),
            unit: "µs",
            ratio: true,
        });
    }
    if stage("memory") {
        eprintln!("e2e: memory");
        rows.push(row("resident memory, idle", "MB", true, &subjects, |s| {
            Some(memory(s, work.path(), 0))
        }));
        rows.push(row(
            "resident memory, 10,000-task board",
            "MB",
            false,
            &subjects,
            |s| s.fill.map(|_| memory(s, work.path(), BIG_BOARD)),
        ));
    }
    let size = std::fs::metadata(&ours)
        .map(|m| m.len() as f64 / 1e6)
        .unwrap_or(0.0);
    rows.push(Row {
        figure: "binary size (release, stripped)".into(),
        values: subjects
            .iter()
            .map(|s| {
                (is_ours(s.name) || s.name == "floor").then(|| {
                    std::fs::metadata(&s.program)
                        .map(|m| m.len() as f64 / 1e6)
                        .unwrap_or(size)
                })
            })
            .collect(),
        unit: "MB",
        ratio: true,
    });

    let table = markdown(&names, &rows);
    println!("{table}");
    if full {
        write_into_docs(root, &table);
    }
}

fn row(
    figure: &str,
    unit: &'static str,
    ratio: bool,
    subjects: &[Subject],
    measure: impl Fn(&Subject) -> Option<f64>,
) -> Row {
    Row {
        figure: figure.into(),
        values: subjects.iter().map(measure).collect(),
        unit,
        ratio,
    }
}

// ---------------------------------------------------------------- subjects

/// The column of our server built on mimalloc.
const ON_MIMALLOC: &str = "ours on mimalloc";

/// Whether a column is one of our builds (they get a ratio to the floor).
fn is_ours(name: &str) -> bool {
    name.starts_with("ours")
}

fn planning(name: &'static str, ours: &Path) -> Subject {
    Subject {
        name,
        program: ours.to_path_buf(),
        args: vec![],
        env: vec![
            ("PLANNING_PLANNING_MAX_TASKS".into(), "20000".into()),
            ("PLANNING_LOGGING_LEVEL".into(), "error".into()),
        ],
        http_args: Some(|port| {
            let port = port.to_string();
            ["--mode", "http", "--host", "127.0.0.1", "--port", &port]
                .map(String::from)
                .to_vec()
        }),
        list: ("get_tasks", json!({})),
        change: |n| {
            let status = if n % 2 == 0 {
                "completed"
            } else {
                "in_progress"
            };
            (
                "update_task_statuses",
                json!({"tasks": [{"task_id": task_id(0), "status": status}]}),
            )
        },
        fill: Some(|n| {
            (0..n)
                .collect::<Vec<_>>()
                .chunks(1000)
                .map(|chunk| {
                    let tasks: Vec<Value> = chunk
                        .iter()
                        .map(|i| json!({"title": task_title(*i)}))
                        .collect();
                    ("add_tasks", json!({"tasks": tasks}))
                })
                .collect()
        }),
    }
}

fn task_title(n: usize) -> String {
    format!("Task number {n} of the plan")
}

fn task_id(n: usize) -> String {
    planning_mcp_server::api::planning::TaskId::from_content(&task_title(n), "").to_string()
}

fn floor_subject(program: PathBuf) -> Subject {
    Subject {
        name: "floor",
        program,
        args: vec![],
        env: vec![],
        http_args: Some(|port| vec!["--http".into(), port.to_string()]),
        list: ("noop", json!({})),
        change: |_| ("noop", json!({})),
        fill: None,
    }
}

fn peers(root: &Path, work: &Path) -> Vec<Subject> {
    let peers = root.join("target/peers");
    let memory = peers.join("node/node_modules/@modelcontextprotocol/server-memory/dist/index.js");
    let python = peers.join("venv/bin/python");
    if !memory.is_file() || !python.is_file() {
        eprintln!(
            "e2e: peers not installed (run scripts/install-peers.sh); measuring ours and the floor only"
        );
        return vec![];
    }
    vec![
        Subject {
            name: "server-memory (Node)",
            program: PathBuf::from("node"),
            args: vec![memory.display().to_string()],
            env: vec![(
                "MEMORY_FILE_PATH".into(),
                work.join("memory.jsonl").display().to_string(),
            )],
            http_args: None,
            list: ("read_graph", json!({})),
            change: |n| {
                (
                    "create_entities",
                    json!({"entities": [{"name": format!("entity {n}"), "entityType": "task", "observations": []}]}),
                )
            },
            fill: Some(|n| {
                (0..n)
                    .collect::<Vec<_>>()
                    .chunks(1000)
                    .map(|chunk| {
                        let entities: Vec<Value> = chunk
                            .iter()
                            .map(|i| json!({"name": task_title(*i), "entityType": "task", "observations": []}))
                            .collect();
                        ("create_entities", json!({"entities": entities}))
                    })
                    .collect()
            }),
        },
        Subject {
            name: "FastMCP (Python)",
            program: python,
            args: vec![
                root.join("benches/peers/fastmcp_board.py")
                    .display()
                    .to_string(),
            ],
            env: vec![],
            http_args: Some(|port| vec!["--http".into(), port.to_string()]),
            list: ("list_tasks", json!({})),
            change: |n| ("add_task", json!({"title": format!("extra {n}")})),
            fill: Some(|n| {
                (0..n)
                    .map(|i| ("add_task", json!({"title": task_title(i)})))
                    .collect()
            }),
        },
    ]
}

/// Builds the floor with the bench profile (ours's: fat LTO, one codegen
/// unit; `release` is cheaper), next to our binary: the bench profile's
/// directory is `release`.
fn build_floor(root: &Path, ours: &Path) -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--profile", "bench", "--example", "floor"])
        .current_dir(root)
        .status()
        .expect("run cargo");
    assert!(status.success(), "cannot build the floor");
    ours.parent().expect("target dir").join("examples/floor")
}

/// Builds our server on mimalloc (feature `mimalloc-sessions`), with the
/// bench profile, in a target directory of its own so that it does not
/// replace the binary under test.
fn build_on_mimalloc(root: &Path) -> PathBuf {
    let target = root.join("target/mimalloc-sessions");
    let status = Command::new(env!("CARGO"))
        .args([
            "build",
            "--profile",
            "bench",
            "--features",
            "mimalloc-sessions",
            "--bin",
        ])
        .arg("planning-mcp-server")
        .arg("--target-dir")
        .arg(&target)
        .current_dir(root)
        .status()
        .expect("run cargo");
    assert!(status.success(), "cannot build on mimalloc");
    target.join("release/planning-mcp-server")
}

// ---------------------------------------------------------------- stdio

/// A raw JSON-RPC client on a child's stdin/stdout: nothing between the
/// measurement and the pipe.
struct Stdio_ {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: u64,
}

impl Stdio_ {
    fn spawn(subject: &Subject, work: &Path) -> Self {
        let mut child = Command::new(&subject.program)
            .args(&subject.args)
            .envs(subject.env.iter().map(|(k, v)| (k, v)))
            .current_dir(work)
            .env("HOME", work)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", subject.name));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Self {
            child,
            input,
            output,
            next_id: 1,
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.input, "{message}").expect("write");
        self.input.flush().expect("flush");
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.output.read_line(&mut line).expect("read") > 0,
                "the server closed stdout"
            );
            let reply: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if reply["id"] == id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply;
            }
        }
    }

    fn notify(&mut self, method: &str) {
        writeln!(
            self.input,
            "{}",
            json!({"jsonrpc": "2.0", "method": method})
        )
        .expect("write");
    }

    fn initialize(&mut self) {
        self.request("initialize", initialize_params());
        self.notify("notifications/initialized");
    }

    fn call(&mut self, (tool, arguments): (&str, Value)) {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert_ne!(reply["result"]["isError"], true, "{tool}: {reply}");
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Stdio_ {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn initialize_params() -> Value {
    json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}})
}

/// The median cold start of each subject, the subjects taken in turn on
/// every round so that a change in the machine's load hits them all alike.
fn cold_starts(subjects: &[Subject], work: &Path) -> Vec<Option<f64>> {
    let mut times = vec![Vec::with_capacity(COLD_STARTS); subjects.len()];
    for _ in 0..COLD_STARTS {
        for (subject, times) in subjects.iter().zip(&mut times) {
            times.push(cold_start(subject, work));
        }
    }
    times.iter_mut().map(|t| Some(median(t))).collect()
}

fn cold_start(subject: &Subject, work: &Path) -> f64 {
    let started = Instant::now();
    let mut server = Stdio_::spawn(subject, work);
    server.request("initialize", initialize_params());
    started.elapsed().as_secs_f64() * 1e3
}

struct Stats {
    p50: f64,
    p99: f64,
    cpu: f64,
    throughput: f64,
}

impl Stats {
    /// The median of each figure over several runs.
    fn median(runs: Vec<Stats>) -> Stats {
        let pick = |f: fn(&Stats) -> f64| median(&mut runs.iter().map(f).collect::<Vec<_>>());
        Stats {
            p50: pick(|s| s.p50),
            p99: pick(|s| s.p99),
            cpu: pick(|s| s.cpu),
            throughput: pick(|s| s.throughput),
        }
    }
}

fn round_trips(subject: &Subject, work: &Path, size: usize) -> (Stats, Stats) {
    let mut server = Stdio_::spawn(subject, work);
    server.initialize();
    if let Some(fill) = subject.fill {
        for call in fill(size) {
            server.call(call);
        }
    }
    let list = subject.list.clone();
    let reads = timed(&mut server, ROUND_TRIPS, |_| list.clone());
    let writes = timed(&mut server, ROUND_TRIPS, subject.change);
    (reads, writes)
}

fn timed(
    server: &mut Stdio_,
    calls: usize,
    call: impl Fn(usize) -> (&'static str, Value),
) -> Stats {
    let cpu_before = cpu_seconds(server.pid());
    let started = Instant::now();
    let mut latencies: Vec<f64> = (0..calls)
        .map(|n| {
            let call = call(n);
            let began = Instant::now();
            server.call(call);
            began.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = (cpu_seconds(server.pid()) - cpu_before) * 1e6 / calls as f64;
    stats(&mut latencies, cpu, calls as f64 / elapsed)
}

fn stats(latencies: &mut [f64], cpu: f64, throughput: f64) -> Stats {
    latencies.sort_by(f64::total_cmp);
    Stats {
        p50: percentile(latencies, 0.50),
        p99: percentile(latencies, 0.99),
        cpu,
        throughput,
    }
}

// ---------------------------------------------------------------- /proc

/// The process's user + system CPU time, all threads.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| {
        f.iter().filter_map(|t| t.parse::<f64>().ok()).sum()
    });
    ticks / clock_ticks()
}

fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0)
}

fn resident_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn memory(subject: &Subject, work: &Path, size: usize) -> f64 {
    let mut server = Stdio_::spawn(subject, work);
    server.initialize();
    server.call(subject.list.clone());
    if let Some(fill) = subject.fill {
        for call in fill(size) {
            server.call(call);
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    resident_mb(server.pid())
}

// ---------------------------------------------------------------- HTTP

async fn http_load(subject: &Subject, work: &Path, sessions: usize) -> Stats {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let http_args = subject.http_args.expect("HTTP");
    let mut child = Command::new(&subject.program)
        .args(&subject.args)
        .args(http_args(port))
        .envs(subject.env.iter().map(|(k, v)| (k, v)))
        .current_dir(work)
        .env("HOME", work)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let client = reqwest::Client::new();
    let mut listening = false;
    for _ in 0..200 {
        if client.get(&url).send().await.is_ok() {
            listening = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(listening, "{} does not answer on {url}", subject.name);
    if let Some(fill) = subject.fill {
        let mut setup = HttpSession::open(client.clone(), url.clone()).await;
        for call in fill(20) {
            setup.call(call).await;
        }
    }
    let calls = std::env::var("E2E_HTTP_CALLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(HTTP_CALLS);
    let calls_each = calls / sessions;
    let mut workers = Vec::new();
    let cpu_before = cpu_seconds(child.id());
    let started = Instant::now();
    for session in 0..sessions {
        let (client, url) = (client.clone(), url.clone());
        let list = subject.list.clone();
        let change = subject.change;
        workers.push(tokio::spawn(async move {
            let mut mcp = HttpSession::open(client, url).await;
            let mut latencies = Vec::with_capacity(calls_each);
            for n in 0..calls_each {
                let call = if n % 2 == 0 {
                    list.clone()
                } else {
                    change(session * calls_each + n)
                };
                let began = Instant::now();
                mcp.call(call).await;
                latencies.push(began.elapsed().as_secs_f64() * 1e6);
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await.expect("no failed call"));
    }
    let elapsed = started.elapsed().as_secs_f64();
    let total = latencies.len() as f64;
    let cpu = (cpu_seconds(child.id()) - cpu_before) * 1e6 / total;
    let _ = child.kill();
    let _ = child.wait();
    stats(&mut latencies, cpu, total / elapsed)
}

/// A minimal Streamable HTTP MCP session: initialize, then calls whose
/// replies come as JSON or as an SSE stream.
struct HttpSession {
    client: reqwest::Client,
    url: String,
    session: Option<String>,
    next_id: u64,
}

impl HttpSession {
    async fn open(client: reqwest::Client, url: String) -> Self {
        let mut session = Self {
            client,
            url,
            session: None,
            next_id: 1,
        };
        session.request("initialize", initialize_params()).await;
        session
            .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        session
    }

    async fn post(&mut self, message: Value) -> reqwest::Response {
        let mut request = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .body(message.to_string());
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        let response = request.send().await.expect("HTTP");
        assert!(response.status().is_success(), "HTTP {}", response.status());
        if let Some(id) = response.headers().get("mcp-session-id") {
            self.session = Some(id.to_str().expect("ASCII").to_owned());
        }
        response
    }

    /// Sends a request and returns the reply's raw body. The reply is checked
    /// by looking for its id and for an error, not parsed: the client must not
    /// spend more CPU on a server whose replies are longer (on two cores the
    /// client and the server share the machine).
    async fn request(&mut self, method: &str, params: Value) -> String {
        let id = self.next_id;
        self.next_id += 1;
        let response = self
            .post(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let body = response.text().await.expect("body");
        let ok =
            body.contains(&format!("\"id\":{id},")) || body.contains(&format!("\"id\":{id}}}"));
        assert!(ok, "no reply to {method}: {body}");
        assert!(!body.contains("\"error\":{"), "{method}: {body}");
        body
    }

    async fn call(&mut self, (tool, arguments): (&str, Value)) {
        let body = self
            .request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await;
        assert!(!body.contains("\"isError\":true"), "{tool}: {body}");
    }
}

// ---------------------------------------------------------------- report

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    percentile(values, 0.5)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

fn markdown(names: &[&str], rows: &[Row]) -> String {
    // Every build of ours gets a column with its ratio to the floor.
    let floor = names.iter().position(|n| *n == "floor").expect("a floor");
    let mut out = String::from("| figure |");
    for name in names {
        out.push_str(&format!(" {name} |"));
        if is_ours(name) {
            out.push_str(&format!(" {name} / floor |"));
        }
    }
    let columns = names.len() + names.iter().filter(|n| is_ours(n)).count();
    out.push_str(&format!("\n|---|{}", "---|".repeat(columns)));
    for row in rows {
        let cell = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format_value(v, row.unit));
        out.push_str(&format!("\n| {} |", row.figure));
        for (name, value) in names.iter().zip(&row.values) {
            out.push_str(&format!(" {} |", cell(*value)));
            if is_ours(name) {
                let ratio = match (row.ratio, value, row.values[floor]) {
                    (true, Some(ours), Some(floor)) if floor > 0.0 => {
                        format!("{:.2}", ours / floor)
                    }
                    _ => String::new(),
                };
                out.push_str(&format!(" {ratio} |"));
            }
        }
    }
    out
}

fn format_value(value: f64, unit: &str) -> String {
    match unit {
        "calls/s" => format!("{value:.0} {unit}"),
        "µs" if value >= 10_000.0 => format!("{:.1} ms", value / 1e3),
        "µs" => format!("{value:.0} µs"),
        _ => format!("{value:.2} {unit}"),
    }
}

fn write_into_docs(root: &Path, table: &str) {
    const BEGIN: &str = "<!-- e2e:begin -->";
    const END: &str = "<!-- e2e:end -->";
    let path = root.join("docs/performance.md");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        eprintln!("e2e: no {BEGIN} … {END} markers in docs/performance.md; not written");
        return;
    };
    let machine = machine_description();
    let today = Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let section = format!(
        "{BEGIN}\nMeasured {today} on {machine} by `cargo bench --bench e2e --features e2e-bench`.\n\n{table}\n"
    );
    let updated = format!("{}{section}{}", &text[..begin], &text[end..]);
    std::fs::write(&path, updated).expect("write docs/performance.md");
    eprintln!("e2e: table written to {}", path.display());
}

fn machine_description() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|m| m.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "an unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .next()
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0 / 1024.0);
    format!("{cores} cores of {cpu}, {memory:.0} GiB, Linux")
}
