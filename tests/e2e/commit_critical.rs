// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit` when the VCS cannot be used: every tool answers an
//! `isError` result starting `CRITICAL:` with the command, its status, the
//! first lines of its stderr and a `Fix:` line; the server starts anyway
//! and keeps answering.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::json;

use crate::common::vcs::{Backend, Repo, jj_or_skip, pairs};
use crate::common::{Client, HttpServer, call, stdio_client};

const HALT: &str = "Stop all work and tell the user; do not continue until this is fixed.";
const READ_TEMPLATE: &str = r#"'self.change_id() ++ " " ++ self.commit_id() ++ " " ++ self.divergent() ++ " " ++ self.conflict() ++ "\n" ++ self.description()'"#;

/// Both a read and a write answer `expected`, as errors.
async fn both_critical(client: &Client, expected: &str) {
    let goal = json!({"goal": {"type": "feat", "title": "x"}});
    for (tool, arguments) in [
        ("gather_requirements", json!({})),
        ("set_overarching_goal", goal),
    ] {
        let (is_error, text) = call(client, tool, arguments).await;
        assert!(is_error, "{tool}: {text}");
        assert_eq!(text, expected, "{tool}");
    }
    // The server is still there.
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "verify_plan"));
}

/// A stdio client on `repo` with extra `PLANNING_COMMIT_*` settings.
async fn start(repo: &Repo, settings: &[(&str, &str)]) -> Client {
    let mut env = repo.server_env();
    env.extend(
        settings
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    stdio_client(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await
}

/// A plain directory (no repository) as `[commit] root`.
fn plain() -> Repo {
    let repo = Repo::new(Backend::Git, None);
    std::fs::remove_dir_all(repo.path.join(".git")).unwrap();
    repo
}

fn script(repo: &Repo, name: &str, body: &str) -> String {
    let path = repo.dir.path().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[tokio::test]
async fn commit_critical_no_repository_over_stdio_and_http() {
    let repo = plain();
    let root = repo.path.display().to_string();
    let expected = format!(
        "CRITICAL: the commit planner cannot use a repository at {root}. {HALT}\n\
         Searched: {root} and every parent directory, for .jj/ or .git\n\
         Fix: run `jj git init` or `git init` in the project, or set [commit] root to the repository."
    );
    let stdio = start(&repo, &[]).await;
    both_critical(&stdio, &expected).await;
    stdio.cancel().await.unwrap();
    let env = repo.server_env();
    let server =
        HttpServer::start_in(&repo.dir, &["--toolsets", "planning,commit"], &pairs(&env)).await;
    let http = server.client().await;
    both_critical(&http, &expected).await;
    // The board next to it is unaffected.
    let (is_error, _) = call(&http, "get_tasks", json!({})).await;
    assert!(!is_error);
    http.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_critical_jj_or_git_missing() {
    let repo = plain();
    let jj = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "jj"),
            ("PLANNING_COMMIT_JJ_BIN", "/nonexistent/jj"),
        ],
    )
    .await;
    both_critical(&jj, &format!(
        "CRITICAL: the commit planner cannot use jj. {HALT}\n\
         Command: /nonexistent/jj --no-pager --color never log -r @ --no-graph -T {READ_TEMPLATE}\n\
         Status: could not start: No such file or directory (os error 2)\n\
         Stderr: (empty)\n\
         Fix: install jj 0.45 or later (cargo install --locked jj-cli@0.45.1) or set [commit] jj_bin; \"/nonexistent/jj\" was not found."
    )).await;
    jj.cancel().await.unwrap();
    let git = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "git"),
            ("PLANNING_COMMIT_GIT_BIN", "/nonexistent/git"),
        ],
    )
    .await;
    both_critical(
        &git,
        &format!(
            "CRITICAL: the commit planner cannot use git. {HALT}\n\
         Command: /nonexistent/git symbolic-ref --quiet HEAD\n\
         Status: could not start: No such file or directory (os error 2)\n\
         Stderr: (empty)\n\
         Fix: install git or set [commit] git_bin; \"/nonexistent/git\" was not found."
        ),
    )
    .await;
    git.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_critical_forced_vcs_without_its_repository() {
    let repo = plain();
    let git = start(&repo, &[("PLANNING_COMMIT_VCS", "git")]).await;
    let (_, text) = call(&git, "gather_requirements", json!({})).await;
    let expected_start = format!(
        "CRITICAL: the commit planner cannot use git. {HALT}\n\
         Command: git symbolic-ref --quiet HEAD\n\
         Status: exit status 128\n\
         Stderr:\n  fatal: not a git repository"
    );
    assert!(text.starts_with(&expected_start), "{text}");
    assert!(
        text.ends_with(
            "\nFix: run `git init` in the project, or set [commit] root to a git repository."
        ),
        "{text}"
    );
    git.cancel().await.unwrap();
    let Some(jj_bin) = jj_or_skip("commit_critical_forced_vcs_without_its_repository") else {
        return;
    };
    let jj_bin = jj_bin.display().to_string();
    let jj = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "jj"),
            ("PLANNING_COMMIT_JJ_BIN", &jj_bin),
        ],
    )
    .await;
    both_critical(
        &jj,
        &format!(
            "CRITICAL: the commit planner cannot use jj. {HALT}\n\
         Command: {jj_bin} --no-pager --color never log -r @ --no-graph -T {READ_TEMPLATE}\n\
         Status: exit status 1\n\
         Stderr:\n  Error: There is no jj repo in \".\"\n\
         Fix: run `jj git init` in the project, or set [commit] root to a jj repository."
        ),
    )
    .await;
    jj.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_critical_a_plan_ref_that_is_not_a_plan() {
    let repo = Repo::new(Backend::Git, None);
    let blob = repo.run_in(
        &repo.path,
        Path::new("git"),
        &["hash-object", "-w", "--stdin"],
        Some("not a plan\n"),
    );
    let blob = String::from_utf8(blob.stdout).unwrap().trim().to_owned();
    repo.git(&["update-ref", "refs/commit-plan/main", &blob]);
    let client = start(&repo, &[]).await;
    both_critical(&client, &format!(
        "CRITICAL: the commit planner cannot use git. {HALT}\n\
         Command: git cat-file --batch-command (refs/commit-plan/main)\n\
         Status: refs/commit-plan/main points at a blob ({blob})\n\
         Stderr: (empty)\n\
         Fix: refs/commit-plan/main is not a plan; move it away (git update-ref -d refs/commit-plan/main) after saving what it holds."
    )).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_critical_timeout_and_a_failing_command() {
    let repo = plain();
    let hang = script(&repo, "hanging-jj", "exec sleep 600");
    let client = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "jj"),
            ("PLANNING_COMMIT_JJ_BIN", &hang),
            ("PLANNING_COMMIT_TIMEOUT_SECS", "1"),
        ],
    )
    .await;
    both_critical(&client, &format!(
        "CRITICAL: the commit planner cannot use jj. {HALT}\n\
         Command: {hang} --no-pager --color never log -r @ --no-graph -T {READ_TEMPLATE}\n\
         Status: timed out after 1 s and was killed\n\
         Stderr: (empty)\n\
         Fix: find what blocks jj (another jj process, a slow file system) or raise [commit] timeout_secs."
    )).await;
    client.cancel().await.unwrap();
    let failing = script(
        &repo,
        "failing-git",
        "for n in $(seq 1 25); do echo \"problem $n\" >&2; done; exit 2",
    );
    let client = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "git"),
            ("PLANNING_COMMIT_GIT_BIN", &failing),
        ],
    )
    .await;
    let stderr: String = (1..=20).map(|n| format!("  problem {n}\n")).collect();
    both_critical(
        &client,
        &format!(
            "CRITICAL: the commit planner cannot use git. {HALT}\n\
         Command: {failing} symbolic-ref --quiet HEAD\n\
         Status: exit status 2\n\
         Stderr:\n{stderr}\
         Fix: read the error above; repair the repository or git's configuration, then retry."
        ),
    )
    .await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_critical_a_command_that_fails_without_a_word_says_what_to_do() {
    let repo = plain();
    let silent = script(&repo, "silent-git", "exit 128");
    let client = start(
        &repo,
        &[
            ("PLANNING_COMMIT_VCS", "git"),
            ("PLANNING_COMMIT_GIT_BIN", &silent),
        ],
    )
    .await;
    both_critical(
        &client,
        &format!(
            "CRITICAL: the commit planner cannot use git. {HALT}\n\
         Command: {silent} symbolic-ref --quiet HEAD\n\
         Status: exit status 128\n\
         Stderr: (empty)\n\
         Fix: git printed no error. Run `git status` in the repository: it shows what stops git (a lock file left by a git that was killed: remove it once no git runs). Then call gather_requirements and repeat the call."
        ),
    )
    .await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_critical_stale_jj_workspace() {
    let Some(jj_bin) = jj_or_skip("commit_critical_stale_jj_workspace") else {
        return;
    };
    let repo = Repo::new(Backend::Jj, Some(&jj_bin));
    let second = repo.dir.path().join("second");
    let second_arg = second.display().to_string();
    repo.jj(&["workspace", "add", &second_arg]);
    // Work in the second workspace, then restore the repository to before
    // it from the first: the second workspace's working copy is stale.
    let before = repo.jj(&["op", "log", "--no-graph", "-n", "1", "-T", "id.short()"]);
    std::fs::write(second.join("work.txt"), "work\n").unwrap();
    let described = repo.run_in(&second, &jj_bin, &["describe", "-m", "work"], None);
    assert!(described.status.success());
    repo.jj(&["op", "restore", &before]);
    let env: Vec<(String, String)> = repo
        .server_env()
        .into_iter()
        .map(|(k, v)| match k.as_str() {
            "PLANNING_COMMIT_ROOT" => (k, second_arg.clone()),
            _ => (k, v),
        })
        .collect();
    let client = stdio_client(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await;
    let (is_error, text) = call(&client, "gather_requirements", json!({})).await;
    assert!(is_error, "{text}");
    let jj = jj_bin.display();
    assert!(text.starts_with(&format!(
        "CRITICAL: the commit planner cannot use jj. {HALT}\nCommand: {jj} --no-pager --color never log -r @ --no-graph -T {READ_TEMPLATE}\nStatus: exit status 1\nStderr:\n  Error: The working copy is stale (not updated since operation "
    )), "{text}");
    assert!(
        text.ends_with("\nFix: run `jj workspace update-stale` in the repository."),
        "{text}"
    );
    client.cancel().await.unwrap();
}
