// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `storage.share_worktrees`: servers started in two git worktrees of one
//! repository share one board file (in the main worktree), the `summary`
//! command in a worktree reads it too; unset, toolset team shares too;
//! off, each working directory keeps its own; two workspaces of a real jj repository share
//! one board too, and `check-touches` in the second one (no `.git`, no index) checks the
//! files its working-copy change touches against a claim made in the first; outside a
//! repository start-up stops.

use crate::common;

use std::path::Path;

use common::vcs::{Backend, Repo, jj_or_skip};
use common::{git, ok, stdio_client_with_pid};
use serde_json::json;
use tempfile::TempDir;

const FLAGS: [&str; 4] = ["--toolsets", "planning,team", "--storage", "file"];
const SHARE: (&str, &str) = ("PLANNING_STORAGE_SHARE_WORKTREES", "true");

/// A repository `main` with a second worktree `other` (and a subdirectory
/// `other/src`), in a fresh temporary directory.
fn repository() -> TempDir {
    let root = tempfile::tempdir().unwrap();
    let main = root.path().join("main");
    std::fs::create_dir_all(&main).unwrap();
    git(&main, &["init", "-q"]);
    git(&main, &["commit", "-q", "--allow-empty", "-m", "first"]);
    git(&main, &["worktree", "add", "-q", "../other"]);
    std::fs::create_dir_all(root.path().join("other/src")).unwrap();
    root
}

/// The tasks of the default board, as a server started in `cwd` sees them.
async fn tasks_seen_from(root: &TempDir, cwd: &Path, env: &[(&str, &str)]) -> String {
    let mut command = common::command(root);
    command.current_dir(cwd);
    let (client, _) = stdio_client_with_pid(command, &FLAGS, env).await;
    let tasks = ok(&client, "team_board", json!({})).await;
    client.cancel().await.unwrap();
    tasks
}

#[tokio::test]
async fn the_worktrees_of_one_repository_share_one_board() {
    let root = repository();
    let (main, other) = (root.path().join("main"), root.path().join("other"));

    let mut command = common::command(&root);
    command.current_dir(&other);
    let (writer, _) = stdio_client_with_pid(command, &FLAGS, &[SHARE]).await;
    ok(
        &writer,
        "add_tasks",
        json!({"tasks": [{"title": "written in the other worktree"}]}),
    )
    .await;
    ok(&writer, "claim_task", json!({"agent": "worker-1"})).await;
    writer.cancel().await.unwrap();

    // The board file lives in the main worktree, and only there.
    assert!(main.join(".planning-mcp-server/default.json").is_file());
    assert!(!other.join(".planning-mcp-server").exists());

    for cwd in [&main, &other.join("src")] {
        let tasks = tasks_seen_from(&root, cwd, &[SHARE]).await;
        assert!(
            tasks.contains("] written in the other worktree · held by worker-1 until "),
            "{}: {tasks}",
            cwd.display()
        );
    }

    // The hook's command in a worktree reads the shared board too.
    let output = common::command(&root)
        .current_dir(&other)
        .args(["summary", "--storage", "file"])
        .env(SHARE.0, SHARE.1)
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let digest = String::from_utf8(output.stdout).unwrap();
    assert!(digest.contains("Claimed (1):"), "{digest}");

    // Unset, with toolset team on, the worktrees share by default.
    let tasks = tasks_seen_from(&root, &other, &[]).await;
    assert!(tasks.contains("] written in the other worktree"), "{tasks}");

    // Off, the working directory keeps its own board: an empty one (a
    // board only read is never written, so no file appears).
    let off = [(SHARE.0, "false")];
    let tasks = tasks_seen_from(&root, &other, &off).await;
    assert!(tasks.contains("Tasks: 0 "), "{tasks}");
    assert!(!other.join(".planning-mcp-server").exists());
}

#[tokio::test]
async fn sharing_outside_a_repository_stops_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let output = common::command(&dir)
        .args(FLAGS)
        .env(SHARE.0, SHARE.1)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("storage.share_worktrees is on, but ")
            && stderr.contains(" is not inside a git or jj repository; run the server inside the repository, or turn the option off"),
        "{stderr}"
    );
}

#[tokio::test]
async fn the_workspaces_of_one_jj_repository_share_one_board() {
    let Some(jj) = jj_or_skip("the_workspaces_of_one_jj_repository_share_one_board") else {
        return;
    };
    let repo = Repo::new(Backend::Jj, Some(&jj));
    repo.jj(&["workspace", "add", "../other"]);
    let other = repo.dir.path().join("other");
    assert!(
        other.join(".jj/repo").is_file(),
        "jj wrote its workspace as the store expects"
    );

    let mut command = common::command(&repo.dir);
    command.current_dir(&other);
    // Unset: with toolset team on, the workspaces share by default.
    let (writer, _) = stdio_client_with_pid(command, &FLAGS, &[]).await;
    ok(
        &writer,
        "add_tasks",
        json!({"tasks": [{"title": "written in the other workspace"}]}),
    )
    .await;
    writer.cancel().await.unwrap();

    assert!(
        repo.path
            .join(".planning-mcp-server/default.json")
            .is_file()
    );
    assert!(!other.join(".planning-mcp-server").exists());
    let tasks = tasks_seen_from(&repo.dir, &repo.path, &[]).await;
    assert!(
        tasks.contains("] written in the other workspace"),
        "{tasks}"
    );
    // The hooks' `summary`, run in either workspace, reads that board.
    for dir in [&repo.path, &other] {
        let summary = common::command(&repo.dir)
            .current_dir(dir)
            .args(["summary", "--storage", "file"])
            .output()
            .await
            .unwrap();
        let digest = String::from_utf8_lossy(&summary.stdout);
        assert!(summary.status.success(), "{summary:?}");
        assert!(
            digest.contains("written in the other workspace"),
            "{}: {digest}",
            dir.display()
        );
    }

    // A claim made through the main workspace's server is seen by
    // `check-touches` in the other workspace, which has no `.git` and no
    // index: the files its working-copy change touches are checked.
    let mut command = common::command(&repo.dir);
    command.current_dir(&repo.path);
    let (lead, _) = stdio_client_with_pid(command, &FLAGS, &[]).await;
    ok(
        &lead,
        "add_tasks",
        json!({"tasks": [{"title": "Parser", "touches": ["src/parser/**"]}]}),
    )
    .await;
    ok(
        &lead,
        "claim_task",
        json!({"agent": "worker-1", "task_id": common::id("Parser")}),
    )
    .await;
    lead.cancel().await.unwrap();
    std::fs::create_dir_all(other.join("src/parser")).unwrap();
    std::fs::write(other.join("src/parser/mod.rs"), "changed\n").unwrap();
    let jj_dir = jj.parent().filter(|d| !d.as_os_str().is_empty());
    let path = std::env::join_paths(jj_dir.map(Path::to_path_buf).into_iter().chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let check = |agent: &'static str, strict: bool| {
        let mut command = common::command(&repo.dir);
        command
            .current_dir(other.join("src"))
            .args(["check-touches", "--storage", "file"])
            .args(strict.then_some("--strict"))
            .envs(repo.vcs_env())
            .env("PATH", &path)
            .env("PLANNING_AGENT", agent);
        command
    };
    let refused = check("worker-2", true).output().await.unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(
        stderr.starts_with(
            "planning-mcp-server: 1 staged file falls inside another agent's reservation:\n- \
             src/parser/mod.rs: ["
        ) && stderr.contains("held by worker-1 until "),
        "{stderr}"
    );
    let warned = check("worker-2", false).output().await.unwrap();
    assert_eq!(warned.status.code(), Some(0), "{warned:?}");
    assert!(
        String::from_utf8_lossy(&warned.stdout).starts_with("1 staged file falls"),
        "{warned:?}"
    );
    // The holder's own reservation is none.
    let own = check("worker-1", true).output().await.unwrap();
    assert_eq!(own.status.code(), Some(0), "{own:?}");
    assert!(
        String::from_utf8_lossy(&own.stdout).starts_with(
            "No staged file falls inside another agent's reservation (1 staged, 1 live"
        ),
        "{own:?}"
    );
}
