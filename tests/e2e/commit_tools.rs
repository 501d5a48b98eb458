// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit`'s face: exactly nine tools with their annotations and
//! schemas (pinned), its instructions next to the board's, and schema
//! validation of wrong arguments as `isError` results.

use serde_json::{Value, json};

use crate::common::vcs::{Backend, Repo, pairs};
use crate::common::{call, stdio_client, tool_names};

const NINE: [&str; 9] = [
    "finish_job",
    "gather_requirements",
    "mark_task",
    "set_constraints",
    "set_detailed_goal",
    "set_overarching_goal",
    "set_plan",
    "unfinish_job",
    "verify_plan",
];

#[tokio::test]
async fn commit_tools_are_the_nine_with_their_annotations_and_schemas() {
    let repo = Repo::new(Backend::Git, None);
    let env = repo.server_env();
    let client = stdio_client(&repo.dir, &["--toolsets", "planning,commit"], &pairs(&env)).await;
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    assert!(
        instructions.find("set_goal").unwrap() < instructions.find("gather_requirements").unwrap()
    );
    let tools = client.list_all_tools().await.unwrap();
    let board = tool_names("planning").await;
    assert_eq!(tools.len(), board.len() + NINE.len());
    let mut commit: Vec<Value> = tools
        .iter()
        .filter(|t| NINE.contains(&t.name.as_ref()))
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    commit.sort_by_key(|t| t["name"].as_str().unwrap().to_owned());
    let names: Vec<&str> = commit.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, NINE);
    for tool in &commit {
        let hints = &tool["annotations"];
        assert_eq!(hints["openWorldHint"], false, "{tool}");
        let name = tool["name"].as_str().unwrap();
        let read_only = name == "gather_requirements";
        assert_eq!(hints["readOnlyHint"], read_only, "{name}");
        let destructive = name.starts_with("set_") || name == "verify_plan";
        assert_eq!(hints["destructiveHint"], destructive, "{name}");
        if [
            "gather_requirements",
            "mark_task",
            "finish_job",
            "unfinish_job",
        ]
        .contains(&name)
        {
            assert_eq!(hints["idempotentHint"], true, "{name}");
        }
    }
    insta::assert_json_snapshot!("commit_tools", commit);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_wrong_argument_types_are_rejected_and_extra_properties_ignored() {
    let repo = Repo::new(Backend::Git, None);
    let env = repo.server_env();
    let client = stdio_client(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await;
    for (tool, arguments) in [
        (
            "set_overarching_goal",
            json!({"goal": {"type": "feature", "title": "x"}}),
        ),
        ("set_overarching_goal", json!({"goal": {"type": "feat"}})),
        ("set_overarching_goal", json!({"goal": "feat: x"})),
        ("set_detailed_goal", json!({"description": 5})),
        ("set_constraints", json!({"constraints": "Never: x"})),
        ("set_plan", json!({"plan": [["x"]]})),
        ("mark_task", json!({"task_id": 1})),
        ("mark_task", json!({"task_id": "1", "completed": "yes"})),
        ("verify_plan", json!({"migrate": 1})),
    ] {
        let (is_error, text) = call(&client, tool, arguments.clone()).await;
        assert!(is_error, "{tool} {arguments}: {text}");
        assert!(
            text.contains("failed to deserialize parameters"),
            "{tool} {arguments}: {text}"
        );
    }
    assert_eq!(repo.git_plan("main"), "", "nothing was written");
    let (is_error, text) = call(
        &client,
        "set_overarching_goal",
        json!({"goal": {"type": "docs", "title": "x", "colour": "red", "scope": null}, "extra": 1}),
    )
    .await;
    assert!(!is_error, "{text}");
    assert_eq!(repo.git_plan("main"), "docs: x\n");
    client.cancel().await.unwrap();
}
