// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A bounded load test on loopback: 32 concurrent HTTP sessions × 100 mixed
//! calls (`LOAD_CALLS`) on one board with the file backend. No call may fail, and the final
//! board must be what the calls imply. Throughput and latency are printed
//! (run `LOAD_CALLS=500 cargo test --release --test e2e -- load:: --nocapture`
//! for the figures in docs/performance.md),
//! never asserted: timing belongs in benchmarks.

use crate::common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::{HttpServer, ok};
use planning_mcp_server::api::planning::TaskId;
use rmcp::model::ReadResourceRequestParams;
use serde_json::json;

const SESSIONS: usize = 32;
/// Calls per session: `LOAD_CALLS`, else 100 (a debug build's `cargo test`
/// stays short; docs/performance.md uses 500 with `--release`).
fn calls() -> usize {
    std::env::var("LOAD_CALLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100)
}
const TASKS_EACH: usize = 4;
const STATUSES: [&str; 3] = ["in_progress", "completed", "failed"];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn thirty_two_sessions_times_a_hundred_calls() {
    let home = tempfile::tempdir().unwrap();
    let flags = common::file_storage(&home.path().join("store"));
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [("PLANNING_PLANNING_MAX_TASKS", "1000")];
    let server = HttpServer::start_in(&home, &args, &env).await;
    let mut clients = Vec::new();
    for _ in 0..SESSIONS {
        clients.push(server.client().await);
    }
    let calls = calls();
    let started = Instant::now();
    let mut workers = Vec::new();
    for (s, client) in clients.into_iter().enumerate() {
        workers.push(tokio::spawn(async move {
            let titles: Vec<String> = (0..TASKS_EACH).map(|t| format!("s{s} t{t}")).collect();
            let ids: Vec<String> = titles
                .iter()
                .map(|t| TaskId::from_content(t, "").to_string())
                .collect();
            let tasks: Vec<_> = titles.iter().map(|t| json!({"title": t})).collect();
            let mut latencies = Vec::with_capacity(calls);
            let mut last_status = vec!["pending"; TASKS_EACH];
            for call in 0..calls {
                let began = Instant::now();
                match call {
                    0 => {
                        ok(&client, "add_tasks", json!({"tasks": tasks})).await;
                    }
                    _ if call % 5 == 1 => {
                        let t = call % TASKS_EACH;
                        let status = STATUSES[(call / 5) % STATUSES.len()];
                        ok(
                            &client,
                            "update_task_statuses",
                            json!({"tasks": [{"task_id": ids[t], "status": status}]}),
                        )
                        .await;
                        last_status[t] = status;
                    }
                    _ if call % 5 == 2 => {
                        ok(
                            &client,
                            "add_tasks",
                            json!({"tasks": [{"title": titles[call % TASKS_EACH]}]}),
                        )
                        .await;
                    }
                    _ if call % 5 == 3 => {
                        let filter = ["all", "pending", "completed"][call % 3];
                        ok(&client, "get_tasks", json!({"status": filter})).await;
                    }
                    _ => {
                        let uri = "board://default/summary".to_owned();
                        client
                            .read_resource(ReadResourceRequestParams::new(uri))
                            .await
                            .expect("summary");
                    }
                }
                latencies.push(began.elapsed());
            }
            client.cancel().await.unwrap();
            (s, last_status, latencies)
        }));
    }
    let mut expected = BTreeMap::new();
    let mut latencies: Vec<Duration> = Vec::new();
    for worker in workers {
        let (s, last_status, mine) = worker.await.expect("no call failed");
        for (t, status) in last_status.into_iter().enumerate() {
            let glyph = match status {
                "pending" => '☐',
                "in_progress" => '⟳',
                "completed" => '☑',
                _ => '☒',
            };
            expected.insert(format!("s{s} t{t}"), glyph);
        }
        latencies.extend(mine);
    }
    let elapsed = started.elapsed();

    let observer = server.client().await;
    let list = ok(&observer, "get_tasks", json!({})).await;
    let actual: BTreeMap<String, char> = list
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- ")?;
            Some((rest.split_once("] ")?.1.to_owned(), rest.chars().next()?))
        })
        .collect();
    assert_eq!(actual, expected, "the final board is what the calls imply");
    observer.cancel().await.unwrap();

    latencies.sort();
    let total = latencies.len();
    let percentile = |p: f64| latencies[((total as f64 * p) as usize).min(total - 1)];
    println!(
        "load: {SESSIONS} sessions x {calls} calls = {total} calls in {:.2} s: {:.0} calls/s, \
         p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        percentile(0.50).as_secs_f64() * 1e3,
        percentile(0.99).as_secs_f64() * 1e3,
        latencies[total - 1].as_secs_f64() * 1e3,
    );
}
