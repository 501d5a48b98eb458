// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `commit`, a whole job from an empty description to COMPLETE and
//! `start_new`, on real jj and real git, over stdio and HTTP; the replies
//! are pinned (the same over both transports). On git: HEAD, the index and
//! the working tree are never touched, and `git log -1 --format=%B
//! refs/commit-plan/main | git commit --file=-` gives a commit whose
//! message is byte for byte the plan.

use serde_json::{Value, json};

use crate::common::vcs::{Backend, Repo, jj_or_skip, pairs};
use crate::common::{Client, HttpServer, call, stdio_client};

/// The calls of the job, in order, with the file the work adds first.
fn job_calls() -> Vec<(&'static str, Value)> {
    vec![
        ("gather_requirements", json!({})),
        (
            "set_overarching_goal",
            json!({"goal": {"type": "feat", "scope": "Cli", "title": "add a greeting command"}}),
        ),
        (
            "set_detailed_goal",
            json!({"description": "Users want a friendly greeting.\r\n\r\nAdd a `greet` subcommand that prints Hello.  \n\n\n"}),
        ),
        (
            "set_constraints",
            json!({"constraints": ["Do not: change existing commands", "- Never: print to stderr on success"]}),
        ),
        (
            "set_plan",
            json!({"plan": [
                {"text": "Write the command", "subtasks": [{"text": "Parse: the name argument"}, {"text": "Print: the greeting", "done": false}]},
                {"text": "Document it"}
            ]}),
        ),
        ("gather_requirements", json!({})),
        ("mark_task", json!({"task_id": "1.1"})),
        ("mark_task", json!({"task_id": "document"})),
        ("finish_job", json!({})),
        ("mark_task", json!({"task_id": "print"})),
        ("mark_task", json!({"task_id": "print"})),
        ("verify_plan", json!({})),
        ("finish_job", json!({})),
        ("set_detailed_goal", json!({"description": "too late"})),
    ]
}

/// The plan the job ends with.
const FINAL_TEXT: &str = "feat(cli): add a greeting command

Users want a friendly greeting.

Add a `greet` subcommand that prints Hello.

- Do not: change existing commands
- Never: print to stderr on success

- [x]: Write the command
  - [x]: Parse: the name argument
  - [x]: Print: the greeting
- [x]: Document it

~~~ COMPLETE ~~~
";

/// Runs the job and answers its transcript, ids and paths replaced.
async fn whole_job(client: &Client, repo: &Repo, backend: Backend) -> String {
    std::fs::write(repo.path.join("greet.txt"), "Hello\n").unwrap();
    let before = (backend == Backend::Git).then(|| repo.git_untouchables());
    let first_change = (backend == Backend::Jj).then(|| repo.jj_change("@"));
    let mut transcript = String::new();
    for (tool, arguments) in job_calls() {
        let (is_error, text) = call(client, tool, arguments.clone()).await;
        let marker = if is_error { "error" } else { "ok" };
        transcript.push_str(&format!("> {tool} {arguments}\n< {marker}\n{text}\n\n"));
        if let Some(before) = &before {
            assert_eq!(&repo.git_untouchables(), before, "after {tool}");
        }
    }
    match backend {
        Backend::Jj => assert_eq!(repo.jj_description("@"), FINAL_TEXT),
        Backend::Git => {
            assert_eq!(repo.git_plan("main"), FINAL_TEXT);
            // The plan's history: one version per write, and no commit
            // that git log --all (or gitk, tig, an IDE graph) would show.
            let versions = repo.git_plan_versions("main");
            assert_eq!(versions.len(), 8, "{versions:?}");
            assert_eq!(versions[0], "000001-set_overarching_goal");
            assert_eq!(versions[7], "000008-finish_job");
            assert_eq!(repo.git(&["log", "--all", "--oneline"]), "");
            // The user puts the plan into history exactly as the reply's
            // Next line says: stage, then the command it names.
            let (_, reply) = call(client, "gather_requirements", json!({})).await;
            let command = reply
                .split_once("commit with the plan as message: ")
                .and_then(|(_, rest)| rest.split_once("; then"))
                .map(|(command, _)| command)
                .unwrap_or_else(|| panic!("no commit command in: {reply}"));
            assert!(
                reply.contains("Next: stage the work (git add -A, "),
                "{reply}"
            );
            for step in ["git add -A", command] {
                let done = repo.run_in(&repo.path, std::path::Path::new("sh"), &["-c", step], None);
                assert!(
                    done.status.success(),
                    "{step}: {}",
                    String::from_utf8_lossy(&done.stderr)
                );
            }
            assert_eq!(repo.git_message("HEAD"), FINAL_TEXT, "byte for byte");
            // Read again, the plan is known to be committed: never twice.
            let (_, reply) = call(client, "gather_requirements", json!({})).await;
            let head = repo.git(&["rev-parse", "--short", "HEAD"]);
            assert!(
                reply.contains(&format!(
                    "\nCommitted: as {} (HEAD), with the plan as message.\n",
                    head.trim()
                )),
                "{reply}"
            );
            assert!(
                reply.contains("\nNext: the plan is committed: start the next plan with set_overarching_goal and start_new: true.\n"),
                "{reply}"
            );
            assert!(!reply.contains("git commit"), "{reply}");
        }
    }
    let next =
        json!({"goal": {"type": "fix", "title": "follow up", "breaking": true}, "start_new": true});
    for (tool, arguments) in [
        ("set_overarching_goal", next.clone()),
        ("set_overarching_goal", next),
        ("gather_requirements", json!({})),
    ] {
        let (is_error, text) = call(client, tool, arguments.clone()).await;
        let marker = if is_error { "error" } else { "ok" };
        transcript.push_str(&format!("> {tool} {arguments}\n< {marker}\n{text}\n\n"));
    }
    match backend {
        Backend::Jj => {
            assert_eq!(repo.jj_description("@"), "fix!: follow up\n");
            assert_eq!(
                repo.jj_description("@-"),
                FINAL_TEXT,
                "the finished change keeps its plan"
            );
            let second = repo.jj_change("@");
            let first = first_change.unwrap();
            assert_ne!(first, second);
            transcript = transcript
                .replace(&first, "{change-1}")
                .replace(&second, "{change-2}");
        }
        Backend::Git => {
            assert_eq!(repo.git_plan("main"), "fix!: follow up\n");
            let versions = repo.git_plan_versions("main");
            assert_eq!(versions.len(), 9, "{versions:?}");
            let previous = format!("refs/commit-plan/main:history/{}", versions[7]);
            assert_eq!(repo.git(&["cat-file", "blob", &previous]), FINAL_TEXT);
        }
    }
    transcript
}

async fn jj_job(test: &str, http: bool) {
    let Some(jj) = jj_or_skip(test) else { return };
    let repo = Repo::new(Backend::Jj, Some(&jj));
    let env = repo.server_env();
    let args = ["--toolsets", "commit"];
    let transcript = match http {
        false => {
            let client = stdio_client(&repo.dir, &args, &pairs(&env)).await;
            let transcript = whole_job(&client, &repo, Backend::Jj).await;
            client.cancel().await.unwrap();
            transcript
        }
        true => {
            let server = HttpServer::start_in(&repo.dir, &args, &pairs(&env)).await;
            let client = server.client().await;
            let transcript = whole_job(&client, &repo, Backend::Jj).await;
            client.cancel().await.unwrap();
            transcript
        }
    };
    insta::assert_snapshot!("commit_jj_job", transcript);
}

async fn git_job(http: bool) {
    let repo = Repo::new(Backend::Git, None);
    let env = repo.server_env();
    let args = ["--toolsets", "commit"];
    let transcript = match http {
        false => {
            let client = stdio_client(&repo.dir, &args, &pairs(&env)).await;
            let transcript = whole_job(&client, &repo, Backend::Git).await;
            client.cancel().await.unwrap();
            transcript
        }
        true => {
            let server = HttpServer::start_in(&repo.dir, &args, &pairs(&env)).await;
            let client = server.client().await;
            let transcript = whole_job(&client, &repo, Backend::Git).await;
            client.cancel().await.unwrap();
            transcript
        }
    };
    insta::assert_snapshot!("commit_git_job", transcript);
}

#[tokio::test]
async fn commit_jj_whole_job_over_stdio() {
    jj_job("commit_jj_whole_job_over_stdio", false).await;
}

#[tokio::test]
async fn commit_jj_whole_job_over_http() {
    jj_job("commit_jj_whole_job_over_http", true).await;
}

#[tokio::test]
async fn commit_git_whole_job_over_stdio() {
    git_job(false).await;
}

#[tokio::test]
async fn commit_git_whole_job_over_http() {
    git_job(true).await;
}
