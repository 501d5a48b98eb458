// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Toolset `team` end to end, through the rmcp client over stdio and HTTP:
//! a lead and two workers sharing a board (the transcript docs/team.md
//! shows), what the planning tools do to claimed and linked tasks, old
//! snapshots, evidence across a restart, the web board's new fields, and
//! start-up without `planning`.

use crate::common;

use std::fmt::Write;

use common::{Client, HttpServer, call, file_storage, id, ok, stdio_client};
use serde_json::{Value, json};

/// `--toolsets planning,team`.
pub(crate) const TEAM: [&str; 2] = ["--toolsets", "planning,team"];

/// The team's tools, sorted.
const TEAM_TOOLS: [&str; 10] = [
    "claim_task",
    "dispatch_task",
    "link_tasks",
    "ready_tasks",
    "release_task",
    "set_done_when",
    "set_touches",
    "team_board",
    "unlink_tasks",
    "wait_for",
];

/// `text` with every time (`2026-11-22T10:30:00Z`) replaced by `<time>`,
/// so that goldens do not depend on the clock.
pub(crate) fn redact_times(text: &str) -> String {
    redact_shape(text, b"dddd-dd-ddTdd:dd:ddZ")
}

/// `text` with every run of the `shape` (`d` a digit, other bytes as
/// they are) replaced by `<time>`.
pub(crate) fn redact_shape(text: &str, shape: &[u8]) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let matches = bytes.len() >= i + shape.len()
            && shape.iter().zip(&bytes[i..]).all(|(s, b)| match s {
                b'd' => b.is_ascii_digit(),
                other => other == b,
            });
        if matches {
            out.push_str("<time>");
            i += shape.len();
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// One step of a transcript: who calls what, and what comes back.
pub(crate) async fn step(
    transcript: &mut String,
    who: &str,
    client: &Client,
    tool: &str,
    args: Value,
) -> String {
    let (is_error, text) = call(client, tool, args.clone()).await;
    let answer = if is_error { "is refused" } else { "gets" };
    let _ = write!(
        transcript,
        "**{who}** calls `{tool}` `{args}` and {answer}:\n\n```text\n{text}\n```\n\n"
    );
    text
}

/// docs/team.md, whose transcript section shows the run of
/// [`a_lead_and_two_workers_share_a_board_over_http`].
pub(crate) const TEAM_DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/team.md");
const TRANSCRIPT_BEGIN: &str = "<!-- transcript:begin -->\n";
const TRANSCRIPT_END: &str = "<!-- transcript:end -->";

/// The transcript section of docs/team.md: (before, section, after).
fn transcript_section(doc: &str) -> (&str, &str, &str) {
    let (before, rest) = doc.split_once(TRANSCRIPT_BEGIN).unwrap();
    let (section, after) = rest.split_once(TRANSCRIPT_END).unwrap();
    (before, section, after)
}

#[tokio::test]
async fn a_lead_and_two_workers_share_a_board_over_http() {
    // A repository: the server runs in its main worktree, worker-2 works
    // in a linked one, whose hooks read the same board by default.
    let dir = tempfile::tempdir().unwrap();
    let linked = tempfile::tempdir().unwrap();
    common::git(dir.path(), &["init", "-q", "-b", "main"]);
    common::git(
        dir.path(),
        &["commit", "-q", "--allow-empty", "-m", "first"],
    );
    let worktree = linked.path().join("wt-2");
    let path = worktree.to_str().unwrap();
    common::git(
        dir.path(),
        &["worktree", "add", "-q", "-b", "worker-2", path],
    );
    let args = [TEAM[0], TEAM[1], "--storage", "file"];
    let server = HttpServer::start_in(&dir, &args, &[]).await;
    let url = server.board_url("release");
    let connect = || common::client_at(&url);
    let (lead, w1, w2) = (connect().await, connect().await, connect().await);
    let mut t = String::new();

    step(
        &mut t,
        "lead",
        &lead,
        "set_goal",
        json!({"title": "Ship 1.0", "description": "the parser, its tests and the CLI"}),
    )
    .await;
    step(
        &mut t,
        "lead",
        &lead,
        "add_tasks",
        json!({"tasks": [
            {"title": "Write the parser", "touches": ["src/parser/**"]},
            {"title": "Write the tests", "touches": ["tests/parser.rs"]},
            {"title": "Wire the CLI", "touches": ["src/cli/**"], "blocked_by": [1, 2]},
            {"title": "Release notes", "touches": ["CHANGELOG.md"], "blocked_by": [3]},
        ]}),
    )
    .await;
    step(
        &mut t,
        "lead",
        &lead,
        "link_tasks",
        json!({"task_id": id("Write the parser"), "blocked_by": [id("Release notes")]}),
    )
    .await;
    step(
        &mut t,
        "lead",
        &lead,
        "set_done_when",
        json!({"condition": "cargo test passes on main"}),
    )
    .await;
    step(
        &mut t,
        "worker-1",
        &w1,
        "claim_task",
        json!({"agent": "worker-1"}),
    )
    .await;
    step(
        &mut t,
        "worker-2",
        &w2,
        "claim_task",
        json!({"agent": "worker-2"}),
    )
    .await;
    step(
        &mut t,
        "worker-2",
        &w2,
        "claim_task",
        json!({"agent": "worker-2", "task_id": id("Write the parser")}),
    )
    .await;
    step(
        &mut t,
        "worker-2",
        &w2,
        "claim_task",
        json!({"agent": "worker-2"}),
    )
    .await;
    step(&mut t, "lead", &lead, "team_board", json!({})).await;
    // worker-2's pre-commit hook, in its linked worktree, with a file of
    // worker-1's reservation staged: the warning, and the commit goes on.
    let lexer = worktree.join("src/parser/lexer.rs");
    std::fs::create_dir_all(lexer.parent().unwrap()).unwrap();
    std::fs::write(&lexer, "pub fn lex() {}\n").unwrap();
    common::git(&worktree, &["add", "src/parser/lexer.rs"]);
    let hook = ["check-touches", "--board", "release", "--storage", "file"];
    let output = common::command(&dir)
        .current_dir(&worktree)
        .args(hook)
        .env("PLANNING_AGENT", "worker-2")
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let checked = String::from_utf8(output.stdout).unwrap();
    assert!(checked.contains("- src/parser/lexer.rs: ["), "{checked}");
    let _ = write!(
        t,
        "**hook** (worker-2's pre-commit, in its linked worktree, `src/parser/lexer.rs` staged) \
         runs `PLANNING_AGENT=worker-2 planning-mcp-server check-touches --board release \
         --storage file` and gets (exit status 0: a warning, the commit goes on):\n\n\
         ```text\n{checked}```\n\n"
    );
    step(&mut t, "worker-1", &w1, "release_task", json!({"agent": "worker-1", "task_id": id("Write the parser"), "status": "completed", "command": "cargo test parser", "exit_code": 0, "commit": "9f3c2a1"})).await;
    step(&mut t, "worker-2", &w2, "release_task", json!({"agent": "worker-2", "task_id": id("Write the tests"), "status": "completed", "command": "cargo test", "exit_code": 1})).await;
    step(&mut t, "worker-2", &w2, "release_task", json!({"agent": "worker-2", "task_id": id("Write the tests"), "status": "completed", "command": "cargo test", "exit_code": 0})).await;
    step(
        &mut t,
        "worker-1",
        &w1,
        "claim_task",
        json!({"agent": "worker-1", "lease_minutes": 30}),
    )
    .await;
    step(&mut t, "lead", &lead, "ready_tasks", json!({})).await;
    step(&mut t, "lead", &lead, "get_tasks", json!({})).await;
    insta::assert_snapshot!("lead_and_two_workers", redact_times(&t));

    // The digest, as a SessionStart hook gets it from the running server.
    let output = common::command(&dir)
        .args(["summary", "--board", "release", "--url", server.base()])
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let digest = String::from_utf8(output.stdout).unwrap();
    insta::assert_snapshot!("lead_and_two_workers_digest", redact_times(&digest));
    let _ = write!(
        t,
        "**hook** runs `planning-mcp-server summary --board release --url URL` and gets:\n\n\
         ```markdown\n{digest}```\n"
    );
    // The same board, read by a hook in the linked worktree, no server asked.
    let output = common::command(&dir)
        .current_dir(&worktree)
        .args(["summary", "--board", "release", "--storage", "file"])
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stored = String::from_utf8(output.stdout).unwrap();
    assert!(stored.starts_with("# Board release"), "{stored}");
    let _ = write!(
        t,
        "\n**hook** in worker-2's linked worktree runs `planning-mcp-server summary --board \
         release --storage file` (the stored board: the main worktree's, shared by default) and \
         gets:\n\n```markdown\n{stored}```\n"
    );

    // docs/team.md shows this very run, with its real times; rewrite it with
    // PLANNING_TEAM_TRANSCRIPT=write cargo test --test e2e team::a_lead
    let doc = std::fs::read_to_string(TEAM_DOC).unwrap();
    let (before, shown, after) = transcript_section(&doc);
    if std::env::var_os("PLANNING_TEAM_TRANSCRIPT").is_some_and(|v| v == "write") {
        let doc = format!("{before}{TRANSCRIPT_BEGIN}{t}{TRANSCRIPT_END}{after}");
        std::fs::write(TEAM_DOC, doc).unwrap();
    } else {
        assert_eq!(
            redact_times(shown),
            redact_times(&t),
            "docs/team.md's transcript is not this run's: rewrite it with \
             PLANNING_TEAM_TRANSCRIPT=write cargo test --test e2e team::a_lead"
        );
    }
    for client in [lead, w1, w2] {
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn over_stdio_the_tools_are_listed_once_with_both_instructions() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &TEAM, &[]).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for tool in TEAM_TOOLS {
        assert_eq!(names.iter().filter(|n| **n == tool).count(), 1, "{tool}");
    }
    let board = common::tool_names("planning").await;
    assert_eq!(names.len(), board.len() + TEAM_TOOLS.len(), "{names:?}");
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    let board = instructions.find("set_goal").unwrap();
    let team = instructions.find("claim_task").unwrap();
    assert!(board < team, "registry order: {instructions}");
    // The team's part of tools/list stays small: every byte costs tokens.
    let team_json: usize = tools
        .iter()
        .filter(|t| TEAM_TOOLS.contains(&t.name.as_ref()))
        .map(|t| serde_json::to_string(t).unwrap().len())
        .sum();
    assert!(team_json < 8000, "{team_json} bytes");
    let resources = client.list_all_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "board://default",
            "board://default/summary",
            "board://default/digest",
            "skill://planning-board/SKILL.md",
            "skill://team-loop/SKILL.md"
        ]
    );

    ok(&client, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;
    let claimed = ok(&client, "claim_task", json!({"agent": "solo"})).await;
    assert!(claimed.starts_with("Claimed by solo until "), "{claimed}");
    let digest = client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "board://default/digest",
        ))
        .await
        .unwrap();
    let text = match &digest.contents[0] {
        rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        text.contains(&format!("- ⟳ [{}] solo until ", id("a"))),
        "{text}"
    );
    // Bad arguments are clear errors that change nothing.
    for (args, error) in [
        (
            json!({"agent": "", "task_id": id("a")}),
            "The agent name must not be blank.",
        ),
        (
            json!({"agent": "x", "lease_minutes": 0}),
            "A lease is 1 to 120 minutes; 0 is not.",
        ),
        (
            json!({"agent": "x\ny"}),
            "The agent name must be one line without control characters.",
        ),
    ] {
        let (is_error, text) = call(&client, "claim_task", args).await;
        assert!(is_error);
        assert_eq!(text, error);
    }
    client.cancel().await.unwrap();
}

/// The same planning calls on a planning-only server and on a team server
/// answer byte for byte the same: the team changes no planning reply.
#[tokio::test]
async fn the_planning_tools_answer_the_same_with_team_on() {
    let dir = tempfile::tempdir().unwrap();
    let plain = stdio_client(&dir, &[], &[]).await;
    let team = stdio_client(&dir, &TEAM, &[]).await;
    let calls = [
        ("set_goal", json!({"title": "G", "description": "D"})),
        (
            "add_tasks",
            json!({"tasks": [{"title": "a"}, {"title": "b", "description": "two\nlines"}]}),
        ),
        (
            "update_task_statuses",
            json!({"tasks": [{"task_id": id("a"), "status": "in_progress"}]}),
        ),
        ("modify_task", json!({"task_id": id("a"), "title": "A"})),
        ("get_tasks", json!({"status": "in_progress"})),
        ("delete_tasks", json!({"task_ids": ["00000000"]})),
        (
            "change_goal",
            json!({"title": "G2", "description": "", "reason": "r"}),
        ),
    ];
    for (tool, args) in calls {
        let (a, b) = (
            call(&plain, tool, args.clone()).await,
            call(&team, tool, args).await,
        );
        assert_eq!(a, b, "{tool}");
    }
    plain.cancel().await.unwrap();
    team.cancel().await.unwrap();
}

#[tokio::test]
async fn planning_tools_on_claimed_and_linked_tasks_leave_nothing_dangling() {
    let dir = tempfile::tempdir().unwrap();
    let client = stdio_client(&dir, &TEAM, &[]).await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "a"}, {"title": "b"}, {"title": "c"}]}),
    )
    .await;
    ok(
        &client,
        "link_tasks",
        json!({"task_id": id("c"), "blocked_by": [id("a"), id("b")]}),
    )
    .await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "w1", "task_id": id("a")}),
    )
    .await;

    // Rewording carries the claim and the links to the new ID.
    let reworded = id("A");
    ok(
        &client,
        "modify_task",
        json!({"task_id": id("a"), "title": "A"}),
    )
    .await;
    let board = ok(&client, "team_board", json!({})).await;
    assert!(
        board.contains(&format!("- ⟳ [{reworded}] A · held by w1 until ")),
        "{board}"
    );
    assert!(
        board.contains(&format!(
            "- ☐ [{}] c · waits for [{}] [{reworded}]",
            id("c"),
            id("b")
        )),
        "{board}"
    );
    let (is_error, text) = call(
        &client,
        "release_task",
        json!({"agent": "w1", "task_id": id("a"), "status": "completed"}),
    )
    .await;
    // The holder's old ID is answered with the new one (docs/review.md).
    assert!(
        is_error
            && text.starts_with(&format!(
                "[{}] was reworded by a person: it is now [{reworded}]",
                id("a")
            )),
        "{text}"
    );

    // Another agent's status change through the planning tools ends the claim.
    ok(
        &client,
        "update_task_statuses",
        json!({"tasks": [{"task_id": reworded, "status": "completed"}]}),
    )
    .await;
    let (is_error, text) = call(
        &client,
        "release_task",
        json!({"agent": "w1", "task_id": reworded, "status": "completed"}),
    )
    .await;
    assert!(is_error);
    assert_eq!(
        text,
        format!("[{reworded}] is not claimed; claim it first (claim_task).")
    );

    // Deleting a blocker removes its links: c now waits only for nothing.
    ok(&client, "delete_tasks", json!({"task_ids": [id("b")]})).await;
    let ready = ok(&client, "ready_tasks", json!({})).await;
    assert_eq!(
        ready,
        format!(
            "Ready: 1 of 2 tasks, in board order; claim_task takes the first.\n- ☐ [{}] c",
            id("c")
        )
    );
    let board = ok(&client, "team_board", json!({})).await;
    assert!(!board.contains("waits for"), "{board}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_version_1_board_loads_and_evidence_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    std::fs::create_dir_all(&store).unwrap();
    let fixture = include_str!("../fixtures/board-v1.json");
    std::fs::write(store.join("default.json"), fixture).unwrap();
    let mut args: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    args.extend(file_storage(&store));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();

    let client = stdio_client(&dir, &args, &[]).await;
    let list = ok(&client, "get_tasks", json!({})).await;
    assert!(
        list.starts_with("**Goal:** Ship the planning server 1.0: A drop-in Rust port, released"),
        "{list}"
    );
    assert_eq!(list.lines().filter(|l| l.starts_with("- ")).count(), 5);
    let pending = "023dbbd9";
    ok(
        &client,
        "claim_task",
        json!({"agent": "w1", "task_id": pending}),
    )
    .await;
    ok(&client, "release_task", json!({"agent": "w1", "task_id": pending, "status": "completed", "url": "https://ci.example/run/7", "note": "green"})).await;
    client.cancel().await.unwrap();
    let saved = std::fs::read_to_string(store.join("default.json")).unwrap();
    assert!(saved.contains("\"version\": 2"), "{saved}");

    let again = stdio_client(&dir, &args, &[]).await;
    let board = ok(&again, "team_board", json!({})).await;
    assert!(
        board.contains(&format!(
            "- ☑ [{pending}] Two lines · evidence: https://ci.example/run/7, \"green\" (by w1)"
        )),
        "{board}"
    );
    assert!(
        board.contains("; 1 of 2 completed with evidence"),
        "{board}"
    );
    again.cancel().await.unwrap();

    // A planning-only server reads the version 2 file and keeps its team data.
    let plain_args: Vec<String> = file_storage(&store);
    let plain_args: Vec<&str> = plain_args.iter().map(String::as_str).collect();
    let plain = stdio_client(&dir, &plain_args, &[]).await;
    ok(&plain, "add_tasks", json!({"tasks": [{"title": "later"}]})).await;
    plain.cancel().await.unwrap();
    let saved = std::fs::read_to_string(store.join("default.json")).unwrap();
    assert!(saved.contains("https://ci.example/run/7"), "{saved}");
}

#[tokio::test]
async fn evidence_is_required_or_added_later_by_who_completed_the_task() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let mut args: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    args.extend(file_storage(&store));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let tasks = json!({"tasks": [{"title": "strict"}, {"title": "lenient"}]});
    let [strict, lenient] = [id("strict"), id("lenient")];

    // [team] require_evidence: a completion without evidence is refused.
    let required = [("PLANNING_TEAM_REQUIRE_EVIDENCE", "true")];
    let client = stdio_client(&dir, &args, &required).await;
    ok(&client, "add_tasks", tasks).await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "w1", "task_id": strict}),
    )
    .await;
    let bare = json!({"agent": "w1", "task_id": strict, "status": "completed"});
    let (refused, text) = call(&client, "release_task", bare).await;
    assert!(refused);
    assert_eq!(
        text,
        format!(
            "Completing [{strict}] needs evidence (team.require_evidence is on): give a command \
             with its exit_code (0), a commit or change ID, an http(s) url, or a one-line note; \
             or release it as failed or pending."
        )
    );
    let with = json!({"agent": "w1", "task_id": strict, "status": "completed", "note": "ok"});
    let text = ok(&client, "release_task", with).await;
    assert!(text.starts_with(&format!("Released [{strict}] as completed, with evidence.")));
    client.cancel().await.unwrap();

    // Off (the default): accepted, and remembered across a restart.
    let client = stdio_client(&dir, &args, &[]).await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "w1", "task_id": lenient}),
    )
    .await;
    let bare = json!({"agent": "w1", "task_id": lenient, "status": "completed"});
    let text = ok(&client, "release_task", bare).await;
    assert_eq!(
        text,
        format!(
            "Released [{lenient}] as completed, without evidence; to add it later, call \
             release_task on it again, as completed with the evidence.\n- ☑ [{lenient}] lenient"
        )
    );
    client.cancel().await.unwrap();
    let saved = std::fs::read_to_string(store.join("default.json")).unwrap();
    assert!(saved.contains("\"version\": 3"), "{saved}");
    assert!(saved.contains("\"completed_by\": \"w1\""), "{saved}");

    let client = stdio_client(&dir, &args, &[]).await;
    let late = |agent: &str| {
        json!({"agent": agent, "task_id": lenient, "status": "completed",
            "command": "cargo test", "exit_code": 0})
    };
    let (refused, text) = call(&client, "release_task", late("w2")).await;
    assert!(refused);
    assert_eq!(
        text,
        format!("[{lenient}] was completed by w1, not by w2; only w1 can add its evidence.")
    );
    let text = ok(&client, "release_task", late("w1")).await;
    assert_eq!(
        text,
        format!(
            "Added evidence to [{lenient}], which you completed.\n\
             - ☑ [{lenient}] lenient · evidence: `cargo test` → exit 0 (by w1)"
        )
    );
    let (refused, text) = call(&client, "release_task", late("w1")).await;
    assert!(refused);
    assert_eq!(
        text,
        format!("[{lenient}] has evidence already (given by w1); evidence is never replaced.")
    );
    let board = ok(&client, "team_board", json!({})).await;
    assert!(
        board.contains("; 2 of 2 completed with evidence"),
        "{board}"
    );
    client.cancel().await.unwrap();
    let saved = std::fs::read_to_string(store.join("default.json")).unwrap();
    assert!(saved.contains("\"version\": 2"), "{saved}");
    assert!(!saved.contains("completed_by"), "{saved}");
}

#[tokio::test]
async fn agent_names_with_invisible_or_direction_changing_characters_are_refused() {
    let server = HttpServer::start(&TEAM, &[]).await;
    let client = server.client().await;
    ok(&client, "add_tasks", json!({"tasks": [{"title": "a"}]})).await;
    for (name, code) in [
        ("lead\u{202e}1", "U+202E"),
        ("\u{2067}lead", "U+2067"),
        ("lead\u{200b}", "U+200B"),
    ] {
        let (refused, text) = call(&client, "claim_task", json!({"agent": name})).await;
        assert!(refused, "{name:?}");
        assert_eq!(
            text,
            format!(
                "The agent name must not hold invisible or direction-changing characters (it holds {code})."
            )
        );
    }
    let (refused, text) = call(&client, "claim_task", json!({"agent": "lead\u{2028}x"})).await;
    assert!(refused);
    assert_eq!(
        text,
        "The agent name must be one line without control characters."
    );
    let board = ok(&client, "team_board", json!({})).await;
    assert!(!board.contains("held by"), "nothing was claimed: {board}");
    ok(&client, "claim_task", json!({"agent": "リード"})).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_web_board_shows_holders_links_and_evidence() {
    let server = HttpServer::start(&TEAM, &[]).await;
    let client = server.client().await;
    ok(
        &client,
        "set_goal",
        json!({"title": "G", "description": ""}),
    )
    .await;
    ok(
        &client,
        "add_tasks",
        json!({"tasks": [{"title": "a"}, {"title": "b"}]}),
    )
    .await;
    ok(
        &client,
        "link_tasks",
        json!({"task_id": id("b"), "blocked_by": [id("a")]}),
    )
    .await;
    ok(
        &client,
        "set_done_when",
        json!({"condition": "<b>all</b> green"}),
    )
    .await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "<w1>", "task_id": id("a")}),
    )
    .await;
    let json: Value = reqwest::get(format!("{}/boards/default.json", server.base()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(json["tasks"][0]["claim"]["holder"], "<w1>");
    assert!(
        json["tasks"][0]["claim"]["until"]
            .as_str()
            .unwrap()
            .ends_with('Z')
    );
    assert_eq!(json["tasks"][1]["blocked_by"], json!([id("a")]));
    assert_eq!(
        json["team"],
        json!({"done_when": "<b>all</b> green", "goal_met": false, "completed_with_evidence": 0, "in_flight": 0, "stalled": 0})
    );
    ok(&client, "release_task", json!({"agent": "<w1>", "task_id": id("a"), "status": "completed", "command": "make check", "exit_code": 0})).await;
    let json: Value = reqwest::get(format!("{}/boards/default.json", server.base()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(json["tasks"][0]["evidence"]["command"], "make check");
    assert_eq!(json["tasks"][0]["evidence"]["by"], "<w1>");
    assert!(json["tasks"][0].get("claim").is_none());
    let events: Vec<&str> = json["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert!(
        events.contains(&"claimed") && events.contains(&"claim_ended"),
        "{events:?}"
    );
    let page = reqwest::get(format!("{}/boards/default", server.base()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("Done when: <span class=\"condition\">&lt;b&gt;all&lt;/b&gt; green</span>"),
        "{page}"
    );
    assert!(page.contains("<p class=\"evidence\">Evidence: <code>make check</code> → exit 0 <span class=\"by\">(&lt;w1&gt;)</span></p>"), "{page}");
    assert!(
        page.contains("<p class=\"blocked\">Waits for <span class=\"dep\">"),
        "{page}"
    );
    assert!(page.contains("claimed by &lt;w1&gt; until"), "{page}");
    let digest = reqwest::get(format!("{}/boards/default/digest", server.base()))
        .await
        .unwrap();
    assert_eq!(digest.status(), 200);
    assert!(
        digest
            .text()
            .await
            .unwrap()
            .starts_with("# Board default\n\n**Goal:** G")
    );

    // Touches and a dispatch in flight: in the JSON, on the card, in the
    // goal's counts and in "Recent activity".
    ok(
        &client,
        "set_touches",
        json!({"task_id": id("b"), "touches": ["src/<b>/**"]}),
    )
    .await;
    ok(
        &client,
        "dispatch_task",
        json!({"lead": "lead", "worker": "<w2>", "task_id": id("b"), "worktree": "../wt-<b>"}),
    )
    .await;
    let json: Value = reqwest::get(format!("{}/boards/default.json", server.base()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(json["tasks"][1]["touches"], json!(["src/<b>/**"]));
    let dispatch = &json["tasks"][1]["dispatch"];
    assert_eq!(
        (
            &dispatch["worker"],
            &dispatch["place"],
            &dispatch["state"],
            &dispatch["claimed"]
        ),
        (
            &json!("<w2>"),
            &json!("../wt-<b>"),
            &json!("in_flight"),
            &json!(false)
        )
    );
    assert_eq!(
        (&json["team"]["in_flight"], &json["team"]["stalled"]),
        (&json!(1), &json!(0))
    );
    let page = reqwest::get(format!("{}/boards/default", server.base()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("<p class=\"touches\">Touches <code>src/&lt;b&gt;/**</code></p>"),
        "{page}"
    );
    assert!(
        page.contains("<p class=\"dispatch\" data-state=\"in_flight\" data-until=\""),
        "{page}"
    );
    assert!(
        page.contains("<b class=\"worker\">&lt;w2&gt;</b> in <code>../wt-&lt;b&gt;</code> (by lead) · <span class=\"what\">Dispatched: claim by</span> <time"),
        "{page}"
    );
    assert!(
        page.contains("<span class=\"in-flight\">1</span> in flight · <span class=\"stalled\" data-n=\"0\">0</span> stalled"),
        "{page}"
    );
    assert!(
        page.contains(": dispatched to &lt;w2&gt; by lead, to claim by "),
        "{page}"
    );
    client.cancel().await.unwrap();

    // Without team, there is no digest route.
    let plain = HttpServer::start(&[], &[]).await;
    let status = reqwest::get(format!("{}/boards/default/digest", plain.base()))
        .await
        .unwrap()
        .status();
    assert_eq!(status, 404);
}

#[tokio::test]
async fn team_without_planning_stops_start_up() {
    let dir = tempfile::tempdir().unwrap();
    for list in ["team", "plans,team"] {
        let output = common::command(&dir)
            .args(["--toolsets", list])
            .stdin(std::process::Stdio::null())
            .output()
            .await
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr,
            "planning-mcp-server: invalid configuration:\nserver.toolsets (from the --toolsets flag): \
             toolset 'team' works on toolset 'planning': enable both, e.g. planning,team\n"
        );
    }
}
