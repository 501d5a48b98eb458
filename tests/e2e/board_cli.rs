// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server board list|add|edit|status|goal` (docs/review.md,
//! "The board from a terminal"): the real binary on a file board, its
//! output a script reads (the ID alone, `--json`), its exit statuses, and a
//! refusal that changes nothing.

use crate::common::{HttpServer, file_storage, id, run_binary};

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
async fn a_refused_change_exits_1_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    board(&dir, &["add", "Parser"]).await;
    board(&dir, &["goal", "Ship"]).await;
    let before = stored(&dir);
    let parser = id("Parser");
    let refusals: [(&[&str], &str); 6] = [
        (&["status", &parser, "done"], "'done' is not a status"),
        (
            &["status", &parser, "awaiting_review"],
            "awaiting_review is not set by hand",
        ),
        (
            &["status", "0badc0de", "completed"],
            "No task has the ID '0badc0de'",
        ),
        (
            &["edit", &parser],
            "Give a new title, a new description, or both.",
        ),
        (&["edit", &parser, "--title", " "], "must not be blank"),
        (
            &["goal", "Ship more"],
            "a goal is set (**Goal:** Ship): give --reason TEXT",
        ),
    ];
    for (args, says) in refusals {
        let (code, out, err) = board_with(&dir, args, &[]).await;
        assert_eq!((code, out.as_str()), (1, ""), "{args:?}: {err}");
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
    assert_eq!(code, 1);
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
    assert_eq!((code, out.as_str()), (1, ""));
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
