// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The token budget a client pays at the start of every session: the size
//! of `tools/list` per toolset (printed; the default toolset's is bounded),
//! and replies that give the whole answer whether a client shows the model
//! the text or only `structuredContent`. (The 2,048-character bound on the
//! instructions of every toolset combination is a unit test in `config`.)

use std::collections::BTreeSet;

use rmcp::model::{CallToolRequestParams, Tool};
use serde_json::{Value, json};

use crate::common::stdio_client;

/// What `tools/list` of the default toolset may weigh, as compact JSON.
const DEFAULT_TOOLS_BUDGET: usize = 4096;

/// The tools a server started with `--toolsets list` offers.
async fn tools_of(list: &str) -> Vec<Tool> {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", list], &[]).await;
    let tools = client.list_all_tools().await.unwrap();
    client.cancel().await.unwrap();
    tools
}

/// Bytes of `value` as compact JSON, as it travels.
fn compact_len<T: serde::Serialize>(value: &T) -> usize {
    serde_json::to_vec(value).unwrap().len()
}

#[tokio::test]
async fn tool_list_sizes_per_toolset() {
    let board = tools_of("planning").await;
    let board_names: BTreeSet<_> = board.iter().map(|t| t.name.clone()).collect();
    let board_bytes = compact_len(&board);
    let mut table = vec![("planning".to_owned(), board.len(), board_bytes)];
    // Toolsets that need `planning` start only beside it: each is measured
    // as the tools that `planning,<name>` adds to the board's.
    for name in planning_mcp_server::api::toolsets::names().filter(|n| *n != "planning") {
        let own: Vec<Tool> = tools_of(&format!("planning,{name}"))
            .await
            .into_iter()
            .filter(|t| !board_names.contains(&t.name))
            .collect();
        assert!(!own.is_empty(), "toolset {name} lists no tools");
        table.push((name.to_owned(), own.len(), compact_len(&own)));
    }
    println!("tools/list, compact JSON bytes per toolset:");
    for (name, tools, bytes) in &table {
        println!("  {name:10} {tools:2} tools {bytes:6} bytes");
    }
    for tool in &board {
        let annotations = tool.annotations.as_ref().expect("annotations kept");
        assert!(annotations.read_only_hint.is_some(), "{}", tool.name);
        assert!(annotations.destructive_hint.is_some(), "{}", tool.name);
        assert!(!tool.input_schema.contains_key("$schema"), "{}", tool.name);
    }
    assert!(
        board_bytes <= DEFAULT_TOOLS_BUDGET,
        "the default tools/list is {board_bytes} bytes, over {DEFAULT_TOOLS_BUDGET}"
    );
}

/// The team's tools whose results carry fields besides the text.
const TEAM_FIELDS: [&str; 3] = ["claim_task", "dispatch_task", "ready_tasks"];

#[tokio::test]
async fn structured_results_say_what_the_text_says() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = dir.path().display().to_string();
    let client = stdio_client(
        &dir,
        &[
            "--toolsets",
            "planning,plans,team,workflow",
            "--workflow-root",
            &workflow,
        ],
        &[],
    )
    .await;
    let plans_tools: BTreeSet<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .filter(|name| name.starts_with("plan.") || name.starts_with("task."))
        .collect();
    let mut called = BTreeSet::new();
    let mut task_id = String::new();
    // (tool, arguments); `TASK` in an argument is the ID `task.add` returned.
    let calls = [
        ("plan.create", json!({"planId": "demo", "title": "Demo"})),
        ("task.add", json!({"planId": "demo", "title": "First"})),
        ("task.add", json!({"planId": "demo", "title": "Second"})),
        ("plan.get", json!({"planId": "demo"})),
        ("plan.list", json!({})),
        (
            "plan.update",
            json!({"planId": "demo", "title": "Demo plan"}),
        ),
        ("task.get", json!({"planId": "demo", "taskId": "TASK"})),
        ("task.search", json!({"planId": "demo", "query": "Sec"})),
        (
            "task.update",
            json!({"planId": "demo", "taskId": "TASK", "status": "doing"}),
        ),
        ("task.delete", json!({"planId": "demo", "taskId": "TASK"})),
        (
            "add_tasks",
            json!({"tasks": [{"title": "Write tests"}, {"title": "Write docs"}]}),
        ),
        ("get_tasks", json!({})),
        ("ready_tasks", json!({})),
        ("dispatch_task", json!({"lead": "lead", "worker": "w1"})),
        ("claim_task", json!({"agent": "w2"})),
        ("lumos", json!({})),
    ];
    for (tool, mut arguments) in calls {
        if arguments["taskId"] == "TASK" {
            arguments["taskId"] = json!(task_id);
        }
        let result = client
            .call_tool(
                CallToolRequestParams::new(tool)
                    .with_arguments(arguments.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
        let text = result.content[0]
            .as_text()
            .expect("a text block")
            .text
            .clone();
        match &result.structured_content {
            // The team's tools that hand out tasks: fields, and the text
            // whole among them.
            Some(structured) if TEAM_FIELDS.contains(&tool) => {
                assert_eq!(structured["text"], json!(text), "{tool}");
                assert!(structured.get("ready").or(structured.get("task")).is_some());
            }
            // A client that shows only one of them must get the whole answer.
            Some(structured) => {
                assert!(plans_tools.contains(tool), "{tool} has structuredContent");
                let parsed: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(&parsed, structured, "{tool}");
                if tool == "task.add" {
                    task_id = structured["taskId"].as_str().unwrap().to_owned();
                }
            }
            None => {
                assert!(
                    !plans_tools.contains(tool) && !TEAM_FIELDS.contains(&tool),
                    "{tool} lacks structuredContent"
                );
                assert!(!text.is_empty(), "{tool}");
            }
        }
        called.insert(tool.to_owned());
    }
    let missed: Vec<_> = plans_tools.difference(&called).collect();
    assert!(missed.is_empty(), "plans tools not checked: {missed:?}");
    client.cancel().await.unwrap();
}
