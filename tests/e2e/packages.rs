// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The packages' manifests agree with the crate (docs/release.md): one
//! version everywhere (Cargo.toml, server.json, the npm packages, the
//! Python package, the MCP Bundle's manifest, the Claude Code plugin and
//! its marketplace), the bundle lists the tools the server serves, the
//! plugin's skills are the ones the server serves, and `--version` and
//! `serverInfo.version` name the crate's version. scripts/packages.sh
//! builds and runs the packages themselves.

use crate::common;

use std::path::Path;

use rmcp::model::{ReadResourceRequestParams, ResourceContents};
use serde_json::Value;

/// The crate's version, as Cargo.toml says.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A file of the repository, as text.
fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A JSON file of the repository.
fn json(path: &str) -> Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_package_has_the_crates_version() {
    let server = json("server.json");
    assert_eq!(server["version"], VERSION, "server.json");
    let packages = server["packages"].as_array().unwrap();
    let types: Vec<&str> = packages
        .iter()
        .map(|p| p["registryType"].as_str().unwrap())
        .collect();
    for wanted in ["cargo", "pypi", "npm", "mcpb"] {
        assert!(types.contains(&wanted), "server.json lists {wanted}");
    }
    for package in packages {
        assert_eq!(package["version"], VERSION, "server.json: {package}");
        if package["registryType"] == "mcpb" {
            let url = package["identifier"].as_str().unwrap();
            assert!(
                url.contains(&format!(
                    "/download/v{VERSION}/planning-mcp-server-{VERSION}-"
                )),
                "server.json: {url} is the release's bundle"
            );
        }
    }

    let npm = json("packaging/npm/planning-mcp-server/package.json");
    assert_eq!(npm["name"], "planning-mcp-server");
    assert_eq!(npm["version"], VERSION, "the npm package");
    assert_eq!(npm["mcpName"], server["name"], "the npm package's mcpName");
    let platforms = npm["optionalDependencies"].as_object().unwrap();
    assert_eq!(platforms.len(), 5);
    for (name, version) in platforms {
        assert_eq!(version, VERSION, "the npm package's {name}");
    }

    // The wheel's version is the crate's, read by maturin.
    let pyproject: toml::Table = toml::from_str(&read("packaging/python/pyproject.toml")).unwrap();
    let project = pyproject["project"].as_table().unwrap();
    assert_eq!(project["name"].as_str(), Some("planning-mcp-server"));
    assert!(
        !project.contains_key("version"),
        "pyproject.toml: no version of its own"
    );
    assert_eq!(
        project["dynamic"].as_array().unwrap()[0].as_str(),
        Some("version")
    );

    let mcpb = json("packaging/mcpb/manifest.json");
    assert_eq!(mcpb["version"], VERSION, "the MCP Bundle's manifest");

    let plugin = json("packaging/claude-plugin/.claude-plugin/plugin.json");
    assert_eq!(plugin["version"], VERSION, "the Claude Code plugin");
    let marketplace = json(".claude-plugin/marketplace.json");
    assert_eq!(
        marketplace["plugins"][0]["version"], VERSION,
        "the marketplace"
    );
    // The plugin's server and hooks run this version's npm package.
    let pinned = format!("planning-mcp-server@{VERSION}");
    let mcp = json("packaging/claude-plugin/.mcp.json");
    assert!(
        mcp["mcpServers"]["planning"]["args"]
            .as_array()
            .unwrap()
            .contains(&Value::from(pinned.clone()))
    );
    let hooks = read("packaging/claude-plugin/hooks/hooks.json");
    assert_eq!(hooks.matches("npx -y planning-mcp-server@").count(), 2);
    assert_eq!(hooks.matches(&format!("npx -y {pinned} ")).count(), 2);

    // The README's line the Registry reads to prove the crate and the wheel ours.
    let readme = read("README.md");
    let line = format!("\nmcp-name: {}\n", server["name"].as_str().unwrap());
    assert!(readme.contains(&line), "README.md holds {line:?}");
}

#[tokio::test]
async fn the_bundle_lists_the_tools_the_server_serves() {
    let dir = tempfile::tempdir().unwrap();
    let client = common::stdio_client(&dir, &[], &[]).await;
    let info = client.peer_info().unwrap();
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(server.version, VERSION, "serverInfo.version");
    let mut served: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|tool| tool.name.to_string())
        .collect();
    let _ = client.cancel().await;
    let manifest = json("packaging/mcpb/manifest.json");
    let mut listed: Vec<&str> = manifest["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    // The manifest lists them in the docs' order, the server in its own.
    listed.sort_unstable();
    served.sort_unstable();
    assert_eq!(listed, served, "packaging/mcpb/manifest.json's tools");
}

#[tokio::test]
async fn the_plugins_skills_are_the_ones_the_server_serves() {
    let dir = tempfile::tempdir().unwrap();
    // The toolsets of the plugin's server (packaging/claude-plugin/.mcp.json).
    let client = common::stdio_client(
        &dir,
        &["--toolsets", "planning,team", "--storage", "file"],
        &[],
    )
    .await;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/claude-plugin/skills");
    let mut in_plugin: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    in_plugin.sort();
    let mut served = Vec::new();
    for skill in client.list_skills(None).await.unwrap().skills {
        let name = skill.name().to_owned();
        let read = client
            .read_resource(ReadResourceRequestParams::new(&skill.uri))
            .await
            .unwrap();
        let [ResourceContents::TextResourceContents { text, .. }] = &read.contents[..] else {
            panic!("{}: one text", skill.uri);
        };
        let path = format!("packaging/claude-plugin/skills/{name}/SKILL.md");
        // After a change of a docs page's skill section: the plugin's copy
        // written anew, as insta's INSTA_UPDATE does for snapshots.
        if std::env::var_os("PLANNING_WRITE_SKILLS").is_some() {
            let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(&path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, text).unwrap();
        }
        assert!(
            read_or_empty(&path) == *text,
            "{path} is not what the server serves as {}: write it again with\n  \
             PLANNING_WRITE_SKILLS=1 cargo test --test e2e packages::",
            skill.uri
        );
        served.push(name);
    }
    let _ = client.cancel().await;
    served.sort();
    assert_eq!(in_plugin, served, "the plugin's skills");
}

/// A file of the repository, or nothing when it is missing.
fn read_or_empty(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_default()
}

#[test]
fn version_names_the_crates_version_and_a_commit() {
    let output = std::process::Command::new(common::BIN)
        .arg("--version")
        .output()
        .unwrap();
    assert!(output.status.success());
    let said = String::from_utf8(output.stdout).unwrap();
    // A debug build records no commit (build.rs); a release build its HEAD.
    let wanted = format!("planning-mcp-server {VERSION} (");
    assert!(
        said.starts_with(&wanted) && said.ends_with(")\n"),
        "{said:?}"
    );
}
