// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server setup` and `doctor`, for every agent: into an empty
//! project, beside other servers and hooks (kept byte for byte), twice (no
//! change), `--remove` (the original bytes back), an unparseable file
//! (refused, untouched), `--dry-run` (a diff, nothing written). Every
//! command `setup` writes is run: a server must speak MCP through the rmcp
//! client, a hook must exit 0 and print the digest. docs/setup.md must
//! show each agent's files exactly as `setup` writes them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use tokio::process::Command;

/// The agents and the files `setup` writes for each (default scope).
const AGENTS: &[(&str, &[&str])] = &[
    ("claude-code", &[".mcp.json", ".claude/settings.json"]),
    ("codex", &[".codex/config.toml"]),
    ("cursor", &[".cursor/mcp.json"]),
    ("vscode", &[".vscode/mcp.json"]),
    ("gemini", &[".gemini/settings.json"]),
    (
        "claude-desktop",
        &["HOME/.config/Claude/claude_desktop_config.json"],
    ),
];

/// A project (a git repository) with its own HOME.
struct Project {
    _temp: tempfile::TempDir,
    dir: PathBuf,
    home: PathBuf,
}

impl Project {
    fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("project");
        let home = temp.path().join("home");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Self {
            _temp: temp,
            dir,
            home,
        }
    }

    /// `file` of the table: in HOME when it starts with `HOME/`.
    fn path(&self, file: &str) -> PathBuf {
        match file.strip_prefix("HOME/") {
            Some(rest) => self.home.join(rest),
            None => self.dir.join(file),
        }
    }

    fn read(&self, file: &str) -> Option<String> {
        std::fs::read_to_string(self.path(file)).ok()
    }

    /// A process as an agent would start it here: in the project, HOME
    /// set, the built binaries first on PATH, no PLANNING_* or XDG_* of
    /// the caller's.
    fn command(&self, program: &str) -> Command {
        let bins = Path::new(common::BIN).parent().unwrap();
        let path = format!(
            "{}:{}",
            bins.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut command = Command::new(program);
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy().into_owned();
            if key.starts_with("PLANNING_") || key.starts_with("XDG_") || key == "CODEX_HOME" {
                command.env_remove(key);
            }
        }
        command
            .current_dir(&self.dir)
            .env("HOME", &self.home)
            .env("PATH", path)
            .kill_on_drop(true);
        command
    }

    /// Runs `planning-mcp-server ARGS` to its end.
    async fn run(&self, args: &[&str]) -> Output {
        let mut command = self.command(common::BIN);
        command.args(args).stdin(std::process::Stdio::null());
        common::within_hang("planning-mcp-server", command.output())
            .await
            .unwrap()
    }

    /// Runs `setup ARGS`; it must succeed. Its output.
    async fn setup(&self, args: &[&str]) -> String {
        let output = self.run(&[&["setup"], args].concat()).await;
        assert!(
            output.status.success(),
            "setup {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).unwrap()
    }

    /// Every file and directory under the project and HOME, for checking
    /// that nothing is left behind.
    fn tree(&self) -> Vec<String> {
        let mut found = Vec::new();
        for root in [&self.dir, &self.home] {
            let mut stack = vec![root.clone()];
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).unwrap() {
                    let path = entry.unwrap().path();
                    found.push(path.strip_prefix(root).unwrap().display().to_string());
                    if path.is_dir() {
                        stack.push(path);
                    }
                }
            }
        }
        found.sort();
        found
    }
}

/// The server entry `name` of `text` (a file of `agent`), as data.
fn entry(agent: &str, text: &str) -> Value {
    match agent {
        "codex" => {
            let table: toml::Table = toml::from_str(text).unwrap();
            serde_json::to_value(&table["mcp_servers"]["planning"]).unwrap()
        }
        "vscode" => {
            serde_json::from_str::<Value>(&strict(text)).unwrap()["servers"]["planning"].clone()
        }
        _ => serde_json::from_str::<Value>(text).unwrap()["mcpServers"]["planning"].clone(),
    }
}

/// JSONC (whole-line comments, trailing commas: what the fixtures hold)
/// as JSON.
fn strict(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let joined = lines.join("\n");
    let mut out = String::new();
    let chars: Vec<char> = joined.chars().collect();
    for (n, c) in chars.iter().enumerate() {
        let next = chars[n + 1..].iter().find(|c| !c.is_whitespace());
        if *c == ',' && matches!(next, Some('}' | ']')) {
            continue;
        }
        out.push(*c);
    }
    out
}

/// Starts the server of `entry` as the agent would, and checks it speaks
/// MCP: the number of tools it lists.
async fn speaks_mcp(project: &Project, entry: &Value) -> usize {
    let program = entry["command"].as_str().expect("a stdio entry");
    let mut command = project.command(program);
    for arg in entry["args"].as_array().into_iter().flatten() {
        command.arg(arg.as_str().unwrap());
    }
    let (client, _) = common::stdio_client_with_pid(command, &[], &[]).await;
    let tools = client.list_all_tools().await.unwrap().len();
    client.cancel().await.unwrap();
    assert!(tools >= 7, "{entry}: {tools} tools");
    tools
}

/// Runs every hook command of Claude Code settings `text`; each must exit
/// 0 and print the digest.
async fn hooks_print_the_digest(project: &Project, text: &str) -> usize {
    let settings: Value = serde_json::from_str(text).unwrap();
    let mut ran = 0;
    for (_, groups) in settings["hooks"].as_object().unwrap() {
        for group in groups.as_array().unwrap() {
            for hook in group["hooks"].as_array().unwrap() {
                let command = hook["command"].as_str().unwrap();
                if !command.contains("planning-mcp-server") {
                    continue;
                }
                let mut shell = project.command("sh");
                shell
                    .args(["-c", command])
                    .stdin(std::process::Stdio::null());
                let output = common::within_hang(command, shell.output()).await.unwrap();
                let stdout = String::from_utf8_lossy(&output.stdout);
                assert!(
                    output.status.success(),
                    "{command}: {}",
                    String::from_utf8_lossy(&output.stderr)
                );
                assert!(stdout.starts_with("# Board default"), "{command}: {stdout}");
                ran += 1;
            }
        }
    }
    ran
}

/// The arguments of the empty-project run for `agent`: team for Claude
/// Code, whose hooks print its digest.
fn first_args(agent: &str) -> Vec<&str> {
    match agent {
        "claude-code" => vec!["claude-code", "--toolsets", "planning,team"],
        other => vec![other],
    }
}

#[tokio::test]
async fn setup_into_an_empty_project_twice_then_remove_for_every_agent() {
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/setup.md"))
        .unwrap();
    for (agent, written) in AGENTS {
        let project = Project::new();
        let args = first_args(agent);
        let said = project.setup(&args).await;
        assert!(said.contains("added server 'planning'"), "{agent}: {said}");
        let texts: Vec<String> = written
            .iter()
            .map(|f| project.read(f).unwrap_or_else(|| panic!("{agent}: no {f}")))
            .collect();
        // What the docs show, with this test's paths as the docs write them.
        for (file, text) in written.iter().zip(&texts) {
            let shown = text
                .replace(&this_binary(), "/home/you/.cargo/bin/planning-mcp-server")
                .replace(&project.home.display().to_string(), "/home/you");
            assert!(
                docs.contains(&shown),
                "docs/setup.md does not show {agent}'s {file} as written:\n{shown}"
            );
        }
        let entry = entry(agent, &texts[0]);
        speaks_mcp(&project, &entry).await;
        if *agent == "claude-code" {
            assert_eq!(hooks_print_the_digest(&project, &texts[1]).await, 2);
        }
        // Twice: nothing changes.
        let again = project.setup(&args).await;
        assert!(again.contains("is set up already"), "{agent}: {again}");
        let now: Vec<Option<String>> = written.iter().map(|f| project.read(f)).collect();
        assert_eq!(
            now,
            texts.iter().cloned().map(Some).collect::<Vec<_>>(),
            "{agent}: changed by a second run"
        );
        // Removed: nothing left, not even the directories setup made.
        let removed = project.setup(&[agent, "--remove"]).await;
        assert!(
            removed.contains("removed server 'planning'"),
            "{agent}: {removed}"
        );
        let left: Vec<String> = project
            .tree()
            .into_iter()
            .filter(|p| {
                p != ".config"
                    && p != ".planning-mcp-server"
                    && !p.starts_with(".planning-mcp-server/")
            })
            .collect();
        assert!(left.is_empty(), "{agent}: left behind {left:?}");
    }
}

/// Each agent's file with other servers (and hooks) in a layout of its
/// own: 4-space or tab indentation, comments where the format has them.
fn others(agent: &str) -> Vec<(&'static str, &'static str)> {
    match agent {
        "claude-code" => vec![
            (
                ".mcp.json",
                "{\n    \"mcpServers\": {\n        \"docs\": {\n            \"command\": \"npx\",\n            \"args\": [\"-y\", \"docs-mcp\"]\n        }\n    }\n}\n",
            ),
            (
                ".claude/settings.json",
                "{\n  \"permissions\": {\"allow\": [\"Bash(cargo test:*)\"]},\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}\n    ],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]\n  }\n}\n",
            ),
        ],
        "codex" => vec![(
            ".codex/config.toml",
            "# my settings\nmodel = \"o3\"\n\n[mcp_servers.docs]  # the docs\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"]\n",
        )],
        "cursor" => vec![(
            ".cursor/mcp.json",
            "{\n\t\"mcpServers\": {\n\t\t\"docs\": {\"url\": \"http://localhost:9/mcp\"}\n\t}\n}",
        )],
        "vscode" => vec![(
            ".vscode/mcp.json",
            "{\n  // my servers\n  \"inputs\": [],\n  \"servers\": {\n    \"docs\": {\"type\": \"stdio\", \"command\": \"npx\"},\n  },\n}\n",
        )],
        "gemini" => vec![(
            ".gemini/settings.json",
            "{\r\n  \"theme\": \"Dracula\",\r\n  \"mcpServers\": {\r\n    \"docs\": {\"httpUrl\": \"http://localhost:9/mcp\"}\r\n  }\r\n}\r\n",
        )],
        "claude-desktop" => vec![(
            "HOME/.config/Claude/claude_desktop_config.json",
            "{\"globalShortcut\": \"Ctrl+Space\", \"mcpServers\": {\"docs\": {\"command\": \"npx\"}}}",
        )],
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn setup_keeps_other_servers_and_hooks_byte_for_byte_and_remove_restores_the_bytes() {
    for (agent, _) in AGENTS {
        let project = Project::new();
        let originals = others(agent);
        for (file, text) in &originals {
            let path = project.path(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let args = first_args(agent);
        project.setup(&args).await;
        for (file, original) in &originals {
            let now = project.read(file).unwrap();
            // Only insertions: the original's bytes are all there, in order,
            // and whatever was before and after stays.
            let mut rest = now.as_str();
            for c in original.chars() {
                let at = rest
                    .find(c)
                    .unwrap_or_else(|| panic!("{agent} {file}: lost {c:?}:\n{now}"));
                rest = &rest[at + c.len_utf8()..];
            }
            let prefix = original
                .chars()
                .zip(now.chars())
                .take_while(|(a, b)| a == b)
                .count();
            let suffix = original
                .chars()
                .rev()
                .zip(now.chars().rev())
                .take_while(|(a, b)| a == b)
                .count();
            assert!(prefix > 0 && suffix > 0, "{agent} {file}:\n{now}");
        }
        let first = originals.first().unwrap();
        speaks_mcp(&project, &entry(agent, &project.read(first.0).unwrap())).await;
        if *agent == "claude-code" {
            let settings = project.read(".claude/settings.json").unwrap();
            let parsed: Value = serde_json::from_str(&settings).unwrap();
            assert_eq!(
                parsed["hooks"]["SessionStart"].as_array().unwrap().len(),
                2,
                "theirs and ours"
            );
            assert_eq!(parsed["hooks"]["Stop"][0]["hooks"][0]["command"], "true");
            hooks_print_the_digest(&project, &settings).await;
        }
        let written: Vec<String> = originals
            .iter()
            .map(|(f, _)| project.read(f).unwrap())
            .collect();
        assert!(project.setup(&args).await.contains("is set up already"));
        assert_eq!(
            written,
            originals
                .iter()
                .map(|(f, _)| project.read(f).unwrap())
                .collect::<Vec<_>>()
        );
        project.setup(&[agent, "--remove"]).await;
        for (file, original) in &originals {
            assert_eq!(
                project.read(file).as_deref(),
                Some(*original),
                "{agent} {file}: not the original bytes"
            );
        }
    }
}

#[tokio::test]
async fn an_unparseable_file_is_refused_and_left_untouched() {
    for (agent, written) in AGENTS {
        let project = Project::new();
        let broken = match *agent {
            "codex" => "[mcp_servers.docs\ncommand = 1\n",
            _ => "{\"mcpServers\": {\"docs\": {\"command\": \"npx\",}\n",
        };
        let path = project.path(written[0]);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, broken).unwrap();
        let before = project.tree();
        let output = project
            .run(&[&["setup"], first_args(agent).as_slice()].concat())
            .await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{agent}");
        assert!(
            stderr.contains("cannot be read (line ") && stderr.contains("setup changed nothing"),
            "{agent}: {stderr}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), broken, "{agent}");
        assert_eq!(project.tree(), before, "{agent}: made files");
    }
}

#[tokio::test]
async fn overlapping_runs_take_turns_and_lose_no_entry() {
    let project = Project::new();
    let names: Vec<String> = (0..8).map(|n| format!("s{n}")).collect();
    let args: Vec<[&str; 4]> = names
        .iter()
        .map(|name| ["setup", "cursor", "--name", name.as_str()])
        .collect();
    let runs = args.iter().map(|args| project.run(args));
    let outputs = futures_util::future::join_all(runs).await;
    for output in &outputs {
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let servers: Value = serde_json::from_str(&project.read(".cursor/mcp.json").unwrap()).unwrap();
    for name in &names {
        assert!(
            servers["mcpServers"].get(name).is_some(),
            "{name}: {servers}"
        );
    }
}

#[tokio::test]
async fn a_server_key_given_twice_is_refused_naming_it() {
    let project = Project::new();
    // An agent reads the last "mcpServers"; editing the first would not count.
    let text =
        "{\n  \"mcpServers\": {},\n  \"mcpServers\": {\"docs\": {\"command\": \"npx\"}}\n}\n";
    std::fs::write(project.path(".mcp.json"), text).unwrap();
    let output = project.run(&["setup", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(".mcp.json cannot be read (line 3, column 3: the member name \"mcpServers\" appears twice in one object"),
        "{stderr}"
    );
    assert_eq!(project.read(".mcp.json").unwrap(), text);
}

#[tokio::test]
async fn codex_keeps_crlf_and_a_byte_order_mark_and_remove_restores_the_bytes() {
    let project = Project::new();
    let original =
        "\u{feff}# mine\r\nmodel = \"o3\"\r\n\r\n[mcp_servers.docs]\r\ncommand = \"npx\"\r\n";
    let path = project.path(".codex/config.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, original).unwrap();
    project.setup(&["codex"]).await;
    let written = project.read(".codex/config.toml").unwrap();
    assert!(written.starts_with(original), "{written:?}");
    assert_eq!(
        &written[original.len()..],
        "\r\n[mcp_servers.planning]\r\ncommand = \"planning-mcp-server\"\r\n"
    );
    project.setup(&["codex", "--remove"]).await;
    assert_eq!(project.read(".codex/config.toml").unwrap(), original);
}

#[tokio::test]
async fn dry_run_prints_the_diff_and_writes_nothing() {
    let project = Project::new();
    let (file, original) = others("cursor")[0];
    std::fs::create_dir_all(project.path(file).parent().unwrap()).unwrap();
    std::fs::write(project.path(file), original).unwrap();
    let said = project.setup(&["cursor", "--dry-run"]).await;
    assert_eq!(project.read(file).as_deref(), Some(original));
    let diff = said.split_once("The changes:\n").unwrap().1;
    assert_eq!(
        diff,
        "--- a/.cursor/mcp.json\n+++ b/.cursor/mcp.json\n@@ -1,5 +1,8 @@\n {\n \t\"mcpServers\": {\n-\t\t\"docs\": {\"url\": \"http://localhost:9/mcp\"}\n+\t\t\"docs\": {\"url\": \"http://localhost:9/mcp\"},\n+\t\t\"planning\": {\n+\t\t\t\"command\": \"planning-mcp-server\"\n+\t\t}\n \t}\n }\n"
    );
}

#[tokio::test]
async fn user_scope_writes_this_binarys_path_and_its_commands_run() {
    let project = Project::new();
    project
        .setup(&[
            "claude-code",
            "--scope",
            "user",
            "--toolsets",
            "planning,team",
        ])
        .await;
    let this = this_binary();
    let servers = project.read("HOME/.claude.json").unwrap();
    let entry = entry("claude-code", &servers);
    assert_eq!(entry["command"], this.as_str());
    speaks_mcp(&project, &entry).await;
    let settings = project.read("HOME/.claude/settings.json").unwrap();
    assert!(
        settings.contains(&format!("{this} summary --storage file")),
        "{settings}"
    );
    assert_eq!(hooks_print_the_digest(&project, &settings).await, 2);
    assert!(
        project.tree().iter().all(|p| !p.starts_with(".mcp.json")),
        "no project file"
    );
}

#[tokio::test]
async fn a_server_of_the_same_name_that_is_not_ours_is_refused() {
    let project = Project::new();
    std::fs::write(
        project.path(".mcp.json"),
        "{\"mcpServers\": {\"planning\": {\"command\": \"npx\"}}}",
    )
    .unwrap();
    let output = project.run(&["setup", "claude-code"]).await;
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "planning-mcp-server: .mcp.json has a server named 'planning' that setup did not write (\"npx\"): pass --name with another name, or remove it there; nothing was changed\n"
    );
    let output = project
        .run(&["setup", "claude-code", "--name", "board"])
        .await;
    assert!(output.status.success());
    assert!(project.read(".mcp.json").unwrap().contains("\"board\": {"));
}

#[tokio::test]
async fn doctor_checks_what_setup_wrote_line_by_line() {
    let project = Project::new();
    let output = project.run(&["doctor"]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no server 'planning' set up here"));

    project
        .setup(&["claude-code", "--toolsets", "planning,team"])
        .await;
    let output = project.run(&["doctor", "claude-code"]).await;
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let this = this_binary();
    let tools = common::tool_names("planning,team").await.len();
    // docs/setup.md shows this very report: its count of tools is true.
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/setup.md")).unwrap();
    assert!(
        docs.contains(&format!(
            "  ok    it answers initialize and lists {tools} tools\n"
        )),
        "docs/setup.md's doctor report must list {tools} tools"
    );
    assert_eq!(
        report,
        format!(
            "Claude Code, project scope (.mcp.json):\n  ok    server 'planning' runs `planning-mcp-server --toolsets planning,team --storage file`\n  ok    planning-mcp-server is this binary ({this})\n  ok    it answers initialize and lists {tools} tools\n  ok    its board directory .planning-mcp-server is writable\n  ok    SessionStart hook `planning-mcp-server summary --storage file` exits 0 and prints the digest (# Board default)\n  ok    PreCompact hook `planning-mcp-server summary --storage file` exits 0 and prints the digest (# Board default)\n6 checks, 0 failed\n"
        )
    );
    // A hook setup does not write (this one could not read the board) is
    // not run, and doctor says what to do.
    let settings = project.read(".claude/settings.json").unwrap();
    std::fs::write(
        project.path(".claude/settings.json"),
        settings.replace("summary --storage file", "summary"),
    )
    .unwrap();
    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("  FAIL  not run: SessionStart hook `planning-mcp-server summary`: setup writes only `planning-mcp-server summary --storage file` or `planning-mcp-server summary --url URL`, and doctor runs no other command\n        fix: if you did not put it there, remove it from .claude/settings.json; then run planning-mcp-server setup claude-code --toolsets planning,team --storage file\n"), "{stderr}");
    assert!(
        stderr.trim_end().ends_with("6 checks, 2 failed"),
        "{stderr}"
    );
}

#[tokio::test]
async fn doctor_s_fix_for_missing_hooks_writes_them_again() {
    let project = Project::new();
    project
        .setup(&["claude-code", "--toolsets", "planning,team"])
        .await;
    std::fs::write(project.path(".claude/settings.json"), "{}\n").unwrap();
    let output = project.run(&["doctor", "claude-code"]).await;
    let report = String::from_utf8(output.stdout).unwrap();
    let warning =
        "toolset team is on, but no hook in .claude/settings.json prints the digest: run ";
    let fix = report
        .lines()
        .find_map(|line| line.split_once(warning).map(|(_, fix)| fix.to_owned()))
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(
        fix,
        "planning-mcp-server setup claude-code --toolsets planning,team --storage file"
    );
    // The fix, run as printed, writes the hooks back: doctor runs them.
    let words: Vec<&str> = fix.split_whitespace().collect();
    let output = project.run(&words[1..]).await;
    assert!(output.status.success(), "{output:?}");
    let output = project.run(&["doctor", "claude-code"]).await;
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{report}");
    assert!(!report.contains(warning), "{report}");
    assert!(
        report.contains(
            "  ok    SessionStart hook `planning-mcp-server summary --storage file` exits 0"
        ),
        "{report}"
    );
}

#[tokio::test]
async fn doctor_runs_no_code_of_a_checked_out_project() {
    use std::os::unix::fs::PermissionsExt as _;

    let project = Project::new();
    project
        .setup(&["claude-code", "--toolsets", "planning,team"])
        .await;
    // The repository's own script, named like the server, ...
    let tools = project.dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    let script = tools.join("planning-mcp-server");
    std::fs::write(
        &script,
        "#!/bin/sh\ntouch ran-the-script\nexec planning-mcp-server \"$@\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let servers = project.read(".mcp.json").unwrap();
    let named = |command: &str| {
        let text = servers.replace(
            r#""command": "planning-mcp-server""#,
            &format!(r#""command": "{command}""#),
        );
        std::fs::write(project.path(".mcp.json"), text).unwrap();
    };
    named("tools/planning-mcp-server");
    // ... and hooks that start as setup's do and go on.
    let settings = project.read(".claude/settings.json").unwrap();
    let settings = settings
        .replacen(
            "planning-mcp-server summary --storage file",
            "planning-mcp-server summary; touch ran-a-hook",
            1,
        )
        .replacen(
            "planning-mcp-server summary --storage file",
            "planning-mcp-server summary --storage file && touch ran-a-hook",
            1,
        );
    std::fs::write(project.path(".claude/settings.json"), settings).unwrap();
    let args = "--toolsets planning,team --storage file";
    let refused = |stderr: &str, command: &str, why: &str| {
        let line = format!("  FAIL  not run: the server's command `{command} {args}`: {why}");
        assert!(stderr.contains(&line), "{line}\n{stderr}");
    };

    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    for marker in ["ran-the-script", "ran-a-hook"] {
        assert!(!project.dir.join(marker).exists(), "{marker}: {stderr}");
    }
    refused(
        &stderr,
        "tools/planning-mcp-server",
        "it is a path relative to the project, which setup never writes: doctor starts only this binary (",
    );
    for (event, command, what) in [
        (
            "SessionStart",
            "planning-mcp-server summary; touch ran-a-hook",
            "';'",
        ),
        (
            "PreCompact",
            "planning-mcp-server summary --storage file && touch ran-a-hook",
            "'&'",
        ),
    ] {
        let line = format!(
            "  FAIL  not run: {event} hook `{command}`: it holds {what}, shell syntax setup never writes\n"
        );
        assert!(stderr.contains(&line), "{line}\n{stderr}");
    }
    assert!(stderr.contains("        fix: if you did not put it there, remove the entry; then run planning-mcp-server setup claude-code --toolsets planning,team --storage file\n"), "{stderr}");

    // Its absolute path, and a PATH that finds it first, are refused too.
    let real = std::fs::canonicalize(&script).unwrap();
    named(&real.display().to_string());
    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    refused(
        &stderr,
        &real.display().to_string(),
        &format!("it is a file in the project ({})", real.display()),
    );
    named("planning-mcp-server");
    let bins = Path::new(common::BIN).parent().unwrap();
    let path = format!("{}:{}", tools.display(), bins.display());
    let output = doctor_with_path(&project, &path).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    refused(
        &stderr,
        "planning-mcp-server",
        &format!("PATH finds it in the project ({})", real.display()),
    );
    assert!(!project.dir.join("ran-the-script").exists(), "{stderr}");
}

#[tokio::test]
async fn doctor_never_prints_a_storage_url_s_password() {
    let project = Project::new();
    // A database nothing listens on: the server says why it cannot start.
    let url = "postgres://planner:s3cret-pw@127.0.0.1:1/planning";
    let entry = serde_json::json!({"mcpServers": {"planning": {
        "command": "planning-mcp-server",
        "args": ["--storage", "postgres", "--storage-url", url],
    }}});
    std::fs::write(project.path(".mcp.json"), entry.to_string()).unwrap();
    let output = project.run(&["doctor", "claude-code"]).await;
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!report.contains("s3cret-pw"), "{report}");
    assert!(
        report.contains("  ok    server 'planning' runs `planning-mcp-server --storage postgres --storage-url 'postgres://planner:***@127.0.0.1:1/planning'`"),
        "{report}"
    );
    // Nor does an entry setup never writes, named by its keys.
    let entry = serde_json::json!({"mcpServers": {"planning": {
        "command": "planning-mcp-server",
        "env": {"PGPASSWORD": "s3cret-pw"},
    }}});
    std::fs::write(project.path(".mcp.json"), entry.to_string()).unwrap();
    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("s3cret-pw"), "{stderr}");
    assert!(
        stderr
            .contains("server 'planning' is not one setup writes (its keys are 'command', 'env')"),
        "{stderr}"
    );
}

#[tokio::test]
async fn http_setup_points_the_agent_and_the_hooks_at_the_server() {
    let server =
        common::HttpServer::start(&["--toolsets", "planning,team", "--storage", "file"], &[]).await;
    let project = Project::new();
    project
        .setup(&[
            "claude-code",
            "--toolsets",
            "planning,team",
            "--http",
            &server.url,
        ])
        .await;
    let servers: Value = serde_json::from_str(&project.read(".mcp.json").unwrap()).unwrap();
    assert_eq!(
        servers["mcpServers"]["planning"],
        serde_json::json!({"type": "http", "url": server.url})
    );
    let settings = project.read(".claude/settings.json").unwrap();
    assert!(
        settings.contains(&format!(
            "summary --url {}",
            server.url.trim_end_matches("/mcp")
        )),
        "{settings}"
    );
    assert_eq!(hooks_print_the_digest(&project, &settings).await, 2);
    doctor_finds_the_server_up(&project, &server.url).await;
}

/// `doctor claude-code` in `project` passes and finds the server at `url`
/// answering; its report.
async fn doctor_finds_the_server_up(project: &Project, url: &str) -> String {
    let output = project.run(&["doctor", "claude-code"]).await;
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.contains(&format!(
            "  ok    {url} answers initialize (planning-mcp-server "
        )),
        "{report}"
    );
    report
}

#[tokio::test]
async fn doctor_s_fix_starts_the_http_server_the_entry_points_at() {
    use tokio::io::AsyncBufReadExt as _;

    let project = Project::new();
    let port = common::free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    project
        .setup(&["claude-code", "--toolsets", "planning,team", "--http", &url])
        .await;
    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let start = format!(
        "planning-mcp-server --mode http --host 127.0.0.1 --port {port} --toolsets planning,team --storage file"
    );
    let fix = format!(
        "        fix: start the server: `{start}`; or, if it runs at another URL, run `planning-mcp-server setup claude-code --toolsets planning,team --http URL`\n"
    );
    assert!(
        stderr.contains(&format!(
            "  FAIL  {url} does not answer initialize: cannot reach it: "
        )),
        "{stderr}"
    );
    assert!(stderr.contains(&fix), "{fix}\n{stderr}");
    // The printed command, run as printed (in the background, in the
    // project), is the server the entry and its hooks want.
    let printed = stderr
        .split_once("fix: start the server: `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(command, _)| command)
        .unwrap();
    assert_eq!(printed, start);
    let words: Vec<&str> = printed.split_whitespace().collect();
    let mut server = project.command(words[0]);
    server
        .args(&words[1..])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = server.spawn().unwrap();
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let listening = common::within_hang("the server's listening line", async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(url) = common::listening_url(&line) {
                return url;
            }
        }
        panic!("the server exited before listening");
    })
    .await;
    assert_eq!(listening, url);
    // Drained, so that a full pipe never stops the server.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let report = doctor_finds_the_server_up(&project, &url).await;
    assert!(
        report.contains("  ok    SessionStart hook `planning-mcp-server summary --url "),
        "{report}"
    );
    child.kill().await.unwrap();
}

/// The agent CLI `name` from `PLANNING_AGENT_CLIS` (the directory that
/// scripts/agent-clis.sh prints) or PATH; `None` (the test is skipped)
/// when there is none, unless `PLANNING_REQUIRE_AGENT_CLIS=1`.
fn agent_cli(name: &str) -> Option<PathBuf> {
    let dirs = std::env::var_os("PLANNING_AGENT_CLIS")
        .into_iter()
        .chain(std::env::var_os("PATH"))
        .flat_map(|dirs| std::env::split_paths(&dirs).collect::<Vec<_>>());
    let found = dirs.map(|dir| dir.join(name)).find(|cli| cli.is_file());
    if found.is_none() {
        let why = format!(
            "{name} is not installed (export PLANNING_AGENT_CLIS=$(scripts/agent-clis.sh))"
        );
        if std::env::var("PLANNING_REQUIRE_AGENT_CLIS").as_deref() == Ok("1") {
            panic!("{why}, and PLANNING_REQUIRE_AGENT_CLIS=1 requires it");
        }
        eprintln!("SKIPPED: {why}; set PLANNING_REQUIRE_AGENT_CLIS=1 to make this a failure");
    }
    found
}

/// Runs an agent's CLI in the project; it must succeed. Its stdout and its
/// stderr (Gemini CLI lists on stderr).
async fn ask_agent(project: &Project, cli: &Path, args: &[&str]) -> (String, String) {
    let mut command = project.command(&cli.display().to_string());
    command
        .args(args)
        .stdin(std::process::Stdio::null())
        // No update checks or telemetry: the test asks for the config only.
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1");
    let output = common::within_hang("the agent's CLI", command.output())
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{} {args:?}: {stdout}{stderr}",
        cli.display()
    );
    (stdout, stderr)
}

/// What the person would do once in the agent's own UI: trust the project
/// (Codex, Gemini CLI) or approve its `.mcp.json` servers (Claude Code,
/// which reads that approval in a git repository's project only).
fn trust(project: &Project, agent: &str) {
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&project.dir)
        .status()
        .unwrap();
    assert!(init.success());
    let dir = std::fs::canonicalize(&project.dir).unwrap();
    let (file, text) = match agent {
        "claude-code" => (
            project.dir.join(".claude/settings.local.json"),
            r#"{"enabledMcpjsonServers":["planning"]}"#.to_owned(),
        ),
        "codex" => (
            project.home.join(".codex/config.toml"),
            format!(
                "[projects.{:?}]\ntrust_level = \"trusted\"\n",
                dir.display().to_string()
            ),
        ),
        "gemini" => (
            project.home.join(".gemini/trustedFolders.json"),
            serde_json::json!({ dir.display().to_string(): "TRUST_FOLDER" }).to_string(),
        ),
        other => panic!("no CLI for {other}"),
    };
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

#[tokio::test]
async fn the_agents_own_clis_list_the_server_setup_wrote() {
    // Claude Code and Gemini CLI start the server to show its health.
    for (agent, cli, args, listed) in [
        (
            "claude-code",
            "claude",
            &["mcp", "list"][..],
            "planning: planning-mcp-server --toolsets planning,team --storage file - ✔ Connected",
        ),
        (
            "gemini",
            "gemini",
            &["mcp", "list"][..],
            "planning: planning-mcp-server  (stdio) - Connected",
        ),
    ] {
        let Some(cli) = agent_cli(cli) else { continue };
        let project = Project::new();
        project.setup(&first_args(agent)).await;
        trust(&project, agent);
        let (stdout, stderr) = ask_agent(&project, &cli, args).await;
        let said = stdout + &stderr;
        assert!(said.contains(listed), "{agent}: {said}");
    }
    // Codex lists what it would start, as JSON.
    if let Some(codex) = agent_cli("codex") {
        let project = Project::new();
        project.setup(&["codex"]).await;
        trust(&project, "codex");
        let (said, _) = ask_agent(&project, &codex, &["mcp", "list", "--json"]).await;
        let servers: Value = serde_json::from_str(&said).unwrap();
        let ours = servers
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "planning")
            .unwrap_or_else(|| panic!("codex does not list it: {said}"));
        assert_eq!(ours["enabled"], true, "{said}");
        assert_eq!(
            ours["transport"]["command"], "planning-mcp-server",
            "{said}"
        );
        assert_eq!(ours["transport"]["args"], serde_json::json!([]), "{said}");
    }
}

#[tokio::test]
async fn doctor_s_fix_for_a_board_directory_that_cannot_be_made_is_run_as_printed() {
    let project = Project::new();
    project
        .setup(&["claude-code", "--toolsets", "planning,team"])
        .await;
    // A file where the board directory goes: the server could make no
    // board there. (A directory without write permission cannot be made
    // here: the tests may run as root, whom permissions do not stop.)
    std::fs::write(project.path(".planning-mcp-server"), "not a directory\n").unwrap();
    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let file = project.path(".planning-mcp-server").display().to_string();
    let failed = format!(
        "  FAIL  its board directory .planning-mcp-server is not writable: {file} is a file, \
         not a directory\n        fix: move the file away (`mv {file} {file}.moved`); the \
         server makes the directory; or run setup with another --storage\n"
    );
    assert!(stderr.contains(&failed), "{stderr}");

    // The fix, run as printed, turns the FAIL into ok.
    let (_, rest) = failed.split_once("fix: move the file away (`").unwrap();
    let (fix, _) = rest.split_once('`').unwrap();
    let words: Vec<&str> = fix.split_whitespace().collect();
    let status = std::process::Command::new(words[0])
        .args(&words[1..])
        .status()
        .unwrap();
    assert!(status.success(), "{fix}");
    let output = project.run(&["doctor", "claude-code"]).await;
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.contains("  ok    its board directory .planning-mcp-server is writable\n"),
        "{report}"
    );
}

/// The built server's path, its symbolic links resolved: what `setup`
/// writes in a user's files and `doctor` calls this binary.
fn this_binary() -> String {
    std::fs::canonicalize(common::BIN)
        .unwrap()
        .display()
        .to_string()
}

/// The commands between backticks on the `fix:` line that follows the
/// `FAIL` line containing `failed` in `report`.
fn printed_fix(report: &str, failed: &str) -> Vec<String> {
    let mut lines = report.lines();
    lines
        .find(|line| line.starts_with("  FAIL  ") && line.contains(failed))
        .unwrap_or_else(|| panic!("no FAIL with {failed:?}:\n{report}"));
    let fix = lines.next().and_then(|l| l.trim().strip_prefix("fix: "));
    let fix = fix.unwrap_or_else(|| panic!("no fix after {failed:?}:\n{report}"));
    fix.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Runs `command` (as printed, words split at spaces: the tests' paths
/// have none) in the project, with `path` as PATH; it must succeed.
async fn run_printed(project: &Project, command: &str, path: &str) {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut run = project.command(words[0]);
    run.args(&words[1..])
        .env("PATH", path)
        .stdin(std::process::Stdio::null());
    let output = common::within_hang(command, run.output()).await.unwrap();
    assert!(output.status.success(), "{command}: {output:?}");
}

/// `doctor claude-code` in `project` with `path` as PATH.
async fn doctor_with_path(project: &Project, path: &str) -> Output {
    let mut command = project.command(common::BIN);
    command
        .args(["doctor", "claude-code"])
        .env("PATH", path)
        .stdin(std::process::Stdio::null());
    common::within_hang("doctor", command.output())
        .await
        .unwrap()
}

#[tokio::test]
async fn doctor_s_fix_for_a_program_path_does_not_find_links_this_binary_onto_path() {
    let project = Project::new();
    project
        .setup(&["claude-code", "--toolsets", "planning,team"])
        .await;
    // A PATH without the server, whose first directory can be written.
    let bin = project.home.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let output = doctor_with_path(&project, &path).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let this = this_binary();
    let link = format!(
        "ln -sf {this} {}",
        bin.join("planning-mcp-server").display()
    );
    for failed in [
        "planning-mcp-server is not found",
        "SessionStart hook `planning-mcp-server summary --storage file` is not run",
        "PreCompact hook `planning-mcp-server summary --storage file` is not run",
    ] {
        assert_eq!(
            printed_fix(&stderr, failed),
            std::slice::from_ref(&link),
            "{stderr}"
        );
    }
    // The fix, run as printed, turns every FAIL into ok.
    run_printed(&project, &link, &path).await;
    let output = doctor_with_path(&project, &path).await;
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report.contains(&format!(
            "  ok    planning-mcp-server is this binary ({this})\n"
        )),
        "{report}"
    );
}

#[tokio::test]
async fn doctor_s_fix_for_a_user_entry_whose_binary_is_gone_is_run_as_printed() {
    let project = Project::new();
    project
        .setup(&[
            "claude-code",
            "--scope",
            "user",
            "--toolsets",
            "planning,team",
        ])
        .await;
    let this = this_binary();
    // The binary the entry names was moved away (uninstalled, rebuilt elsewhere).
    let gone = project.home.join("old").join("planning-mcp-server");
    let gone = gone.display().to_string();
    let config = project.read("HOME/.claude.json").unwrap();
    assert!(config.contains(&this), "{config}");
    std::fs::write(
        project.path("HOME/.claude.json"),
        config.replace(&this, &gone),
    )
    .unwrap();
    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let fix = printed_fix(&stderr, &format!("{gone} is not found"));
    assert_eq!(
        fix,
        [format!(
            "{this} setup claude-code --scope user --toolsets planning,team --storage file"
        )],
        "{stderr}"
    );
    let path = std::env::var("PATH").unwrap_or_default();
    run_printed(&project, &fix[0], &path).await;
    let output = project.run(&["doctor", "claude-code"]).await;
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test]
async fn doctor_s_fix_for_a_config_file_that_cannot_be_read_is_run_as_printed() {
    let project = Project::new();
    project.setup(&["claude-code"]).await;
    std::fs::write(
        project.path(".mcp.json"),
        "{ \"mcpServers\": { \"planning\": \n",
    )
    .unwrap();
    let output = project.run(&["doctor", "claude-code"]).await;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let file = project.path(".mcp.json").display().to_string();
    let fix = printed_fix(&stderr, ".mcp.json cannot be read");
    assert_eq!(
        fix,
        [
            format!("mv {file} {file}.broken"),
            "planning-mcp-server setup claude-code".to_owned()
        ],
        "{stderr}"
    );
    let path = std::env::var("PATH").unwrap_or_default();
    let bins = Path::new(common::BIN).parent().unwrap();
    let path = format!("{}:{path}", bins.display());
    for command in &fix {
        run_printed(&project, command, &path).await;
    }
    assert_eq!(
        std::fs::read_to_string(format!("{file}.broken")).unwrap(),
        "{ \"mcpServers\": { \"planning\": \n"
    );
    let output = project.run(&["doctor", "claude-code"]).await;
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
