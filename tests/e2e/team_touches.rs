// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Touches end to end: `check-touches` in a real git repository, as a
//! pre-commit hook, against the stored board and against a running
//! server; and a claim that overlaps another agent's touches, refused
//! through the MCP client.

use std::path::Path;
use std::process::Output;

use serde_json::json;
use tempfile::TempDir;

use crate::common::{self, HttpServer, call, git, id, ok, stdio_client};
use crate::team::TEAM;

/// A git repository in `dir` with one commit, `README.md`.
fn repository(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("README.md"), "# repo\n").unwrap();
    git(dir, &["add", "README.md"]);
    git(dir, &["commit", "-q", "-m", "start"]);
}

/// Writes `path` (relative to `dir`) and stages it.
fn stage(dir: &Path, path: &str) {
    let file = dir.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "changed\n").unwrap();
    git(dir, &["add", path]);
}

/// `planning-mcp-server check-touches args` in `dir`.
async fn check(dir: &TempDir, args: &[&str]) -> Output {
    common::command(dir)
        .arg("check-touches")
        .args(args)
        .output()
        .await
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A lead's board: `Parser` touches src/parser/**, claimed by worker-1;
/// `Docs` touches docs/**, dispatched to worker-2 (not claimed yet).
async fn reserve(client: &common::Client) {
    ok(
        client,
        "add_tasks",
        json!({"tasks": [{"title": "Parser"}, {"title": "Docs"}, {"title": "Lexer"}]}),
    )
    .await;
    for (title, touches) in [
        ("Parser", json!(["src/parser/**"])),
        ("Docs", json!(["docs/**"])),
        ("Lexer", json!(["src/parser/lexer.rs"])),
    ] {
        ok(
            client,
            "set_touches",
            json!({"task_id": id(title), "touches": touches}),
        )
        .await;
    }
    ok(
        client,
        "claim_task",
        json!({"agent": "worker-1", "task_id": id("Parser")}),
    )
    .await;
    ok(
        client,
        "dispatch_task",
        json!({"lead": "lead", "worker": "worker-2", "task_id": id("Docs")}),
    )
    .await;
}

#[tokio::test]
async fn check_touches_reports_staged_files_inside_other_agents_reservations() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    let client = stdio_client(&dir, &[TEAM[0], TEAM[1], "--storage", "file"], &[]).await;
    reserve(&client).await;
    // An overlapping claim is refused, naming the holder and a shared path.
    let (is_error, refused) = call(
        &client,
        "claim_task",
        json!({"agent": "worker-3", "task_id": id("Lexer")}),
    )
    .await;
    assert!(is_error);
    assert!(
        refused.starts_with(&format!(
            "[{}] touches src/parser/lexer.rs, which overlaps src/parser/** of [{}], held by \
             worker-1 until ",
            id("Lexer"),
            id("Parser")
        )),
        "{refused}"
    );
    let ready = ok(&client, "ready_tasks", json!({})).await;
    assert!(
        ready.contains(&format!(
            "- ☐ [{}] Lexer · touches src/parser/lexer.rs · conflicts with [{}] held by worker-1",
            id("Lexer"),
            id("Parser")
        )),
        "{ready}"
    );
    client.cancel().await.unwrap();

    stage(dir.path(), "src/parser/mod.rs");
    stage(dir.path(), "docs/guide.md");
    stage(dir.path(), "src/cli.rs");
    let output = check(&dir, &["--storage", "file", "--agent", "worker-3"]).await;
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report = text(&output.stdout);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(
        lines[0],
        "2 staged files fall inside another agent's reservation:"
    );
    assert!(
        lines[1].starts_with(&format!(
            "- docs/guide.md: [{}] Docs, dispatched to worker-2 until ",
            id("Docs")
        )),
        "{report}"
    );
    assert!(lines[1].ends_with(" (touches docs/**)"), "{report}");
    assert!(
        lines[2].starts_with(&format!(
            "- src/parser/mod.rs: [{}] Parser, held by worker-1 until ",
            id("Parser")
        )),
        "{report}"
    );
    // Asked to, it fails the commit; a holder's own reservation is none.
    let strict = check(
        &dir,
        &["--storage", "file", "--agent", "worker-3", "--strict"],
    )
    .await;
    assert_eq!(strict.status.code(), Some(1));
    assert!(text(&strict.stderr).contains("(--strict: the commit is refused)"));
    let own = check(&dir, &["--storage", "file", "--agent", "worker-1"]).await;
    assert!(
        text(&own.stdout).starts_with(
            "1 staged file falls inside another agent's reservation:\n- docs/guide.md"
        ),
        "{own:?}"
    );

    // As a real pre-commit hook: the strict one refuses the commit.
    let hook = dir.path().join(".git/hooks/pre-commit");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\nexec '{}' check-touches --storage file --strict\n",
            common::BIN
        ),
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let commit = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=T",
            "-c",
            "user.email=t@e",
            "commit",
            "-q",
            "-m",
            "x",
        ])
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env_remove("PLANNING_STORAGE_BACKEND")
        // As docs/team.md says: the one hook names no agent; each
        // worktree's environment does.
        .env("PLANNING_AGENT", "worker-3")
        .output()
        .unwrap();
    assert!(
        !commit.status.success(),
        "the hook lets it through: {commit:?}"
    );
    assert!(
        text(&commit.stderr).contains("src/parser/mod.rs: ["),
        "{commit:?}"
    );
    // Unstaged, the files conflict no more, and the hook lets the commit in.
    git(
        dir.path(),
        &["reset", "-q", "docs/guide.md", "src/parser/mod.rs"],
    );
    git(dir.path(), &["commit", "-q", "-m", "the CLI"]);
    assert!(git(dir.path(), &["log", "--oneline"]).contains("the CLI"));
}

#[tokio::test]
async fn check_touches_asks_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    repository(dir.path());
    let server = HttpServer::start_in(&dir, &TEAM, &[]).await;
    let client = server.client().await;
    reserve(&client).await;
    stage(dir.path(), "src/parser/x/y.rs");
    let output = check(&dir, &["--url", server.base(), "--agent", "worker-2"]).await;
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report = text(&output.stdout);
    assert!(
        report.starts_with(&format!(
            "1 staged file falls inside another agent's reservation:\n- src/parser/x/y.rs: [{}] Parser, held by worker-1 until ",
            id("Parser")
        )),
        "{report}"
    );
    let json: serde_json::Value =
        reqwest::get(format!("{}/boards/default/reservations", server.base()))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    assert_eq!(json["reservations"][0]["holder"], "worker-1");
    assert_eq!(json["reservations"][1]["dispatched"], true);
    // Outside a git repository it says so: a warning (exit 0), or with
    // --strict a failure.
    let elsewhere = tempfile::tempdir().unwrap();
    let output = check(&elsewhere, &["--url", server.base()]).await;
    assert_eq!(output.status.code(), Some(0));
    assert!(
        text(&output.stderr)
            .contains("warning: the staged files were not checked: git rev-parse failed in"),
        "{output:?}"
    );
    let output = check(&elsewhere, &["--url", server.base(), "--strict"]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("git rev-parse failed in"),
        "{output:?}"
    );
    client.cancel().await.unwrap();
}
