// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The `postgres` backend, end to end, on a PostgreSQL cluster of its own
//! (made with `initdb` in a temporary directory, on loopback, fsync on,
//! as `nobody` when run as root): real `planning-mcp-server` processes in
//! HTTP mode, driven by the rmcp client.
//!
//! 1. `update_task_statuses` p50 and p99 through one replica, against the
//!    same server on the file backend with fsync;
//! 2. aggregate calls/s of 1, 2 and 3 replicas on one database, 8 sessions
//!    each, every session changing one shared board (the contended case);
//! 3. the cross-replica notification latency: a change through replica A
//!    until a `board://` subscriber on replica B hears of it, p50 and p99.
//!
//! `cargo bench --bench postgres` (PostgreSQL's programs must be
//! installed: `apt-get install postgresql`). It prints a Markdown table for
//! docs/performance.md.

#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    reason = "a bench that cannot set up stops, and prints its figures"
)]

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Child as StdChild, Command as StdCommand, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, ResourceUpdatedNotificationParam, SubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::{Barrier, mpsc};

const BIN: &str = env!("CARGO_BIN_EXE_planning-mcp-server");
const LATENCY_CALLS: usize = 2_000;
const SESSIONS_PER_REPLICA: usize = 8;
const CALLS_PER_SESSION: usize = 150;
const NOTIFICATION_ROUNDS: usize = 200;

type Client = RunningService<RoleClient, ()>;

/// A PostgreSQL cluster in a temporary directory, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    nobody: bool,
    watchdog: Option<StdChild>,
}

impl Cluster {
    fn start() -> Self {
        let bin = StdCommand::new("pg_config")
            .arg("--bindir")
            .output()
            .ok()
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
            .filter(|dir| dir.join("initdb").is_file())
            .expect("PostgreSQL's programs (apt-get install postgresql)");
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let nobody = rustix::process::geteuid().is_root();
        if nobody {
            let id = StdCommand::new("id")
                .args(["-u", "nobody"])
                .output()
                .unwrap();
            let uid: u32 = String::from_utf8_lossy(&id.stdout).trim().parse().unwrap();
            std::os::unix::fs::chown(dir.path(), Some(uid), None).unwrap();
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut cluster = Self {
            dir,
            bin,
            port,
            nobody,
            watchdog: None,
        };
        let data = cluster.dir.path().join("data").display().to_string();
        cluster.run(&[
            "initdb",
            "-D",
            &data,
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
        ]);
        let conf = format!(
            "listen_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = '{}'\n",
            cluster.dir.path().display()
        );
        let path = cluster.dir.path().join("data/postgresql.conf");
        let all = std::fs::read_to_string(&path).unwrap() + &conf;
        std::fs::write(&path, all).unwrap();
        let log = cluster.dir.path().join("log").display().to_string();
        cluster.run(&["pg_ctl", "-D", &data, "-l", &log, "-w", "start"]);
        let script = "read _ignored; exec \"$0\" -D \"$1\" -m immediate -w stop";
        let pg_ctl = cluster.bin.join("pg_ctl").display().to_string();
        let mut watchdog = cluster.command("sh");
        watchdog
            .args(["-c", script, &pg_ctl, &data])
            .stdin(Stdio::piped())
            .stdout(Stdio::null());
        cluster.watchdog = Some(watchdog.spawn().unwrap());
        let psql = cluster.bin.join("psql");
        let made = StdCommand::new(psql)
            .args(["-X", "-q", "-U", "postgres", "-h"])
            .arg(cluster.dir.path())
            .args([
                "-p",
                &port.to_string(),
                "-d",
                "postgres",
                "-c",
                "CREATE DATABASE bench",
            ])
            .status()
            .unwrap();
        assert!(made.success());
        cluster
    }

    fn command(&self, program: &str) -> StdCommand {
        let path = match program {
            "sh" => PathBuf::from("sh"),
            other => self.bin.join(other),
        };
        let mut command = match self.nobody {
            true => {
                let mut command = StdCommand::new("runuser");
                command.args(["-u", "nobody", "--"]).arg(path);
                command
            }
            false => StdCommand::new(path),
        };
        command.current_dir(self.dir.path());
        command
    }

    fn run(&self, args: &[&str]) {
        let output = self.command(args[0]).args(&args[1..]).output().unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// CPU time of the postmaster and every process it started (the
    /// connections' backends, the WAL writer, the checkpointer) so far.
    fn cpu(&self, ticks: f64) -> Duration {
        let pid_file = self.dir.path().join("data/postmaster.pid");
        let postmaster: u32 = std::fs::read_to_string(pid_file)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let mut total = cpu_of(postmaster, ticks);
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
                continue;
            };
            if parent_of(pid) == Some(postmaster) {
                total += cpu_of(pid, ticks);
            }
        }
        total
    }

    fn url(&self) -> String {
        format!(
            "postgres://postgres@127.0.0.1:{}/bench?sslmode=disable",
            self.port
        )
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(mut watchdog) = self.watchdog.take() {
            drop(watchdog.stdin.take());
            let _ = watchdog.wait();
        }
    }
}

/// A server in HTTP mode; killed when dropped.
struct Server {
    url: String,
    pid: u32,
    _child: Child,
}

/// CPU time (user and system) of process `pid` so far, from
/// `/proc/PID/stat`; zero once it is gone.
fn cpu_of(pid: u32, ticks: f64) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // The fields after the command's closing parenthesis; utime and stime
    // are the 14th and 15th of the whole line.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let jiffies: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_secs_f64(jiffies as f64 / ticks)
}

/// The parent process id in `/proc/PID/stat`.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Clock ticks per second, which `/proc/PID/stat` counts in.
fn clock_ticks() -> f64 {
    let output = StdCommand::new("getconf").arg("CLK_TCK").output().unwrap();
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .unwrap()
}

async fn server(args: &[&str], envs: &[(&str, &str)], dir: &std::path::Path) -> Server {
    let mut child = Command::new(BIN)
        .args(["--mode", "http", "--host", "127.0.0.1", "--port", "0"])
        .args(args)
        .envs(envs.iter().copied())
        .env("PLANNING_PLANNING_MAX_TASKS", "1000")
        .env("PLANNING_SERVER_MAX_SESSIONS", "1000")
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    // Its start-up line names its URL; the rest of its log is drained.
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server's listening line");
        if let Some(url) = line.split_whitespace().find_map(|w| w.strip_prefix("url=")) {
            break url.trim_matches('"').to_owned();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let pid = child.id().unwrap();
    Server {
        url,
        pid,
        _child: child,
    }
}

async fn client(url: &str) -> Client {
    ().serve(StreamableHttpClientTransport::from_uri(url.to_owned()))
        .await
        .unwrap()
}

async fn call(client: &Client, tool: &str, arguments: Value) {
    let Value::Object(arguments) = arguments else {
        unreachable!()
    };
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn task_id(title: &str) -> String {
    planning_mcp_server::api::planning::TaskId::from_content(title, "").to_string()
}

/// p50 and p99 of `update_task_statuses` on a 20-task board, one session.
async fn update_latency(server: &Server) -> (Duration, Duration) {
    let client = client(&server.url).await;
    let tasks: Vec<Value> = (0..20)
        .map(|n| json!({"title": format!("task {n}")}))
        .collect();
    call(&client, "add_tasks", json!({"tasks": tasks})).await;
    let id = task_id("task 10");
    let mut times = Vec::with_capacity(LATENCY_CALLS);
    for n in 0..LATENCY_CALLS + 100 {
        let status = if n % 2 == 0 { "in_progress" } else { "pending" };
        let started = Instant::now();
        call(
            &client,
            "update_task_statuses",
            json!({"tasks": [{"task_id": id, "status": status}]}),
        )
        .await;
        if n >= 100 {
            times.push(started.elapsed());
        }
    }
    client.cancel().await.unwrap();
    times.sort();
    (percentile(&times, 0.5), percentile(&times, 0.99))
}

/// What one throughput run measured.
struct Load {
    /// Calls per second, all replicas together.
    rate: f64,
    /// The replicas' CPU time per call.
    replicas: Duration,
    /// The database's CPU time per call.
    database: Duration,
    /// The bench's own (the clients') CPU time per call.
    clients: Duration,
}

/// Calls/s of `replicas` servers, 8 sessions each, all changing board
/// `name`, and the CPU time each party spent per call.
async fn throughput(servers: &[Server], cluster: &Cluster, name: &str, ticks: f64) -> Load {
    let sessions = servers.len() * SESSIONS_PER_REPLICA;
    let mut clients = Vec::new();
    for n in 0..sessions {
        let url = servers[n % servers.len()]
            .url
            .replace("/mcp", &format!("/boards/{name}/mcp"));
        clients.push(client(&url).await);
    }
    call(
        &clients[0],
        "add_tasks",
        json!({"tasks": [{"title": "shared"}]}),
    )
    .await;
    let id = task_id("shared");
    let start = Arc::new(Barrier::new(sessions + 1));
    let mut workers = Vec::new();
    for client in clients {
        let (start, id) = (start.clone(), id.clone());
        workers.push(tokio::spawn(async move {
            start.wait().await;
            for n in 0..CALLS_PER_SESSION {
                match n % 2 {
                    0 => {
                        let status = if n % 4 == 0 { "in_progress" } else { "pending" };
                        call(
                            &client,
                            "update_task_statuses",
                            json!({"tasks": [{"task_id": id, "status": status}]}),
                        )
                        .await
                    }
                    _ => call(&client, "get_tasks", json!({})).await,
                }
            }
            client.cancel().await.unwrap();
        }));
    }
    let replicas_cpu = || {
        servers
            .iter()
            .map(|s| cpu_of(s.pid, ticks))
            .sum::<Duration>()
    };
    let (replicas_before, database_before) = (replicas_cpu(), cluster.cpu(ticks));
    let clients_before = cpu_of(std::process::id(), ticks);
    start.wait().await;
    let started = Instant::now();
    for worker in workers {
        worker.await.unwrap();
    }
    let elapsed = started.elapsed();
    let calls = (sessions * CALLS_PER_SESSION) as u32;
    Load {
        rate: f64::from(calls) / elapsed.as_secs_f64(),
        replicas: (replicas_cpu() - replicas_before) / calls,
        database: (cluster.cpu(ticks) - database_before) / calls,
        clients: (cpu_of(std::process::id(), ticks) - clients_before) / calls,
    }
}

#[derive(Clone)]
struct Watcher(mpsc::UnboundedSender<Instant>);

impl ClientHandler for Watcher {
    async fn on_resource_updated(
        &self,
        _: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(Instant::now());
    }
}

/// p50 and p99 from a change through `a` until a subscriber on `b` hears it.
#[allow(deprecated, reason = "resources/subscribe is what 2025 clients use")]
async fn notification_latency(a: &Server, b: &Server) -> (Duration, Duration) {
    let writer = client(&a.url.replace("/mcp", "/boards/news/mcp")).await;
    call(&writer, "add_tasks", json!({"tasks": [{"title": "news"}]})).await;
    let (sender, mut heard) = mpsc::unbounded_channel();
    let watcher = Watcher(sender)
        .serve(StreamableHttpClientTransport::from_uri(
            b.url.replace("/mcp", "/boards/news/mcp"),
        ))
        .await
        .unwrap();
    watcher
        .subscribe(SubscribeRequestParams::new("board://news"))
        .await
        .unwrap();
    let id = task_id("news");
    let mut times = Vec::new();
    for n in 0..NOTIFICATION_ROUNDS {
        let status = if n % 2 == 0 { "in_progress" } else { "pending" };
        let sent = Instant::now();
        call(
            &writer,
            "update_task_statuses",
            json!({"tasks": [{"task_id": id, "status": status}]}),
        )
        .await;
        let at = heard.recv().await.unwrap();
        times.push(at.saturating_duration_since(sent));
    }
    times.sort();
    (percentile(&times, 0.5), percentile(&times, 0.99))
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // `cargo bench` passes --bench; nothing else is taken.
    let cluster = Cluster::start();
    let url = cluster.url();
    let dir = tempfile::tempdir().unwrap();
    let db_env = [
        ("PLANNING_STORAGE_BACKEND", "postgres"),
        ("PLANNING_STORAGE_URL", url.as_str()),
    ];
    let file_dir = dir.path().join("boards").display().to_string();
    let file_env = [
        ("PLANNING_STORAGE_BACKEND", "file"),
        ("PLANNING_STORAGE_DIR", file_dir.as_str()),
    ];

    let one = server(&[], &db_env, dir.path()).await;
    let (pg50, pg99) = update_latency(&one).await;
    let file = server(&["--board", "x"], &file_env, dir.path()).await;
    let (f50, f99) = update_latency(&file).await;
    drop(file);
    println!("| figure | postgres | file, fsync |\n|---|---|---|");
    println!(
        "| `update_task_statuses` p50, one session, 20 tasks | {} | {} |",
        ms(pg50),
        ms(f50)
    );
    println!(
        "| `update_task_statuses` p99 | {} | {} |",
        ms(pg99),
        ms(f99)
    );

    let ticks = clock_ticks();
    let mut servers = vec![one];
    let mut loads = Vec::new();
    for replicas in 1..=3 {
        while servers.len() < replicas {
            servers.push(server(&[], &db_env, dir.path()).await);
        }
        loads.push(throughput(&servers, &cluster, &format!("load{replicas}"), ticks).await);
    }
    println!(
        "\n| replicas on one database, 8 sessions each, one shared board | calls/s | / one replica | replicas' CPU per call | database's CPU per call | clients' CPU per call | with a core per replica (estimate) |\n|---|---|---|---|---|---|---|"
    );
    let us = |d: Duration| format!("{:.0} µs", d.as_secs_f64() * 1e6);
    for (n, load) in loads.iter().enumerate() {
        // With a core for each replica (and the database and the clients on
        // cores of their own), the replicas serve n / (their CPU per call)
        // calls/s, and one core of the database 1 / (its CPU per call): the
        // lower of the two bounds the aggregate.
        let replicas = (n + 1) as f64 / load.replicas.as_secs_f64().max(1e-9);
        let database = 1.0 / load.database.as_secs_f64().max(1e-9);
        println!(
            "| {} | {:.0} | {:.2} | {} | {} | {} | {:.0} calls/s |",
            n + 1,
            load.rate,
            load.rate / loads[0].rate,
            us(load.replicas),
            us(load.database),
            us(load.clients),
            replicas.min(database)
        );
    }
    let (n50, n99) = notification_latency(&servers[0], &servers[1]).await;
    println!(
        "\n| cross-replica notification (change on A until B's subscriber hears it) | p50 | p99 |\n|---|---|---|"
    );
    println!(
        "| {NOTIFICATION_ROUNDS} changes | {} | {} |",
        ms(n50),
        ms(n99)
    );
}
