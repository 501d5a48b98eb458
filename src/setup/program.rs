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

/// A program `doctor` may start: this binary, or the `planning-mcp-server`
/// that `PATH` finds outside the project (each with its symbolic links
/// resolved, which is the path started).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Runnable {
    /// This very binary.
    This(PathBuf),
    /// Another build, the one `PATH` finds outside the project.
    OnPath(PathBuf),
}

impl Runnable {
    /// The file to start.
    pub(crate) fn path(&self) -> &Path {
        match self {
            Self::This(path) | Self::OnPath(path) => path,
        }
    }
}

/// Why `doctor` does not start a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NotRunnable {
    /// `PATH` has no `planning-mcp-server`, or the path names no file.
    Missing,
    /// It is found, but is not a program `doctor` starts: why.
    Refused(String),
}

/// The program `doctor` may start for `command` (an agent's entry or the
/// first word of a hook), with `this` this binary, `project` the project's
/// directory and `path` the `PATH` value: this binary, or the
/// `planning-mcp-server` that `PATH` finds outside `project`. A file in the
/// project (a checked-out repository's script, by a relative path, an
/// absolute one, or a `PATH` entry that leads there) is refused, and so is
/// any other file: a person who runs `doctor` in a cloned project must not
/// run that project's code.
pub(crate) fn runnable(
    command: &str,
    this: &Path,
    project: &Path,
    path: Option<&std::ffi::OsStr>,
) -> Result<Runnable, NotRunnable> {
    let only = format!(
        "doctor starts only this binary ({}) or the {PROGRAM} that PATH finds outside the project",
        this.display()
    );
    let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_owned());
    let on_path = find_on_path(PROGRAM, path)
        .and_then(|found| std::fs::canonicalize(found).ok())
        .filter(|found| found == this || !found.starts_with(&project));
    if command == PROGRAM {
        let found = find_on_path(PROGRAM, path).ok_or(NotRunnable::Missing)?;
        return match std::fs::canonicalize(&found) {
            Ok(real) if real == this => Ok(Runnable::This(real)),
            Ok(real) if on_path.as_ref() == Some(&real) => Ok(Runnable::OnPath(real)),
            Ok(real) => Err(NotRunnable::Refused(format!(
                "PATH finds it in the project ({}): {only}",
                real.display()
            ))),
            Err(_) => Err(NotRunnable::Missing),
        };
    }
    if !Path::new(command).is_absolute() {
        return Err(NotRunnable::Refused(format!(
            "it is a path relative to the project, which setup never writes: {only}"
        )));
    }
    let real = std::fs::canonicalize(command)
        .ok()
        .filter(|real| real.is_file())
        .ok_or(NotRunnable::Missing)?;
    match real {
        real if real == this => Ok(Runnable::This(real)),
        real if on_path.as_ref() == Some(&real) => Ok(Runnable::OnPath(real)),
        real if real.starts_with(&project) => Err(NotRunnable::Refused(format!(
            "it is a file in the project ({}): {only}",
            real.display()
        ))),
        real => Err(NotRunnable::Refused(format!(
            "it is another file ({}): {only}",
            real.display()
        ))),
    }
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
             or install it as the README's Install says, or use --scope user (this binary's path)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctor_starts_this_binary_or_the_one_path_finds_outside_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let (project, outside, this) = (root.join("p"), root.join("bin"), root.join("this"));
        let script = project.join("tools").join(PROGRAM);
        for file in [&script, &outside.join(PROGRAM), &this.join(PROGRAM)] {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, "").unwrap();
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let this = this.join(PROGRAM);
        let (other, mine) = (outside.join(PROGRAM), Some(this.clone()));
        let path = |dirs: &[&Path]| std::env::join_paths(dirs).unwrap();
        let run = |command: &str, dirs: &[&Path]| {
            let path = path(dirs);
            runnable(command, &this, &project, Some(&path)).map(|r| r.path().to_owned())
        };
        assert_eq!(run(PROGRAM, &[this.parent().unwrap()]).ok(), mine);
        assert_eq!(run(PROGRAM, &[&outside]), Ok(other.clone()));
        assert_eq!(run(PROGRAM, &[&root]), Err(NotRunnable::Missing));
        assert_eq!(run(this.to_str().unwrap(), &[]).ok(), mine);
        assert_eq!(run(other.to_str().unwrap(), &[&outside]), Ok(other.clone()));
        let refused = |command: &str, dirs: &[&Path]| match run(command, dirs) {
            Err(NotRunnable::Refused(why)) => why,
            ran => panic!("{command}: {ran:?}"),
        };
        let tools = script.parent().unwrap();
        assert!(refused(PROGRAM, &[tools, &outside]).starts_with("PATH finds it in the project"));
        assert!(refused("tools/planning-mcp-server", &[]).starts_with("it is a path relative"));
        let absolute = script.to_str().unwrap();
        assert!(refused(absolute, &[tools]).starts_with("it is a file in the project"));
        let why = refused(other.to_str().unwrap(), &[]);
        assert!(why.starts_with("it is another file"), "{why}");
        assert!(why.ends_with("or the planning-mcp-server that PATH finds outside the project"));
        assert_eq!(
            run("/nonexistent/planning-mcp-server", &[]),
            Err(NotRunnable::Missing)
        );
    }

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
