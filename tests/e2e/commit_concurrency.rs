// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit` with writers at once: two server processes on one
//! repository lose no update and leave no divergent jj change; sessions of
//! one server are serialised by its lock (no conflict at all); refused
//! calls write nothing (no jj operation, no git object or ref).

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::common::vcs::{Backend, Repo, jj_or_skip, pairs};
use crate::common::{Client, HttpServer, call, ok, stdio_client};

const CONFLICT: &str = "The plan changed while this call ran; nothing was written; call gather_requirements and retry.";

const TASKS: usize = 12;

/// A plan of [`TASKS`] open tasks.
async fn plan(client: &Client) {
    ok(
        client,
        "set_overarching_goal",
        json!({"goal": {"type": "feat", "title": "race"}}),
    )
    .await;
    let tasks: Vec<Value> = (1..=TASKS)
        .map(|n| json!({"text": format!("task {n}")}))
        .collect();
    ok(client, "set_plan", json!({"plan": tasks})).await;
}

/// Marks tasks `range` one after the other, retrying after a conflict;
/// answers how many conflicts it met.
async fn mark_all(client: Client, range: std::ops::RangeInclusive<usize>) -> (Client, usize) {
    let mut conflicts = 0;
    for n in range {
        loop {
            let (is_error, text) =
                call(&client, "mark_task", json!({"task_id": n.to_string()})).await;
            match (is_error, text.as_str()) {
                (false, _) => break,
                (true, CONFLICT) => {
                    conflicts += 1;
                    ok(&client, "gather_requirements", json!({})).await;
                }
                (true, other) => panic!("mark_task {n}: {other}"),
            }
        }
    }
    (client, conflicts)
}

/// The plan's text with every task ticked.
fn all_ticked() -> String {
    let tasks: String = (1..=TASKS).map(|n| format!("- [x]: task {n}\n")).collect();
    format!("feat: race\n\n{tasks}\n~~~ EXECUTE ~~~\n")
}

async fn two_processes(repo: &Repo) -> usize {
    let env = repo.server_env();
    let args = ["--toolsets", "commit"];
    let first = stdio_client(&repo.dir, &args, &pairs(&env)).await;
    let second = stdio_client(&repo.dir, &args, &pairs(&env)).await;
    plan(&first).await;
    let half = TASKS / 2;
    let (a, b) = tokio::join!(
        tokio::spawn(mark_all(first, 1..=half)),
        tokio::spawn(mark_all(second, half + 1..=TASKS))
    );
    let ((first, a), (second, b)) = (a.unwrap(), b.unwrap());
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
    a + b
}

#[tokio::test]
async fn commit_jj_two_processes_lose_no_update_and_make_no_divergent_change() {
    let Some(jj) =
        jj_or_skip("commit_jj_two_processes_lose_no_update_and_make_no_divergent_change")
    else {
        return;
    };
    let repo = Repo::new(Backend::Jj, Some(&jj));
    let conflicts = two_processes(&repo).await;
    assert_eq!(repo.jj_description("@"), all_ticked());
    let changes = repo.jj(&[
        "log",
        "-r",
        "all()",
        "--no-graph",
        "-T",
        "change_id ++ \"\\n\"",
    ]);
    let unique: HashSet<&str> = changes.lines().collect();
    assert_eq!(
        unique.len(),
        changes.lines().count(),
        "a divergent change: {changes}"
    );
    // The lock file in .jj/ serialises the two processes' calls.
    assert_eq!(conflicts, 0);
}

#[tokio::test]
async fn commit_git_two_processes_lose_no_update() {
    let repo = Repo::new(Backend::Git, None);
    let conflicts = two_processes(&repo).await;
    assert_eq!(repo.git_plan("main"), all_ticked());
    // One version per write, numbered in order with no gap or repeat.
    let versions = repo.git_plan_versions("main");
    let numbers: Vec<usize> = versions.iter().map(|v| v[..6].parse().unwrap()).collect();
    assert_eq!(
        numbers,
        (1..=versions.len()).collect::<Vec<_>>(),
        "{versions:?}"
    );
    let counts = versions;
    // Two writes (goal, plan) and one per task; a lost race writes nothing.
    assert_eq!(counts.len(), 2 + TASKS, "{conflicts} conflicts");
    eprintln!("two git servers: {conflicts} lost races, each retried");
}

#[tokio::test]
async fn commit_sessions_of_one_server_are_serialised_without_conflict() {
    let repo = Repo::new(Backend::Git, None);
    let env = repo.server_env();
    let server = HttpServer::start_in(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await;
    plan(&server.client().await).await;
    let mut sessions = Vec::new();
    for start in (1..=TASKS).step_by(3) {
        let client = server.client().await;
        sessions.push(tokio::spawn(mark_all(client, start..=start + 2)));
    }
    for session in sessions {
        let (client, conflicts) = session.await.unwrap();
        assert_eq!(conflicts, 0, "one lock per repository in the process");
        client.cancel().await.unwrap();
    }
    assert_eq!(repo.git_plan("main"), all_ticked());
}

/// Calls that are refused, on every stage of a plan.
fn refused_calls() -> Vec<(&'static str, Value)> {
    vec![
        (
            "set_detailed_goal",
            json!({"description": "- [ ]: a task line"}),
        ),
        ("set_constraints", json!({"constraints": ["Should: x"]})),
        ("set_plan", json!({"plan": []})),
        ("set_plan", json!({"plan": [{"text": "a\nb"}]})),
        ("mark_task", json!({"task_id": "9"})),
        ("finish_job", json!({})),
        (
            "set_overarching_goal",
            json!({"goal": {"type": "feat", "scope": "A B", "title": "x"}}),
        ),
        (
            "set_overarching_goal",
            json!({"goal": {"type": "feat", "title": "x"}, "start_new": true}),
        ),
        ("verify_plan", json!({"migrate": true})),
    ]
}

async fn refusals_write_nothing(client: &Client, state: impl Fn() -> String) {
    ok(
        client,
        "set_overarching_goal",
        json!({"goal": {"type": "feat", "title": "keep"}}),
    )
    .await;
    ok(client, "set_plan", json!({"plan": [{"text": "open"}]})).await;
    let before = state();
    for (tool, arguments) in refused_calls() {
        let (is_error, text) = call(client, tool, arguments.clone()).await;
        assert!(is_error, "{tool} {arguments}: {text}");
        assert_eq!(state(), before, "{tool} {arguments} changed something");
    }
    // Unchanged successes write nothing either.
    for (tool, arguments) in [
        (
            "set_overarching_goal",
            json!({"goal": {"type": "feat", "title": "keep"}}),
        ),
        ("set_plan", json!({"plan": [{"text": "open"}]})),
        ("set_constraints", json!({"constraints": []})),
        ("mark_task", json!({"task_id": "open", "completed": false})),
        ("unfinish_job", json!({})),
        ("gather_requirements", json!({})),
        ("verify_plan", json!({})),
    ] {
        ok(client, tool, arguments.clone()).await;
        assert_eq!(state(), before, "{tool} {arguments} changed something");
    }
}

#[tokio::test]
async fn commit_jj_refused_calls_make_no_operation() {
    let Some(jj) = jj_or_skip("commit_jj_refused_calls_make_no_operation") else {
        return;
    };
    let repo = Repo::new(Backend::Jj, Some(&jj));
    let env = repo.server_env();
    let client = stdio_client(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await;
    refusals_write_nothing(&client, || {
        format!(
            "{} operations\n{}",
            repo.jj_operations(),
            repo.jj_description("@")
        )
    })
    .await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_refused_calls_make_no_object_or_ref() {
    let repo = Repo::new(Backend::Git, None);
    let env = repo.server_env();
    let client = stdio_client(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await;
    refusals_write_nothing(&client, || {
        let objects = repo.git(&["count-objects", "-v"]);
        let refs = repo.git(&["for-each-ref"]);
        format!("{objects}{refs}{}", repo.git_untouchables())
    })
    .await;
    client.cancel().await.unwrap();
}
