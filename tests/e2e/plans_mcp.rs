// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `plans` through the official rmcp client over stdio, on both
//! servers that offer it: `planning-mcp-server --toolsets planning,plans`
//! and the drop-in `long-term-plan-mcp`. Files are compared byte for byte.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{
    Client, HttpServer, INITIALIZE, call, post, stdio_client, stdio_client_with_pid, tool_names,
};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use tempfile::TempDir;

const LTP_MCP: &str = env!("CARGO_BIN_EXE_long-term-plan-mcp");
const H: &str = "<!-- long-term-plan:format=v1 -->";

async fn drop_in(dir: &TempDir, args: &[&str]) -> Client {
    let mut command = tokio::process::Command::new(LTP_MCP);
    command.current_dir(dir.path()).kill_on_drop(true);
    stdio_client_with_pid(command, args, &[]).await.0
}

/// Calls a tool that must succeed; returns its structured content, after
/// checking that the text is the same object pretty-printed.
async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    let result = client.call_tool(params).await.unwrap();
    let text = result.content[0].as_text().unwrap().text.clone();
    assert_ne!(result.is_error, Some(true), "{tool}: {text}");
    let structured = result.structured_content.expect("structuredContent");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), structured);
    assert!(text.starts_with("{\n  \""), "pretty JSON: {text}");
    structured
}

async fn error(client: &Client, tool: &str, arguments: Value) -> String {
    let (is_error, text) = call(client, tool, arguments).await;
    assert!(is_error, "{tool} should fail: {text}");
    text
}

fn plan_file(root: &Path, id: &str) -> String {
    std::fs::read_to_string(root.join(".long-term-plan").join(format!("{id}.md"))).unwrap()
}

/// The same scripted session on any server; returns the final file.
async fn scenario(client: &Client, root: &Path) -> String {
    ok(
        client,
        "plan.create",
        json!({"planId": "demo", "title": "Demo", "bodyMarkdown": "Goal\n"}),
    )
    .await;
    assert_eq!(
        plan_file(root, "demo"),
        format!("{H}\n\n# Demo\n\n> Goal\n>\n## Inbox\n\n")
    );
    let id = |v: Value| v["taskId"].as_str().unwrap().to_owned();
    let a = id(ok(
        client,
        "task.add",
        json!({"planId": "demo", "title": "Alpha", "sectionPath": ["Inbox"]}),
    )
    .await);
    let b = id(ok(client, "task.add", json!({"planId": "demo", "title": "Beta", "parentTaskId": a, "status": "doing", "bodyMarkdown": "- [ ] inner"})).await);
    let got = ok(client, "task.get", json!({"planId": "demo"})).await;
    assert_eq!(got["task"]["id"], b.as_str());
    assert_eq!(got["task"]["bodyMarkdown"], "- [ ] inner");
    let etag = got["etag"].as_str().unwrap().to_owned();
    let updated = ok(
        client,
        "task.update",
        json!({"planId": "demo", "allowDefaultTarget": true, "ifMatch": etag, "status": "done"}),
    )
    .await;
    assert_eq!(updated["taskId"], b.as_str());
    ok(
        client,
        "task.update",
        json!({"planId": "demo", "taskId": a, "title": "Alpha 2", "clearBody": true}),
    )
    .await;
    ok(
        client,
        "plan.update",
        json!({"planId": "demo", "title": "Demo 2", "clearBody": true}),
    )
    .await;
    let plan = ok(
        client,
        "plan.get",
        json!({"planId": "demo", "view": "flat", "includeTaskBodies": true}),
    )
    .await;
    assert_eq!(plan["plan"]["tasks"][1]["parentId"], a.as_str());
    let hits = ok(
        client,
        "task.search",
        json!({"planId": "demo", "query": "beta", "status": "done"}),
    )
    .await;
    assert_eq!(hits["hits"].as_array().unwrap().len(), 1);
    let listed = ok(client, "plan.list", json!({"query": "demo 2"})).await;
    assert_eq!(listed["plans"][0]["path"], ".long-term-plan/demo.md");
    let text = plan_file(root, "demo");
    assert_eq!(
        text,
        format!(
            "{H}\n\n# Demo 2\n\n## Inbox\n\n- [ ] Alpha 2 <!-- long-term-plan:id={a} -->\n  - [√] Beta <!-- long-term-plan:id={b} -->\n    > - [ ] inner\n"
        )
    );
    ok(
        client,
        "task.delete",
        json!({"planId": "demo", "taskId": b}),
    )
    .await;
    text
}

async fn errors(client: &Client) {
    assert_eq!(
        error(
            client,
            "task.update",
            json!({"planId": "demo", "status": "done"})
        )
        .await,
        "taskId is required unless allowDefaultTarget=true"
    );
    assert_eq!(
        error(
            client,
            "task.delete",
            json!({"planId": "demo", "taskId": "nope", "ifMatch": "x"})
        )
        .await,
        format!(
            "CONFLICT: etag mismatch (current={}, ifMatch=x)",
            ok(client, "plan.get", json!({"planId": "demo"})).await["etag"]
                .as_str()
                .unwrap()
        )
    );
    assert_eq!(
        error(
            client,
            "task.get",
            json!({"planId": "demo", "taskId": "missing"})
        )
        .await,
        "Task not found: missing"
    );
    insta::assert_snapshot!(
        "zod_errors",
        [
            error(
                client,
                "plan.get",
                json!({"planId": "../etc", "view": "wide"})
            )
            .await,
            error(
                client,
                "task.add",
                json!({"planId": "demo", "title": "x", "beforeTaskId": "a", "sectionPath": ["S"]})
            )
            .await,
            error(
                client,
                "task.search",
                json!({"planId": "demo", "query": "x", "limit": 0})
            )
            .await,
            error(client, "plan.update", json!({"planId": "demo"})).await,
        ]
        .join("\n---\n")
    );
}

#[tokio::test]
async fn the_drop_in_server() {
    let dir = tempfile::tempdir().unwrap();
    let client = drop_in(&dir, &[]).await;
    let info = client.peer_info().expect("server info");
    let server = info.server_info.as_ref().unwrap();
    assert_eq!(
        (server.name.as_str(), server.version.as_str()),
        ("long-term-plan-mcp", "0.1.0")
    );
    assert!(info.capabilities.resources.is_none());
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "plan.create",
            "plan.get",
            "plan.list",
            "plan.update",
            "task.add",
            "task.delete",
            "task.get",
            "task.search",
            "task.update"
        ]
    );
    let text = scenario(&client, dir.path()).await;
    assert!(text.contains("# Demo 2"));
    errors(&client).await;
    assert_eq!(
        error(&client, "doc.validate", json!({"planId": "demo"})).await,
        "MCP error -32602: Tool doc.validate not found"
    );
    client.cancel().await.unwrap();

    let legacy = drop_in(&dir, &["--legacy-doc-tools", "--plans", ".long-term-plan"]).await;
    let validated = ok(&legacy, "doc.validate", json!({"planId": "demo"})).await;
    assert_eq!(validated, json!({"errors": [], "warnings": []}));
    let repaired = ok(
        &legacy,
        "doc.repair",
        json!({"planId": "demo", "actions": ["addMissingIds"], "dryRun": true}),
    )
    .await;
    assert_eq!(
        repaired["applied"],
        json!({"addFormatHeader": false, "addMissingIds": 0})
    );
    legacy.cancel().await.unwrap();
}

#[tokio::test]
async fn the_toolset_next_to_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", "planning,plans"], &[]).await;
    let info = client.peer_info().expect("server info");
    let instructions = info.instructions.clone().unwrap_or_default();
    assert!(
        instructions.contains("set_goal") && instructions.contains("plan.list"),
        "{instructions}"
    );
    let names: BTreeSet<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    let mut each = tool_names("planning").await;
    each.extend(tool_names("plans").await);
    assert_eq!(names, each, "the board's tools and the plans'");
    // The board still works, and so do the plans.
    let (is_error, _) = call(
        &client,
        "set_goal",
        json!({"title": "G", "description": "D"}),
    )
    .await;
    assert!(!is_error);
    scenario(&client, dir.path()).await;
    errors(&client).await;
    client.cancel().await.unwrap();

    // Plans only, from the environment, with another directory.
    let only = stdio_client(
        &dir,
        &[],
        &[
            ("PLANNING_SERVER_TOOLSETS", "plans"),
            ("PLANNING_PLANS_DIR", "plans"),
        ],
    )
    .await;
    let info = only.peer_info().unwrap();
    assert!(
        !info
            .instructions
            .clone()
            .unwrap_or_default()
            .contains("set_goal")
    );
    assert!(info.capabilities.resources.is_none());
    ok(
        &only,
        "plan.create",
        json!({"planId": "p", "title": "P", "template": "empty"}),
    )
    .await;
    assert!(dir.path().join("plans/p.md").is_file());
    only.cancel().await.unwrap();

    // The default is the board alone.
    let board = stdio_client(&dir, &[], &[]).await;
    assert!(
        !board
            .peer_info()
            .unwrap()
            .instructions
            .clone()
            .unwrap_or_default()
            .contains("plan.list")
    );
    let listed = board.list_all_tools().await.unwrap();
    let listed: BTreeSet<String> = listed.into_iter().map(|t| t.name.to_string()).collect();
    assert_eq!(listed, tool_names("planning").await);
    board.cancel().await.unwrap();
}

#[tokio::test]
async fn drop_in_flags() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(LTP_MCP)
            .args(args)
            .current_dir(dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let help = run(&["--root", "x", "--help"]);
    assert!(help.status.success());
    insta::assert_snapshot!(
        "long_term_plan_mcp_help",
        String::from_utf8(help.stdout).unwrap()
    );
    let version = run(&["-v"]);
    assert_eq!(
        String::from_utf8(version.stdout).unwrap(),
        "long-term-plan-mcp 0.1.0+0361d983\n"
    );
    let bad = run(&["--nope"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Unknown argument: --nope"));
    let missing = run(&["--plans"]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("Missing value for --plans"));
}

/// A plan nested 1,500 levels deep: its tree is serialised and dropped
/// recursively, so this fails (the server aborts) unless the work runs on
/// large stacks, whichever transport serves it. The calls go as raw JSON-RPC:
/// the rmcp client (serde_json) refuses JSON nested deeper than 128 levels.
fn deep_plan(root: &Path) {
    std::fs::create_dir_all(root.join(".long-term-plan")).unwrap();
    let mut text = format!("{H}\n");
    for depth in 0..DEEP {
        text.push_str(&format!(
            "{}- [ ] t <!-- long-term-plan:id=t{depth} -->\n",
            " ".repeat(depth)
        ));
    }
    std::fs::write(root.join(".long-term-plan/deep.md"), text).unwrap();
}

const DEEP: usize = 1_500;

/// The JSON-RPC messages of a session that reads the deep plan's tree and
/// sets the status of its deepest task (a different one per session: setting
/// the current status is an error, as in the reference).
fn deep_session(status: &str) -> [String; 4] {
    [
    INITIALIZE.to_owned(),
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"plan.get","arguments":{"planId":"deep"}}}"#.to_owned(),
    format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"task.update","arguments":{{"planId":"deep","taskId":"t1499","status":"{status}"}}}}}}"#),
    ]
}

/// Checks the raw replies to the two tool calls of [`deep_session`].
fn check_deep_replies(tree: &str, update: &str) {
    assert!(tree.contains(r#""isError":false"#), "{}", &tree[..400]);
    // Each task but the deepest has a `"children": [` holding the next one.
    assert_eq!(tree.matches(r#""children":[{"#).count(), DEEP - 1);
    assert!(tree.contains(r#""id":"t1499""#));
    assert!(update.contains(r#""isError":false"#), "{update}");
    assert!(update.contains(r#""taskId":"t1499""#), "{update}");
}

#[tokio::test]
async fn deeply_nested_plans_do_not_overflow_the_stack_on_either_transport() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let dir = tempfile::tempdir().unwrap();
    deep_plan(dir.path());
    let args = ["--toolsets", "planning,plans"];

    let mut child = common::command(&dir)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in deep_session("done") {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut replies = Vec::new();
    while replies.len() < 3 {
        replies.push(
            lines
                .next_line()
                .await
                .unwrap()
                .expect("the server is alive"),
        );
    }
    // The two calls run at once: their replies come in either order.
    replies.sort_by_key(|reply| {
        reply
            .find(r#""id":"#)
            .map(|at| reply[at..at + 6].to_owned())
    });
    check_deep_replies(&replies[1], &replies[2]);
    drop(stdin);
    assert!(child.wait().await.unwrap().success());

    let server = HttpServer::start_in(&dir, &args, &[]).await;
    let session_messages = deep_session("doing");
    let send = |body: &str, session: Option<&str>| {
        let mut request = post(&server.url).body(body.to_owned());
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-06-18");
        }
        request.send()
    };
    let response = send(&session_messages[0], None).await.unwrap();
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    send(&session_messages[1], Some(&session)).await.unwrap();
    let mut replies = Vec::new();
    for message in &session_messages[2..] {
        let response = send(message, Some(&session)).await.unwrap();
        replies.push(response.text().await.unwrap());
    }
    check_deep_replies(&replies[0], &replies[1]);
}

/// A relative plans root that does not exist yet, on both servers:
/// `plan.create` makes it and the plans directory.
#[tokio::test]
async fn a_missing_relative_root_is_created_by_plan_create() {
    let dir = tempfile::tempdir().unwrap();
    let drop_in_client = drop_in(&dir, &["--root", "sub"]).await;
    let ours = stdio_client(
        &dir,
        &["--toolsets", "plans", "--plans-root", "deep/er"],
        &[],
    )
    .await;
    for (client, root) in [(&drop_in_client, "sub"), (&ours, "deep/er")] {
        let listed = ok(client, "plan.list", json!({})).await;
        assert_eq!(listed["plans"], json!([]));
        assert!(!dir.path().join(root).exists(), "a read creates nothing");
        let created = ok(
            client,
            "plan.create",
            json!({"planId": "inner", "title": "Inner"}),
        )
        .await;
        assert_eq!(created["path"], ".long-term-plan/inner.md");
        let text = plan_file(&dir.path().join(root), "inner");
        assert!(text.starts_with(&format!("{H}\n\n# Inner\n")), "{text}");
    }
    drop_in_client.cancel().await.unwrap();
    ours.cancel().await.unwrap();
}
