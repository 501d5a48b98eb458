// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Crash safety: SIGKILL the server at random moments, again and again, and
//! check that every acknowledged change survived and the file always parses.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{BuildHasher, RandomState};
use std::time::Duration;

use common::{file_storage, signal, stdio_client_with_pid};
use planning_mcp_server::toolsets::planning::domain::TaskId;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

const ROUNDS: usize = 100;

/// A random number below `bound`, from the standard library's hasher seeds.
fn random_below(bound: u64) -> u64 {
    RandomState::new().hash_one(0u8) % bound
}

#[derive(Default)]
struct Expectation {
    /// Titles whose `add_tasks` was acknowledged.
    added: BTreeSet<String>,
    /// Titles whose `add_tasks` was sent but not acknowledged.
    maybe_added: BTreeSet<String>,
    /// Titles whose change to `completed` was acknowledged.
    completed: BTreeSet<String>,
    /// Titles whose change to `completed` was sent but not acknowledged.
    maybe_completed: BTreeSet<String>,
}

fn arguments(value: Value) -> CallToolRequestParams {
    let (name, args) = (
        value["tool"].as_str().unwrap().to_owned(),
        value["args"].clone(),
    );
    CallToolRequestParams::new(name).with_arguments(args.as_object().unwrap().clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_change_survives_sigkill() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("store");
    let file = store.join("default.json");
    let flags = file_storage(&store);
    let mut args: Vec<&str> = flags.iter().map(String::as_str).collect();
    args.extend(["--log-level", "error"]);
    let env = [("PLANNING_PLANNING_MAX_TASKS", "100000")];
    let mut expected = Expectation::default();
    let mut kills_with_acks = 0;

    for round in 0..ROUNDS {
        let (client, pid) = stdio_client_with_pid(common::command(&home), &args, &env).await;
        check(&client, &file, &expected).await;

        let mutations = tokio::spawn(async move {
            let mut outcome = Expectation::default();
            let mut previous: Option<String> = None;
            for k in 0.. {
                let title = format!("r{round}-{k}");
                outcome.maybe_added.insert(title.clone());
                let add = json!({"tool": "add_tasks", "args": {"tasks": [{"title": title}]}});
                match client.call_tool(arguments(add)).await {
                    Ok(result) if result.is_error != Some(true) => {
                        outcome.maybe_added.remove(&title);
                        outcome.added.insert(title.clone());
                    }
                    Ok(result) => panic!("add refused: {result:?}"),
                    Err(_) => break,
                }
                if let Some(done) = previous.replace(title) {
                    let id = TaskId::from_content(&done, "").to_string();
                    outcome.maybe_completed.insert(done.clone());
                    let update = json!({"tool": "update_task_statuses",
                        "args": {"tasks": [{"task_id": id, "status": "completed"}]}});
                    match client.call_tool(arguments(update)).await {
                        Ok(result) if result.is_error != Some(true) => {
                            outcome.maybe_completed.remove(&done);
                            outcome.completed.insert(done);
                        }
                        Ok(result) => panic!("update refused: {result:?}"),
                        Err(_) => break,
                    }
                }
            }
            outcome
        });
        tokio::time::sleep(Duration::from_micros(random_below(25_000))).await;
        signal(pid, "KILL");
        let outcome = tokio::time::timeout(Duration::from_secs(20), mutations)
            .await
            .expect("the client notices the kill")
            .unwrap();
        if !outcome.added.is_empty() {
            kills_with_acks += 1;
        }
        expected.added.extend(outcome.added);
        expected.maybe_added.extend(outcome.maybe_added);
        expected.completed.extend(outcome.completed);
        expected.maybe_completed.extend(outcome.maybe_completed);
    }
    let (client, _) = stdio_client_with_pid(common::command(&home), &args, &env).await;
    check(&client, &file, &expected).await;
    client.cancel().await.unwrap();
    assert!(
        kills_with_acks >= ROUNDS / 2,
        "most kills should land after some acknowledged calls ({kills_with_acks} of {ROUNDS})"
    );
    assert!(
        expected.added.len() >= ROUNDS,
        "{} changes acknowledged",
        expected.added.len()
    );
}

/// The file parses, and the board holds every acknowledged change.
async fn check(client: &common::Client, file: &std::path::Path, expected: &Expectation) {
    if file.exists() {
        let saved: Value = serde_json::from_slice(&std::fs::read(file).unwrap())
            .expect("the snapshot always parses");
        assert_eq!(saved["format"], "planning-mcp-server board");
    }
    let list = common::ok(client, "get_tasks", json!({})).await;
    let tasks: BTreeMap<String, char> = list
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("- ")?;
            let glyph = rest.chars().next()?;
            let title = rest.split_once("] ")?.1.to_owned();
            Some((title, glyph))
        })
        .collect();
    for title in &expected.added {
        let glyph = tasks
            .get(title)
            .unwrap_or_else(|| panic!("acknowledged task {title} lost"));
        if expected.completed.contains(title) {
            assert_eq!(*glyph, '☑', "acknowledged completion of {title} lost");
        } else if !expected.maybe_completed.contains(title) {
            assert_eq!(*glyph, '☐', "{title}");
        }
    }
    for title in tasks.keys() {
        assert!(
            expected.added.contains(title) || expected.maybe_added.contains(title),
            "a task nobody sent: {title}"
        );
    }
}
