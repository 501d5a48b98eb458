// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server board list|add|edit|status|goal|note|review`
//! (docs/review.md, "The board from a terminal"): the real binary on a
//! file board and on a running HTTP server (`--url`), its output a script
//! reads (the ID alone, `--json`), its exit statuses, and a refusal that
//! changes nothing.

use crate::common::{HttpServer, call, client_with_token, file_storage, free_port, id};
use crate::common::{ok, run_binary};
use crate::team::TEAM;

use serde_json::{Value, json};
use tempfile::TempDir;

/// `board args...` on the file board of `dir`, with `envs`.
async fn board_with(dir: &TempDir, args: &[&str], envs: &[(&str, &str)]) -> (i32, String, String) {
    let storage = file_storage(&dir.path().join("store"));
    let mut all: Vec<&str> = vec!["board"];
    all.extend(args);
    all.extend(storage.iter().map(String::as_str));
    run_binary(dir, &all, envs).await
}

/// `board args...` on the file board of `dir`, which must succeed: its
/// standard output.
async fn board(dir: &TempDir, args: &[&str]) -> String {
    let (code, out, err) = board_with(dir, args, &[]).await;
    assert_eq!(code, 0, "board {args:?}: {err}");
    assert_eq!(err, "", "board {args:?}");
    out
}

/// The stored board's file, byte for byte.
fn stored(dir: &TempDir) -> Vec<u8> {
    std::fs::read(dir.path().join("store").join("default.json")).unwrap()
}

#[tokio::test]
async fn a_person_adds_lists_edits_and_sets_statuses_from_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) = board_with(&dir, &["list", "--json"], &[]).await;
    assert_eq!(code, 0);
    let listed: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        listed,
        json!({"board": "default", "stored": false, "goal": null, "tasks": []})
    );

    // `add` prints the ID alone (for `id=$(… board add …)`).
    assert_eq!(
        board(&dir, &["goal", "Ship the parser"]).await,
        "**Goal:** Ship the parser\n"
    );
    let parser = board(&dir, &["add", "Parser"]).await;
    assert_eq!(parser, format!("{}\n", id("Parser")));
    let lexer = board(&dir, &["add", "Lexer", "--description", "tokens", "--json"]).await;
    let lexer: Value = serde_json::from_str(lexer.trim()).unwrap();
    let lexer_id = lexer["task_id"].as_str().unwrap().to_owned();
    assert_eq!(lexer, json!({"task_id": lexer_id, "added": true}));
    // The same task again is not added twice: its ID, `added` false.
    let again = board(&dir, &["add", "Parser", "--json"]).await;
    assert_eq!(
        serde_json::from_str::<Value>(again.trim()).unwrap(),
        json!({"task_id": id("Parser"), "added": false})
    );

    // `edit` prints the new ID: it follows the title and description.
    let edited = board(
        &dir,
        &["edit", &id("Parser"), "--title", "Parser v2", "--json"],
    )
    .await;
    assert_eq!(
        serde_json::from_str::<Value>(edited.trim()).unwrap(),
        json!({"task_id": id("Parser v2"), "was": id("Parser")})
    );
    let status = board(&dir, &["status", &id("Parser v2"), "in_progress"]).await;
    assert_eq!(status, format!("- ⟳ [{}] Parser v2\n", id("Parser v2")));
    let status = board(&dir, &["status", &lexer_id, "completed", "--json"]).await;
    assert_eq!(
        serde_json::from_str::<Value>(status.trim()).unwrap(),
        json!({"task_id": lexer_id, "status": "completed"})
    );

    let listed: Value =
        serde_json::from_str(board(&dir, &["list", "--json"]).await.trim()).unwrap();
    assert_eq!(
        listed,
        json!({
            "board": "default",
            "stored": true,
            "goal": {"title": "Ship the parser", "description": ""},
            "tasks": [
                {"id": id("Parser v2"), "title": "Parser v2", "description": "",
                 "status": "in_progress", "glyph": "⟳"},
                {"id": lexer_id, "title": "Lexer", "description": "tokens",
                 "status": "completed", "glyph": "☑"},
            ],
        })
    );
    insta::assert_snapshot!("board_list", board(&dir, &["list"]).await);
    let pending = board(&dir, &["list", "--status", "in_progress", "--json"]).await;
    let pending: Value = serde_json::from_str(pending.trim()).unwrap();
    assert_eq!(pending["tasks"].as_array().unwrap().len(), 1, "{pending}");
}

#[tokio::test]
async fn a_refused_change_exits_non_zero_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    board(&dir, &["add", "Parser"]).await;
    board(&dir, &["goal", "Ship"]).await;
    let before = stored(&dir);
    let parser = id("Parser");
    let refusals: [(&[&str], i32, &str); 7] = [
        (&["status", &parser, "done"], 1, "'done' is not a status"),
        (
            &["status", &parser, "awaiting_review"],
            1,
            "awaiting_review is not set by hand",
        ),
        (
            &["status", "0badc0de", "completed"],
            4,
            "No task has the ID '0badc0de'",
        ),
        (
            &["edit", "0badc0de", "--title", "x"],
            4,
            "No task has the ID '0badc0de'",
        ),
        (
            &["edit", &parser],
            1,
            "Give a new title, a new description, or both.",
        ),
        (&["edit", &parser, "--title", " "], 1, "must not be blank"),
        (
            &["goal", "Ship more"],
            1,
            "a goal is set (**Goal:** Ship): give --reason TEXT",
        ),
    ];
    for (args, status, says) in refusals {
        let (code, out, err) = board_with(&dir, args, &[]).await;
        assert_eq!((code, out.as_str()), (status, ""), "{args:?}: {err}");
        assert!(err.starts_with("planning-mcp-server: "), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(stored(&dir), before, "{args:?} changed the board");
    }
    // The planning tools' limits hold: a full board takes no more.
    let full = [("PLANNING_PLANNING_MAX_TASKS", "1")];
    let (code, out, err) = board_with(&dir, &["add", "Lexer"], &full).await;
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("The board is full"), "{err}");
    assert_eq!(stored(&dir), before, "a full board changed");
    // A usage mistake is clap's: exit status 2, nothing changed.
    let (code, out, err) = board_with(&dir, &["status", &parser], &[]).await;
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert_eq!(stored(&dir), before);
    // `edit` and `status` create no board where none is stored.
    let empty = tempfile::tempdir().unwrap();
    let (code, _, err) = board_with(&empty, &["status", &parser, "completed"], &[]).await;
    assert_eq!(code, 3, "exit status 3: no such board");
    assert!(err.contains("none is stored at"), "{err}");
    assert!(!empty.path().join("store").join("default.json").exists());
}

#[tokio::test]
async fn the_task_commands_need_only_toolset_planning() {
    let dir = tempfile::tempdir().unwrap();
    let planning = [("PLANNING_SERVER_TOOLSETS", "planning")];
    let (code, out, err) = board_with(&dir, &["add", "Parser"], &planning).await;
    assert_eq!((code, out), (0, format!("{}\n", id("Parser"))), "{err}");
    let (code, out, err) = board_with(&dir, &["list"], &planning).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("- ☐ [{}] Parser", id("Parser"))),
        "{out}"
    );
}

#[tokio::test]
async fn list_asks_a_running_server_with_its_token() {
    let dir = tempfile::tempdir().unwrap();
    board(&dir, &["goal", "Ship"]).await;
    board(&dir, &["add", "Parser", "--description", "the v2 lexer"]).await;
    board(&dir, &["add", "Lexer"]).await;
    board(&dir, &["status", &id("Lexer"), "completed"]).await;
    let stored_text = board(&dir, &["list"]).await;
    let stored_json: Value =
        serde_json::from_str(board(&dir, &["list", "--json"]).await.trim()).unwrap();

    let token = [("PLANNING_SERVER_AUTH_TOKEN", "s3cret")];
    let storage = file_storage(&dir.path().join("store"));
    let args: Vec<&str> = storage.iter().map(String::as_str).collect();
    let server = HttpServer::start_in(&dir, &args, &token).await;
    for url in [server.base(), server.url.as_str()] {
        let run = |args: &[&str]| {
            let mut all = vec!["board"];
            all.extend(args);
            all.extend(["--url", url]);
            all.iter().map(|a| a.to_string()).collect::<Vec<_>>()
        };
        let text = run(&["list"]);
        let text: Vec<&str> = text.iter().map(String::as_str).collect();
        let (code, out, err) = run_binary(&dir, &text, &token).await;
        assert_eq!((code, out.as_str()), (0, stored_text.as_str()), "{err}");
        let json = run(&["list", "--json"]);
        let json: Vec<&str> = json.iter().map(String::as_str).collect();
        let (code, out, err) = run_binary(&dir, &json, &token).await;
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            serde_json::from_str::<Value>(out.trim()).unwrap(),
            stored_json
        );
    }
    let (code, out, err) = run_binary(&dir, &["board", "list", "--url", server.base()], &[]).await;
    assert_eq!((code, out.as_str()), (6, ""), "exit status 6: no sign-in");
    assert!(
        err.contains("wants a token: set PLANNING_SERVER_AUTH_TOKEN"),
        "{err}"
    );
    let (code, out, err) = run_binary(
        &dir,
        &[
            "board",
            "list",
            "--board",
            "other",
            "--url",
            server.base(),
            "--json",
        ],
        &token,
    )
    .await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        serde_json::from_str::<Value>(out.trim()).unwrap(),
        json!({"board": "other", "stored": false, "goal": null, "tasks": []})
    );
}

/// The token of the servers below.
const TOKEN: (&str, &str) = ("PLANNING_SERVER_AUTH_TOKEN", "s3cret");

/// A person's commands: each one's exit status, standard output and
/// standard error must be the same on the stored board and on a server's.
fn script() -> Vec<Vec<String>> {
    let lexer = id("Lexer");
    let lexer_v2 = id("Lexer v2");
    let parser = id("Parser");
    let lines: [&[&str]; 17] = [
        &["goal", "Ship the parser"],
        &["add", "Parser"],
        &["add", "Lexer", "--description", ""],
        &["add", "Lexer", "--json"],
        &["status", &lexer, "in_progress"],
        &["edit", &lexer, "--title", "Lexer v2", "--json"],
        &["status", &lexer_v2, "completed", "--json"],
        &[
            "goal",
            "Ship v2",
            "--reason",
            "the v1 parser is dropped",
            "--json",
        ],
        &["note", "stop after the parser", "--by", "ada", "--json"],
        &["note", &parser, "use the v2 lexer API", "--by", "ada"],
        // Refusals, each with its exit status.
        &["status", &lexer_v2, "done"],
        &["status", "0badc0de", "completed"],
        &["edit", &parser],
        &["goal", "Ship more"],
        &["review", "approve", &parser, "--by", "ada"],
        &[
            "review", "reject", "0badc0de", "--reason", "no tests", "--by", "ada",
        ],
        &["list", "--json"],
    ];
    let mut all: Vec<Vec<String>> = lines
        .iter()
        .map(|line| line.iter().map(|a| a.to_string()).collect())
        .collect();
    all.push(vec!["list".into()]);
    all
}

/// `board args...` against the server at `url`, with `envs`.
async fn served(
    dir: &TempDir,
    url: &str,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (i32, String, String) {
    let mut all: Vec<&str> = vec!["board"];
    all.extend(args);
    all.extend(["--url", url]);
    run_binary(dir, &all, envs).await
}

/// A server with team on and the token, its boards in `dir/served`.
async fn team_server(dir: &TempDir, envs: &[(&str, &str)]) -> HttpServer {
    let storage = file_storage(&dir.path().join("served"));
    let mut args: Vec<&str> = TEAM.to_vec();
    args.extend(storage.iter().map(String::as_str));
    let mut all = vec![TOKEN];
    all.extend(envs);
    HttpServer::start_in(dir, &args, &all).await
}

#[tokio::test]
async fn every_command_answers_the_same_from_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = team_server(&dir, &[]).await;
    // A session makes the server's board (a write never creates one).
    let agent = client_with_token(&server.url, TOKEN.1).await;
    ok(&agent, "get_tasks", json!({})).await;
    let team = [("PLANNING_SERVER_TOOLSETS", "planning,team")];
    let mut statuses = Vec::new();
    for line in script() {
        let line: Vec<&str> = line.iter().map(String::as_str).collect();
        let stored = board_with(&dir, &line, &team).await;
        let from_server = served(&dir, server.base(), &line, &[TOKEN]).await;
        assert_eq!(from_server, stored, "board {line:?}");
        statuses.push(stored.0);
    }
    assert_eq!(
        statuses,
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 1, 1, 1, 4, 0, 0],
        "the refusals exit with their own statuses"
    );

    // It happened on the server: its sessions read it.
    let listed = ok(&agent, "get_tasks", json!({})).await;
    assert!(listed.contains("**Goal:** Ship v2"), "{listed}");
    assert!(
        listed.contains(&format!("- ☑ [{}] Lexer v2", id("Lexer v2"))),
        "{listed}"
    );
    // The note on the task waits for its holder; the board's reaches the
    // next agent that calls, once.
    let claimed = ok(
        &agent,
        "claim_task",
        json!({"agent": "w1", "task_id": id("Parser")}),
    )
    .await;
    assert!(
        claimed.contains("NOTE from ada (a person) on the board: stop after the parser"),
        "{claimed}"
    );
    assert!(
        claimed.contains(&format!(
            "NOTE from ada (a person) on [{}]: use the v2 lexer API",
            id("Parser")
        )),
        "{claimed}"
    );
}

#[tokio::test]
async fn a_person_reviews_an_agents_work_on_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = team_server(&dir, &[("PLANNING_TEAM_REQUIRE_REVIEW", "true")]).await;
    let agent = client_with_token(&server.url, TOKEN.1).await;
    let url = server.base();
    let ada = [TOKEN, ("USER", "ada")];
    let (code, out, err) = served(&dir, url, &["add", "Parser"], &ada).await;
    assert_eq!((code, out), (0, format!("{}\n", id("Parser"))), "{err}");
    let task = id("Parser");
    let release = |note: &'static str| json!({"agent": "w1", "task_id": task, "status": "completed", "note": note});
    ok(
        &agent,
        "claim_task",
        json!({"agent": "w1", "task_id": task}),
    )
    .await;
    ok(&agent, "release_task", release("all green")).await;

    // Rejected from the terminal, with a reason: the next claimant reads it.
    let reject = [
        "review",
        "reject",
        &task,
        "--reason",
        "the tests skip the lexer",
    ];
    let (code, out, err) = served(&dir, url, &[&reject[..], &["--json"]].concat(), &ada).await;
    assert_eq!(code, 0, "{err}");
    let outcome: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (
            &outcome["status"],
            &outcome["verdict"],
            &outcome["reviewer"],
            &outcome["evidence_by"]
        ),
        (
            &json!("pending"),
            &json!("rejected"),
            &json!("ada"),
            &json!("w1")
        )
    );
    let claimed = ok(
        &agent,
        "claim_task",
        json!({"agent": "w2", "task_id": task}),
    )
    .await;
    assert!(
        claimed.contains("Rejected by ada at ") && claimed.contains("\"the tests skip the lexer\""),
        "{claimed}"
    );

    // Approved from the terminal: completed, the reviewer (the OS account)
    // kept with the evidence.
    ok(
        &agent,
        "release_task",
        json!({"agent": "w2", "task_id": task, "status": "completed", "note": "lexer tested"}),
    )
    .await;
    let (code, out, err) = served(&dir, url, &["review", "approve", &task], &ada).await;
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!(
            "Approved [{task}]: it is completed.\n- ☑ [{task}] Parser"
        )),
        "{out}"
    );
    let board = ok(&agent, "team_board", json!({})).await;
    assert!(
        board.contains(&format!(
            "- ☑ [{task}] Parser · evidence: \"lexer tested\" (by w2), approved by ada"
        )),
        "{board}"
    );
    // Twice is refused: exit status 1, nothing on standard output.
    let (code, out, err) = served(&dir, url, &["review", "approve", &task], &ada).await;
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("does not await review (it is completed)"),
        "{err}"
    );
}

#[tokio::test]
async fn a_wrong_token_a_stopped_server_or_an_unknown_board_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = team_server(&dir, &[("PLANNING_TEAM_REQUIRE_REVIEW", "true")]).await;
    let agent = client_with_token(&server.url, TOKEN.1).await;
    ok(&agent, "add_tasks", json!({"tasks": [{"title": "Parser"}]})).await;
    let task = id("Parser");
    ok(
        &agent,
        "claim_task",
        json!({"agent": "w1", "task_id": task}),
    )
    .await;
    ok(
        &agent,
        "release_task",
        json!({"agent": "w1", "task_id": task, "status": "completed", "note": "all green"}),
    )
    .await;
    let before = ok(&agent, "team_board", json!({})).await;
    let url = server.base();
    let wrong = [
        ("PLANNING_SERVER_AUTH_TOKEN", "guessed"),
        ("USER", "mallory"),
    ];
    let none = [("USER", "mallory")];
    let writes: [&[&str]; 4] = [
        &["review", "approve", &task],
        &["review", "reject", &task, "--reason", "x"],
        &["status", &task, "pending"],
        &["add", "Lexer"],
    ];
    for args in writes {
        for (envs, says) in [
            (&wrong[..], "refused the token"),
            (&none[..], "wants a token"),
        ] {
            let (code, out, err) = served(&dir, url, args, envs).await;
            assert_eq!((code, out.as_str()), (6, ""), "{args:?}: {err}");
            assert!(
                err.starts_with(&format!(
                    "planning-mcp-server: {url} {says}: set PLANNING_SERVER_AUTH_TOKEN"
                )),
                "{args:?}: {err}"
            );
            assert!(!err.contains("guessed"), "the token is never shown: {err}");
        }
    }
    assert_eq!(ok(&agent, "team_board", json!({})).await, before);

    // An unknown board, an unknown task: their own statuses.
    let (code, out, err) = served(&dir, url, &["add", "Lexer", "--board", "other"], &[TOKEN]).await;
    assert_eq!((code, out.as_str()), (3, ""), "{err}");
    assert!(err.contains("no board other yet"), "{err}");
    let (code, _, err) = served(
        &dir,
        url,
        &["review", "approve", "0badc0de", "--by", "ada"],
        &[TOKEN],
    )
    .await;
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("No task has the ID '0badc0de'"), "{err}");
    assert_eq!(ok(&agent, "team_board", json!({})).await, before);

    // Nothing listens: exit status 5, at once.
    let down = format!("http://127.0.0.1:{}", free_port());
    let approve = ["review", "approve", &task, "--by", "ada"];
    let (code, out, err) = served(&dir, &down, &approve, &[TOKEN]).await;
    assert_eq!((code, out.as_str()), (5, ""), "{err}");
    assert!(err.contains(&format!("cannot reach {down}")), "{err}");
    let (code, _, err) = served(&dir, &down, &["list"], &[TOKEN]).await;
    assert_eq!(code, 5, "{err}");
    // The agent still holds no path to approve: its own attempt is refused.
    let (refused, text) = call(
        &agent,
        "update_task_statuses",
        json!({"tasks": [{"task_id": task, "status": "completed"}]}),
    )
    .await;
    assert!(
        refused && text.contains("awaits a person's review"),
        "{text}"
    );
}
