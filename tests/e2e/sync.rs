// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Boards kept in git (`storage.backend = 'git'`) end to end: clones of
//! one bare remote on disk, each with its own server (the real binary over
//! stdio, through the rmcp client) and `planning-mcp-server sync`. Two
//! clones share a board (the transcript docs/sync.md shows); three clones
//! race for one task with sync on and get one winner; a clone offline for
//! 100 changes rejoins without conflict; a server with `[sync] interval`
//! pushes by itself.

use crate::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::time::{Duration, Instant};

use common::{Client, git, id};
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use tempfile::TempDir;

/// A bare remote `remote.git` and `names.len()` clones of it, side by side
/// in one temporary directory, each with a `planning-mcp-server.toml` that
/// keeps boards in git with `sync` (the `[sync]` table's lines).
pub(crate) struct Clones {
    root: TempDir,
    pub(crate) remote: PathBuf,
}

impl Clones {
    pub(crate) fn new(names: &[&str], sync: &str) -> Self {
        let root = tempfile::tempdir().unwrap();
        let remote = root.path().join("remote.git");
        git(root.path(), &["init", "--quiet", "--bare", "remote.git"]);
        for name in names {
            git(root.path(), &["clone", "--quiet", "remote.git", name]);
            let config = format!(
                "[server]\ntoolsets = ['planning', 'team']\n\n[storage]\nbackend = 'git'\n\n[sync]\n{sync}"
            );
            std::fs::write(
                root.path().join(name).join("planning-mcp-server.toml"),
                config,
            )
            .unwrap();
        }
        Self { root, remote }
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.root.path().join(name)
    }

    /// The binary, run in clone `name`.
    pub(crate) fn command(&self, name: &str) -> tokio::process::Command {
        let mut command = common::command(&self.root);
        command.current_dir(self.path(name));
        command
    }

    /// A server in clone `name`, and a client of it.
    pub(crate) async fn server(&self, name: &str) -> Client {
        common::stdio_client_with_pid(self.command(name), &[], &[])
            .await
            .0
    }

    /// `planning-mcp-server sync` in clone `name`: (success, output).
    pub(crate) async fn sync(&self, name: &str) -> (bool, String) {
        let output = self.command(name).arg("sync").output().await.unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        (output.status.success(), text)
    }

    /// `planning-mcp-server sync` with `flags` in clone `name`.
    async fn sync_with(&self, flags: &[&str], name: &str) -> (bool, String) {
        let output = self
            .command(name)
            .arg("sync")
            .args(flags)
            .output()
            .await
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        (output.status.success(), text)
    }

    /// The remote's board `default`: its ref's commit, if any.
    fn remote_board(&self) -> Option<String> {
        let refs = git(
            &self.remote,
            &[
                "for-each-ref",
                "--format=%(objectname)",
                "refs/planning/boards/default",
            ],
        );
        Some(refs.trim().to_owned()).filter(|r| !r.is_empty())
    }
}

/// Bob deletes task `task`; then alice's agent completes it with evidence
/// (`cargo test`, exit 0), acknowledged on alice's clone: offline, the
/// completion the next sync sets aside (delete wins).
pub(crate) async fn delete_then_complete(bob: &Client, alice: &Client, task: &str) {
    let (error, text) = call(bob, "delete_tasks", json!({"task_ids": [task]})).await;
    assert!(!error, "{text}");
    let (error, text) = call(
        alice,
        "release_task",
        json!({"agent": "alice-agent", "task_id": task, "status": "completed",
               "command": "cargo test", "exit_code": 0, "note": "all parser tests pass"}),
    )
    .await;
    assert!(!error, "{text}");
}

/// Calls a tool: (refused, its text blocks joined by a blank line: the
/// reply, then what the sync has to tell).
pub(crate) async fn call(client: &Client, tool: &str, arguments: Value) -> (bool, String) {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    let result = client.call_tool(params).await.unwrap();
    let texts: Vec<&str> = result
        .content
        .iter()
        .map(|c| c.as_text().expect("text content").text.as_str())
        .collect();
    (result.is_error == Some(true), texts.join("\n\n"))
}

/// One step of a transcript: who calls what, and what comes back.
async fn step(t: &mut String, who: &str, client: &Client, tool: &str, args: Value) -> String {
    let (is_error, text) = call(client, tool, args.clone()).await;
    let answer = if is_error { "is refused" } else { "gets" };
    let _ = write!(
        t,
        "**{who}** calls `{tool}` `{args}` and {answer}:\n\n```text\n{text}\n```\n\n"
    );
    text
}

/// A command and its output, for a transcript.
fn shell(t: &mut String, who: &str, command: &str, output: &str) {
    let _ = write!(
        t,
        "**{who}** runs `{command}`:\n\n```text\n{}\n```\n\n",
        output.trim_end()
    );
}

#[tokio::test]
async fn two_clones_share_a_board_through_a_bare_remote() {
    let clones = Clones::new(&["alice", "bob"], "on_change = true\n");
    let (alice, bob) = (clones.server("alice").await, clones.server("bob").await);
    let mut t = String::new();
    step(
        &mut t,
        "alice",
        &alice,
        "set_goal",
        json!({"title": "Ship 1.0", "description": ""}),
    )
    .await;
    step(
        &mut t,
        "alice",
        &alice,
        "add_tasks",
        json!({"tasks": [{"title": "Write the parser"}, {"title": "Write the tests"}]}),
    )
    .await;
    assert!(clones.remote_board().is_some(), "on_change pushed");
    let (ok, out) = clones.sync("bob").await;
    assert!(ok, "{out}");
    shell(&mut t, "bob", "planning-mcp-server sync", &out);
    let tasks = step(&mut t, "bob", &bob, "get_tasks", json!({})).await;
    assert!(
        tasks.contains("Write the parser") && tasks.contains("Ship 1.0"),
        "{tasks}"
    );
    // Both claim the parser; alice's push lands first, bob's is beaten:
    // his server fetches, merges, and decides his claim again.
    let won = step(
        &mut t,
        "alice",
        &alice,
        "claim_task",
        json!({"agent": "alice-agent", "task_id": id("Write the parser")}),
    )
    .await;
    assert!(won.contains("alice-agent"), "{won}");
    let (refused, lost) = call(
        &bob,
        "claim_task",
        json!({"agent": "bob-agent", "task_id": id("Write the parser")}),
    )
    .await;
    let _ = write!(
        t,
        "**bob** calls `claim_task` `{}` and {}:\n\n```text\n{lost}\n```\n\n",
        json!({"agent": "bob-agent", "task_id": id("Write the parser")}),
        if refused { "is refused" } else { "gets" }
    );
    assert!(refused, "one winner: {lost}");
    assert!(lost.contains("alice-agent"), "{lost}");
    let claimed = step(
        &mut t,
        "bob",
        &bob,
        "claim_task",
        json!({"agent": "bob-agent"}),
    )
    .await;
    assert!(claimed.contains("Write the tests"), "{claimed}");
    let (ok, out) = clones.sync("alice").await;
    assert!(ok, "{out}");
    shell(&mut t, "alice", "planning-mcp-server sync", &out);
    let board = step(&mut t, "alice", &alice, "team_board", json!({})).await;
    assert!(
        board.contains("alice-agent") && board.contains("bob-agent"),
        "{board}"
    );
    // Nothing new: one fetch, no push.
    let before = clones.remote_board();
    let (ok, again) = clones.sync("alice").await;
    assert!(ok, "{again}");
    assert_eq!(clones.remote_board(), before, "{again}");
    // Nothing of it touched the worktrees, the branches or the index.
    for name in ["alice", "bob"] {
        let status = git(&clones.path(name), &["status", "--porcelain"]);
        assert_eq!(status, "?? planning-mcp-server.toml\n", "{name}");
    }
    let t = crate::team::redact_times(&t);
    insta::assert_snapshot!("two_clones", t);
    let doc = std::fs::read_to_string(DOC).unwrap();
    let (before, section, after) = transcript(&doc);
    if std::env::var("UPDATE_DOCS").as_deref() == Ok("1") {
        std::fs::write(DOC, format!("{before}{BEGIN}{t}{END}{after}")).unwrap();
    } else {
        assert_eq!(
            section, t,
            "docs/sync.md shows this run: UPDATE_DOCS=1 rewrites it"
        );
    }
}

/// docs/sync.md, whose transcript shows [`two_clones_share_a_board_through_a_bare_remote`].
const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/sync.md");
const BEGIN: &str = "<!-- transcript:begin -->\n";
const END: &str = "<!-- transcript:end -->";

fn transcript(doc: &str) -> (&str, &str, &str) {
    let (before, rest) = doc.split_once(BEGIN).unwrap();
    let (section, after) = rest.split_once(END).unwrap();
    (before, section, after)
}

#[tokio::test]
async fn the_digest_names_what_a_sync_set_aside() {
    let clones = Clones::new(&["alice", "bob"], "on_change = false\n");
    let (alice, bob) = (clones.server("alice").await, clones.server("bob").await);
    let (error, text) = call(
        &alice,
        "add_tasks",
        json!({"tasks": [{"title": "Ship it"}]}),
    )
    .await;
    assert!(!error, "{text}");
    for name in ["alice", "bob"] {
        let (ok, out) = clones.sync(name).await;
        assert!(ok, "{out}");
    }
    // Bob deletes the task, then Alice completes it: her change comes
    // later, so the merge sets it aside.
    let (error, text) = call(&bob, "delete_tasks", json!({"task_ids": [id("Ship it")]})).await;
    assert!(!error, "{text}");
    let (error, text) = call(
        &alice,
        "update_task_statuses",
        json!({"tasks": [{"task_id": id("Ship it"), "status": "completed"}]}),
    )
    .await;
    assert!(!error, "{text}");
    for name in ["bob", "alice", "bob"] {
        let (ok, out) = clones.sync(name).await;
        assert!(ok, "{out}");
    }
    let set_aside = "\n\nSet aside by sync (1):\n- ";
    // `summary` reads the stored log; the digest resource, the server's.
    for name in ["alice", "bob"] {
        let output = clones.command(name).arg("summary").output().await.unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{text}");
        assert!(text.contains(set_aside), "{name}: {text}");
        assert!(text.contains("had been deleted on another clone"), "{text}");
    }
    for client in [&alice, &bob] {
        let read = client
            .read_resource(rmcp::model::ReadResourceRequestParams::new(
                "board://default/digest",
            ))
            .await
            .unwrap();
        let text = match &read.contents[0] {
            rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("{other:?}"),
        };
        assert!(text.contains(set_aside), "{text}");
    }
}

#[tokio::test]
async fn three_clones_racing_for_tasks_with_sync_on_get_one_winner_each() {
    let names = ["one", "two", "three"];
    let clones = Clones::new(&names, "on_change = true\n");
    let mut servers = Vec::new();
    for name in names {
        servers.push(clones.server(name).await);
    }
    let titles: Vec<String> = (0..6).map(|n| format!("Task {n}")).collect();
    let tasks: Vec<Value> = titles.iter().map(|t| json!({"title": t})).collect();
    let (error, text) = call(&servers[0], "add_tasks", json!({"tasks": tasks})).await;
    assert!(!error, "{text}");
    for name in &names[1..] {
        let (ok, out) = clones.sync(name).await;
        assert!(ok, "{out}");
    }
    // Every clone's agent claims every task, the clones in turn; none of
    // them fetches first, so every push after the first of a task races.
    let mut winners = vec![Vec::new(); titles.len()];
    for (n, title) in titles.iter().enumerate() {
        for (c, server) in servers.iter().enumerate() {
            let agent = format!("agent-{}", names[c]);
            let (refused, text) = call(
                server,
                "claim_task",
                json!({"agent": agent, "task_id": id(title)}),
            )
            .await;
            if !refused {
                winners[n].push(agent);
            } else {
                assert!(
                    text.contains("agent-"),
                    "refused for another holder: {text}"
                );
            }
        }
    }
    for (n, won) in winners.iter().enumerate() {
        assert_eq!(won.len(), 1, "task {n}: {won:?}");
    }
    // Every clone converges to the same board.
    let mut boards = Vec::new();
    for name in names {
        let (ok, out) = clones.sync(name).await;
        assert!(ok, "{out}");
    }
    for server in &servers {
        let (_, text) = call(server, "team_board", json!({})).await;
        boards.push(text);
    }
    assert!(boards.iter().all(|b| *b == boards[0]), "{boards:#?}");
    for (n, won) in winners.iter().enumerate() {
        assert!(boards[0].contains(&won[0]), "task {n}");
    }
}

#[tokio::test]
async fn a_clone_offline_for_100_changes_rejoins_without_conflict() {
    let clones = Clones::new(&["online", "offline"], "on_change = true\n");
    let online = clones.server("online").await;
    let (error, text) = call(
        &online,
        "add_tasks",
        json!({"tasks": [{"title": "Shared"}]}),
    )
    .await;
    assert!(!error, "{text}");
    let (ok, out) = clones.sync("offline").await;
    assert!(ok, "{out}");
    // The offline clone's remote leads nowhere now.
    let offline_dir = clones.path("offline");
    git(
        &offline_dir,
        &["remote", "set-url", "origin", "/nonexistent/remote.git"],
    );
    let offline = clones.server("offline").await;
    let (error, text) = call(
        &offline,
        "claim_task",
        json!({"agent": "away", "task_id": id("Shared")}),
    )
    .await;
    assert!(!error, "{text}");
    assert!(
        text.contains("provisional") || text.contains("offline") || text.contains("kept here"),
        "the reply says the claim waits for a sync: {text}"
    );
    // With the claim, 100 changes: 50 adds, 49 completions.
    for n in 0..50 {
        let title = format!("Offline {n}");
        let (error, text) = call(&offline, "add_tasks", json!({"tasks": [{"title": title}]})).await;
        assert!(!error, "{text}");
        if n < 49 {
            let (error, text) = call(
                &offline,
                "update_task_statuses",
                json!({"tasks": [{"task_id": id(&title), "status": "completed"}]}),
            )
            .await;
            assert!(!error, "{text}");
        }
    }
    // Meanwhile the online clone works on.
    for n in 0..5 {
        let (error, text) = call(
            &online,
            "add_tasks",
            json!({"tasks": [{"title": format!("Online {n}")}]}),
        )
        .await;
        assert!(!error, "{text}");
    }
    let (ok, out) = clones.sync("offline").await;
    assert!(!ok, "offline: {out}");
    git(
        &offline_dir,
        &[
            "remote",
            "set-url",
            "origin",
            clones.remote.to_str().unwrap(),
        ],
    );
    let (ok, out) = clones.sync("offline").await;
    assert!(ok, "{out}");
    let (ok, out) = clones.sync("online").await;
    assert!(ok, "{out}");
    // The boards, without what each clone's sync has to tell it.
    let board = |text: String| text.split("\n\nSync: ").next().unwrap().to_owned();
    let a = board(call(&online, "get_tasks", json!({})).await.1);
    let b = board(call(&offline, "get_tasks", json!({})).await.1);
    assert_eq!(a, b);
    assert!(a.contains("☑ [") && !a.contains("Sync:"), "{a}");
    for title in ["Shared", "Offline 0", "Offline 49", "Online 4"] {
        assert!(a.contains(title), "{title}: {a}");
    }
    let (_, board) = call(&online, "team_board", json!({})).await;
    assert!(
        board.contains("away"),
        "the provisional claim stood: {board}"
    );
}

#[tokio::test]
async fn a_server_with_an_interval_syncs_by_itself() {
    let clones = Clones::new(&["a", "b"], "interval = 5\n");
    let a = clones.server("a").await;
    let (error, text) = call(
        &a,
        "add_tasks",
        json!({"tasks": [{"title": "Pushed in the background"}]}),
    )
    .await;
    assert!(!error, "{text}");
    // Not pushed by the call (on_change is off); the background sync does
    // it within a few intervals.
    let deadline = Instant::now() + Duration::from_secs(120);
    while clones.remote_board().is_none() {
        assert!(Instant::now() < deadline, "no background sync in 120 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let b = clones.server("b").await;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (_, tasks) = call(&b, "get_tasks", json!({})).await;
        if tasks.contains("Pushed in the background") {
            break;
        }
        assert!(Instant::now() < deadline, "b never fetched: {tasks}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Clone b's board stays fresh without any `sync`: its reads fetch in
/// the background (at most every 2 s), and a `wait_for` waiting on it
/// fetches as it waits, so what clone a pushed reaches both.
#[tokio::test]
async fn what_one_clone_pushes_reaches_the_others_reads_and_waits_without_a_sync() {
    let clones = Clones::new(&["a", "b"], "on_change = true\n");
    let (a, b) = (clones.server("a").await, clones.server("b").await);
    let (error, text) = call(&a, "add_tasks", json!({"tasks": [{"title": "First"}]})).await;
    assert!(!error, "{text}");
    // b's reads alone bring it (each read that finds the last fetch old
    // starts one in the background).
    common::eventually("b's get_tasks shows a's task", || async {
        let (_, tasks) = call(&b, "get_tasks", json!({})).await;
        tasks.contains("First").then_some(())
    })
    .await;
    // A wait on b for ready tasks, counting from b's revision now, wakes
    // on a's next task with no read on b meanwhile.
    let (_, now) = call(
        &b,
        "wait_for",
        json!({"events": ["changed"], "revision": i64::MAX}),
    )
    .await;
    let revision: i64 = now
        .lines()
        .last()
        .and_then(|line| line.strip_prefix("Revision "))
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no revision in {now}"));
    let waiter = {
        let peer = b.peer().clone();
        tokio::spawn(async move {
            let params = CallToolRequestParams::new("wait_for").with_arguments(
                json!({"events": ["ready"], "revision": revision, "timeout_seconds": 60})
                    .as_object()
                    .cloned()
                    .unwrap(),
            );
            let result = peer.call_tool(params).await.unwrap();
            result.content[0].as_text().unwrap().text.clone()
        })
    };
    let (error, text) = call(&a, "add_tasks", json!({"tasks": [{"title": "Second"}]})).await;
    assert!(!error, "{text}");
    let woke = common::within_hang("b's wait_for wakes", waiter)
        .await
        .unwrap();
    assert!(woke.contains("Second"), "{woke}");
    let (_, tasks) = call(&b, "get_tasks", json!({})).await;
    assert!(tasks.contains("Second"), "{tasks}");
}

/// A fresh clone without the settings file: `summary` finds the boards
/// on the remote and says how to read them, advising no other backend.
#[tokio::test]
async fn a_fresh_clone_without_the_settings_is_told_its_boards_are_in_git() {
    let clones = Clones::new(&["a"], "on_change = true\n");
    let a = clones.server("a").await;
    let (error, text) = call(
        &a,
        "add_tasks",
        json!({"tasks": [{"title": "Kept in git"}]}),
    )
    .await;
    assert!(!error, "{text}");
    git(
        clones.root.path(),
        &["clone", "--quiet", "remote.git", "fresh"],
    );
    let output = clones
        .command("fresh")
        .arg("summary")
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "boards are kept in git here (refs/planning/boards/* on its remote origin): set \
             storage.backend = 'git'"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("--storage file"), "{stderr}");
    // With the backend set, the fresh clone reads them (after a sync).
    let (ok, out) = clones.sync_with(&["--storage", "git"], "fresh").await;
    assert!(ok, "{out}");
    let output = clones
        .command("fresh")
        .args(["summary", "--storage", "git"])
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("1 task") || stdout.contains("Kept in git"),
        "{stdout}"
    );
}

#[tokio::test]
async fn a_remote_rewritten_by_force_is_rebuilt_from_the_union() {
    let clones = Clones::new(&["a", "b"], "");
    let a = clones.server("a").await;
    let add = |title: &'static str| {
        let a = &a;
        async move {
            let (error, text) = call(a, "add_tasks", json!({"tasks": [{"title": title}]})).await;
            assert!(!error, "{text}");
        }
    };
    add("First").await;
    assert!(clones.sync("a").await.0);
    let first = clones.remote_board().unwrap();
    add("Second").await;
    assert!(clones.sync("a").await.0);
    assert!(clones.sync("b").await.0);
    // Someone forces the remote's log back to its first commit.
    git(
        &clones.remote,
        &["update-ref", "refs/planning/boards/default", &first],
    );
    add("Third").await;
    let (ok, out) = clones.sync("a").await;
    assert!(ok, "{out}");
    assert!(
        out.contains("origin's log had been rewritten") && out.contains("rebuilt from the union"),
        "{out}"
    );
    let (ok, out) = clones.sync("b").await;
    assert!(ok, "{out}");
    let b = clones.server("b").await;
    let (_, tasks) = call(&b, "get_tasks", json!({})).await;
    for title in ["First", "Second", "Third"] {
        assert!(tasks.contains(title), "{title}: {tasks}");
    }
    // A remote whose log was deleted is rebuilt too.
    git(
        &clones.remote,
        &["update-ref", "-d", "refs/planning/boards/default"],
    );
    let (ok, out) = clones.sync("b").await;
    assert!(ok && out.contains("rebuilt from the union"), "{out}");
    assert!(clones.remote_board().is_some());
}

#[tokio::test]
async fn a_corrupt_operation_is_refused_without_losing_the_others() {
    let clones = Clones::new(&["a", "b"], "");
    let a = clones.server("a").await;
    let (error, text) = call(
        &a,
        "add_tasks",
        json!({"tasks": [{"title": "Kept"}, {"title": "Also kept"}]}),
    )
    .await;
    assert!(!error, "{text}");
    assert!(clones.sync("a").await.0);
    // A commit on the remote adds an entry that is not an operation.
    let remote = &clones.remote;
    let head = clones.remote_board().unwrap();
    let tree = git(remote, &["ls-tree", &head]);
    let blob = git_with_input(remote, &["hash-object", "-w", "--stdin"], b"{not json");
    let listing = format!("{tree}100644 blob {blob}\top-00000000000000ab-1\n");
    let new_tree = git_with_input(remote, &["mktree"], listing.as_bytes());
    let commit = git_with_input(
        remote,
        &["commit-tree", &new_tree, "-p", &head, "-m", "corrupt"],
        b"",
    );
    git(
        remote,
        &["update-ref", "refs/planning/boards/default", &commit, &head],
    );
    let (ok, out) = clones.sync("b").await;
    assert!(ok, "{out}");
    assert!(
        out.contains("set aside, unread (kept in the log): op-00000000000000ab-1"),
        "{out}"
    );
    let b = clones.server("b").await;
    let (_, tasks) = call(&b, "get_tasks", json!({})).await;
    assert!(
        tasks.contains("Kept") && tasks.contains("Also kept"),
        "{tasks}"
    );
    // b's next change goes through, and the entry stays in the log.
    let (error, text) = call(&b, "add_tasks", json!({"tasks": [{"title": "From b"}]})).await;
    assert!(!error, "{text}");
    assert!(clones.sync("b").await.0);
    let entries = git(
        remote,
        &["ls-tree", "--name-only", "refs/planning/boards/default"],
    );
    assert!(entries.contains("op-00000000000000ab-1"), "{entries}");
    assert!(clones.sync("a").await.0);
    let (_, tasks) = call(&a, "get_tasks", json!({})).await;
    assert!(
        tasks.contains("From b") && tasks.contains("Kept"),
        "{tasks}"
    );
}

/// Runs `git args` in `dir` with `input` on its stdin; its trimmed output.
fn git_with_input(dir: &Path, args: &[&str], input: &[u8]) -> String {
    use std::io::Write as _;
    let mut child = StdCommand::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "x")
        .env("GIT_AUTHOR_EMAIL", "x@x")
        .env("GIT_COMMITTER_NAME", "x")
        .env("GIT_COMMITTER_EMAIL", "x@x")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert!(output.status.success(), "git {args:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

#[tokio::test]
async fn entries_that_are_not_operations_are_read_past_on_an_existing_and_a_fresh_clone() {
    let clones = Clones::new(&["a", "b"], "");
    let a = clones.server("a").await;
    let (error, text) = call(
        &a,
        "add_tasks",
        json!({"tasks": [{"title": "Kept"}, {"title": "Also kept"}]}),
    )
    .await;
    assert!(!error, "{text}");
    assert!(clones.sync("a").await.0);
    assert!(clones.sync("b").await.0);
    let b = clones.server("b").await;
    // A hostile (or broken) clone pushes four entries that are not
    // operations: a binary blob, a foreign text file, a truncated
    // operation and JSON of the wrong shape.
    let remote = &clones.remote;
    let truncated =
        r#"{"format":"planning-mcp-server operation","version":1,"op":"00000000000000ab#1","sta"#;
    let entries: [(&str, &[u8], &str); 4] = [
        (
            "op-00000000000000aa-1",
            b"\x00\xff\xfe\x89PNG\r\n binary",
            "binary, not text",
        ),
        (
            "NOTES.md",
            b"# Notes\nnot an operation\n",
            "not the name of an operation",
        ),
        ("op-00000000000000ab-1", truncated.as_bytes(), "cut short"),
        (
            "op-00000000000000ac-1",
            br#"{"tasks":[{"title":"x"}]}"#,
            "JSON of another shape",
        ),
    ];
    let head = clones.remote_board().unwrap();
    let mut listing = git(remote, &["ls-tree", &head]);
    for (name, bytes, _) in &entries {
        let blob = git_with_input(remote, &["hash-object", "-w", "--stdin"], bytes);
        listing.push_str(&format!("100644 blob {blob}\t{name}\n"));
    }
    let tree = git_with_input(remote, &["mktree"], listing.as_bytes());
    let commit = git_with_input(remote, &["commit-tree", &tree, "-p", &head, "-m", "x"], b"");
    git(
        remote,
        &["update-ref", "refs/planning/boards/default", &commit, &head],
    );
    // A fresh clone, made after the push.
    git(
        clones.root.path(),
        &["clone", "--quiet", "remote.git", "fresh"],
    );
    std::fs::copy(
        clones.path("a").join("planning-mcp-server.toml"),
        clones.path("fresh").join("planning-mcp-server.toml"),
    )
    .unwrap();
    for name in ["b", "fresh"] {
        let (ok, out) = clones.sync(name).await;
        assert!(ok, "{name}: {out}");
        for (entry, _, problem) in &entries {
            assert_eq!(
                out.matches(entry).count(),
                1,
                "{name} names {entry} once: {out}"
            );
            let line = out.lines().find(|l| l.contains(entry)).unwrap();
            assert!(
                line.starts_with(&format!("  set aside, unread (kept in the log): {entry}: "))
                    && line.contains(problem),
                "{line}"
            );
        }
        assert!(!out.contains("0000000000000000#0"), "{out}");
        // The next sync does not repeat them.
        let (ok, again) = clones.sync(name).await;
        assert!(ok && !again.contains("set aside"), "{again}");
    }
    let fresh = clones.server("fresh").await;
    for client in [&b, &fresh] {
        let (_, tasks) = call(client, "get_tasks", json!({})).await;
        assert!(
            tasks.contains("Kept") && tasks.contains("Also kept"),
            "{tasks}"
        );
    }
    // Writes and syncs go on past them.
    let (error, text) = call(
        &fresh,
        "add_tasks",
        json!({"tasks": [{"title": "From fresh"}]}),
    )
    .await;
    assert!(!error, "{text}");
    assert!(clones.sync("fresh").await.0);
    assert!(clones.sync("b").await.0);
    let (_, tasks) = call(&b, "get_tasks", json!({})).await;
    assert!(tasks.contains("From fresh"), "{tasks}");
}

#[tokio::test]
async fn an_agent_whose_completion_was_set_aside_is_told_what_was_lost() {
    let clones = Clones::new(&["alice", "bob"], "on_change = false\n");
    let (alice, bob) = (clones.server("alice").await, clones.server("bob").await);
    let (error, text) = call(
        &alice,
        "add_tasks",
        json!({"tasks": [{"title": "Write the parser"}, {"title": "Write the docs"}]}),
    )
    .await;
    assert!(!error, "{text}");
    for name in ["alice", "bob"] {
        assert!(clones.sync(name).await.0);
    }
    let task = id("Write the parser");
    let (error, text) = call(
        &alice,
        "claim_task",
        json!({"agent": "alice-agent", "task_id": task}),
    )
    .await;
    assert!(!error, "{text}");
    // Offline, bob deletes the task; then alice's agent completes it, with
    // evidence, and is acknowledged on its clone.
    delete_then_complete(&bob, &alice, &task).await;
    assert!(clones.sync("bob").await.0);
    let (ok, out) = clones.sync("alice").await;
    assert!(ok, "{out}");
    let what = format!(
        "alice-agent's release_task of [{task}] 'Write the parser' as completed, with evidence, \
         set aside: the task had been deleted on another clone; delete wins"
    );
    assert_eq!(out.matches(&what).count(), 1, "{out}");
    let (ok, again) = clones.sync("alice").await;
    assert!(ok && !again.contains("set aside"), "reported once: {again}");
    // The agent's next call tells it, in words, once.
    let (_, reply) = call(&alice, "claim_task", json!({"agent": "alice-agent"})).await;
    let told = format!(
        "Sync: your release_task of [{task}] 'Write the parser' as completed, with evidence, was \
         set aside: the task had been deleted on another clone; delete wins. Nothing of it is on \
         the board; the operation and its evidence are kept in the board's history in git \
         (operation "
    );
    assert!(reply.contains(&told), "{reply}");
    let (_, later) = call(&alice, "ready_tasks", json!({"agent": "alice-agent"})).await;
    assert!(!later.contains("set aside"), "{later}");
    // The digest says what was lost, in the same words.
    let output = clones
        .command("alice")
        .arg("summary")
        .output()
        .await
        .unwrap();
    let digest = String::from_utf8_lossy(&output.stdout);
    let line = format!(
        "- alice-agent: release_task of [{task}] 'Write the parser' as completed, with \
         evidence: the task had been deleted on another clone; delete wins"
    );
    assert!(digest.contains(&line), "{digest}");
    // The evidence is in the board's log.
    let log = git(
        &clones.remote,
        &["log", "-p", "refs/planning/boards/default"],
    );
    assert!(log.contains("all parser tests pass"), "{log}");
}

/// Six tasks added on `clone`'s server, one call each.
async fn add_six(client: &Client, clone: &str, round: u32) {
    for n in 0..6 {
        let title = format!("{clone} {round}.{n}");
        let (error, text) = call(client, "add_tasks", json!({"tasks": [{"title": title}]})).await;
        assert!(!error, "{text}");
    }
}

#[tokio::test]
async fn compaction_during_concurrent_syncs_loses_nothing() {
    let clones = Clones::new(&["a", "b"], "on_change = true\ncheckpoint_every = 10\n");
    let (a, b) = (clones.server("a").await, clones.server("b").await);
    for round in 0..3 {
        // Both clones change the board and sync at once, each sync
        // compacting a log past 10 operations while the other pushes.
        let (_, _, sa, sb) = tokio::join!(
            add_six(&a, "a", round),
            add_six(&b, "b", round),
            clones.sync("a"),
            clones.sync("b")
        );
        // A sync may lose every race of the round to the other clone's
        // pushes; it never breaks the log.
        for (ok, out) in [sa, sb] {
            assert!(ok || out.contains("retry the sync"), "{out}");
        }
    }
    for name in ["a", "b", "a"] {
        let (ok, out) = clones.sync(name).await;
        assert!(ok, "{out}");
    }
    let board = |text: String| text.split("\n\nSync: ").next().unwrap().to_owned();
    let ta = board(call(&a, "get_tasks", json!({})).await.1);
    let tb = board(call(&b, "get_tasks", json!({})).await.1);
    assert_eq!(ta, tb);
    for clone in ["a", "b"] {
        for round in 0..3 {
            for n in 0..6 {
                let title = format!("{clone} {round}.{n}");
                assert!(
                    ta.contains(&format!("] {title}\n")),
                    "{title} missing: {ta}"
                );
            }
        }
    }
    let entries = git(
        &clones.remote,
        &["ls-tree", "--name-only", "refs/planning/boards/default"],
    );
    assert!(
        entries.lines().any(|e| e.starts_with("checkpoint-")),
        "{entries}"
    );
    assert!(entries.lines().count() < 36, "compacted: {entries}");
    // The compacted operations stay in the history, which `git log --all`
    // shows as a handful of commits: the tip and the checkpoints.
    let history = git(
        &clones.remote,
        &["log", "-p", "--format=%s", "refs/planning/boards/default"],
    );
    for title in ["a 0.0", "b 0.5", "a 2.5"] {
        assert!(
            history.contains(&format!("\"title\":\"{title}\"")),
            "{title}"
        );
    }
    let commits = git(&clones.remote, &["log", "--all", "--oneline"]);
    assert!(commits.lines().count() <= 12, "{commits}");
}

/// Runs jj in `dir` with no user configuration; it must succeed. Its
/// standard output.
fn jj(jj: &Path, dir: &Path, args: &[&str]) -> String {
    let config = dir.join("../jjconfig.toml");
    std::fs::write(
        &config,
        "user.name = 'Test'\nuser.email = 'test@example.com'\n",
    )
    .unwrap();
    let output = StdCommand::new(jj)
        .args(["--no-pager", "--color", "never"])
        .args(args)
        .current_dir(dir)
        .env("HOME", dir)
        .env("JJ_CONFIG", &config)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "jj {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[tokio::test]
async fn a_jj_repository_colocated_with_git_shares_the_board_and_sees_no_change() {
    let test = "sync::a_jj_repository_colocated_with_git_shares_the_board_and_sees_no_change";
    let Some(jj_bin) = common::vcs::jj_or_skip(test) else {
        return;
    };
    let clones = Clones::new(&["a", "b"], "on_change = true\n");
    let a = clones.path("a");
    jj(&jj_bin, &a, &["git", "init", "--colocate"]);
    let status = (
        jj(&jj_bin, &a, &["status"]),
        git(&a, &["status", "--porcelain"]),
    );
    let log = jj(
        &jj_bin,
        &a,
        &["log", "-r", "all()", "-T", "commit_id ++ \"\\n\""],
    );
    let server = clones.server("a").await;
    let (error, text) = call(
        &server,
        "add_tasks",
        json!({"tasks": [{"title": "Planned in a jj repository"}]}),
    )
    .await;
    assert!(!error, "{text}");
    drop(server);
    assert!(clones.remote_board().is_some(), "not pushed");
    // The board lives outside jj's view: no change, no new commit, no bookmark.
    assert_eq!(
        (
            jj(&jj_bin, &a, &["status"]),
            git(&a, &["status", "--porcelain"])
        ),
        status
    );
    assert_eq!(
        jj(
            &jj_bin,
            &a,
            &["log", "-r", "all()", "-T", "commit_id ++ \"\\n\""]
        ),
        log
    );
    assert_eq!(jj(&jj_bin, &a, &["bookmark", "list", "--all"]), "");
    let (ok, out) = clones.sync("b").await;
    assert!(ok, "{out}");
    let b = clones.server("b").await;
    let (_, tasks) = call(&b, "get_tasks", json!({})).await;
    assert!(tasks.contains("Planned in a jj repository"), "{tasks}");
    // And back: b's change reaches the jj repository through its sync.
    let (error, text) = call(
        &b,
        "add_tasks",
        json!({"tasks": [{"title": "Added in a plain git clone"}]}),
    )
    .await;
    assert!(!error, "{text}");
    let (ok, out) = clones.sync("a").await;
    assert!(ok, "{out}");
    let server = clones.server("a").await;
    let (_, tasks) = call(&server, "get_tasks", json!({})).await;
    assert!(tasks.contains("Added in a plain git clone"), "{tasks}");
    // jj's own commands go on working beside the board's ref.
    jj(&jj_bin, &a, &["new", "-m", "next"]);
    jj(&jj_bin, &a, &["git", "export"]);
}
