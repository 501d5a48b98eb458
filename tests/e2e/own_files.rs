// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The server's own files stay out of the user's change: with
//! `--storage file` and toolset `workflow` in a real git and a real jj
//! repository, the board files, the workflow's lock and state and the
//! ignore rules themselves never show in `git status --porcelain` or
//! `jj diff --summary`, nor in the commit planner's `Changes:`; only the
//! plan the user works on does. With
//! `gitignore = false` (to commit them on purpose) they do show.

use crate::common;

use std::path::Path;

use common::vcs::{Backend, Repo, jj_or_skip};
use common::{Client, ok, stdio_client_with_pid};
use serde_json::json;

/// What the repository shows as changed, one path a line, sorted: git's
/// untracked and modified files, or jj's diff of the working-copy commit.
fn changes(repo: &Repo, backend: Backend) -> Vec<String> {
    let mut paths: Vec<String> = match backend {
        Backend::Git => repo
            .git(&["status", "--porcelain=v1", "--untracked-files=all"])
            .lines()
            .map(|line| line[3..].to_owned())
            .collect(),
        Backend::Jj => repo
            .jj(&["diff", "--summary"])
            .lines()
            .map(|line| line[2..].to_owned())
            .collect(),
    };
    paths.sort();
    paths
}

/// The server in the repository's top folder, as an MCP client starts it
/// there, with the board on file storage and the workflow on.
async fn server(repo: &Repo, env: &[(&str, &str)]) -> Client {
    let mut command = tokio::process::Command::new(common::BIN);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PLANNING_") {
            command.env_remove(key);
        }
    }
    command
        .current_dir(&repo.path)
        .envs(repo.vcs_env())
        .kill_on_drop(true);
    if let Some(jj) = &repo.jj {
        command.env("PLANNING_COMMIT_JJ_BIN", jj);
    }
    let args = [
        "--storage",
        "file",
        "--toolsets",
        "planning,workflow,commit",
    ];
    stdio_client_with_pid(command, &args, env).await.0
}

/// Writes the board and the workflow's files, checking what the
/// repository shows after each step.
async fn work(repo: &Repo, backend: Backend, env: &[(&str, &str)]) -> Vec<Vec<String>> {
    let client = server(repo, env).await;
    let mut seen = Vec::new();
    ok(
        &client,
        "set_goal",
        json!({"title": "G", "description": "D"}),
    )
    .await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "T", "description": ""}]}),
    )
    .await;
    seen.push(changes(repo, backend));
    // A blocked spell makes the workflow directory and its lock only.
    let blocked = ok(&client, "reverto", json!({})).await;
    assert!(blocked.contains("transition: blocked (V0)"), "{blocked}");
    seen.push(changes(repo, backend));
    // The first Accio writes the plan template (the user's) and state.json.
    let started = ok(&client, "accio", json!({})).await;
    assert!(started.contains("transition: G1 "), "{started}");
    assert!(repo.path.join(".ai/task/state.json").is_file());
    seen.push(changes(repo, backend));
    // What the commit planner lists as the change's files.
    let read = ok(&client, "gather_requirements", json!({})).await;
    let mut planned: Vec<String> = read
        .lines()
        .skip_while(|l| !l.starts_with("Changes:"))
        .skip(1)
        .take_while(|l| l.starts_with("  ") && !l.starts_with("  This change"))
        .map(|l| {
            l[2..]
                .split_once(' ')
                .map_or(l, |(_, path)| path.trim())
                .to_owned()
        })
        .collect();
    planned.sort();
    seen.push(planned);
    client.cancel().await.unwrap();
    seen
}

fn check(repo: &Repo, backend: Backend) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let seen = runtime.block_on(work(repo, backend, &[]));
    let none: Vec<String> = Vec::new();
    assert_eq!(seen[0], none, "{backend:?}: the board's files");
    assert_eq!(seen[1], none, "{backend:?}: the workflow's lock");
    assert_eq!(seen[2], [".ai/task/plan.md"], "{backend:?}: the plan only");
    assert_eq!(
        seen[3],
        [".ai/task/plan.md"],
        "{backend:?}: the commit planner's Changes"
    );
    for (dir, rule) in [(".planning-mcp-server", "*"), (".ai/task", "/state.json")] {
        let ignore = std::fs::read_to_string(repo.path.join(dir).join(".gitignore")).unwrap();
        assert!(ignore.lines().any(|l| l == rule), "{dir}: {ignore}");
    }
    // `git add -A` then takes only the plan.
    if backend == Backend::Git {
        repo.git(&["add", "-A"]);
        let staged = repo.git(&["diff", "--cached", "--name-only"]);
        assert_eq!(staged, ".ai/task/plan.md\n");
    }
}

/// The same work with both rules turned off: the files show, so the
/// checks above can fail.
fn check_turned_off(repo: &Repo, backend: Backend) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let env = [
        ("PLANNING_STORAGE_GITIGNORE", "false"),
        ("PLANNING_WORKFLOW_GITIGNORE", "false"),
    ];
    let seen = runtime.block_on(work(repo, backend, &env));
    let expected_board = [
        ".planning-mcp-server/default.json",
        ".planning-mcp-server/default.json.lock",
    ];
    assert_eq!(seen[0], expected_board, "{backend:?}");
    assert_eq!(
        seen[2],
        [
            ".ai/task/.lock",
            ".ai/task/plan.md",
            ".ai/task/state.json",
            expected_board[0],
            expected_board[1],
        ],
        "{backend:?}"
    );
    assert!(!Path::new(&repo.path.join(".ai/task/.gitignore")).exists());
}

#[test]
fn own_files_stay_out_of_a_git_change() {
    check(&Repo::new(Backend::Git, None), Backend::Git);
    check_turned_off(&Repo::new(Backend::Git, None), Backend::Git);
}

#[test]
fn own_files_stay_out_of_a_jj_change() {
    let Some(jj) = jj_or_skip("own_files_stay_out_of_a_jj_change") else {
        return;
    };
    check(&Repo::new(Backend::Jj, Some(&jj)), Backend::Jj);
    check_turned_off(&Repo::new(Backend::Jj, Some(&jj)), Backend::Jj);
}
