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
    for name in planning_mcp_server::toolsets::names().filter(|n| *n != "planning") {
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

#[tokio::test]
async fn structured_results_say_what_the_text_says() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", "planning,plans"], &[]).await;
    let calls = [
        ("plan.create", json!({"planId": "demo", "title": "Demo"})),
        ("task.add", json!({"planId": "demo", "title": "First"})),
        ("plan.get", json!({"planId": "demo"})),
        ("plan.list", json!({})),
        ("task.get", json!({"planId": "demo"})),
        ("add_tasks", json!({"tasks": [{"title": "Write tests"}]})),
        ("get_tasks", json!({})),
    ];
    for (tool, arguments) in calls {
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
            // A client that shows only one of them must get the whole answer.
            Some(structured) => {
                let parsed: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(&parsed, structured, "{tool}");
            }
            None => assert!(!text.is_empty(), "{tool}"),
        }
    }
    client.cancel().await.unwrap();
}
