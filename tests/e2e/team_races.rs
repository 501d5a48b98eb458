// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Races, not hopes: many claimants of one task, exactly one wins; HTTP
//! sessions draining a linked board through the ready queue, each task
//! claimed once and only when ready; four
//! processes on one board file, exactly one winner per task and no lost
//! update; a lease that ends frees its task for another process, seen
//! through a shifted clock instead of a wait.

use crate::common;
use crate::common::id;
use crate::team::{TEAM, redact_times};

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use common::{HttpServer, call, file_storage, ok, stdio_client};
use serde_json::json;
use tokio::sync::Barrier;

const SESSIONS: usize = 32;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn thirty_two_sessions_claim_one_task_and_exactly_one_wins() {
    let server = HttpServer::start(&TEAM, &[]).await;
    let lead = server.client().await;
    ok(
        &lead,
        "add_tasks",
        json!({"tasks": [{"title": "the one task"}]}),
    )
    .await;
    let mut clients = Vec::new();
    for _ in 0..SESSIONS {
        clients.push(server.client().await);
    }
    // Every session is connected before anyone claims; then all at once.
    let start = Arc::new(Barrier::new(SESSIONS));
    let mut racers = Vec::new();
    for (n, client) in clients.into_iter().enumerate() {
        let start = start.clone();
        racers.push(tokio::spawn(async move {
            start.wait().await;
            let agent = format!("agent-{n}");
            let claimed = call(
                &client,
                "claim_task",
                json!({"agent": agent, "task_id": id("the one task")}),
            )
            .await;
            client.cancel().await.unwrap();
            (agent, claimed)
        }));
    }
    let mut winners = Vec::new();
    let mut refusals = Vec::new();
    for racer in racers {
        let (agent, (is_error, text)) = racer.await.unwrap();
        match is_error {
            false => winners.push((agent, text)),
            true => refusals.push(text),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one wins: {winners:?}");
    let winner = &winners[0].0;
    assert_eq!(refusals.len(), SESSIONS - 1);
    for refusal in &refusals {
        assert!(
            refusal.starts_with(&format!(
                "[{}] is held by {winner} until ",
                id("the one task")
            )),
            "the refusal names the holder: {refusal}"
        );
    }
    let board = ok(&lead, "team_board", json!({})).await;
    assert!(
        board.contains(&format!("held by {winner} until")),
        "{board}"
    );
    lead.cancel().await.unwrap();
}

/// The ID in the task line of a claim's reply (its second line).
fn claimed_id(reply: &str) -> String {
    let line = reply.lines().nth(1).unwrap();
    let task = line
        .split_once('[')
        .and_then(|(_, rest)| rest.split_once(']'));
    task.unwrap().0.to_owned()
}

const WORKERS: usize = 8;
const CHAINED: usize = 40;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn http_workers_drain_a_linked_board_through_the_ready_queue() {
    let server = HttpServer::start(&TEAM, &[]).await;
    let lead = server.client().await;
    let titles: Vec<String> = (0..CHAINED).map(|n| format!("step {n}")).collect();
    let tasks: Vec<_> = titles.iter().map(|t| json!({"title": t})).collect();
    ok(
        &lead,
        "set_goal",
        json!({"title": "Drain the board", "description": ""}),
    )
    .await;
    ok(&lead, "add_tasks", json!({"tasks": tasks})).await;
    // Odd steps wait for the step before them: half the board becomes
    // ready only as the other half is completed, in the middle of the race.
    for pair in titles.chunks(2) {
        let link = json!({"task_id": id(&pair[1]), "blocked_by": [id(&pair[0])]});
        ok(&lead, "link_tasks", link).await;
    }
    let mut clients = Vec::new();
    for _ in 0..WORKERS {
        clients.push(server.client().await);
    }
    let start = Arc::new(Barrier::new(WORKERS));
    let mut workers = Vec::new();
    for (n, client) in clients.into_iter().enumerate() {
        let start = start.clone();
        workers.push(tokio::spawn(async move {
            start.wait().await;
            let agent = format!("worker-{n}");
            let mut done = Vec::new();
            // Claim the next ready task and complete it, until none is ready.
            loop {
                let (refused, text) = call(&client, "claim_task", json!({"agent": agent})).await;
                if refused {
                    assert!(text.starts_with("No task is ready"), "{text}");
                    break;
                }
                assert!(!text.contains("waits for"), "claimed while blocked: {text}");
                let task = claimed_id(&text);
                let release =
                    json!({"agent": agent, "task_id": task, "status": "completed", "note": "done"});
                let released = ok(&client, "release_task", release).await;
                assert!(
                    released.starts_with(&format!("Released [{task}] as completed")),
                    "{released}"
                );
                done.push(task);
            }
            client.cancel().await.unwrap();
            done
        }));
    }
    let mut completed_by_one = BTreeSet::new();
    for worker in workers {
        for task in worker.await.unwrap() {
            assert!(
                completed_by_one.insert(task.clone()),
                "{task} claimed twice"
            );
        }
    }
    let all: BTreeSet<String> = titles.iter().map(|t| id(t)).collect();
    assert_eq!(
        completed_by_one, all,
        "every task claimed and completed once"
    );
    let board = ok(&lead, "team_board", json!({})).await;
    assert!(
        board.contains(&format!(
            "Goal met: yes (every task is completed or cancelled)\nTasks: {CHAINED} (0 pending, 0 in progress, {CHAINED} completed, 0 failed, 0 cancelled); {CHAINED} of {CHAINED} completed with evidence"
        )),
        "{board}"
    );
    lead.cancel().await.unwrap();
}

const PROCESSES: usize = 4;
const TASKS: usize = 24;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn four_processes_on_one_file_have_one_winner_per_task() {
    let home = tempfile::tempdir().unwrap();
    let mut flags: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    flags.extend(file_storage(&home.path().join("store")));
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let env = [("PLANNING_STORAGE_FSYNC", "false")];
    let titles: Vec<String> = (0..TASKS).map(|n| format!("task {n}")).collect();

    let setup = stdio_client(&home, &args, &env).await;
    let tasks: Vec<_> = titles.iter().map(|t| json!({"title": t})).collect();
    ok(&setup, "add_tasks", json!({"tasks": tasks})).await;
    setup.cancel().await.unwrap();

    let mut clients = Vec::new();
    for _ in 0..PROCESSES {
        clients.push(stdio_client(&home, &args, &env).await);
    }
    let start = Arc::new(Barrier::new(PROCESSES));
    let mut workers = Vec::new();
    for (p, client) in clients.into_iter().enumerate() {
        let (start, titles) = (start.clone(), titles.clone());
        workers.push(tokio::spawn(async move {
            start.wait().await;
            let agent = format!("process-{p}");
            let mut won = Vec::new();
            // The first half by ID, every process the same task at once...
            for title in &titles[..TASKS / 2] {
                let args = json!({"agent": agent, "task_id": id(title)});
                if !call(&client, "claim_task", args).await.0 {
                    won.push(id(title));
                }
            }
            // ...the rest as "the next ready task", until none is left.
            loop {
                let (refused, text) = call(&client, "claim_task", json!({"agent": agent})).await;
                if refused {
                    assert!(text.starts_with("No task is ready"), "{text}");
                    break;
                }
                won.push(claimed_id(&text));
            }
            client.cancel().await.unwrap();
            (agent, won)
        }));
    }
    let mut winner_of: BTreeMap<String, String> = BTreeMap::new();
    for worker in workers {
        let (agent, won) = worker.await.unwrap();
        for task in won {
            let before = winner_of.insert(task.clone(), agent.clone());
            assert!(before.is_none(), "{task} won by {before:?} and {agent}");
        }
    }
    let all: BTreeSet<String> = titles.iter().map(|t| id(t)).collect();
    assert_eq!(
        winner_of.keys().cloned().collect::<BTreeSet<_>>(),
        all,
        "every task won once"
    );

    // No lost update: the board holds every claim, by its winner.
    let observer = stdio_client(&home, &args, &env).await;
    let board = ok(&observer, "team_board", json!({})).await;
    observer.cancel().await.unwrap();
    for (task, agent) in &winner_of {
        assert!(
            board.contains(&format!("[{task}] "))
                && board.lines().any(|l| l.contains(&format!("[{task}]"))
                    && l.contains(&format!("held by {agent} until"))),
            "{task} held by {agent}: {board}"
        );
    }
}

#[tokio::test]
async fn an_ended_lease_frees_the_task_for_another_process() {
    let home = tempfile::tempdir().unwrap();
    let mut flags: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    flags.extend(file_storage(&home.path().join("store")));
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let now = stdio_client(&home, &args, &[]).await;
    ok(
        &now,
        "add_tasks",
        json!({"tasks": [{"title": "slow task"}]}),
    )
    .await;
    ok(
        &now,
        "claim_task",
        json!({"agent": "sleepy", "lease_minutes": 1}),
    )
    .await;
    // Another process whose clock runs two minutes ahead: the lease has
    // ended for it. (The offset is the test-only clock setting.)
    let later = stdio_client(&home, &args, &[("PLANNING_TEST_CLOCK_OFFSET", "120")]).await;
    let claimed = ok(&later, "claim_task", json!({"agent": "eager"})).await;
    let lines: Vec<&str> = claimed.lines().collect();
    assert_eq!(
        redact_times(lines[0]),
        format!(
            "Lease ended: [{}] slow task (held by sleepy until <time>); it is pending again.",
            id("slow task")
        )
    );
    assert!(lines[1].starts_with("Claimed by eager until "), "{claimed}");
    // The first process sees it at once: its own release is refused, and
    // it learns that its lease ran out, when, and who holds the task now.
    let (refused, text) = call(
        &now,
        "release_task",
        json!({"agent": "sleepy", "task_id": id("slow task"), "status": "completed"}),
    )
    .await;
    assert!(refused);
    assert_eq!(
        redact_times(&text),
        format!(
            "Your lease on [{}] ended at <time>, and eager holds the task now (until <time>); \
             claim another task (ready_tasks lists them).",
            id("slow task")
        )
    );
    now.cancel().await.unwrap();
    later.cancel().await.unwrap();
    let saved = std::fs::read_to_string(home.path().join("store/default.json")).unwrap();
    assert!(saved.contains("\"reason\": \"expired\""), "{saved}");

    let bad = common::command(&home)
        .args(["--toolsets", "planning,team"])
        .env("PLANNING_TEST_CLOCK_OFFSET", "soon")
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("PLANNING_TEST_CLOCK_OFFSET (a test-only setting) is 'soon'")
    );
}
