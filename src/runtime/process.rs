// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Runs one command of a program the server drives (jj, git): no shell, in the repository's directory, stdin
//! closed unless given, its output read up to [`MAX_OUTPUT`] per stream,
//! and a timeout. The command leads a process group of its own, tracked in
//! [`CHILDREN`]: if it runs over, prints past the cap, or the call is
//! dropped, the whole group is killed (a wrapper script's children with
//! it), and shutdown kills what still runs after its grace period.

use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use rustix::process::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::runtime::children::{CHILDREN, Children};

/// The most bytes read from one stream of a command. A plan is at most
/// 1 MiB and a file list a line per changed file, so a command that prints
/// more is not the VCS it should be (or prints without end); reading on
/// would only fill the memory.
pub(crate) const MAX_OUTPUT: usize = 16 * 1024 * 1024;

/// The variables that point git at another repository, index or object
/// store (those `git rev-parse --local-env-vars` lists). The repository is
/// the one the caller found (`[commit] root`, the board's repository); a
/// `GIT_DIR` left in the server's environment by a git hook or a shell
/// would otherwise silently make every call read and write another
/// repository. jj reads none of them
/// but its colocated git does, so neither program gets them.
const REPOSITORY_VARIABLES: [&str; 15] = [
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_REPLACE_REF_BASE",
    "GIT_PREFIX",
    "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR",
];

/// How a program is run: where and for how long.
#[derive(Debug, Clone)]
pub(crate) struct Runner {
    /// The working directory.
    pub(crate) dir: std::path::PathBuf,
    /// The longest one command may take.
    pub(crate) timeout: Duration,
}

/// One command: the program, its arguments, its extra environment and what
/// it reads on stdin.
#[derive(Debug, Clone)]
pub(crate) struct Invocation<'a> {
    /// The program (a name looked up on `PATH`, or a path).
    pub(crate) program: &'a str,
    /// Its arguments.
    pub(crate) args: Vec<String>,
    /// Extra environment variables.
    pub(crate) env: &'a [(&'a str, &'a str)],
    /// What it reads on stdin; `None` closes stdin.
    pub(crate) stdin: Option<&'a str>,
}

impl Invocation<'_> {
    /// The command line as a user would type it, for messages.
    pub(crate) fn command_line(&self) -> String {
        std::iter::once(self.program.to_owned())
            .chain(self.args.iter().map(|a| quote(a)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `arg`, single-quoted when a shell would split or expand it.
fn quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@^{},+".contains(c));
    match plain {
        true => arg.to_owned(),
        false => format!("'{}'", arg.replace('\'', r"'\''")),
    }
}

/// What a finished command gave.
#[derive(Debug, Clone)]
pub(crate) struct Output {
    /// Its exit code; `None` when a signal ended it.
    pub(crate) code: Option<i32>,
    /// Its stdout.
    pub(crate) stdout: String,
    /// Its stderr.
    pub(crate) stderr: String,
}

impl Output {
    /// Whether it exited with status 0.
    pub(crate) fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// `exit status 1`, or `killed by a signal`.
    pub(crate) fn status(&self) -> String {
        match self.code {
            Some(code) => format!("exit status {code}"),
            None => "killed by a signal".into(),
        }
    }
}

/// What a finished command gave, its stdout as bytes.
#[derive(Debug, Clone)]
pub(crate) struct BytesOutput {
    /// Its exit code; `None` when a signal ended it.
    pub(crate) code: Option<i32>,
    /// Its stdout.
    pub(crate) stdout: Vec<u8>,
    /// Its stderr.
    pub(crate) stderr: String,
}

/// Why a command gave no output. In every case but `Spawn` and
/// `ShuttingDown` its process group was killed.
#[derive(Debug)]
pub(crate) enum RunError {
    /// It could not be started.
    Spawn(std::io::Error),
    /// It did not finish in time.
    Timeout(Duration),
    /// It printed more than `cap` bytes on `stream` (`stdout`, `stderr`).
    TooMuchOutput {
        /// The stream.
        stream: &'static str,
        /// The most bytes read from it.
        cap: usize,
    },
    /// Its pipes failed.
    Io(std::io::Error),
    /// The server is shutting down and runs no more commands.
    ShuttingDown,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Spawn(error) => write!(f, "could not start: {error}"),
            RunError::Timeout(after) => {
                write!(
                    f,
                    "timed out after {} s and was killed",
                    after.as_secs_f64()
                )
            }
            RunError::TooMuchOutput { stream, cap } => write!(
                f,
                "its {stream} exceeded {cap} bytes ({} MiB) and it was killed",
                cap / (1024 * 1024)
            ),
            RunError::Io(error) => write!(f, "failed while talking to it: {error}"),
            RunError::ShuttingDown => write!(f, "not run: the server is shutting down"),
        }
    }
}

impl Runner {
    /// Runs `invocation` to its end, or until the timeout or the output
    /// cap.
    pub(crate) async fn run(&self, invocation: &Invocation<'_>) -> Result<Output, RunError> {
        self.run_in(invocation, MAX_OUTPUT, &CHILDREN).await
    }

    /// [`Runner::run`] for binary input and output (git's objects and
    /// packs): `input`, when given, is fed on stdin in place of the
    /// invocation's text, and stdout is kept as bytes.
    pub(crate) async fn run_raw(
        &self,
        invocation: &Invocation<'_>,
        input: Option<&[u8]>,
    ) -> Result<BytesOutput, RunError> {
        let input = input.or(invocation.stdin.map(str::as_bytes));
        self.run_bytes_in(invocation, input, MAX_OUTPUT, &CHILDREN)
            .await
    }

    /// [`Runner::run`] for code that is not async (a store's calls, which
    /// run on blocking threads, and the command-line programs): the
    /// command runs on a thread of its own with a small runtime, so this
    /// works on any thread, inside a Tokio runtime or not. It blocks the
    /// calling thread until the command ends: never call it on an async
    /// worker.
    pub(crate) fn run_blocking(&self, invocation: &Invocation<'_>) -> Result<Output, RunError> {
        let output = self.run_blocking_bytes(invocation)?;
        Ok(Output {
            code: output.code,
            stdout: text(output.stdout),
            stderr: output.stderr,
        })
    }

    /// [`Runner::run_blocking`], its stdout kept as bytes (file names,
    /// which need not be UTF-8).
    pub(crate) fn run_blocking_bytes(
        &self,
        invocation: &Invocation<'_>,
    ) -> Result<BytesOutput, RunError> {
        std::thread::scope(|scope| {
            let ran = scope.spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(RunError::Io)?;
                let input = invocation.stdin.map(str::as_bytes);
                runtime.block_on(self.run_bytes_in(invocation, input, MAX_OUTPUT, &CHILDREN))
            });
            ran.join().unwrap_or_else(|_| {
                Err(RunError::Io(std::io::Error::other(
                    "the thread that ran it panicked",
                )))
            })
        })
    }

    /// [`Runner::run`], reading at most `cap` bytes per stream, the
    /// process group tracked in `children`.
    async fn run_in(
        &self,
        invocation: &Invocation<'_>,
        cap: usize,
        children: &Children,
    ) -> Result<Output, RunError> {
        let input = invocation.stdin.map(str::as_bytes);
        let output = self.run_bytes_in(invocation, input, cap, children).await?;
        Ok(Output {
            code: output.code,
            stdout: text(output.stdout),
            stderr: output.stderr,
        })
    }

    /// [`Runner::run_in`], its stdout as bytes, `input` on its stdin
    /// (`None` closes it).
    async fn run_bytes_in(
        &self,
        invocation: &Invocation<'_>,
        input: Option<&[u8]>,
        cap: usize,
        children: &Children,
    ) -> Result<BytesOutput, RunError> {
        let mut command = Command::new(invocation.program);
        command.args(&invocation.args).current_dir(&self.dir);
        for variable in REPOSITORY_VARIABLES {
            command.env_remove(variable);
        }
        command
            .envs(invocation.env.iter().copied())
            .stdin(match input {
                Some(_) => Stdio::piped(),
                None => Stdio::null(),
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(RunError::Spawn)?;
        let pid = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(Pid::from_raw)
            .ok_or_else(|| RunError::Io(std::io::Error::other("it has no process ID")))?;
        // Declared after `child`, so dropped before it: on every early
        // return the group is killed while its leader is not reaped yet, so
        // its ID cannot have been reused.
        let group = children.track(pid).map_err(|_| RunError::ShuttingDown)?;
        let stdin = child.stdin.take();
        let input = input.unwrap_or_default();
        let feed = async move {
            if let Some(mut stdin) = stdin {
                let fed = async {
                    stdin.write_all(input).await?;
                    stdin.shutdown().await
                };
                // A program that exits without reading all of stdin breaks
                // the pipe; its exit status says what happened.
                match fed.await {
                    Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                        return Err(RunError::Io(error));
                    }
                    _ => {}
                }
            }
            Ok(())
        };
        let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
        let run = async {
            let ((), stdout, stderr) = tokio::try_join!(
                feed,
                read_capped(stdout, "stdout", cap),
                read_capped(stderr, "stderr", cap)
            )?;
            let status: ExitStatus = child.wait().await.map_err(RunError::Io)?;
            Ok::<_, RunError>((status, stdout, stderr))
        };
        let (status, stdout, stderr) = tokio::time::timeout(self.timeout, run)
            .await
            .map_err(|_| RunError::Timeout(self.timeout))??;
        group.reaped();
        Ok(BytesOutput {
            code: status.code(),
            stdout,
            stderr: text(stderr),
        })
    }
}

/// All of `stream`, unless it holds more than `cap` bytes: then the
/// reading stops one byte past the cap.
async fn read_capped(
    stream: Option<impl AsyncRead + Unpin>,
    name: &'static str,
    cap: usize,
) -> Result<Vec<u8>, RunError> {
    let mut bytes = Vec::new();
    if let Some(stream) = stream {
        let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
        stream
            .take(limit)
            .read_to_end(&mut bytes)
            .await
            .map_err(RunError::Io)?;
    }
    match bytes.len() > cap {
        true => Err(RunError::TooMuchOutput { stream: name, cap }),
        false => Ok(bytes),
    }
}

/// `bytes` as text, invalid UTF-8 replaced; no copy when it is valid.
fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|invalid| String::from_utf8_lossy(invalid.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::children::tests::gone;

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let invocation = Invocation {
            program: "jj",
            args: vec![
                "log".into(),
                "-T".into(),
                r#"change_id ++ "\n""#.into(),
                "it's".into(),
                "".into(),
                "refs/commit-plan/main^{commit}".into(),
            ],
            env: &[],
            stdin: None,
        };
        assert_eq!(
            invocation.command_line(),
            r#"jj log -T 'change_id ++ "\n"' 'it'\''s' '' refs/commit-plan/main^{commit}"#
        );
    }

    fn runner(timeout: Duration) -> Runner {
        Runner {
            dir: std::env::temp_dir(),
            timeout,
        }
    }

    #[tokio::test]
    async fn runs_feeds_stdin_and_reports_the_status() {
        let cat = Invocation {
            program: "cat",
            args: vec![],
            env: &[],
            stdin: Some("héllo\n"),
        };
        let output = runner(Duration::from_secs(30)).run(&cat).await.unwrap();
        assert!(output.success());
        assert_eq!(output.stdout, "héllo\n");
        let fail = Invocation {
            program: "sh",
            args: vec!["-c".into(), "echo oops >&2; exit 3".into()],
            env: &[],
            stdin: None,
        };
        let output = runner(Duration::from_secs(30)).run(&fail).await.unwrap();
        assert_eq!(
            (output.status(), output.stderr.as_str()),
            ("exit status 3".to_owned(), "oops\n")
        );
    }

    #[test]
    fn a_blocking_run_works_outside_and_inside_a_runtime() {
        let echo = Invocation {
            program: "sh",
            args: vec![
                "-c".into(),
                "printf '%s' \"$1\"".into(),
                "sh".into(),
                "outside".into(),
            ],
            env: &[],
            stdin: None,
        };
        let output = runner(Duration::from_secs(30)).run_blocking(&echo).unwrap();
        assert_eq!(output.stdout, "outside");
        // On a runtime's own thread, where a second runtime may not start.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let output =
            runtime.block_on(async { runner(Duration::from_secs(30)).run_blocking(&echo) });
        assert_eq!(output.unwrap().stdout, "outside");
    }

    #[tokio::test]
    async fn a_missing_program_and_a_timeout_are_errors() {
        let missing = Invocation {
            program: "/nonexistent/jj",
            args: vec![],
            env: &[],
            stdin: None,
        };
        let error = runner(Duration::from_secs(30))
            .run(&missing)
            .await
            .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("could not start: No such file or directory"),
            "{error}"
        );
        // A zero timeout elapses before any process can answer.
        let sleep = Invocation {
            program: "sleep",
            args: vec!["5".into()],
            env: &[],
            stdin: None,
        };
        let error = runner(Duration::ZERO).run(&sleep).await.unwrap_err();
        assert_eq!(error.to_string(), "timed out after 0 s and was killed");
    }

    fn sh(script: &str, args: &[&str]) -> Invocation<'static> {
        let mut all = vec!["-c".to_owned(), script.to_owned()];
        all.extend(args.iter().map(|a| (*a).to_owned()));
        Invocation {
            program: "sh",
            args: all,
            env: &[],
            stdin: None,
        }
    }

    #[tokio::test]
    async fn output_past_the_cap_kills_the_command() {
        let children = Children::default();
        let run = runner(Duration::from_secs(600));
        for (script, stream) in [("exec yes", "stdout"), ("yes >&2", "stderr")] {
            let error = run
                .run_in(&sh(script, &[]), 1000, &children)
                .await
                .unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("its {stream} exceeded 1000 bytes (0 MiB) and it was killed")
            );
        }
        assert_eq!(children.running(), 0);
        // Exactly the cap is fine.
        let output = run
            .run_in(&sh("head -c 1000 /dev/zero", &[]), 1000, &children)
            .await
            .unwrap();
        assert_eq!((output.success(), output.stdout.len()), (true, 1000));
        assert_eq!(
            RunError::TooMuchOutput {
                stream: "stdout",
                cap: MAX_OUTPUT
            }
            .to_string(),
            "its stdout exceeded 16777216 bytes (16 MiB) and it was killed"
        );
    }

    /// A wrapper that starts `sleep 1000`, writes its process ID to the
    /// file it is given, and waits for it.
    const WRAPPER: &str = "sleep 1000 & echo $! > \"$0.tmp\" && mv \"$0.tmp\" \"$0\"; wait";

    /// The process ID in `file`, once it is there (a hang bound only).
    async fn pid_in(file: &std::path::Path) -> Pid {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(text) = std::fs::read_to_string(file) {
                return Pid::from_raw(text.trim().parse().unwrap()).unwrap();
            }
            assert!(tokio::time::Instant::now() < deadline, "no {file:?}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test]
    async fn a_timeout_or_a_dropped_call_kills_the_wrappers_children_too() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pid");
        let path = file.display().to_string();
        let children = Children::default();
        // Retried until a run that timed out had started its child.
        let mut attempts = 0;
        let sleep = loop {
            attempts += 1;
            assert!(attempts <= 100, "the wrapper never started in time");
            let _ = std::fs::remove_file(&file);
            let error = runner(Duration::from_millis(500))
                .run_in(&sh(WRAPPER, &[&path]), MAX_OUTPUT, &children)
                .await
                .unwrap_err();
            assert_eq!(error.to_string(), "timed out after 0.5 s and was killed");
            if file.exists() {
                break pid_in(&file).await;
            }
        };
        assert!(gone(sleep), "the timeout killed the wrapper's child");
        assert_eq!(children.running(), 0);

        std::fs::remove_file(&file).unwrap();
        let long = runner(Duration::from_secs(600));
        let wrapper = sh(WRAPPER, &[&path]);
        let sleep = tokio::select! {
            ran = long.run_in(&wrapper, MAX_OUTPUT, &children) => panic!("{ran:?}"),
            sleep = pid_in(&file) => sleep,
        };
        // The run was dropped with the `select!`.
        assert!(gone(sleep), "dropping the call killed the wrapper's child");
        assert_eq!(children.running(), 0);
    }

    #[tokio::test]
    async fn shutdown_kills_running_commands_and_refuses_new_ones() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pid");
        let path = file.display().to_string();
        let children = Children::default();
        let long = runner(Duration::from_secs(600));
        let wrapper = sh(WRAPPER, &[&path]);
        let (ran, sleep) = tokio::join!(long.run_in(&wrapper, MAX_OUTPUT, &children), async {
            let sleep = pid_in(&file).await;
            assert_eq!(children.end(Duration::ZERO).await, 1);
            sleep
        });
        assert_eq!(ran.unwrap().status(), "killed by a signal");
        assert!(gone(sleep));
        let refused = long
            .run_in(&sh("true", &[]), MAX_OUTPUT, &children)
            .await
            .unwrap_err();
        assert_eq!(refused.to_string(), "not run: the server is shutting down");
    }
}
