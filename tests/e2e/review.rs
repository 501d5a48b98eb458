// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A person's review of an agent's completion (docs/review.md), through a
//! real MCP client and the terminal's `board review`: under
//! `[team] require_review` a completion waits; no MCP tool the agent can
//! call approves it; a rejection's reason reaches the next claimant.

use crate::common;
use crate::common::{call, file_storage, id, ok, run_binary, stdio_client};
use crate::team::{TEAM, redact_times};

use serde_json::{Value, json};
use tempfile::TempDir;

/// The environment that turns review on.
const REVIEW: [(&str, &str); 1] = [("PLANNING_TEAM_REQUIRE_REVIEW", "true")];

/// A server with team on, its board in `dir/store`, review required.
async fn reviewing_agent(dir: &TempDir) -> common::Client {
    let storage = file_storage(&dir.path().join("store"));
    let mut args: Vec<&str> = TEAM.to_vec();
    args.extend(storage.iter().map(String::as_str));
    stdio_client(dir, &args, &REVIEW).await
}

/// `board review ...` on the stored board of `dir`, as `ada`.
async fn review(dir: &TempDir, args: &[&str]) -> (i32, String, String) {
    let storage = file_storage(&dir.path().join("store"));
    let mut all: Vec<&str> = vec!["board", "review"];
    all.extend(args);
    all.extend(storage.iter().map(String::as_str));
    run_binary(dir, &all, &[("USER", "ada")]).await
}

/// Claims `task` as `agent` (or renews the claim); the reply.
async fn claim(client: &common::Client, agent: &str, task: &str) -> String {
    ok(
        client,
        "claim_task",
        json!({"agent": agent, "task_id": task}),
    )
    .await
}

/// Adds `title`, claims it as w1 and releases it as completed with a note.
async fn complete(client: &common::Client, title: &str) -> String {
    ok(client, "add_tasks", json!({"tasks": [{"title": title}]})).await;
    let task = id(title);
    claim(client, "w1", &task).await;
    ok(
        client,
        "release_task",
        json!({"agent": "w1", "task_id": task, "status": "completed", "note": "all green"}),
    )
    .await
}

#[tokio::test]
async fn a_completion_waits_and_the_agent_cannot_approve_it() {
    let dir = tempfile::tempdir().unwrap();
    let client = reviewing_agent(&dir).await;
    let released = complete(&client, "Parser").await;
    let task = id("Parser");
    insta::assert_snapshot!("review_released", redact_times(&released));
    let listed = ok(&client, "get_tasks", json!({})).await;
    assert!(listed.contains(&format!("- ⧗ [{task}] Parser")), "{listed}");
    assert!(listed.contains("⧗ awaiting review"), "the legend: {listed}");

    // Every path an agent has to a completion is refused and changes nothing.
    let (refused, text) = call(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": task, "status": "completed"}]}),
    )
    .await;
    assert!(refused, "{text}");
    assert_eq!(
        text,
        format!(
            "[{task}] awaits a person's review: only a person approves or rejects it \
             (planning-mcp-server board review approve|reject {task}, or the web board); \
             nothing changed."
        )
    );
    let (refused, text) = call(
        &client,
        "release_task",
        json!({"agent": "w1", "task_id": task, "status": "completed", "note": "really"}),
    )
    .await;
    assert!(refused, "{text}");
    insta::assert_snapshot!("review_second_release", text);
    let (refused, text) = call(
        &client,
        "claim_task",
        json!({"agent": "w2", "task_id": task}),
    )
    .await;
    assert!(
        refused && text.contains("awaits a person's review"),
        "{text}"
    );
    let (refused, text) = call(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": task, "status": "awaiting_review"}]}),
    )
    .await;
    assert!(refused && text.contains("not set by hand"), "{text}");
    // Under review, the planning tool completes no task at all.
    ok(&client, "add_tasks", json!({"tasks": [{"title": "Lexer"}]})).await;
    let (refused, text) = call(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": id("Lexer"), "status": "completed"}]}),
    )
    .await;
    assert!(
        refused && text.contains("requires a person's review"),
        "{text}"
    );
    let listed = ok(&client, "get_tasks", json!({})).await;
    assert!(listed.contains(&format!("- ⧗ [{task}] Parser")), "{listed}");
    assert!(
        listed.contains(&format!("- ☐ [{}] Lexer", id("Lexer"))),
        "{listed}"
    );

    // The person approves from the terminal: it is completed, the
    // reviewer kept with the evidence.
    let (code, out, err) = review(&dir, &["approve", &task, "--json"]).await;
    assert_eq!(code, 0, "{err}");
    let outcome: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(outcome["task_id"], json!(task));
    assert_eq!(outcome["status"], json!("completed"));
    assert_eq!(outcome["verdict"], json!("approved"));
    assert_eq!(outcome["reviewer"], json!("ada"));
    assert_eq!(outcome["evidence_by"], json!("w1"));
    let board = ok(&client, "team_board", json!({})).await;
    assert!(
        board.contains(&format!(
            "- ☑ [{task}] Parser · evidence: \"all green\" (by w1), approved by ada"
        )),
        "{board}"
    );

    // Twice is refused, with exit status 1 and nothing on standard output.
    let (code, out, err) = review(&dir, &["approve", &task]).await;
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("does not await review (it is completed)"),
        "{err}"
    );
}

#[tokio::test]
async fn a_rejection_reaches_the_next_claimant() {
    let dir = tempfile::tempdir().unwrap();
    let client = reviewing_agent(&dir).await;
    complete(&client, "Parser").await;
    let task = id("Parser");

    let (code, _, err) = review(&dir, &["reject", &task, "--reason", "   "]).await;
    assert_eq!(code, 1);
    assert!(
        err.contains("reason of a rejection must not be blank"),
        "{err}"
    );
    let (code, out, err) = review(
        &dir,
        &[
            "reject",
            &task,
            "--reason",
            "the tests skip the lexer",
            "--by",
            "grace",
        ],
    )
    .await;
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("review_rejected", redact_times(&out));

    let digest = ok(&client, "team_board", json!({})).await;
    assert!(digest.contains("rejected by grace"), "{digest}");
    let claimed = claim(&client, "w2", &task).await;
    insta::assert_snapshot!("review_claim_after_rejection", redact_times(&claimed));
    // Once claimed, the reason has been handed over; a renewal does not repeat it.
    let renewed = claim(&client, "w2", &task).await;
    assert!(!renewed.contains("Rejected by"), "{renewed}");
}

#[tokio::test]
async fn the_lead_waits_for_review_and_for_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let client = reviewing_agent(&dir).await;
    // The server opened the board at revision 0: what follows counts.
    let revision = 0;
    complete(&client, "Parser").await;
    let woke = ok(
        &client,
        "wait_for",
        json!({"events": ["review"], "revision": revision}),
    )
    .await;
    assert!(
        woke.starts_with("Awaiting a person's review (1):"),
        "{woke}"
    );
    assert!(
        woke.contains(&format!("- ⧗ [{}] Parser", id("Parser"))),
        "{woke}"
    );
    let revision = revision_of(&woke);
    let (code, _, err) = review(&dir, &["approve", &id("Parser")]).await;
    assert_eq!(code, 0, "{err}");
    let woke = ok(
        &client,
        "wait_for",
        json!({"events": ["reviewed"], "revision": revision}),
    )
    .await;
    assert!(
        woke.starts_with("Reviewed by a person since revision"),
        "{woke}"
    );
}

/// The revision a `wait_for` reply ends with.
fn revision_of(reply: &str) -> i64 {
    reply
        .lines()
        .find_map(|line| line.strip_prefix("Revision "))
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no revision in {reply}"))
}

#[tokio::test]
async fn the_cli_says_why_it_cannot_review() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing stored yet.
    let (code, out, err) = review(&dir, &["approve", "a46f8d35"]).await;
    assert_eq!(
        (code, out.as_str()),
        (3, ""),
        "exit status 3: no such board"
    );
    assert!(err.contains("none is stored at"), "{err}");
    // A stored board, and an ID that names no task.
    let client = reviewing_agent(&dir).await;
    complete(&client, "Parser").await;
    let (code, _, err) = review(&dir, &["approve", "ffffffff"]).await;
    assert_eq!(code, 4, "exit status 4: no such task");
    assert!(err.contains("No task has the ID 'ffffffff'"), "{err}");
}

/// `board note ...` on the stored board of `dir`, as `ada`.
async fn note(dir: &TempDir, args: &[&str]) -> (i32, String, String) {
    let storage = file_storage(&dir.path().join("store"));
    let mut all: Vec<&str> = vec!["board", "note"];
    all.extend(args);
    all.extend(storage.iter().map(String::as_str));
    run_binary(dir, &all, &[("USER", "ada")]).await
}

#[tokio::test]
async fn a_note_reaches_the_holder_once() {
    let dir = tempfile::tempdir().unwrap();
    let client = reviewing_agent(&dir).await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "Parser"}, {"title": "Lexer"}]}),
    )
    .await;
    let (parser, lexer) = (id("Parser"), id("Lexer"));
    claim(&client, "w1", &parser).await;

    let (code, out, err) = note(&dir, &[&parser, "use the v2 lexer API", "--json"]).await;
    assert_eq!(code, 0, "{err}");
    let left: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(left, json!({"note": 1, "task_id": parser, "by": "ada"}));
    let (code, out, err) = note(&dir, &["stop after the parser"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "Note 2 left on the board: the next reply of the next agent that calls carries it once.\n"
    );
    let digest = ok(&client, "team_board", json!({})).await;
    assert!(
        digest.contains(&format!("- ⟳ [{parser}] Parser")),
        "{digest}"
    );
    let (code, _, err) = note(&dir, &["ffffffff", "x"]).await;
    assert_eq!(code, 4, "exit status 4: no such task");
    assert!(err.contains("No task has the ID 'ffffffff'"), "{err}");

    // w1 holds the parser: its next reply carries both notes first, once.
    let renewed = claim(&client, "w1", &parser).await;
    insta::assert_snapshot!("review_note_carried", redact_times(&renewed));
    let again = claim(&client, "w1", &parser).await;
    assert!(!again.contains("NOTE from"), "told once: {again}");
    // Another agent gets neither: the board note reached w1 already.
    let other = claim(&client, "w2", &lexer).await;
    assert!(!other.contains("NOTE from"), "{other}");
}

#[tokio::test]
async fn a_reworded_task_answers_its_holder_with_the_new_id() {
    let dir = tempfile::tempdir().unwrap();
    let client = reviewing_agent(&dir).await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "Parser"}]}),
    )
    .await;
    let old = id("Parser");
    claim(&client, "w1", &old).await;
    // The person rewords it (here through the planning tool a lead or the
    // web board uses): its ID follows its words.
    ok(
        &client,
        "modify_task",
        json!({"task_id": old, "title": "Parser v2"}),
    )
    .await;
    let new = id("Parser v2");
    let expected = format!(
        "[{old}] was reworded by a person: it is now [{new}] (its ID follows its words; its \
         claim moved with it); read it again (get_tasks or team_board) and call again with \
         task_id {new}. Nothing changed."
    );
    let (refused, text) = call(
        &client,
        "release_task",
        json!({"agent": "w1", "task_id": old, "status": "pending"}),
    )
    .await;
    assert!(refused);
    assert_eq!(text, expected);
    let (refused, text) = call(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": old, "status": "failed"}]}),
    )
    .await;
    assert!(refused);
    assert_eq!(text, expected);
    // The new ID works, and the claim is still w1's.
    let released = ok(
        &client,
        "release_task",
        json!({"agent": "w1", "task_id": new, "status": "pending"}),
    )
    .await;
    assert!(
        released.starts_with(&format!("Released [{new}] as pending.")),
        "{released}"
    );
    // The redirect is stored with the board: a new server on it answers so too.
    drop(client);
    let client = reviewing_agent(&dir).await;
    let (refused, text) = call(
        &client,
        "claim_task",
        json!({"agent": "w1", "task_id": old}),
    )
    .await;
    assert!(refused);
    assert_eq!(text, expected);
}

#[tokio::test]
async fn a_persons_status_leaves_a_task_awaiting_review_to_board_review() {
    let dir = tempfile::tempdir().unwrap();
    let client = reviewing_agent(&dir).await;
    complete(&client, "Parser").await;
    let task = id("Parser");
    let storage = file_storage(&dir.path().join("store"));
    let board = |args: &[&str]| {
        let mut all: Vec<String> = ["board"]
            .iter()
            .chain(args)
            .map(|a| a.to_string())
            .collect();
        all.extend(storage.iter().cloned());
        all
    };
    let args = board(&["status", &task, "completed"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run_binary(&dir, &args, &REVIEW).await;
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains(&format!(
            "[{task}] awaits a person's review: only a person approves or rejects it \
             (planning-mcp-server board review approve|reject {task}"
        )),
        "{err}"
    );
    let listed = ok(&client, "get_tasks", json!({})).await;
    assert!(listed.contains(&format!("- ⧗ [{task}] Parser")), "{listed}");

    // A task no agent completed: the person completes it themself.
    ok(&client, "add_tasks", json!({"tasks": [{"title": "Lexer"}]})).await;
    let args = board(&["status", &id("Lexer"), "completed"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = run_binary(&dir, &args, &REVIEW).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("- ☑ [{}] Lexer\n", id("Lexer")));
}

#[tokio::test]
async fn a_task_the_person_adds_and_rewords_from_the_terminal_reaches_the_agent() {
    let dir = tempfile::tempdir().unwrap();
    let client = reviewing_agent(&dir).await;
    let storage = file_storage(&dir.path().join("store"));
    let board = |args: &[&str]| -> Vec<String> {
        let mut all: Vec<String> = ["board"]
            .iter()
            .chain(args)
            .map(|a| a.to_string())
            .collect();
        all.extend(storage.iter().cloned());
        all
    };
    let add = board(&["add", "Parser"]);
    let add: Vec<&str> = add.iter().map(String::as_str).collect();
    let (code, out, err) = run_binary(&dir, &add, &[]).await;
    assert_eq!((code, out), (0, format!("{}\n", id("Parser"))), "{err}");
    // The running server reads the stored board at its next call.
    let old = id("Parser");
    claim(&client, "w1", &old).await;

    let edit = board(&["edit", &old, "--title", "Parser v2"]);
    let edit: Vec<&str> = edit.iter().map(String::as_str).collect();
    let (code, out, err) = run_binary(&dir, &edit, &[]).await;
    let new = id("Parser v2");
    assert_eq!((code, out), (0, format!("{new}\n")), "{err}");
    let (refused, text) = call(
        &client,
        "release_task",
        json!({"agent": "w1", "task_id": old, "status": "pending"}),
    )
    .await;
    assert!(refused, "{text}");
    assert!(
        text.starts_with(&format!(
            "[{old}] was reworded by a person: it is now [{new}]"
        )),
        "{text}"
    );
}
