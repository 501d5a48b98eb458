// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What replies cost: the compact reply mode of toolset `planning` (set by
//! flag, environment or file; a bad value stops start-up), the sizes of
//! both modes on boards of 10, 100 and 1,000 tasks (printed, and kept
//! equal to the table in docs/planning.md), the team's replies beside them,
//! and the log of skipped duplicates, which grows by count, not by call.

use crate::common;

use common::{Client, HttpServer, id, ok, signal, stdio_client};
use serde_json::{Value, json};

/// The board sizes measured.
const SIZES: [usize; 3] = [10, 100, 1000];

/// Task `n` of a measured board: a title and a description of a typical
/// length (about 100 bytes per line of the full list).
fn task(n: usize) -> Value {
    json!({
        "title": format!("Step {n}: implement part {n} of the importer"),
        "description": format!("Cover its edge cases and add a test for part {n}"),
    })
}

/// The ID of task `n`.
fn task_id(n: usize) -> String {
    let task = task(n);
    planning_mcp_server::api::planning::TaskId::from_content(
        task["title"].as_str().unwrap(),
        task["description"].as_str().unwrap(),
    )
    .to_string()
}

/// A server on a board of `n` tasks with a goal, replying as `mode` says.
async fn board_of(dir: &tempfile::TempDir, n: usize, mode: &str, toolsets: &str) -> Client {
    let client = stdio_client(
        dir,
        &["--replies", mode, "--toolsets", toolsets],
        &[("PLANNING_PLANNING_MAX_TASKS", "1001")],
    )
    .await;
    let goal = json!({"title": "Ship the importer", "description": "Every part tested"});
    ok(&client, "set_goal", goal).await;
    let tasks: Vec<Value> = (1..=n).map(task).collect();
    ok(&client, "add_tasks", json!({ "tasks": tasks })).await;
    client
}

/// The most tasks whose walk through the board (two calls per task) is
/// measured call by call in full mode; beyond, the walk's total is computed
/// (see [`planning_costs`]).
const WALKED_IN_FULL: usize = 100;

/// Bytes of the text replies of one mode on a board of `n` tasks: one
/// status change, working through the board (each task in_progress, then
/// completed) and then adding one task; with whether the walk's total was
/// computed.
///
/// In full mode every reply of the walk is the whole list, whose size does
/// not change (every status glyph has three bytes, and the legend stays
/// the same): the walk costs 2 × n replies of the size of the first
/// change. That is asserted where the walk is measured; on larger boards
/// the total is computed, sparing the test 224 MB of replies.
async fn planning_costs(n: usize, mode: &str) -> ([usize; 3], bool) {
    let dir = tempfile::tempdir().unwrap();
    let client = board_of(&dir, n, mode, "planning").await;
    let one = json!({"tasks": [{"task_id": task_id(1), "status": "in_progress"}]});
    let change = ok(&client, "update_task_statuses", one).await.len();
    let computed = mode == "full" && n > WALKED_IN_FULL;
    let walk = match computed {
        true => 2 * n * change,
        false => {
            let mut total = 0;
            for k in 1..=n {
                for status in ["in_progress", "completed"] {
                    let update = json!({"tasks": [{"task_id": task_id(k), "status": status}]});
                    let reply = ok(&client, "update_task_statuses", update).await;
                    if mode == "full" {
                        assert_eq!(reply.len(), change, "every full reply of the walk");
                    }
                    total += reply.len();
                }
            }
            total
        }
    };
    let added = ok(&client, "add_tasks", json!({"tasks": [task(n + 1)]}))
        .await
        .len();
    client.cancel().await.unwrap();
    ([change, walk, added], computed)
}

/// Bytes of team's replies on a board of `n` tasks: a claim, a release with
/// evidence, and `team_board` (a read of the whole board).
async fn team_costs(n: usize) -> [usize; 3] {
    let dir = tempfile::tempdir().unwrap();
    let client = board_of(&dir, n, "full", "planning,team").await;
    let claim = json!({"agent": "worker-1", "task_id": task_id(1)});
    let claimed = ok(&client, "claim_task", claim).await.len();
    let release = json!({"agent": "worker-1", "task_id": task_id(1), "status": "completed",
        "command": "cargo test", "exit_code": 0});
    let released = ok(&client, "release_task", release).await.len();
    let board = ok(&client, "team_board", json!({})).await.len();
    client.cancel().await.unwrap();
    [claimed, released, board]
}

/// `12345` as `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[tokio::test]
async fn reply_sizes_per_mode() {
    let mut rows: Vec<(&str, Vec<String>)> = vec![
        ("one `update_task_statuses` (one task)", Vec::new()),
        (
            "working through the board: every task `in_progress`, then `completed` (2 calls per task, total)",
            Vec::new(),
        ),
        ("then `add_tasks` of one task", Vec::new()),
    ];
    let mut compact_one_change = Vec::new();
    for n in SIZES {
        let (full, computed) = planning_costs(n, "full").await;
        let (compact, _) = planning_costs(n, "compact").await;
        for (row, (full, compact)) in rows.iter_mut().zip(full.iter().zip(compact)) {
            row.1.push(thousands(*full));
            row.1.push(thousands(compact));
        }
        if computed {
            let walk = rows[1].1.len() - 2;
            rows[1].1[walk].push_str(" ¹");
        }
        compact_one_change.push(compact[0]);
        assert!(
            full[0] > n * 90,
            "the full reply lists every task: {full:?}"
        );
        assert!(compact[0] < 1000, "{compact:?}");
    }
    // The compact reply does not grow with the board (only its counts get digits).
    let (least, most) = (compact_one_change[0], compact_one_change[2]);
    assert!(most - least <= 16, "{compact_one_change:?}");
    let mut table = String::from(
        "| reply (bytes of text) | 10 tasks: full | compact | 100: full | compact | 1,000: full | compact |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for (name, cells) in &rows {
        table.push_str(&format!("| {name} | {} |\n", cells.join(" | ")));
    }
    table.push_str(
        "\n¹ Computed: 2,000 replies of the size of the first row (every full reply of the walk \
         has that size, as measured on 10 and 100 tasks).\n",
    );
    let mut team_rows: Vec<(&str, Vec<String>)> = vec![
        ("`claim_task`", Vec::new()),
        ("`release_task` with evidence", Vec::new()),
        ("`team_board` (a read: every task)", Vec::new()),
    ];
    let mut team_changes = Vec::new();
    for n in SIZES {
        let costs = team_costs(n).await;
        for (row, bytes) in team_rows.iter_mut().zip(costs) {
            row.1.push(thousands(bytes));
        }
        team_changes.push((costs[0], costs[1]));
    }
    // The team's changes reply about one task, whatever the board's size.
    assert!(team_changes.iter().all(|c| *c == team_changes[0]));
    table.push_str(
        "\n| toolset `team` (bytes of text) | 10 tasks | 100 | 1,000 |\n|---|---:|---:|---:|\n",
    );
    for (name, cells) in &team_rows {
        table.push_str(&format!("| {name} | {} |\n", cells.join(" | ")));
    }
    println!("reply sizes, measured through the real server over stdio:\n\n{table}");
    let docs = include_str!("../../docs/planning.md");
    assert!(
        docs.contains(&table),
        "docs/planning.md must hold the measured table; put this there:\n\n{table}"
    );
}

#[tokio::test]
async fn the_reply_mode_comes_from_the_file_and_a_bad_one_stops_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let config = "[planning]\nreplies = 'compact'\n";
    std::fs::write(dir.path().join("planning-mcp-server.toml"), config).unwrap();
    let client = stdio_client(&dir, &[], &[]).await;
    let text = ok(&client, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;
    assert!(
        text.ends_with(&format!("Next pending:\n- ☐ [{}] a", id("a"))),
        "{text}"
    );
    client.cancel().await.unwrap();

    let dir = tempfile::tempdir().unwrap();
    let output = common::command(&dir)
        .env("PLANNING_PLANNING_REPLIES", "short")
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr
            .contains("planning.replies (from the environment variable PLANNING_PLANNING_REPLIES)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("full") && stderr.contains("compact"),
        "{stderr}"
    );
}

/// How many lines of `lines` are at `level` and say `what`.
fn count(lines: &[String], level: &str, what: &str) -> usize {
    let level = format!(" {level} ");
    lines
        .iter()
        .filter(|l| l.contains(&level) && l.contains(what))
        .count()
}

#[tokio::test]
async fn skipped_duplicates_are_named_and_logged_by_count() {
    let mut server =
        HttpServer::start(&["--log-level", "debug", "--replies", "compact"], &[]).await;
    let client = server.client().await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;
    let calls = 150;
    for _ in 0..calls {
        let text = ok(&client, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;
        let named = format!(
            "Added no task.\nSkipped 1 task already on the board (the same title and \
             description):\n- ☐ [{}] a\n",
            id("a")
        );
        assert!(text.starts_with(&named), "{text}");
    }
    client.cancel().await.unwrap();
    signal(server.pid(), "TERM");
    assert!(server.wait().await.success());
    let lines = server.stderr.lock().clone();
    let what = "add_tasks skipped duplicate tasks";
    assert_eq!(
        count(&lines, "DEBUG", what),
        calls,
        "one debug line per call"
    );
    // 150 skips: warnings at 1, 10 and 100, not 150.
    let warnings: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains(" WARN ") && l.contains(what))
        .collect();
    assert_eq!(warnings.len(), 3, "{warnings:#?}");
    for (warning, total) in warnings.iter().zip(["1", "10", "100"]) {
        assert!(
            warning.contains(&format!(": {total} since the server started")),
            "{warning}"
        );
    }
}
