// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A lead dispatching three workers on a wave whose touches do not
//! overlap, its context compacted (it reads only the digest), and one
//! stalled worker's task dispatched again: the second transcript of
//! docs/team.md, written by this test
//! (`PLANNING_TEAM_TRANSCRIPT=write cargo test --test e2e team_dispatch`)
//! and compared with it (times redacted) on every other run.
//!
//! Twenty minutes pass between the compaction and the re-dispatch: the
//! test restarts the server on the same board file with its clock twenty
//! minutes ahead (`PLANNING_TEST_CLOCK_OFFSET=1200`) instead of waiting.

use std::fmt::Write;

use rmcp::model::CallToolRequestParams;
use serde_json::json;

use crate::common::{self, HttpServer, call, file_storage, id};
use crate::team::{TEAM, TEAM_DOC, redact_shape, redact_times, step};

const BEGIN: &str = "<!-- dispatch-transcript:begin -->\n";
const END: &str = "<!-- dispatch-transcript:end -->";

/// `text` with full times and the digest's short times (`08:25:00Z`)
/// redacted.
fn redact(text: &str) -> String {
    redact_shape(&redact_times(text), b"dd:dd:ddZ")
}

/// The digest as the lead's SessionStart hook gets it after a compaction.
async fn hook(transcript: &mut String, dir: &tempfile::TempDir, server: &HttpServer) {
    let output = common::command(dir)
        .args(["summary", "--board", "release", "--url", server.base()])
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let digest = String::from_utf8(output.stdout).unwrap();
    let _ = write!(
        transcript,
        "**hook** runs `planning-mcp-server summary --board release --url URL` and gets:\n\n\
         ```markdown\n{digest}```\n\n"
    );
}

#[tokio::test]
async fn a_lead_dispatches_three_workers_compacts_and_dispatches_a_stalled_task_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    args.extend(file_storage(&dir.path().join("store")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut server = HttpServer::start_in(&dir, &args, &[]).await;
    let url = server.board_url("release");
    let lead = common::client_at(&url).await;
    let mut t = String::new();

    step(
        &mut t,
        "lead",
        &lead,
        "set_goal",
        json!({"title": "Ship 1.1", "description": "the parser, the CLI and the docs"}),
    )
    .await;
    // The whole plan in one call: each task's touches, and the release
    // notes waiting for the first three (by their positions in the call).
    step(
        &mut t,
        "lead",
        &lead,
        "add_tasks",
        json!({"tasks": [
            {"title": "Parser", "touches": ["src/parser/**", "tests/parser.rs"]},
            {"title": "CLI", "touches": ["src/cli/**"]},
            {"title": "Docs", "touches": ["docs/**", "README.md"]},
            {"title": "Lexer", "touches": ["src/parser/lexer.rs"]},
            {"title": "Release notes", "touches": ["CHANGELOG.md"], "blocked_by": [1, 2, 3]},
        ]}),
    )
    .await;
    // A wave of three is three calls: each dispatch takes the next task
    // of the ready wave (Lexer overlaps the parser's paths: held back).
    for (worker, place) in [
        ("worker-1", "../wt-parser"),
        ("worker-2", "../wt-cli"),
        ("worker-3", "../wt-docs"),
    ] {
        step(
            &mut t,
            "lead",
            &lead,
            "dispatch_task",
            json!({"lead": "lead", "worker": worker, "worktree": place}),
        )
        .await;
    }
    let w1 = common::client_at(&url).await;
    let w2 = common::client_at(&url).await;
    step(
        &mut t,
        "worker-1",
        &w1,
        "claim_task",
        json!({"agent": "worker-1", "task_id": id("Parser"), "lease_minutes": 60}),
    )
    .await;
    step(
        &mut t,
        "worker-2",
        &w2,
        "claim_task",
        json!({"agent": "worker-2", "task_id": id("CLI"), "lease_minutes": 60}),
    )
    .await;
    step(
        &mut t,
        "worker-2",
        &w2,
        "claim_task",
        json!({"agent": "worker-2", "task_id": id("Lexer")}),
    )
    .await;
    step(&mut t, "worker-1", &w1, "release_task", json!({"agent": "worker-1", "task_id": id("Parser"), "status": "completed", "command": "cargo test parser", "exit_code": 0})).await;
    step(
        &mut t,
        "lead",
        &lead,
        "wait_for",
        json!({"events": ["finished"], "task_ids": [id("Parser"), id("CLI"), id("Docs")]}),
    )
    .await;
    let _ = writeln!(
        t,
        "The lead's context is compacted. Its SessionStart hook brings the board back:\n"
    );
    hook(&mut t, &dir, &server).await;
    for client in [lead, w1, w2] {
        client.cancel().await.unwrap();
    }

    // Twenty minutes later: worker-3 never claimed Docs.
    common::signal(server.pid(), "TERM");
    assert!(server.wait().await.success());
    let later = [("PLANNING_TEST_CLOCK_OFFSET", "1200")];
    let server = HttpServer::start_in(&dir, &args, &later).await;
    let url = server.board_url("release");
    let _ = writeln!(t, "Twenty minutes later, after another compaction:\n");
    hook(&mut t, &dir, &server).await;
    let lead = common::client_at(&url).await;
    step(
        &mut t,
        "lead",
        &lead,
        "wait_for",
        json!({"events": ["finished", "stalled"], "task_ids": [id("CLI"), id("Docs")]}),
    )
    .await;
    step(
        &mut t,
        "lead",
        &lead,
        "ready_tasks",
        json!({"stalled": "only"}),
    )
    .await;
    step(&mut t, "lead", &lead, "dispatch_task", json!({"lead": "lead", "worker": "worker-4", "task_id": id("Docs"), "worktree": "../wt-docs", "note": "worker-3 never started"})).await;
    let w4 = common::client_at(&url).await;
    step(
        &mut t,
        "worker-4",
        &w4,
        "claim_task",
        json!({"agent": "worker-4", "task_id": id("Docs")}),
    )
    .await;
    step(&mut t, "lead", &lead, "team_board", json!({})).await;
    let t = t.trim_end().to_owned() + "\n";
    insta::assert_snapshot!("lead_dispatches_three_workers", redact(&t));
    for client in [lead, w4] {
        client.cancel().await.unwrap();
    }

    let doc = std::fs::read_to_string(TEAM_DOC).unwrap();
    let (before, rest) = doc
        .split_once(BEGIN)
        .expect("the dispatch transcript's start marker");
    let (shown, after) = rest.split_once(END).expect("its end marker");
    if std::env::var_os("PLANNING_TEAM_TRANSCRIPT").is_some_and(|v| v == "write") {
        std::fs::write(TEAM_DOC, format!("{before}{BEGIN}{t}{END}{after}")).unwrap();
    } else {
        assert_eq!(
            redact(shown),
            redact(&t),
            "docs/team.md's dispatch transcript is not this run's: rewrite it with \
             PLANNING_TEAM_TRANSCRIPT=write cargo test --test e2e team_dispatch"
        );
    }
}

/// A wave of three dispatches is three calls: without `task_id` (and
/// without `ready_tasks` first) each dispatch takes the next task of the
/// ready wave, the one that unblocks the most first; a fourth, with
/// nothing ready, is refused and changes nothing.
#[tokio::test]
async fn three_dispatches_without_task_ids_take_three_tasks_in_ranked_order() {
    let dir = tempfile::tempdir().unwrap();
    let lead = common::stdio_client(&dir, &TEAM, &[]).await;
    let titles = [
        "Notes",
        "CLI",
        "Lexer",
        "Parser",
        "Checker",
        "Release notes",
    ];
    let tasks: Vec<_> = titles.iter().map(|t| json!({"title": t})).collect();
    common::ok(&lead, "add_tasks", json!({"tasks": tasks})).await;
    for (task, blockers) in [
        ("Parser", vec!["Lexer"]),
        ("Checker", vec!["Parser"]),
        ("Release notes", vec!["Checker", "CLI"]),
    ] {
        let blocked_by: Vec<String> = blockers.iter().map(|b| id(b)).collect();
        common::ok(
            &lead,
            "link_tasks",
            json!({"task_id": id(task), "blocked_by": blocked_by}),
        )
        .await;
    }
    // Lexer unblocks Parser, Checker and Release notes; CLI unblocks
    // Release notes; Notes nothing.
    let (mut taken, mut replies) = (Vec::new(), Vec::new());
    for (worker, title, why, unblocks) in [
        (
            "worker-1",
            "Lexer",
            " (the next ready task; it unblocks 3)",
            3,
        ),
        (
            "worker-2",
            "CLI",
            " (the next ready task; it unblocks 1)",
            1,
        ),
        ("worker-3", "Notes", " (the next ready task)", 0),
    ] {
        let arguments = json!({"lead": "lead", "worker": worker});
        let result = lead
            .call_tool(
                CallToolRequestParams::new("dispatch_task")
                    .with_arguments(arguments.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert_ne!(result.is_error, Some(true), "{result:?}");
        let text = result.content[0].as_text().unwrap().text.clone();
        // The fields say it too: which task, its title apart, and why.
        let fields = result.structured_content.expect("structured content");
        assert_eq!(fields["text"], json!(text));
        assert_eq!(fields["task"]["id"], json!(id(title)));
        assert_eq!(fields["task"]["title"], json!(title));
        assert_eq!(fields["task"]["description"], json!(""));
        assert_eq!(fields["next"], json!(true));
        assert_eq!(fields["unblocks"], json!(unblocks));
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with(&format!("Dispatched [{}]{why} to {worker};", id(title))),
            "{text}"
        );
        assert!(
            text.contains(&format!("] {title} · dispatched to {worker}")),
            "{text}"
        );
        taken.push(id(title));
        replies.push(redact_times(&text));
    }
    insta::assert_snapshot!("three_dispatches_without_task_ids", replies.join("\n\n"));
    taken.dedup();
    assert_eq!(taken.len(), 3, "three distinct tasks");
    let board = common::ok(&lead, "team_board", json!({})).await;
    let (is_error, text) = call(
        &lead,
        "dispatch_task",
        json!({"lead": "lead", "worker": "worker-4"}),
    )
    .await;
    assert!(is_error, "{text}");
    assert_eq!(
        text,
        "No task is ready: 3 pending tasks wait for others and 0 are held; 3 are dispatched \
         and not claimed yet; team_board shows what blocks them."
    );
    assert_eq!(common::ok(&lead, "team_board", json!({})).await, board);
    lead.cancel().await.unwrap();
}
