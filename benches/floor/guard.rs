// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The guard against drift, run by `scripts/floor.sh`: planning-mcp-server
//! measured against the floor (`benches/floor/main.rs`) in one run, the two
//! taken in turn at every step so that a change in the machine's load hits
//! both alike, on the figures of docs/performance.md's floor table:
//!
//! - cold start, spawn to the `initialize` reply (median of 30 rounds);
//! - stdio `update_task_statuses` p50 and `get_tasks` p50 on a 20-task
//!   board (2,000 calls a run, median of 3 runs);
//! - the HTTP server's CPU time per call with 8 sessions (6,400 calls, half
//!   reads and half changes, median of 3 runs);
//! - resident memory after `initialize` and one read (ours; a target in MiB).
//!
//! It prints a Markdown table with each ratio beside its target and exits
//! with status 1 only on a gross regression: a figure over 1.5 × its
//! target, far outside the noise of a busy machine. Measuring is all it
//! does: built in the dev profile, its loop is a write of a prepared line
//! and the search of the reply for its id, std's own optimised code, so
//! the servers' figures are what it sees.
//!
//! `floor-guard OURS FLOOR` (`FLOOR_ROUNDS`, `FLOOR_CALLS`, `FLOOR_HTTP_CALLS`
//! and `FLOOR_RUNS` shrink a run for a quick look).

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a measuring program that cannot set up stops, and prints its table"
)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use planning_mcp_server::api::planning::TaskId;
use serde_json::{Value, json};

/// A figure over this many times its target fails the run.
const GROSS: f64 = 1.5;
/// Tasks on the board of the stdio and HTTP figures.
const BOARD: usize = 20;

/// One server under test.
struct Subject {
    name: &'static str,
    program: PathBuf,
    ours: bool,
}

impl Subject {
    /// The read call's `tools/call` params.
    fn read(&self) -> Value {
        match self.ours {
            true => json!({"name": "get_tasks", "arguments": {}}),
            false => json!({"name": "noop", "arguments": {}}),
        }
    }

    /// The n-th change's `tools/call` params.
    fn change(&self, n: usize) -> Value {
        if !self.ours {
            return json!({"name": "noop", "arguments": {}});
        }
        let status = if n.is_multiple_of(2) {
            "completed"
        } else {
            "in_progress"
        };
        json!({"name": "update_task_statuses", "arguments": {"tasks": [{"task_id": task_id(0), "status": status}]}})
    }

    /// The `tools/call` params that put the board's tasks on it.
    fn fill(&self) -> Option<Value> {
        let tasks: Vec<Value> = (0..BOARD).map(|n| json!({"title": title(n)})).collect();
        self.ours
            .then(|| json!({"name": "add_tasks", "arguments": {"tasks": tasks}}))
    }

    fn command(&self, work: &Path) -> Command {
        let mut command = Command::new(&self.program);
        command
            .current_dir(work)
            .env("HOME", work)
            .env("PLANNING_LOGGING_LEVEL", "error")
            .stderr(Stdio::null());
        command
    }
}

fn title(n: usize) -> String {
    format!("Task number {n} of the plan")
}

fn task_id(n: usize) -> String {
    TaskId::from_content(&title(n), "").to_string()
}

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, ours, floor] = args.as_slice() else {
        eprintln!("usage: floor-guard OURS FLOOR (see scripts/floor.sh)");
        return ExitCode::from(2);
    };
    let absolute = |p: &str| std::path::absolute(p).expect("a path");
    let subjects = [
        Subject {
            name: "ours",
            program: absolute(ours),
            ours: true,
        },
        Subject {
            name: "floor",
            program: absolute(floor),
            ours: false,
        },
    ];
    let work = tempfile::tempdir().expect("a temporary directory");
    let rounds = setting("FLOOR_ROUNDS", 30);
    let runs = setting("FLOOR_RUNS", 3);
    let calls = setting("FLOOR_CALLS", 2_000);
    let http_calls = setting("FLOOR_HTTP_CALLS", 6_400);
    let load_before = load_average();

    eprintln!("floor-guard: cold starts ({rounds} rounds)");
    let mut cold = [Vec::new(), Vec::new()];
    for _ in 0..rounds {
        for (subject, times) in subjects.iter().zip(&mut cold) {
            times.push(cold_start(subject, work.path()));
        }
    }
    let cold = cold.map(|mut t| median(&mut t));

    eprintln!("floor-guard: stdio, {runs} runs of {calls} reads and {calls} changes");
    let mut reads = [Vec::new(), Vec::new()];
    let mut changes = [Vec::new(), Vec::new()];
    for _ in 0..runs {
        for (i, subject) in subjects.iter().enumerate() {
            let (read, change) = round_trips(subject, work.path(), calls);
            reads[i].push(read);
            changes[i].push(change);
        }
    }
    let reads = reads.map(|mut t| median(&mut t));
    let changes = changes.map(|mut t| median(&mut t));

    eprintln!("floor-guard: HTTP, {runs} runs of {http_calls} calls on 8 sessions");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut http = [Vec::new(), Vec::new()];
    for _ in 0..runs {
        for (i, subject) in subjects.iter().enumerate() {
            http[i].push(runtime.block_on(http_cpu(subject, work.path(), 8, http_calls)));
        }
    }
    let http = http.map(|mut t| median(&mut t));

    eprintln!("floor-guard: resident memory");
    let memory = subjects
        .each_ref()
        .map(|s| resident_after_initialize(s, work.path()));

    let rows = [
        Row::ratio(
            "cold start, spawn to `initialize` reply (median of rounds)",
            "ms",
            cold,
            1.15,
        ),
        Row::ratio(
            "stdio `update_task_statuses` p50, 20-task board",
            "µs",
            changes,
            1.10,
        ),
        Row::ratio("stdio `get_tasks` p50, 20-task board", "µs", reads, 1.05),
        Row::ratio("HTTP server CPU per call, 8 sessions", "µs", http, 1.10),
        Row::absolute("resident memory after `initialize`", "MiB", memory, 7.0),
    ];
    println!(
        "floor-guard: load average {load_before} before, {} after (on a busy machine the times are noisy; compare ratios)\n",
        load_average()
    );
    println!("| figure | ours | floor | ours / floor | target | verdict |");
    println!("|---|---|---|---|---|---|");
    let mut gross = false;
    for row in &rows {
        println!("{}", row.markdown());
        gross |= row.gross();
    }
    println!(
        "\nverdicts: within target; over target (the issue's goal missed); GROSS (over {GROSS} × the target: fails the run)."
    );
    match gross {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    }
}

/// One line of the table.
struct Row {
    figure: &'static str,
    unit: &'static str,
    values: [f64; 2],
    /// A ratio to the floor (`true`) or ours alone (`false`).
    relative: bool,
    target: f64,
}

impl Row {
    fn ratio(figure: &'static str, unit: &'static str, values: [f64; 2], target: f64) -> Self {
        Self {
            figure,
            unit,
            values,
            relative: true,
            target,
        }
    }

    fn absolute(figure: &'static str, unit: &'static str, values: [f64; 2], target: f64) -> Self {
        Self {
            figure,
            unit,
            values,
            relative: false,
            target,
        }
    }

    /// What is held against the target.
    fn measured(&self) -> f64 {
        match self.relative {
            true => self.values[0] / self.values[1],
            false => self.values[0],
        }
    }

    fn gross(&self) -> bool {
        self.measured() > self.target * GROSS
    }

    fn markdown(&self) -> String {
        let value = |v: f64| match self.unit {
            "ms" | "MiB" => format!("{v:.2} {}", self.unit),
            _ => format!("{v:.0} {}", self.unit),
        };
        let (ratio, target) = match self.relative {
            true => (
                format!("{:.2}", self.measured()),
                format!("≤ {:.2} ×", self.target),
            ),
            false => (
                format!("{:.2}", self.values[0] / self.values[1]),
                format!("≤ {:.1} {}", self.target, self.unit),
            ),
        };
        let verdict = match (self.gross(), self.measured() <= self.target) {
            (true, _) => "GROSS",
            (false, true) => "within target",
            (false, false) => "over target",
        };
        format!(
            "| {} | {} | {} | {ratio} | {target} | {verdict} |",
            self.figure,
            value(self.values[0]),
            value(self.values[1]),
        )
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn initialize() -> Value {
    json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "floor-guard", "version": "1"}})
}

// ---------------------------------------------------------------- stdio

/// A request made before the timing starts.
struct Prepared {
    line: String,
    ids: [String; 2],
}

/// A raw JSON-RPC client on a child's stdin and stdout.
struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: u64,
    line: String,
}

impl Session {
    fn spawn(subject: &Subject, work: &Path) -> Self {
        let mut child = subject
            .command(work)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", subject.name));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Self {
            child,
            input,
            output,
            next_id: 1,
            line: String::new(),
        }
    }

    /// The line of a request, and its id as its reply holds it (followed
    /// by the next field, or last).
    fn prepare(&mut self, method: &str, params: &Value) -> Prepared {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        Prepared {
            line: format!("{message}\n"),
            ids: [format!("\"id\":{id},"), format!("\"id\":{id}}}")],
        }
    }

    /// Sends a prepared request and waits for its reply (checked for an
    /// error, not parsed).
    fn send(&mut self, Prepared { line, ids }: &Prepared) {
        self.input.write_all(line.as_bytes()).expect("write");
        loop {
            self.line.clear();
            let read = self.output.read_line(&mut self.line).expect("read");
            assert!(read > 0, "the server closed stdout");
            if ids.iter().any(|id| self.line.contains(id.as_str())) {
                assert!(
                    !self.line.contains("\"isError\":true") && !self.line.contains("\"error\":{"),
                    "{line}: {}",
                    self.line
                );
                return;
            }
        }
    }

    fn request(&mut self, method: &str, params: &Value) {
        let prepared = self.prepare(method, params);
        self.send(&prepared);
    }

    fn initialize(&mut self) {
        self.request("initialize", &initialize());
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        self.input
            .write_all(format!("{note}\n").as_bytes())
            .expect("write");
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cold_start(subject: &Subject, work: &Path) -> f64 {
    let started = Instant::now();
    let mut session = Session::spawn(subject, work);
    session.request("initialize", &initialize());
    started.elapsed().as_secs_f64() * 1e3
}

/// The p50 of `calls` reads, then of `calls` changes, in µs.
fn round_trips(subject: &Subject, work: &Path, calls: usize) -> (f64, f64) {
    let mut session = Session::spawn(subject, work);
    session.initialize();
    if let Some(fill) = subject.fill() {
        session.request("tools/call", &fill);
    }
    let reads: Vec<_> = (0..calls)
        .map(|_| session.prepare("tools/call", &subject.read()))
        .collect();
    let changes: Vec<_> = (0..calls)
        .map(|n| session.prepare("tools/call", &subject.change(n)))
        .collect();
    let mut p50 = |requests: &[Prepared]| {
        let mut latencies: Vec<f64> = requests
            .iter()
            .map(|request| {
                let began = Instant::now();
                session.send(request);
                began.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        median(&mut latencies)
    };
    (p50(&reads), p50(&changes))
}

// ---------------------------------------------------------------- /proc

/// The process's user and system CPU time, all threads, in seconds.
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
    let per_second = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0);
    ticks / per_second
}

fn resident_after_initialize(subject: &Subject, work: &Path) -> f64 {
    let mut session = Session::spawn(subject, work);
    session.initialize();
    session.request("tools/call", &subject.read());
    std::thread::sleep(Duration::from_millis(300));
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", session.pid())).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

// ---------------------------------------------------------------- HTTP

/// The server's CPU time per call, in µs, over `calls` calls spread over
/// `sessions` sessions, half reads and half changes.
async fn http_cpu(subject: &Subject, work: &Path, sessions: usize, calls: usize) -> f64 {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
        .to_string();
    let http_args = match subject.ours {
        true => vec!["--mode", "http", "--host", "127.0.0.1", "--port", &port],
        false => vec!["--http", &port],
    };
    let mut child = subject
        .command(work)
        .args(http_args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let client = reqwest::Client::new();
    let mut listening = false;
    for _ in 0..400 {
        if client.get(&url).send().await.is_ok() {
            listening = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(listening, "{} does not answer on {url}", subject.name);
    if let Some(fill) = subject.fill() {
        let mut setup = Http::open(client.clone(), url.clone()).await;
        setup.request("tools/call", fill).await;
    }
    let each = calls / sessions;
    let mut opened = Vec::new();
    for _ in 0..sessions {
        opened.push(Http::open(client.clone(), url.clone()).await);
    }
    let cpu_before = cpu_seconds(child.id());
    let mut workers = Vec::new();
    for (session, mut http) in opened.into_iter().enumerate() {
        let requests: Vec<Value> = (0..each)
            .map(|n| match n % 2 {
                0 => subject.read(),
                _ => subject.change(session * each + n),
            })
            .collect();
        workers.push(tokio::spawn(async move {
            for request in requests {
                http.request("tools/call", request).await;
            }
        }));
    }
    for worker in workers {
        worker.await.expect("no failed call");
    }
    let cpu = (cpu_seconds(child.id()) - cpu_before) * 1e6 / (each * sessions) as f64;
    let _ = child.kill();
    let _ = child.wait();
    cpu
}

/// A minimal Streamable HTTP MCP session: initialize, then requests whose
/// replies come as JSON or as an SSE stream, checked for their id and an
/// error, not parsed.
struct Http {
    client: reqwest::Client,
    url: String,
    session: Option<String>,
    next_id: u64,
}

impl Http {
    async fn open(client: reqwest::Client, url: String) -> Self {
        let mut http = Self {
            client,
            url,
            session: None,
            next_id: 1,
        };
        http.request("initialize", initialize()).await;
        http.post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        http
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

    async fn request(&mut self, method: &str, params: Value) {
        let id = self.next_id;
        self.next_id += 1;
        let response = self
            .post(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let body = response.text().await.expect("body");
        let ok =
            body.contains(&format!("\"id\":{id},")) || body.contains(&format!("\"id\":{id}}}"));
        assert!(ok, "no reply to {method}: {body}");
        assert!(
            !body.contains("\"error\":{") && !body.contains("\"isError\":true"),
            "{method}: {body}"
        );
    }
}
