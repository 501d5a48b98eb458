// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The toolsets' skills (the Skills extension, SEP-2640) through the rmcp
//! client over stdio and HTTP: `skills/list` lists the skills of the
//! enabled toolsets, `skills/get` answers for each, every `SKILL.md` is a
//! resource any client can list and read, its bytes match the digest and
//! frontmatter of its entry, and its text is its docs page's section as the
//! page is now (read from the repository, not from the binary).

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{Client, HttpServer, stdio_client};
use rmcp::model::{
    ClientRequest, CustomRequest, ErrorCode, GetSkillRequestParams, ReadResourceRequestParams,
    ResourceContents, ServerResult, Skill, SkillResources,
};
use rmcp::service::ServiceError;

/// The skills each toolset serves, by toolset.
const SKILLS: &[(&str, &str, &str)] = &[
    ("planning", "planning-board", "docs/planning.md"),
    ("team", "team-loop", "docs/team.md"),
    ("workflow", "spell-workflow", "docs/workflow.md"),
    ("commit", "commit-planner", "docs/commit.md"),
];

/// The names of the skills `toolsets` (comma-separated) should serve, in
/// registry order.
fn expected(toolsets: &str) -> Vec<&'static str> {
    let on: Vec<&str> = toolsets.split(',').collect();
    SKILLS
        .iter()
        .filter(|(toolset, _, _)| on.contains(toolset))
        .map(|(_, name, _)| *name)
        .collect()
}

/// The section of docs page `page` between the skill markers, read now.
fn docs_section(page: &str) -> String {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page)).unwrap();
    let (_, rest) = text
        .split_once("<!-- skill:begin -->\n")
        .expect("the page has a skill section");
    let (section, _) = rest.split_once("<!-- skill:end -->").unwrap();
    section.to_owned()
}

/// The frontmatter of a `SKILL.md`, as `key: value` pairs (a value in
/// double quotes read as the JSON string it is), and the text after it.
fn frontmatter(file: &str) -> (BTreeMap<String, String>, &str) {
    let rest = file.strip_prefix("---\n").expect("frontmatter first");
    let (head, body) = rest.split_once("\n---\n\n").expect("frontmatter closed");
    let fields = head
        .lines()
        .map(|line| {
            let (key, value) = line.split_once(": ").expect("key: value");
            let value = match value.starts_with('"') {
                true => serde_json::from_str(value).unwrap(),
                false => value.to_owned(),
            };
            (key.to_owned(), value)
        })
        .collect();
    (fields, body)
}

/// The text of resource `uri`, as a client without the extension reads it.
async fn read_text(client: &Client, uri: &str) -> String {
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap();
    match &read.contents[..] {
        [
            ResourceContents::TextResourceContents {
                text, mime_type, ..
            },
        ] => {
            assert_eq!(mime_type.as_deref(), Some("text/markdown"));
            text.clone()
        }
        other => panic!("one text for {uri}: {other:?}"),
    }
}

/// Checks every skill `client` lists against `toolsets` and the docs:
/// the names, each entry against `skills/get`, its one file against its
/// digest, size and frontmatter, its body against its docs section, and
/// the file among the resources.
async fn check_skills(client: &Client, toolsets: &str) {
    let info = client.peer_info().unwrap();
    assert!(
        info.capabilities.supports_skills(),
        "{:?}",
        info.capabilities
    );
    assert!(info.capabilities.resources.is_some());
    let skills: Vec<Skill> = client.list_skills(None).await.unwrap().skills;
    let names: Vec<&str> = skills.iter().map(|skill| skill.name()).collect();
    assert_eq!(names, expected(toolsets));
    let resources = client.list_all_resources().await.unwrap();
    let instructions = info.instructions.clone().unwrap_or_default();
    for skill in &skills {
        let uri = format!("skill://{}/SKILL.md", skill.name());
        assert_eq!(skill.uri, uri);
        assert!(
            instructions.contains(&uri),
            "the instructions point to {uri}"
        );
        let got = client
            .get_skill(GetSkillRequestParams::new(&uri))
            .await
            .unwrap();
        assert_eq!(&got.skill, skill);

        // A client without the extension finds and reads the same file.
        let resource = resources.iter().find(|r| r.uri == uri).expect("listed");
        assert_eq!(resource.name, skill.name());
        assert_eq!(
            resource.description.as_deref(),
            Some(skill.frontmatter.description.as_str())
        );
        let file = read_text(client, &uri).await;
        let SkillResources::Files(files) = &skill.resources else {
            panic!("{uri} lists its files");
        };
        assert_eq!(files.len(), 1, "{uri}: SKILL.md only");
        assert_eq!(files[0].uri, uri);
        files[0].verify(file.as_bytes()).unwrap();

        let (fields, body) = frontmatter(&file);
        assert_eq!(fields.len(), 2, "{fields:?}");
        assert_eq!(fields["name"], skill.frontmatter.name);
        assert_eq!(fields["description"], skill.frontmatter.description);
        assert!(skill.frontmatter.extra.is_empty());
        let (_, _, page) = SKILLS.iter().find(|(_, n, _)| *n == skill.name()).unwrap();
        assert_eq!(body, docs_section(page), "{uri} is the section of {page}");
    }
}

#[tokio::test]
async fn every_toolsets_skill_over_stdio_and_http_is_its_docs_section() {
    // Every toolset the binary offers.
    let all: Vec<&str> = planning_mcp_server::api::toolsets::names().collect();
    let all = all.join(",");
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", &all], &[]).await;
    check_skills(&client, &all).await;
    client.cancel().await.unwrap();

    let server = HttpServer::start(&["--toolsets", &all], &[]).await;
    let client = server.client().await;
    check_skills(&client, &all).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn skills_list_lists_only_the_enabled_toolsets_skills() {
    for toolsets in ["planning", "planning,team", "workflow", "commit,plans"] {
        let dir = tempfile::tempdir().unwrap();
        let client = stdio_client(&dir, &["--toolsets", toolsets], &[]).await;
        check_skills(&client, toolsets).await;
        client.cancel().await.unwrap();
    }
    let server = HttpServer::start(&["--toolsets", "planning,team"], &[]).await;
    let client = server.client().await;
    check_skills(&client, "planning,team").await;
    client.cancel().await.unwrap();
}

/// Sends `method` with `params` as it is, past the client's own checks.
async fn raw(
    client: &Client,
    method: &str,
    params: serde_json::Value,
) -> Result<ServerResult, ServiceError> {
    let request = CustomRequest::new(method, Some(params));
    client
        .send_request(ClientRequest::CustomRequest(request))
        .await
}

/// The JSON-RPC error code of a refused request.
fn code(answer: Result<ServerResult, ServiceError>) -> ErrorCode {
    match answer {
        Err(ServiceError::McpError(error)) => error.code,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_toolset_without_a_skill_declares_no_skills_and_no_resources() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", "plans"], &[]).await;
    let capabilities = &client.peer_info().unwrap().capabilities;
    assert!(!capabilities.supports_skills(), "{capabilities:?}");
    assert!(capabilities.resources.is_none(), "{capabilities:?}");
    // Prompts and completions are declared (and empty) whatever is on.
    assert!(capabilities.prompts.is_some(), "{capabilities:?}");
    assert!(capabilities.completions.is_some(), "{capabilities:?}");
    // Undeclared, so not served: "method not found", not an empty answer.
    let not_found = ErrorCode::METHOD_NOT_FOUND;
    let empty = serde_json::json!({});
    assert_eq!(
        code(raw(&client, "skills/list", empty.clone()).await),
        not_found
    );
    let uri = serde_json::json!({"uri": "skill://team-loop/SKILL.md"});
    assert_eq!(
        code(raw(&client, "skills/get", uri.clone()).await),
        not_found
    );
    assert_eq!(code(raw(&client, "resources/list", empty).await), not_found);
    assert_eq!(code(raw(&client, "resources/read", uri).await), not_found);
    let prompts = client.list_all_prompts().await.unwrap();
    assert!(prompts.is_empty(), "{prompts:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unknown_skill_is_invalid_params_naming_the_skills_served() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &["--toolsets", "planning,team"], &[]).await;
    let refused = client
        .get_skill(GetSkillRequestParams::new(
            "skill://commit-planner/SKILL.md",
        ))
        .await;
    match refused {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
            assert_eq!(
                error.message,
                "No skill 'skill://commit-planner/SKILL.md' here; this session has \
                 skill://planning-board/SKILL.md and skill://team-loop/SKILL.md."
            );
        }
        other => panic!("expected -32602, got {other:?}"),
    }
    // The skill of a toolset that is off is no resource of this session.
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://commit-planner/SKILL.md",
        ))
        .await;
    assert!(
        matches!(&read, Err(ServiceError::McpError(e)) if e.code == ErrorCode::RESOURCE_NOT_FOUND),
        "{read:?}"
    );
    // Not the URI of a SKILL.md at all: refused by the SDK, also -32602.
    let refused = client
        .get_skill(GetSkillRequestParams::new("skill://team-loop/notes.md"))
        .await;
    assert!(
        matches!(&refused, Err(ServiceError::McpError(e)) if e.code == ErrorCode::INVALID_PARAMS),
        "{refused:?}"
    );
    // Bad params: the reason, not "method not found".
    match raw(&client, "skills/get", serde_json::json!({"url": 1})).await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        }
        other => panic!("expected -32602, got {other:?}"),
    }
    client.cancel().await.unwrap();
}
