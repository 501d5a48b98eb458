// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The same scripted session over stdio and over HTTP, through the official
//! rmcp client against the real binary. The text of every reply is pinned.

use crate::common;

use std::collections::BTreeMap;

use common::{Client, HttpServer, call, stdio_client, try_call};
use serde_json::{Value, json};

/// Every tool, with success and error cases; IDs are those the spec derives.
fn script() -> Vec<(&'static str, Value)> {
    let long_title = "x".repeat(501);
    vec![
        ("get_tasks", json!({})),
        (
            "change_goal",
            json!({"title": "T", "description": "D", "reason": "R"}),
        ),
        (
            "set_goal",
            json!({"title": "Ship the planning server", "description": "A drop-in Rust port"}),
        ),
        (
            "set_goal",
            json!({"title": "Again", "description": "refused"}),
        ),
        (
            "add_tasks",
            json!({"tasks": [
                {"title": "Write tests"},
                {"title": "Write tests", "description": "Cover the manager"},
                {"title": "Implement feature X", "description": "Add the new endpoint"},
            ]}),
        ),
        (
            "add_tasks",
            json!({"tasks": [{"title": "Write tests"}, {"title": "Document the tools"}]}),
        ),
        ("add_tasks", json!({"tasks": [{"title": "   "}]})),
        ("add_tasks", json!({"tasks": [{"title": long_title}]})),
        ("add_tasks", json!({"tasks": []})),
        (
            "update_task_statuses",
            json!({"tasks": [
                {"task_id": "a46f8d35", "status": "in_progress"},
                {"task_id": "4e21ad16", "status": "completed"},
            ]}),
        ),
        (
            "update_task_statuses",
            json!({"tasks": [
                {"task_id": "a46f8d35", "status": "completed"},
                {"task_id": "ffffffff", "status": "completed"},
                {"task_id": "A46F8D35", "status": "completed"},
            ]}),
        ),
        (
            "update_task_statuses",
            json!({"tasks": [{"task_id": "a46f8d35", "status": "done"}]}),
        ),
        ("get_tasks", json!({"status": "completed"})),
        ("get_tasks", json!({"status": "failed"})),
        ("get_tasks", json!({"status": "done"})),
        (
            "modify_task",
            json!({"task_id": "48dd0523", "description": "Add the /v2 endpoint"}),
        ),
        (
            "modify_task",
            json!({"task_id": "a46f8d35", "description": "Cover the manager"}),
        ),
        ("modify_task", json!({"task_id": "a46f8d35"})),
        ("modify_task", json!({"task_id": "nope", "title": "x"})),
        (
            "modify_task",
            json!({"task_id": "a46f8d35", "title": "Write more tests\nacross modules"}),
        ),
        (
            "update_task_statuses",
            json!({"tasks": [
                {"task_id": "4e21ad16", "status": "failed"},
                {"task_id": "705dcd69", "status": "cancelled"},
            ]}),
        ),
        ("get_tasks", json!({})),
        (
            "delete_tasks",
            json!({"task_ids": ["4e21ad16", "00000000"]}),
        ),
        ("delete_tasks", json!({"task_ids": ["4e21ad16"]})),
        (
            "change_goal",
            json!({"title": "New goal", "description": "Changed", "reason": "  "}),
        ),
        (
            "change_goal",
            json!({"title": "Ship 1.0", "description": "Everything tested", "reason": "The operator narrowed the scope"}),
        ),
        ("get_tasks", json!({"status": "all"})),
    ]
}

/// Each call of the script with its reply: `### tool arguments[ -> isError]`
/// and the reply's text.
async fn replies(client: &Client) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (tool, arguments) in script() {
        let (is_error, text) = call(client, tool, arguments.clone()).await;
        let shown = serde_json::to_string(&arguments).unwrap();
        let shown = if shown.chars().count() > 120 {
            format!("{}…", shown.chars().take(120).collect::<String>())
        } else {
            shown
        };
        let marker = if is_error { " -> isError" } else { "" };
        out.push((format!("### {tool} {shown}{marker}"), text));
    }
    out
}

async fn transcript(client: &Client) -> String {
    let replies = replies(client).await;
    let blocks: Vec<String> = replies
        .iter()
        .map(|(call, text)| format!("{call}\n{text}\n\n"))
        .collect();
    blocks.concat()
}

#[tokio::test]
async fn stdio_session_matches_the_golden_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &[], &[]).await;
    let text = transcript(&client).await;
    client.cancel().await.unwrap();
    insta::assert_snapshot!("transcript", text);
}

#[tokio::test]
async fn http_session_gives_the_same_transcript_as_stdio() {
    let server = HttpServer::start(&[], &[]).await;
    let client = server.client().await;
    let text = transcript(&client).await;
    client.cancel().await.unwrap();
    insta::assert_snapshot!("transcript", text);
}

/// Whether the script's call `call` changes the board (and so replies
/// compactly in compact mode).
fn changes_the_board(call: &str) -> bool {
    [
        "add_tasks",
        "update_task_statuses",
        "modify_task",
        "delete_tasks",
    ]
    .iter()
    .any(|tool| call.starts_with(&format!("### {tool} ")))
        && !call.ends_with(" -> isError")
}

#[tokio::test]
async fn compact_replies_change_only_the_replies_of_changes() {
    let dir = tempfile::tempdir().unwrap();
    let full = stdio_client(&dir, &[], &[]).await;
    let full_replies = replies(&full).await;
    full.cancel().await.unwrap();

    let dir = tempfile::tempdir().unwrap();
    let compact = stdio_client(&dir, &["--replies", "compact"], &[]).await;
    let compact_replies = replies(&compact).await;
    compact.cancel().await.unwrap();

    let server = HttpServer::start(&[], &[("PLANNING_PLANNING_REPLIES", "compact")]).await;
    let client = server.client().await;
    assert_eq!(replies(&client).await, compact_replies, "HTTP as stdio");
    client.cancel().await.unwrap();

    let mut changes = 0;
    for ((call, full), (same_call, compact)) in full_replies.iter().zip(&compact_replies) {
        assert_eq!(call, same_call);
        if changes_the_board(call) {
            changes += 1;
            assert_ne!(full, compact, "{call}");
            assert!(compact.contains("\n\nTasks: "), "{call}: {compact}");
        } else {
            assert_eq!(
                full, compact,
                "{call}: reads, goals and refusals are the same"
            );
        }
    }
    assert_eq!(changes, 7);
    let blocks: Vec<String> = compact_replies
        .iter()
        .map(|(call, text)| format!("{call}\n{text}\n\n"))
        .collect();
    insta::assert_snapshot!("transcript_compact", blocks.concat());
}

/// The tools with their parameter names and annotations, as a client sees them.
async fn tool_summary(client: &Client) -> BTreeMap<String, Value> {
    let tools = client.list_all_tools().await.unwrap();
    tools
        .into_iter()
        .map(|tool| {
            let schema = Value::Object((*tool.input_schema).clone());
            let mut properties: Vec<String> = schema["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            properties.sort();
            let annotations = tool.annotations.expect("annotated");
            (
                tool.name.to_string(),
                json!({
                    "parameters": properties,
                    "required": schema["required"],
                    "readOnly": annotations.read_only_hint,
                    "destructive": annotations.destructive_hint,
                    "idempotent": annotations.idempotent_hint,
                    "described": tool.description.is_some_and(|d| d.len() > 40),
                }),
            )
        })
        .collect()
}

#[tokio::test]
async fn exactly_the_seven_tools_over_both_transports() {
    let dir = tempfile::tempdir().unwrap();
    let stdio = stdio_client(&dir, &[], &[]).await;
    let over_stdio = tool_summary(&stdio).await;
    let info = stdio.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().unwrap().name,
        "planning-mcp-server"
    );
    assert_eq!(
        info.server_info.as_ref().unwrap().version,
        env!("CARGO_PKG_VERSION")
    );
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or("")
            .contains("set_goal")
    );
    assert!(info.capabilities.tools.is_some());
    assert!(
        info.capabilities.prompts.is_some(),
        "declared: prompts/list answers (empty)"
    );
    assert!(info.capabilities.supports_skills(), "skill planning-board");
    let resources = info
        .capabilities
        .resources
        .as_ref()
        .expect("the board as resources");
    assert_eq!(resources.subscribe, Some(true));
    stdio.cancel().await.unwrap();

    let server = HttpServer::start(&[], &[]).await;
    let http = server.client().await;
    assert_eq!(tool_summary(&http).await, over_stdio);
    http.cancel().await.unwrap();

    insta::assert_json_snapshot!("tools", over_stdio);
}

#[tokio::test]
async fn protocol_errors_are_json_rpc_errors() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &[], &[]).await;
    let unknown = try_call(&client, "no_such_tool", json!({})).await;
    assert!(
        matches!(&unknown, Err(rmcp::service::ServiceError::McpError(e)) if e.code.0 == -32602),
        "{unknown:?}"
    );
    // Arguments that do not match the schema are refused by the SDK, as an error result.
    let (is_error, text) = call(&client, "add_tasks", json!({"tasks": "not a list"})).await;
    assert!(is_error);
    assert!(
        text.starts_with("failed to deserialize parameters"),
        "{text}"
    );
    let (is_error, text) = call(&client, "set_goal", json!({"title": "only a title"})).await;
    assert!(is_error);
    assert!(text.contains("missing field `description`"), "{text}");
    // Unknown extra properties are ignored.
    let (is_error, text) = call(
        &client,
        "get_tasks",
        json!({"status": "all", "verbose": true}),
    )
    .await;
    assert!(!is_error, "{text}");
    client.cancel().await.unwrap();
}
