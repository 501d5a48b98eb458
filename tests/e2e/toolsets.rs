// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolset boundary: a toolset that is off leaves no trace. With
//! `planning` off, no board is opened (no snapshot, no lock file), its
//! resources are neither listed nor read, and HTTP serves no web board.

use crate::common;

use common::{HttpServer, file_storage, stdio_client, tool_names};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ErrorCode, ReadResourceRequestParams};
use rmcp::transport::StreamableHttpClientTransport;

/// Lists the resources and returns the error the server answers with.
async fn list_error(client: &common::Client) -> rmcp::model::ErrorData {
    match client.list_all_resources().await {
        Err(rmcp::service::ServiceError::McpError(error)) => error,
        other => panic!("expected an MCP error for resources/list, got {other:?}"),
    }
}

/// Reads `uri` and returns the error the server answers with.
async fn read_error(client: &common::Client, uri: &str) -> rmcp::model::ErrorData {
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await;
    match read {
        Err(rmcp::service::ServiceError::McpError(error)) => error,
        other => panic!("expected an MCP error for {uri}, got {other:?}"),
    }
}

#[tokio::test]
async fn stdio_without_planning_opens_no_board_and_serves_no_board_resource() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let mut args: Vec<String> = vec!["--toolsets".into(), "plans".into()];
    args.extend(file_storage(&store));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let client = stdio_client(&dir, &args, &[]).await;

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(names.iter().all(|n| n.contains('.')), "{names:?}");
    assert!(!names.contains(&"get_tasks"), "{names:?}");
    // No toolset with resources: the capability is not declared, and its
    // methods are not served.
    assert!(client.peer_info().unwrap().capabilities.resources.is_none());
    assert_eq!(list_error(&client).await.code, ErrorCode::METHOD_NOT_FOUND);
    for uri in ["board://default", "board://default/summary"] {
        let error = read_error(&client, uri).await;
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{error:?}");
        assert_eq!(error.message, "Method not found: resources/read");
    }
    let called = client
        .call_tool(CallToolRequestParams::new("get_tasks"))
        .await;
    match called {
        Err(rmcp::service::ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
        }
        other => panic!("get_tasks is not a tool here, got {other:?}"),
    }
    client.cancel().await.unwrap();
    assert!(
        !store.exists(),
        "no board, no snapshot and no lock file: {:?}",
        std::fs::read_dir(&store).map(|d| d.count())
    );
}

#[tokio::test]
async fn http_without_planning_opens_no_board_and_has_no_web_board() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let mut args: Vec<String> = vec!["--toolsets".into(), "plans".into()];
    args.extend(file_storage(&store));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let server = HttpServer::start_in(&dir, &args, &[]).await;
    let client = server.client().await;
    let error = read_error(&client, "board://default").await;
    assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
    assert_eq!(list_error(&client).await.code, ErrorCode::METHOD_NOT_FOUND);
    client.cancel().await.unwrap();
    let named = ()
        .serve(StreamableHttpClientTransport::from_uri(
            server.board_url("team"),
        ))
        .await
        .unwrap();
    assert_eq!(list_error(&named).await.code, ErrorCode::METHOD_NOT_FOUND);
    named.cancel().await.unwrap();
    for path in ["/", "/boards/default", "/boards/default.json"] {
        let status = reqwest::get(format!("{}{path}", server.base()))
            .await
            .unwrap()
            .status();
        assert_eq!(status, reqwest::StatusCode::NOT_FOUND, "{path}");
    }
    assert!(!store.exists(), "no board was opened");
}

#[tokio::test]
async fn two_toolsets_list_every_tool_once_and_both_instructions() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", "plans,planning"], &[]).await;
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    let board = instructions
        .find("set_goal")
        .expect("the board's instructions");
    let plans = instructions
        .find("plan.list")
        .expect("the plans' instructions");
    assert!(board < plans, "registry order: {instructions}");
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(names, sorted, "sorted by name, each once");
    let mut each = tool_names("planning").await;
    each.extend(tool_names("plans").await);
    let expected: Vec<&str> = each.iter().map(String::as_str).collect();
    assert_eq!(names, expected, "the board's and the plans' tools");
    let resources = client.list_all_resources().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let board = stdio_client(&dir, &["--toolsets", "planning"], &[]).await;
    let board_resources = board.list_all_resources().await.unwrap();
    board.cancel().await.unwrap();
    assert_eq!(
        resources.len(),
        board_resources.len(),
        "the board's, none of the plans'"
    );
    client.cancel().await.unwrap();
}
