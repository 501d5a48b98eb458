// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Every block of README.md and docs/*.md that a user would copy runs as
//! written. The test walks the pages, takes each fenced block labelled
//! `sh`, `toml` or `json`, and for each:
//!
//! - `sh`: runs every command (comments stripped, `\` continuations
//!   joined) through `sh -c`, in a fresh project (a git repository) with
//!   its own HOME and the built binaries first on `PATH`. A server started
//!   in stdio mode must answer `initialize` and `tools/list` through the
//!   rmcp client; one in HTTP mode the same over HTTP, and it runs on for
//!   the block's later lines (`summary --url`, `claude mcp add --transport
//!   http`) until the block ends. `claude mcp add NAME -- CMD` runs CMD as
//!   the client would and checks it speaks MCP; `--transport http URL`
//!   checks URL. Other commands (`summary`, `board`, `setup`, `doctor`,
//!   `long-term-plan`) must exit 0.
//! - `toml`: written to the project's `planning-mcp-server.toml`, where the
//!   server looks first; the server, started with no flag, must load it
//!   (the real config loader refuses an unknown key or a bad value) and
//!   speak MCP. A Codex `config.toml` (`[mcp_servers.NAME]`) has its
//!   servers started as Codex would.
//! - `json`: parsed; an MCP client's `mcpServers` (VS Code: `servers`)
//!   entry is started as the client would (command, args, env) and must
//!   speak MCP; Claude Code
//!   `hooks` run their commands, which must exit 0 in a project whose board
//!   is not stored yet; a board snapshot is loaded by the file store.
//!
//! The adjustments a real run needs, and no more: port 8080 becomes a free
//! port (other tests and users share the machine), `~` is the test's HOME,
//! and the pages' placeholders ([`PLACEHOLDERS`]) become the test's
//! project. A command that cannot run here is listed in [`SKIPPED`] with
//! the reason, in one table; a listed command that no page holds any more
//! fails the test, and so does a block of an unknown language.

use crate::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;

use parking_lot::Mutex;
use rmcp::ServiceExt;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Commands that do not run here: (page, command as written, why).
const SKIPPED: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "cargo run --release -- --mode http",
        ".ci/run runs it as written, until it answers initialize (it builds the release binary: minutes)",
    ),
    (
        "README.md",
        "claude mcp add planning -- npx -y planning-mcp-server",
        "the npm registry holds the package only after a release: scripts/packages.sh runs this line as written in a project where the tarballs packed from this commit are installed",
    ),
    (
        "README.md",
        "claude mcp add planning -- uvx planning-mcp-server",
        "PyPI holds the package only after a release: scripts/packages.sh runs this line as written with uv pointed at the wheel built from this commit",
    ),
    (
        "README.md",
        "pipx install planning-mcp-server",
        "PyPI holds the package only after a release: scripts/packages.sh runs this line as written with pip pointed at the wheel built from this commit",
    ),
    (
        "README.md",
        "curl --proto '=https' --tlsv1.2 -LsSf https://github.com/planning-mcp-server/planning-mcp-server/releases/latest/download/planning-mcp-server-installer.sh | sh",
        "downloads a release: scripts/packages.sh runs the installer dist build generates, pointed at the archive built from this commit",
    ),
    (
        "README.md",
        "cargo binstall planning-mcp-server",
        "needs cargo-binstall and a release: Cargo.toml's [package.metadata.binstall] names the archives that scripts/packages.sh builds and installs",
    ),
    (
        "README.md",
        "cargo install --locked planning-mcp-server",
        "crates.io holds the crate only after a release: scripts/packages.sh builds the .crate cargo would download and runs its unit tests",
    ),
    (
        "README.md",
        "cargo install --locked --path .",
        "builds the release profile (minutes): .ci/run's README run command builds the same binary",
    ),
    (
        "README.md",
        "cargo test",
        "the test suite this test is part of",
    ),
    (
        "README.md",
        "cargo bench",
        "minutes of criterion runs; clippy --all-targets in .ci/run builds every bench",
    ),
    (
        "README.md",
        "scripts/install-peers.sh && cargo bench --bench e2e --features e2e-bench",
        "installs the peer servers from the network and runs for many minutes",
    ),
    (
        "docs/performance.md",
        "scripts/floor.sh",
        ".ci/run runs it as written, last (it builds the release server and the floor: minutes)",
    ),
    (
        "docs/setup.md",
        "export PLANNING_AGENT_CLIS=$(scripts/agent-clis.sh)",
        ".ci/run runs the script and exports its answer (it installs three agents from npm: 750 MB)",
    ),
    (
        "docs/setup.md",
        "PLANNING_REQUIRE_AGENT_CLIS=1 cargo test --test e2e setup::the_agents",
        "a test of the suite this test is part of; .ci/run requires the agents' CLIs",
    ),
    (
        "docs/commit.md",
        "git grep --heading --break -e '' refs/commit-plan/main:history",
        "needs a plan written ten times: commit_git_habits::commit_git_the_plan_history_is_read_with_one_command runs it as written",
    ),
    (
        "docs/commit.md",
        "git add -A",
        "needs a finished plan and its work: commit_job runs the Next line's staging and commit as the reply writes them",
    ),
    (
        "docs/commit.md",
        "git cat-file blob refs/commit-plan/main:plan | git commit --cleanup=verbatim --file=-",
        "needs a finished plan in refs/commit-plan/main: commit_job runs this pipeline after a whole job on git",
    ),
    (
        "docs/http.md",
        "claude mcp add --transport http planning http://plan.internal:8080/mcp --header \"Authorization: Bearer $PLANNING_TOKEN\"",
        "names a server on another host, behind a token; http.rs tests the token check",
    ),
    (
        "docs/plans.md",
        "claude mcp remove long-term-plan",
        "changes only the client's list of servers; nothing of ours runs",
    ),
    (
        "docs/team.md",
        "exec planning-mcp-server check-touches --storage file --strict",
        "a git hook: team_touches::check_touches_reports_staged_files_inside_other_agents_reservations installs it in a real git repository and commits through it, the agent in PLANNING_AGENT",
    ),
    (
        "docs/review.md",
        "planning-mcp-server board review approve 669924fd --storage file",
        "needs a stored board whose task awaits review: review::a_completion_waits_and_the_agent_cannot_approve_it runs it on one",
    ),
    (
        "docs/review.md",
        "planning-mcp-server board review reject 669924fd --reason \"the tests skip the lexer\" --storage file",
        "needs a stored board whose task awaits review: review::a_rejection_reaches_the_next_claimant runs it on one",
    ),
    (
        "docs/review.md",
        "planning-mcp-server board note 669924fd \"use the v2 lexer API\" --storage file",
        "needs a stored board with that task: review::a_note_reaches_the_holder_once runs it on one",
    ),
    (
        "docs/review.md",
        "planning-mcp-server board note \"stop after the parser; the release is tomorrow\" --storage file",
        "needs a stored board: review::a_note_reaches_the_holder_once leaves a board note on one",
    ),
    (
        "docs/web.md",
        "just run",
        "needs just, which CI does not install; the recipe is the README's cargo run command with --storage file",
    ),
    (
        "docs/deploy.md",
        "export PLANNING_STORAGE_URL='postgres://planning:secret@db.example:5432/planning'",
        "names a database on another host: postgres_proxy.rs starts the replicas below on a database of its own",
    ),
    (
        "docs/deploy.md",
        "planning-mcp-server --mode http --port 8081 --storage postgres --toolsets planning,team",
        "needs the database above: postgres_proxy.rs runs two such replicas behind this page's HAProxy configuration",
    ),
    (
        "docs/deploy.md",
        "planning-mcp-server --mode http --port 8082 --storage postgres --toolsets planning,team",
        "needs the database above: postgres_proxy.rs runs two such replicas behind this page's HAProxy configuration",
    ),
    (
        "docs/storage.md",
        "export PLANNING_STORAGE_URL='postgres://planning:secret@db.example:5432/planning'",
        "names a database on another host: postgres.rs's moves test runs import and export on a database of its own",
    ),
    (
        "docs/storage.md",
        "planning-mcp-server import --storage postgres .planning-mcp-server/default.json",
        "needs the database above and a board file: postgres::boards_move_between_a_file_and_the_database_byte_for_byte",
    ),
    (
        "docs/storage.md",
        "planning-mcp-server export --storage postgres --board default --output backup.json",
        "needs the database above: postgres::boards_move_between_a_file_and_the_database_byte_for_byte",
    ),
    (
        "docs/workflow.md",
        "mv .ai/task \".ai/done-$(date +%Y-%m-%d-%H%M%S)\"",
        "needs a finished job: workflow_new_work_after_achieve_complete runs it as written after one",
    ),
];

/// The database the pages' PostgreSQL examples name: a `toml` block that
/// holds it runs against a cluster of the test's own (`common::postgres`),
/// this URL replaced by the cluster's.
const DOC_DATABASE: &str = "postgres://planning:secret@db.example:5432/planning";

/// Placeholders of the pages and what they become here: `{project}` is
/// the test's project, `{secret}` a file holding a token.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("/home/you/.cargo/bin/", ""),
    ("/path/to/project", "{project}"),
    ("/home/you/src/project", "{project}"),
    ("/run/secrets/planning", "{secret}"),
];

/// Labels of blocks that are not commands or configuration: output,
/// file contents, diagrams.
const NOT_COMMANDS: &[&str] = &["", "text", "markdown", "md", "mermaid", "haproxy"];

/// A fenced block of a page.
struct Block {
    page: String,
    line: usize,
    lang: String,
    body: String,
}

/// The pages: README.md and docs/*.md.
fn pages() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = vec!["README.md".to_owned()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(root.join(&name)).unwrap();
            (name, text)
        })
        .collect()
}

/// The fenced blocks of `text` (backticks or tildes, three or more,
/// indented or not), the indentation of the fence removed from the body.
fn blocks(page: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let fence_char = trimmed.chars().next();
        let fence_len = match fence_char {
            Some(c @ ('`' | '~')) => trimmed.chars().take_while(|x| *x == c).count(),
            _ => 0,
        };
        if fence_len < 3 {
            i += 1;
            continue;
        }
        let fence: String = trimmed[..fence_len].to_owned();
        let lang = trimmed[fence_len..]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_owned();
        let mut body = Vec::new();
        let mut j = i + 1;
        while j < lines.len() {
            let inner = lines[j].trim_start();
            if inner.starts_with(&fence)
                && inner
                    .trim_start_matches(fence_char.unwrap())
                    .trim()
                    .is_empty()
            {
                break;
            }
            let cut = lines[j]
                .char_indices()
                .take_while(|(n, c)| *n < indent && c.is_whitespace())
                .count();
            body.push(&lines[j][cut..]);
            j += 1;
        }
        found.push(Block {
            page: page.to_owned(),
            line: i + 1,
            lang,
            body: body.join("\n"),
        });
        i = j + 1;
    }
    found
}

/// `line` without its comment: from a `#` at the start or after a blank,
/// outside quotes.
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && previous.is_whitespace() => {
                return line[..at].trim_end();
            }
            _ => {}
        }
        previous = c;
    }
    line.trim_end()
}

/// The commands of a `sh` block: continuations joined, comments and blank
/// lines dropped, but for a comment `# or: COMMAND`, an alternative the
/// reader copies as well.
fn commands(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in body.lines() {
        let line = line.trim_start().strip_prefix("# or: ").unwrap_or(line);
        let line = strip_comment(line);
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head.trim_end());
                current.push(' ');
            }
            None => {
                current.push_str(line.trim_start());
                let command = std::mem::take(&mut current);
                let command = command.trim();
                if !command.is_empty() {
                    out.push(command.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            }
        }
    }
    out
}

/// Whether `word` is a `NAME=value` assignment of the environment.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
    })
}

/// The words of `command` after its leading `NAME=value` assignments.
fn program_words(command: &str) -> Vec<&str> {
    command
        .split_whitespace()
        .skip_while(|w| is_assignment(w))
        .collect()
}

/// A project to run one block in: a git repository with its own HOME, the
/// built binaries first on `PATH`, and the processes the block started.
struct Project {
    _temp: tempfile::TempDir,
    dir: PathBuf,
    home: PathBuf,
    secret: PathBuf,
    servers: Vec<Child>,
    /// The last HTTP server's base URL, e.g. `http://localhost:40123`.
    http: Option<String>,
}

impl Project {
    fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("project");
        let home = temp.path().join("home");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let secret = temp.path().join("secret");
        std::fs::write(&secret, "a-long-random-test-token\n").unwrap();
        let git = std::process::Command::new("git")
            .args(["init", "-q", "-b", "main"])
            .current_dir(&dir)
            .env("HOME", &home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(git.status.success(), "{git:?}");
        Self {
            _temp: temp,
            dir,
            home,
            secret,
            servers: Vec::new(),
            http: None,
        }
    }

    /// The pages' placeholders replaced in `text`.
    fn fill(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (placeholder, value) in PLACEHOLDERS {
            let value = value
                .replace("{project}", &self.dir.display().to_string())
                .replace("{secret}", &self.secret.display().to_string());
            text = text.replace(placeholder, &value);
        }
        text
    }

    /// A process in the project: clean `PLANNING_*` environment, HOME, the
    /// binaries on `PATH`, killed when dropped.
    fn command(&self, program: &str) -> Command {
        let bins = Path::new(common::BIN).parent().unwrap();
        let path = format!(
            "{}:{}",
            bins.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut command = Command::new(program);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("PLANNING_") {
                command.env_remove(key);
            }
        }
        command
            .current_dir(&self.dir)
            .env("HOME", &self.home)
            .env("PATH", path)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .kill_on_drop(true);
        command
    }

    /// `sh -c 'NAME=value … exec COMMAND'`: the shell gives way to the
    /// command, so the process is the command's own.
    fn shell(&self, command: &str) -> Command {
        let mut rest = command.trim_start();
        let mut assignments = String::new();
        while let Some((word, tail)) = rest.split_once(' ') {
            if !is_assignment(word) {
                break;
            }
            assignments.push_str(word);
            assignments.push(' ');
            rest = tail.trim_start();
        }
        let mut shell = self.command("sh");
        shell.args(["-c", &format!("{assignments}exec {rest}")]);
        shell
    }

    /// Starts a stdio server with `command` and checks it speaks MCP.
    async fn stdio(&self, command: Command) -> Result<String, String> {
        let log = self.dir.join(".stderr.log");
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let stderr = || std::fs::read_to_string(&log).unwrap_or_default();
        let client = tokio::time::timeout(common::HANG, ().serve(transport))
            .await
            .map_err(|_| {
                format!(
                    "no answer to initialize within {:?}; stderr: {}",
                    common::HANG,
                    stderr()
                )
            })?
            .map_err(|e| format!("initialize failed ({e}); stderr: {}", stderr()))?;
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| format!("tools/list failed: {e}"))?;
        let _ = client.cancel().await;
        match tools.len() {
            0 => Err("it lists no tool".into()),
            n => Ok(format!("stdio MCP, {n} tools")),
        }
    }

    /// Starts an HTTP server with `command` (its port made free), waits
    /// for its URL, checks it speaks MCP and keeps it for the block.
    async fn http(&mut self, command: &str) -> Result<String, String> {
        let mut shell = self.shell(&command.replace("--port 8080", "--port 0"));
        if !command.contains("--port") {
            shell.env("PLANNING_SERVER_PORT", "0");
        }
        shell
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = shell.spawn().map_err(|e| format!("cannot start: {e}"))?;
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let url = tokio::time::timeout(common::HANG, async {
            while let Ok(Some(line)) = lines.next_line().await {
                seen.lock().push(line.clone());
                if let Some(url) = common::listening_url(&line) {
                    return Some(url);
                }
            }
            None
        })
        .await
        .ok()
        .flatten()
        .ok_or_else(|| format!("it did not start listening: {:?}", seen.lock()))?;
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        self.servers.push(child);
        self.http = Some(url.trim_end_matches("/mcp").to_owned());
        check_http(&url).await
    }

    /// Runs `command` to the end; it must exit 0.
    async fn run(&self, command: &str) -> Result<String, String> {
        let command = self.localhost(command)?;
        let mut shell = self.shell(&command);
        shell.stdin(Stdio::null());
        let output = tokio::time::timeout(common::HANG, shell.output())
            .await
            .map_err(|_| format!("still running after {:?}", common::HANG))?
            .map_err(|e| format!("cannot start: {e}"))?;
        match output.status.success() {
            true => Ok(format!("exit 0, {} bytes out", output.stdout.len())),
            false => Err(format!(
                "{}: {}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )),
        }
    }

    /// Makes the project a git repository (once; `git init` again is harmless).
    async fn git_init(&self) -> Result<(), String> {
        let output = tokio::time::timeout(
            common::HANG,
            Command::new("git")
                .args(["init", "-q"])
                .current_dir(&self.dir)
                .env("HOME", &self.home)
                .stdin(Stdio::null())
                .output(),
        )
        .await
        .map_err(|_| format!("git init still running after {:?}", common::HANG))?
        .map_err(|e| format!("cannot start git: {e}"))?;
        match output.status.success() {
            true => Ok(()),
            false => Err(format!(
                "git init: {}",
                String::from_utf8_lossy(&output.stderr)
            )),
        }
    }

    /// `localhost:8080` in `text` pointed at the block's HTTP server.
    fn localhost(&self, text: &str) -> Result<String, String> {
        if !text.contains("localhost:8080") {
            return Ok(text.to_owned());
        }
        let base = self
            .http
            .as_ref()
            .ok_or("it names localhost:8080, but no server of the block runs there")?;
        Ok(text.replace("http://localhost:8080", base))
    }

    /// Stops the block's servers.
    async fn stop(&mut self) {
        for mut child in self.servers.drain(..) {
            let _ = child.kill().await;
        }
        self.http = None;
    }
}

/// Checks that the MCP endpoint `url` answers `initialize` and `tools/list`.
async fn check_http(url: &str) -> Result<String, String> {
    let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
    let client = tokio::time::timeout(common::HANG, ().serve(transport))
        .await
        .map_err(|_| format!("{url}: no answer to initialize within {:?}", common::HANG))?
        .map_err(|e| format!("{url}: initialize failed: {e}"))?;
    let tools = client
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list failed: {e}"))?;
    let _ = client.cancel().await;
    Ok(format!("HTTP MCP, {} tools", tools.len()))
}

/// What was done with one command or block, for the report.
struct Outcome {
    place: String,
    what: String,
    result: Result<String, String>,
}

/// Runs one command of a `sh` block.
async fn run_command(project: &mut Project, command: &str) -> Result<String, String> {
    let words = program_words(command);
    let http_mode =
        command.contains("--mode http") || command.contains("PLANNING_SERVER_MODE=http");
    match words.as_slice() {
        ["claude", "mcp", "add", rest @ ..] => match command.split_once(" -- ") {
            Some((_, server)) => project.stdio(project.shell(server)).await,
            None => {
                let url = rest
                    .iter()
                    .find(|w| w.starts_with("http://"))
                    .ok_or("a claude mcp add line with neither -- nor a URL")?;
                check_http(&project.localhost(url)?).await
            }
        },
        ["planning-mcp-server" | "long-term-plan-mcp", rest @ ..] if rest.contains(&"summary") => {
            project.run(command).await
        }
        ["planning-mcp-server", "setup" | "doctor", ..] => project.run(command).await,
        // A block of `board` commands works on one stored board, line by line.
        ["planning-mcp-server", "board", ..] => project.run(command).await,
        ["planning-mcp-server", "check-touches", ..] => {
            // It reads the staged files of the git repository it runs in.
            project.git_init().await?;
            project.run(command).await
        }
        ["planning-mcp-server" | "long-term-plan-mcp", ..] if http_mode => {
            project.http(command).await
        }
        ["planning-mcp-server" | "long-term-plan-mcp", ..] => {
            project.stdio(project.shell(command)).await
        }
        ["long-term-plan", ..] => project.run(command).await,
        _ => Err(
            "no rule runs this command: run it in this test, or list it in SKIPPED with the reason"
                .into(),
        ),
    }
}

/// Starts the server of an `mcpServers` entry as the client would.
async fn run_mcp_server(project: &Project, entry: &Value) -> Result<String, String> {
    let program = entry["command"].as_str().ok_or("no command")?;
    let program = project.fill(program);
    let mut command = project.command(&program);
    if let Some(args) = entry["args"].as_array() {
        for arg in args {
            command.arg(project.fill(arg.as_str().ok_or("an argument is not a string")?));
        }
    }
    if let Some(env) = entry["env"].as_object() {
        for (key, value) in env {
            command.env(
                key,
                project.fill(value.as_str().ok_or("an env value is not a string")?),
            );
        }
    }
    project.stdio(command).await
}

/// Runs the commands of Claude Code `hooks`.
async fn run_hooks(project: &Project, hooks: &Value) -> Vec<(String, Result<String, String>)> {
    let mut out = Vec::new();
    for (event, matchers) in hooks.as_object().into_iter().flatten() {
        for matcher in matchers.as_array().into_iter().flatten() {
            for hook in matcher["hooks"].as_array().into_iter().flatten() {
                let command = hook["command"].as_str().unwrap_or("");
                let result = match project.run(command).await {
                    Ok(done) if done.ends_with(" 0 bytes out") => {
                        Err("it printed nothing for the context".into())
                    }
                    other => other,
                };
                out.push((format!("{event} hook `{command}`"), result));
            }
        }
    }
    out
}

/// Loads a board snapshot through the file store of a server.
async fn load_snapshot(project: &Project, text: &str) -> Result<String, String> {
    let dir = project.dir.join(".planning-mcp-server");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("default.json"), text).unwrap();
    let log = project.dir.join(".stderr.log");
    let mut command = project.command("planning-mcp-server");
    command.args(["--storage", "file"]);
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let client = ().serve(transport).await.map_err(|e| {
        format!(
            "the server refused the snapshot ({e}): {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        )
    })?;
    let (is_error, tasks) = common::call(&client, "get_tasks", serde_json::json!({})).await;
    let _ = client.cancel().await;
    let snapshot: Value = serde_json::from_str(text).unwrap();
    let first = snapshot["tasks"][0]["title"].as_str().unwrap_or("");
    match !is_error && tasks.contains(first) {
        true => Ok(format!("loaded by the file store: {first}")),
        false => Err(format!("get_tasks does not show it: {tasks}")),
    }
}

/// Runs or parses one block; what it did, one outcome per command.
async fn check_block(block: &Block, used: &mut Vec<usize>) -> Vec<Outcome> {
    let place = format!("{}:{}", block.page, block.line);
    let outcome = |what: String, result| Outcome {
        place: place.clone(),
        what,
        result,
    };
    let mut project = Project::new();
    let mut out = Vec::new();
    match block.lang.as_str() {
        "sh" | "bash" | "shell" => {
            for command in commands(&block.body) {
                let skipped = SKIPPED
                    .iter()
                    .position(|(page, skip, _)| *page == block.page && *skip == command);
                if let Some(n) = skipped {
                    used.push(n);
                    out.push(outcome(command, Ok(format!("skipped: {}", SKIPPED[n].2))));
                    continue;
                }
                let filled = project.fill(&command);
                let result = run_command(&mut project, &filled).await;
                out.push(outcome(command, result));
            }
        }
        // Codex's config.toml: its servers are started as Codex would.
        "toml" if block.body.contains("[mcp_servers.") => {
            let table: toml::Table = toml::from_str(&project.fill(&block.body)).unwrap();
            let servers = serde_json::to_value(&table["mcp_servers"]).unwrap();
            for (name, entry) in servers.as_object().into_iter().flatten() {
                let result = run_mcp_server(&project, entry).await;
                out.push(outcome(format!("mcp_servers.{name}"), result));
            }
        }
        "toml" => {
            // A database example runs against a real one (kept until the end).
            let cluster = match block.body.contains(DOC_DATABASE) {
                true => common::postgres::Cluster::start_or_skip("doc block with a database"),
                false => None,
            };
            let body = match &cluster {
                Some(cluster) => block
                    .body
                    .replace(DOC_DATABASE, &cluster.database("planning")),
                None => block.body.clone(),
            };
            let text = project.fill(&body);
            std::fs::write(project.dir.join("planning-mcp-server.toml"), &text).unwrap();
            let result = project.stdio(project.shell("planning-mcp-server")).await;
            let first = block.body.lines().next().unwrap_or("").to_owned();
            out.push(outcome(
                format!("toml {first} … as planning-mcp-server.toml"),
                result,
            ));
        }
        "json" => {
            let parsed: Result<Value, _> = serde_json::from_str(&block.body);
            match parsed {
                Err(error) => out.push(outcome("json".into(), Err(format!("not JSON: {error}")))),
                Ok(value)
                    if value.get("mcpServers").is_some() || value.get("servers").is_some() =>
                {
                    // `servers`: VS Code's key.
                    let key = match value.get("mcpServers") {
                        Some(_) => "mcpServers",
                        None => "servers",
                    };
                    for (name, entry) in value[key].as_object().into_iter().flatten() {
                        let result = run_mcp_server(&project, entry).await;
                        out.push(outcome(format!("{key}.{name}"), result));
                    }
                }
                Ok(value) if value.get("hooks").is_some() => {
                    for (what, result) in run_hooks(&project, &value["hooks"]).await {
                        out.push(outcome(what, result));
                    }
                }
                Ok(value)
                    if value["format"] == "planning-mcp-server board"
                        && !block.body.contains('…') =>
                {
                    let result = load_snapshot(&project, &block.body).await;
                    out.push(outcome("board snapshot".into(), result));
                }
                Ok(_) => out.push(outcome(
                    "json".into(),
                    Ok("parsed (an example of output or data)".into()),
                )),
            }
        }
        lang if NOT_COMMANDS.contains(&lang) => {}
        lang => out.push(outcome(
            format!("a block labelled `{lang}`"),
            Err("unknown language: teach this test to run it, or label it as output".into()),
        )),
    }
    project.stop().await;
    out
}

#[tokio::test]
async fn every_block_a_user_would_copy_runs_as_written() {
    let mut outcomes = Vec::new();
    let mut used = Vec::new();
    for (page, text) in pages() {
        for block in blocks(&page, &text) {
            outcomes.extend(check_block(&block, &mut used).await);
        }
    }
    let mut report = String::new();
    let mut failures = Vec::new();
    for outcome in &outcomes {
        let (mark, detail) = match &outcome.result {
            Ok(done) => ("ok  ", done.as_str()),
            Err(why) => ("FAIL", why.as_str()),
        };
        let _ = writeln!(
            report,
            "{mark} {}  {}  ({detail})",
            outcome.place, outcome.what
        );
        if outcome.result.is_err() {
            failures.push(format!("{}  {}: {detail}", outcome.place, outcome.what));
        }
    }
    println!("{report}");
    for (n, (page, command, _)) in SKIPPED.iter().enumerate() {
        if !used.contains(&n) {
            failures.push(format!(
                "SKIPPED names `{command}` of {page}, which no block holds"
            ));
        }
    }
    let ran = outcomes
        .iter()
        .filter(|o| {
            o.result
                .as_ref()
                .is_ok_and(|r| !r.starts_with("skipped") && !r.starts_with("parsed"))
        })
        .count();
    assert!(ran >= 30, "only {ran} blocks or commands ran:\n{report}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn blocks_and_commands_are_read_as_a_user_reads_them() {
    let text = "Intro\n\n```sh\nplanning-mcp-server --mode http   # a comment\n# only a comment\n\
                # or: long-term-plan plan list\nclaude mcp add x \\\n  --header \"a # b\"\n```\n\n  ````json\n  {\"a\": 1}\n  ```\n  ````\n~~~text\nout\n~~~\n";
    let found = blocks("p.md", text);
    assert_eq!(found.len(), 3);
    assert_eq!((found[0].line, found[0].lang.as_str()), (3, "sh"));
    assert_eq!(
        commands(&found[0].body),
        [
            "planning-mcp-server --mode http",
            "long-term-plan plan list",
            "claude mcp add x --header \"a # b\""
        ]
    );
    assert_eq!(
        (found[1].lang.as_str(), found[1].body.as_str()),
        ("json", "{\"a\": 1}\n```")
    );
    assert_eq!(found[2].lang, "text");
    assert_eq!(
        program_words("PLANNING_SERVER_TOOLSETS=a,b planning-mcp-server --x"),
        ["planning-mcp-server", "--x"]
    );
}
