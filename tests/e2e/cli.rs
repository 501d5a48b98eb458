// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The command line: --generate-config, --version, and start-up refusals.

use crate::common;

use std::process::Output;

use tempfile::TempDir;

async fn run(dir: &TempDir, args: &[&str], env: &[(&str, &str)]) -> Output {
    let child = common::command(dir)
        .args(args)
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output();
    common::within_hang("the binary's exit", child)
        .await
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[tokio::test]
async fn list_toolsets_prints_the_registry() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&dir, &["--list-toolsets"], &[]).await;
    assert!(output.status.success(), "{}", stderr(&output));
    let listed: Vec<String> = planning_mcp_server::api::toolsets::names()
        .map(|name| format!("{name}\n"))
        .collect();
    assert_eq!(String::from_utf8_lossy(&output.stdout), listed.concat());
    assert!(listed.concat().starts_with("planning\nplans\n"));
}

#[tokio::test]
async fn generate_config_writes_the_example_file_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&dir, &["--generate-config"], &[]).await;
    assert!(output.status.success(), "{}", stderr(&output));
    let written = std::fs::read_to_string(dir.path().join("planning-mcp-server.toml")).unwrap();
    let shipped = include_str!("../../config/planning-mcp-server.toml");
    assert_eq!(
        written, shipped,
        "byte-identical to config/planning-mcp-server.toml"
    );
    insta::assert_snapshot!("generated_config", written);

    std::fs::write(dir.path().join("planning-mcp-server.toml"), "# mine\n").unwrap();
    let again = run(&dir, &["--generate-config"], &[]).await;
    assert!(!again.status.success());
    assert!(
        stderr(&again).contains("already exists"),
        "{}",
        stderr(&again)
    );
    let kept = std::fs::read_to_string(dir.path().join("planning-mcp-server.toml")).unwrap();
    assert_eq!(kept, "# mine\n");
}

#[tokio::test]
async fn the_generated_file_is_picked_up_from_the_working_directory() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&dir, &["--generate-config"], &[]).await;
    assert!(output.status.success());
    let path = dir.path().join("planning-mcp-server.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("port = 8080", "port = 99999");
    std::fs::write(&path, text).unwrap();
    let output = run(&dir, &["--mode", "http"], &[]).await;
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("server.port (from the config file"),
        "{message}"
    );
    assert!(message.contains("planning-mcp-server.toml"), "{message}");
}

#[tokio::test]
async fn bad_values_stop_start_up_naming_key_and_source() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&dir, &[], &[("PLANNING_SERVER_MODE", "tcp")]).await;
    assert_eq!(output.status.code(), Some(1));
    let message = stderr(&output);
    assert!(
        message.contains("server.mode (from the environment variable PLANNING_SERVER_MODE)"),
        "{message}"
    );
    assert!(output.stdout.is_empty());

    let output = run(&dir, &["--port", "70000"], &[]).await;
    assert!(!output.status.success());
    assert!(stderr(&output).contains("--port"), "{}", stderr(&output));

    let output = run(&dir, &["--mode", "tcp"], &[]).await;
    assert!(!output.status.success());
    assert!(stderr(&output).contains("--mode"), "{}", stderr(&output));

    let output = run(&dir, &["--config", "nowhere.toml"], &[]).await;
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("nowhere.toml"),
        "{}",
        stderr(&output)
    );
}

#[tokio::test]
async fn a_syntax_error_in_the_config_file_never_quotes_a_password() {
    let dir = tempfile::tempdir().unwrap();
    // The string is not closed: the parser stops on the `url` line.
    std::fs::write(
        dir.path().join("bad.toml"),
        "[storage]\nbackend = \"postgres\"\nurl = \"postgres://planner:s3cret-pw@db.example/planning\n",
    )
    .unwrap();
    let output = run(&dir, &["--config", "bad.toml"], &[]).await;
    let stderr = stderr(&output);
    assert!(!output.status.success(), "{stderr}");
    assert!(!stderr.contains("s3cret-pw"), "{stderr}");
    assert!(stderr.contains("bad.toml"), "{stderr}");
    assert!(stderr.contains("line 3"), "{stderr}");
}

#[tokio::test]
async fn version_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&dir, &["--version"], &[]).await;
    assert!(output.status.success());
    // The version, then the commit built from (a debug build says it
    // records none: build.rs).
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!(
            "planning-mcp-server {} (commit not recorded in debug builds)\n",
            env!("CARGO_PKG_VERSION")
        )
    );
    let output = run(&dir, &["--help"], &[]).await;
    let help = String::from_utf8(output.stdout).unwrap();
    for flag in [
        "--mode",
        "--host",
        "--port",
        "--config",
        "--log-level",
        "--board",
        "--toolsets",
        "--storage",
        "--storage-dir",
        "--plans-root",
        "--plans-dir",
        "--generate-config",
        "--version",
        "--help",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

#[tokio::test]
async fn an_address_in_use_is_a_clear_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let dir = tempfile::tempdir().unwrap();
    let output = run(
        &dir,
        &["--mode", "http", "--host", "127.0.0.1", "--port", &port],
        &[],
    )
    .await;
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("planning-mcp-server:"), "{message}");
    assert!(message.to_lowercase().contains("address"), "{message}");
}

/// Where a test sends a program's standard output.
#[derive(Debug, Clone, Copy)]
enum Sink {
    /// A pipe whose reader is gone: every write fails with `EPIPE`, as
    /// with `| head -c0`.
    ClosedPipe,
    /// `/dev/full`: every write fails with `ENOSPC`.
    Full,
}

impl Sink {
    fn stdio(self) -> std::process::Stdio {
        match self {
            Sink::ClosedPipe => {
                let (reader, writer) = std::io::pipe().unwrap();
                drop(reader);
                writer.into()
            }
            Sink::Full => std::fs::File::create("/dev/full").unwrap().into(),
        }
    }
}

/// Runs `program` with `args` in `dir`, its stdout into `sink`.
async fn run_into(program: &str, dir: &TempDir, args: &[&str], sink: Sink) -> Output {
    let mut command = tokio::process::Command::new(program);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PLANNING_") {
            command.env_remove(key);
        }
    }
    let child = command
        .args(args)
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(sink.stdio())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        // Not `output()`: it would pipe stdout.
        .spawn()
        .unwrap()
        .wait_with_output();
    common::within_hang("the binary's exit", child)
        .await
        .unwrap()
}

#[tokio::test]
async fn output_that_cannot_be_written_is_exit_status_1_never_a_panic() {
    const LTP: &str = env!("CARGO_BIN_EXE_long-term-plan");
    const LTP_MCP: &str = env!("CARGO_BIN_EXE_long-term-plan-mcp");
    let store = tempfile::tempdir().unwrap();
    let store = store.path().display().to_string();
    let summary = ["summary", "--storage", "file", "--storage-dir", &store];
    let runs: [(&str, &str, &[&str]); 9] = [
        (common::BIN, "planning-mcp-server", &summary),
        (common::BIN, "planning-mcp-server", &["summary", "--help"]),
        (common::BIN, "planning-mcp-server", &["--help"]),
        (common::BIN, "planning-mcp-server", &["--version"]),
        (common::BIN, "planning-mcp-server", &["--generate-config"]),
        (LTP, "long-term-plan", &["--help"]),
        (LTP, "long-term-plan", &["plan", "list"]),
        (LTP_MCP, "long-term-plan-mcp", &["--help"]),
        (LTP_MCP, "long-term-plan-mcp", &["--version"]),
    ];
    for sink in [Sink::ClosedPipe, Sink::Full] {
        for (program, name, args) in runs {
            let dir = tempfile::tempdir().unwrap();
            let output = run_into(program, &dir, args, sink).await;
            let stderr = stderr(&output);
            let what = format!("{name} {args:?} into {sink:?}: {stderr}");
            assert_eq!(output.status.code(), Some(1), "{what}");
            let reason = match sink {
                Sink::ClosedPipe => "Broken pipe",
                Sink::Full => "No space left on device",
            };
            assert!(
                stderr.starts_with(&format!(
                    "{name}: cannot write to standard output: {reason}"
                )),
                "{what}"
            );
            assert!(!stderr.contains("panicked"), "{what}");
        }
    }
}

#[tokio::test]
async fn summary_lists_and_takes_only_its_own_flags() {
    let dir = tempfile::tempdir().unwrap();
    let output = run(&dir, &["summary", "--help"], &[]).await;
    assert!(output.status.success(), "{}", stderr(&output));
    let help = String::from_utf8(output.stdout).unwrap();
    insta::assert_snapshot!("summary_help", help);
    for flag in [
        "--mode",
        "--port",
        "--host",
        "--toolsets",
        "--log-level",
        "--plans-root",
    ] {
        assert!(!help.contains(flag), "{flag} in:\n{help}");
        // Refused, not ignored: after the subcommand and before it.
        for args in [vec!["summary", flag, "x"], vec![flag, "x", "summary"]] {
            let output = run(&dir, &args, &[]).await;
            assert_eq!(output.status.code(), Some(2), "{args:?}");
            assert!(
                stderr(&output).contains(flag),
                "{args:?}: {}",
                stderr(&output)
            );
        }
    }
}
