// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Several server processes on one board file (two agents in one project,
//! each with its own stdio server): no lost update, no stale read.

use crate::common;

use std::collections::BTreeMap;

use common::{file_storage, ok, stdio_client};
use planning_mcp_server::api::planning::TaskId;
use serde_json::json;

const PROCESSES: usize = 4;
const TASKS_EACH: usize = 100;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn four_processes_lose_no_update() {
    let home = tempfile::tempdir().unwrap();
    let flags = file_storage(&home.path().join("store"));
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [
        ("PLANNING_PLANNING_MAX_TASKS", "5000"),
        ("PLANNING_STORAGE_FSYNC", "false"),
    ];

    let mut workers = Vec::new();
    for p in 0..PROCESSES {
        let client = stdio_client(&home, &args, &env).await;
        workers.push(tokio::spawn(async move {
            let id = |t: usize| TaskId::from_content(&format!("p{p}-{t}"), "").to_string();
            for t in 0..TASKS_EACH {
                let added = ok(
                    &client,
                    "add_tasks",
                    json!({"tasks": [{"title": format!("p{p}-{t}")}]}),
                )
                .await;
                // No stale read: the reply already holds this process's task.
                assert!(added.contains(&format!("[{}] p{p}-{t}", id(t))), "{added}");
                if t > 0 {
                    let status = if t % 2 == 0 {
                        "completed"
                    } else {
                        "in_progress"
                    };
                    ok(
                        &client,
                        "update_task_statuses",
                        json!({"tasks": [{"task_id": id(t - 1), "status": status}]}),
                    )
                    .await;
                }
            }
            client.cancel().await.unwrap();
        }));
    }
    for worker in workers {
        worker.await.unwrap();
    }

    let observer = stdio_client(&home, &args, &env).await;
    let list = ok(&observer, "get_tasks", json!({})).await;
    observer.cancel().await.unwrap();
    let glyphs: BTreeMap<String, char> = list
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- ")?;
            Some((rest.split_once("] ")?.1.to_owned(), rest.chars().next()?))
        })
        .collect();
    assert_eq!(
        glyphs.len(),
        PROCESSES * TASKS_EACH,
        "every task is there, once"
    );
    for p in 0..PROCESSES {
        for t in 0..TASKS_EACH {
            let expected = match t + 1 {
                next if next == TASKS_EACH => '☐',
                next if next % 2 == 0 => '☑',
                _ => '⟳',
            };
            assert_eq!(glyphs[&format!("p{p}-{t}")], expected, "p{p}-{t}");
        }
    }
}
