// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! stdio mode: stdout carries nothing but JSON-RPC; logs go to stderr.

use crate::common;

use std::process::Stdio;

use common::signal;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const SESSION: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add_tasks","arguments":{"tasks":[{"title":"Write tests"},{"title":"Write tests"}]}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"update_task_statuses","arguments":{"tasks":[{"task_id":"nope","status":"completed"}]}}}"#,
    r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}"#,
    r#"{"jsonrpc":"2.0","id":6,"method":"no/such/method"}"#,
    r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_tasks","arguments":{}}}"#,
    r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"arguments":{}}}"#,
];

#[tokio::test]
async fn stdout_carries_only_json_rpc_and_logs_go_to_stderr() {
    for format in ["text", "json"] {
        let dir = tempfile::tempdir().unwrap();
        let mut child = common::command(&dir)
            .args(["--log-level", "debug"])
            .env("PLANNING_LOGGING_FORMAT", format)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
        for line in SESSION {
            stdin
                .write_all(format!("{line}\n").as_bytes())
                .await
                .unwrap();
        }
        let mut replies = Vec::new();
        while replies.len() < 8 {
            let line = common::within_hang("a reply", stdout.next_line())
                .await
                .unwrap()
                .expect("stdout open");
            let message: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
            assert_eq!(message["jsonrpc"], "2.0", "{line}");
            if message.get("id").is_some() {
                replies.push(message);
            }
        }
        drop(stdin); // EOF: the client is gone, the server exits.
        while let Some(line) = stdout.next_line().await.unwrap() {
            let message: Value = serde_json::from_str(&line).expect("JSON-RPC only");
            assert_eq!(message["jsonrpc"], "2.0");
        }
        let output = child.wait_with_output().await.unwrap();
        assert!(output.status.success(), "{:?}", output.status);
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("serving MCP on stdin/stdout"), "{stderr}");
        assert!(
            stderr.contains("add_tasks skipped duplicate tasks"),
            "{stderr}"
        );
        assert!(stderr.contains("a46f8d35"), "{stderr}");
        if format == "json" {
            for line in stderr.lines() {
                serde_json::from_str::<Value>(line)
                    .unwrap_or_else(|e| panic!("log line is not JSON ({e}): {line}"));
            }
        }
        let by_id = |id: i64| replies.iter().find(|r| r["id"] == id).unwrap();
        assert_eq!(by_id(3)["result"]["isError"], false);
        assert_eq!(by_id(4)["result"]["isError"], true);
        assert_eq!(by_id(5)["error"]["code"], -32602);
        assert_eq!(by_id(6)["error"]["code"], -32601);
        assert_eq!(
            by_id(6)["error"]["message"],
            "Method not found: no/such/method"
        );
        assert_eq!(by_id(8)["error"]["code"], -32602);
        assert_eq!(
            by_id(8)["error"]["message"],
            "Invalid params for tools/call: missing field `name`"
        );
        let text = by_id(7)["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("- ☐ [a46f8d35] Write tests"), "{text}");
    }
}

#[tokio::test]
async fn sigterm_ends_a_stdio_session() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = common::command(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    stdin
        .write_all(format!("{}\n", SESSION[0]).as_bytes())
        .await
        .unwrap();
    let reply = stdout.next_line().await.unwrap().unwrap();
    assert!(reply.contains("\"serverInfo\""), "{reply}");
    signal(child.id().unwrap(), "TERM");
    let status = common::within_hang("the exit after SIGTERM", child.wait())
        .await
        .unwrap();
    assert!(status.success(), "{status:?}");
}
