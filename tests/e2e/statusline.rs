// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! `planning-mcp-server statusline`: the stored board in one line, found
//! from the session directory Claude Code hands it on stdin, or from its
//! own directory; and `setup claude-code --statusline`, which writes the
//! setting that `doctor` then runs.

use crate::common;
use crate::common::{id, ok, stdio_client};
use crate::team::TEAM;

use std::process::Stdio;

use serde_json::json;
use tokio::io::AsyncWriteExt;

/// Runs `statusline` in `dir` with `args`, `stdin` written to it (none:
/// stdin closed); exit code and stdout (stderr when it fails).
async fn statusline(dir: &tempfile::TempDir, args: &[&str], stdin: Option<&str>) -> (i32, String) {
    let mut child = common::command(dir)
        .arg("statusline")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).await.unwrap();
    }
    drop(input);
    let output = common::within_hang("statusline", child.wait_with_output())
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let code = output.status.code().unwrap_or(-1);
    match code {
        0 => {
            assert!(stderr.is_empty(), "{stderr}");
            (code, String::from_utf8(output.stdout).unwrap())
        }
        // A status bar shows nothing; the reason is on stderr.
        _ => {
            assert!(output.stdout.is_empty());
            (code, stderr.into_owned())
        }
    }
}

#[tokio::test]
async fn the_line_of_the_board_in_claude_codes_session_directory() {
    let project = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = TEAM.iter().map(|s| s.to_string()).collect();
    args.extend(["--storage".into(), "file".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let elsewhere = tempfile::tempdir().unwrap();
    let claude = json!({
        "session_id": "abc",
        "cwd": project.path(),
        "model": {"id": "claude-opus", "display_name": "Opus"},
        "workspace": {"current_dir": project.path(), "project_dir": project.path()},
    })
    .to_string();
    let mut lines = Vec::new();
    // Nothing stored yet.
    lines.push(statusline(&elsewhere, &["--storage", "file"], Some(&claude)).await);

    let client = stdio_client(&project, &args, &[]).await;
    let tasks: Vec<_> = ["Parser", "Lexer", "CLI", "Docs"]
        .iter()
        .map(|t| json!({"title": t}))
        .collect();
    ok(&client, "add_tasks", json!({"tasks": tasks})).await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "worker-1", "task_id": id("Parser")}),
    )
    .await;
    ok(
        &client,
        "claim_task",
        json!({"agent": "worker-2", "task_id": id("Lexer")}),
    )
    .await;
    ok(
        &client,
        "update_task_statuses",
        json!({"tasks": [
            {"task_id": id("CLI"), "status": "completed"},
            {"task_id": id("Docs"), "status": "failed"},
        ]}),
    )
    .await;
    client.cancel().await.unwrap();

    // From Claude Code's JSON: the session's directory, wherever it runs.
    lines.push(statusline(&elsewhere, &["--storage", "file"], Some(&claude)).await);
    // In the project itself, stdin empty or not read.
    lines.push(statusline(&project, &["--storage", "file"], Some("")).await);
    lines.push(statusline(&project, &["--storage", "file", "--no-stdin"], None).await);
    // A named board is named.
    lines.push(statusline(&project, &["--storage", "file", "--board", "release"], None).await);
    // Without a stored board to read: an error, exit status 1.
    lines.push(statusline(&project, &[], None).await);
    let shown: Vec<String> = lines
        .iter()
        .map(|(code, out)| format!("{code}: {out}"))
        .collect();
    insta::assert_snapshot!(shown.join(""));
}

#[tokio::test]
async fn setup_writes_the_status_line_and_doctor_runs_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = format!(
        "{}:{}",
        std::path::Path::new(common::BIN)
            .parent()
            .unwrap()
            .display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let env = [("PATH", path.as_str())];
    let (code, out, err) =
        common::run_binary(&dir, &["setup", "claude-code", "--statusline"], &env).await;
    assert_eq!(code, 0, "{err}");
    let settings = dir.path().join(".claude/settings.json");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(
        written["statusLine"],
        json!({"type": "command", "command": "planning-mcp-server statusline --storage file", "padding": 0})
    );
    assert!(
        out.contains("set statusLine, which runs `planning-mcp-server statusline --storage file`"),
        "{out}"
    );
    // Again: nothing changes.
    let (_, again, _) =
        common::run_binary(&dir, &["setup", "claude-code", "--statusline"], &env).await;
    assert!(again.contains("statusLine is set up already"), "{again}");
    let (_, doctor, _) = common::run_binary(&dir, &["doctor", "claude-code"], &env).await;
    assert!(
        doctor.contains(
            "statusLine `planning-mcp-server statusline --storage file` exits 0 and prints `board default: none stored`"
        ),
        "{doctor}"
    );
    // A status line of someone else's is never replaced.
    std::fs::write(
        &settings,
        r#"{"statusLine": {"type": "command", "command": "~/.claude/mine.sh"}}"#,
    )
    .unwrap();
    let (code, _, err) =
        common::run_binary(&dir, &["setup", "claude-code", "--statusline"], &env).await;
    assert_eq!(code, 1);
    assert!(
        err.contains("has a statusLine that setup did not write"),
        "{err}"
    );
    // --remove takes out only ours.
    std::fs::write(
        &settings,
        r#"{"statusLine": {"type": "command", "command": "planning-mcp-server statusline --storage file"}, "theme": "dark"}"#,
    )
    .unwrap();
    let (code, out, err) =
        common::run_binary(&dir, &["setup", "claude-code", "--remove"], &env).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("removed statusLine"), "{out}");
    let left: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(left, json!({"theme": "dark"}));
}
