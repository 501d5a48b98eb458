// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! Runs one VCS command: no shell, in the repository's directory, stdin
//! closed unless given, a timeout, and the process killed if it runs over
//! or the call is dropped.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// The variables that point git at another repository, index or object
/// store (those `git rev-parse --local-env-vars` lists). The repository is
/// the one found from `[commit] root`; a `GIT_DIR` left in the server's
/// environment by a git hook or a shell would otherwise silently make every
/// call read and write another repository's plan. jj reads none of them
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
pub struct Runner {
    /// The working directory.
    pub dir: std::path::PathBuf,
    /// The longest one command may take.
    pub timeout: Duration,
}

/// One command: the program, its arguments, its extra environment and what
/// it reads on stdin.
#[derive(Debug, Clone)]
pub struct Invocation<'a> {
    /// The program (a name looked up on `PATH`, or a path).
    pub program: &'a str,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub env: &'a [(&'a str, &'a str)],
    /// What it reads on stdin; `None` closes stdin.
    pub stdin: Option<&'a str>,
}

impl Invocation<'_> {
    /// The command line as a user would type it, for messages.
    pub fn command_line(&self) -> String {
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
pub struct Output {
    /// Its exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// Its stdout.
    pub stdout: String,
    /// Its stderr.
    pub stderr: String,
}

impl Output {
    /// Whether it exited with status 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// `exit status 1`, or `killed by a signal`.
    pub fn status(&self) -> String {
        match self.code {
            Some(code) => format!("exit status {code}"),
            None => "killed by a signal".into(),
        }
    }
}

/// Why a command gave no output.
#[derive(Debug)]
pub enum RunError {
    /// It could not be started.
    Spawn(std::io::Error),
    /// It did not finish in time (and was killed).
    Timeout(Duration),
    /// Its pipes failed.
    Io(std::io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Spawn(error) => write!(f, "could not start: {error}"),
            RunError::Timeout(after) => {
                write!(f, "timed out after {} s and was killed", after.as_secs())
            }
            RunError::Io(error) => write!(f, "failed while talking to it: {error}"),
        }
    }
}

impl Runner {
    /// Runs `invocation` to its end, or until the timeout.
    pub async fn run(&self, invocation: &Invocation<'_>) -> Result<Output, RunError> {
        let mut command = Command::new(invocation.program);
        command.args(&invocation.args).current_dir(&self.dir);
        for variable in REPOSITORY_VARIABLES {
            command.env_remove(variable);
        }
        command
            .envs(invocation.env.iter().copied())
            .stdin(match invocation.stdin {
                Some(_) => Stdio::piped(),
                None => Stdio::null(),
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(RunError::Spawn)?;
        let stdin = child.stdin.take();
        let input = invocation.stdin.unwrap_or_default().as_bytes();
        let feed = async move {
            if let Some(mut stdin) = stdin {
                stdin.write_all(input).await?;
                stdin.shutdown().await?;
            }
            Ok::<(), std::io::Error>(())
        };
        let run = async { tokio::join!(feed, child.wait_with_output()) };
        let (fed, output) = tokio::time::timeout(self.timeout, run)
            .await
            .map_err(|_| RunError::Timeout(self.timeout))?;
        let output = output.map_err(RunError::Io)?;
        // A program that exits without reading all of stdin breaks the
        // pipe; its exit status says what happened.
        if let Err(error) = fed
            && error.kind() != std::io::ErrorKind::BrokenPipe
        {
            return Err(RunError::Io(error));
        }
        Ok(Output {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
