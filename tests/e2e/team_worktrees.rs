// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset team in a real git repository with two linked worktrees: by
//! default (no `storage.share_worktrees`) the server in the main worktree,
//! `summary` and `check-touches` in each linked worktree read one board;
//! `check-touches` takes the agent from `PLANNING_AGENT`, reports a staged
//! conflict (`--strict` exits 1) and, with the server down, warns and exits
//! 0; the start-up log names where boards live; asked to, each worktree
//! keeps a board of its own, and a missing board is named.

use std::path::Path;
use std::process::Output;

use serde_json::json;
use tempfile::TempDir;

use crate::common::{self, HttpServer, git, id, ok};
use crate::team::TEAM;

/// `planning-mcp-server args` run in `cwd`, with `env`.
async fn run(home: &TempDir, cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = common::command(home);
    command.current_dir(cwd).args(args);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().await.unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[tokio::test]
async fn linked_worktrees_read_the_main_worktrees_board_by_default() {
    // The main worktree is the server's directory; two linked worktrees
    // live elsewhere.
    let main = tempfile::tempdir().unwrap();
    let linked = tempfile::tempdir().unwrap();
    git(main.path(), &["init", "-q", "-b", "main"]);
    git(
        main.path(),
        &["commit", "-q", "--allow-empty", "-m", "first"],
    );
    let worktrees = [linked.path().join("one"), linked.path().join("two")];
    for (n, worktree) in worktrees.iter().enumerate() {
        let path = worktree.to_str().unwrap();
        git(
            main.path(),
            &["worktree", "add", "-q", "-b", &format!("w{n}"), path],
        );
    }

    let server = HttpServer::start_in(&main, &[TEAM[0], TEAM[1], "--storage", "file"], &[]).await;
    let log = server.stderr.lock().join("\n");
    let boards = std::fs::canonicalize(main.path())
        .unwrap()
        .join(".planning-mcp-server");
    assert!(
        log.contains(&format!("storage=file:{}", boards.display())),
        "the start-up log names where boards live: {log}"
    );
    let client = server.client().await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "Parser"}]}),
    )
    .await;
    ok(
        &client,
        "set_touches",
        json!({"task_id": id("Parser"), "touches": ["src/parser/**"]}),
    )
    .await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "worker-1", "task_id": id("Parser")}),
    )
    .await;
    client.cancel().await.unwrap();

    for worktree in &worktrees {
        // The hook's summary reads the main worktree's board.
        let summary = run(&main, worktree, &["summary", "--storage", "file"], &[]).await;
        assert!(summary.status.success(), "{summary:?}");
        let digest = text(&summary.stdout);
        assert!(
            digest.contains("Claimed (1):"),
            "{}: {digest}",
            worktree.display()
        );

        let file = worktree.join("src/parser/mod.rs");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "changed\n").unwrap();
        git(worktree, &["add", "src/parser/mod.rs"]);
        let agent = [("PLANNING_AGENT", "worker-2")];
        let hook = ["check-touches", "--storage", "file", "--strict"];
        let strict = run(&main, worktree, &hook, &agent).await;
        assert_eq!(strict.status.code(), Some(1), "{strict:?}");
        let stderr = text(&strict.stderr);
        assert!(
            stderr.contains(
                "1 staged file falls inside another agent's reservation:\n- src/parser/mod.rs: ["
            ) && stderr.contains("held by worker-1 until "),
            "{stderr}"
        );
        // The holder's own reservation is none, by the variable.
        let own = run(&main, worktree, &hook, &[("PLANNING_AGENT", "worker-1")]).await;
        assert_eq!(own.status.code(), Some(0), "{own:?}");
        // Through the server too.
        let url = ["check-touches", "--url", server.base()];
        let asked = run(&main, worktree, &url, &agent).await;
        assert_eq!(asked.status.code(), Some(0), "{asked:?}");
        assert!(
            text(&asked.stdout).starts_with("1 staged file falls"),
            "{asked:?}"
        );
    }

    // With the server down, the warn-only hook warns and lets the commit
    // through; --strict refuses.
    let base = server.base().to_owned();
    drop(server);
    let down = run(
        &main,
        &worktrees[0],
        &["check-touches", "--url", &base],
        &[],
    )
    .await;
    assert_eq!(down.status.code(), Some(0), "{down:?}");
    let warning = text(&down.stderr);
    assert!(
        warning.starts_with(&format!(
            "planning-mcp-server check-touches: warning: the staged files were not checked: cannot reach {base}"
        )) && warning.contains("(the commit goes through; with --strict it would be refused)"),
        "{warning}"
    );
    let strict = run(
        &main,
        &worktrees[0],
        &["check-touches", "--url", &base, "--strict"],
        &[],
    )
    .await;
    assert_eq!(strict.status.code(), Some(1), "{strict:?}");

    // Asked for a board per worktree, a linked worktree reads its own,
    // missing one, and says where it looked.
    let own = [("PLANNING_STORAGE_SHARE_WORKTREES", "false")];
    let summary = run(
        &main,
        &worktrees[1],
        &["summary", "--storage", "file"],
        &own,
    )
    .await;
    assert!(summary.status.success(), "{summary:?}");
    let digest = text(&summary.stdout);
    let missing = worktrees[1].join(".planning-mcp-server/default.json");
    assert!(
        digest.ends_with(&format!(
            "Board default: none is stored at {}.\n",
            missing.display()
        )),
        "{digest}"
    );
    let check = run(
        &main,
        &worktrees[1],
        &["check-touches", "--storage", "file"],
        &own,
    )
    .await;
    assert!(
        text(&check.stdout)
            .contains("(1 staged, 0 live reservations).\nBoard default: none is stored at "),
        "{check:?}"
    );
}
