// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit` on real git while a person uses git as usual: an
//! interactive rebase stopped at `edit` or at a conflict, a bisect, a tag
//! checked out, a merge in progress, a tag named like the branch, `GIT_DIR`
//! left in the environment, a bare repository; plan refs written by the
//! earlier layout (a chain of commits), and the plan's history read with
//! one git command. Every step a reply names is carried out and must work.

use std::path::Path;

use serde_json::json;

use crate::common::vcs::{Backend, Repo, named, pairs};
use crate::common::{Client, call, ok, stdio_client};

async fn start(repo: &Repo, extra: &[(&str, &str)]) -> Client {
    let mut env = repo.server_env();
    env.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    stdio_client(&repo.dir, &["--toolsets", "commit"], &pairs(&env)).await
}

/// A git repository on `main` with two commits touching `f.txt`.
fn repo_with_history() -> Repo {
    let repo = Repo::new(Backend::Git, None);
    for line in ["one", "two"] {
        std::fs::write(repo.path.join("f.txt"), format!("{line}\n")).unwrap();
        repo.git(&["add", "f.txt"]);
        repo.git(&["commit", "-q", "-m", line]);
    }
    repo
}

/// Runs a shell line in the repository, as a person would; it must succeed
/// unless `may_fail`.
fn sh(repo: &Repo, line: &str, may_fail: bool) -> String {
    let output = repo.run_in(&repo.path, Path::new("sh"), &["-c", line], None);
    assert!(
        may_fail || output.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

async fn plan_of_two(client: &Client) {
    ok(
        client,
        "set_overarching_goal",
        json!({"goal": {"type": "feat", "title": "greet"}}),
    )
    .await;
    ok(
        client,
        "set_plan",
        json!({"plan": [{"text": "First"}, {"text": "Second"}]}),
    )
    .await;
}

#[tokio::test]
async fn commit_git_interactive_rebase_stopped_at_edit_keeps_the_branchs_plan() {
    let repo = repo_with_history();
    let client = start(&repo, &[]).await;
    plan_of_two(&client).await;
    sh(
        &repo,
        "GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i HEAD~1",
        false,
    );
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(
        read.contains("\nCommit: git branch main, plan in refs/commit-plan/main\nIn progress: a rebase (branch main); finish it with git rebase --continue, or undo it with git rebase --abort.\nStage: 4/5 plan\n"),
        "{read}"
    );
    assert!(!read.contains("CRITICAL"), "{read}");
    let marked = ok(&client, "mark_task", json!({"task_id": "1"})).await;
    assert!(marked.contains("Tasks: 1/2 done"), "{marked}");
    sh(&repo, &named(&read, "git rebase --continue"), false);
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(!read.contains("In progress"), "{read}");
    assert!(read.contains("Tasks: 1/2 done"), "{read}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_rebase_conflict_merge_and_bisect_are_routine() {
    let repo = repo_with_history();
    let client = start(&repo, &[]).await;
    plan_of_two(&client).await;
    // A side branch that changes f.txt too.
    sh(
        &repo,
        "git switch -q -c side HEAD~1 && echo side > f.txt && git commit -qam side && git switch -q main",
        false,
    );
    sh(&repo, "git rebase -q side", true);
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(
        read.contains("\nIn progress: a rebase (branch main); "),
        "{read}"
    );
    assert!(read.contains("\nGoal: feat: greet\n"), "{read}");
    sh(&repo, &named(&read, "git rebase --abort"), false);
    // A merge stopped at its conflict: HEAD stays on main.
    sh(&repo, "git merge -q side", true);
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(
        read.contains("\nIn progress: a merge (branch main); conclude it with git commit, or undo it with git merge --abort.\n"),
        "{read}"
    );
    sh(&repo, &named(&read, "git merge --abort"), false);
    // A bisect detaches HEAD at the commit under test.
    sh(&repo, "git bisect start HEAD HEAD~1 >/dev/null", false);
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(
        read.contains("\nIn progress: a bisect (branch main); end it with git bisect reset.\n"),
        "{read}"
    );
    let marked = ok(&client, "mark_task", json!({"task_id": "2"})).await;
    assert!(marked.contains("Tasks: 1/2 done"), "{marked}");
    sh(&repo, &named(&read, "git bisect reset"), false);
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(!read.contains("In progress"), "{read}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_a_checked_out_tag_has_no_plan_and_says_the_way_on() {
    let repo = repo_with_history();
    repo.git(&["tag", "v1", "HEAD~1"]);
    let client = start(&repo, &[]).await;
    plan_of_two(&client).await;
    sh(&repo, "git checkout -q v1", false);
    let (is_error, read) = call(&client, "gather_requirements", json!({})).await;
    assert!(!is_error, "{read}");
    let short = repo.git(&["rev-parse", "--short", "HEAD"]);
    assert!(
        read.starts_with(&format!(
            "HEAD is detached at {} (HEAD, tag: v1): no branch is checked out",
            short.trim()
        )),
        "{read}"
    );
    assert!(!read.contains("CRITICAL"), "{read}");
    let (is_error, refused) = call(&client, "mark_task", json!({"task_id": "1"})).await;
    assert!(
        is_error && refused.ends_with("Then call gather_requirements. Nothing was changed."),
        "{refused}"
    );
    assert!(!refused.contains("CRITICAL"), "{refused}");
    // Both ways on work: a new branch here has no plan yet; main has its own.
    sh(
        &repo,
        &named(&read, "git switch -c ").replace("<new-branch>", "topic"),
        false,
    );
    let read_topic = ok(&client, "gather_requirements", json!({})).await;
    assert!(
        read_topic.contains(
            "\nCommit: git branch topic, plan in refs/commit-plan/topic\nStage: 0/5 empty\n"
        ),
        "{read_topic}"
    );
    sh(
        &repo,
        &named(&read, "git switch <branch>").replace("<branch>", "main"),
        false,
    );
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(read.contains("\nGoal: feat: greet\n"), "{read}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_a_tag_named_like_the_branch_does_not_hide_the_plan() {
    let repo = repo_with_history();
    let client = start(&repo, &[]).await;
    plan_of_two(&client).await;
    repo.git(&["tag", "main", "HEAD~1"]);
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(
        read.contains(
            "\nCommit: git branch main, plan in refs/commit-plan/main\nStage: 4/5 plan\n"
        ),
        "{read}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_dir_in_the_environment_does_not_move_the_repository() {
    let repo = repo_with_history();
    let other = Repo::new(Backend::Git, None);
    let other_git = other.path.join(".git").display().to_string();
    let work_tree = other.path.display().to_string();
    let client = start(
        &repo,
        &[("GIT_DIR", &other_git), ("GIT_WORK_TREE", &work_tree)],
    )
    .await;
    plan_of_two(&client).await;
    assert!(repo.git_plan("main").starts_with("feat: greet\n"));
    assert_eq!(other.git_plan("main"), "");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_a_bare_repository_is_critical_with_its_reason() {
    let repo = Repo::new(Backend::Git, None);
    let bare = repo.dir.path().join("bare.git");
    repo.git(&["init", "-q", "--bare", &bare.display().to_string()]);
    let root = bare.display().to_string();
    let client = start(
        &repo,
        &[
            ("PLANNING_COMMIT_ROOT", &root),
            ("PLANNING_COMMIT_VCS", "git"),
        ],
    )
    .await;
    for (tool, arguments) in [
        ("gather_requirements", json!({})),
        (
            "set_overarching_goal",
            json!({"goal": {"type": "feat", "title": "x"}}),
        ),
    ] {
        let (is_error, text) = call(&client, tool, arguments).await;
        assert!(is_error, "{text}");
        assert!(
            text.starts_with(&format!(
                "CRITICAL: the commit planner cannot use a repository at {root}. "
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "\nSearched: {root} is a bare repository: it has no working tree\n"
            )),
            "{text}"
        );
    }
    let refs = repo.run_in(&bare, Path::new("git"), &["for-each-ref"], None);
    assert!(refs.stdout.is_empty(), "nothing was written");
    client.cancel().await.unwrap();
}

/// Writes `versions` as the earlier layout did: a chain of commits with the
/// empty tree under `refs/commit-plan/main`, each message a version.
fn earlier_layout(repo: &Repo, versions: &[&str]) {
    let tree = sh(repo, "git mktree </dev/null", false);
    let mut parent: Option<String> = None;
    for text in versions {
        let mut args = vec!["commit-tree", "--no-gpg-sign", tree.trim()];
        if let Some(parent) = &parent {
            args.extend(["-p", parent.as_str()]);
        }
        let made = repo.run_in(&repo.path, Path::new("git"), &args, Some(text));
        assert!(made.status.success());
        let commit = String::from_utf8(made.stdout).unwrap().trim().to_owned();
        let old = parent.clone().unwrap_or_default();
        repo.git(&[
            "update-ref",
            "-m",
            "planning-mcp-server: test",
            "refs/commit-plan/main",
            &commit,
            &old,
        ]);
        parent = Some(commit);
    }
}

#[tokio::test]
async fn commit_git_plan_refs_of_the_earlier_layout_are_read_and_migrated() {
    let repo = repo_with_history();
    let versions = [
        "feat: greet\n",
        "feat: greet\n\n- [ ]: First\n- [ ]: Second\n\n~~~ EXECUTE ~~~\n",
        "feat: greet\n\n- [x]: First\n- [ ]: Second\n\n~~~ EXECUTE ~~~\n",
    ];
    earlier_layout(&repo, &versions);
    assert_eq!(
        repo.git(&["log", "--all", "--oneline"]).lines().count(),
        5,
        "plan commits show"
    );
    let client = start(&repo, &[]).await;
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(
        read.contains("\nTasks: 1/2 done\n"),
        "the old place is read: {read}"
    );
    ok(&client, "mark_task", json!({"task_id": "2"})).await;
    let history = repo.git_plan_versions("main");
    assert_eq!(
        history,
        [
            "000001-from-commit",
            "000002-from-commit",
            "000003-from-commit",
            "000004-mark_task"
        ]
    );
    for (name, text) in history.iter().zip(versions) {
        let version = format!("refs/commit-plan/main:history/{name}");
        assert_eq!(repo.git(&["cat-file", "blob", &version]), text);
    }
    assert!(repo.git_plan("main").contains("- [x]: Second"));
    assert_eq!(
        repo.git(&["log", "--all", "--oneline"]).lines().count(),
        2,
        "only the branch's commits show"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_a_repository_written_by_the_earlier_release_is_migrated() {
    // The fixture's plan was written by the server of main at 44589f3.
    let repo = Repo::new(Backend::Git, None);
    std::fs::remove_dir_all(&repo.path).unwrap();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/commit-plan-earlier-layout.tar"
    );
    let dir = repo.dir.path().display().to_string();
    let unpacked = std::process::Command::new("tar")
        .args(["-xf", fixture, "-C", &dir])
        .status()
        .unwrap();
    assert!(unpacked.success());
    let chain = repo.git(&["rev-list", "refs/commit-plan/main"]);
    assert_eq!(chain.lines().count(), 3, "the earlier layout: {chain}");
    let client = start(&repo, &[]).await;
    let read = ok(&client, "gather_requirements", json!({})).await;
    assert!(read.contains("\nGoal: feat: greet\n"), "{read}");
    assert!(
        read.contains("\nTasks: 1/2 done\n  1 [x] First\n  2 [ ] Second\n"),
        "{read}"
    );
    let marked = ok(&client, "mark_task", json!({"task_id": "2"})).await;
    assert!(marked.contains("Tasks: 2/2 done"), "{marked}");
    assert_eq!(
        repo.git_plan_versions("main"),
        [
            "000001-from-commit",
            "000002-from-commit",
            "000003-from-commit",
            "000004-mark_task"
        ]
    );
    let first = repo.git(&[
        "cat-file",
        "blob",
        "refs/commit-plan/main:history/000001-from-commit",
    ]);
    assert_eq!(first, "feat: greet\n");
    assert_eq!(
        repo.git(&["log", "--all", "--oneline"]).lines().count(),
        1,
        "only the branch's commit"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn commit_git_the_plan_history_is_read_with_one_command() {
    let repo = repo_with_history();
    let client = start(&repo, &[]).await;
    ok(
        &client,
        "set_overarching_goal",
        json!({"goal": {"type": "feat", "title": "ten writes"}}),
    )
    .await;
    let tasks: Vec<_> = (1..=8)
        .map(|n| json!({"text": format!("task {n}")}))
        .collect();
    ok(&client, "set_plan", json!({"plan": tasks})).await;
    for n in 1..=8 {
        ok(&client, "mark_task", json!({"task_id": n.to_string()})).await;
    }
    client.cancel().await.unwrap();
    // The command docs/commit.md gives, as written there.
    let history = sh(
        &repo,
        "git grep --heading --break -e '' refs/commit-plan/main:history",
        false,
    );
    let headings: Vec<&str> = history
        .lines()
        .filter(|l| l.starts_with("refs/commit-plan/main:history:"))
        .collect();
    assert_eq!(headings.len(), 10, "{history}");
    assert_eq!(
        headings[0],
        "refs/commit-plan/main:history:000001-set_overarching_goal"
    );
    assert_eq!(
        headings[9],
        "refs/commit-plan/main:history:000010-mark_task"
    );
    assert!(history.contains("- [x]: task 8"), "{history}");
    // No plan version is a commit: git log --all shows the branch only.
    assert_eq!(repo.git(&["log", "--all", "--oneline"]).lines().count(), 2);
    assert!(repo.git(&["status", "--porcelain"]).is_empty());
}
