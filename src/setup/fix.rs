// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The commands `doctor` prints as fixes, derived from the entry it
//! checked: a server started on the entry's own host and port, with the
//! toolsets and storage the entry (or its hooks) asks for, and `setup` run
//! again with the flags that write the same entry. A fix that fits another
//! setup (port 8080, no team) would leave the check failing.

use std::ffi::OsStr;
use std::path::Path;

use super::agent::{Agent, Launch, PROGRAM, Scope, shell_word};

/// The command that starts the HTTP server the entry's `url` (plain
/// http://) points at: its host (unless the default, `localhost`) and port
/// (80 when the URL names none), toolset team when the agent's hooks read
/// its digest, and its boards in files so that they survive a restart.
/// `None` when the URL is not one this server could serve.
pub(crate) fn start_http(url: &str, team: bool) -> Option<String> {
    let rest = url.strip_prefix("http://")?;
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    let (host, port) = match authority.rsplit_once(':') {
        // An IPv6 literal's brackets are not part of the address to bind.
        Some((host, port)) if !port.contains(']') => (host, port.parse::<u16>().ok()?),
        _ => (authority, 80),
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return None;
    }
    let mut words = vec![PROGRAM.to_owned(), "--mode".into(), "http".into()];
    if host != "localhost" {
        words.extend(["--host".into(), host.to_owned()]);
    }
    words.extend(["--port".into(), port.to_string()]);
    if team {
        words.extend(["--toolsets".into(), "planning,team".into()]);
    }
    words.extend(["--storage".into(), "file".into()]);
    Some(
        words
            .iter()
            .map(|w| shell_word(w))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// `setup` with the flags that write `launch` again for `agent` in
/// `scope`: its `--scope` (unless the agent's default), its `--toolsets`
/// (from the entry's arguments, or team when `team` says its hooks read
/// the digest), its `--storage` (file or memory, the ones setup writes) or
/// its `--http` URL.
pub(crate) fn setup_again(agent: Agent, scope: Scope, launch: &Launch, team: bool) -> String {
    let mut words = vec![PROGRAM.to_owned(), "setup".into(), agent.name().into()];
    if scope != agent.default_scope() {
        words.extend(["--scope".into(), scope.name().into()]);
    }
    match launch {
        Launch::Stdio { args, .. } => {
            let value = |flag: &str| args.windows(2).find(|w| w[0] == flag).map(|w| &w[1]);
            if let Some(toolsets) = value("--toolsets") {
                words.extend(["--toolsets".into(), toolsets.clone()]);
            }
            if let Some(storage) = value("--storage").filter(|s| *s == "file" || *s == "memory") {
                words.extend(["--storage".into(), storage.clone()]);
            }
        }
        Launch::Http { url } => {
            if team {
                words.extend(["--toolsets".into(), "planning,team".into()]);
            }
            words.extend(["--http".into(), url.clone()]);
        }
    }
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The fix for a `planning-mcp-server` that `PATH` does not find: a
/// symbolic link to `this` (the binary running doctor, which works) in the
/// first directory of `path` that is absolute, exists, can be written and
/// lies outside `project` (doctor would refuse a program found there); with
/// no such directory, the directory of `this` to put on `PATH`.
pub(crate) fn put_on_path(this: &Path, project: &Path, path: Option<&OsStr>) -> String {
    let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_owned());
    let writable = |dir: &Path| {
        dir.is_absolute()
            && dir.is_dir()
            && !std::fs::canonicalize(dir).is_ok_and(|real| real.starts_with(&project))
            && rustix::fs::access(
                dir,
                rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK,
            )
            .is_ok()
    };
    let dirs: Vec<_> = path
        .map(|p| std::env::split_paths(p).collect())
        .unwrap_or_default();
    match dirs.iter().find(|dir| writable(dir)) {
        Some(dir) => format!(
            "link this binary onto PATH: `ln -sf {} {}`",
            shell_word(&this.display().to_string()),
            shell_word(&dir.join(PROGRAM).display().to_string())
        ),
        None => format!(
            "put {} on PATH (no directory on PATH can be written), or install {PROGRAM} \
             as the README's Install says",
            this.parent().unwrap_or(Path::new("/")).display()
        ),
    }
}

/// `command` (a `planning-mcp-server ...` line) run by `this` binary's
/// absolute path: what works when the path an entry names is gone.
pub(crate) fn by_path(this: &Path, command: &str) -> String {
    let rest = command.strip_prefix(PROGRAM).unwrap_or(command);
    format!("{}{rest}", shell_word(&this.display().to_string()))
}

/// `setup` for `agent` in `scope` with no other flag: what writes an
/// agent's file anew when nothing of the entry could be read.
pub(crate) fn setup_plain(agent: Agent, scope: Scope) -> String {
    let mut words = vec![PROGRAM, "setup", agent.name()];
    if scope != agent.default_scope() {
        words.extend(["--scope", scope.name()]);
    }
    words.join(" ")
}

/// The fix for a config file that cannot be read: mend it where the error
/// says, or move it away (its other entries stay there to be copied back)
/// and let `setup` (the command) write it anew.
pub(crate) fn move_away(file: &Path, setup: &str) -> String {
    let shown = file.display().to_string();
    format!(
        "mend the file where the error says; or move it away (`mv {} {}`) and write it again \
         (`{setup}`)",
        shell_word(&shown),
        shell_word(&format!("{shown}.broken")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_http_server_to_start_is_the_one_the_entry_points_at() {
        let fixes: Vec<String> = [
            ("http://localhost:47101/mcp", true),
            ("http://localhost:47101/mcp", false),
            ("http://127.0.0.1:9000/mcp", true),
            ("http://board.example/mcp", false),
            ("http://[::1]:8081/mcp", false),
        ]
        .into_iter()
        .map(|(url, team)| format!("{url} team={team}: {:?}", start_http(url, team)))
        .collect();
        insta::assert_snapshot!(fixes.join("\n"));
        assert_eq!(start_http("https://localhost:47101/mcp", true), None);
        assert_eq!(start_http("http://localhost:x/mcp", true), None);
        assert_eq!(start_http("http:///mcp", true), None);
    }

    #[test]
    fn setup_again_writes_the_same_entry() {
        let stdio = |args: &[&str]| Launch::Stdio {
            command: PROGRAM.into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
        };
        let http = Launch::Http {
            url: "http://localhost:47101/mcp".into(),
        };
        let fixes = [
            setup_again(
                Agent::ClaudeCode,
                Scope::Project,
                &stdio(&["--toolsets", "planning,team", "--storage", "file"]),
                true,
            ),
            setup_again(
                Agent::Codex,
                Scope::User,
                &stdio(&["--storage", "memory"]),
                false,
            ),
            setup_again(
                Agent::Cursor,
                Scope::Project,
                &stdio(&["--storage", "postgres"]),
                false,
            ),
            setup_again(Agent::ClaudeCode, Scope::Project, &http, true),
            setup_again(Agent::Gemini, Scope::Project, &http, false),
        ];
        insta::assert_snapshot!(fixes.join("\n"));
    }

    #[test]
    fn a_program_not_on_path_is_linked_into_the_first_writable_directory_outside_the_project() {
        let temp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(temp.path()).unwrap();
        let (project, bin, missing) = (root.join("p"), root.join("bin"), root.join("none"));
        std::fs::create_dir_all(project.join("tools")).unwrap();
        std::fs::create_dir_all(&bin).unwrap();
        let this = root.join("build").join(PROGRAM);
        let path = std::env::join_paths([
            Path::new("relative"),
            &missing,
            &project.join("tools"),
            &bin,
        ])
        .unwrap();
        assert_eq!(
            put_on_path(&this, &project, Some(&path)),
            format!(
                "link this binary onto PATH: `ln -sf {} {}`",
                this.display(),
                bin.join(PROGRAM).display()
            )
        );
        let none = std::env::join_paths([&missing]).unwrap();
        assert_eq!(
            put_on_path(&this, &project, Some(&none)),
            format!(
                "put {} on PATH (no directory on PATH can be written), or install {PROGRAM} as \
                 the README's Install says",
                root.join("build").display()
            )
        );
        assert_eq!(
            by_path(Path::new("/my apps/x"), "planning-mcp-server setup codex"),
            "'/my apps/x' setup codex"
        );
        assert_eq!(
            move_away(
                Path::new("/p/.mcp.json"),
                &setup_plain(Agent::ClaudeCode, Scope::User)
            ),
            "mend the file where the error says; or move it away (`mv /p/.mcp.json \
             /p/.mcp.json.broken`) and write it again (`planning-mcp-server setup claude-code \
             --scope user`)"
        );
    }
}
