// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! What `doctor` runs to see that what `setup` wrote works: the server's
//! command, asked `initialize` and `tools/list` on stdio; an HTTP
//! endpoint, asked `initialize`; a hook's command, run to its end; a board
//! directory, written to. Each is bounded in time (a process that does not
//! answer is killed), so `doctor` never hangs. Nothing here picks what to
//! run: `doctor` checks first that the program is one it may start
//! ([`super::program::runnable`]); none is run through a shell.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::runtime::process::{Invocation, MAX_OUTPUT, Runner};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a server may take to answer, a hook to finish.
const DEADLINE: Duration = Duration::from_secs(20);

/// The `initialize` request doctor sends.
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"planning-mcp-server doctor","version":"1"}}}"#;

/// Starts `program` (without a shell) with `args` in `dir` and asks it
/// `initialize` and `tools/list` on stdio: the number of tools, or what
/// went wrong. Its output is read up to [`MAX_OUTPUT`].
pub(crate) fn stdio_server(program: &Path, args: &[String], dir: &Path) -> Result<usize, String> {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start it: {e}"))?;
    let result = talk(&mut child);
    let _ = child.kill();
    let _ = child.wait();
    let mut stderr = String::new();
    if let Some(pipe) = child.stderr.take() {
        let _ = pipe.take(4096).read_to_string(&mut stderr);
    }
    result.map_err(|why| match stderr.lines().find(|l| !l.trim().is_empty()) {
        Some(line) => format!("{why}; it said: {}", line.trim()),
        None => why,
    })
}

fn talk(child: &mut Child) -> Result<usize, String> {
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        let capped = stdout.take(u64::try_from(MAX_OUTPUT).unwrap_or(u64::MAX));
        for line in BufReader::new(capped).lines() {
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    let requests = format!(
        "{INITIALIZE}\n{}\n{}\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#
    );
    // A failed write is named only if nothing better is known: a program
    // that prints something and exits closes its input before we write.
    let unread = stdin
        .write_all(requests.as_bytes())
        .and_then(|()| stdin.flush())
        .err()
        .map(|e| format!("it did not read its input ({e})"));
    let deadline = Instant::now() + DEADLINE;
    let mut initialized = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match lines.recv_timeout(left) {
            Ok(Ok(line)) => line,
            Ok(Err(e)) => return Err(format!("its output broke off ({e})")),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let seconds = DEADLINE.as_secs();
                return Err(match unread {
                    Some(unread) => format!("{unread} and did not answer within {seconds} s"),
                    None => format!("it did not answer within {seconds} s"),
                });
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(match initialized {
                    true => "it exited before it listed its tools".into(),
                    false => "it exited without answering initialize".into(),
                });
            }
        };
        let Ok(message) = serde_json::from_str::<serde_json::Value>(&line) else {
            return Err(format!(
                "it wrote something that is not JSON-RPC on stdout: {}",
                crate::runtime::text::clip(&line)
            ));
        };
        match message.get("id").and_then(|id| id.as_i64()) {
            Some(1) if message.get("result").is_some() => initialized = true,
            Some(2) if message.get("result").is_some() => {
                let tools = message["result"]["tools"].as_array().map_or(0, Vec::len);
                return Ok(tools);
            }
            Some(_) => return Err(format!("it answered with an error: {}", message["error"])),
            None => {}
        }
    }
}

/// Asks the MCP endpoint `url` (plain http://) `initialize`: the server's
/// name and version, or what went wrong.
pub(crate) fn http_server(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or("doctor checks plain http:// URLs only; check an https one with curl")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let address = match authority.rsplit_once(':') {
        Some((_, port)) if port.parse::<u16>().is_ok() => authority.to_owned(),
        _ => format!("{authority}:80"),
    };
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: \
         application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{INITIALIZE}",
        INITIALIZE.len()
    );
    let response = exchange(&address, &request).map_err(|e| format!("cannot reach it: {e}"))?;
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or("it does not answer HTTP")?;
    match status {
        200 => {}
        401 => {
            return Err(
                "it wants a token (401): add its Authorization header in the agent's config".into(),
            );
        }
        other => return Err(format!("it answered {other}")),
    }
    let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    let server = body
        .lines()
        .map(|line| line.strip_prefix("data:").unwrap_or(line).trim())
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| {
            let info = message.get("result")?.get("serverInfo")?;
            Some(format!(
                "{} {}",
                info.get("name")?.as_str()?,
                info.get("version")?.as_str()?
            ))
        });
    let session = response
        .lines()
        .take_while(|line| !line.is_empty())
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        });
    if let Some(session) = session {
        // End the session it opened, so that it does not wait to expire.
        let delete = format!(
            "DELETE {path} HTTP/1.1\r\nHost: {authority}\r\nMcp-Session-Id: {session}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        let _ = exchange(&address, &delete);
    }
    server.ok_or_else(|| "its answer to initialize holds no result".into())
}

/// Sends `request` to `address` and reads the response to its end, within
/// the deadline.
fn exchange(address: &str, request: &str) -> std::io::Result<String> {
    let deadline = Instant::now() + DEADLINE;
    let socket = address
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::other("the name resolves to no address"))?;
    let mut stream = TcpStream::connect_timeout(&socket, DEADLINE)?;
    stream.set_write_timeout(Some(DEADLINE))?;
    stream.write_all(request.as_bytes())?;
    let mut response = Vec::new();
    let mut chunk = [0; 4096];
    while response.len() < 1024 * 1024 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        stream.set_read_timeout(Some(left))?;
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => response.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(String::from_utf8_lossy(&response).into_owned())
}

/// Runs `program` with `args` in `dir` as an agent runs a hook, but
/// without a shell (the words were checked to be a hook `setup` writes):
/// its standard output, if it exits 0. Through [`Runner`]: its process
/// group is killed past the deadline, and its output is capped.
pub(crate) fn hook(program: &Path, args: &[String], dir: &Path) -> Result<String, String> {
    let program = program
        .to_str()
        .ok_or_else(|| format!("its path {} is not UTF-8", program.display()))?;
    let runner = Runner {
        dir: dir.to_owned(),
        timeout: DEADLINE,
    };
    let invocation = Invocation {
        program,
        args: args.to_vec(),
        env: &[],
        stdin: None,
    };
    let output = runner
        .run_blocking(&invocation)
        .map_err(|e| format!("it {e}"))?;
    match output.success() {
        true => Ok(output.stdout),
        false => Err(format!(
            "it exited with {}: {}",
            output.code.map_or("a signal".to_owned(), |c| c.to_string()),
            output.stderr.trim()
        )),
    }
}

/// Why the server could not keep its boards in a directory, and the
/// command that makes it able to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unwritable {
    /// What is in the way.
    pub(crate) why: String,
    /// What to run, for this path.
    pub(crate) fix: String,
}

/// Whether the server can keep its boards in `dir` (made if missing, as
/// the server would): a file is made in it and removed again, or in the
/// nearest directory above it that exists. A file where a directory of the
/// path should be is in the way too: the server could make nothing there.
pub(crate) fn writable(dir: &Path) -> Result<(), Unwritable> {
    let nearest = dir.ancestors().find(|d| d.symlink_metadata().is_ok());
    let Some(existing) = nearest else {
        return Err(Unwritable {
            why: "no directory above it exists".into(),
            fix: "make the directory".into(),
        });
    };
    let shown = existing.display().to_string();
    if !existing.is_dir() {
        let moved = format!("{shown}.moved");
        return Err(Unwritable {
            why: format!("{shown} is a file, not a directory"),
            fix: format!(
                "move the file away (`mv {} {}`); the server makes the directory",
                super::agent::shell_word(&shown),
                super::agent::shell_word(&moved)
            ),
        });
    }
    let probe = existing.join(format!(
        ".planning-mcp-server-doctor-{}",
        std::process::id()
    ));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| Unwritable {
            why: format!("{shown} cannot be written: {e}"),
            fix: format!(
                "give it write permission (`chmod u+w {}`)",
                super::agent::shell_word(&shown)
            ),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_run_in_their_directory_without_a_shell_and_say_why_they_fail() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            hook(Path::new("pwd"), &[], dir.path()).unwrap().trim(),
            std::fs::canonicalize(dir.path())
                .unwrap()
                .display()
                .to_string()
        );
        let words = ["-c".to_owned(), "echo no >&2; exit 3".to_owned()];
        assert_eq!(
            hook(Path::new("sh"), &words, dir.path()).unwrap_err(),
            "it exited with 3: no"
        );
        // The words are arguments, never read by a shell.
        let marker = dir.path().join("x");
        let words = [format!("a; touch {}", marker.display())];
        assert!(hook(Path::new("echo"), &words, dir.path()).is_ok());
        assert!(!marker.exists());
        let error = hook(Path::new("/nonexistent/x"), &[], dir.path()).unwrap_err();
        assert!(error.starts_with("it could not start: "), "{error}");
    }

    #[test]
    fn a_server_that_does_not_speak_mcp_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let error = stdio_server(Path::new("echo"), &["hello".into()], dir.path()).unwrap_err();
        assert_eq!(
            error,
            "it wrote something that is not JSON-RPC on stdout: hello"
        );
        let error = stdio_server(Path::new("true"), &[], dir.path()).unwrap_err();
        assert_eq!(error, "it exited without answering initialize");
        let error = stdio_server(Path::new("/nonexistent/x"), &[], dir.path()).unwrap_err();
        assert!(error.starts_with("cannot start it: "), "{error}");
    }

    #[test]
    fn a_directory_is_writable_or_named() {
        let dir = tempfile::tempdir().unwrap();
        writable(&dir.path().join("not/yet")).unwrap();
        assert!(!dir.path().join("not").exists());
        // A file where a directory of the path goes: nothing can be made.
        std::fs::write(dir.path().join("file"), "").unwrap();
        let shown = dir.path().join("file").display().to_string();
        let refused = writable(&dir.path().join("file/boards")).unwrap_err();
        assert_eq!(refused.why, format!("{shown} is a file, not a directory"));
        assert!(
            refused.fix.contains(&format!("`mv {shown} {shown}.moved`")),
            "{refused:?}"
        );
        assert!(
            http_server("https://x/mcp")
                .unwrap_err()
                .contains("plain http://")
        );
    }
}
