// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Crash safety: SIGKILL the server again and again, each time after a
//! chosen number of acknowledged calls and a random delay into the next one,
//! and check that every acknowledged change survived and the file always
//! parses. The kill is placed by counting acknowledgements, not by time, so
//! the test asks the same of a busy machine as of an idle one.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{BuildHasher, RandomState};
use std::time::Duration;

use common::{file_storage, signal, stdio_client_with_pid};
use planning_mcp_server::api::planning::TaskId;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

const ROUNDS: usize = 100;

/// The most acknowledged calls before a kill; each round picks 1 to this many.
const MAX_ACKS_BEFORE_KILL: u64 = 8;

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
    let mut acknowledged_calls = 0;

    for round in 0..ROUNDS {
        let (client, pid) = stdio_client_with_pid(common::command(&home), &args, &env).await;
        check(&client, &file, &expected).await;

        let (acked, mut acks) = tokio::sync::watch::channel(0usize);
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
                        acked.send_modify(|n| *n += 1);
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
                            acked.send_modify(|n| *n += 1);
                        }
                        Ok(result) => panic!("update refused: {result:?}"),
                        Err(_) => break,
                    }
                }
            }
            outcome
        });
        // Kill after this many acknowledged calls, a random moment into the
        // next one: the delay only moves the kill within that call.
        let target = 1 + random_below(MAX_ACKS_BEFORE_KILL) as usize;
        acks.wait_for(|n| *n >= target)
            .await
            .expect("the server acknowledges calls until it is killed");
        tokio::time::sleep(Duration::from_micros(random_below(2_000))).await;
        signal(pid, "KILL");
        let outcome = common::within_hang("the client notices the kill", mutations)
            .await
            .unwrap();
        let acknowledged = outcome.added.len() + outcome.completed.len();
        assert!(acknowledged >= target, "{acknowledged} < {target}");
        acknowledged_calls += acknowledged;
        expected.added.extend(outcome.added);
        expected.maybe_added.extend(outcome.maybe_added);
        expected.completed.extend(outcome.completed);
        expected.maybe_completed.extend(outcome.maybe_completed);
    }
    let (client, _) = stdio_client_with_pid(common::command(&home), &args, &env).await;
    check(&client, &file, &expected).await;
    client.cancel().await.unwrap();
    assert!(
        acknowledged_calls >= ROUNDS,
        "every round acknowledged at least one call: {acknowledged_calls}"
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
