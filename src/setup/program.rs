// SPDX-FileCopyrightText: 2026 planning-mcp-server developers
//
// SPDX-License-Identifier: AGPL-3.0-or-later

//! The command an agent runs: in a project's files, which a team commits,
//! the name `planning-mcp-server`, found on each reader's `PATH` (checked
//! here to be this binary, or said not to be); in a user's files, the
//! absolute path of this binary.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use super::agent::{PROGRAM, Scope};

/// The command written, and what the user should know about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Program {
    /// The program of the agent's entry.
    pub(crate) command: String,
    /// Where it leads, or why it may not work.
    pub(crate) note: String,
}

/// This binary, its symbolic links resolved.
pub(crate) fn this_binary() -> Result<PathBuf, String> {
    std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| format!("cannot find this program's own file: {e}"))
}

/// The first executable `name` on `path` (a `PATH` value).
pub(crate) fn find_on_path(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| {
            std::fs::metadata(candidate)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The command for files of `scope`.
pub(crate) fn for_scope(scope: Scope) -> Result<Program, String> {
    let this = this_binary()?;
    match scope {
        Scope::User => {
            let command = this
                .to_str()
                .ok_or_else(|| format!("this program's path {} is not UTF-8", this.display()))?
                .to_owned();
            Ok(Program {
                note: format!("the agent runs this binary by its path, {command}"),
                command,
            })
        }
        Scope::Project => {
            let found = find_on_path(PROGRAM, std::env::var_os("PATH").as_deref());
            Ok(Program {
                command: PROGRAM.to_owned(),
                note: path_note(&this, found.as_deref()),
            })
        }
    }
}

/// What `PATH` gives for `planning-mcp-server`, compared with `this`.
pub(crate) fn path_note(this: &Path, found: Option<&Path>) -> String {
    let dir = this.parent().unwrap_or(Path::new("/")).display();
    match found.map(|f| (f, std::fs::canonicalize(f).ok())) {
        Some((_, Some(real))) if real == this => {
            format!("{PROGRAM} on PATH is this binary ({})", this.display())
        }
        Some((found, _)) => format!(
            "warning: {PROGRAM} on PATH is {}, not this binary ({}): the agent will start that \
             one; put {dir} first on PATH, or use --scope user (this binary's path)",
            found.display(),
            this.display()
        ),
        None => format!(
            "warning: {PROGRAM} is not on PATH, so the agent cannot start it: put {dir} on PATH, \
             or install it (cargo install --path .), or use --scope user (this binary's path)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn found_on_path_only_when_executable() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(a.join(PROGRAM), "").unwrap();
        std::fs::write(b.join(PROGRAM), "").unwrap();
        std::fs::set_permissions(b.join(PROGRAM), std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::join_paths([&a, &b]).unwrap();
        assert_eq!(find_on_path(PROGRAM, Some(&path)), Some(b.join(PROGRAM)));
        assert_eq!(find_on_path(PROGRAM, None), None);
        let this = std::fs::canonicalize(b.join(PROGRAM)).unwrap();
        let expected = format!("is this binary ({})", this.display());
        assert!(path_note(&this, Some(&b.join(PROGRAM))).ends_with(&expected));
        assert!(path_note(&this, None).starts_with("warning: planning-mcp-server is not on PATH"));
        assert!(path_note(&this, Some(&a.join(PROGRAM))).contains("not this binary"));
    }
}
