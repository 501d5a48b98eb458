// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `workflow` through the official rmcp client, over stdio and
//! Streamable HTTP: a whole job, a corrupt `state.json`, a missing file in
//! each phase, hostile arguments, and two processes casting spells on one
//! directory at once. The agent's side (editing files) is played by the
//! test; replies are pinned by golden files with the archive stamps and
//! timestamps (the real clock) redacted.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Client, HttpServer, call, ok, stdio_client, try_call};
use serde_json::{Value, json};

const TOOLSETS: [&str; 2] = ["--toolsets", "planning,workflow"];
const RULE: &str = "Call a spell tool only when the user types its name (Accio, Expecto, \
Reparo, Reverto, Finite, Lumos, optionally with \": note\"); words like \"continue\" never \
advance the workflow.";

const PLAN: &str = "# Plan\n\n## Context\n\nA calculator.\n\n## Acceptance Criteria\n\n\
- [ ] Sum two numbers\n- [ ] Handle overflow\n\n## References\n\n\
- https://acme.atlassian.net/browse/APP-12\n";

/// The workflow directory of a project.
fn task_dir(root: &Path) -> PathBuf {
    root.join(".ai/task")
}

fn write(root: &Path, name: &str, text: &str) {
    let path = task_dir(root).join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(root: &Path, name: &str) -> String {
    std::fs::read_to_string(task_dir(root).join(name)).unwrap()
}

fn exists(root: &Path, name: &str) -> bool {
    task_dir(root).join(name).exists()
}

/// Replaces archive stamps (`2025-08-20-1130`, `2025-08-20-113000`) and
/// RFC 3339 timestamps with placeholders, so replies made by the real
/// clock can be compared.
fn redact(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let digits = |from: usize, n: usize| {
        chars.len() >= from + n && chars[from..from + n].iter().all(char::is_ascii_digit)
    };
    let at = |i: usize, c: char| chars.get(i) == Some(&c);
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let date = digits(i, 4) && at(i + 4, '-') && digits(i + 5, 2) && at(i + 7, '-');
        if date && digits(i + 8, 2) {
            if at(i + 10, 'T') && digits(i + 11, 2) && at(i + 19, 'Z') {
                out.push_str("{time}");
                i += 20;
                continue;
            }
            if at(i + 10, '-') && digits(i + 11, 6) {
                out.push_str("{seconds-stamp}");
                i += 17;
                continue;
            }
            if at(i + 10, '-') && digits(i + 11, 4) {
                out.push_str("{stamp}");
                i += 15;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Casts a spell that must succeed; checks the layout every reply has.
async fn spell(client: &Client, tool: &str, note: Option<&str>) -> String {
    let arguments = match note {
        Some(note) => json!({ "note": note }),
        None => json!({}),
    };
    let text = ok(client, tool, arguments).await;
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("state: "), "{text}");
    assert!(lines[1].starts_with("transition: "), "{text}");
    assert!(lines[2].starts_with("message_to_user: "), "{text}");
    assert!(lines[3].starts_with("options: "), "{text}");
    assert_eq!(lines[4], "instructions_to_coding_agent:", "{text}");
    assert_eq!(lines.last(), Some(&RULE), "{text}");
    text
}

/// A transcript of replies, for a golden file.
#[derive(Default)]
struct Transcript(Vec<String>);

impl Transcript {
    async fn cast(&mut self, client: &Client, tool: &str, note: Option<&str>) -> String {
        let reply = spell(client, tool, note).await;
        let typed = match note {
            Some(note) => format!("{tool}: {note}"),
            None => tool.to_owned(),
        };
        self.0.push(format!("> {typed}\n{}", redact(&reply)));
        reply
    }

    fn text(&self) -> String {
        self.0.join("\n\n")
    }
}

/// The whole job: gather (with Expecto), two tasks, a PR review with its
/// archive, back home. The test plays the agent. Returns the transcript.
async fn whole_job(client: &Client, root: &Path) -> String {
    let mut t = Transcript::default();
    let lumos = t.cast(client, "lumos", None).await;
    assert!(lumos.starts_with("state: GATHER_NEEDS_PLAN\ntransition: none\n"));
    assert!(!root.join(".ai").exists(), "lumos creates nothing");

    t.cast(client, "accio", None).await;
    assert!(read(root, "plan.md").starts_with("# Plan\n"));
    write(root, "plan.md", PLAN);
    let found = t.cast(client, "expecto", None).await;
    assert!(found.contains("- https://acme.atlassian.net/browse/APP-12 (APP-12)"));
    assert_eq!(read(root, "atlassian/refs"), "");
    write(
        root,
        "atlassian/refs",
        "https://acme.atlassian.net/browse/APP-12\n",
    );
    t.cast(client, "expecto", None).await;

    let drafting = t.cast(client, "accio", None).await;
    assert!(drafting.starts_with("state: ACHIEVE_TASK_DRAFTING\n"));
    let template = read(root, "task.md");
    assert!(template.starts_with("---\ntask_name:"));
    let untouched = t.cast(client, "accio", None).await;
    assert!(untouched.contains("transition: A1t "), "{untouched}");
    write(
        root,
        "task.md",
        "---\ntask_name: Implement sum\n---\n\n# Task\n\n## Steps\n\n1. Add `sum`.\n",
    );
    t.cast(client, "accio", Some("looks good")).await;
    write(
        root,
        "task-results.md",
        "## Achieved\n\nsum works\n\n## Learned\n\n## Unsolved Errors\n\n\
         ## Satisfied Acceptance Criteria\n\n- Sum two numbers\n",
    );
    let integrated = t.cast(client, "accio", None).await;
    assert!(integrated.contains("transition: A2 "), "{integrated}");
    assert_eq!(
        read(root, "plan.md"),
        PLAN.replacen("- [ ] Sum", "- [x] Sum", 1)
    );
    assert!(!exists(root, "task-results.md"));
    assert_eq!(read(root, "task.md"), template, "a fresh template");

    write(
        root,
        "task.md",
        "---\ntask_name: handle-overflow\n---\n\n# Task\n\nUse checked_add.\n",
    );
    t.cast(client, "accio", None).await;
    write(
        root,
        "task-results.md",
        "## Satisfied Acceptance Criteria\n\n- [x] Handle overflow\n",
    );
    let complete = t.cast(client, "accio", None).await;
    assert!(complete.starts_with("state: ACHIEVE_COMPLETE\ntransition: A2d "));
    assert!(!read(root, "plan.md").contains("- [ ]"));
    assert!(!exists(root, "task.md"));

    t.cast(client, "reparo", Some("https://github.com/acme/app/pull/7"))
        .await;
    assert_eq!(read(root, "comments.md"), "");
    write(
        root,
        "comments.md",
        "# PR acme/app#7\n\n## Thread 1\n\n- alice (src/sum.rs:3): > rename `x`\n",
    );
    t.cast(client, "accio", None).await;
    assert!(read(root, "review-task.md").starts_with("# Review Task\n"));
    write(
        root,
        "review-task.md",
        "# Review Task\n\n## Items\n\n- rename x\n",
    );
    t.cast(client, "accio", None).await;
    let pending = t.cast(client, "accio", None).await;
    assert!(pending.contains("transition: P3r "), "{pending}");
    write(
        root,
        "review-task-results.md",
        "## Achieved\n\n- renamed x\n",
    );
    let home = t.cast(client, "accio", None).await;
    assert!(home.starts_with("state: ACHIEVE_COMPLETE\ntransition: P4 "));
    t.cast(client, "lumos", None).await;

    assert_eq!(archives(root), expected_archives());
    let state: Value = serde_json::from_str(&read(root, "state.json")).unwrap();
    assert_eq!(state["current_state"], "ACHIEVE_COMPLETE");
    assert_eq!(state["context"], json!({}));
    let history = state["history"].as_array().unwrap();
    let rules: Vec<&str> = history
        .iter()
        .map(|entry| entry["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "G1", "X1", "X2", "G2", "A1t", "A1", "A2", "A1", "A2d", "S1", "P1", "P2", "P3r", "P4"
        ]
    );
    assert_eq!(history[5]["note"], "looks good");
    t.text()
}

/// Every file under the archive folders, redacted, sorted.
fn archives(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for folder in ["tasks", "pr-reviews"] {
        let Ok(entries) = std::fs::read_dir(task_dir(root).join(folder)) else {
            continue;
        };
        for entry in entries {
            let entry = entry.unwrap();
            for file in std::fs::read_dir(entry.path()).unwrap() {
                let name = file.unwrap().file_name();
                found.push(redact(&format!(
                    "{folder}/{}/{}",
                    entry.file_name().to_string_lossy(),
                    name.to_string_lossy()
                )));
            }
        }
    }
    found.sort();
    found
}

fn expected_archives() -> Vec<String> {
    [
        "pr-reviews/pr-review-{stamp}/comments.md",
        "pr-reviews/pr-review-{stamp}/review-task-results.md",
        "pr-reviews/pr-review-{stamp}/review-task.md",
        "tasks/task-handle-overflow-{stamp}/task-results.md",
        "tasks/task-handle-overflow-{stamp}/task.md",
        "tasks/task-implement-sum-{stamp}/task-results.md",
        "tasks/task-implement-sum-{stamp}/task.md",
    ]
    .map(String::from)
    .to_vec()
}

#[tokio::test]
async fn workflow_a_whole_job_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &TOOLSETS, &[]).await;
    let transcript = whole_job(&client, dir.path()).await;
    insta::assert_snapshot!("workflow_whole_job", transcript);
    let docs = include_str!("../../docs/workflow.md");
    for reply in transcript.split("\n\n> ") {
        let reply = reply.trim_start_matches("> ");
        assert!(
            docs.contains(reply),
            "docs/workflow.md shows this reply:\n{reply}"
        );
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn workflow_a_whole_job_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let server = HttpServer::start_in(&dir, &TOOLSETS, &[]).await;
    let client = server.client().await;
    let transcript = whole_job(&client, dir.path()).await;
    insta::assert_snapshot!("workflow_whole_job", transcript);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn workflow_tools_are_the_six_spells_with_their_annotations() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", "workflow"], &[]).await;
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    assert!(instructions.contains("ONLY when the user types that spell"));
    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["accio", "expecto", "finite", "lumos", "reparo", "reverto"]
    );
    for tool in &tools {
        let hints = tool.annotations.clone().unwrap();
        let lumos = tool.name == "lumos";
        assert_eq!(hints.read_only_hint, Some(lumos), "{}", tool.name);
        assert_eq!(hints.idempotent_hint, Some(lumos), "{}", tool.name);
        assert_eq!(hints.destructive_hint, Some(false), "{}", tool.name);
        assert_eq!(hints.open_world_hint, Some(false), "{}", tool.name);
        let description = tool.description.as_deref().unwrap();
        assert!(
            description.contains("only when the user types"),
            "{description}"
        );
        let properties = tool.input_schema.get("properties");
        let has_note = properties.is_some_and(|p| p.get("note").is_some());
        assert_eq!(has_note, !lumos, "{}", tool.name);
    }
    client.cancel().await.unwrap();
}

/// A `state.json` as the server writes it, in `state`.
fn at(root: &Path, state: &str, context: Value) {
    let json = json!({"version": 1, "current_state": state, "context": context, "history": []});
    write(root, "state.json", &format!("{json:#}\n"));
}

#[tokio::test]
async fn workflow_a_corrupt_state_file_is_moved_aside_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "plan.md", PLAN);
    write(root, "task.md", "---\ntask_name: x\n---\n");
    write(root, "state.json", "{\"current_state\": \"NOWHERE\"}\n");
    let client = stdio_client(&dir, &TOOLSETS, &[]).await;
    let mut t = Transcript::default();

    t.cast(&client, "lumos", None).await;
    assert_eq!(
        read(root, "state.json"),
        "{\"current_state\": \"NOWHERE\"}\n"
    );
    let rebuilt = t.cast(&client, "accio", None).await;
    assert!(rebuilt.starts_with("state: ACHIEVE_TASK_DRAFTING\ntransition: K1 CORRUPT → "));
    let moved: Vec<String> = std::fs::read_dir(task_dir(root))
        .unwrap()
        .map(|entry| redact(&entry.unwrap().file_name().to_string_lossy()))
        .filter(|name| name.starts_with("state.json."))
        .collect();
    assert_eq!(moved, ["state.json.corrupt-{seconds-stamp}"]);
    let state: Value = serde_json::from_str(&read(root, "state.json")).unwrap();
    assert_eq!(state["current_state"], "ACHIEVE_TASK_DRAFTING");
    assert_eq!(state["history"][0]["rule"], "K1");
    t.cast(&client, "accio", None).await;
    insta::assert_snapshot!("workflow_corrupt_state", t.text());

    write(
        root,
        "state.json",
        "{\"version\": 2, \"current_state\": \"GATHER_EDITING\"}",
    );
    let (is_error, text) = call(&client, "accio", json!({})).await;
    assert!(is_error);
    assert_eq!(
        text,
        "state.json was written by a newer planning-mcp-server"
    );
    // A version no release wrote is refused the same way (boards refuse it
    // too), and the file stays byte for byte.
    let zero = "{\"version\": 0, \"current_state\": \"GATHER_EDITING\"}";
    write(root, "state.json", zero);
    for spell in ["lumos", "accio"] {
        let (is_error, text) = call(&client, spell, json!({})).await;
        assert!(is_error, "{spell}: {text}");
        assert!(
            text.starts_with("state.json has version 0, which no planning-mcp-server writes"),
            "{text}"
        );
    }
    assert_eq!(read(root, "state.json"), zero);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn workflow_a_missing_file_in_each_phase_is_recovered_by_accio() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let server = HttpServer::start_in(&dir, &TOOLSETS, &[]).await;
    let client = server.client().await;
    let mut t = Transcript::default();
    let task = "---\ntask_name: implement-sum\n---\n\n# Task\n";

    // Gather: plan.md went missing.
    at(root, "GATHER_EDITING", json!({}));
    t.cast(&client, "accio", None).await;
    let created = t.cast(&client, "accio", None).await;
    assert!(created.starts_with("state: GATHER_EDITING\ntransition: E4 "));
    assert!(read(root, "plan.md").starts_with("# Plan\n"));

    // Achieve: task.md went missing while drafting.
    write(root, "plan.md", PLAN);
    at(root, "ACHIEVE_TASK_DRAFTING", json!({}));
    t.cast(&client, "accio", None).await;
    t.cast(&client, "accio", None).await;
    assert!(read(root, "task.md").starts_with("---\ntask_name:"));

    // Achieve: task-results.md went missing after the task ran.
    write(root, "task.md", task);
    at(root, "ACHIEVE_TASK_EXECUTED", json!({}));
    t.cast(&client, "accio", None).await;
    let archived = t.cast(&client, "accio", None).await;
    assert!(archived.contains("transition: E3 "), "{archived}");
    assert_eq!(
        archives(root),
        ["tasks/incomplete-task-implement-sum-{stamp}/task.md"]
    );

    // PR review: comments.md, then review-task.md went missing.
    let review = json!({"pr_return_state": "ACHIEVE_TASK_DRAFTING"});
    at(root, "PR_GATHERING_COMMENTS", review.clone());
    t.cast(&client, "accio", None).await;
    t.cast(&client, "accio", None).await;
    assert_eq!(read(root, "comments.md"), "");
    write(root, "comments.md", "- alice: rename `x`\n");
    at(root, "PR_REVIEW_TASK_DRAFT", review);
    t.cast(&client, "accio", None).await;
    let recreated = t.cast(&client, "accio", None).await;
    assert!(recreated.starts_with("state: PR_REVIEW_TASK_DRAFT\ntransition: E6 "));
    assert!(read(root, "review-task.md").starts_with("# Review Task\n"));
    let state: Value = serde_json::from_str(&read(root, "state.json")).unwrap();
    assert_eq!(
        state["context"],
        json!({"pr_return_state": "ACHIEVE_TASK_DRAFTING"})
    );

    insta::assert_snapshot!("workflow_missing_files", t.text());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn workflow_hostile_arguments_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let client = stdio_client(&dir, &TOOLSETS, &[]).await;
    spell(&client, "accio", None).await;
    let before = read(root, "state.json");

    let long = "é".repeat(501);
    let (is_error, text) = call(&client, "accio", json!({ "note": long })).await;
    assert!(is_error, "{text}");
    assert!(text.contains("500"), "{text}");
    let wrong_type = try_call(&client, "finite", json!({ "note": 5 })).await;
    assert!(
        matches!(wrong_type, Err(_) | Ok((true, _))),
        "{wrong_type:?}"
    );
    assert_eq!(read(root, "state.json"), before);

    let reply = spell(&client, "finite", Some("line one\nline\u{7}two\r\n")).await;
    assert!(reply.contains("transition: F0 "), "{reply}");
    let state: Value = serde_json::from_str(&read(root, "state.json")).unwrap();
    let note = state["history"][1]["note"].as_str().unwrap();
    assert!(!note.contains('\n') && !note.contains('\r'), "{note:?}");
    assert_eq!(note, "line one line two");

    let outside = root.join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, task_dir(root).join("atlassian")).unwrap();
    let before = read(root, "state.json");
    let (is_error, text) = call(&client, "expecto", json!({})).await;
    assert!(is_error, "{text}");
    assert!(
        text.starts_with(".ai/task/atlassian is a symbolic link"),
        "{text}"
    );
    assert_eq!(read(root, "state.json"), before);
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    client.cancel().await.unwrap();
}

/// Ten Expecto calls with the notes `{who} 0` to `{who} 9`.
async fn expecto_ten(client: &Client, who: &str) {
    for n in 0..10 {
        let note = format!("{who} {n}");
        let reply = spell(client, "expecto", Some(&note)).await;
        assert!(reply.contains("transition: X2 "), "{reply}");
    }
}

#[tokio::test]
async fn workflow_two_processes_on_one_directory_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "plan.md", PLAN);
    write(
        root,
        "atlassian/refs",
        "https://acme.atlassian.net/browse/APP-12\n",
    );
    let server = HttpServer::start_in(&dir, &TOOLSETS, &[]).await;
    let over_http = server.client().await;
    let over_stdio = stdio_client(&dir, &TOOLSETS, &[]).await;

    // Expecto with no new link keeps the state and appends one entry:
    // twenty calls from two processes at once must leave twenty entries.
    tokio::join!(
        expecto_ten(&over_http, "http"),
        expecto_ten(&over_stdio, "stdio")
    );
    let state: Value = serde_json::from_str(&read(root, "state.json")).unwrap();
    let mut notes: Vec<String> = state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["note"].as_str().unwrap().to_owned())
        .collect();
    notes.sort();
    let mut expected: Vec<String> = (0..10)
        .flat_map(|n| [format!("http {n}"), format!("stdio {n}")])
        .collect();
    expected.sort();
    assert_eq!(notes, expected);

    // Each process sees the other's result.
    spell(&over_stdio, "accio", None).await;
    let seen = spell(&over_http, "lumos", None).await;
    assert!(seen.starts_with("state: ACHIEVE_TASK_DRAFTING\n"), "{seen}");
    spell(&over_http, "finite", None).await;
    let seen = spell(&over_stdio, "lumos", None).await;
    assert!(seen.starts_with("state: GATHER_READY\n"), "{seen}");
    over_stdio.cancel().await.unwrap();
}

/// The recipe of docs/workflow.md for a new piece of work after
/// `ACHIEVE_COMPLETE`, run as written (`sh -c`, in the project root): the
/// finished job goes aside whole, and the next Accio starts a new plan.
#[tokio::test]
async fn workflow_new_work_after_achieve_complete() {
    let docs = include_str!("../../docs/workflow.md");
    let section = docs
        .split_once("## Starting new work after ACHIEVE_COMPLETE")
        .expect("the section")
        .1;
    let block = section
        .split_once("```sh\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("its sh block")
        .0;
    let recipe: Vec<&str> = block
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    assert_eq!(recipe.len(), 1, "one command: {recipe:?}");

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let client = stdio_client(&dir, &TOOLSETS, &[]).await;
    whole_job(&client, root).await;
    let done = ok(&client, "lumos", json!({})).await;
    assert!(done.starts_with("state: ACHIEVE_COMPLETE\n"), "{done}");
    let finished_plan = read(root, "plan.md");

    let ran = std::process::Command::new("sh")
        .args(["-c", recipe[0]])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(ran.status.success(), "{ran:?}");
    let aside: Vec<PathBuf> = std::fs::read_dir(root.join(".ai"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        std::fs::read_to_string(aside[0].join("plan.md")).unwrap(),
        finished_plan
    );

    let fresh = ok(&client, "lumos", json!({})).await;
    assert!(fresh.starts_with("state: GATHER_NEEDS_PLAN\n"), "{fresh}");
    let started = ok(&client, "accio", json!({})).await;
    assert!(
        started.starts_with(
            "state: GATHER_EDITING\ntransition: G1 GATHER_NEEDS_PLAN → GATHER_EDITING\n"
        ),
        "{started}"
    );
    assert!(read(root, "plan.md").starts_with("# Plan\n"));
    assert!(!read(root, "plan.md").contains("- [x]"), "a fresh template");
    let state: Value = serde_json::from_str(&read(root, "state.json")).unwrap();
    assert_eq!(
        state["history"].as_array().unwrap().len(),
        1,
        "a new history"
    );
    assert!(exists(root, ".gitignore"), "the new directory's rule");
    client.cancel().await.unwrap();
}

/// The entries of the workflow directory, sorted (`.lock` and
/// `.gitignore`, made by the lock before any effect, left out).
fn entries(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(task_dir(root))
        .map(|dir| {
            dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name != ".lock" && name != ".gitignore")
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Whether process `pid` runs (a zombie, waiting for its parent, does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| stat.rsplit_once(") ")?.1.chars().next())
        .is_some_and(|state| state != 'Z')
}

#[tokio::test]
async fn workflow_sigterm_during_a_spell_leaves_the_directory_before_or_after_never_between() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    use rmcp::ServiceExt;
    use rmcp::transport::TokioChildProcess;
    use tokio::io::{AsyncBufReadExt, BufReader};

    const HANG: Duration = Duration::from_secs(60);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let pause = tempfile::tempdir().unwrap();
    let mut command = common::command(&dir);
    command
        .args(TOOLSETS)
        .env("PLANNING_TEST_SPELL_PAUSE", pause.path())
        .env("PLANNING_SERVER_SHUTDOWN_GRACE_PERIOD", "600");
    let (transport, stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = transport.id().unwrap();
    let log = std::sync::Arc::new(parking_lot::Mutex::new(Vec::<String>::new()));
    let mut lines = BufReader::new(stderr.unwrap()).lines();
    let reader = tokio::spawn({
        let log = log.clone();
        async move {
            while let Ok(Some(line)) = lines.next_line().await {
                log.lock().push(line);
            }
        }
    });
    let client = ().serve(transport).await.unwrap();
    let accio = tokio::spawn(async move { try_call(&client, "accio", json!({})).await.ok() });

    // G1 writes plan.md, then state.json: the spell stops in between.
    let deadline = Instant::now() + HANG;
    while !pause.path().join("paused").exists() {
        assert!(Instant::now() < deadline, "the spell never paused");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(entries(&root), ["plan.md"], "midway");
    common::signal(pid, "TERM");
    // Shutdown either waits for the spell (and says so) or, as before,
    // exits with the spell cut off midway.
    let waits = |log: &[String]| {
        log.iter()
            .any(|l| l.contains("letting blocking work finish"))
    };
    while !waits(&log.lock()) && alive(pid) {
        assert!(Instant::now() < deadline, "{:?}", log.lock());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    std::fs::write(pause.path().join("resume"), "").unwrap();
    while alive(pid) {
        assert!(Instant::now() < deadline, "the server never exited");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let _ = tokio::time::timeout(HANG, reader).await;
    let files = entries(&root);
    assert!(
        files.is_empty() || files == ["plan.md", "state.json"],
        "between: {files:?}; log: {:?}",
        log.lock()
    );
    // Shutdown let the spell finish: after, and the state is whole.
    assert_eq!(files, ["plan.md", "state.json"]);
    let state: Value = serde_json::from_str(&read(&root, "state.json")).unwrap();
    assert_eq!(state["current_state"], "GATHER_EDITING");
    let _ = accio.await;
    let log = log.lock().join("\n");
    assert!(!log.contains("work still running"), "{log}");
}
