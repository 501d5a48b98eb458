// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! A lead's plan in one `add_tasks` (toolset `team` on), through the real
//! binary and the rmcp client: twelve tasks with touches and blockers (by
//! position in the call and by ID on the board) in one call, the ready
//! queue that follows from it, refusals that change nothing, the Go schema
//! and behaviour without team, and the plan kept across a restart by the
//! git backend.

use crate::common;

use std::path::Path;

use common::{Client, call, id, ok, stdio_client};
use serde_json::{Value, json};

use crate::team::TEAM;

/// The plan: twelve tasks, each touching its own paths; `ci` is the ID of
/// a task already on the board.
fn twelve(ci: &str) -> Value {
    json!({"tasks": [
        {"title": "Lexer", "touches": ["src/lexer/**"]},
        {"title": "Parser", "blocked_by": [1], "touches": ["src/parser/**"]},
        {"title": "AST types", "touches": ["src/ast/**"]},
        {"title": "Type checker", "blocked_by": [2, 3], "touches": ["src/types/**"]},
        {"title": "Code generator", "blocked_by": [4], "touches": ["src/codegen/**"]},
        {"title": "CLI", "blocked_by": [5], "touches": ["src/cli/**"]},
        {"title": "Config file", "touches": ["src/config/**"]},
        {"title": "Docs", "blocked_by": [6, 7], "touches": ["docs/**", "README.md"]},
        {"title": "Lexer tests", "blocked_by": [1, ci], "touches": ["tests/lexer.rs"]},
        {"title": "Parser tests", "blocked_by": [2, "9"], "touches": ["tests/parser.rs"]},
        {"title": "Benchmarks", "blocked_by": [5], "touches": ["benches/**"]},
        {"title": "Release notes", "blocked_by": [8, 10, 11], "touches": ["CHANGELOG.md"]},
    ]})
}

/// The IDs `ready_tasks` lists (its lines' first IDs), in order.
async fn ready(client: &Client) -> Vec<String> {
    let text = ok(client, "ready_tasks", json!({"limit": 100})).await;
    text.lines()
        .filter(|line| line.starts_with("- "))
        .filter_map(|line| Some(line.split_once('[')?.1.split_once(']')?.0.to_owned()))
        .collect()
}

/// The board as the tools read it back: the task list and the team board.
async fn read_back(client: &Client) -> (String, String) {
    (
        ok(client, "get_tasks", json!({})).await,
        ok(client, "team_board", json!({})).await,
    )
}

/// A board with "Set up CI" on it and the twelve-task plan added in one
/// call, whose reply is returned.
async fn planned(client: &Client) -> String {
    ok(
        client,
        "set_goal",
        json!({"title": "A compiler", "description": "v1"}),
    )
    .await;
    ok(
        client,
        "add_tasks",
        json!({"tasks": [{"title": "Set up CI"}]}),
    )
    .await;
    ok(client, "add_tasks", twelve(&id("Set up CI"))).await
}

#[tokio::test]
async fn a_lead_plans_twelve_tasks_with_touches_and_blockers_in_one_call() {
    let dir = tempfile::tempdir().unwrap();
    let lead = stdio_client(&dir, &TEAM, &[]).await;
    let reply = planned(&lead).await;
    assert!(
        reply.contains("\n\nLinks and touches set: 15 links, touches of 12 tasks.\n"),
        "{reply}"
    );
    let parser_tests = format!(
        "- ☐ [{}] Parser tests · waits for {} · touches tests/parser.rs",
        id("Parser tests"),
        sorted(&["Parser", "Lexer tests"])
    );
    assert!(reply.contains(&parser_tests), "{reply}");
    assert!(
        reply.contains(&format!(
            "- ☐ [{}] Docs · waits for {} · touches docs/**, README.md",
            id("Docs"),
            sorted(&["CLI", "Config file"])
        )),
        "{reply}"
    );
    // Only the tasks that wait for nothing are ready, the critical path
    // first: by hand, the lexer unblocks 9 tasks (parser, type checker,
    // code generator, CLI, docs, benchmarks, both test tasks, release
    // notes), the AST types 6, CI 3 (both test tasks, release notes), the
    // config file 2 (docs, release notes).
    let expected: Vec<String> = ["Lexer", "AST types", "Set up CI", "Config file"]
        .map(id)
        .to_vec();
    assert_eq!(ready(&lead).await, expected);
    let queue = ok(&lead, "ready_tasks", json!({"limit": 100})).await;
    for (title, unblocks) in [
        ("Lexer", 9),
        ("AST types", 6),
        ("Set up CI", 3),
        ("Config file", 2),
    ] {
        let line = format!("- ☐ [{}] {title} · unblocks {unblocks}", id(title));
        assert!(queue.contains(&line), "{line}\n{queue}");
    }
    // Finishing the lexer readies the parser; its tests still wait for CI.
    ok(
        &lead,
        "claim_task",
        json!({"agent": "w1", "task_id": id("Lexer")}),
    )
    .await;
    ok(
        &lead,
        "release_task",
        json!({"agent": "w1", "task_id": id("Lexer"), "status": "completed", "note": "done"}),
    )
    .await;
    // The parser now unblocks 7 (the lexer's 9 but itself and the lexer
    // tests, which wait for CI too).
    let expected: Vec<String> = ["Parser", "AST types", "Set up CI", "Config file"]
        .map(id)
        .to_vec();
    assert_eq!(ready(&lead).await, expected);
    // The same plan again is no change: nothing to set, nothing added.
    let again = ok(&lead, "add_tasks", twelve(&id("Set up CI"))).await;
    assert!(!again.contains("Links and touches set"), "{again}");
    lead.cancel().await.unwrap();
}

/// `[a] [b]` for the tasks titled so, in ID order (as a task line lists
/// what it waits for).
fn sorted(titles: &[&str]) -> String {
    let mut ids: Vec<String> = titles.iter().map(|t| id(t)).collect();
    ids.sort();
    ids.iter()
        .map(|id| format!("[{id}]"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test]
async fn refusals_of_a_plan_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let lead = stdio_client(&dir, &TEAM, &[]).await;
    planned(&lead).await;
    let before = read_back(&lead).await;
    let cases = [
        // A duplicate of the lexer that waits for the parser, which waits for it.
        (
            json!({"tasks": [{"title": "New"}, {"title": "Lexer", "blocked_by": [id("Parser")]}]}),
            format!(
                "Task 2 of the request: That link would make a cycle: [{l}] waits for [{p}] waits for [{l}]",
                l = id("Lexer"),
                p = id("Parser")
            ),
        ),
        (
            json!({"tasks": [{"title": "New", "blocked_by": ["ffffffff"]}]}),
            "Task 1 of the request: ".to_owned(),
        ),
        (
            json!({"tasks": [{"title": "New", "blocked_by": [2]}, {"title": "Newer"}]}),
            "Task 1 of the request is blocked_by position 2, which is no earlier task of this call: a position names a task before it (task 1 has none before it)".to_owned(),
        ),
        (
            json!({"tasks": [{"title": "New"}, {"title": "Newer", "blocked_by": [2]}]}),
            "Task 2 of the request is blocked_by position 2".to_owned(),
        ),
        (
            json!({"tasks": [{"title": "New"}, {"title": "Newer", "blocked_by": [7]}]}),
            "Task 2 of the request is blocked_by position 7".to_owned(),
        ),
        (
            json!({"tasks": [{"title": "New", "touches": ["/etc/passwd"]}]}),
            "Task 1 of the request: The pattern '/etc/passwd' is absolute".to_owned(),
        ),
        (
            json!({"tasks": [{"title": "New", "touches": "src/**"}]}),
            "Task 1 of the request: touches is a list of glob patterns".to_owned(),
        ),
    ];
    for (arguments, start) in cases {
        let (refused, text) = call(&lead, "add_tasks", arguments.clone()).await;
        assert!(refused, "{arguments}: {text}");
        assert!(text.starts_with(&start), "{arguments}: {text}");
        assert_eq!(
            read_back(&lead).await,
            before,
            "{arguments} changed the board"
        );
    }
    let (_, unknown) = call(
        &lead,
        "add_tasks",
        json!({"tasks": [{"title": "New", "blocked_by": ["ffffffff"]}]}),
    )
    .await;
    assert!(unknown.contains("ffffffff"), "{unknown}");
    lead.cancel().await.unwrap();
}

/// The `items` schema of `add_tasks`'s `tasks`, as a server started with
/// `args` lists it.
async fn task_schema(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, args, &[]).await;
    let tools = client.list_all_tools().await.unwrap();
    client.cancel().await.unwrap();
    let tool = tools.iter().find(|t| t.name == "add_tasks").unwrap();
    Value::Object((*tool.input_schema).clone())["properties"]["tasks"]["items"].clone()
}

#[tokio::test]
async fn without_team_add_tasks_is_the_go_one_and_says_the_fields_were_not_set() {
    let go = task_schema(&[]).await;
    assert_eq!(
        go,
        json!({
            "description": "One task to add.",
            "type": "object",
            "properties": {
                "title": {"type": "string", "description": "Short and specific."},
                "description": {
                    "type": "string",
                    "description": "How to do it or tell it is done.",
                    "default": ""
                }
            },
            "required": ["title"]
        })
    );
    let team = task_schema(&TEAM).await;
    let properties = team["properties"].as_object().unwrap();
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    assert_eq!(names, ["blocked_by", "description", "title", "touches"]);

    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &[], &[]).await;
    let plain = ok(&client, "add_tasks", json!({"tasks": [{"title": "A"}]})).await;
    let with_fields = ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "B", "touches": ["src/**"], "blocked_by": [1]}]}),
    )
    .await;
    assert!(
        with_fields.ends_with(
            "\n\ntouches and blocked_by were not set: they need toolset team (--toolsets planning,team)."
        ),
        "{with_fields}"
    );
    assert!(!plain.contains("toolset team"), "{plain}");
    assert!(ok(&client, "get_tasks", json!({})).await.contains("] B"));
    client.cancel().await.unwrap();
}

/// Runs git in `dir`; it must succeed. Its standard output.
fn git(dir: &Path, args: &[&str]) -> String {
    let output = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(output.status.success(), "git {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[tokio::test]
async fn a_plan_kept_in_git_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    let _ = git(&repo, &["init", "--quiet"]);
    std::fs::write(
        repo.join("planning-mcp-server.toml"),
        "[server]\ntoolsets = ['planning', 'team']\n\n[storage]\nbackend = 'git'\n",
    )
    .unwrap();
    let start = || {
        let mut command = common::command(&dir);
        command.current_dir(&repo);
        common::stdio_client_with_pid(command, &[], &[])
    };
    let (lead, _) = start().await;
    planned(&lead).await;
    let before = read_back(&lead).await;
    let ready_before = ready(&lead).await;
    lead.cancel().await.unwrap();
    // One operation per call: the goal, the first task, the whole plan.
    let entries = git(
        &repo,
        &["ls-tree", "--name-only", "refs/planning/boards/default"],
    );
    assert_eq!(entries.lines().filter(|e| e.starts_with("op-")).count(), 3);
    let (again, _) = start().await;
    assert_eq!(read_back(&again).await, before);
    assert_eq!(ready(&again).await, ready_before);
    again.cancel().await.unwrap();
}

/// The fenced block labelled `lang` that follows `after` in `text`.
fn block<'a>(text: &'a str, after: &str, lang: &str) -> &'a str {
    let rest = &text[text.find(after).unwrap()..];
    let open = format!("```{lang}\n");
    let rest = &rest[rest.find(&open).unwrap() + open.len()..];
    &rest[..rest.find("```").unwrap()]
}

#[tokio::test]
async fn the_plan_docs_team_md_shows_is_what_the_server_answers() {
    let doc = std::fs::read_to_string(crate::team::TEAM_DOC).unwrap();
    let section = &doc[doc.find("### A plan in one call").unwrap()..];
    let reply = block(section, "The reply is planning's", "text");
    let arguments: Value = serde_json::from_str(block(section, "\nfor\n", "json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lead = stdio_client(&dir, &TEAM, &[]).await;
    let goal = json!({"title": "Ship 1.0", "description": "the parser, its tests and the CLI"});
    ok(&lead, "set_goal", goal).await;
    let text = ok(&lead, "add_tasks", arguments).await;
    let (_, set) = text.split_once("\n\n**Goal:**").unwrap();
    let (_, set) = set.split_once("\n\nLinks and touches set").unwrap();
    assert_eq!(format!("Links and touches set{set}\n"), reply);
    // The cycle of the refusals' table, on that board.
    let cycle =
        json!({"tasks": [{"title": "Write the parser", "blocked_by": [id("Release notes")]}]});
    let (refused, text) = call(&lead, "add_tasks", cycle).await;
    assert!(refused);
    assert!(section.contains(&format!("| `{text}` |")), "{text}");
    lead.cancel().await.unwrap();
}
